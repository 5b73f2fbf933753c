"""Whole card games: games per second per preset, every turn re-checked by the card checker.

``python -m benchmarks cardgames`` (options: ``--games``, ``--solver-games``, ``--out``)
plays, for every preset with its own options and two players: ``--games`` games (default
50) between two ``casual`` players (no solver: the engine and the checker's speed), then
``--solver-games`` games (default 4) of ``keep`` against ``best`` (the card solver on
every turn). Every turn of every game is judged again by the public checker
(:func:`recheck`), apart from the engine's own judgement; a turn it refuses fails the run.
It writes its own section of ``benchmarks/RESULTS.md`` between the markers below (and
``python -m benchmarks`` keeps it).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import rummikub.cards as cards_api
from benchmarks import sections
from rummikub.cards import preset
from rummikub.cards.game import engine
from rummikub.cards.game.record import CardRecord
from rummikub.cards.game.simulate import GameFailed, game_seed, play_game
from rummikub.cards.game.strategies import strategy
from rummikub.cards.melds import CardMeld, RawCardMeld
from rummikub.cards.rules import GAMES

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "benchmarks" / "RESULTS.md"
START, END = "<!-- cardgames:start -->", "<!-- cardgames:end -->"


def recheck(game: CardRecord) -> int:
    """Judge every turn of ``game`` again with the public checker
    (:func:`rummikub.cards.check`), from the position the engine gives the player after the
    draw and any "May I?" claim; raises AssertionError at a turn it refuses. The number of
    turns judged (a stock run out, which lays nothing, is not a turn to judge)."""
    judged = 0
    states = engine.replay(game).states
    at = 0
    for number, hand in enumerate(game.hands):
        if number:
            at += 1  # the state after the next deal
        for turn in hand.turns:
            mid = engine.draw_and_claim(states[at], turn)
            at += 1
            if mid.hand_over:
                continue
            position = mid.position()
            after: list[RawCardMeld | CardMeld] = list(position.table)
            for layoff in turn.layoffs:
                old = position.table[layoff.meld]
                after[layoff.meld] = RawCardMeld(layoff.to.slots, layoff.to.kind or old.kind)
            after += turn.melds
            draw = None if turn.draw == "stock" else turn.draw
            verdict = cards_api.check(position, after, discard=turn.discard, draw=draw)
            if not verdict.legal:
                raise AssertionError(
                    f"hand {number + 1}, turn {turn}: the checker refuses: {verdict.errors}"
                )
            judged += 1
    if at != len(states) - 1:
        raise AssertionError(f"{len(states) - 1} states, {at} turns re-checked")
    return judged


def _run(game: str, lineup: tuple[str, str], games: int) -> dict[str, Any]:
    rules = preset(game)
    players = [strategy(name) for name in lineup]
    seconds: list[float] = []
    turns = hands = judged = claims = 0
    failed: list[str] = []
    wins = 0.0
    for index in range(games):
        seats = players if index % 2 == 0 else players[::-1]
        started = time.perf_counter()
        try:
            record, state = play_game(rules, seats, game_seed(1, index))
        except GameFailed as failure:
            failed.append(f"{game} game {index}: {failure}")
            continue
        seconds.append(time.perf_counter() - started)
        judged += recheck(record)
        turns += sum(len(h.turns) for h in record.hands)
        claims += sum(1 for h in record.hands for t in h.turns if t.claim is not None)
        hands += len(state.results)
        assert state.result is not None
        second = 1 if index % 2 == 0 else 0  # the seat of lineup[1]
        if second in state.result.winners:
            wins += 1 / len(state.result.winners)
    total = sum(seconds)
    played = len(seconds)
    return {
        "game": game,
        "lineup": lineup,
        "games": played,
        "failed": failed,
        "seconds": total,
        "games_per_second": played / total,
        "turns_per_second": turns / total,
        "median_game": statistics.median(seconds),
        "hands": hands / played,
        "turns": turns / played,
        "judged": judged,
        "claims": claims,
        "second_wins": wins / played,
    }


def measure(
    games: int, solver_games: int, say: Callable[[str], None] = print
) -> list[dict[str, Any]]:
    rows = []
    for lineup, count in ((("casual", "casual"), games), (("best", "keep"), solver_games)):
        if count <= 0:
            continue
        for game in GAMES:
            row = _run(game, lineup, count)
            say(
                f"{game} {'/'.join(lineup)}: {row['games_per_second']:.2f} games/s, "
                f"{row['judged']} turns re-checked"
            )
            rows.append(row)
    return rows


def markdown(rows: Sequence[dict[str, Any]], command: str) -> str:
    lines = [
        START,
        "## Card games (`simulate --game`)",
        "",
        f"`{command}`: whole games of each preset with its own options, two players, dealt "
        "from seeds 0.. of the run; every turn of every game re-checked by the card checker "
        "(`benchmarks/cardgames.py`, `recheck`), none refused. `casual` uses no solver (the "
        "engine's and the checker's speed); `best` and `keep` solve every turn. In this "
        "process, one game after another, on the machine above (shared).",
        "",
        "| preset | players | games | games/s | turns/s | median game (s) | hands/game "
        '| turns/game | turns re-checked | "May I?" claims | wins of the second |',
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        lines.append(
            f"| `{row['game']}` | {' v '.join(row['lineup'])} | {row['games']} "
            f"| {row['games_per_second']:.2f} | {row['turns_per_second']:.0f} "
            f"| {row['median_game']:.2f} | {row['hands']:.1f} | {row['turns']:.0f} "
            f"| {row['judged']} | {row['claims']} | {row['second_wins']:.0%} |"
        )
    failures = [text for row in rows for text in row["failed"]]
    lines += ["", f"Games that failed (a hand stopped after 2000 turns): {len(failures)}."]
    lines += [f"- {text}" for text in failures]
    lines += [
        "",
        "The last column is the share of games won by the second player named (`casual` "
        "against itself: the seats alternate, so about half).",
        END,
        "",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, say: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks cardgames")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--solver-games", type=int, default=4)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    rows = measure(args.games, args.solver_games, say)
    command = "python -m benchmarks cardgames " + " ".join(argv or [])
    section = markdown(rows, command.strip())
    say(section)
    text = args.out.read_text() if args.out.exists() else "# Benchmarks\n"
    args.out.write_text(sections.replace_section(text, section, START, END))
    return 0
