"""Explaining a move: where each tile of the new table came from, and steps to get there.

:func:`explain` compares the old table with the new one and answers two questions:

* **Origins.** For every new meld, where each of its tiles came from (the rack, or an old
  meld by number), and for every old meld what became of it: unchanged, extended,
  rearranged (tiles taken from it), broken up, or a joker released (and by which tile).
* **Steps.** A numbered list of physical actions that, replayed in order on the old table,
  gives the new one. Each step moves tiles from one place (the rack or a meld) to one meld.

How the steps are kept few (the choices a good player makes too):

1. Old and new melds are *paired*: a paired old meld is transformed in place, keeps its
   number, and the tiles it keeps never move. Identical melds are paired first, so an
   unchanged meld is never touched. Each step moves the tiles of one source bound for one
   destination, so a step count is the number of (source, destination) batches.
2. Two plans are made and the one with fewer steps kept (then the one that touches fewer
   melds, then the one that moves fewer tiles): pair the rest by a maximum-weight bipartite
   matching on shared tiles (networkx; extended or reordered melds are recognised whatever
   their order) and route the tiles left over; or route all tiles first and pair the melds
   joined by the most batches. A local search then re-pairs one changed old meld at a time
   (with another new meld it shares a tile with, or with none) while that lowers the cost:
   the most shared tiles is not always the fewest steps. Routing is greedy, the largest
   batch first. The plan is not proven minimal.
3. The steps are put in the order that leaves the fewest melds invalid after each step
   (adding to a meld before taking from it keeps it valid; a joker is replaced before it is
   taken), finishing one meld before starting another, taking table tiles before laying
   rack tiles beside them, and otherwise in the old table's order. A step may still leave
   a meld invalid for a while; its text says until which step.

Melds are numbered as in INTERFACE.md ("Explanations"): the old table's melds ``0..n-1``;
each step whose target is ``"new"`` starts the next number. :func:`replay` applies steps
to a table, so anyone can check an explanation.

This module never judges legality (that is :mod:`rummikub.checker`) and never prints; step
texts are returned as *words*, with tiles kept apart from the prose so a renderer can
color them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final, Literal, TypeAlias

from rummikub.errors import ExplainError, ReplayError
from rummikub.melds import Meld
from rummikub.position import Move, Position
from rummikub.rules import Rules
from rummikub.tiles import JOKER, Tile

__all__ = [
    "NEW",
    "RACK",
    "Change",
    "ExplainError",
    "Explanation",
    "Fate",
    "Origin",
    "Release",
    "ReplayError",
    "Step",
    "Transfer",
    "explain",
    "plain",
    "replay",
]

RACK: Final = "rack"
NEW: Final = "new"

#: Where a step takes tiles from: the rack, or a meld by number.
Source: TypeAlias = int | Literal["rack"]
#: Where a step puts tiles: a meld by number, or ``"new"`` to start the next meld.
Target: TypeAlias = int | Literal["new"]
#: Human text with tiles kept apart from the prose (a renderer may color them).
Word: TypeAlias = str | Tile
Words: TypeAlias = tuple[Word, ...]

#: How a meld of the new table was made.
ChangeKind = Literal["unchanged", "extended", "rearranged", "new"]
#: What became of a meld of the old table.
FateKind = Literal["unchanged", "extended", "rearranged", "broken_up", "joker_released"]


def plain(words: Iterable[Word]) -> str:
    """Words as plain text.

    >>> plain(("Add ", Tile.parse("R4"), " from your rack."))
    'Add R4 from your rack.'
    """
    return "".join(str(word) for word in words)


# -- results ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Origin:
    """Tiles of a new meld that came from one place (or of an old meld, added to it)."""

    source: Source
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Transfer:
    """Tiles of an old meld that went to one meld of the new table (by its index there)."""

    to: int
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Release:
    """A joker of an old meld that no longer stands where it stood."""

    #: What the joker stood for in a run; None in a group (any missing color).
    stood_for: Tile | None
    #: The tile that took its place, if one did (under ``joker_lock = "free"`` none need).
    by: Tile | None
    #: Where that tile came from.
    source: Source | None


@dataclass(frozen=True, slots=True)
class Change:
    """How one meld of the new table was made."""

    meld: Meld
    #: Its number in the steps: its old meld's number if transformed in place, else the
    #: number the step that starts it gives it.
    number: int
    #: The old meld transformed in place into this one, or None for a new meld.
    old: int | None
    #: Where its tiles came from: the tiles kept in place first (source == old), then the
    #: other old melds by number, then the rack.
    origins: tuple[Origin, ...]
    kind: ChangeKind

    def sources(self) -> tuple[Source, ...]:
        """The origin of each tile of ``meld.tiles``, in order."""
        pools = [(origin.source, Counter(origin.tiles)) for origin in self.origins]
        found: list[Source] = []
        for tile in self.meld.tiles:
            source, pool = next((s, p) for s, p in pools if p[tile] > 0)
            pool[tile] -= 1
            found.append(source)
        return tuple(found)


@dataclass(frozen=True, slots=True)
class Fate:
    """What became of one meld of the old table."""

    number: int
    meld: Meld
    #: The index, in the new table, of the meld it was transformed into in place (None:
    #: broken up, all its tiles went elsewhere).
    into: int | None
    #: Tiles added to it in place, by source.
    added: tuple[Origin, ...]
    #: Tiles it gave to other melds of the new table.
    gave: tuple[Transfer, ...]
    released: tuple[Release, ...]
    kind: FateKind


@dataclass(frozen=True, slots=True)
class Step:
    """Move ``tiles`` from ``source`` (the rack or a meld number) to ``target``."""

    tiles: tuple[Tile, ...]
    source: Source
    target: Target
    #: The step in words, for people; empty for a step read from data without text.
    words: Words = ()

    @property
    def text(self) -> str:
        return plain(self.words)

    def to_data(self) -> dict[str, Any]:
        """The step as JSON data (INTERFACE.md): tiles, from, to and text."""
        return {
            "tiles": [str(t) for t in self.tiles],
            "from": self.source,
            "to": self.target,
            "text": self.text,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Step:
        """Read a step written by :meth:`to_data` (its text is not needed).

        >>> Step.from_data({"tiles": ["R4"], "from": "rack", "to": 0}).target
        0
        """
        try:
            words = data["tiles"]
            source, target = data["from"], data["to"]
        except (KeyError, TypeError):
            raise ExplainError(f"step {data!r}: expected the keys tiles, from and to") from None
        if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            raise ExplainError(f"step {data!r}: tiles must be a list of tile strings")
        if not (source == RACK or _is_number(source)):
            raise ExplainError(f"step {data!r}: from must be 'rack' or a meld number")
        if not (target == NEW or _is_number(target)):
            raise ExplainError(f"step {data!r}: to must be 'new' or a meld number")
        return cls(tuple(Tile.parse(w) for w in words), source, target)


def _is_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


@dataclass(frozen=True, slots=True)
class Explanation:
    """Origins and steps of a move from ``old`` to ``new``."""

    old: tuple[Meld, ...]
    new: tuple[Meld, ...]
    played: tuple[Tile, ...]
    #: One per meld of ``new``, in its order.
    changes: tuple[Change, ...]
    #: One per meld of ``old``, in its order.
    fates: tuple[Fate, ...]
    steps: tuple[Step, ...]
    rules: Rules = field(repr=False, compare=False, default_factory=Rules)

    def to_data(self) -> dict[str, Any]:
        """``"changes"`` and ``"steps"`` as JSON data (INTERFACE.md, README "Explanations")."""
        return {
            "changes": [
                {
                    "meld": change.number,
                    "change": change.kind,
                    "tiles": [str(t) for t in change.meld.tiles],
                    "from": list(change.sources()),
                }
                for change in self.changes
            ],
            "steps": [step.to_data() for step in self.steps],
        }

    def text(self) -> str:
        """The steps as numbered lines of plain text."""
        return "\n".join(f"{n}. {step.text}" for n, step in enumerate(self.steps, start=1))

    def _repr_svg_(self) -> str:
        """The move as a picture, tiles numbered by step (notebooks show it inline)."""
        from rummikub.render.svg import explanation_svg

        return explanation_svg(self)

    def _repr_html_(self) -> str:
        from rummikub.render.svg import html

        return html(self._repr_svg_(), self.text())

    def change_words(self, change: Change) -> Words:
        """Where the tiles of a new meld came from, e.g. ``"R1 R2 R3" + R4 from your rack``
        (empty for an unchanged meld)."""
        if change.kind == "unchanged":
            return ()
        words: list[Word] = []
        for origin in change.origins:
            if words:
                words.append(" + ")
            if origin.source == change.old and isinstance(origin.source, int):
                before = self.old[origin.source]
                if Counter(origin.tiles) == Counter(before.tiles):
                    words += _quoted(before.tiles)
                    continue
                words += [*_listed_words(origin.tiles), " kept from ", *_quoted(before.tiles)]
            else:
                words += [*_listed_words(origin.tiles), " ", *self._source_words(origin.source)]
        return tuple(words)

    def fate_words(self, fate: Fate) -> tuple[Words, ...]:
        """Sentences about an old meld worth a remark: its jokers freed, or it broken up."""
        sentences: list[Words] = []
        quoted = _quoted(fate.meld.tiles)
        if fate.released:
            count = len(fate.released)
            subject = ["The J of " if count == 1 else "The jokers of ", *quoted]
            verb = " is" if count == 1 else " are"
            freers = [r for r in fate.released if r.by is not None and r.source is not None]
            if not freers:
                sentences.append((*subject, verb, " moved without a replacement."))
            else:
                by: list[Word] = []
                for release in freers:
                    assert release.by is not None and release.source is not None
                    if by:
                        by.append(" and ")
                    by += [release.by, " ", *self._source_words(release.source)]
                sentences.append((*subject, verb, " freed by ", *by, "."))
        if fate.into is None:
            parts: list[Word] = []
            for transfer in fate.gave:
                if parts:
                    parts.append(", ")
                parts += [*_listed_words(transfer.tiles), " to "]
                parts += _quoted(self.new[transfer.to].tiles)
            sentences.append((*quoted, " is broken up: ", *parts, "."))
        return tuple(sentences)

    def _source_words(self, source: Source) -> list[Word]:
        if isinstance(source, int):
            return ["from ", *_quoted(self.old[source].tiles)]
        return ["from your rack"]


def _listed_words(tiles: Iterable[Tile]) -> list[Word]:
    """Tiles separated by spaces, as words."""
    words: list[Word] = []
    for tile in tiles:
        if words:
            words.append(" ")
        words.append(tile)
    return words


def _quoted(tiles: Iterable[Tile]) -> list[Word]:
    return ['"', *_listed_words(tiles), '"']


# -- replay -------------------------------------------------------------------------------


def replay(
    table: Sequence[Meld | Sequence[Tile]],
    steps: Iterable[Step],
    *,
    rack: Iterable[Tile] | None = None,
) -> list[list[Tile]]:
    """Apply ``steps`` to ``table``: the melds afterwards, by number (emptied ones included).

    With ``rack``, tiles taken from the rack are checked against it too. Raises
    :class:`ReplayError` naming the first step that cannot be carried out.

    >>> table = [Meld.parse("R1 R2 R3")]
    >>> step = Step((Tile.parse("R4"),), "rack", 0)
    >>> [str(t) for t in replay(table, [step])[0]]
    ['R1', 'R2', 'R3', 'R4']
    """
    melds = [list(m.tiles) if isinstance(m, Meld) else list(m) for m in table]
    left = Counter(rack) if rack is not None else None
    for number, step in enumerate(steps, start=1):
        if not step.tiles:
            raise ReplayError(f"step {number} moves no tiles")
        if isinstance(step.source, int):
            _take(melds, step.source, step.tiles, number)
        elif left is not None:
            missing = Counter(step.tiles) - left
            if missing:
                raise ReplayError(
                    f"step {number} takes {_listed(Counter(step.tiles))} from the rack, which "
                    f"holds {_listed(left) or 'nothing more'}"
                )
            left -= Counter(step.tiles)
        if isinstance(step.target, int):
            if not 0 <= step.target < len(melds):
                raise ReplayError(
                    f"step {number} puts tiles on meld {step.target}, which is not there"
                )
            if step.target == step.source:
                raise ReplayError(f"step {number} moves tiles from meld {step.target} to itself")
            melds[step.target].extend(step.tiles)
        else:
            melds.append(list(step.tiles))
    return melds


def _take(melds: list[list[Tile]], source: int, tiles: Sequence[Tile], number: int) -> None:
    if not 0 <= source < len(melds):
        raise ReplayError(f"step {number} takes tiles from meld {source}, which is not there")
    missing = Counter(tiles) - Counter(melds[source])
    if missing:
        held = " ".join(str(t) for t in melds[source]) or "nothing"
        raise ReplayError(
            f"step {number} takes {_listed(Counter(tiles))} from meld {source}, which holds {held}"
        )
    for tile in tiles:
        melds[source].remove(tile)


def _listed(tiles: Counter[Tile]) -> str:
    return " ".join(str(t) for t in sorted(tiles.elements(), key=_display_key))


def _display_key(tile: Tile) -> tuple[int, str, int]:
    # Independent of a rule set, for messages about tiles that may not be in any box.
    return (1 if tile.is_joker else 0, tile.color, tile.number)


# -- explain ------------------------------------------------------------------------------


def explain(position: Position, move: Move | Sequence[Meld]) -> Explanation:
    """Origins and steps of ``move`` (a :class:`Move`, or just the new table) in ``position``.

    The played tiles are the new table's tiles less the old table's. Raises
    :class:`ExplainError` if a table tile is missing from the new table, if the played tiles
    differ from ``move.played``, or if the rack does not hold them.

    >>> position = Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7"])
    >>> after = [Meld.parse("R1 R2 R3 R4"), Meld.parse("K7 R7 B7 O7")]
    >>> print(explain(position, after).text())
    1. Add R4 from your rack to "R1 R2 R3" (now "R1 R2 R3 R4").
    2. Add O7 from your rack to "K7 R7 B7" (now "K7 R7 B7 O7").
    """
    old = position.table
    new = move.table if isinstance(move, Move) else tuple(move)
    played = _played(position, new, move.played if isinstance(move, Move) else None)
    plan = _Plan.make(old, new, played, position.rules)
    fates = plan.fates()
    steps, numbers = _Narrator(plan, fates).steps()
    return Explanation(
        old=old,
        new=new,
        played=tuple(sorted(played.elements(), key=_sort_key(position.rules))),
        changes=plan.changes(numbers),
        fates=fates,
        steps=steps,
        rules=position.rules,
    )


def _played(position: Position, new: Sequence[Meld], given: Sequence[Tile] | None) -> Counter[Tile]:
    """The played tiles, after checking that the move conserves the table's tiles."""
    new_tiles = Counter(t for meld in new for t in meld.tiles)
    old_tiles = position.table_tiles()
    lost = old_tiles - new_tiles
    if lost:
        raise ExplainError(
            f"the new table lacks the table tiles {_listed(lost)}: every table tile stays on "
            "the table, so no steps lead there"
        )
    played = new_tiles - old_tiles
    if given is not None and Counter(given) != played:
        raise ExplainError(
            f"the move says it plays {_listed(Counter(given)) or 'nothing'}, but the new table "
            f"adds {_listed(played) or 'nothing'} to the old one"
        )
    beyond = played - position.rack_tiles()
    if beyond:
        raise ExplainError(f"the new table adds {_listed(beyond)}, which the rack does not hold")
    return played


