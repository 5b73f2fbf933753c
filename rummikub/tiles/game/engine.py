"""The game (RULES.md, "The game" and "Scoring a finished hand"): deal, turns, ending, scores.

A :class:`GameState` is the whole state between two turns; :func:`advance` applies one turn
(judging a play with :func:`rummikub.check`) and returns the next state, or raises
:class:`TurnError` with every rule the turn breaks. :func:`replay` runs a record's turns and
stops at the first bad one, keeping the states before it.

Readings of the rules chosen here (README, "Readings of the rules"):

* The deal: the box is shuffled with ``random.Random(seed)``; seat 0 takes the first
  ``rack_size`` tiles, seat 1 the next, and so on; the rest is the pool, drawn from its front.
* A player may pass only when the pool is empty, and must draw otherwise. The hand ends when
  a player's rack is empty, or when every player in turn has passed (a full round with the
  pool empty in which nobody played).
* Scores with the pool empty: the lowest rack total wins; a tie for it makes every tied
  player a winner, sharing the gain equally (so scores still sum to zero).
* At a real table (``me`` set) the other racks are unknown: their plays are judged with their
  played tiles as the rack (everything but "from the rack" is checked), their draws need no
  tile, and the scores stay unknown; the winner is known when someone goes out.

A playout's turns take :func:`play_move`: the state :func:`advance` gives for a strategy's move,
unjudged, without the turn a record would write (a playout never reads it).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TypeAlias

from rummikub.core.arguments import whole
from rummikub.core.errors import ArgumentError, RummikubError
from rummikub.play import records
from rummikub.play import replay as replaying
from rummikub.play.piles import take_next
from rummikub.tiles.game.record import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    RACK_SIZE,
    Deal,
    Draw,
    Pass,
    Play,
    Record,
    Result,
    Turn,
    load,
)
from rummikub.tiles.melds import Meld, RawMeld
from rummikub.tiles.position import Move, Position
from rummikub.tiles.rules import Rules, rules_argument
from rummikub.tiles.tiles import JOKER, Tile, format_tiles

__all__ = [
    "GameState",
    "Replay",
    "Seen",
    "TurnError",
    "advance",
    "box",
    "deal",
    "describe",
    "play_move",
    "positions",
    "real_table",
    "replay",
    "replay_file",
    "start",
    "turn_of_move",
]


class TurnError(RummikubError, ValueError):
    """A turn the rules do not allow; ``number`` counts turns from 1."""

    def __init__(self, number: int, player: str, problems: Sequence[str]) -> None:
        self.number = number
        self.player = player
        self.problems: tuple[str, ...] = tuple(problems)
        super().__init__(f"turn {number} ({player}): " + "; ".join(self.problems))

    def __reduce__(self) -> tuple[type[TurnError], tuple[int, str, tuple[str, ...]]]:
        # Sent back from a worker process whole (the default pickles only the message).
        return (TurnError, (self.number, self.player, self.problems))


@dataclass(frozen=True, slots=True)
class Seen:
    """One turn as every player saw it: who, and the tiles laid (none for a draw or a pass;
    the tile drawn is seen only by the one who drew it)."""

    seat: int
    kind: str  # "play", "draw" or "pass"
    laid: tuple[Tile, ...] = ()


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything between two turns. Racks are None where unknown (a real table)."""

    rules: Rules
    players: tuple[str, ...]
    table: tuple[Meld, ...]
    racks: tuple[tuple[Tile, ...] | None, ...]
    rack_counts: tuple[int, ...]
    opened: tuple[bool, ...]
    #: The pool in draw order when known; its size is always :attr:`pool_count`.
    pool: tuple[Tile, ...] | None
    pool_count: int
    #: Turns taken so far (the next turn's number is ``turns + 1``).
    turns: int = 0
    #: Passes in a row (with the pool empty); a full round of them ends the hand.
    passes: int = 0
    result: Result | None = None
    #: Every turn so far as the whole table saw it (RULES.md, "what a player knows").
    history: tuple[Seen, ...] = ()

    @property
    def to_move(self) -> int:
        """The seat whose turn it is."""
        return self.turns % len(self.players)

    @property
    def over(self) -> bool:
        return self.result is not None

    def position(self, seat: int | None = None) -> Position:
        """The position of ``seat`` (default: the player to move); its rack must be known."""
        seat = self.to_move if seat is None else seat
        rack = self.racks[seat]
        if rack is None:
            raise RummikubError(f"the rack of {self.players[seat]} is not known")
        return Position(self.table, rack, self.opened[seat], self.rules)

    def table_tiles(self) -> list[Tile]:
        return [t for meld in self.table for t in meld.tiles]

    def rack_total(self, seat: int) -> int | None:
        rack = self.racks[seat]
        return None if rack is None else sum(self.rules.tile_value(t) for t in rack)


