"""What a game is, for the algorithms that play it.

A :class:`Game` is one domain's rules of play under one rule set (the tile game under a
preset, a card rummy): a value that travels to a Dask worker and whose methods are pure
functions of immutable states. The algorithms of :mod:`rummikub.play` (self-play, duels,
the determinized Monte Carlo, the review) use nothing else of a domain, so what they do for
one game they do for every game.

The type parameters, all immutable values:

* ``State``: everything between two turns, hidden parts included (racks or hands, the
  pool or the stock in draw order).
* ``View``: what one seat knows of a state: its own rack or hand and what is public.
* ``Turn``: one whole turn of the player to move, as a record writes it.
* ``Player``: a strategy, as the domain calls one (a function of a view, or a bundle of
  one function per decision).
* ``Record``: a whole game as its record file holds it (the deal and every turn).

A game that several hands make up (the card rummies) plays them all between
:meth:`Game.start` and :meth:`Game.over`; between two hands no player moves, and
:meth:`SelfPlay.next_hand` deals the next one (the domain's business: its deal, its seed).
:class:`SelfPlay` is the part of a game that self-play and duels use; every :class:`Game`
is one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from rummikub.play.replay import Replay

if TYPE_CHECKING:
    from rummikub.play.registry import Registry
    from rummikub.play.selfplay import GameFailure, Seating, Summary

__all__ = ["Game", "Player", "Record", "SelfPlay", "State", "Turn", "View"]

State = TypeVar("State")
View = TypeVar("View")
Turn = TypeVar("Turn")
Player = TypeVar("Player", contravariant=True)
Record = TypeVar("Record")


class SelfPlay(Protocol[State, Turn, Player, Record]):
    """What self-play and duels (:mod:`rummikub.play.selfplay`, :mod:`rummikub.play.duel`)
    ask of a game: a deal played to its end by named players, and what the game's report
    keeps of it. Every :class:`Game` is one; the first members are :class:`Game`'s own."""

    @property
    def name(self) -> str: ...

    def deal(self, names: Sequence[str], seed: int) -> Record: ...

    def start(self, record: Record) -> State: ...

    def to_move(self, state: State) -> int: ...

    def over(self, state: State) -> bool: ...

    def play_turn(self, state: State, players: Sequence[Player]) -> tuple[State, Turn]: ...

    # -- self-play: whole games between named players (rummikub.play.selfplay) -----------

    @property
    def strategies(self) -> Registry[Any]:
        """The game's players by name (its strategies)."""
        ...

    @property
    def seed_salt(self) -> str:
        """What salts the seeds of the games of a ``simulate`` run
        (:func:`rummikub.play.selfplay.game_seed`), so that each domain keeps its games."""
        ...

    @property
    def max_turns(self) -> int | None:
        """The most turns a hand may take; a hand that goes on costs its game (None: the
        rules end every game)."""
        ...

    def moment(self, state: State) -> tuple[int | None, int]:
        """The hand (from 1; None for a game of one hand) and the turn in it (from 1) that
        ``state`` is before, as a failure names them."""
        ...

    def refused(self, error: Exception) -> tuple[str, ...] | None:
        """The problems of ``error`` when it is the rules refusing a turn (the domain's
        ``TurnError``); None for any other error (a player's own)."""
        ...

    def next_hand(self, state: State) -> State | None:
        """When a hand is over and the game goes on, the state with the next hand dealt;
        None when a player is to move or the game is over."""
        ...

    def record_of(
        self, record: Record, hands: Sequence[tuple[State, Sequence[Turn]]], state: State
    ) -> Record:
        """``record`` (as :meth:`deal` made it) with what was played: each hand's first
        state and its turns, in order (one hand for a game of one hand), ending in
        ``state``."""
        ...

    def summary(self, seating: Seating, record: Record, state: State) -> Summary:
        """The domain's summary of a game played to its end (small: sent back from a
        worker)."""
        ...

    def failed_summary(self, seating: Seating, failure: GameFailure) -> Summary:
        """The domain's summary of a game that ``failure`` stopped."""
        ...

    def read_summary(self, data: object) -> Summary:
        """The domain's summary that :meth:`Summary.to_data` wrote, read back (a game kept
        in a ``--save`` file); a :class:`ValueError` naming what is not as written."""
        ...


class Game(SelfPlay[State, Turn, Player, Record], Protocol[State, View, Turn, Player, Record]):
    """One game under one rule set, as the algorithms that play it see it."""

    @property
    def name(self) -> str:
        """The game's name as ``--game`` takes it: ``tiles`` or a card rummy's name."""
        ...

    # -- a game from its deal to its end -----------------------------------------------------

    def deal(self, names: Sequence[str], seed: int) -> Record:
        """A new game's record, dealt from ``seed``, with one seat per name."""
        ...

    def start(self, record: Record) -> State:
        """The state before the first turn of ``record``."""
        ...

    def players(self, state: State) -> int:
        """How many seats play."""
        ...

    def to_move(self, state: State) -> int:
        """The seat whose turn it is (from 0)."""
        ...

    def over(self, state: State) -> bool:
        """Whether the game has ended."""
        ...

    def winners(self, state: State) -> tuple[int, ...]:
        """The seats that won a game that is over (several share a tie)."""
        ...

    def scores(self, state: State) -> tuple[float, ...]:
        """Each seat's score of a game that is over (the domain's own scoring)."""
        ...

    # -- what a player knows ---------------------------------------------------------------

    def view(self, state: State, seat: int) -> View:
        """What ``seat`` knows of ``state``: its own rack or hand and what is public, never
        another's nor the hidden order of the pool or stock."""
        ...

    def determinize(self, view: View, rng: random.Random) -> State:
        """One full state consistent with ``view``: what the seat cannot see dealt at random
        (by ``rng`` alone) into the other racks or hands and the pool or stock."""
        ...

    # -- turns -------------------------------------------------------------------------

    def play_turn(self, state: State, players: Sequence[Player]) -> tuple[State, Turn]:
        """One turn of the player to move, each decision asked of its player (``players``
        by seat) in the game's order; the state after it and the turn as recorded. A turn
        the rules refuse raises the domain's ``TurnError``; a player's own failure
        propagates."""
        ...

    def apply(self, state: State, turn: Turn) -> State:
        """The state after the player to move plays ``turn`` (judged by the rules)."""
        ...

    # -- records: replaying one (added with play/records.py and play/replay.py) -------------

    def replay(self, record: Record) -> Replay[Any, State, Any]:
        """``record`` played through up to its first bad turn (:class:`Replay`: the states
        before each turn and after the last, the first problem in the domain's words)."""
        ...