def _sort_key(rules: Rules) -> Callable[[Tile], tuple[int, int, str, int]]:
    """``rules.sort_key``, also for tiles outside the box (after the box's colors)."""

    def key(tile: Tile) -> tuple[int, int, str, int]:
        if tile.is_joker:
            return (2, 0, "", 0)
        index = rules.colors.find(tile.color)
        return (0, index, "", tile.number) if index >= 0 else (1, 0, tile.color, tile.number)

    return key


def _size(tiles: Counter[Tile]) -> int:
    return sum(tiles.values())


def _shared(a: Sequence[Tile], b: Sequence[Tile]) -> int:
    return sum((Counter(a) & Counter(b)).values())


def _unchanged_pairs(old: Sequence[Meld], new: Sequence[Meld]) -> dict[int, int]:
    """Old meld index -> an identical new meld: paired first, so never touched."""
    pairs: dict[int, int] = {}
    for j, after in enumerate(new):
        i = next((i for i, m in enumerate(old) if i not in pairs and m.same_as(after)), None)
        if i is not None:
            pairs[i] = j
    return pairs


def _matching(edges: Mapping[tuple[int, int], int], n: int) -> dict[int, int]:
    """A maximum-weight matching of old melds to new ones, from ``{(i, j): weight}``."""
    # Imported here: only explanations need networkx, and it takes ~0.1 s to load.
    import networkx as nx

    # Nodes are integers (old i is i, new j is n + j): string nodes would hash differently
    # in every process, and so would the matching chosen among equally good ones.
    graph = nx.Graph()
    for (i, j), weight in edges.items():
        graph.add_edge(i, n + j, weight=weight)
    return {min(a, b): max(a, b) - n for a, b in nx.max_weight_matching(graph)}