def box(rules: Rules) -> list[Tile]:
    """Every tile of the box in a fixed order: colors, numbers, copies, then jokers."""
    tiles = [tile for tile in rules.tile_types() for _ in range(rules.copies)]
    return tiles + [JOKER] * rules.jokers


def deal(players: Sequence[str], rules: Rules, seed: int, rack_size: int = RACK_SIZE) -> Record:
    """A new record with the box shuffled by ``seed`` and dealt: seat 0 takes the first
    ``rack_size`` tiles, seat 1 the next, ...; the rest is the pool in draw order.

    Wrong types raise :class:`TypeError` (``seed`` is a whole number), a count of players
    other than 2-4 or racks the box cannot fill :class:`RummikubError`."""
    players = _names(players)
    rules_argument(rules)
    whole(seed, "seed", *records.TOML_INTEGERS)
    whole(rack_size, "rack_size")
    _check_size(len(players), rules, rack_size)
    tiles = box(rules)
    random.Random(seed).shuffle(tiles)
    sort = rules.sort_key
    racks = tuple(
        tuple(sorted(tiles[i * rack_size : (i + 1) * rack_size], key=sort))
        for i in range(len(players))
    )
    pool = tuple(tiles[len(players) * rack_size :])
    return Record(
        players=tuple(players),
        rules=rules,
        deal=Deal(racks, pool),
        seed=seed,
        rack_size=rack_size,
    )


def real_table(
    players: Sequence[str], rules: Rules, me: int, rack: Sequence[Tile], rack_size: int = RACK_SIZE
) -> Record:
    """A new record for a game at a real table: only ``me``'s rack is known."""
    players = _names(players)
    rules_argument(rules)
    whole(me, "me")
    whole(rack_size, "rack_size")
    _check_size(len(players), rules, rack_size)
    if not 0 <= me < len(players):
        raise RummikubError(f"me={me}: expected a seat 0-{len(players) - 1}")
    if isinstance(rack, str) or not all(isinstance(t, Tile) for t in rack):
        raise TypeError(
            f"rack must be a sequence of Tile (e.g. parse_tiles('R1 R2')), got {rack!r:.40}"
        )
    racks: list[tuple[Tile, ...] | None] = [None] * len(players)
    racks[me] = tuple(sorted(rack, key=rules.sort_key))
    return Record(
        players=tuple(players), rules=rules, deal=Deal(tuple(racks)), rack_size=rack_size, me=me
    )


def _names(players: object) -> tuple[str, ...]:
    """The ``players`` argument: a sequence of 2-4 names (checked before anything is built)."""
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise TypeError(f"players must be a list of names, got {type(players).__name__}")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ArgumentError(f"{len(players)} players: a game has {MIN_PLAYERS}-{MAX_PLAYERS}")
    if not all(isinstance(name, str) for name in players):
        raise TypeError(f"players must be names (strings), got {list(players)!r:.60}")
    return records.check_names(players, ArgumentError)


def _record(record: object, function: str) -> Record:
    if not isinstance(record, Record):
        raise TypeError(
            f"{function}() takes a Record (e.g. load_record(path)), got "
            f"{type(record).__name__} {record!r:.40}"
        )
    return record


def _check_size(players: int, rules: Rules, rack_size: int) -> None:
    if not 2 <= players <= 4:
        raise ArgumentError(f"{players} players: a game has 2-4")
    if rack_size < 1 or players * rack_size > rules.tile_count:
        raise ArgumentError(
            f"{players} racks of {rack_size} tiles need {players * rack_size} tiles, "
            f"but the box holds {rules.tile_count}"
        )


