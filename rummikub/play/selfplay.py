"""Self-play written once: whole games between named players, over any :class:`Game`.

:func:`play_out` plays one seeded game to its end (every hand of a game of several), each
turn through the game's rules; :func:`simulate` plays the games of a run, in this process
or on Dask (:func:`rummikub.core.cluster.run`), each game a picklable task
(:func:`play_seated` on a :class:`Seating`); :func:`tally` and the table helpers below
turn the games into win rates and mean scores with their 95% intervals
(:mod:`rummikub.core.stats`), per strategy and per seat, for each domain's report.

A player that raises, or makes a turn the rules refuse, costs its game and nothing more:
the game comes back as its domain's summary holding a :class:`GameFailure` (the game, its
seed, the hand of a game of several, the turn, the seat and player, the message).

Determinism: game ``i`` of a run seeded ``s`` is dealt from its own seed
(:func:`game_seed`, salted by the game so that each domain keeps its games), the players
sit in a fixed rotation (:func:`lineup_of`), and every report reads the games in index
order: the same seed gives the same report whatever the number of workers.
"""

from __future__ import annotations

import abc
import hashlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from rummikub.core import cluster, documents
from rummikub.core.arguments import described, names, whole
from rummikub.core.cluster import Progress
from rummikub.core.errors import ArgumentError, RummikubError
from rummikub.core.stats import mean_ci, wilson

if TYPE_CHECKING:
    from rummikub.play.protocol import SelfPlay

__all__ = [
    "MAX_GAMES",
    "GameFailed",
    "GameFailure",
    "Line",
    "Lineup",
    "Run",
    "Seating",
    "Summary",
    "Table",
    "Tally",
    "check_lineup",
    "failure_of",
    "failures_of",
    "failures_text",
    "game_seed",
    "in_order",
    "lines_csv",
    "lines_text",
    "lineup_of",
    "play",
    "play_out",
    "play_seated",
    "read_failure",
    "seatings",
    "share_of",
    "simulate",
    "tally",
]


