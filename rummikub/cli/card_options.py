"""The card options of the command line (CARDS.md), in a module of their own so that
solving tile puzzles never imports the card rummies: ``solve`` carries them in every task,
and :mod:`rummikub.cli.cards` reads them only when a card puzzle comes."""

from __future__ import annotations

from typing import NamedTuple


class CardOptions(NamedTuple):
    """``--game``, ``--hand``/``--table``, ``--deal``, ``--opened``, ``--all-picks``,
    ``--rule KEY=VALUE`` and ``--rules`` as a card solve reads them."""

    game: str | None = None
    hand: str | None = None
    table: tuple[str, ...] = ()
    deal: int | None = None
    opened: bool = False
    all_picks: bool = False
    #: ``--rule KEY=VALUE``: card rule options over the puzzle's [rules].
    rule_options: tuple[tuple[str, str], ...] = ()
    #: ``--rules PRESET``, a tile rule set: refused for a card puzzle (``--game`` is its like).
    tile_preset: str | None = None

    @property
    def inline(self) -> bool:
        """A position given on the command line (``--hand``), not in a file."""
        return self.hand is not None