def start(record: Record) -> GameState:
    """The state before the first turn; raises :class:`RummikubError` for a broken deal."""
    _record(record, "start")
    rules, players, size = record.rules, record.players, record.rack_size
    _check_size(len(players), rules, size)
    problems: list[str] = []
    for seat, rack in enumerate(record.deal.racks):
        if rack is not None and len(rack) != size:
            problems.append(f"deal: {players[seat]}'s rack has {len(rack)} tiles, not {size}")
    known = [t for rack in record.deal.racks if rack is not None for t in rack]
    pool = record.deal.pool
    position = Position((), tuple(known) + (pool or ()), True, rules)
    problems += [f"deal: {p}" for p in position.problems()]
    pool_count = rules.tile_count - len(players) * size
    if pool is not None and len(pool) != pool_count:
        problems.append(f"deal: the pool has {len(pool)} tiles, not {pool_count}")
    if problems:
        raise RummikubError("; ".join(problems))
    return GameState(
        rules=rules,
        players=players,
        table=(),
        racks=record.deal.racks,
        rack_counts=(size,) * len(players),
        opened=(False,) * len(players),
        pool=pool,
        pool_count=pool_count,
    )


def advance(state: GameState, turn: Turn, *, judge: bool = True) -> GameState:
    """The state after ``turn`` by the player to move; raises :class:`TurnError`.

    ``judge=False`` skips the checker for a play that is known to be legal (a playout's
    solver moves, which pass it by construction); the move a strategy finally plays is always
    judged."""
    number, seat = state.turns + 1, state.to_move
    if state.result is not None:
        raise TurnError(number, state.players[seat], ["the hand is over"])
    if isinstance(turn, Play):
        after = _play(state, turn, judge)
        laid = Counter(after.table_tiles()) - Counter(state.table_tiles())
        seen = Seen(seat, "play", tuple(sorted(laid.elements(), key=state.rules.sort_key)))
    elif isinstance(turn, Draw):
        after, seen = _draw(state, turn), Seen(seat, "draw")
    else:
        after, seen = _pass(state), Seen(seat, "pass")
    return replace(after, turns=number, history=(*state.history, seen))


def _error(state: GameState, problems: Sequence[str]) -> TurnError:
    return TurnError(state.turns + 1, state.players[state.to_move], problems)


def _play(state: GameState, turn: Play, judge: bool = True) -> GameState:
    from rummikub.tiles.checker import check

    seat, rules = state.to_move, state.rules
    rack = state.racks[seat]
    new_tiles = Counter(t for meld in turn.table for t in meld.tiles)
    played = new_tiles - Counter(t for meld in state.table for t in meld.tiles)
    problems: list[str] = []
    if rack is None:
        # Someone else's rack at a real table: judge the move with its own tiles as the rack,
        # and check what can be: the number of tiles and the box's copies.
        judged_rack = tuple(played.elements())
        if played.total() > state.rack_counts[seat]:
            problems.append(
                f"{played.total()} tiles played, but {state.players[seat]} holds "
                f"{state.rack_counts[seat]}"
            )
        visible = [t for r in state.racks if r is not None for t in r]
        problems += Position((), tuple(visible), True, rules).problems(new_tiles.elements())
    else:
        judged_rack = rack
    if judge:
        verdict = check(Position(state.table, judged_rack, state.opened[seat], rules), turn.table)
        problems += verdict.errors
    if problems:
        raise _error(state, problems)
    table = tuple(Meld.of(m.tiles, kind=m.kind, rules=rules) for m in turn.table)
    racks = list(state.racks)
    if rack is not None:
        left = Counter(rack) - played
        racks[seat] = tuple(sorted(left.elements(), key=rules.sort_key))
    counts = list(state.rack_counts)
    counts[seat] -= played.total()
    opened = list(state.opened)
    opened[seat] = True
    after = replace(
        state,
        table=table,
        racks=tuple(racks),
        rack_counts=tuple(counts),
        opened=tuple(opened),
        passes=0,
    )
    if counts[seat] == 0:
        return replace(after, result=_went_out(after, seat))
    return after


