"""The one way both solvers build a linear program: variables and rows by index.

A model's parts (the tile model's base, flow and counted groups; the card model's runs,
sets, lay-offs, hand and opening) add their variables and rows through :class:`Builder`
and keep the indices it returns: a variable or a row *is* its index, so the parts read
their answer back from a list of values by those same indices. Two builders implement it:

- :class:`.rows.Rows`, the live model: each call goes straight into a CLP model, which is
  then solved (the tile model's own parts, and a base built for one position alone);
- :class:`.records.Records`: the model kept as data, and written as the records of an
  ``MPModelProto`` that a CLP model loads in one call (a tile template, copied for every
  position of a rule set; the card model, whose rows CP-SAT also reads when the search
  leaves a program open).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

INF = float("inf")

#: A linear expression as (variable index, coefficient) pairs.
Terms = list[tuple[int, float]]


class Builder(Protocol):
    """What a model's parts add to a linear program; every variable is an integer one
    (the live model's :meth:`.rows.Rows.real` adds the few that are not)."""

    def integer(self, upper: float, name: str = "") -> int:
        """A new integer variable in ``0..upper``; its index."""
        ...

    def row(self, lower: float, upper: float, terms: Iterable[tuple[int, float]] = ()) -> int:
        """A new row ``lower <= sum(coef * var) <= upper``; its index. A variable met twice
        in ``terms`` adds up, and a total of 0 leaves it out."""
        ...

    def term(self, row: int, variable: int, coefficient: float) -> None:
        """Add ``coefficient * variable`` to ``row``, which does not hold ``variable`` yet
        (rows that gain a term per column, such as a tile type's balance)."""
        ...

    def maximise(self, terms: Iterable[tuple[int, float]]) -> None:
        """Add ``terms`` to the objective, which is maximised (a variable met twice adds
        up)."""
        ...

    def variables(self) -> int:
        """How many variables the model holds."""
        ...