#: How many steps the plans tried by the pairing search may hold in all (each is routed).
_SEARCH_BUDGET: Final = 4000


@dataclass
class _Flow:
    """Tiles that go from one source to one meld of the new table (by index)."""

    source: Source
    to: int
    tiles: Counter[Tile]


@dataclass
class _Plan:
    """The pairing, the tiles kept in place and the tiles that move."""

    old: tuple[Meld, ...]
    new: tuple[Meld, ...]
    played: Counter[Tile]
    rules: Rules
    pairs: dict[int, int]  # old index -> new index
    kept: dict[int, Counter[Tile]]  # old index -> tiles that stay in place
    flows: list[_Flow]

    @classmethod
    def make(
        cls, old: tuple[Meld, ...], new: tuple[Meld, ...], played: Counter[Tile], rules: Rules
    ) -> _Plan:
        """The plan with the fewest steps (then the most tiles left in place) of two:
        pairing melds by shared tiles and routing the rest, or routing all tiles first and
        pairing the melds that the most batches join. Neither is best on every table: the
        first keeps ``J K2 K3`` in place for ``J R2 R3`` (and then moves K2 K3 on), the
        second keeps it whole for ``J K2 K3 K4 K5 K6``."""
        unchanged = _unchanged_pairs(old, new)
        plans = [
            cls._shared_first(old, new, played, rules, unchanged),
            cls._routes_first(old, new, played, rules, unchanged),
        ]
        return min(plans, key=_Plan.cost)._improved(unchanged)

    def cost(self) -> tuple[int, int, int]:
        """Fewer steps, then fewer melds touched, then more tiles left in place."""
        owner, n = self.owner, len(self.old)
        touched = {f.source for f in self.flows} | {owner.get(f.to, n + f.to) for f in self.flows}
        touched.discard(RACK)
        return len(self.flows), len(touched), -sum(map(_size, self.kept.values()))

    def _improved(self, unchanged: Mapping[int, int]) -> _Plan:
        """Re-pair the changed melds while that lowers the :meth:`cost` (a local search).

        Pairing by shared tiles can cost steps: for ``K1 K2 K3 K4 K5 K6`` and the rack's
        tiles becoming ``K1 K2 K3 K4``, ``K1 K2 K3``, ``K4 K5 K6`` and ``K5 K6 K7``, the old
        run shares most with ``K1 K2 K3 K4``, but left in place as ``K1 K2 K3`` (or
        ``K4 K5 K6``) it saves a step. So each changed old meld in turn is paired with
        every new meld it shares a tile with (the old meld paired with that one taking its
        former partner, or none) or with none, and a change is kept when the plan it gives
        costs less; until no change does, or the plans tried hold :data:`_SEARCH_BUDGET`
        steps in all (a table rearranged throughout stays fast; the search only ever lowers
        the cost). Each plan is made by :meth:`_paired`.
        """
        taken = set(unchanged.values())
        near: dict[int, list[int]] = {}
        for i, before in enumerate(self.old):
            if i not in unchanged:
                near[i] = [
                    j
                    for j, after in enumerate(self.new)
                    if j not in taken and _shared(before.tiles, after.tiles)
                ]
        tally = _Tally(self.old, self.new, self.played)
        best, cost = self, self.cost()
        budget = _SEARCH_BUDGET
        improved = True
        while improved:
            improved = False
            for i, options in near.items():
                for pairs in self._neighbours(best.pairs, i, options, near):
                    if budget <= 0:
                        return best
                    plan = self._paired(self.old, self.new, self.played, self.rules, pairs, tally)
                    budget -= len(plan.flows)
                    if plan.cost() < cost:
                        best, cost, improved = plan, plan.cost(), True
                        break
        return best

    @staticmethod
    def _neighbours(
        pairs: dict[int, int], i: int, options: list[int], near: Mapping[int, list[int]]
    ) -> Iterable[dict[int, int]]:
        """Pairings that differ from ``pairs`` in old meld ``i``'s partner."""
        was = pairs.get(i)
        owner = {j: k for k, j in pairs.items()}
        for j in [*options, None]:
            if j == was:
                continue
            changed = {k: v for k, v in pairs.items() if k != i}
            if j is None:
                yield changed
                continue
            changed[i] = j
            other = owner.get(j)
            if other is None:
                yield changed
                continue
            del changed[other]
            yield changed
            if was is not None and was in near[other]:
                yield {**changed, other: was}

    @classmethod
    def _shared_first(
        cls,
        old: tuple[Meld, ...],
        new: tuple[Meld, ...],
        played: Counter[Tile],
        rules: Rules,
        unchanged: dict[int, int],
    ) -> _Plan:
        """Pair melds to keep the most tiles in place (same kinds preferred), route the rest."""
        # The same-kind bonuses of all pairs together stay below one shared tile's weight.
        scale = 2 * (len(old) + len(new) + 1)
        taken = set(unchanged.values())
        edges: dict[tuple[int, int], int] = {}
        for i, before in enumerate(old):
            for j, after in enumerate(new):
                shared = _shared(before.tiles, after.tiles)
                if i not in unchanged and j not in taken and shared:
                    edges[i, j] = shared * scale + (before.kind == after.kind)
        return cls._paired(old, new, played, rules, {**unchanged, **_matching(edges, len(old))})

    @classmethod
    def _paired(
        cls,
        old: tuple[Meld, ...],
        new: tuple[Meld, ...],
        played: Counter[Tile],
        rules: Rules,
        pairs: Mapping[int, int],
        tally: _Tally | None = None,
    ) -> _Plan:
        """The plan for a pairing: each paired old meld keeps the tiles it shares with its
        new meld in place; the other tiles are routed. ``tally``: the tiles of these melds,
        if already counted (a search plans many pairings)."""
        tally = tally or _Tally(old, new, played)
        kept: dict[int, Counter[Tile]] = {}
        supply: dict[Source, dict[int, int]] = {}
        demand: dict[int, dict[int, int]] = {}
        for i in range(len(old)):
            if i in pairs:
                kept[i], supply[i], demand[pairs[i]] = tally.pair(i, pairs[i])
            else:
                supply[i] = tally.old[i]
        supply[RACK] = tally.rack
        demand = {j: demand[j] if j in demand else tally.new[j] for j in range(len(new))}
        flows = _route(supply, demand, tally.numbers.tiles)
        return cls(old, new, played, rules, dict(sorted(pairs.items())), kept, flows)

    @classmethod
    def _routes_first(
        cls,
        old: tuple[Meld, ...],
        new: tuple[Meld, ...],
        played: Counter[Tile],
        rules: Rules,
        unchanged: dict[int, int],
    ) -> _Plan:
        """Route every tile of the changed melds, then pair the melds joined by the most
        batches (each pair saves a step), the bigger batches first."""
        taken = set(unchanged.values())
        supply: dict[Source, Counter[Tile]] = {
            i: Counter(meld.tiles) for i, meld in enumerate(old) if i not in unchanged
        }
        supply[RACK] = played.copy()
        demand = {j: Counter(meld.tiles) for j, meld in enumerate(new) if j not in taken}
        flows = _assign(supply, demand)
        # One more paired batch always outweighs any difference in tiles kept.
        scale = 1 + sum(_size(f.tiles) for f in flows)
        edges = {
            (f.source, f.to): scale + _size(f.tiles) for f in flows if isinstance(f.source, int)
        }
        pairs = {**unchanged, **_matching(edges, len(old))}
        kept = {i: Counter(old[i].tiles) for i in unchanged}
        moving: list[_Flow] = []
        for flow in flows:
            if isinstance(flow.source, int) and pairs.get(flow.source) == flow.to:
                kept[flow.source] = flow.tiles
            else:
                moving.append(flow)
        return cls(old, new, played, rules, dict(sorted(pairs.items())), kept, moving)

    @property
    def owner(self) -> dict[int, int]:
        """New index -> the old meld transformed into it."""
        return {j: i for i, j in self.pairs.items()}

    def incoming(self, j: int) -> list[_Flow]:
        """The flows into new meld ``j``: from old melds by number, then from the rack."""
        found = [flow for flow in self.flows if flow.to == j]
        return sorted(found, key=lambda f: f.source if isinstance(f.source, int) else len(self.old))

    def changes(self, numbers: Mapping[int, int]) -> tuple[Change, ...]:
        owner = self.owner
        found: list[Change] = []
        for j, meld in enumerate(self.new):
            i = owner.get(j)
            origins: list[Origin] = []
            if i is not None:
                origins.append(Origin(i, self._sorted(self.kept[i])))
            origins += [Origin(f.source, self._sorted(f.tiles)) for f in self.incoming(j)]
            found.append(Change(meld, numbers[j], i, tuple(origins), self._change_kind(j, i)))
        return tuple(found)

    def _change_kind(self, j: int, i: int | None) -> ChangeKind:
        if i is None:
            return "new"
        if self.kept[i] != Counter(self.old[i].tiles):
            return "rearranged"
        if self.incoming(j):
            return "extended"
        return "unchanged" if self.old[i].same_as(self.new[j]) else "rearranged"

    def fates(self) -> tuple[Fate, ...]:
        # Each played tile substitutes at most one joker, over all melds.
        spare = self.played.copy()
        found: list[Fate] = []
        for i, meld in enumerate(self.old):
            j = self.pairs.get(i)
            added = self.incoming(j) if j is not None else []
            gave = [f for f in self.flows if f.source == i]
            released = self._releases(i, added, spare)
            found.append(
                Fate(
                    number=i,
                    meld=meld,
                    into=j,
                    added=tuple(Origin(f.source, self._sorted(f.tiles)) for f in added),
                    gave=tuple(Transfer(f.to, self._sorted(f.tiles)) for f in gave),
                    released=released,
                    kind=self._fate_kind(j, added, gave, released),
                )
            )
        return tuple(found)

    @staticmethod
    def _fate_kind(
        j: int | None, added: list[_Flow], gave: list[_Flow], released: tuple[Release, ...]
    ) -> FateKind:
        if released:
            return "joker_released"
        if j is None:
            return "broken_up"
        if gave:
            return "rearranged"
        return "extended" if added else "unchanged"

    def _releases(self, i: int, added: list[_Flow], spare: Counter[Tile]) -> tuple[Release, ...]:
        """The jokers of old meld ``i`` that no longer stand where they stood, and by what."""
        meld = self.old[i]
        if not meld.jokers:
            return ()
        wanted = self._released_meanings(i)
        releases: list[Release] = []
        for meaning in wanted:
            by, source = self._substitute(meld, meaning, added, spare)
            releases.append(Release(meaning, by, source))
        return tuple(releases)

    def _released_meanings(self, i: int) -> list[Tile | None]:
        """What each released joker of old meld ``i`` stood for (None in a group).

        As in RULES.md rule 4, a joker stays locked only while its meld stays intact where
        it lies: every numbered tile kept in place, in a meld of the same color (run) or
        number (group), the joker standing for the same tile. Any other joker is released.
        """
        meld = self.old[i]
        j = self.pairs.get(i)
        after = self.new[j] if j is not None else None
        kept = self.kept.get(i, Counter())
        intact = after is not None and not Counter(meld.numbered) - kept
        if meld.kind == "run":
            meanings = Counter(meld.joker_tiles())
            still: Counter[Tile] = Counter()
            if intact and after and after.kind == "run" and after.color == meld.color:
                still = meanings & Counter(after.joker_tiles())
            while sum(still.values()) > kept[JOKER]:  # only jokers still lying there count
                still[next(iter(+still))] -= 1
            released: list[Tile | None] = [*self._sorted(meanings - still)]
            return released
        same = intact and after and after.kind == "group" and after.number == meld.number
        staying = min(meld.jokers, after.jokers, kept[JOKER]) if same and after else 0
        return [None] * (meld.jokers - staying)

    def _substitute(
        self, meld: Meld, meaning: Tile | None, added: list[_Flow], spare: Counter[Tile]
    ) -> tuple[Tile | None, Source | None]:
        """A played or moved tile that stands where the joker stood: one added to the meld
        in place first, else any played tile."""

        def fits(tile: Tile) -> bool:
            if meaning is not None:
                return tile == meaning
            missing = meld.missing_colors(self.rules)
            return not tile.is_joker and tile.number == meld.number and tile.color in missing

        for flow in added:
            for tile in sorted(flow.tiles, key=_sort_key(self.rules)):
                if fits(tile) and (flow.source != RACK or spare[tile] > 0):
                    if flow.source == RACK:
                        spare[tile] -= 1
                    return tile, flow.source
        for tile in sorted(+spare, key=_sort_key(self.rules)):
            if fits(tile):
                spare[tile] -= 1
                return tile, RACK
        return None, None

    def _sorted(self, tiles: Counter[Tile]) -> tuple[Tile, ...]:
        return tuple(sorted(tiles.elements(), key=_sort_key(self.rules)))


