"""Seeded, reproducible benchmark corpora: positions from simulated play and random ones.

Every corpus draws from its own random stream, seeded with ``f"{seed}:{name}"``, so one
corpus run alone (``--corpus mid``) holds exactly the positions it holds in a full run, and
``--quick`` takes the first positions of the full corpus rather than other ones.

Random tables are built from random valid melds drawn while respecting the copy counts of the
box; racks are drawn from the rest of the box. The meld sampler is our own rather than the
solver's candidate table, so that the corpora do not shift when the solver's internals do.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from rummikub.tiles.melds import Kind, Meld
from rummikub.tiles.position import Position
from rummikub.tiles.rules import PRESETS, STANDARD, Rules
from rummikub.tiles.tiles import JOKER, Tile

#: The rule set of the ``generalised`` and ``full-box`` corpora: the largest box the rules
#: allow (836 tiles).
GENERALISED = Rules(numbers=26, colors="KRBOGYPW", copies=4, jokers=4)
#: The boxes of the ``not-opened-jokers`` corpus, in turn: the standard box, the standard
#: box with four jokers, and the largest box.
NOT_OPENED_BOXES = (STANDARD, STANDARD.replace(jokers=4), GENERALISED)

#: How long a simulated game's solver may think about one move (seconds); a move cut short
#: is still legal, so the game goes on.
GAME_TIME_LIMIT = 10.0


@dataclass(frozen=True, slots=True)
class Case:
    """One benchmark position, named for the report."""

    name: str
    position: Position


@dataclass(frozen=True, slots=True)
class Corpus:
    """A named family of positions: ``make(rng, count)`` returns ``count`` cases."""

    name: str
    description: str
    size: int
    quick_size: int
    make: Callable[[random.Random, int], list[Case]]

    def cases(self, seed: int, quick: bool = False, size: int | None = None) -> list[Case]:
        """The corpus for ``seed``; ``quick`` (or ``size``) takes only its first positions."""
        count = size if size is not None else (self.quick_size if quick else self.size)
        return self.make(stream(seed, self.name), count)


def stream(seed: int, name: str) -> random.Random:
    """The random stream of one corpus: independent of the others, stable across runs."""
    # A str seed is hashed with SHA-512 by random.seed (version 2): stable across processes,
    # unlike hash(), which is salted per process.
    return random.Random(f"{seed}:{name}")


# -- the box and random melds ------------------------------------------------------------


def box(rules: Rules) -> Counter[Tile]:
    """Every tile of the rule set, as a multiset."""
    tiles: Counter[Tile] = Counter({tile: rules.copies for tile in rules.tile_types()})
    if rules.jokers:
        tiles[JOKER] = rules.jokers
    return tiles


def shuffled(rng: random.Random, tiles: Counter[Tile], rules: Rules) -> list[Tile]:
    """The tiles in a random order (sorted first, so the order depends only on ``rng``)."""
    order = sorted(tiles.elements(), key=rules.sort_key)
    rng.shuffle(order)
    return order


# Run lengths as players lay them: mostly short, sometimes long.
_RUN_LENGTHS = (3, 4, 5, 6, 7)
_RUN_WEIGHTS = (40, 28, 18, 9, 5)


def random_meld(
    rng: random.Random, rules: Rules, available: Counter[Tile], *, jokers: int = 0
) -> Meld | None:
    """A random valid meld of tiles in ``available`` holding exactly ``jokers`` jokers.

    Returns None when the draw needs a tile that is used up; callers simply draw again.
    """
    kind: Kind = "run" if rng.random() < 0.5 else "group"
    tiles: list[Tile]
    if kind == "run":
        length = rng.choices(_RUN_LENGTHS, _RUN_WEIGHTS)[0]
        length = min(length, rules.numbers)
        color = rng.choice(rules.colors)
        start = rng.randint(1, rules.numbers - length + 1)
        tiles = [Tile(color, start + i) for i in range(length)]
    else:
        if rules.max_group < 3:
            return None
        size = rng.randint(3, min(rules.max_group, 6))
        number = rng.randint(1, rules.numbers)
        tiles = [Tile(color, number) for color in sorted(rng.sample(rules.colors, size))]
    if jokers >= len(tiles):
        return None
    # A joker takes the place of a tile (in a run: that tile's position), keeping the
    # meld's reading unambiguous when it is written with its kind.
    for place in rng.sample(range(len(tiles)), jokers):
        tiles[place] = JOKER
    if kind == "group":
        tiles.sort(key=lambda t: t.is_joker)  # jokers last, as the notation writes them
    needed = Counter(tiles)
    if any(available[tile] < count for tile, count in needed.items()):
        return None
    return Meld.of(tiles, kind=kind, rules=rules)


def random_table(
    rng: random.Random,
    rules: Rules,
    available: Counter[Tile],
    size: int,
    *,
    joker_melds: tuple[int, ...] = (),
    joker_chance: float = 0.0,
) -> list[Meld]:
    """Random melds of about ``size`` tiles, taken out of ``available``.

    ``joker_melds`` gives melds that must be laid first, each with that many jokers (the
    ``hard`` corpus puts its jokers on the table this way); after them every meld holds a
    joker with probability ``joker_chance`` while jokers remain.
    """
    table: list[Meld] = []
    laid = 0

    def lay(jokers: int) -> bool:
        nonlocal laid
        for _ in range(1000):
            meld = random_meld(rng, rules, available, jokers=jokers)
            if meld is not None:
                available.subtract(meld.tiles)
                table.append(meld)
                laid += len(meld.tiles)
                return True
        return False

    for jokers in joker_melds:
        if not lay(jokers):
            raise RuntimeError(f"cannot lay a meld with {jokers} jokers")
    misses = 0
    while laid < size and misses < 50:
        jokers = 1 if available[JOKER] and rng.random() < joker_chance else 0
        if not lay(jokers):
            misses += 1  # the box is nearly used up for the melds drawn: stop eventually
    return table


def random_rack(
    rng: random.Random,
    rules: Rules,
    available: Counter[Tile],
    size: int,
    *,
    jokers: bool = True,
) -> list[Tile]:
    """``size`` tiles drawn from ``available`` (jokers excluded unless ``jokers``)."""
    pool = available.copy()
    if not jokers:
        del pool[JOKER]
    drawn = shuffled(rng, pool, rules)[:size]
    available.subtract(drawn)
    return drawn


def random_position(
    rng: random.Random,
    rules: Rules,
    *,
    table: int,
    rack: int,
    opened: bool = True,
    joker_chance: float = 0.3,
) -> Position:
    """A random position: a table of about ``table`` tiles, a rack of ``rack`` tiles."""
    available = box(rules)
    melds = random_table(rng, rules, available, table, joker_chance=joker_chance)
    tiles = random_rack(rng, rules, available, rack)
    return _checked(Position(tuple(melds), tuple(tiles), opened, rules))


def _checked(position: Position) -> Position:
    position.validate()  # the generators respect copy counts; this proves it
    return position


def _around(rng: random.Random, target: int, spread: float = 0.2) -> int:
    """A size within ``spread`` of ``target``, so a corpus is not all one size."""
    return rng.randint(round(target * (1 - spread)), round(target * (1 + spread)))


def _named(name: str, positions: Iterator[Position]) -> list[Case]:
    return [Case(f"{name}-{i:03d}", position) for i, position in enumerate(positions)]


# -- random corpora ---------------------------------------------------------------------


def make_small(rng: random.Random, count: int) -> list[Case]:
    return _named(
        "small",
        (
            random_position(rng, STANDARD, table=_around(rng, 12), rack=_around(rng, 8))
            for _ in range(count)
        ),
    )


def make_mid(rng: random.Random, count: int) -> list[Case]:
    return _named(
        "mid",
        (
            random_position(rng, STANDARD, table=_around(rng, 30), rack=_around(rng, 14))
            for _ in range(count)
        ),
    )


def make_hard(rng: random.Random, count: int) -> list[Case]:
    """Table ~60, rack ~20, and both jokers in play: in table melds and/or in the rack."""

    def one() -> Position:
        rules = STANDARD
        available = box(rules)
        # How the two jokers are split: (), (1,), (1, 1) or (2,) go to the table, one meld
        # each entry; whatever is left goes to the rack.
        joker_melds = rng.choice([(), (1,), (1, 1), (2,)])
        melds = random_table(rng, rules, available, _around(rng, 60), joker_melds=joker_melds)
        jokers_left = available[JOKER]
        rack = random_rack(rng, rules, available, _around(rng, 20) - jokers_left, jokers=False)
        rack += [JOKER] * jokers_left
        available[JOKER] = 0
        return _checked(Position(tuple(melds), tuple(rack), True, rules))

    return _named("hard", (one() for _ in range(count)))


def make_initial(rng: random.Random, count: int) -> list[Case]:
    """The initial meld still to be made: table ~30, rack 14 (a fresh rack's size)."""
    return _named(
        "initial",
        (
            random_position(rng, STANDARD, table=_around(rng, 30), rack=14, opened=False)
            for _ in range(count)
        ),
    )


def make_presets(rng: random.Random, count: int) -> list[Case]:
    """Table ~30, rack ~14 under each preset in turn; a quarter not yet opened, where the
    presets differ most (``boxed`` lets the initial meld be the whole move)."""
    names = list(PRESETS)
    cases: list[Case] = []
    for i in range(count):
        name = names[i % len(names)]
        position = random_position(
            rng,
            PRESETS[name],
            table=_around(rng, 30),
            rack=_around(rng, 14),
            opened=rng.random() >= 0.25,
            joker_chance=0.5,
        )
        cases.append(Case(f"presets-{name}-{i:03d}", position))
    return cases


def make_generalised(rng: random.Random, count: int) -> list[Case]:
    """26 numbers x 8 colors x 4 copies, 4 jokers: tables ~100-150 tiles, racks ~25."""
    return _named(
        "generalised",
        (
            random_position(
                rng, GENERALISED, table=rng.randint(100, 150), rack=_around(rng, 25, 0.1)
            )
            for _ in range(count)
        ),
    )


def make_rack_jokers(rng: random.Random, count: int) -> list[Case]:
    """Table ~60, rack ~20 holding one or two jokers (the standard box's other joker, if
    any, may sit in a table meld)."""

    def one() -> Position:
        rules = STANDARD
        available = box(rules)
        in_rack = rng.choice((1, 2))
        available[JOKER] -= in_rack
        melds = random_table(rng, rules, available, _around(rng, 60), joker_chance=0.3)
        rack = random_rack(rng, rules, available, _around(rng, 20) - in_rack, jokers=False)
        rack += [JOKER] * in_rack
        return _checked(Position(tuple(melds), tuple(rack), True, rules))

    return _named("rack-jokers", (one() for _ in range(count)))


def make_full_box(rng: random.Random, count: int) -> list[Case]:
    """26 numbers x 8 colors x 4 copies, 4 jokers: tables of 140-160 tiles, racks 25-35."""
    return _named(
        "full-box",
        (
            random_position(rng, GENERALISED, table=rng.randint(140, 160), rack=rng.randint(25, 35))
            for _ in range(count)
        ),
    )


def make_rack_jokers_60(rng: random.Random, count: int) -> list[Case]:
    """The peer's setting with jokers in a large rack: a random table of ~60 tiles without
    jokers, a rack of ~20 holding one joker or both (both in two positions of three)."""

    def one() -> Position:
        rules = STANDARD
        available = box(rules)
        in_rack = rng.choice((1, 2, 2))
        available[JOKER] = 0
        melds = random_table(rng, rules, available, _around(rng, 60))
        rack = random_rack(rng, rules, available, _around(rng, 20, 0.1) - in_rack, jokers=False)
        rack += [JOKER] * in_rack
        return _checked(Position(tuple(melds), tuple(rack), True, rules))

    return _named("rack-jokers-60", (one() for _ in range(count)))


#: The ``largest-box`` corpus's one player not yet opened (by position number).
LARGEST_NOT_OPENED = 7
#: How many ``largest-box`` positions are drawn, whatever the size asked for.
LARGEST_DRAWN = 20


def make_largest_box(rng: random.Random, count: int) -> list[Case]:
    """The largest box (26 numbers x 8 colors x 4 copies, 4 jokers) full: tables of
    176-192 tiles, racks of 35-46; position number ``LARGEST_NOT_OPENED`` is of a player
    not yet opened. The positions come smallest rack first (then smallest table; named in
    the order drawn), so that ``--quick`` takes the lighter ones: the first
    ``LARGEST_DRAWN`` are always drawn, so that the quick corpus is the start of the full
    one."""
    cases = _named(
        "largest-box",
        (
            random_position(
                rng,
                GENERALISED,
                table=rng.randint(176, 192),
                rack=rng.randint(35, 46),
                opened=i != LARGEST_NOT_OPENED,
            )
            for i in range(max(count, LARGEST_DRAWN))
        ),
    )
    return sorted(
        cases,
        key=lambda c: (len(c.position.rack), sum(len(m.tiles) for m in c.position.table), c.name),
    )[:count]


def make_not_opened_jokers(rng: random.Random, count: int) -> list[Case]:
    """Not opened, with 1-4 jokers in racks of 30-50 (as many jokers as the box holds),
    each box of ``NOT_OPENED_BOXES`` in turn; tables of ~40 tiles without jokers.

    The joker counts cycle 1, 2, 3, 4 (capped by the box), so the quick corpus (its first
    positions) holds the lighter ones.
    """
    cases: list[Case] = []
    for i in range(count):
        rules = NOT_OPENED_BOXES[i % len(NOT_OPENED_BOXES)]
        jokers = min(1 + i % 4, rules.jokers)
        available = box(rules)
        available[JOKER] -= jokers
        melds = random_table(rng, rules, available, _around(rng, 40))
        rack = random_rack(rng, rules, available, rng.randint(30, 50) - jokers, jokers=False)
        rack += [JOKER] * jokers
        position = _checked(Position(tuple(melds), tuple(rack), False, rules))
        name = f"not-opened-jokers-{rules.numbers}x{len(rules.colors)}-{jokers}j-{i:03d}"
        cases.append(Case(name, position))
    return cases


# -- simulated play ---------------------------------------------------------------------

#: Positions from play are recorded while the table holds this many tiles.
GAME_TABLE = (30, 100)
#: Each eligible position is recorded with this probability, so that a corpus spans more
#: games (and more kinds of table) than its first few.
GAME_RECORD_CHANCE = 0.5


def _deal(
    rng: random.Random, game: int, rules: Rules
) -> tuple[int, list[Counter[Tile]], list[Tile]]:
    """The start of simulated game number ``game``: 2-4 players in turn, 14 tiles each from
    a shuffled box, and the pool left."""
    players = 2 + game % 3
    pool = shuffled(rng, box(rules), rules)
    racks = [Counter(pool[14 * p : 14 * (p + 1)]) for p in range(players)]
    return players, racks, pool[14 * players :]


def make_game(rng: random.Random, count: int) -> list[Case]:
    """Positions met in simulated games (standard rules, 2-4 players, 14 tiles each).

    Every player plays our solver's best move (value objective) or draws; players start not
    opened, so opened and not-opened positions both occur, and jokers end up locked in table
    melds the way they do in real play.
    """
    from rummikub.tiles.solver import solve

    rules = STANDARD
    cases: list[Case] = []
    game = 0
    while len(cases) < count:
        players, racks, pool = _deal(rng, game, rules)
        opened = [False] * players
        table: tuple[Meld, ...] = ()
        passes = 0
        turn = 0
        # The game ends when a rack is empty, or when the pool is empty and everyone passed.
        while passes < players and len(cases) < count:
            player = turn % players
            rack = racks[player]
            position = Position(
                table, tuple(sorted(rack.elements(), key=rules.sort_key)), opened[player], rules
            )
            table_size = sum(len(meld.tiles) for meld in table)
            if GAME_TABLE[0] <= table_size <= GAME_TABLE[1] and rng.random() < GAME_RECORD_CHANCE:
                state = "opened" if opened[player] else "not-opened"
                cases.append(Case(f"game-{game:02d}-t{turn:03d}-{state}", _checked(position)))
            result = solve(position, objective="value", time_limit=GAME_TIME_LIMIT)
            if result.played:
                table = result.table
                rack.subtract(result.played)
                opened[player] = True
                passes = 0
                if not +rack:
                    break
            elif pool:
                rack[pool.pop()] += 1
                passes = 0
            else:
                passes += 1
            turn += 1
        game += 1
    return cases


#: Positions of the ``late`` corpus: tables of this many tiles, racks of this many.
LATE_TABLE = (50, 100)
LATE_RACK = (12, 25)


def make_late(rng: random.Random, count: int) -> list[Case]:
    """Late-game positions from simulated games in which players hold tiles back.

    Standard rules, 2-4 players. Each player has a style for the whole game: how often it
    draws although it could play, and what share of its rack it offers the solver (the
    best move of that part is a legal move that lays only some of what it could). Racks
    therefore grow, and positions are recorded while the table holds 50-100 tiles and the
    rack 12-25, half of those met, so that the corpus spans many games.
    """
    from rummikub.tiles.solver import solve

    rules = STANDARD
    cases: list[Case] = []
    game = 0
    while len(cases) < count:
        players, racks, pool = _deal(rng, game, rules)
        # (chance of drawing instead of playing, share of the rack offered when playing)
        styles = [(rng.choice((0.0, 0.2, 0.4)), rng.choice((0.5, 0.7, 1.0))) for _ in racks]
        opened = [False] * players
        table: tuple[Meld, ...] = ()
        passes = 0
        turn = 0
        while passes < players and len(cases) < count and turn < 400:
            player = turn % players
            rack = racks[player]
            tiles = sorted(rack.elements(), key=rules.sort_key)
            table_size = sum(len(meld.tiles) for meld in table)
            if (
                LATE_TABLE[0] <= table_size <= LATE_TABLE[1]
                and LATE_RACK[0] <= len(tiles) <= LATE_RACK[1]
                and rng.random() < GAME_RECORD_CHANCE
            ):
                position = Position(table, tuple(tiles), opened[player], rules)
                state = "opened" if opened[player] else "not-opened"
                cases.append(Case(f"late-{game:02d}-t{turn:03d}-{state}", _checked(position)))
            draw_chance, share = styles[player]
            played = False
            if not (pool and rng.random() < draw_chance):
                offered = [t for t in tiles if rng.random() < share] if share < 1 else tiles
                if offered:
                    position = Position(table, tuple(offered), opened[player], rules)
                    result = solve(position, objective="value", time_limit=GAME_TIME_LIMIT)
                    if result.played:
                        table = result.table
                        rack.subtract(result.played)
                        opened[player] = True
                        played = True
                        passes = 0
                        if not +rack:
                            break
            if not played:
                if pool:
                    rack[pool.pop()] += 1
                    passes = 0
                else:
                    passes += 1
            turn += 1
        game += 1
    return cases


#: Positions of the ``locked-jokers`` corpus: tables of this many tiles, racks of this
#: many, and this many jokers locked in table melds (the strict lock, the standard rules'
#: default).
LOCKED_TABLE = (30, 89)
LOCKED_RACK = (10, 19)
LOCKED_JOKERS = (1, 2)


def make_locked_jokers(rng: random.Random, count: int) -> list[Case]:
    """Mid-game positions from simulated games in which jokers stay locked on the table.

    Standard rules (the strict joker lock), 2-4 players, each with a style for the whole
    game as in ``late`` (how often it draws although it could play, the share of its rack
    it offers the solver), so that racks stay at 10-19 tiles while the table grows. A
    position is recorded, with half the chance, while the table holds 30-89 tiles, the
    rack 10-19, and one or two jokers sit in table melds: the usual state of a real game's
    middle, where a joker once laid stays there for many turns.
    """
    from rummikub.tiles.solver import solve

    rules = STANDARD
    cases: list[Case] = []
    game = 0
    while len(cases) < count:
        players, racks, pool = _deal(rng, game, rules)
        styles = [(rng.choice((0.0, 0.2, 0.4)), rng.choice((0.6, 0.8, 1.0))) for _ in racks]
        opened = [False] * players
        table: tuple[Meld, ...] = ()
        passes = 0
        turn = 0
        while passes < players and len(cases) < count and turn < 400:
            player = turn % players
            rack = racks[player]
            tiles = sorted(rack.elements(), key=rules.sort_key)
            table_size = sum(len(meld.tiles) for meld in table)
            locked = sum(tile.is_joker for meld in table for tile in meld.tiles)
            if (
                LOCKED_TABLE[0] <= table_size <= LOCKED_TABLE[1]
                and LOCKED_RACK[0] <= len(tiles) <= LOCKED_RACK[1]
                and LOCKED_JOKERS[0] <= locked <= LOCKED_JOKERS[1]
                and rng.random() < GAME_RECORD_CHANCE
            ):
                position = Position(table, tuple(tiles), opened[player], rules)
                state = "opened" if opened[player] else "not-opened"
                name = f"locked-{game:02d}-t{turn:03d}-{locked}j-{state}"
                cases.append(Case(name, _checked(position)))
            draw_chance, share = styles[player]
            played = False
            if not (pool and rng.random() < draw_chance):
                offered = [t for t in tiles if rng.random() < share] if share < 1 else tiles
                if offered:
                    position = Position(table, tuple(offered), opened[player], rules)
                    result = solve(position, objective="value", time_limit=GAME_TIME_LIMIT)
                    if result.played:
                        table = result.table
                        rack.subtract(result.played)
                        opened[player] = True
                        played = True
                        passes = 0
                        if not +rack:
                            break
            if not played:
                if pool:
                    rack[pool.pop()] += 1
                    passes = 0
                else:
                    passes += 1
            turn += 1
        game += 1
    return cases


CORPORA: dict[str, Corpus] = {
    corpus.name: corpus
    for corpus in (
        Corpus("game", "simulated play, standard rules, 2-4 players", 200, 3, make_game),
        Corpus("small", "random, table ~12, rack ~8", 100, 3, make_small),
        Corpus("mid", "random, table ~30, rack ~14", 100, 3, make_mid),
        Corpus("hard", "random, table ~60, rack ~20, both jokers in play", 100, 3, make_hard),
        Corpus("initial", "random, not opened, table ~30, rack 14", 100, 3, make_initial),
        Corpus("presets", "random, table ~30, rack ~14, each preset in turn", 100, 4, make_presets),
        Corpus(
            "generalised",
            "26 numbers x 8 colors x 4 copies + 4 jokers, table 100-150, rack ~25",
            6,
            2,
            make_generalised,
        ),
        Corpus(
            "late",
            "simulated play where players hold tiles back, table 50-100, rack 12-25",
            200,
            3,
            make_late,
        ),
        Corpus(
            "rack-jokers",
            "random, table ~60, rack ~20 with one or two jokers",
            100,
            3,
            make_rack_jokers,
        ),
        Corpus(
            "full-box",
            "26 numbers x 8 colors x 4 copies + 4 jokers, table 140-160, rack 25-35",
            10,
            1,
            make_full_box,
        ),
        Corpus(
            "not-opened-jokers",
            "not opened, 1-4 jokers in racks of 30-50, standard, 4-joker and largest boxes",
            24,
            1,
            make_not_opened_jokers,
        ),
        Corpus(
            "locked-jokers",
            "simulated play, 1-2 jokers locked in table melds, table 30-89, rack 10-19",
            400,
            3,
            make_locked_jokers,
        ),
        Corpus(
            "rack-jokers-60",
            "random, table ~60 without jokers, rack ~20 holding one or two jokers",
            100,
            3,
            make_rack_jokers_60,
        ),
        Corpus(
            "largest-box",
            "26 numbers x 8 colors x 4 copies + 4 jokers, table 176-192, rack 35-46, "
            "one not opened",
            20,
            2,
            make_largest_box,
        ),
    )
}
