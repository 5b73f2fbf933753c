"""The ``cards`` corpus: card positions of every preset (hands of 7-15 cards against tables
of 0-12 melds), timed to a proven optimum, each answer judged by the card checker.

Run alone with ``python -m benchmarks.cards`` (prints the section; ``--out FILE`` writes it),
or as the ``cards`` section of ``python -m benchmarks``.

Targets (issue 15): median <= 5 ms, max <= 100 ms, every answer proven. What the card
model's choices were measured against, on this corpus, is in ``benchmarks/RESULTS.md``,
"Solver choices: the card model".
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rummikub.cards.cards import DECK, JOKER, Card
from rummikub.cards.checker import check
from rummikub.cards.melds import CardMeld, natural_meld
from rummikub.cards.position import CardPosition
from rummikub.cards.rules import GAMES, CardRules, preset
from rummikub.core.errors import MeldError

TARGET_MEDIAN = 0.005
TARGET_MAX = 0.100
SIZE, QUICK_SIZE = 40, 4  # positions per preset


@dataclass(frozen=True, slots=True)
class CardCase:
    name: str
    position: CardPosition


@dataclass(frozen=True, slots=True)
class CardTiming:
    game: str
    seconds: list[float]
    proven: int
    legal: int

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)


def _meld(rng: random.Random, rules: CardRules, pack: list[Card]) -> CardMeld | None:
    """A random natural meld (maybe with a joker inside) taken from ``pack``."""
    for _ in range(50):
        if rng.random() < 0.5:
            suit = rng.choice("SHDC")
            length = rng.randint(rules.run_min, rules.run_min + 3)
            first = 2 if rules.aces == "high" else 1
            last = 13 if rules.aces == "low" else 14
            start = rng.randint(first, last - length + 1)
            cards = [Card(1 if p == 14 else p, suit) for p in range(start, start + length)]
            kind = "run"
        else:
            rank = rng.randint(1, 13)
            cards = [Card(rank, s) for s in rng.sample("SHDC", rng.randint(rules.set_min, 4))]
            kind = "set"
        if not all(pack.count(c) >= cards.count(c) for c in cards):
            continue
        if JOKER in pack and rng.random() < 0.2:
            cards[rng.randrange(1, len(cards) - 1) if len(cards) > 2 else 0] = JOKER
        try:
            meld = natural_meld(tuple(cards), kind, rules)  # type: ignore[arg-type]
        except MeldError:
            continue
        for card in cards:
            pack.remove(card)
        return meld
    return None


def make_case(rng: random.Random, game: str, index: int) -> CardCase:
    rules = preset(game)
    pack = [c for c in DECK for _ in range(rules.decks)] + [JOKER] * rules.jokers
    pack.sort()
    rng.shuffle(pack)
    table = []
    for _ in range(rng.randint(0, 12)):
        if len(pack) < 26:  # keep enough for a hand and a pile (one pack holds 52-54)
            break
        meld = _meld(rng, rules, pack)
        if meld is not None:
            table.append(meld)
    size = rng.randint(7, 15)
    hand: list[Card] = []
    # Half the hand from melds (so there is something to lay), the rest at random.
    while len(hand) < size // 2:
        meld = _meld(rng, rules, pack)
        if meld is None:
            break
        hand += list(meld.cards)[: size // 2 - len(hand)]
    while len(hand) < size:
        hand.append(pack.pop())
    deal = rng.randint(1, 7) if rules.opening == "contract" else None
    opened = rng.random() < 0.5 and bool(table)
    discard: tuple[Card, ...] = ()
    drawn = True
    if rules.discard_pick == "any" and rng.random() < 0.5:
        # A two-pack deal can leave the pack short: the pile takes what is left.
        discard = tuple(pack.pop() for _ in range(min(rng.randint(2, 8), len(pack))))
        drawn = False
    position = CardPosition(rules, tuple(hand), tuple(table), opened, deal, discard, drawn)
    return CardCase(f"{game}-{index}", position)


def corpus(seed: int, quick: bool = False) -> list[CardCase]:
    rng = random.Random(f"{seed}:cards")
    count = QUICK_SIZE if quick else SIZE
    return [make_case(rng, game, i) for game in GAMES for i in range(count)]


def run(seed: int, quick: bool, say: Callable[[str], None] = print) -> list[CardTiming]:
    """Solve the corpus (after one warm-up solve), check every answer; one timing per game."""
    from rummikub.cards.solver import solve

    cases = corpus(seed, quick)
    solve(cases[0].position)  # imports and first-call set-up, reported apart
    timings = []
    for game in GAMES:
        seconds, proven, legal = [], 0, 0
        for case in (c for c in cases if c.position.rules.game == game):
            started = time.perf_counter()
            result = solve(case.position)
            seconds.append(time.perf_counter() - started)
            proven += result.proven
            turn = result.best
            verdict = check(
                case.position,
                [m.raw() for m in turn.table],
                discard=turn.discard,
                draw=None if turn.draw == "stock" else turn.draw,
            )
            legal += verdict.legal and (verdict.points, verdict.penalty) == (
                turn.points,
                turn.penalty,
            )
        timing = CardTiming(game, seconds, proven, legal)
        say(
            f"cards {game}: median {timing.median * 1e3:.1f} ms, max {max(seconds) * 1e3:.1f} ms, "
            f"{proven}/{len(seconds)} proven, {legal}/{len(seconds)} legal"
        )
        timings.append(timing)
    return timings


def markdown(timings: Sequence[CardTiming], seed: int) -> str:
    every = [s for t in timings for s in t.seconds]
    count = len(every)
    proven = sum(t.proven for t in timings)
    legal = sum(t.legal for t in timings)
    median, worst = statistics.median(every), max(every)
    met = median <= TARGET_MEDIAN and worst <= TARGET_MAX and proven == count
    lines = [
        "## Card rummies (`cards` corpus)",
        "",
        f"{count} positions (seed {seed}): hands of 7-15 cards against tables of 0-12 melds, "
        "every preset, half of the 500 Rum ones with a discard pile to pick from (every pick "
        "weighed: solved, or cut by its LP bound when that cannot beat the best turn so far). "
        "Time of one `rummikub.cards.solve` call; every answer judged by the checker.",
        "",
        "| preset | positions | median | max | proven | legal by the checker |",
        "|---|---|---|---|---|---|",
    ]
    for t in timings:
        lines.append(
            f"| {t.game} | {len(t.seconds)} | {t.median * 1e3:.1f} ms | "
            f"{max(t.seconds) * 1e3:.1f} ms | {t.proven}/{len(t.seconds)} | "
            f"{t.legal}/{len(t.seconds)} |"
        )
    lines += [
        f"| all | {count} | {median * 1e3:.1f} ms | {worst * 1e3:.1f} ms | {proven}/{count} | "
        f"{legal}/{count} |",
        "",
        f"Target: median <= {TARGET_MEDIAN * 1e3:.0f} ms, max <= {TARGET_MAX * 1e3:.0f} ms, "
        f"all proven: **{'met' if met else 'not met'}**.",
        "",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.cards")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out", help="write the section to this file")
    args = parser.parse_args(argv)
    timings = run(args.seed, args.quick)
    text = markdown(timings, args.seed)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            out.write(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
