"""Free groups counted by number (a compact alternative to one column per candidate group).

A box of many colors has very many candidate groups: 26 numbers x 8 colors x 4 jokers make
~12,000, and a model with a column for each builds and branches slowly. Groups of one number
differ only in which colors they hold, so this part counts them instead. For number ``n``:

- ``count[n]``: groups of number ``n`` laid;
- ``tiles[c, n]``: tiles of color ``c`` and number ``n`` laid in those groups;
- ``jokers[n]``: jokers laid in those groups;

with the rows, ``X = sum_c tiles[c, n]``, ``C`` the colors of the box:

1. ``tiles[c, n] <= count[n]`` for every color: a group holds each color at most once;
2. ``count[n] <= X``: every group holds a numbered tile (RULES.md, "Melds");
3. ``3 count[n] <= X + jokers[n] <= C count[n]``: groups of 3 to ``C`` tiles.

**Exact.** Integers satisfy these rows exactly when the tiles split into that many valid
groups. Only if: a split into groups obeys each row (1: a color is met at most once per
group; 2: each group has a numbered tile; 3: sizes 3..C). If: lay the numbered tiles out
color after color (colors in the box's order) and deal them round robin, tile ``k`` to group
``k mod count``. The tiles of one color are at most ``count`` consecutive ones (row 1), so
they land in different groups; the groups get ``floor(X/count)`` or ``ceil(X/count)``
numbered tiles each, at least one (row 2) and at most ``C`` (row 3). Then the jokers: if
``X >= 3 count`` every group already has 3 tiles; otherwise every group has at most 3, and
the ``3 count - X <= jokers`` (row 3) jokers needed to bring each to 3 are there. The jokers
left go, one at a time, to the smallest group (lowest first on ties), which has fewer than
``C`` tiles while ``X + jokers <= C count`` (row 3). A joker stands for a color its group
lacks, and a group of at most ``C`` tiles lacks one for each of its jokers. :func:`_deal`
is that proof as code, and it is how an answer is read back.

**As tight.** The linear relaxation is the one of the candidate columns (the configuration
model), projected on the tiles: a fractional mix of groups obeys the rows with ``count`` the
sum of its weights, and conversely rational values obeying the rows, scaled by a common
denominator ``M``, are integers obeying them, so ``M`` times the tiles is a sum of valid
groups by the argument above, and the tiles themselves a mix of groups. So the search's
bounds are the same and the model has ``numbers x (colors + 2)`` columns instead of
thousands (``tests/test_group_counts.py`` checks both against the exhaustive search).
"""

from __future__ import annotations

from collections.abc import Callable

from rummikub.core import deadline
from rummikub.core.lp.builder import INF, Builder
from rummikub.core.lp.exact import CP_SAT
from rummikub.tiles.melds import Meld
from rummikub.tiles.rules import Rules
from rummikub.tiles.solver.candidates import Counts, TileIndex
from rummikub.tiles.tiles import JOKER, Tile

#: The branch and bound's node budget for a model with counted groups before cuts (and then
#: the exact back end) take over. Its LP relaxation leaves a gap on the third level of the
#: objective (old melds left as they were) that CBC closes at its root with cuts; branching
#: on pseudocosts, the tiles played and the melds kept first (:mod:`rummikub.core.lp.search`),
#: the search settles most such models within this budget, sooner than CBC
#: (benchmarks/RESULTS.md, "Solver choices: budgets and reserves").
COUNTED_NODE_LIMIT = 50
#: What the search leaves open there gets zero-half cuts at the root
#: (:mod:`rummikub.core.lp.zero_half`) and a second search of this many nodes before the
#: exact back end, which settles most of what the first left open (the same section; 150
#: rather than 100 for the largest boxes' long searches: "Solver choices: issue 28 (Speed
#: III, the search)", the second search's budget).
COUNTED_CUT_NODE_LIMIT = 150
#: The exact back end of such a model, for what the two searches leave open: CP-SAT, with
#: its full linear relaxation (:data:`rummikub.core.lp.exact.CP_SAT_PARAMETERS`), proves
#: the largest boxes' third level in a third of CBC's time and gives the same status, value
#: and tiles everywhere (benchmarks/RESULTS.md, "Solver choices: the exact back end of the
#: 8-color boxes"). A model with a continuous variable still goes to CBC.
COUNTED_EXACT_BACKEND = CP_SAT
#: Seconds per column kept back for CBC's root on such a model (where it is the back end:
#: a model with a continuous variable, or CBC asked for), which its time limit does not cut
#: (presolve, cut passes, heuristics: several times a standard model's per column, the same
#: section); CP-SAT's is far shorter (``model.CP_SAT_RESERVE_PER_COLUMN``). With less time
#: left the search goes on instead, and under a time limit below four times the reserve it
#: keeps the budget of any model.
COUNTED_MIP_RESERVE_PER_COLUMN = 200e-6

#: Boxes of more colors than this count their groups (the standard box's 4 colors keep one
#: column per candidate group: few enough, and shared with the initial meld's candidates).
MOST_COLORS_AS_COLUMNS = 4


def counts_groups(rules: Rules) -> bool:
    """Whether the models of ``rules`` count their free groups (see the module docstring)."""
    return len(rules.colors) > MOST_COLORS_AS_COLUMNS