class _Numbers:
    """Tiles numbered 0, 1, …: routing counts tiles by number (hashing a tile is slow)."""

    def __init__(self) -> None:
        self.tiles: list[Tile] = []
        self._number: dict[Tile, int] = {}

    def counts(self, tiles: Counter[Tile]) -> dict[int, int]:
        """The positive counts of ``tiles``, by tile number."""
        found: dict[int, int] = {}
        for tile, count in tiles.items():
            if count > 0:
                if tile not in self._number:
                    self._number[tile] = len(self.tiles)
                    self.tiles.append(tile)
                found[self._number[tile]] = count
        return found


class _Tally:
    """The tiles of the old and the new melds and the rack, counted once for all the
    pairings a search plans; and, for each pair tried, what it keeps and leaves."""

    def __init__(self, old: Sequence[Meld], new: Sequence[Meld], played: Counter[Tile]) -> None:
        self.numbers = _Numbers()
        self._before = [Counter(m.tiles) for m in old]
        self._after = [Counter(m.tiles) for m in new]
        self.old = [self.numbers.counts(c) for c in self._before]
        self.new = [self.numbers.counts(c) for c in self._after]
        self.rack = self.numbers.counts(played)
        self._pairs: dict[tuple[int, int], tuple[Counter[Tile], dict[int, int], dict[int, int]]]
        self._pairs = {}

    def pair(self, i: int, j: int) -> tuple[Counter[Tile], dict[int, int], dict[int, int]]:
        """Old meld ``i`` paired with new meld ``j``: the tiles kept in place, and the
        counts of what the old meld gives away and of what the new one still needs."""
        if (i, j) not in self._pairs:
            kept = self._before[i] & self._after[j]
            gives = self.numbers.counts(self._before[i] - kept)
            self._pairs[i, j] = kept, gives, self.numbers.counts(self._after[j] - kept)
        return self._pairs[i, j]


