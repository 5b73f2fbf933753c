"""SVG pictures of card positions and turns (CARDS.md), drawn as a player sees them.

Every card is drawn as a card: a white face with its rank and suit symbol in the corner and a
big suit symbol in the middle, in the colors of the two-color deck (hearts and diamonds red)
or of the four-color deck (diamonds blue, clubs green), as the terminal shows them
(:mod:`rummikub.render.colors`); a joker is a purple star. A wild card in a meld says beneath
what it stands for (``=8S``). The discard pile is fanned, bottom to top, its top card whole
on the right.

A turn is drawn as the table, the discard pile and the hand before it, above the table, the
discard and the hand after it. Cards laid in a new meld are green, cards laid off on a table
meld amber (also a natural card that takes a wild card back), cards taken from the discard
pile blue, the card discarded grey and dashed; the hand before the turn marks each card with
where it goes. The pictures share their canvas with the tile pictures
(:mod:`rummikub.render.canvas`) and are plain SVG 1.1 text, the same for the same input byte
for byte.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from rummikub.cards.cards import RANK_NAMES, Card, format_cards, sort_key
from rummikub.cards.melds import CardMeld, RawCardMeld
from rummikub.cards.position import CardPosition, Draw
from rummikub.cards.rules import GAME_NAMES
from rummikub.cards.rules import contract_words as contract_words
from rummikub.render.canvas import (
    FONT,
    HIGHLIGHT,
    LABEL_H,
    MARGIN,
    MAX_WIDTH,
    MELD_GAP,
    ROW_GAP,
    Canvas,
    escape,
)
from rummikub.render.colors import card_hex

if TYPE_CHECKING:
    from rummikub.cards.checker import CardVerdict
    from rummikub.cards.solver import CardResult, CardTurn

__all__ = [
    "CardMark",
    "card_position_svg",
    "card_proposal_svg",
    "card_result_svg",
    "card_turn_svg",
    "card_verdict_svg",
    "contract_words",
]

#: How a card of a picture is marked: as it was; laid in a new meld; laid off on a table
#: meld; taken from the discard pile this turn; the card discarded.
CardMark = Literal["kept", "laid", "off", "taken", "discard"]

CARD_W, CARD_H, CARD_GAP = 40, 58, 3
#: How far apart the cards of the fanned discard pile are: each shows its corner.
PILE_STEP = 17
FACE, EDGE = "#ffffff", "#9a907c"
#: (face, edge, edge width, dashes) of each mark.
_LOOK: dict[CardMark, tuple[str, str, str, str]] = {
    "kept": (FACE, EDGE, "1.2", ""),
    "laid": (*HIGHLIGHT["new"], "2.5", ""),
    "off": (*HIGHLIGHT["moved"], "2.5", ""),
    "taken": ("#e3eefc", "#2a6fdb", "2.5", ""),
    "discard": ("#f1f1f1", "#666666", "2", ' stroke-dasharray="4 3"'),
}
_WORDS: dict[CardMark, str] = {
    "kept": "",
    "laid": ", laid in a new meld",
    "off": ", laid off on a table meld",
    "taken": ", taken from the discard pile",
    "discard": ", discarded",
}
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
STAR = "\u2605"


@dataclass(frozen=True, slots=True)
class _Card:
    """One card to draw: the card, its mark, and what it stands for where it is wild (a
    card of a run, a rank of a set, or None)."""

    card: Card
    mark: CardMark = "kept"
    stands: str | None = None


class _Canvas(Canvas):
    """The shared canvas, drawing cards in one deck's colors."""

    def __init__(self, four_color: bool) -> None:
        super().__init__()
        self.four_color = four_color

    def cards(self, groups: Sequence[Sequence[_Card]]) -> None:
        self.rows(groups, self._card, width=CARD_W, height=CARD_H, step=CARD_W + CARD_GAP)

    def side_by_side(self, sections: Sequence[tuple[str, Sequence[_Card], int]]) -> None:
        """Labelled rows of cards beside each other (the discard pile and the hand), each
        ``(label, cards, step)``; one under the other where they do not fit the width."""
        spans = [
            max(9 * len(label), (len(cards) - 1) * step + CARD_W if cards else 7 * 6)
            for label, cards, step in sections
        ]
        if MARGIN + sum(spans) + MELD_GAP * 2 * (len(spans) - 1) > MAX_WIDTH - MARGIN:
            for label, cards, step in sections:
                self.label(label)
                self.rows(
                    [cards] if cards else [], self._card, width=CARD_W, height=CARD_H, step=step
                )
            return
        x = MARGIN
        for (label, cards, step), span in zip(sections, spans, strict=True):
            self.parts.append(
                f'<text x="{x}" y="{self.y + 16}" font-size="15" font-weight="bold" '
                f'fill="#333" {FONT}>{escape(label)}</text>'
            )
            if not cards:
                self.parts.append(
                    f'<text x="{x}" y="{self.y + LABEL_H + 14}" font-size="13" fill="#555" '
                    f"{FONT}>(none)</text>"
                )
            for index, item in enumerate(cards):
                self.parts.append(self._card(item, x + index * step, self.y + LABEL_H))
            x += span + 2 * MELD_GAP
        self.width = max(self.width, x - 2 * MELD_GAP)
        self.y += LABEL_H + CARD_H + ROW_GAP

    def _card(self, item: _Card, x: int, y: int) -> str:
        return _card(item, x, y, self.four_color)