class GameFailed(RummikubError):
    """A player raised, or made a turn the rules refused, in :func:`play_out`: at turn
    ``turn`` (from 1) of hand ``hand`` (from 1; None for a game of one hand), seat ``seat``
    (from 0)."""

    def __init__(self, turn: int, seat: int, message: str, *, hand: int | None = None) -> None:
        self.hand, self.turn, self.seat, self.message = hand, turn, seat, message
        where = f"turn {turn}" if hand is None else f"hand {hand}, turn {turn}"
        super().__init__(f"{where}, seat {seat + 1}: {message}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_game_failed, (self.turn, self.seat, self.message, self.hand))


def _game_failed(turn: int, seat: int, message: str, hand: int | None) -> GameFailed:
    return GameFailed(turn, seat, message, hand=hand)


# A game's State, Turn, Player and Record (rummikub.play.protocol), in one call.
S = TypeVar("S")
T = TypeVar("T")
P = TypeVar("P")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class GameFailure:
    """Why a game stopped before its end: the player at ``seat`` (from 0) raised, or made
    a turn the rules refused, at turn ``turn`` (from 1) of hand ``hand`` (from 1; None for a
    game of one hand, the tile game)."""

    game: int
    seed: int
    turn: int
    seat: int
    strategy: str
    message: str
    hand: int | None = None

    def to_data(self) -> dict[str, Any]:
        hand = {} if self.hand is None else {"hand": self.hand}
        return {
            "game": self.game,
            "seed": self.seed,
            **hand,
            "turn": self.turn,
            "seat": self.seat + 1,
            "strategy": self.strategy,
            "error": self.message,
        }

    @classmethod
    def from_data(cls, data: object) -> GameFailure:
        """The failure :meth:`to_data` wrote (a game kept in a ``--save`` file); a
        :class:`ValueError` naming the field that is not as written."""
        hand = None
        if isinstance(data, Mapping) and "hand" in data:
            hand = documents.field(data, "hand", int)
        return cls(
            documents.field(data, "game", int),
            documents.field(data, "seed", int),
            documents.field(data, "turn", int),
            documents.field(data, "seat", int) - 1,
            documents.field(data, "strategy", str),
            documents.field(data, "error", str),
            hand,
        )

    def __str__(self) -> str:
        hand = "" if self.hand is None else f"hand {self.hand}, "
        return (
            f"game {self.game} (seed {self.seed}): {hand}turn {self.turn}, seat {self.seat + 1} "
            f"({self.strategy}): {self.message}"
        )


def read_failure(data: object) -> GameFailure | None:
    """The failure of a game that :meth:`Summary.to_data` wrote (its ``error``; None for a
    game played to its end)."""
    if isinstance(data, Mapping) and "error" in data:
        return GameFailure.from_data(documents.field(data, "error", dict))
    return None


class Summary(Protocol):
    """What every domain's summary of one played game holds (small, sent back from a
    worker); a failed game has its ``error``, no winners and no scores."""

    @property
    def index(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def seats(self) -> tuple[str, ...]: ...
    @property
    def winners(self) -> tuple[int, ...]: ...
    @property
    def scores(self) -> tuple[float, ...]: ...
    @property
    def turns(self) -> int: ...
    @property
    def error(self) -> GameFailure | None: ...

    def to_data(self) -> dict[str, Any]:
        """The game as JSON data, which its game's :meth:`~SelfPlay.read_summary` reads
        back (a ``--save`` file keeps it)."""
        ...


@dataclass(frozen=True, slots=True)
class Seating:
    """One game to play: its index in the run, the deal's seed and the player at each seat."""

    index: int
    seed: int
    seats: tuple[str, ...]


def game_seed(seed: int, index: int, salt: str = "rummikub-simulate") -> int:
    """The deal's seed of game ``index`` of a run seeded ``seed``: a hash (salted by the
    game, :attr:`Game.seed_salt`), so runs with nearby seeds share no games."""
    digest = hashlib.sha256(f"{salt}:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def lineup_of(strategies: Sequence[str], players: int, index: int) -> tuple[str, ...]:
    """The player at each seat in game ``index``: the strategies fill the seats in order
    (repeating when fewer), rotated by one seat each game so every one plays every seat."""
    whole(index, "index", 0)
    base = [strategies[s % len(strategies)] for s in range(players)]
    shift = index % players
    return tuple(base[(s + shift) % players] for s in range(players))


def failure_of(
    game: SelfPlay[S, Any, Any, Any], state: S, seat: int, error: Exception
) -> GameFailed:
    """The failure of ``seat``'s player, raising ``error`` on the turn after ``state``: the
    rules' refusal names its problems, a player's own error its type and text."""
    problems = game.refused(error)
    if problems is not None:
        message = "; ".join(problems)
    else:
        text = " ".join(str(error).split())
        message = f"{type(error).__name__}: {text}" if text else type(error).__name__
    hand, turn = game.moment(state)
    return GameFailed(turn, seat, message, hand=hand)


def play_out(
    game: SelfPlay[S, T, P, R],
    players: Sequence[P],
    seed: int,
    *,
    names: Sequence[str] | None = None,
) -> tuple[R, S]:
    """Play one game to its end: its record (every hand and turn) and the final state.

    A player that raises (any :class:`Exception`) or makes a turn the rules refuse raises
    :class:`GameFailed`, naming the hand, the turn and the seat; so does a hand that goes on
    past the game's :attr:`~Game.max_turns`.
    """
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise TypeError(f"players must be a sequence of strategies, got {described(players)}")
    seats = list(names) if names is not None else [f"P{s + 1}" for s in range(len(players))]
    record = game.deal(seats, seed)
    state = game.start(record)
    hands: list[tuple[S, list[T]]] = [(state, [])]
    limit = game.max_turns
    while not game.over(state):
        dealt = game.next_hand(state)
        if dealt is not None:
            state = dealt
            hands.append((state, []))
            continue
        seat = game.to_move(state)
        hand, turn = game.moment(state)
        if limit is not None and turn > limit:
            raise GameFailed(turn, seat, f"no end after {limit} turns", hand=hand)
        try:
            state, played = game.play_turn(state, players)
        except GameFailed:
            raise
        except Exception as error:  # a player's own failure: costs this game only
            raise failure_of(game, state, seat, error) from error
        hands[-1][1].append(played)
    return game.record_of(record, hands, state), state


@dataclass(frozen=True, slots=True)
class Table:
    """What a worker needs to play any game of a run: the game and the players by name
    (looked up once, where the run starts, so that a worker plays the players the run was
    given)."""

    game: Any
    roster: tuple[tuple[str, Any], ...]

    @classmethod
    def of(cls, game: SelfPlay[Any, Any, Any, Any], names: Sequence[str]) -> Table:
        return cls(game, tuple((name, game.strategies(name)) for name in dict.fromkeys(names)))

    def strategy(self, name: str) -> Any:
        return dict(self.roster)[name]


def play_seated(table: Table, seating: Seating) -> Summary:
    """Play one game of a run to its end, or to the turn its player failed (one task)."""
    game: SelfPlay[Any, Any, Any, Any] = table.game
    players = [table.strategy(name) for name in seating.seats]
    try:
        record, state = play_out(game, players, seating.seed)
    except GameFailed as failed:
        error = GameFailure(
            seating.index,
            seating.seed,
            failed.turn,
            failed.seat,
            seating.seats[failed.seat],
            failed.message,
            failed.hand,
        )
        summary: Summary = game.failed_summary(seating, error)
        return summary
    done: Summary = game.summary(seating, record, state)
    return done


def seatings(
    game: SelfPlay[Any, Any, Any, Any],
    strategies: Sequence[str],
    players: int,
    seed: int,
    games: int,
) -> list[Seating]:
    """The games of a run, in index order."""
    salt = game.seed_salt
    return [
        Seating(i, game_seed(seed, i, salt), lineup_of(strategies, players, i))
        for i in range(games)
    ]


class Run(Protocol):
    """Games to play: a self-play run (:class:`Lineup`) or a duel
    (:class:`rummikub.play.duel.Pairing`)."""

    def table(self) -> Table:
        """The game and the players of every game."""
        ...

    def schedule(self, games: int) -> list[Seating]:
        """The ``games`` games, in index order (a :class:`RummikubError` for a count the
        run cannot play)."""
        ...


#: The most games one run or duel plays (its games' summaries are held in memory until the
#: report: docs/players.md, "Limits and exit codes of game, play and simulate").
MAX_GAMES = 1_000_000


def check_lineup(
    strategies: object,
    players: object,
    seed: object,
    most: int,
    known: Callable[[str], object],
    seats: str,
) -> None:
    """**The** checks every setup of self-play or a duel makes before any game is played:
    ``strategies`` a sequence of names the game knows (``known`` looks one up and raises for
    an unknown one), ``players`` a whole number of seats from 2 to ``most`` (``seats`` says
    so to one who gives more or fewer: ``a game has 2-4 players``), ``seed`` a whole
    number."""
    found = names(strategies, "strategies")
    if not found:
        raise ArgumentError("no strategy given")
    seated = whole(players, "players")
    whole(seed, "seed")
    if not 2 <= seated <= most:
        raise ArgumentError(f"--players {seated}: {seats}")
    for name in found:
        known(name)  # an unknown name fails here, before any game is played


class Lineup(abc.ABC):
    """What every game of a self-play run shares: ``strategies`` by seat (repeated to fill
    the ``players`` seats, rotated one seat a game), the run's ``seed``. A domain's setup
    extends it with its game."""

    __slots__ = ()

    strategies: tuple[str, ...]
    players: int
    seed: int

    @property
    @abc.abstractmethod
    def game(self) -> SelfPlay[Any, Any, Any, Any]:
        raise NotImplementedError

    def table(self) -> Table:
        return Table.of(self.game, self.strategies)

    def schedule(self, games: int) -> list[Seating]:
        if games < 1:
            raise ArgumentError(f"--games {games}: expected at least 1")
        if games > MAX_GAMES:
            raise ArgumentError(f"--games {games}: a run plays at most {MAX_GAMES:,} games")
        return seatings(self.game, self.strategies, self.players, self.seed, games)


def play(
    run: Run,
    games: int,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    batch_size: int | None = None,
    progress: Progress | None = None,
) -> list[Any]:
    """Play the ``games`` games of ``run`` in index order, each back as its domain's
    summary: in this process when ``workers`` is 1 and no ``scheduler`` is given, else on
    Dask (a ``LocalCluster`` of ``workers`` processes, or the cluster at ``scheduler``; see
    :func:`rummikub.core.cluster.run`). ``progress`` is called with the number of games
    just finished."""
    if not callable(getattr(run, "schedule", None)) or not callable(getattr(run, "table", None)):
        raise TypeError(
            "play() takes the setup of a run or a duel (e.g. Setup(('best', 'hold')) or "
            f"DuelSetup('best', 'hold')), got {described(run)}"
        )
    whole(games, "games")
    schedule = run.schedule(games)
    return cluster.run(
        partial(play_seated, run.table()),
        schedule,
        workers=workers,
        scheduler=scheduler,
        batch_size=batch_size,
        progress=progress,
    )


#: A self-play run's games (:func:`play` on a :class:`Lineup`).
simulate = play


# -- what the games show ---------------------------------------------------------------------


def _round(value: float) -> float:
    return round(value, 6)


@dataclass(frozen=True, slots=True)
class Line:
    """Win rate and mean score of one strategy or one seat, with 95% intervals; ``score``
    names the score as the domain's report does ("score", a card game's "total")."""

    name: str
    games: int
    wins: float
    win_rate: float
    win_ci: tuple[float, float]
    mean_score: float
    score_ci: tuple[float, float]
    score: str = field(default="score", compare=False)

    def to_data(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "games": self.games,
            "wins": _round(self.wins),
            "win_rate": _round(self.win_rate),
            "win_rate_ci": [_round(x) for x in self.win_ci],
            f"mean_{self.score}": _round(self.mean_score),
            f"mean_{self.score}_ci": [_round(x) for x in self.score_ci],
        }


def share_of(summary: Summary, seat: int) -> float:
    """The share of the win of ``seat``: a tie for the win counts as a share of one win."""
    return 1 / len(summary.winners) if seat in summary.winners else 0.0


def line_of(
    name: str,
    outcomes: Sequence[tuple[float, float]],
    make: Callable[..., Line] = Line,
) -> Line:
    """The line of ``outcomes``: (share of a win, score) of each game played."""
    wins = math.fsum(w for w, _ in outcomes)
    mean, ci = mean_ci([s for _, s in outcomes])
    n = len(outcomes)
    return make(name, n, wins, wins / n if n else 0.0, wilson(wins, n), mean, ci)


@dataclass(frozen=True, slots=True)
class Tally:
    """What every self-play report shows: the games played to their end (in index order),
    the lines per strategy and per seat, and the failures (left out of every figure)."""

    played: tuple[Any, ...]
    strategies: tuple[Line, ...]
    seats: tuple[Line, ...]
    failures: tuple[GameFailure, ...]


def in_order(games: object) -> list[Any]:
    """The games' summaries of a run or a duel (what :func:`play` returns), in index order:
    **the** check of a report's ``games`` argument."""
    if isinstance(games, str) or not isinstance(games, Sequence):
        raise TypeError(
            f"games must be the summaries play() returns (a list), got {described(games)}"
        )
    return sorted(games, key=lambda g: g.index)


def tally(
    strategies: Sequence[str],
    players: int,
    games: Sequence[Summary],
    make: Callable[..., Line] = Line,
) -> Tally:
    """The lines of ``games`` (read in index order; the failed ones left out and listed)."""
    everything = in_order(games)
    played = [game for game in everything if game.error is None]
    by_strategy: dict[str, list[tuple[float, float]]] = {name: [] for name in strategies}
    by_seat: list[list[tuple[float, float]]] = [[] for _ in range(players)]
    for game in played:
        for seat, name in enumerate(game.seats):
            outcome = (share_of(game, seat), float(game.scores[seat]))
            by_strategy[name].append(outcome)
            by_seat[seat].append(outcome)
    return Tally(
        played=tuple(played),
        strategies=tuple(line_of(name, by_strategy[name], make) for name in by_strategy),
        seats=tuple(line_of(f"seat {s + 1}", by_seat[s], make) for s in range(players)),
        failures=failures_of(everything),
    )


def failures_of(games: Sequence[Summary]) -> tuple[GameFailure, ...]:
    """The failures of ``games``, in their order."""
    return tuple(game.error for game in games if game.error is not None)


def failures_text(failures: Sequence[GameFailure | str], what: str) -> list[str]:
    """Lines naming every failed game (none when no game failed), each a failure or its
    line; ``what`` says what the figures leave out."""
    if not failures:
        return []
    count = f"{len(failures)} game{'s' if len(failures) > 1 else ''} failed"
    return [f"{count} ({what}):", *(f"  {failure}" for failure in failures)]


def lines_text(lines: Sequence[Line], label: str, width: int) -> list[str]:
    """The table of ``lines`` for people: a header (``label`` over the mean score, its
    interval ``width`` wide) and one row a line."""
    rows = [f"{'':12} {'games':>6} {'win rate':>8} {'95% CI':>15} {label:>10} {'95% CI':>{width}}"]
    for line in lines:
        lo, hi = line.win_ci
        slo, shi = line.score_ci
        rows.append(
            f"{line.name:12} {line.games:6d} {line.win_rate:8.1%} "
            f"{f'{lo:.1%}-{hi:.1%}':>15} {line.mean_score:10.1f} "
            f"{f'{slo:.1f} to {shi:.1f}':>{width}}"
        )
    return rows


CSV_HEADER = (
    "group,name,games,wins,win_rate,win_rate_low,win_rate_high,"
    "mean_score,mean_score_low,mean_score_high"
)


def lines_csv(strategies: Sequence[Line], seats: Sequence[Line]) -> str:
    """One CSV row per strategy and per seat."""
    rows = [CSV_HEADER]
    for group, lines in (("strategy", strategies), ("seat", seats)):
        for line in lines:
            values = [
                group,
                line.name,
                line.games,
                _round(line.wins),
                _round(line.win_rate),
                *(_round(x) for x in line.win_ci),
                _round(line.mean_score),
                *(_round(x) for x in line.score_ci),
            ]
            rows.append(",".join(str(v) for v in values))
    return "\n".join(rows) + "\n"