def _assign(
    supply: Mapping[Source, Counter[Tile]], demand: Mapping[int, Counter[Tile]]
) -> list[_Flow]:
    """Route the tiles that move, in as few (source, destination) batches as greedily found
    (see :func:`_route`)."""
    numbers = _Numbers()
    return _route(
        {source: numbers.counts(tiles) for source, tiles in supply.items()},
        {j: numbers.counts(tiles) for j, tiles in demand.items()},
        numbers.tiles,
    )


def _route(
    supply: Mapping[Source, Mapping[int, int]],
    demand: Mapping[int, Mapping[int, int]],
    tiles: Sequence[Tile],
) -> list[_Flow]:
    """Route tiles, counted by their number in ``tiles``, from ``supply`` to ``demand`` (both
    only read), in as few (source, destination) batches as greedily found.

    Each round moves the biggest batch; then one that empties its source or fills its
    destination (fewer batches left over); then the first source and destination. A batch
    only changes when its source or destination does, so only those are recomputed, and a
    pair that shares no tile never will. Conservation makes supply and demand equal per
    tile, so the loop ends with both empty.
    """
    sources = list(supply)
    have = [dict(supply[source]) for source in sources]
    need = {j: dict(needed) for j, needed in demand.items()}
    sizes: dict[tuple[bool, int], int] = {(True, r): sum(h.values()) for r, h in enumerate(have)}
    sizes.update({(False, j): sum(n.values()) for j, n in need.items()})
    # (rank of the source, destination) -> (score, batch), for the pairs that share a tile.
    live: dict[tuple[int, int], tuple[tuple[int, int, int, int], dict[int, int]]] = {}

    def rate(rank: int, j: int) -> None:
        held, needed = have[rank], need[j]
        batch = {t: min(c, needed[t]) for t, c in held.items() if t in needed}
        size = sum(batch.values())
        if size:
            whole = (size == sizes[True, rank]) + (size == sizes[False, j])
            live[rank, j] = ((-size, -whole, rank, j), batch)
        else:
            live.pop((rank, j), None)

    holders: dict[int, list[int]] = {}
    for rank, held in enumerate(have):
        for t in held:
            holders.setdefault(t, []).append(rank)
    for j, needed in need.items():
        for rank in sorted({rank for t in needed for rank in holders.get(t, ())}):
            rate(rank, j)
    flows: list[_Flow] = []
    while live:
        rank, j = min(live, key=lambda key: live[key][0])
        batch = live[rank, j][1]
        _remove(have[rank], batch)
        _remove(need[j], batch)
        sizes[True, rank] -= sum(batch.values())
        sizes[False, j] -= sum(batch.values())
        moved = Counter({tiles[t]: count for t, count in batch.items()})
        flows.append(_Flow(sources[rank], j, moved))
        for key in [k for k in live if k[0] == rank or k[1] == j]:
            rate(*key)
    return flows