def _card(item: _Card, x: int, y: int, four_color: bool) -> str:
    face, edge, width, dashes = _LOOK[item.mark]
    card = item.card
    ink = card_hex(card, four_color=four_color)
    parts = [
        f'<g class="card {item.mark}" data-card="{card}">',
        f"<title>{escape(_describe(item))}</title>",
        f'<rect x="{x + 0.5}" y="{y + 0.5}" width="{CARD_W - 1}" height="{CARD_H - 1}" '
        f'rx="4" fill="{face}" stroke="{edge}" stroke-width="{width}"{dashes}/>',
    ]
    # The corner (what a fanned card shows), then the middle, raised where a wild card's
    # meaning is written beneath it.
    middle = y + (40 if item.stands else 47)
    if card.is_joker:
        parts.append(_text(x + 4, y + 15, STAR, ink, size=12, anchor="start"))
        parts.append(_text(x + CARD_W / 2, middle, STAR, ink, size=24))
    else:
        rank = RANK_NAMES[card.rank - 1]
        symbol = SUIT_SYMBOLS[card.suit]
        size = 12 if len(rank) > 1 else 14
        parts.append(_text(x + 4, y + 15, rank, ink, size=size, anchor="start", bold=True))
        parts.append(_text(x + 4, y + 27, symbol, ink, size=12, anchor="start"))
        parts.append(_text(x + CARD_W / 2 + 3, middle, symbol, ink, size=24))
    if item.stands:
        suit = item.stands[-1]
        tint = card_hex(Card(1, suit), four_color=four_color) if suit in SUIT_SYMBOLS else "#444"
        parts.append(_text(x + CARD_W / 2, y + 53, f"={item.stands}", tint, size=10, bold=True))
    parts.append("</g>")
    return "".join(parts)


def _text(
    x: float,
    y: float,
    text: str,
    ink: str,
    *,
    size: int,
    anchor: str = "middle",
    bold: bool = False,
) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{x:g}" y="{y:g}" text-anchor="{anchor}" font-size="{size}"{weight} '
        f'fill="{ink}" {FONT}>{escape(text)}</text>'
    )


def _describe(item: _Card) -> str:
    card = item.card
    name = "joker" if card.is_joker else f"{card} ({_name(card)})"
    stands = f" standing for {item.stands}" if item.stands else ""
    return f"{name}{stands}{_WORDS[item.mark]}"


def _name(card: Card) -> str:
    rank = {1: "ace", 11: "jack", 12: "queen", 13: "king"}.get(card.rank, str(card.rank))
    return f"{rank} of {SUIT_NAMES[card.suit]}"


# -- melds as cards to draw --------------------------------------------------------------


def _stands(meld: CardMeld) -> list[str | None]:
    """What each card of a meld stands for where it is wild (None where it is itself)."""
    found: list[str | None] = []
    for wild, stands in zip(meld.wild, meld.represented(), strict=True):
        if not wild or stands is None:
            found.append(None)
        else:
            found.append(RANK_NAMES[stands.rank - 1] + stands.suit)
    return found


def _meld(meld: CardMeld, marks: Sequence[CardMark] | None = None) -> list[_Card]:
    marks = marks if marks is not None else ["kept"] * len(meld.cards)
    return [
        _Card(card, mark, stands)
        for card, mark, stands in zip(meld.cards, marks, _stands(meld), strict=True)
    ]


def _raw(meld: RawCardMeld) -> list[_Card]:
    """A meld as written (maybe no meld at all): a named wild card with what it stands for."""
    return [
        _Card(slot.card, "kept", None if slot.stands is None else str(slot.stands))
        for slot in meld.slots
    ]


