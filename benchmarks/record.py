"""Recorded data per seed (``benchmarks/data/seed-N.json``): the ``game`` and ``late``
corpora as played, and every proven answer (value and tiles) of a full run.

Simulated games follow our solver's moves, and among moves that tie on the objective a
changed solver may pick another one, after which the games, and so the ``game`` corpus,
diverge. Freezing the positions keeps runs before and after a solver change comparable.
The recorded answers are a guard for the same change: a proven optimum has one value and
one tile count, so a different one means one of the two solvers is wrong.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.corpora import Case
from rummikub.tiles.position import Position
from rummikub.tiles.rules import STANDARD, Rules
from rummikub.tiles.tiles import format_tiles

DATA = Path(__file__).resolve().parent / "data"


def path_for(seed: int) -> Path:
    return DATA / f"seed-{seed}.json"


def case_data(case: Case) -> dict[str, Any]:
    position = case.position
    return {
        "name": case.name,
        "table": [str(meld) for meld in position.table],
        "rack": format_tiles(position.rack),
        "opened": position.opened,
    }


def case_from_data(data: dict[str, Any], rules: Rules = STANDARD) -> Case:
    position = Position.parse(
        rack=data["rack"], table=data["table"], opened=data["opened"], rules=rules
    )
    return Case(data["name"], position)


@dataclass(slots=True)
class Record:
    """What a seed's file holds; empty when there is no file yet."""

    game: list[Case] = field(default_factory=list)
    #: ``answers[name] = (value, tiles)`` of a proven answer (value objective).
    answers: dict[str, tuple[int, int]] = field(default_factory=dict)
    late: list[Case] = field(default_factory=list)
    locked: list[Case] = field(default_factory=list)

    def played(self, corpus: str) -> list[Case]:
        """The recorded positions of a simulated corpus (``game``, ``late`` or
        ``locked-jokers``)."""
        return {"game": self.game, "late": self.late, "locked-jokers": self.locked}.get(corpus, [])

    def keep(self, corpus: str, cases: list[Case]) -> None:
        if corpus == "game":
            self.game = list(cases)
        elif corpus == "late":
            self.late = list(cases)
        elif corpus == "locked-jokers":
            self.locked = list(cases)

    @classmethod
    def load(cls, path: Path) -> Record:
        if not path.exists():
            return cls()
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(
            [case_from_data(item) for item in data.get("game", [])],
            {name: (int(v), int(t)) for name, (v, t) in data.get("answers", {}).items()},
            [case_from_data(item) for item in data.get("late", [])],
            [case_from_data(item) for item in data.get("locked-jokers", [])],
        )

    def save(self, path: Path, seed: int) -> None:
        """Write the record, one position or answer per line (small diffs on a refresh)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        about = f"python -m benchmarks --seed {seed} --record; see benchmarks/record.py"
        games = [f"    {json.dumps(case_data(case))}" for case in self.game]
        late = [f"    {json.dumps(case_data(case))}" for case in self.late]
        locked = [f"    {json.dumps(case_data(case))}" for case in self.locked]
        answers = [
            f"    {json.dumps(name)}: {json.dumps(list(answer))}"
            for name, answer in sorted(self.answers.items())
        ]
        text = "\n".join(
            [
                "{",
                f'  "about": {json.dumps(about)},',
                '  "game": [',
                ",\n".join(games),
                "  ],",
                '  "late": [',
                ",\n".join(late),
                "  ],",
                '  "locked-jokers": [',
                ",\n".join(locked),
                "  ],",
                '  "answers": {',
                ",\n".join(answers),
                "  }",
                "}",
            ]
        )
        path.write_text(text + "\n", encoding="utf-8")