def _draw(state: GameState, turn: Draw) -> GameState:
    seat, rules = state.to_move, state.rules
    if state.pool_count == 0:
        raise _error(state, ["the pool is empty: pass instead of drawing"])
    tile, pool = take_next(
        state.pool,
        turn.tile,
        lambda given, top: _error(state, [f"drew {given}, but the next tile of the pool is {top}"]),
    )
    racks = list(state.racks)
    rack = racks[seat]
    if rack is not None:
        if tile is None:
            raise _error(state, [f"the tile {state.players[seat]} drew must be given"])
        problem = rules.tile_problem(tile)
        if problem:
            raise _error(state, [f"drew {tile}: {problem}"])
        racks[seat] = tuple(sorted((*rack, tile), key=rules.sort_key))
        if pool is None:
            visible = [t for r in racks if r is not None for t in r]
            tiles = [t for meld in state.table for t in meld.tiles] + visible
            found = Position((), tuple(tiles), True, rules).problems()
            if found:
                raise _error(state, [f"drew {tile}: {p}" for p in found])
    counts = list(state.rack_counts)
    counts[seat] += 1
    return replace(
        state,
        racks=tuple(racks),
        rack_counts=tuple(counts),
        pool=pool,
        pool_count=state.pool_count - 1,
        passes=0,
    )


def _pass(state: GameState) -> GameState:
    if state.pool_count > 0:
        count = state.pool_count
        raise _error(state, [f"the pool still holds {count} tiles: draw instead of passing"])
    after = replace(state, passes=state.passes + 1)
    if after.passes >= len(state.players):
        return replace(after, result=_pool_empty(after))
    return after


# -- scoring --------------------------------------------------------------------------------


def _totals(state: GameState) -> list[int] | None:
    totals = [state.rack_total(seat) for seat in range(len(state.players))]
    if any(total is None for total in totals):
        return None
    return [total or 0 for total in totals]


def _went_out(state: GameState, winner: int) -> Result:
    """The first player to play all tiles wins; the others score minus their rack total, the
    winner plus the sum of those."""
    totals = _totals(state)
    if totals is None:
        return Result("went_out", (winner,), None)
    scores = [-float(total) for total in totals]
    scores[winner] = float(sum(totals) - totals[winner])
    return Result("went_out", (winner,), tuple(scores))


def _pool_empty(state: GameState) -> Result:
    """The lowest rack total wins; every other player loses the difference to it, and the
    winner gains the sum (shared equally by tied winners)."""
    totals = _totals(state)
    if totals is None:
        return Result("pool_empty", (), None)
    low = min(totals)
    winners = tuple(seat for seat, total in enumerate(totals) if total == low)
    gain = sum(total - low for total in totals)
    scores = tuple(gain / len(winners) if total == low else float(low - total) for total in totals)
    return Result("pool_empty", winners, scores)


# -- records --------------------------------------------------------------------------------


#: A tile record played through (:class:`rummikub.play.replay.Replay`): the state before each
#: turn and after the last, the first bad turn.
Replay: TypeAlias = replaying.Replay[Record, GameState, TurnError]


def replay(record: Record) -> Replay:
    """Apply every turn of ``record`` until the first bad one; a result written that its
    turns do not give is the replay's problem."""
    _record(record, "replay")
    steps = (replaying.Step(partial(_turn, turn)) for turn in record.turns)
    return replaying.replay(record, start(record), steps, TurnError, partial(_ended, record))


def replay_file(path: str | os.PathLike[str]) -> Replay:
    """Read the record at ``path`` (:func:`rummikub.tiles.game.record.load`, which raises
    :class:`~rummikub.tiles.game.record.RecordError` for a file that is no record) and
    replay it up to its first bad turn; the problem names the file."""
    return replaying.replay_file(path, load, replay)


def _turn(turn: Turn, state: GameState) -> GameState:
    return advance(state, turn)


def _ended(record: Record, state: GameState) -> str | None:
    """The problem of a result written that the turns do not give (None if they do)."""
    written, found = record.result, state.result
    if written is not None and written != found:
        return f"result: the record says {_result_words(written)}, its turns give " + (
            "no end yet" if found is None else _result_words(found)
        )
    return None


def _result_words(result: Result) -> str:
    scores = "" if result.scores is None else f", scores {list(result.scores)}"
    return f"{result.ending}, winners {list(result.winners)}{scores}"