def _extension_marks(old: CardMeld, new: CardMeld) -> list[CardMark]:
    """Which cards of a table meld the turn laid there: a run's cards beyond the old ends
    and the natural cards that took a wild card's place; a set's cards beyond the old ones."""
    if old.kind == "run" and new.kind == "run":
        marks: list[CardMark] = []
        for index, card in enumerate(new.cards):
            place = new.start + index - old.start
            kept = 0 <= place < len(old.cards) and old.cards[place] == card
            marks.append("kept" if kept else "off")
        return marks
    left = Counter(old.cards)
    marks = []
    for card in new.cards:
        marks.append("kept" if left[card] > 0 else "off")
        left[card] -= 1
    return marks


@dataclass(frozen=True, slots=True)
class _Turn:
    """A turn as drawn: a solver's answer or a legal proposed turn."""

    table: tuple[CardMeld, ...]
    layoffs: Mapping[int, tuple[Card, ...]]
    swaps: tuple[tuple[int, Card, Card], ...]
    discard: Card | None
    played: tuple[Card, ...]
    hand: tuple[Card, ...]
    points: int
    penalty: int
    draw: Draw
    lays: bool


def _title(position: CardPosition, title: str | None) -> str:
    """The game (and deal), then the puzzle's title."""
    game = _game(position)
    return f"{game} \u2014 {title}" if title else game


def _game(position: CardPosition) -> str:
    game = position.rules.game
    name = GAME_NAMES.get(game, game)
    if position.deal is not None:
        sets, runs = position.rules.contract(position.deal)
        name += f", deal {position.deal} ({contract_words(sets, runs)})"
    return name


def _hand_label(position: CardPosition) -> str:
    if position.rules.opening == "none":
        return "Hand"
    return "Hand" if position.opened else "Hand (not opened yet)"


def _pile(position: CardPosition, draw: Draw) -> list[_Card]:
    taken = len(position.taken(draw))
    pile = position.discard
    return [
        _Card(card, "taken" if index >= len(pile) - taken else "kept")
        for index, card in enumerate(pile)
    ]


def _draw_note(position: CardPosition, draw: Draw) -> str | None:
    if position.drawn:
        return None
    if draw == "stock":
        return "Draw: from the stock."
    taken = position.taken(draw)
    if len(taken) == 1:
        return f"Draw: the top card of the discard pile, {taken[0]} (blue)."
    return (
        f"Draw: {len(taken)} cards from the discard pile (blue); {taken[0]} must be laid this turn."
    )


def _hand_marks(position: CardPosition, turn: _Turn) -> list[_Card]:
    """The hand before the turn, each card marked with where it goes."""
    old = len(position.table)
    new = Counter(c for meld in turn.table[old:] for c in meld.cards)
    off = Counter(c for cards in turn.layoffs.values() for c in cards)
    # Cards that never were in the hand: those taken from the pile, wild cards taken back.
    passing = Counter(position.taken(turn.draw)) + Counter(wild for _, _, wild in turn.swaps)
    for card in passing.elements():
        if new[card] > 0:
            new[card] -= 1
        elif off[card] > 0:
            off[card] -= 1
    discard = turn.discard
    marked: list[_Card] = []
    for card in sorted(position.hand, key=sort_key):
        mark: CardMark = "kept"
        if new[card] > 0:
            new[card] -= 1
            mark = "laid"
        elif off[card] > 0:
            off[card] -= 1
            mark = "off"
        elif discard == card:
            discard = None
            mark = "discard"
        marked.append(_Card(card, mark))
    return marked


def _after(position: CardPosition, turn: _Turn) -> list[list[_Card]]:
    old = len(position.table)
    melds: list[list[_Card]] = []
    for index, meld in enumerate(turn.table):
        if index >= old:
            melds.append(_meld(meld, ["laid"] * len(meld.cards)))
        elif index in turn.layoffs:
            melds.append(_meld(meld, _extension_marks(position.table[index], meld)))
        else:
            melds.append(_meld(meld))
    return melds


