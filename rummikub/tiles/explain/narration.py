"""The words: each step as a sentence, where the tiles of a new meld came from, and remarks
on old melds (jokers freed, melds broken up). Everything an explanation says is worded here.

Words keep tiles apart from the prose (:data:`Word`), so a renderer can color them; this
module never prints.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from rummikub.tiles.explain.arrangement import arranged, canonical, valid
from rummikub.tiles.explain.ordering import Board
from rummikub.tiles.explain.planner import Flow, Plan
from rummikub.tiles.explain.results import (
    NEW,
    RACK,
    Aftermath,
    Change,
    Explanation,
    Source,
    Step,
    Target,
    Word,
    Words,
)
from rummikub.tiles.tiles import JOKER, Tile, sorted_tiles


def narrate(
    plan: Plan, aftermaths: tuple[Aftermath, ...], ordered: list[Flow]
) -> tuple[tuple[Step, ...], dict[int, int]]:
    """The steps (the ``ordered`` flows in words), and the number of every new meld
    (new index -> number)."""
    board = Board.start(plan)
    states: list[list[Counter[Tile]]] = [[m.copy() for m in board.melds]]
    targets: list[tuple[Target, int]] = []
    for flow in ordered:
        targets.append(board.apply(flow))
        states.append([m.copy() for m in board.melds])
    story = _Story(plan, aftermaths, ordered, targets, states, board.numbers)
    steps = tuple(
        Step(story.tiles(k), flow.source, targets[k][0], story.words(k))
        for k, flow in enumerate(ordered)
    )
    return steps, board.numbers


# -- the table with origins, and remarks on old melds -----------------------------------------


def change_words(explanation: Explanation, change: Change) -> Words:
    """Where the tiles of a new meld came from, e.g. ``"R1 R2 R3" + R4 from your rack``
    (empty for an unchanged meld)."""
    if change.kind == "unchanged":
        return ()
    words: list[Word] = []
    for origin in change.origins:
        if words:
            words.append(" + ")
        if origin.source == change.old and isinstance(origin.source, int):
            before = explanation.old[origin.source]
            if Counter(origin.tiles) == Counter(before.tiles):
                words += _quoted(before.tiles)
                continue
            words += [*_listed(origin.tiles), " kept from ", *_quoted(before.tiles)]
        else:
            words += [*_listed(origin.tiles), " ", *_source_words(explanation, origin.source)]
    return tuple(words)


def aftermath_words(explanation: Explanation, aftermath: Aftermath) -> tuple[Words, ...]:
    """Sentences about an old meld worth a remark: its jokers freed, or it broken up."""
    sentences: list[Words] = []
    quoted = _quoted(aftermath.meld.tiles)
    if aftermath.released:
        count = len(aftermath.released)
        subject = ["The J of " if count == 1 else "The jokers of ", *quoted]
        verb = " is" if count == 1 else " are"
        freers = [r for r in aftermath.released if r.by is not None and r.source is not None]
        if not freers:
            sentences.append((*subject, verb, " moved without a replacement."))
        else:
            by: list[Word] = []
            for release in freers:
                assert release.by is not None and release.source is not None
                if by:
                    by.append(" and ")
                by += [release.by, " ", *_source_words(explanation, release.source)]
            sentences.append((*subject, verb, " freed by ", *by, "."))
    if aftermath.into is None:
        parts: list[Word] = []
        for transfer in aftermath.gave:
            if parts:
                parts.append(", ")
            parts += [*_listed(transfer.tiles), " to "]
            parts += _quoted(explanation.new[transfer.to].tiles)
        sentences.append((*quoted, " is broken up: ", *parts, "."))
    return tuple(sentences)


def _source_words(explanation: Explanation, source: Source) -> list[Word]:
    if isinstance(source, int):
        return ["from ", *_quoted(explanation.old[source].tiles)]
    return ["from your rack"]


def _listed(tiles: Iterable[Tile]) -> list[Word]:
    """Tiles separated by spaces, as words."""
    words: list[Word] = []
    for tile in tiles:
        if words:
            words.append(" ")
        words.append(tile)
    return words


def _quoted(tiles: Iterable[Tile]) -> list[Word]:
    return ['"', *_listed(tiles), '"']


# -- the steps ------------------------------------------------------------------------------


class _Story:
    """The words of each step, knowing the states before and after every step."""

    def __init__(
        self,
        plan: Plan,
        aftermaths: tuple[Aftermath, ...],
        ordered: list[Flow],
        targets: list[tuple[Target, int]],
        states: list[list[Counter[Tile]]],
        numbers: dict[int, int],
    ) -> None:
        self.old = plan.old
        self.rules = plan.rules
        self.aftermaths = aftermaths
        self.ordered = ordered
        self.targets = targets
        self.states = states  # states[k]: before step k (0-based); states[-1]: the end
        self.final = {number: plan.new[j] for j, number in numbers.items()}
        self.loose = self._loose_jokers()

    def _sorted(self, tiles: Counter[Tile]) -> tuple[Tile, ...]:
        return sorted_tiles(tiles.elements(), self.rules.colors)

    def tiles(self, k: int) -> tuple[Tile, ...]:
        return self._sorted(self.ordered[k].tiles)

    def state(self, number: int, k: int) -> Counter[Tile]:
        """Meld ``number`` after ``k`` steps (0: the old table); empty if not yet begun."""
        melds = self.states[k]
        return melds[number] if number < len(melds) else Counter()

    # -- the pieces of a sentence ---------------------------------------------------------

    def _shown(self, number: int, k: int) -> list[Word]:
        """Meld ``number`` after ``k`` steps, quoted, laid out as a player would lay it."""
        tiles, core = self.state(number, k), self._core(number, k)
        shown = _quoted(self._layout(number, core))
        if tiles == core:
            return shown
        return [*shown, " + ", *_listed(list((tiles - core).elements()))]

    def _layout(self, number: int, tiles: Counter[Tile]) -> tuple[Tile, ...]:
        final = self.final.get(number)
        if final is not None and Counter(final.tiles) == tiles:
            return final.tiles
        if number < len(self.old) and Counter(self.old[number].tiles) == tiles:
            return self.old[number].tiles
        meld = arranged(canonical(tiles), self.rules)
        return meld.tiles if meld else self._sorted(tiles)

    def _until(self, number: int, k: int) -> list[Word]:
        """For a meld left invalid after step ``k`` (0-based): until which step."""
        tiles = self._core(number, k + 1)
        if not +tiles or valid(tiles, self.rules):
            return []
        for later in range(k + 2, len(self.states)):
            after = self._core(number, later)
            if not +after:
                return [f", used up in step {later}"]
            if valid(after, self.rules):
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
        if number < len(self.old):
            return tuple(self._into_old(k, number))
        final = self.final[number]
        done = self.state(number, k + 1) == Counter(final.tiles)
        rack = flow.source == RACK
        tiles = self.tiles(k)
        if target == NEW and done:
            if rack:
                return ("Lay ", *_quoted(final.tiles), " from your rack.")
            return ("Take ", *_quoted(final.tiles), " ", *self._from(k), " as a new meld.")
        if target == NEW:
            verb = "Lay " if rack else "Take "
            return (verb, *_listed(tiles), " ", *self._from(k), " to start a new meld.")
        if done and rack:
            there = self._sorted(self.state(number, k))
            return (
                "Lay ",
                *_quoted(final.tiles),
                " from your rack (",
                *_listed(tiles),
                ") and the ",
                *_listed(there),
                ".",
            )
        if done:
            return ("Take ", *_listed(tiles), " ", *self._from(k), " to complete ",
                    *_quoted(final.tiles), ".")  # fmt: skip
        verb = "Add " if rack else "Take "
        return (verb, *_listed(tiles), " ", *self._from(k), " for the new meld (so far ",
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
            head: list[Word] = ["Put ", *_listed(substitutes), " ", *self._from(k)]
            head += [f" in place of {jokers} in ", *before]
            if rest:
                head += [", and add ", *_listed(self._sorted(Counter(rest)))]
            return head + now
        verb = "Add " if self.ordered[k].source == RACK else "Move "
        return [verb, *_listed(tiles), " ", *self._from(k), " to ", *before, *now]

    def _substitutes(self, k: int, number: int) -> list[Tile]:
        """Tiles of step ``k`` that take the place of jokers still lying in old meld ``number``."""
        flow = self.ordered[k]
        jokers_there = self.state(number, k)[JOKER]
        found: list[Tile] = []
        for release in self.aftermaths[number].released:
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
            if number < len(self.old):
                freed = min(len(self._substitutes(k, number)), out[number] - loose.get(number, 0))
                if freed > 0:
                    loose[number] = loose.get(number, 0) + freed
            if isinstance(flow.source, int) and flow.tiles[JOKER]:
                out[flow.source] -= flow.tiles[JOKER]
                loose[flow.source] = max(0, loose.get(flow.source, 0) - flow.tiles[JOKER])
            found.append(dict(loose))
        return found