def positions(record: Record) -> Iterator[tuple[int, int, Turn, Position | None]]:
    """For each legal turn of ``record``: its number (from 1), the seat, the turn and the
    position that player faced before it (None where the rack is unknown).

    This is what a grader reads: the position before each turn and the turn taken in it.
    """
    game = replay(record)
    for index, turn in enumerate(record.turns[: len(game.states) - 1]):
        state = game.states[index]
        seat = state.to_move
        rack = state.racks[seat]
        position = None if rack is None else state.position(seat)
        yield index + 1, seat, turn, position


def turn_of_move(state: GameState, move: Move) -> Turn:
    """The turn a strategy's move stands for: a play, or a draw (a pass once the pool is
    empty) when nothing is played."""
    if move.played:
        return Play(tuple(_raw(meld) for meld in move.table))
    if state.pool_count == 0:
        return Pass()
    # With the pool's order known, the record names the tile drawn.
    return Draw(state.pool[0] if state.pool else None)


def _raw(meld: Meld) -> RawMeld:
    # Through the notation, so that the kind is written only where the tiles leave it open.
    return RawMeld.parse(str(meld))


def describe(turn: Turn, state: GameState) -> str:
    """A turn in words, e.g. ``drew R5``, ``played R4 O7``, ``passed``."""
    if isinstance(turn, Draw):
        return "drew" + ("" if turn.tile is None else f" {turn.tile}")
    if isinstance(turn, Pass):
        return "passed"
    new = Counter(t for meld in turn.table for t in meld.tiles)
    played = new - Counter(t for meld in state.table for t in meld.tiles)
    return "played " + format_tiles(sorted(played.elements(), key=state.rules.sort_key))


# -- a playout's turns ----------------------------------------------------------------------


def play_move(state: GameState, move: Move) -> GameState:
    """The state after the player to move makes ``move``, unjudged: the very state of
    ``advance(state, turn_of_move(state, move), judge=False)``, at a playout's cost.

    A playout never reads the turn a move stands for, and writing each meld out and reading
    it back (:func:`turn_of_move`), then reading it again as a meld and rebuilding the state
    field by field, cost a fifth of a fast playout's turn (benchmarks/RESULTS.md, "The fast
    playout move"). Here each meld is read as the record would read it once (:func:`_laid`,
    remembered), the tiles laid are counted from the melds that changed, and the state is
    built once. A turn this path does not know (a rack or the pool unknown, the hand over,
    a drawn tile the box does not hold) takes :func:`advance`, which says what is wrong."""
    seat = state.turns % len(state.players)
    rack = state.racks[seat]
    pool = state.pool
    if state.result is not None or rack is None or pool is None:
        return advance(state, turn_of_move(state, move), judge=False)
    if move.played:
        return _played(state, seat, rack, move.table)
    if state.pool_count == 0:
        passes = state.passes + 1
        after = _next(state, Seen(seat, "pass"), passes=passes)
        if passes >= len(state.players):
            return replace(after, result=_pool_empty(after))
        return after
    if not pool or state.rules.tile_problem(pool[0]) is not None:
        return advance(state, turn_of_move(state, move), judge=False)
    racks = list(state.racks)
    racks[seat] = tuple(sorted((*rack, pool[0]), key=_memo(state.rules).keys.__getitem__))
    counts = list(state.rack_counts)
    counts[seat] += 1
    return _next(
        state,
        Seen(seat, "draw"),
        racks=tuple(racks),
        rack_counts=tuple(counts),
        pool=pool[1:],
        pool_count=state.pool_count - 1,
    )


def _played(
    state: GameState, seat: int, rack: tuple[Tile, ...], melds: tuple[Meld, ...]
) -> GameState:
    """:func:`play_move` for a move that lays tiles: :func:`advance`'s play, unjudged."""
    memo = _memo(state.rules)
    table = _laid(melds, memo)
    # The tiles laid: the new table's less the old one's (a multiset difference, none below
    # zero). A meld on both sides leaves it as it is, so those are set aside first, by
    # identity: the melds a move leaves alone are the old table's very melds (_laid).
    unmatched: dict[int, int] = {}
    for meld in state.table:
        unmatched[id(meld)] = unmatched.get(id(meld), 0) + 1
    laid: list[Tile] = []
    for meld in table:
        left = unmatched.get(id(meld))
        if left:
            unmatched[id(meld)] = left - 1
        else:
            laid += meld.tiles
    for meld in state.table:
        if unmatched[id(meld)]:
            unmatched[id(meld)] -= 1
            _take(laid, meld.tiles)
    key = memo.keys.__getitem__
    laid.sort(key=key)
    racks = list(state.racks)
    kept = list(rack)
    _take(kept, laid)
    racks[seat] = tuple(sorted(kept, key=key))
    counts = list(state.rack_counts)
    counts[seat] -= len(laid)
    opened = list(state.opened)
    opened[seat] = True
    after = _next(
        state,
        Seen(seat, "play", tuple(laid)),
        table=table,
        racks=tuple(racks),
        rack_counts=tuple(counts),
        opened=tuple(opened),
    )
    if counts[seat] == 0:
        return replace(after, result=_went_out(after, seat))
    return after


