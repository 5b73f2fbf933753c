"""What a plan means for each meld: where the tiles of every new meld came from
(:class:`Change`), and what became of every old meld (:class:`Aftermath`), its released
jokers included."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from rummikub.tiles.explain.planner import Flow, Plan
from rummikub.tiles.explain.results import (
    RACK,
    Aftermath,
    AftermathKind,
    Change,
    ChangeKind,
    Origin,
    Release,
    Source,
    Transfer,
)
from rummikub.tiles.melds import Meld
from rummikub.tiles.tiles import JOKER, Tile, sorted_tiles


def changes(plan: Plan, numbers: Mapping[int, int]) -> tuple[Change, ...]:
    """One change per new meld; ``numbers`` gives each its number in the steps."""
    owner = plan.owner
    found: list[Change] = []
    for j, meld in enumerate(plan.new):
        i = owner.get(j)
        origins: list[Origin] = []
        if i is not None:
            origins.append(Origin(i, _sorted(plan, plan.kept[i])))
        origins += [Origin(f.source, _sorted(plan, f.tiles)) for f in plan.incoming(j)]
        found.append(Change(meld, numbers[j], i, tuple(origins), _change_kind(plan, j, i)))
    return tuple(found)


def _change_kind(plan: Plan, j: int, i: int | None) -> ChangeKind:
    if i is None:
        return "new"
    if plan.kept[i] != Counter(plan.old[i].tiles):
        return "rearranged"
    if plan.incoming(j):
        return "extended"
    return "unchanged" if plan.old[i].same_as(plan.new[j]) else "rearranged"


def aftermaths(plan: Plan) -> tuple[Aftermath, ...]:
    """One aftermath per old meld."""
    # Each played tile substitutes at most one joker, over all melds.
    spare = plan.played.copy()
    found: list[Aftermath] = []
    for i, meld in enumerate(plan.old):
        j = plan.pairs.get(i)
        added = plan.incoming(j) if j is not None else []
        gave = [f for f in plan.flows if f.source == i]
        released = _releases(plan, i, added, spare)
        found.append(
            Aftermath(
                number=i,
                meld=meld,
                into=j,
                added=tuple(Origin(f.source, _sorted(plan, f.tiles)) for f in added),
                gave=tuple(Transfer(f.to, _sorted(plan, f.tiles)) for f in gave),
                released=released,
                kind=_aftermath_kind(j, added, gave, released),
            )
        )
    return tuple(found)


def _aftermath_kind(
    j: int | None, added: list[Flow], gave: list[Flow], released: tuple[Release, ...]
) -> AftermathKind:
    if released:
        return "joker_released"
    if j is None:
        return "broken_up"
    if gave:
        return "rearranged"
    return "extended" if added else "unchanged"


def _releases(plan: Plan, i: int, added: list[Flow], spare: Counter[Tile]) -> tuple[Release, ...]:
    """The jokers of old meld ``i`` that no longer stand where they stood, and by what."""
    meld = plan.old[i]
    if not meld.jokers:
        return ()
    releases: list[Release] = []
    for meaning in _released_meanings(plan, i):
        by, source = _substitute(plan, meld, meaning, added, spare)
        releases.append(Release(meaning, by, source))
    return tuple(releases)


def _released_meanings(plan: Plan, i: int) -> list[Tile | None]:
    """What each released joker of old meld ``i`` stood for (None in a group).

    As in RULES.md rule 4, a joker stays locked only while its meld stays intact where
    it lies: every numbered tile kept in place, in a meld of the same color (run) or
    number (group), the joker standing for the same tile. Any other joker is released.
    """
    meld = plan.old[i]
    j = plan.pairs.get(i)
    after = plan.new[j] if j is not None else None
    kept = plan.kept.get(i, Counter())
    intact = after is not None and not Counter(meld.numbered) - kept
    if meld.kind == "run":
        meanings = Counter(meld.joker_tiles())
        still: Counter[Tile] = Counter()
        if intact and after and after.kind == "run" and after.color == meld.color:
            still = meanings & Counter(after.joker_tiles())
        while sum(still.values()) > kept[JOKER]:  # only jokers still lying there count
            still[next(iter(+still))] -= 1
        released: list[Tile | None] = [*_sorted(plan, meanings - still)]
        return released
    same = intact and after and after.kind == "group" and after.number == meld.number
    staying = min(meld.jokers, after.jokers, kept[JOKER]) if same and after else 0
    return [None] * (meld.jokers - staying)


def _substitute(
    plan: Plan, meld: Meld, meaning: Tile | None, added: list[Flow], spare: Counter[Tile]
) -> tuple[Tile | None, Source | None]:
    """A played or moved tile that stands where the joker stood: one added to the meld
    in place first, else any played tile."""

    def fits(tile: Tile) -> bool:
        if meaning is not None:
            return tile == meaning
        missing = meld.missing_colors(plan.rules)
        return not tile.is_joker and tile.number == meld.number and tile.color in missing

    for flow in added:
        for tile in sorted_tiles(flow.tiles, plan.rules.colors):
            if fits(tile) and (flow.source != RACK or spare[tile] > 0):
                if flow.source == RACK:
                    spare[tile] -= 1
                return tile, flow.source
    for tile in sorted_tiles(+spare, plan.rules.colors):
        if fits(tile):
            spare[tile] -= 1
            return tile, RACK
    return None, None


def _sorted(plan: Plan, tiles: Counter[Tile]) -> tuple[Tile, ...]:
    return sorted_tiles(tiles.elements(), plan.rules.colors)
