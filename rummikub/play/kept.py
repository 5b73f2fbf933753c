"""Games kept in a file, so that a duel or a ladder stopped part way resumes game by game
(``--save``), over any :class:`~rummikub.play.protocol.Game`.

A save file holds the games played so far of one or more duels, each duel under its key
(:meth:`~rummikub.play.duel.Pairing.key`: the game, A, B, the players, the seed and the
rules, everything that decides its games), each game as its summary's JSON data
(:meth:`~rummikub.play.selfplay.Summary.to_data`, read back by the game's
:meth:`~rummikub.play.protocol.SelfPlay.read_summary`). :func:`play` takes from the file
the games it holds for the duels asked for, plays the others, and adds each to the file as
it finishes: a rerun with the same settings plays only the games not kept, one with more
games reuses them all (a deal's seed is the duel's seed and the deal's number), and the
report is the same bytes either way, since it reads the same summaries in index order.
Failed games are kept too: they fail again the same way.

Every write is the whole file, under its lock (:func:`rummikub.core.files.locked`), read
again first, the new games added, written beside and renamed over
(:func:`~rummikub.core.files.write_atomically`): two programs writing one file lose
nothing of each other's, and a crash leaves the old file or the new one. Games are written
as they finish (in this process after each game; on Dask after each batch) while the file
is small; once it holds many, after a share of them (:data:`WRITE_SHARE`), so that writing a
big file again and again costs little next to its games.

A duel's file is :data:`DUEL_GAMES`; a ladder's (:mod:`rummikub.play.ladder`) holds its
pairs' games in the same ``duels``, each pair being one or two duels. The file trusts the
code: a game kept by an older version of a strategy is taken as it is.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from rummikub.core import cluster, documents, files
from rummikub.core.cluster import Progress
from rummikub.core.errors import RummikubError
from rummikub.play import selfplay
from rummikub.play.selfplay import Seating, Summary, Table

if TYPE_CHECKING:
    from rummikub.play.duel import Pairing

__all__ = [
    "DUEL_GAMES",
    "MAX_SAVE_BYTES",
    "WRITE_SHARE",
    "SaveKind",
    "Saved",
    "key_text",
    "play",
    "to_play",
]

#: The largest save file read: some million games' summaries.
MAX_SAVE_BYTES = 400_000_000
#: Games finished are written once they are this share of those in the file (1/256): at
#: once up to 256 games kept, so that a duel of costly games loses at most the one being
#: played, and in bigger steps beyond, so that the writes grow with the file, not with its
#: square.
WRITE_SHARE = 256


@dataclass(frozen=True, slots=True)
class SaveKind:
    """A kind of save file: its ``format`` and ``version`` (and the ``older`` versions still
    read), what a message calls it, and the ``sections`` it keeps besides its games (lists
    read and written back as they are)."""

    format: str
    version: int
    what: str
    older: tuple[int, ...] = ()
    sections: tuple[str, ...] = ()

    @property
    def versions(self) -> str:
        return " or ".join(str(v) for v in (*self.older, self.version))


#: The file of ``rummikub duel --save``.
DUEL_GAMES = SaveKind("rummikub-duel-games", 1, "a file of duel games")


def key_text(key: dict[str, Any]) -> str:
    """A key as the file compares it: its JSON, the keys sorted."""
    return json.dumps(key, sort_keys=True)


@dataclass(slots=True)
class Saved:
    """What a save file holds, read and checked: the games' data by index, by duel key
    (:func:`key_text`), and the kind's other sections."""

    name: str
    kind: SaveKind
    duels: dict[str, dict[int, dict[str, Any]]] = field(default_factory=dict)
    sections: dict[str, list[Any]] = field(default_factory=dict)

    @classmethod
    def read(cls, path: str | os.PathLike[str], kind: SaveKind) -> Saved:
        """The file at ``path`` (nothing kept when there is none), or a
        :class:`RummikubError` of one line naming it and what is wrong."""
        name = os.fspath(path)
        if os.path.isdir(name):
            raise RummikubError(f"{name}: a folder, not {kind.what}")
        if not os.path.lexists(name):
            return cls(name, kind, {}, {section: [] for section in kind.sections})
        data = documents.read_document(name, fmt="json", limit=MAX_SAVE_BYTES)
        if not isinstance(data, dict) or data.get("format") != kind.format:
            raise RummikubError(f"{name}: not {kind.what} (expected format {kind.format!r})")
        version = data.get("version")
        if type(version) is not int or version not in (*kind.older, kind.version):
            raise RummikubError(
                f"{name}: version {version!r} of {kind.what} (this program reads version "
                f"{kind.versions})"
            )
        sections = {}
        for section in kind.sections:
            found = data.get(section, [])
            if not isinstance(found, list):
                raise RummikubError(f"{name}: {section!r} is not a list")
            sections[section] = found
        raw = data.get("duels", []) if version in kind.older else data.get("duels")
        if not isinstance(raw, list):
            raise RummikubError(f"{name}: 'duels' is not a list of duels and their games")
        duels: dict[str, dict[int, dict[str, Any]]] = {}
        for place, entry in enumerate(raw):
            where = f"{name}: duel {place + 1}"
            if not (
                isinstance(entry, dict)
                and isinstance(entry.get("key"), dict)
                and isinstance(entry.get("games"), list)
            ):
                raise RummikubError(f"{where} is not a key and its games")
            key = key_text(entry["key"])
            if key in duels:
                raise RummikubError(f"{where} has the key of an earlier one")
            games: dict[int, dict[str, Any]] = {}
            for number, game in enumerate(entry["games"]):
                index = game.get("index") if isinstance(game, dict) else None
                if type(index) is not int or index < 0 or index in games:
                    raise RummikubError(
                        f"{where}, game {number + 1}: not a game's data with an index of its own"
                    )
                games[index] = game
            duels[key] = games
        return cls(name, kind, duels, sections)

    @property
    def size(self) -> int:
        """The games kept, of every duel."""
        return sum(len(games) for games in self.duels.values())

    def games(self, setup: Pairing, schedule: Sequence[Seating]) -> dict[int, Summary]:
        """The games kept of ``setup``'s ``schedule`` (those of a duel of fewer games are
        all of them; those past it stay in the file), read back by its game and checked to
        be the games of their seatings."""
        kept = self.duels.get(key_text(setup.key()), {})
        found: dict[int, Summary] = {}
        for seating in schedule:
            data = kept.get(seating.index)
            if data is None:
                continue
            where = f"{self.name}: game {seating.index} of {setup.a} against {setup.b}"
            try:
                summary = setup.game.read_summary(data)
            except ValueError as error:
                raise RummikubError(f"{where} is malformed: {error}") from None
            problem = _problem(summary, seating)
            if problem is not None:
                raise RummikubError(f"{where} is not the game of its seating: {problem}")
            found[seating.index] = summary
        return found

    def add(self, key: str, games: dict[int, dict[str, Any]]) -> None:
        self.duels.setdefault(key, {}).update(games)

    def text(self) -> str:
        """The file's text: the kind's head and sections, the duels in key order, each
        one's games in index order (one line: the file is for the program)."""
        data = {
            "format": self.kind.format,
            "version": self.kind.version,
            "duels": [
                {"key": json.loads(key), "games": [games[i] for i in sorted(games)]}
                for key, games in sorted(self.duels.items())
            ],
            # A section is written only when it holds something (a ladder's file of version
            # 1 read and written again keeps its pairs).
            **{section: found for section, found in self.sections.items() if found},
        }
        return json.dumps(data, sort_keys=True) + "\n"