def _remove(counts: dict[int, int], batch: Mapping[int, int]) -> None:
    for t, count in batch.items():
        counts[t] -= count
        if not counts[t]:
            del counts[t]


# -- meld states --------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _arranged(tiles: tuple[Tile, ...], rules: Rules) -> Meld | None:
    """A valid meld of exactly these tiles in some order (a run if both), or None."""
    numbered = [t for t in tiles if not t.is_joker]
    jokers = len(tiles) - len(numbered)
    if len(tiles) < 3 or not numbered:
        return None
    return _as_run(numbered, jokers, rules) or _as_group(numbered, jokers, rules)


def _as_run(numbered: list[Tile], jokers: int, rules: Rules) -> Meld | None:
    color = numbered[0].color
    numbers = sorted(t.number for t in numbered)
    if any(t.color != color for t in numbered) or len(set(numbers)) != len(numbers):
        return None
    low, high = numbers[0], numbers[-1]
    spare = jokers - (high - low + 1 - len(numbers))
    if spare < 0:
        return None
    # Spare jokers go above the tiles while there is room, then below.
    above = max(0, min(spare, rules.numbers - high))
    start = low - (spare - above)
    if start < 1:
        return None
    cells = [JOKER] * (high + above - start + 1)
    for number in numbers:
        cells[number - start] = Tile(color, number)
    return Meld("run", tuple(cells))


def _as_group(numbered: list[Tile], jokers: int, rules: Rules) -> Meld | None:
    colors = [t.color for t in numbered]
    if len({t.number for t in numbered}) != 1 or len(set(colors)) != len(colors):
        return None
    if len(numbered) + jokers > rules.max_group:
        return None
    ordered = sorted(numbered, key=_sort_key(rules))
    return Meld("group", (*ordered, *[JOKER] * jokers))


