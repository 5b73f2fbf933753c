"""``rummikub analyse --equity``: the options, the progress bar's wiring and the text.

The analysis itself is :mod:`rummikub.tiles.game.position_equity`; this module reads the options
(every one checked here, so that bad input is one line and exit 2), and words the answer for
a terminal. The JSON is :meth:`~rummikub.tiles.game.position_equity.PositionEquity.to_data`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import click

from rummikub.cli import explaining

if TYPE_CHECKING:  # the game package loads only when a position's equity is asked for
    from rummikub.tiles.game.equity import Candidate, Progress
    from rummikub.tiles.game.position_equity import PositionEquity
    from rummikub.tiles.position import Position

F = TypeVar("F", bound=Callable[..., Any])

#: The defaults, as ``rummikub.tiles.game.position_equity`` has them (a test keeps them equal;
#: the command line does not import the game package to show its help).
PLAYOUTS, ROUNDS, NODES, TOP = 48, 3, 2000, 3

#: The options of a position's equity (a record's review takes none of them).
POSITION_OPTIONS = (
    "playouts",
    "rounds",
    "players",
    "rack_sizes",
    "others_not_opened",
    "seed",
    "no_exact",
    "nodes",
)
_NAMES = ("with_equity", *POSITION_OPTIONS)


@dataclass(frozen=True, slots=True)
class Choices:
    """What the equity options asked for."""

    playouts: int
    rounds: int
    players: int
    rack_sizes: tuple[int, ...] | None
    others_opened: bool
    seed: int | None
    exact: bool
    nodes: int


def _rack_sizes(
    ctx: click.Context, param: click.Parameter, value: str | None
) -> tuple[int, ...] | None:
    if value is None:
        return None
    sizes = []
    for part in value.split(","):
        text = part.strip()
        if not text.isdigit() or int(text) < 1:
            raise click.BadParameter(
                f"{part.strip()!r} in {value!r} is not a whole number of tiles >= 1 "
                "(e.g. --rack-sizes 14,14)"
            )
        sizes.append(int(text))
    return tuple(sizes)


def equity_options(command: F) -> F:
    """Add the ``--equity`` options to ``command``, handed to it as one ``equity`` argument:
    a :class:`Choices`, or None without ``--equity`` (the other options then refused)."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        given = {name: kwargs.pop(name) for name in _NAMES}
        ctx = click.get_current_context()
        if not given["with_equity"]:
            for name in _NAMES[1:]:
                source = ctx.get_parameter_source(name)
                if source is not None and source.name == "COMMANDLINE":
                    option = "--" + name.replace("_", "-")
                    raise click.UsageError(f"{option} is an option of --equity: add --equity")
            kwargs["equity"] = None
        else:
            sizes = given["rack_sizes"]
            players = given["players"]
            if sizes is not None and len(sizes) != players - 1:
                raise click.BadParameter(
                    f"{len(sizes)} rack size(s) given, but {players} players have "
                    f"{players - 1} other rack(s)",
                    param_hint="'--rack-sizes'",
                )
            kwargs["equity"] = Choices(
                playouts=given["playouts"],
                rounds=given["rounds"],
                players=players,
                rack_sizes=sizes,
                others_opened=not given["others_not_opened"],
                seed=given["seed"],
                exact=not given["no_exact"],
                nodes=given["nodes"],
            )
        return command(*args, **kwargs)

    options = [
        click.option(
            "--equity",
            "with_equity",
            is_flag=True,
            help="A position: every candidate move with its chance to win the hand, by "
            "seeded playouts (the exact endgame where it decides). A game record: every turn "
            "judged by the win probability it lost, and each draw's luck (docs/players.md, "
            "'The game review').",
        ),
        click.option(
            "--playouts",
            type=click.IntRange(min=1),
            default=PLAYOUTS,
            show_default=True,
            metavar="N",
            help="With --equity: playouts per candidate (each on its own sampled deal; a card "
            "position's default: 24).",
        ),
        click.option(
            "--rounds",
            type=click.IntRange(min=0),
            default=ROUNDS,
            show_default=True,
            metavar="N",
            help="With --equity: rounds each playout plays before the model scores the hand (a "
            "card position's default: 2).",
        ),
        click.option(
            "--players",
            type=click.IntRange(2, 4),
            default=2,
            show_default=True,
            metavar="N",
            help="With --equity: the players at the table (the position's player moves first).",
        ),
        click.option(
            "--rack-sizes",
            callback=_rack_sizes,
            metavar="N,N,...",
            help="With --equity: the other racks' (or card hands') sizes, in seat order "
            "[default: each as large as the position's rack; a card hand as dealt].",
        ),
        click.option(
            "--others-not-opened",
            is_flag=True,
            help="With --equity: the other players have not made the initial meld [cards: "
            "default as the position's player].",
        ),
        click.option(
            "--seed",
            type=int,
            metavar="S",
            help="With --equity: the playouts' seed [default: one drawn from the position].",
        ),
        click.option(
            "--no-exact",
            is_flag=True,
            help="With --equity: estimate by playouts even where the exact endgame decides.",
        ),
        click.option(
            "--nodes",
            type=click.IntRange(min=1),
            default=NODES,
            show_default=True,
            metavar="N",
            help="With --equity: nodes of each exact endgame search.",
        ),
    ]
    decorated: Any = wrapper
    for option in reversed(options):
        decorated = option(decorated)
    return decorated  # type: ignore[no-any-return]