def _take(tiles: list[Tile], taken: Sequence[Tile]) -> None:
    """Take ``taken`` out of ``tiles``, each where it is there: ``tiles`` becomes the multiset
    difference (``Counter(tiles) - Counter(taken)``), its order kept."""
    for tile in taken:
        if tile in tiles:
            tiles.remove(tile)


def _next(
    state: GameState,
    seen: Seen,
    *,
    table: tuple[Meld, ...] | None = None,
    racks: tuple[tuple[Tile, ...] | None, ...] | None = None,
    rack_counts: tuple[int, ...] | None = None,
    opened: tuple[bool, ...] | None = None,
    pool: tuple[Tile, ...] | None = None,
    pool_count: int | None = None,
    passes: int = 0,
) -> GameState:
    """The state after the turn ``seen`` of the player to move, built at once: the fields
    given, the others as they were (``passes`` back to 0 unless given)."""
    return GameState(
        rules=state.rules,
        players=state.players,
        table=state.table if table is None else table,
        racks=state.racks if racks is None else racks,
        rack_counts=state.rack_counts if rack_counts is None else rack_counts,
        opened=state.opened if opened is None else opened,
        pool=state.pool if pool is None else pool,
        pool_count=state.pool_count if pool_count is None else pool_count,
        turns=state.turns + 1,
        passes=passes,
        history=(*state.history, seen),
    )


class _Memo:
    """What :func:`play_move` remembers of one rule set: each tile's sort key, and each meld
    a move laid with the meld a record of the turn makes of it (:func:`_laid`)."""

    __slots__ = ("kept", "keys", "laid", "rules")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.keys = rules.sort_keys()
        #: By kind and tiles, the meld read back.
        self.laid: dict[tuple[str, tuple[Tile, ...]], Meld] = {}
        #: The same melds by identity (held here, so that an identity stays theirs).
        self.kept: dict[int, Meld] = {}


_MEMOS: dict[Rules, _Memo] = {}
#: The memo used last: a playout's every turn has the same rule set, found by identity
#: (hashing a rule set costs more than the rest of a draw).
_last = _Memo(Rules())
#: The melds a memo remembers, and the rule sets remembered, before they start afresh.
_LAID_MAX = 20_000
_MEMOS_MAX = 16


def _memo(rules: Rules) -> _Memo:
    global _last
    memo = _last
    if memo.rules is not rules:
        if len(_MEMOS) >= _MEMOS_MAX:
            _MEMOS.clear()
        memo = _MEMOS.get(rules) or _MEMOS.setdefault(rules, _Memo(rules))
        _last = memo
    return memo


def _laid(melds: tuple[Meld, ...], memo: _Memo) -> tuple[Meld, ...]:
    """The table :func:`advance` makes of a move's ``melds``: each written out and read
    back (:func:`_raw`), then read as a meld (:func:`_play`), once per meld. Each meld read
    is one object, the very meld of the first move that laid it where it read back as
    itself: a move's melds left alone are then the old table's objects (:func:`_played`
    finds them by identity), found again at once."""
    kept, known = memo.kept, memo.laid
    if len(known) >= _LAID_MAX:
        known.clear()
        kept.clear()
    table = []
    for meld in melds:
        if kept.get(id(meld)) is meld:
            table.append(meld)
            continue
        key = (meld.kind, meld.tiles)
        laid = known.get(key)
        if laid is None:
            raw = _raw(meld)
            laid = Meld.of(raw.tiles, kind=raw.kind, rules=memo.rules)
            known[key] = laid = meld if laid == meld else laid
            kept[id(laid)] = laid
        table.append(laid)
    return tuple(table)
