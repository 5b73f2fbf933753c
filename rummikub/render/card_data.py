"""Card answers as JSON data, in the schema of README's "Card JSON": what ``solve --json`` and
``check --json`` print for a card puzzle and what the web API returns (one definition for
both)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rummikub.cards.cards import Card
from rummikub.cards.checker import CardVerdict
from rummikub.cards.melds import meld_cards as meld_cards
from rummikub.cards.position import Draw

if TYPE_CHECKING:
    from rummikub.cards.solver import CardTurn

__all__ = ["meld_cards", "steps_data", "swaps_data", "turn_data", "verdict_data"]


def _draw_data(draw: Draw, drawn: bool) -> Draw | None:
    return None if drawn else draw


def swaps_data(swaps: Sequence[tuple[int, Card, Card]]) -> list[dict[str, Any]]:
    """Wild swaps as JSON: the table meld, the natural card laid there, the wild card taken."""
    return [{"meld": index, "card": str(card), "wild": str(wild)} for index, card, wild in swaps]


def turn_data(turn: CardTurn, drawn: bool) -> dict[str, Any]:
    data = {
        "status": turn.status,
        "points": turn.points,
        "penalty": turn.penalty,
        "draw": _draw_data(turn.draw, drawn),
        "discard": None if turn.discard is None else str(turn.discard),
        "played": [str(c) for c in turn.played],
        "hand": [str(c) for c in turn.hand],
        "table": [{"kind": m.kind, "cards": meld_cards(m)} for m in turn.table],
        "layoffs": [
            {"meld": index, "cards": [str(c) for c in cards]}
            for index, cards in sorted(turn.layoffs.items())
        ],
    }
    if turn.swaps:
        data["swaps"] = swaps_data(turn.swaps)
    return data


def steps_data(turn: CardTurn, old: int) -> list[dict[str, Any]]:
    """Where each card went: INTERFACE.md's steps, from the hand to a meld or a new meld. A
    wild swap is two steps: the natural card from the hand to the meld, then the wild card
    from the meld to the hand (``"to": "hand"``), from where later steps lay it again."""
    steps: list[dict[str, Any]] = []
    swapped = Counter[tuple[int, Card]]()
    for index, card, wild in turn.swaps:
        steps.append({"cards": [str(card)], "from": "hand", "to": index})
        steps.append({"cards": [str(wild)], "from": index, "to": "hand"})
        swapped[index, card] += 1
    for index, cards in sorted(turn.layoffs.items()):
        rest = []
        for card in cards:
            if swapped[index, card]:
                swapped[index, card] -= 1
            else:
                rest.append(card)
        if rest:
            steps.append({"cards": [str(c) for c in rest], "from": "hand", "to": index})
    for meld in turn.table[old:]:
        steps.append({"cards": meld_cards(meld), "from": "hand", "to": "new"})
    return steps


def verdict_data(verdict: CardVerdict) -> dict[str, Any]:
    """The verdict as JSON, in the tile verdict's order: legal, errors, the figures, then
    ``violations`` (``card`` where the tile verdict has ``tile``)."""
    return {
        "legal": verdict.legal,
        "errors": list(verdict.errors),
        "points": verdict.points,
        "penalty": verdict.penalty,
        "played": [str(c) for c in verdict.played],
        "layoffs": [
            {"meld": index, "cards": [str(c) for c in cards]}
            for index, cards in sorted(verdict.layoffs.items())
        ],
        **({"swaps": swaps_data(verdict.swaps)} if verdict.swaps else {}),
        "violations": [
            {"rule": v.rule, "meld": v.meld, "card": v.card, "text": v.text}
            for v in verdict.violations
        ],
    }