def run(
    position: Position,
    choices: Choices,
    top: int,
    progress: Progress | None,
    time_limit: float | None = None,
) -> PositionEquity:
    """The equity analysis of ``position``, its playouts within ``time_limit`` (``analyse
    --time-limit``: then it may be stopped early); a :class:`RummikubError` or
    :class:`ValueError` (racks that do not fit), or a ``Stopped`` (not one deal done), for
    the caller to report."""
    from rummikub.tiles.game.position_equity import equity

    return equity(
        position,
        players=choices.players,
        rack_sizes=choices.rack_sizes,
        others_opened=choices.others_opened,
        playouts=choices.playouts,
        rounds=choices.rounds,
        top=top,
        seed=choices.seed,
        exact=choices.exact,
        nodes=choices.nodes,
        progress=progress,
        time_limit=time_limit,
    )


# -- the human output ---------------------------------------------------------------------


def equity_text(found: PositionEquity, *, color: bool, seed_given: bool) -> str:
    """The ``--equity`` part of ``analyse``'s text."""
    from rummikub.play.equity import stopped_words

    view, budget = found.view, found.budget
    others = ", ".join(str(n) for n in view.opponents())
    rounds = f"{budget.rounds} round" + ("" if budget.rounds == 1 else "s")
    seed = f", seed {found.seed}" if seed_given else ""
    lines = [
        f"Equity ({view.players} players, other racks {others}, pool {view.pool_count}; "
        f"{budget.samples} playouts of {rounds} each{seed}):"
    ]
    if found.stopped:
        lines.append("  " + stopped_words(found.playouts, budget.samples, found.stopped_by))
    else:
        lines.append(f"  Evaluation: {_evaluation(found)}")
    rows = [_row(c, found, color) for c in found.candidates]
    width = max(len(r[1]) for r in rows)
    lines.append(f"       win  {'95%':>{width}}  mean ±    score  value  tiles  move")
    for rank, (win, interval, rest) in enumerate(rows, 1):
        lines.append(f"  {rank:>2}. {win:>4}  {interval:>{width}}  {rest}")
    advice = found.advice()
    if found.stopped:
        pass  # no advice from an unfinished comparison (said above)
    elif advice:
        lines.append(f"  {advice}")
    elif not found.most_points.played:
        lines.append("  Nothing can be laid: " + ("pass." if view.pool_count == 0 else "draw."))
    else:
        lines.append("  Laying the most is best here too.")
    return "\n".join(lines)


def _evaluation(found: PositionEquity) -> str:
    if found.exact:
        words = {1.0: "a win by force", 0.5: "a draw at best", 0.0: "a loss whatever is played"}
        return f"{words.get(found.win, f'{found.win:.0%}')} (the exact endgame)."
    low, high = found.ci
    return f"{found.win:.0%} to win (95% interval {low:.0%}-{high:.0%})."


def _row(c: Candidate, found: PositionEquity, color: bool) -> tuple[str, str, str]:
    interval = "exact" if c.exact else f"{c.ci[0]:.0%}-{c.ci[1]:.0%}"
    half = (c.mean_ci[1] - c.mean_ci[0]) / 2
    spread = "-" if c.exact else f"{half:.0%}"
    if c.played:
        move = " ".join(explaining.tile_text(t, color) for t in c.played)
    else:
        move = "pass" if found.view.pool_count == 0 else "draw"
    label = f" ({c.label})" if c.played else ""
    rest = f"{spread:>6}  {c.score:>+7.1f}  {c.value:>5}  {c.tiles:>5}  {move}{label}"
    return (f"{c.win:.0%}", interval, rest)