def _draw_turn(position: CardPosition, turn: _Turn, *, four_color: bool, title: str | None) -> str:
    canvas = _Canvas(four_color)
    canvas.label(_title(position, title))
    canvas.label("Before: the table")
    canvas.cards([_meld(m) for m in position.table])
    before = [(_hand_label(position), _hand_marks(position, turn), CARD_W + CARD_GAP)]
    if position.discard:
        before.insert(0, ("Discard pile", _pile(position, turn.draw), PILE_STEP))
    canvas.side_by_side(before)
    note = _draw_note(position, turn.draw)
    if note:
        canvas.note(note)
    canvas.arrow()
    canvas.label("After: the table")
    canvas.cards(_after(position, turn))
    for index, card, wild in turn.swaps:
        canvas.note(f"{card} takes the wild card {wild} back from meld {index}.")
    canvas.side_by_side(
        [
            (
                "Discard" if turn.discard is not None else "No discard (out)",
                [_Card(turn.discard, "discard")] if turn.discard is not None else [],
                CARD_W + CARD_GAP,
            ),
            ("Hand left", [_Card(c) for c in turn.hand], CARD_W + CARD_GAP),
        ]
    )
    if turn.lays:
        canvas.note(f"Laid: {format_cards(turn.played)} ({turn.points} points).")
    else:
        canvas.note("No lay-down: nothing can be laid this turn.")
    canvas.note(f"Penalty left: {turn.penalty}.")
    colors = []
    if any(i >= len(position.table) for i in range(len(turn.table))):
        colors.append("Green: laid in a new meld.")
    if turn.layoffs:
        colors.append("Amber: laid off on a table meld.")
    if colors:
        canvas.note(" ".join(colors))
    return canvas.svg()


# -- pictures ----------------------------------------------------------------------------


def card_position_svg(
    position: CardPosition, *, four_color: bool = False, title: str | None = None
) -> str:
    """A card position: the game, the table, the discard pile and the hand."""
    canvas = _Canvas(four_color)
    canvas.label(_title(position, title))
    canvas.label("Table")
    canvas.cards([_meld(m) for m in position.table])
    _pile_and_hand(canvas, position)
    if position.discard and not position.drawn:
        canvas.note("The draw is still to be made.")
    return canvas.svg()


def _pile_and_hand(canvas: _Canvas, position: CardPosition) -> None:
    hand = [_Card(c) for c in sorted(position.hand, key=sort_key)]
    sections = [(_hand_label(position), hand, CARD_W + CARD_GAP)]
    if position.discard:
        pile = [_Card(c) for c in position.discard]
        sections.insert(0, ("Discard pile", pile, PILE_STEP))
    canvas.side_by_side(sections)


def card_turn_svg(
    position: CardPosition,
    turn: CardTurn,
    *,
    four_color: bool = False,
    title: str | None = None,
) -> str:
    """A turn from ``position`` (a solver's :class:`~rummikub.cards.solver.CardTurn`): the
    table, pile and hand before it above the table, discard and hand after it."""
    drawn = _Turn(
        turn.table,
        turn.layoffs,
        turn.swaps,
        turn.discard,
        turn.played,
        turn.hand,
        turn.points,
        turn.penalty,
        turn.draw,
        turn.status != "no_move",
    )
    return _draw_turn(position, drawn, four_color=four_color, title=title)


def card_result_svg(
    result: CardResult, *, four_color: bool = False, title: str | None = None
) -> str:
    """A card solver's answer drawn as its best turn."""
    return card_turn_svg(result.position, result.best, four_color=four_color, title=title)


def card_verdict_svg(
    position: CardPosition,
    proposed: Sequence[RawCardMeld],
    verdict: CardVerdict,
    *,
    discard: Card | None = None,
    draw: Draw | None = None,
    four_color: bool = False,
    title: str | None = None,
) -> str:
    """A proposed turn judged by the card checker: a legal one drawn as a turn, an illegal
    one as it was given, with every rule it breaks beneath."""
    rules = position.rules
    if not verdict.legal:
        return card_proposal_svg(
            position, proposed, verdict.errors, four_color=four_color, title=title
        )
    drawn = _Turn(
        tuple(meld.read(rules) for meld in proposed),
        verdict.layoffs,
        verdict.swaps,
        discard,
        verdict.played,
        verdict.hand,
        verdict.points,
        verdict.penalty,
        "stock" if draw is None else draw,
        bool(verdict.played),
    )
    return _draw_turn(position, drawn, four_color=four_color, title=title)


def card_proposal_svg(
    position: CardPosition,
    proposed: Sequence[RawCardMeld],
    errors: Sequence[str] = (),
    *,
    four_color: bool = False,
    title: str | None = None,
) -> str:
    """A proposed new table as it was given (maybe no legal turn), under the position, with
    the rules it breaks."""
    canvas = _Canvas(four_color)
    canvas.label(_title(position, title))
    canvas.label("Before: the table")
    canvas.cards([_meld(m) for m in position.table])
    _pile_and_hand(canvas, position)
    canvas.arrow()
    canvas.label("Proposed" if not errors else "Proposed (not a legal turn)")
    canvas.cards([_raw(meld) for meld in proposed])
    for error in errors:
        canvas.note(f"- {error}")
    return canvas.svg()
