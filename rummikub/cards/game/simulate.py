"""Card self-play: whole card games between strategies, and what they show.

:func:`play_game` plays one seeded game to its end, hand after hand, every turn through
the engine (the checker judges each one); :func:`simulate` plays many, in this process or
on Dask (:func:`rummikub.core.cluster.run`), and :func:`summarize` turns them into win
rates and mean totals with 95% intervals (:mod:`rummikub.core.stats`), per strategy and per
seat, with the hands and turns a game takes and how often a hand ended with nobody out.

A strategy that raises, or makes a turn the engine refuses, costs its game and nothing
more (a :class:`CardGameFailure` in the report). A hand that goes on for
:data:`MAX_TURNS` turns is stopped the same way (it never happened in the runs of
``benchmarks/RESULTS.md``, "Card games").

Determinism: game ``i`` of a run seeded ``s`` is dealt from its own seed
(:func:`game_seed`), the strategies sit in a fixed rotation, and the report reads the
games in index order: the same seed gives the same report whatever the number of workers.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from rummikub.cards.cards import Card
from rummikub.cards.game import engine
from rummikub.cards.game.engine import CardGameState, TurnError
from rummikub.cards.game.record import CardRecord, Hand, Layoff, Turn
from rummikub.cards.game.strategies import CardStrategy, Lay, strategy
from rummikub.cards.game.view import view_of
from rummikub.cards.melds import CardMeld, RawCardMeld
from rummikub.cards.position import Draw
from rummikub.cards.rules import CardRules, most_players, rules_data
from rummikub.core import cluster
from rummikub.core.cluster import Progress
from rummikub.core.errors import RummikubError
from rummikub.core.stats import mean_ci, wilson

__all__ = [
    "MAX_TURNS",
    "CardGameFailure",
    "CardGameSummary",
    "CardReport",
    "CardSetup",
    "GameFailed",
    "game_seed",
    "lineup_of",
    "play_game",
    "raw_meld",
    "simulate",
    "summarize",
    "to_text",
    "turn_of",
]

#: A hand stopped after this many turns costs its game (a failure, never a silent end).
MAX_TURNS = 2000


@dataclass(frozen=True, slots=True)
class CardSetup:
    """What every game of a run shares."""

    rules: CardRules
    strategies: tuple[str, ...]
    players: int = 2
    seed: int = 0

    def __post_init__(self) -> None:
        most = most_players(self.rules)
        if not 2 <= self.players <= most:
            raise RummikubError(f"--players {self.players}: {self.rules.game} seats 2-{most}")
        if not self.strategies:
            raise RummikubError("no strategy given")
        for name in self.strategies:
            strategy(name)  # an unknown name fails here, before any game is played


@dataclass(frozen=True, slots=True)
class CardGameFailure:
    """Why a game stopped before its end: at ``hand``, turn ``turn`` (both from 1), the
    strategy at ``seat`` (from 0) raised or made a turn the engine refused."""

    game: int
    seed: int
    hand: int
    turn: int
    seat: int
    strategy: str
    message: str

    def to_data(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seed": self.seed,
            "hand": self.hand,
            "turn": self.turn,
            "seat": self.seat + 1,
            "strategy": self.strategy,
            "error": self.message,
        }

    def __str__(self) -> str:
        return (
            f"game {self.game} (seed {self.seed}): hand {self.hand}, turn {self.turn}, "
            f"seat {self.seat + 1} ({self.strategy}): {self.message}"
        )


class GameFailed(RummikubError):
    """A strategy raised, or made a turn the engine refused, in :func:`play_game`."""

    def __init__(self, hand: int, turn: int, seat: int, message: str) -> None:
        self.hand, self.turn, self.seat, self.message = hand, turn, seat, message
        super().__init__(f"hand {hand}, turn {turn}, seat {seat + 1}: {message}")


@dataclass(frozen=True, slots=True)
class CardGameSummary:
    """One game, small enough to send back from a worker."""

    index: int
    seed: int
    seats: tuple[str, ...]
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    hands: int
    turns: int
    #: Hands that ended with nobody out (the stock ran out).
    stock_endings: int
    #: 500 Rum's "rummy" hands.
    rummies: int = 0
    claims: int = 0
    error: CardGameFailure | None = None


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed``."""
    digest = hashlib.sha256(f"rummikub-cards-simulate:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def lineup_of(setup: CardSetup, index: int) -> tuple[str, ...]:
    """The strategy at each seat of game ``index``: the strategies fill the seats in order
    (repeated when fewer), rotated by one seat each game."""
    base = [setup.strategies[s % len(setup.strategies)] for s in range(setup.players)]
    shift = index % setup.players
    return tuple(base[(s + shift) % setup.players] for s in range(setup.players))


def raw_meld(meld: CardMeld) -> RawCardMeld:
    """A meld as a record writes it: its notation, the kind only where the cards leave it
    open."""
    return RawCardMeld.parse(str(meld))


def turn_of(
    draw: Draw,
    card: Card | None,
    lay: Lay,
    claim: int | None = None,
    penalty: Card | None = None,
) -> Turn:
    """The record's turn of a strategy's decisions."""
    return Turn(
        draw,
        card,
        tuple(raw_meld(m) for m in lay.melds),
        tuple(Layoff(index, raw_meld(m)) for index, m in lay.layoffs),
        lay.discard,
        claim,
        penalty,
    )


def _failure(state: CardGameState, seat: int, error: Exception) -> GameFailed:
    if isinstance(error, TurnError):
        message = "; ".join(error.problems)
    else:
        text = " ".join(str(error).split())
        message = f"{type(error).__name__}: {text}" if text else type(error).__name__
    return GameFailed(state.hand + 1, state.turns + 1, seat, message)


def play_turn(state: CardGameState, players: Sequence[CardStrategy]) -> tuple[CardGameState, Turn]:
    """One turn of the player to move, each decision asked of its strategy in its order:
    the draw, the "May I?" claims, the lay-down."""
    seat = state.to_move
    choice = players[seat].draw(view_of(state, seat))
    after = engine.draw(state, choice)
    if after.hand_over:
        return after, Turn(choice)
    card = None
    if choice == "stock":
        before, now = Counter(state.hands[seat] or ()), Counter(after.hands[seat] or ())
        card = next(iter((now - before).elements()))
    claimed, penalty = None, None
    for other in engine.claimants(after):
        try:
            wants = players[other].claim(view_of(after, other))
        except Exception as error:
            raise _failure(state, other, error) from error
        if wants:
            penalty = after.stock[0] if after.stock else None
            after = engine.claim(after, other)
            claimed = other
            break
    lay = players[seat].lay(view_of(after, seat))
    turn = turn_of(choice, card, lay, claimed, penalty)
    after = engine.lay(after, turn.melds, turn.layoffs, turn.discard)
    return after, turn


def play_game(
    rules: CardRules,
    players: Sequence[CardStrategy],
    seed: int,
    *,
    names: Sequence[str] | None = None,
) -> tuple[CardRecord, CardGameState]:
    """Play one game to its end: its record (every hand, turn and score) and the final
    state. A strategy that fails raises :class:`GameFailed`."""
    seats = list(names) if names is not None else [f"P{s + 1}" for s in range(len(players))]
    record = engine.new_game(seats, rules, seed)
    state = engine.start(record)
    hands: list[Hand] = list(record.hands)
    turns: list[Turn] = []
    while not state.over:
        if state.hand_over:
            hands[-1] = replace(hands[-1], turns=tuple(turns), scores=state.results[-1].scores)
            deal = engine.next_deal(state)
            state = engine.start_hand(state, deal)
            hands.append(Hand(deal))
            turns = []
            continue
        if state.turns >= MAX_TURNS:
            raise GameFailed(
                state.hand + 1, state.turns + 1, state.to_move, f"no end after {MAX_TURNS} turns"
            )
        seat = state.to_move
        try:
            state, turn = play_turn(state, players)
        except GameFailed:
            raise
        except Exception as error:  # a strategy's own failure: costs this game only
            raise _failure(state, seat, error) from error
        turns.append(turn)
    hands[-1] = replace(hands[-1], turns=tuple(turns), scores=state.results[-1].scores)
    return record.with_hands(hands), state


@dataclass(frozen=True, slots=True)
class Seating:
    """One game of a run: its index, its seed and the strategy at each seat."""

    index: int
    seed: int
    seats: tuple[str, ...]


def play_seated(rules: CardRules, game: Seating) -> CardGameSummary:
    """Play one game of a run to its end, or to its failure (one task of the cluster)."""
    players = [strategy(name) for name in game.seats]
    try:
        record, state = play_game(rules, players, game.seed)
    except GameFailed as failed:
        error = CardGameFailure(
            game.index,
            game.seed,
            failed.hand,
            failed.turn,
            failed.seat,
            game.seats[failed.seat],
            failed.message,
        )
        return CardGameSummary(game.index, game.seed, game.seats, (), (), 0, 0, 0, error=error)
    assert state.result is not None
    return CardGameSummary(
        index=game.index,
        seed=game.seed,
        seats=game.seats,
        winners=state.result.winners,
        totals=state.result.totals,
        hands=len(state.results),
        turns=sum(len(hand.turns) for hand in record.hands),
        stock_endings=sum(1 for r in state.results if r.out is None),
        rummies=sum(1 for r in state.results if r.rummy),
        claims=sum(1 for hand in record.hands for t in hand.turns if t.claim is not None),
    )


def seatings(setup: CardSetup, games: int) -> list[Seating]:
    return [Seating(i, game_seed(setup.seed, i), lineup_of(setup, i)) for i in range(games)]


def simulate(
    setup: CardSetup,
    games: int,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    batch_size: int | None = None,
    progress: Progress | None = None,
) -> list[CardGameSummary]:
    """Play ``games`` games in index order: in this process (one worker, no scheduler) or
    on Dask (:func:`rummikub.core.cluster.run`)."""
    if games < 1:
        raise RummikubError(f"--games {games}: expected at least 1")
    return cluster.run(
        partial(play_seated, setup.rules),
        seatings(setup, games),
        workers=workers,
        scheduler=scheduler,
        batch_size=batch_size,
        progress=progress,
    )


# -- what the games show -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardLine:
    """The win rate and mean total of one strategy or seat, with 95% intervals."""

    name: str
    games: int
    wins: float
    win_rate: float
    win_ci: tuple[float, float]
    mean_total: float
    total_ci: tuple[float, float]

    def to_data(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "games": self.games,
            "wins": _round(self.wins),
            "win_rate": _round(self.win_rate),
            "win_rate_ci": [_round(x) for x in self.win_ci],
            "mean_total": _round(self.mean_total),
            "mean_total_ci": [_round(x) for x in self.total_ci],
        }


@dataclass(frozen=True, slots=True)
class CardReport:
    setup: CardSetup
    games: int
    strategies: tuple[CardLine, ...]
    seats: tuple[CardLine, ...]
    mean_hands: float
    hands_ci: tuple[float, float]
    mean_turns: float
    turns_ci: tuple[float, float]
    stock_endings: int
    hands: int
    rummies: int
    claims: int = 0
    failures: tuple[CardGameFailure, ...] = ()

    def to_data(self) -> dict[str, Any]:
        setup = self.setup
        return {
            "game": setup.rules.game,
            "games": self.games,
            "players": setup.players,
            "strategies": list(setup.strategies),
            "seed": setup.seed,
            "rules": rules_data(setup.rules),
            "by_strategy": [line.to_data() for line in self.strategies],
            "by_seat": [line.to_data() for line in self.seats],
            "hands": {"mean": _round(self.mean_hands), "ci": [_round(x) for x in self.hands_ci]},
            "turns": {"mean": _round(self.mean_turns), "ci": [_round(x) for x in self.turns_ci]},
            "stock_endings": self.stock_endings,
            "rummies": self.rummies,
            "claims": self.claims,
            "failures": [failure.to_data() for failure in self.failures],
        }


def _round(value: float) -> float:
    return round(value, 6)


def _line(name: str, outcomes: Sequence[tuple[float, float]]) -> CardLine:
    wins = math.fsum(w for w, _ in outcomes)
    mean, ci = mean_ci([t for _, t in outcomes])
    n = len(outcomes)
    return CardLine(name, n, wins, wins / n if n else 0.0, wilson(wins, n), mean, ci)


def summarize(setup: CardSetup, games: Sequence[CardGameSummary]) -> CardReport:
    """Win rates (a shared win counts its share), mean totals, hands and turns per game."""
    everything = sorted(games, key=lambda g: g.index)
    ordered = [g for g in everything if g.error is None]
    by_strategy: dict[str, list[tuple[float, float]]] = {n: [] for n in setup.strategies}
    by_seat: list[list[tuple[float, float]]] = [[] for _ in range(setup.players)]
    for game in ordered:
        for seat, name in enumerate(game.seats):
            share = 1 / len(game.winners) if seat in game.winners else 0.0
            outcome = (share, float(game.totals[seat]))
            by_strategy[name].append(outcome)
            by_seat[seat].append(outcome)
    mean_hands, hands_ci = mean_ci([float(g.hands) for g in ordered])
    mean_turns, turns_ci = mean_ci([float(g.turns) for g in ordered])
    return CardReport(
        setup=setup,
        games=len(ordered),
        strategies=tuple(_line(n, by_strategy[n]) for n in by_strategy),
        seats=tuple(_line(f"seat {s + 1}", by_seat[s]) for s in range(setup.players)),
        mean_hands=mean_hands,
        hands_ci=hands_ci,
        mean_turns=mean_turns,
        turns_ci=turns_ci,
        stock_endings=sum(g.stock_endings for g in ordered),
        hands=sum(g.hands for g in ordered),
        rummies=sum(g.rummies for g in ordered),
        claims=sum(g.claims for g in ordered),
        failures=tuple(g.error for g in everything if g.error is not None),
    )


def to_text(report: CardReport) -> str:
    """The report as a table for people."""
    setup = report.setup
    low = setup.rules.game not in ("rummy", "500-rum")
    lines = [
        f"{setup.rules.game}: {report.games} games, {setup.players} players, seed {setup.seed} "
        f"({'lowest' if low else 'highest'} total wins)",
        f"{'':12} {'games':>6} {'win rate':>8} {'95% CI':>15} {'mean total':>10} {'95% CI':>19}",
    ]
    for line in (*report.strategies, *report.seats):
        lo, hi = line.win_ci
        tlo, thi = line.total_ci
        lines.append(
            f"{line.name:12} {line.games:6d} {line.win_rate:8.1%} "
            f"{f'{lo:.1%}-{hi:.1%}':>15} {line.mean_total:10.1f} "
            f"{f'{tlo:.1f} to {thi:.1f}':>19}"
        )
    hlo, hhi = report.hands_ci
    tlo, thi = report.turns_ci
    lines.append(
        f"Hands per game: mean {report.mean_hands:.1f} (95% CI {hlo:.1f}-{hhi:.1f}); "
        f"turns per game: mean {report.mean_turns:.1f} (95% CI {tlo:.1f}-{thi:.1f})"
    )
    extra = f", {report.rummies} rummies" if setup.rules.game == "500-rum" else ""
    if setup.rules.may_i:
        extra += f'; "May I?" claims: {report.claims}'
    lines.append(f"Hands ended with nobody out: {report.stock_endings} of {report.hands}{extra}")
    if report.failures:
        count = len(report.failures)
        lines.append(f"{count} game{'s' if count > 1 else ''} failed (left out of the figures):")
        lines += [f"  {failure}" for failure in report.failures]
    return "\n".join(lines)
