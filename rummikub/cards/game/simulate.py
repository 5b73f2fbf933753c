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

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummikub.cards.cards import Card
from rummikub.cards.game import engine
from rummikub.cards.game.engine import CardGameState, lowest_wins
from rummikub.cards.game.plugin import MAX_TURNS as MAX_TURNS
from rummikub.cards.game.plugin import CardGame
from rummikub.cards.game.record import CardRecord, Layoff, Turn
from rummikub.cards.game.strategies import CardStrategy, Lay, strategy
from rummikub.cards.game.view import view_of
from rummikub.cards.melds import CardMeld, RawCardMeld
from rummikub.cards.position import Draw
from rummikub.cards.rules import CardRules, most_players, rules_data
from rummikub.core.arguments import instance
from rummikub.core.documents import field, field_list
from rummikub.core.stats import mean_ci
from rummikub.play import selfplay
from rummikub.play.selfplay import GameFailed as GameFailed
from rummikub.play.selfplay import Line, Seating, failure_of
from rummikub.play.selfplay import simulate as simulate

__all__ = [
    "MAX_TURNS",
    "CardGameFailure",
    "CardGameSummary",
    "CardLine",
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

#: Why a card game stopped before its end (its ``hand`` says which, from 1).
CardGameFailure = selfplay.GameFailure


@dataclass(frozen=True, slots=True)
class CardSetup(selfplay.Lineup):
    """What every game of a run shares."""

    rules: CardRules
    strategies: tuple[str, ...]
    players: int = 2
    seed: int = 0

    def __post_init__(self) -> None:
        engine.rules_argument(self.rules)
        most = most_players(self.rules)
        seats = f"{self.rules.game} seats 2-{most}"
        selfplay.check_lineup(self.strategies, self.players, self.seed, most, strategy, seats)

    @property
    def game(self) -> CardGame:
        return CardGame(self.rules)


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

    @property
    def scores(self) -> tuple[float, ...]:
        """The game's final totals, as self-play reads a score."""
        return tuple(float(total) for total in self.totals)

    @property
    def endings(self) -> dict[str, int]:
        """How the hands of the game ended, as a duel counts the endings."""
        return {"went_out": self.hands - self.stock_endings, "stock_out": self.stock_endings}

    def to_data(self) -> dict[str, Any]:
        """The game as JSON data (:meth:`from_data` reads it back): a ``--save`` file keeps
        it."""
        error = {} if self.error is None else {"error": self.error.to_data()}
        return {
            "index": self.index,
            "seed": self.seed,
            "seats": list(self.seats),
            "winners": list(self.winners),
            "totals": list(self.totals),
            "hands": self.hands,
            "turns": self.turns,
            "stock_endings": self.stock_endings,
            "rummies": self.rummies,
            "claims": self.claims,
            **error,
        }

    @classmethod
    def from_data(cls, data: object) -> CardGameSummary:
        """The game :meth:`to_data` wrote; a :class:`ValueError` naming the field that is not
        as written."""
        return cls(
            field(data, "index", int),
            field(data, "seed", int),
            field_list(data, "seats", str),
            field_list(data, "winners", int),
            field_list(data, "totals", int),
            field(data, "hands", int),
            field(data, "turns", int),
            field(data, "stock_endings", int),
            field(data, "rummies", int),
            field(data, "claims", int),
            selfplay.read_failure(data),
        )


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed``."""
    return selfplay.game_seed(seed, index, "rummikub-cards-simulate")


def lineup_of(setup: CardSetup, index: int) -> tuple[str, ...]:
    """The strategy at each seat of game ``index``: the strategies fill the seats in order
    (repeated when fewer), rotated by one seat each game."""
    return selfplay.lineup_of(setup.strategies, setup.players, index)


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


def play_turn(state: CardGameState, players: Sequence[CardStrategy]) -> tuple[CardGameState, Turn]:
    """One turn of the player to move, each decision asked of its strategy in the rules'
    order: the draw chosen, the "May I?" claims (when it goes to the stock, before it
    draws), the card drawn, the lay-down."""
    seat = state.to_move
    choice = players[seat].draw(view_of(state, seat))
    claimed, penalty = None, None
    if choice == "stock":
        for other in engine.claimants(state):
            try:
                wants = players[other].claim(view_of(state, other))
            except Exception as error:  # the claimant's failure, not the player's to move
                raise failure_of(CardGame(state.rules), state, other, error) from error
            if wants:
                before = state
                state = engine.claim(state, other)
                claimed, penalty = other, _gained(before, state, other, before.pile[-1])
                break
    after = engine.draw(state, choice)
    if after.hand_over:
        return after, Turn(choice)
    card = _gained(state, after, seat) if choice == "stock" else None
    lay = players[seat].lay(view_of(after, seat))
    turn = turn_of(choice, card, lay, claimed, penalty)
    after = engine.lay(after, turn.melds, turn.layoffs, turn.discard)
    return after, turn


def _gained(before: CardGameState, after: CardGameState, seat: int, *but: Card) -> Card:
    """The card ``seat``'s hand gained from ``before`` to ``after`` (a stock card), ``but``
    the cards it took from the pile."""
    gained = Counter(after.hands[seat] or ()) - Counter(before.hands[seat] or ()) - Counter(but)
    return next(iter(gained.elements()))


def play_game(
    rules: CardRules,
    players: Sequence[CardStrategy],
    seed: int,
    *,
    names: Sequence[str] | None = None,
) -> tuple[CardRecord, CardGameState]:
    """Play one game to its end: its record (every hand, turn and score) and the final
    state. A strategy that fails raises :class:`GameFailed`."""
    record, state = selfplay.play_out(CardGame(rules), players, seed, names=names)
    return record, state


def play_seated(rules: CardRules, game: Seating) -> CardGameSummary:
    """Play one game of a run to its end, or to its failure (one task of the cluster)."""
    found = selfplay.play_seated(selfplay.Table.of(CardGame(rules), game.seats), game)
    assert isinstance(found, CardGameSummary)
    return found


def seatings(setup: CardSetup, games: int) -> list[Seating]:
    return selfplay.seatings(setup.game, setup.strategies, setup.players, setup.seed, games)


# -- what the games show -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardLine(Line):
    """The win rate and mean total of one strategy or seat, with 95% intervals."""

    score: str = "total"

    @property
    def mean_total(self) -> float:
        return self.mean_score

    @property
    def total_ci(self) -> tuple[float, float]:
        return self.score_ci


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


def summarize(setup: CardSetup, games: Sequence[CardGameSummary]) -> CardReport:
    """Win rates (a shared win counts its share), mean totals, hands and turns per game."""
    found = selfplay.tally(setup.strategies, setup.players, games, CardLine)
    ordered: Sequence[CardGameSummary] = found.played
    mean_hands, hands_ci = mean_ci([float(g.hands) for g in ordered])
    mean_turns, turns_ci = mean_ci([float(g.turns) for g in ordered])
    return CardReport(
        setup=setup,
        games=len(ordered),
        strategies=found.strategies,  # type: ignore[arg-type]  # made by CardLine
        seats=found.seats,  # type: ignore[arg-type]
        mean_hands=mean_hands,
        hands_ci=hands_ci,
        mean_turns=mean_turns,
        turns_ci=turns_ci,
        stock_endings=sum(g.stock_endings for g in ordered),
        hands=sum(g.hands for g in ordered),
        rummies=sum(g.rummies for g in ordered),
        claims=sum(g.claims for g in ordered),
        failures=found.failures,
    )


def to_text(report: CardReport) -> str:
    """The report as a table for people."""
    instance(report, CardReport, "report", "summarize(setup, games)")
    setup = report.setup
    low = lowest_wins(setup.rules)
    lines = [
        f"{setup.rules.game}: {report.games} games, {setup.players} players, seed {setup.seed} "
        f"({'lowest' if low else 'highest'} total wins)",
        *selfplay.lines_text((*report.strategies, *report.seats), "mean total", 19),
    ]
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
    lines += selfplay.failures_text(report.failures, "left out of the figures")
    return "\n".join(lines)