def _problem(summary: Summary, seating: Seating) -> str | None:
    """What makes ``summary`` not a game of ``seating`` (None when it is one)."""
    players = len(seating.seats)
    if (summary.index, summary.seed, tuple(summary.seats)) != (
        seating.index,
        seating.seed,
        seating.seats,
    ):
        return f"index, seed and seats {summary.index}, {summary.seed}, {list(summary.seats)}"
    error = summary.error
    if error is None:
        if len(summary.scores) != players:
            return f"{len(summary.scores)} scores for {players} seats"
        if len(set(summary.winners)) != len(summary.winners) or not all(
            0 <= seat < players for seat in summary.winners
        ):
            return f"winners {list(summary.winners)} of {players} seats"
    elif (error.game, error.seed) != (seating.index, seating.seed) or not (
        0 <= error.seat < players and error.strategy == seating.seats[error.seat]
    ):
        return f"a failure of game {error.game}, seat {error.seat + 1} ({error.strategy})"
    if summary.turns < 0:
        return f"{summary.turns} turns"
    return None


class _Writer:
    """The games finished, added to the file ``save`` in steps (:data:`WRITE_SHARE`)."""

    def __init__(self, save: str | os.PathLike[str], kind: SaveKind, size: int) -> None:
        self.save, self.kind, self.size = save, kind, size
        self.pending: dict[str, dict[int, dict[str, Any]]] = {}
        self.count = 0
        self.broken = False

    def add(self, key: str, summary: Summary) -> None:
        self.pending.setdefault(key, {})[summary.index] = summary.to_data()
        self.count += 1
        if self.count * WRITE_SHARE >= self.size + self.count:
            self.write()

    def write(self) -> None:
        """The games pending added to the file, read again under its lock (so that another
        program's games written meanwhile stay)."""
        if self.broken:
            return
        try:
            with files.locked(self.save, error=RummikubError):
                saved = Saved.read(self.save, self.kind)
                for key, games in self.pending.items():
                    saved.add(key, games)
                files.write_atomically(saved.text().encode(), self.save, error=RummikubError)
        except BaseException:
            self.broken = True  # not tried again on the way out
            raise
        self.pending, self.count, self.size = {}, 0, saved.size