def _valid(tiles: Counter[Tile], rules: Rules) -> bool:
    return _arranged(_canonical(tiles), rules) is not None


def _canonical(tiles: Counter[Tile]) -> tuple[Tile, ...]:
    return tuple(sorted(tiles.elements(), key=_display_key))


# -- ordering and narrating the steps --------------------------------------------------------


@dataclass
class _Board:
    """The table while the steps are replayed: melds by number, and the new melds begun."""

    melds: list[Counter[Tile]]
    numbers: dict[int, int]  # new index -> meld number, for melds that exist already

    def apply(self, flow: _Flow) -> tuple[Target, int]:
        """Carry out ``flow``: its target as a step writes it, and the meld number."""
        if isinstance(flow.source, int):
            self.melds[flow.source] -= flow.tiles
        if flow.to in self.numbers:
            number = self.numbers[flow.to]
            self.melds[number] += flow.tiles
            return number, number
        number = len(self.melds)
        self.numbers[flow.to] = number
        self.melds.append(flow.tiles.copy())
        return NEW, number


class _Narrator:
    """Orders the flows into steps and puts each step into words."""

    def __init__(self, plan: _Plan, fates: tuple[Fate, ...]) -> None:
        self.plan = plan
        self.rules = plan.rules
        self.fates = fates
        self.owner = plan.owner

    # -- order --------------------------------------------------------------------------

    def _board(self) -> _Board:
        return _Board([Counter(m.tiles) for m in self.plan.old], self.plan.owner)

    def order(self) -> list[_Flow]:
        board = self._board()
        remaining = list(self.plan.flows)
        ordered: list[_Flow] = []
        while remaining:
            ready = [f for f in remaining if not self._waits(f, remaining)] or remaining
            last = ordered[-1].to if ordered else None
            # A joker just replaced is picked up at once: the swap reads as one move.
            freed = [f for f in ready if ordered and self._frees(ordered[-1], f)]
            best = min(
                freed or ready,
                key=lambda f: (
                    self._harm(board, f),
                    f.to != last,  # finish one meld before starting another
                    f.source == RACK,  # take table tiles before laying rack tiles by them
                    self._place(f),
                ),
            )
            board.apply(best)
            remaining.remove(best)
            ordered.append(best)
        return ordered

    def _place(self, flow: _Flow) -> tuple[int, int]:
        """Otherwise, go through the old table in its order, then the new melds."""
        n = len(self.plan.old)
        target = self.owner.get(flow.to, n + flow.to)
        return target, flow.source if isinstance(flow.source, int) else n

    def _frees(self, last: _Flow, flow: _Flow) -> bool:
        """Whether ``flow`` takes a joker that ``last`` just replaced."""
        source = flow.source
        return (
            isinstance(source, int)
            and bool(flow.tiles[JOKER])
            and (last in self._substitutions(source))
        )

    def _waits(self, flow: _Flow, remaining: list[_Flow]) -> bool:
        """A joker leaves its old meld only after the tile replacing it has arrived."""
        if not isinstance(flow.source, int) or not flow.tiles[JOKER]:
            return False
        return any(f in remaining for f in self._substitutions(flow.source))

    def _substitutions(self, i: int) -> list[_Flow]:
        """The flows that bring old meld ``i`` the tiles replacing its jokers in place."""
        fate = self.fates[i]
        if fate.into is None:
            return []
        found: list[_Flow] = []
        for release in fate.released:
            for flow in self.plan.incoming(fate.into):
                if release.by and flow.source == release.source and flow.tiles[release.by]:
                    found.append(flow)
        return found

    def _harm(self, board: _Board, flow: _Flow) -> int:
        """How many more melds are invalid after ``flow`` than before it."""
        touched: list[Counter[Tile]] = []
        if isinstance(flow.source, int):
            touched.append(board.melds[flow.source])
        target = board.melds[board.numbers[flow.to]] if flow.to in board.numbers else Counter()
        before = sum(self._invalid(m) for m in (*touched, target))
        after_source = [m - flow.tiles for m in touched]
        after = sum(self._invalid(m) for m in (*after_source, target + flow.tiles))
        return after - before

    def _invalid(self, tiles: Counter[Tile]) -> bool:
        return bool(+tiles) and not _valid(tiles, self.rules)

    # -- words --------------------------------------------------------------------------

    def steps(self) -> tuple[tuple[Step, ...], dict[int, int]]:
        """The steps in order, and the number of every new meld (new index -> number)."""
        ordered = self.order()
        board = self._board()
        states: list[list[Counter[Tile]]] = [[m.copy() for m in board.melds]]
        targets: list[tuple[Target, int]] = []
        for flow in ordered:
            targets.append(board.apply(flow))
            states.append([m.copy() for m in board.melds])
        story = _Story(self, ordered, targets, states, board.numbers)
        steps = tuple(
            Step(story.tiles(k), flow.source, targets[k][0], story.words(k))
            for k, flow in enumerate(ordered)
        )
        return steps, board.numbers