class NumberGroups:
    """The group variables of one number, as indices. A plain class, not a dataclass
    (benchmarks/RESULTS.md, "Solver choices: start-up")."""

    __slots__ = ("count", "jokers", "number", "tiles")

    def __init__(
        self, number: int, count: int, tiles: dict[str, int], jokers: int | None = None
    ) -> None:
        self.number = number
        self.count = count
        #: ``tiles[color]``: tiles of that color in the groups (colors with none in play
        #: are dropped once bounded).
        self.tiles = tiles
        self.jokers = jokers

    def variables(self) -> list[int]:
        found = [self.count, *self.tiles.values()]
        return found if self.jokers is None else [*found, self.jokers]


class GroupCounts:
    """The free groups of a position, counted by number.

    :meth:`build` lays them into a model once per rule set (a template); :meth:`limit`
    fits them to one position by bounds.
    """

    def __init__(self, rules: Rules, numbers: list[NumberGroups]) -> None:
        self.rules = rules
        self.numbers = numbers

    @classmethod
    def build(
        cls, model: Builder, rules: Rules, index: TileIndex, balance: Callable[[int], int]
    ) -> GroupCounts:
        """Every group variable and row of ``rules`` (``balance(t)``: the row of tile type
        ``t``); every variable is fixed at 0 until :meth:`limit` bounds it to a position's
        tiles."""
        colors = rules.colors
        numbers: list[NumberGroups] = []
        for n in range(1, rules.numbers + 1):
            deadline.check()  # the time limit covers building (see .deadline)
            count = model.integer(0, f"groups_{n}")
            tiles = {c: model.integer(0, f"grouped_{c}{n}") for c in colors}
            for color, var in tiles.items():
                model.row(-INF, 0.0, [(var, 1.0), (count, -1.0)])  # row 1
                model.term(balance(index[Tile(color, n)]), var, 1.0)
            numbered = [(var, -1.0) for var in tiles.values()]
            model.row(-INF, 0.0, [(count, 1.0), *numbered])  # row 2
            jokers = None
            laid = numbered
            if rules.jokers:
                jokers = model.integer(0, f"group_jokers_{n}")
                model.term(balance(index.joker), jokers, 1.0)
                laid = [*numbered, (jokers, -1.0)]
            model.row(-INF, 0.0, [(count, 3.0), *laid])  # row 3, at least 3 tiles
            model.row(-INF, 0.0, [(count, -float(len(colors))), *((v, -c) for v, c in laid)])
            numbers.append(NumberGroups(n, count, tiles, jokers))
        return cls(rules, numbers)

    def limit(
        self, available: Counts, index: TileIndex, bound: Callable[[int, float, float], None]
    ) -> tuple[GroupCounts, list[int]]:
        """Bound the groups to the tiles in play (``bound(i, lower, upper)`` sets variable
        ``i``'s bounds in the position's model): the groups left free to move (the others,
        fixed at 0, need no reading back) and the indices of their variables."""
        jokers = available[index.joker]
        active: list[int] = []
        kept: list[NumberGroups] = []
        for groups in self.numbers:
            n = groups.number
            real = {c: available[index[Tile(c, n)]] for c in groups.tiles}
            numbered = sum(1 for r in real.values() if r)
            # Each group holds a numbered tile and 3 tiles at least (rows 2 and 3).
            most = min(sum(real.values()), (sum(real.values()) + jokers) // 3)
            if numbered + jokers < 3 or most == 0:
                continue  # no group: its variables stay fixed at 0 (as built)
            bound(groups.count, 0.0, float(most))
            active.append(groups.count)
            tiles: dict[str, int] = {}
            for color, var in groups.tiles.items():
                upper = min(real[color], most)
                if upper:
                    bound(var, 0.0, float(upper))
                    active.append(var)
                    tiles[color] = var
            free_jokers = None
            if groups.jokers is not None and jokers:
                spare = (len(self.rules.colors) - 1) * most  # a group holds a numbered tile
                bound(groups.jokers, 0.0, float(min(jokers, spare)))
                active.append(groups.jokers)
                free_jokers = groups.jokers
            kept.append(NumberGroups(n, groups.count, tiles, free_jokers))
        return GroupCounts(self.rules, kept), active

    def groups(self, count: Callable[[int], int]) -> list[Meld]:
        """Deal the chosen counts back into groups (see the module docstring)."""
        found: list[Meld] = []
        for groups in self.numbers:
            laid = count(groups.count)
            if not laid:
                continue
            tiles = [
                Tile(color, groups.number)
                for color in self.rules.colors
                if color in groups.tiles
                for _ in range(count(groups.tiles[color]))
            ]
            jokers = 0 if groups.jokers is None else count(groups.jokers)
            found += _deal(tiles, jokers, laid, len(self.rules.colors))
        return found


def _deal(tiles: list[Tile], jokers: int, count: int, colors: int) -> list[Meld]:
    """``tiles`` (of one number, color after color) and ``jokers`` dealt into ``count``
    valid groups (the module docstring proves that rows 1-3 make this possible)."""
    dealt: list[list[Tile]] = [[] for _ in range(count)]
    for k, tile in enumerate(tiles):
        dealt[k % count].append(tile)
    for _ in range(jokers):
        # The smallest group first (the lowest on ties): groups under 3 tiles come first.
        smallest = min(range(count), key=lambda g: len(dealt[g]))
        dealt[smallest].append(JOKER)
    for group in dealt:
        colors_held = [t.color for t in group if not t.is_joker]
        if not (
            3 <= len(group) <= colors and colors_held and len(set(colors_held)) == len(colors_held)
        ):
            raise AssertionError(f"group counts that deal into no valid groups: {group}")
    return [Meld("group", tuple(group)) for group in dealt]