def _plan(
    duels: Sequence[tuple[Pairing, int]], saved: Saved | None
) -> tuple[list[dict[int, Summary]], list[Seating], list[int]]:
    """The games kept of each duel, the seatings still to play and the duel of each."""
    found: list[dict[int, Summary]] = []
    items: list[Seating] = []
    owners: list[int] = []
    for number, (setup, games) in enumerate(duels):
        schedule = setup.schedule(games)
        kept = saved.games(setup, schedule) if saved is not None else {}
        found.append(kept)
        missing = [seating for seating in schedule if seating.index not in kept]
        items += missing
        owners += [number] * len(missing)
    return found, items, owners


def to_play(
    duels: Sequence[tuple[Pairing, int]],
    save: str | os.PathLike[str] | None,
    kind: SaveKind = DUEL_GAMES,
) -> int:
    """The games :func:`play` will play: those of ``duels`` not kept in ``save``."""
    saved = Saved.read(save, kind) if save is not None else None
    return len(_plan(duels, saved)[1])


def play(
    duels: Sequence[tuple[Pairing, int]],
    table: Table,
    *,
    save: str | os.PathLike[str] | None = None,
    kind: SaveKind = DUEL_GAMES,
    workers: int = 1,
    scheduler: str | None = None,
    batch_size: int | None = None,
    progress: Progress | None = None,
) -> list[list[Summary]]:
    """The games of each duel of ``duels`` (a setup and its count of games), each duel's in
    index order: all in one run of :func:`rummikub.core.cluster.run` (``table`` holding
    every player of them); with ``save``, those the file keeps taken from it and each game
    played added to it as it finishes (in this process or on Dask alike). A file that
    cannot be read or written is a :class:`RummikubError` before any game is played."""
    saved = Saved.read(save, kind) if save is not None else None
    found, items, owners = _plan(duels, saved)
    writer = None
    if save is not None and saved is not None and items:
        writer = _Writer(save, kind, saved.size)
        writer.write()  # the file as it is: one that cannot be written fails here
    keys = [key_text(setup.key()) for setup, _ in duels]

    def done(place: int, summary: Summary) -> None:
        if writer is not None:
            writer.add(keys[owners[place]], summary)

    try:
        answers = cluster.run(
            partial(selfplay.play_seated, table),
            items,
            workers=workers,
            scheduler=scheduler,
            # On Dask a batch comes back whole: with a file to keep the games in, a task is one
            # game unless asked otherwise, or a stop would lose up to a batch's games (some 30
            # by default in a 400-game duel: an hour of `equity-v1` games).
            batch_size=1 if batch_size is None and writer is not None else batch_size,
            progress=progress,
            done=done,
        )
    finally:
        # Whatever stopped the run (Ctrl-C, a worker lost), the games finished stay.
        if writer is not None and writer.pending:
            writer.write()
    for place, summary in enumerate(answers):
        found[owners[place]][summary.index] = summary
    return [[games[i] for i in sorted(games)] for games in found]