class _Story:
    """The words of each step, knowing the states before and after every step."""

    def __init__(
        self,
        narrator: _Narrator,
        ordered: list[_Flow],
        targets: list[tuple[Target, int]],
        states: list[list[Counter[Tile]]],
        numbers: dict[int, int],
    ) -> None:
        self.plan = narrator.plan
        self.rules = narrator.rules
        self.fates = narrator.fates
        self.ordered = ordered
        self.targets = targets
        self.states = states  # states[k]: before step k (0-based); states[-1]: the end
        self.final = {number: self.plan.new[j] for j, number in numbers.items()}
        self.loose = self._loose_jokers()

    def tiles(self, k: int) -> tuple[Tile, ...]:
        return self.plan._sorted(self.ordered[k].tiles)

    def state(self, number: int, k: int) -> Counter[Tile]:
        """Meld ``number`` after ``k`` steps (0: the old table); empty if not yet begun."""
        melds = self.states[k]
        return melds[number] if number < len(melds) else Counter()

    # -- the pieces of a sentence ---------------------------------------------------------

    def _list(self, tiles: Iterable[Tile]) -> list[Word]:
        return _listed_words(tiles)

    def _quoted(self, tiles: Iterable[Tile]) -> list[Word]:
        return _quoted(tiles)

    def _shown(self, number: int, k: int) -> list[Word]:
        """Meld ``number`` after ``k`` steps, quoted, laid out as a player would lay it."""
        tiles, core = self.state(number, k), self._core(number, k)
        shown = self._quoted(self._layout(number, core))
        if tiles == core:
            return shown
        return [*shown, " + ", *self._list(list((tiles - core).elements()))]

    def _layout(self, number: int, tiles: Counter[Tile]) -> tuple[Tile, ...]:
        final = self.final.get(number)
        if final is not None and Counter(final.tiles) == tiles:
            return final.tiles
        if number < len(self.plan.old) and Counter(self.plan.old[number].tiles) == tiles:
            return self.plan.old[number].tiles
        meld = _arranged(_canonical(tiles), self.rules)
        return meld.tiles if meld else self.plan._sorted(tiles)

    def _until(self, number: int, k: int) -> list[Word]:
        """For a meld left invalid after step ``k`` (0-based): until which step."""
        tiles = self._core(number, k + 1)
        if not +tiles or _valid(tiles, self.rules):
            return []
        for later in range(k + 2, len(self.states)):
            after = self._core(number, later)
            if not +after:
                return [f", used up in step {later}"]
            if _valid(after, self.rules):
                return [f", not a meld until step {later}"]
        raise AssertionError("the new table's melds are valid")

    def _core(self, number: int, k: int) -> Counter[Tile]:
        """Meld ``number`` after ``k`` steps without the replaced jokers lying beside it."""
        tiles = self.state(number, k)
        loose = min(self.loose[k].get(number, 0), tiles[JOKER])
        return tiles - Counter({JOKER: loose})

    def _leaves(self, number: int, k: int) -> list[Word]:
        if not +self.state(number, k + 1):
            return []
        return [" (leaves ", *self._shown(number, k + 1), *self._until(number, k), ")"]

    def _from(self, k: int) -> list[Word]:
        source = self.ordered[k].source
        if not isinstance(source, int):
            return ["from your rack"]
        if not +self.state(source, k + 1):
            return ["from ", *self._shown(source, k), " (all of it)"]
        return ["from ", *self._shown(source, k), *self._leaves(source, k)]

    # -- sentences ------------------------------------------------------------------------

    def words(self, k: int) -> Words:
        flow = self.ordered[k]
        target, number = self.targets[k]
        if number < len(self.plan.old):
            return tuple(self._into_old(k, number))
        final = self.final[number]
        done = self.state(number, k + 1) == Counter(final.tiles)
        rack = flow.source == RACK
        tiles = self.tiles(k)
        if target == NEW and done:
            if rack:
                return ("Lay ", *self._quoted(final.tiles), " from your rack.")
            return ("Take ", *self._quoted(final.tiles), " ", *self._from(k), " as a new meld.")
        if target == NEW:
            verb = "Lay " if rack else "Take "
            return (verb, *self._list(tiles), " ", *self._from(k), " to start a new meld.")
        if done and rack:
            there = self.plan._sorted(self.state(number, k))
            return (
                "Lay ",
                *self._quoted(final.tiles),
                " from your rack (",
                *self._list(tiles),
                ") and the ",
                *self._list(there),
                ".",
            )
        if done:
            return ("Take ", *self._list(tiles), " ", *self._from(k), " to complete ",
                    *self._quoted(final.tiles), ".")  # fmt: skip
        verb = "Add " if rack else "Take "
        return (verb, *self._list(tiles), " ", *self._from(k), " for the new meld (so far ",
                *self._shown(number, k + 1), ").")  # fmt: skip

    def _into_old(self, k: int, number: int) -> list[Word]:
        """Tiles added to an old meld transformed in place."""
        tiles = self.tiles(k)
        before = self._shown(number, k)
        now = [" (now ", *self._shown(number, k + 1), *self._until(number, k), ")."]
        substitutes = self._substitutes(k, number)
        if substitutes:
            jokers = "the J" if len(substitutes) == 1 else "its jokers"
            rest = list((Counter(tiles) - Counter(substitutes)).elements())
            head: list[Word] = ["Put ", *self._list(substitutes), " ", *self._from(k)]
            head += [f" in place of {jokers} in ", *before]
            if rest:
                head += [", and add ", *self._list(self.plan._sorted(Counter(rest)))]
            return head + now
        verb = "Add " if self.ordered[k].source == RACK else "Move "
        return [verb, *self._list(tiles), " ", *self._from(k), " to ", *before, *now]

    def _substitutes(self, k: int, number: int) -> list[Tile]:
        """Tiles of step ``k`` that take the place of jokers still lying in old meld ``number``."""
        flow = self.ordered[k]
        jokers_there = self.state(number, k)[JOKER]
        found: list[Tile] = []
        for release in self.fates[number].released:
            by = release.by
            if by is None or release.source != flow.source or not flow.tiles[by]:
                continue
            if len(found) < jokers_there and found.count(by) < flow.tiles[by]:
                found.append(by)
        return found

    def _loose_jokers(self) -> list[dict[int, int]]:
        """For every state, the jokers of each old meld that were replaced but not yet taken
        away (shown beside the meld: ``"R5 R6 R7" + J``)."""
        loose: dict[int, int] = {}
        out = Counter[int]()  # jokers each old meld still gives away later
        for flow in self.ordered:
            if isinstance(flow.source, int):
                out[flow.source] += flow.tiles[JOKER]
        found = [dict(loose)]
        for k, flow in enumerate(self.ordered):
            _, number = self.targets[k]
            if number < len(self.plan.old):
                freed = min(len(self._substitutes(k, number)), out[number] - loose.get(number, 0))
                if freed > 0:
                    loose[number] = loose.get(number, 0) + freed
            if isinstance(flow.source, int) and flow.tiles[JOKER]:
                out[flow.source] -= flow.tiles[JOKER]
                loose[flow.source] = max(0, loose.get(flow.source, 0) - flow.tiles[JOKER])
            found.append(dict(loose))
        return found
