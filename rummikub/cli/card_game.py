"""``rummikub game`` for the card rummies: a record of a whole card game, hand by hand (new,
show, apply, undo, replay, hint; at a real table also deal and score).

``cli/game.py`` hands a command here when it names a card game (``new --game G``) or a
record of the card format. The rules of the game are the library's
(:mod:`rummikub.cards.game.engine`); what lives here is what a terminal needs: options read
into a turn, the state and the turns in words, the record's lock held around every
read-modify-write. A refused turn leaves the record as it was (exit 1).
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import click

from rummikub.cards.cards import Card, card_words, format_cards, sort_key
from rummikub.cards.game import engine
from rummikub.cards.game.engine import CardGameState, HandResult, Replay, TurnError
from rummikub.cards.game.record import (
    CardRecord,
    Deal,
    Hand,
    Layoff,
    RecordError,
    Turn,
    load,
    locked,
    save,
)
from rummikub.cards.melds import CardMeld, RawCardMeld
from rummikub.cards.position import CardPosition, Draw
from rummikub.cards.rules import CardRules, most_players, option_from_text, read_rules
from rummikub.cli.card_options import CARD_GAMES
from rummikub.cli.cards import meld_texts
from rummikub.cli.common import EXIT_REJECTED, BadInput, rules_options
from rummikub.core.documents import quote
from rummikub.core.errors import NotationError, RummikubError
from rummikub.render.card_data import meld_cards

__all__ = [
    "card_rules",
    "game",
    "lay_cards",
    "read_draw",
    "result_line",
    "scores_lines",
    "state_text",
    "turn_text",
    "whole_table",
]

GAME_NAMES = {
    "rummy": "Rummy",
    "500-rum": "500 Rum",
    "romme": "Rommé",
    "continental": "Continental",
    "california": "California",
}


@click.group()
def game() -> None:
    """A whole card game: deal or enter a real table's game, apply turns, replay, hint."""


# -- reading the command line -------------------------------------------------------------


def card_rules(game_name: str, rules_preset: str | None, rule_options: dict[str, str]) -> CardRules:
    """The rules of ``--game`` with its ``--rule`` options (``--rules``, a tile rule set,
    is refused)."""
    if rules_preset is not None:
        raise BadInput(
            f"--rules {rules_preset} is a tile rule set; a card game's options are --rule KEY=VALUE"
        )
    values = {key: option_from_text(text) for key, text in rule_options.items()}
    reading = read_rules(game_name, None, options=values)
    if reading.rules is None:
        raise BadInput("; ".join(reading.problems))
    return reading.rules


def _players(text: str, rules: CardRules) -> list[str]:
    """``--players``: a count (P1, P2, ...) or names, 2 to the game's most."""
    most = most_players(rules)
    if text.strip().isdigit():
        digits = text.strip().lstrip("0") or "0"
        # Told by its digits, never converted whole: a count of 10**20 costs nothing.
        count = int(digits) if len(digits) <= 2 else most + 1
        if not 2 <= count <= most:
            raise BadInput(f"--players {_quoted(text)}: a {rules.game} game has 2-{most} players")
        return [f"P{i + 1}" for i in range(count)]
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not 2 <= len(names) <= most:
        raise BadInput(
            f"--players {_quoted(text)}: {len(names)} names, a {rules.game} game has "
            f"2-{most} players"
        )
    if len(set(names)) != len(names):
        raise BadInput(f"--players {_quoted(text)}: every player needs a name of their own")
    return names


def _quoted(text: str) -> str:
    return quote(text if len(text) <= 40 else text[:37] + "...")


def _cards(option: str, text: str) -> tuple[Card, ...]:
    try:
        return tuple(Card.parse(word) for word in card_words(text))
    except NotationError as error:
        raise BadInput(f"{option} {quote(text)}: {error}") from None


def _card(option: str, text: str | None) -> Card | None:
    if text is None:
        return None
    cards = _cards(option, text)
    if len(cards) != 1:
        raise BadInput(f"{option} {quote(text)}: expected one card, such as 'KH'")
    return cards[0]


def read_draw(text: str) -> Draw:
    """``--draw``: ``stock`` or a depth of the discard pile (0 = its top card; ``pile`` is
    the top card too)."""
    word = text.strip().lower()
    if word == "stock":
        return "stock"
    if word in ("pile", "top"):
        return 0
    if word.isdigit() and len(word) <= 3:
        return int(word)
    raise BadInput(f'--draw {quote(text)}: expected "stock" or a pile depth (0 = the top card)')


def _melds(option: str, texts: Sequence[str]) -> tuple[RawCardMeld, ...]:
    melds = []
    for text in meld_texts(texts):
        try:
            melds.append(RawCardMeld.parse(text))
        except NotationError as error:
            raise BadInput(f"{option} {quote(text)}: {error}") from None
    return tuple(melds)


def _layoffs(texts: Sequence[str]) -> tuple[Layoff, ...]:
    """``--layoff "I: MELD"``: table meld I as it is after the cards laid off on it."""
    found = []
    for text in texts:
        index, colon, meld = text.partition(":")
        if not colon or not index.strip().isdigit() or len(index.strip()) > 4:
            raise BadInput(
                f"--layoff {quote(text)}: expected the table meld's number and the meld as it "
                'is after, e.g. "0: 7H 7D 7C 7S"'
            )
        (raw,) = _melds("--layoff", [meld]) or (None,)
        if raw is None:
            raise BadInput(f"--layoff {quote(text)}: the meld after the lay-off is missing")
        found.append(Layoff(int(index), raw))
    return tuple(found)


def _seat(text: str, state: CardGameState, option: str) -> int:
    """A player named by name (any case) or by seat number."""
    word = text.strip()
    for seat, name in enumerate(state.players):
        if name.lower() == word.lower():
            return seat
    if word.isdigit() and int(word[:3]) < len(state.players):
        return int(word)
    names = ", ".join(state.players)
    raise BadInput(f"{option} {quote(text)}: expected a player ({names}) or a seat number")


# -- the record ---------------------------------------------------------------------------


def _open(path: str) -> Replay:
    """The record at ``path`` replayed up to its first bad turn (bad input: exit 2)."""
    try:
        return engine.replay(load(path))
    except RummikubError as error:
        raise BadInput(str(error) if str(error).startswith(path) else f"{path}: {error}") from None


def _intact(path: str, played: Replay) -> None:
    if played.problem is not None:
        raise BadInput(f"{path}: {played.problem} (fix it, or remove it with 'rummikub game undo')")


def _save(record: CardRecord, state: CardGameState, path: str) -> None:
    save(record, path, totals=engine.totals_of(state))


def _dealt(record: CardRecord, state: CardGameState) -> tuple[CardRecord, CardGameState]:
    """After a hand ends, the next one dealt from the game's seed (a real table deals with
    'rummikub game deal'; the scores of a hand the engine cannot count come first)."""
    if not state.hand_over or state.over or record.seed is None:
        return record, state
    if state.results[-1].scores is None:
        return record, state
    deal = engine.next_deal(state)
    return record.with_hands((*record.hands, Hand(deal))), engine.start_hand(state, deal)


# -- words ----------------------------------------------------------------------------------


def game_title(state: CardGameState) -> str:
    """``Hand 2 of 500 Rum (to 500)`` or ``Hand 3 of 7 of Continental (deal 3: 2 runs)``."""
    from rummikub.render.card_svg import contract_words

    rules = state.rules
    name = GAME_NAMES.get(rules.game, rules.game)
    number = state.hand + 1
    if rules.opening == "contract":
        sets, runs = rules.contract(number)
        return (
            f"Hand {number} of {engine.CONTRACT_DEALS} of {name} "
            f"(deal {number}: {contract_words(sets, runs)})"
        )
    return f"Hand {number} of {name} (to {rules.target})"


def _status(state: CardGameState, seat: int) -> str:
    rules = state.rules
    if rules.opening == "contract":
        return "gone down" if state.opened[seat] else "not gone down"
    if rules.opening == "points":
        return "opened" if state.opened[seat] else "not opened"
    return ""


def state_text(state: CardGameState) -> str:
    """The game between two turns: the hand, who is to move, the table, the discard pile,
    every player's hand (where known), the scores."""
    lines: list[str] = []
    if state.over:
        assert state.result is not None
        lines.append(result_line(state))
    elif state.hand_over:
        lines.append(f"{game_title(state)} is over: {_ending(state, state.results[-1])}.")
        if state.results[-1].scores is None:
            lines.append(
                "Its scores are not known (not every hand was seen): enter them with "
                "'rummikub game score RECORD --scores N,N,...'."
            )
        else:
            lines.append("Deal the next hand with 'rummikub game deal RECORD --hand ... --up C'.")
    else:
        seat = state.to_move
        lines.append(
            f"{game_title(state)}: {state.players[seat]} to move (turn {state.turns + 1}); "
            f"stock {state.stock_count} cards."
        )
    if not state.over and not state.hand_over:
        lines += _table_lines(state)
    lines += scores_lines(state)
    return "\n".join(lines)


def _table_lines(state: CardGameState) -> list[str]:
    lines = ["Table:" if state.table else "Table: (empty)"]
    lines += [f"  {i}. {' '.join(meld_cards(m))}" for i, m in enumerate(state.table)]
    live = state.live_pile()
    dead = f" ({state.dead} dead below)" if state.dead else ""
    lines.append(
        f"Discard pile: {format_cards(live)}{dead}" if live else f"Discard pile: (empty){dead}"
    )
    for seat, name in enumerate(state.players):
        cards = state.hands[seat]
        status = _status(state, seat)
        facts = [f"{state.counts[seat]} card" + ("" if state.counts[seat] == 1 else "s")]
        if status:
            facts.append(status)
        if state.rules.game == "500-rum":
            facts.append(f"{state.laid[seat]} points laid")
        shown = "?" if cards is None else format_cards(cards) or "(none)"
        penalty = state.penalty(seat)
        worth = "" if penalty is None else f" (penalty {penalty})"
        lines.append(f"  {name}: {', '.join(facts)}: {shown}{worth}")
    return lines


def _ending(state: CardGameState, result: HandResult) -> str:
    if result.out is None:
        return "the stock ran out, nobody went out"
    rummy = " (a rummy: the score is doubled)" if result.rummy else ""
    return f"{state.players[result.out]} went out{rummy}"


def _number(value: int | None) -> str:
    return "?" if value is None else str(value)


def scores_lines(state: CardGameState) -> list[str]:
    """Each finished hand's scores and the totals after it."""
    if not state.results:
        return []
    lines = ["Scores:"]
    for number, result in enumerate(state.results, start=1):
        scores = result.scores
        shown = ", ".join(
            f"{name} {_number(None if scores is None else scores[seat])}"
            for seat, name in enumerate(state.players)
        )
        lines.append(f"  hand {number}: {shown} ({_ending(state, result)})")
    totals = state.totals
    if totals is not None:
        lines.append(
            "  totals: " + ", ".join(f"{n} {t}" for n, t in zip(state.players, totals, strict=True))
        )
    return lines


def result_line(state: CardGameState) -> str:
    """The end of the game: who won, with what, and 500 Rum's settlement."""
    result = state.result
    assert result is not None
    names = state.players
    winners = " and ".join(names[w] for w in result.winners)
    verb = "wins" if len(result.winners) == 1 else "share the win"
    lowest = state.rules.game not in ("rummy", "500-rum")
    best = result.totals[result.winners[0]]
    line = (
        f"The game is over: {winners} {verb} with {'the lowest total, ' if lowest else ''}{best}."
    )
    if result.settlement is not None:
        pays = [
            f"{names[s]} pays {-amount:g}"
            for s, amount in enumerate(result.settlement)
            if amount < 0
        ]
        if pays:
            line += f" Settlement: {', '.join(pays)}."
    return line


def turn_text(turn: Turn, before: CardGameState) -> str:
    """A turn in words, as everyone at the table saw it: ``Ann drew from the stock, laid
    7S 8S 9S, discarded KH``."""
    seat = before.to_move
    name = before.players[seat]
    parts = []
    if turn.draw == "stock":
        drew = "drew from the stock"
        if turn.card is not None and before.hands[seat] is not None:
            drew += f" ({turn.card})"
        parts.append(drew)
    else:
        taken = before.live_pile()[len(before.live_pile()) - 1 - turn.draw :]
        if len(taken) == 1:
            parts.append(f"took {taken[0]} from the discard pile")
        else:
            parts.append(f"took {len(taken)} cards from the discard pile ({format_cards(taken)})")
    if turn.claim is not None:
        top = before.live_pile()[-1] if before.live_pile() else None
        claimed = f" for {top}" if top is not None else ""
        parts.append(f'{before.players[turn.claim]} said "May I?"{claimed} (and a penalty card)')
    parts += [f"laid {_as_laid(meld)}" for meld in turn.melds]
    parts += [f"laid off on meld {lay.meld}: {_as_laid(lay.to)}" for lay in turn.layoffs]
    if turn.discard is not None:
        parts.append(f"discarded {turn.discard}")
    return f"{name} " + ", ".join(parts)


def _as_laid(meld: RawCardMeld) -> str:
    """A meld's cards as laid (its kind, where written, is the record's business)."""
    return " ".join(str(slot) for slot in meld.slots)


def _turn_error_text(error: TurnError) -> str:
    count = len(error.problems)
    lines = [
        f"Hand {error.hand}, turn {error.number} ({error.player}) is illegal: "
        f"{count} rule{'' if count == 1 else 's'} broken."
    ]
    lines += [f"  - {problem}" for problem in error.problems]
    return "\n".join(lines)


def state_data(state: CardGameState) -> dict[str, Any]:
    """The state as JSON: what ``game show --json`` prints."""
    return {
        "game": state.rules.game,
        "hand": state.hand + 1,
        "deal": state.deal_number,
        "turn": state.turns + 1,
        "to_move": state.to_move,
        "players": list(state.players),
        "table": [{"kind": m.kind, "cards": meld_cards(m)} for m in state.table],
        "pile": [str(c) for c in state.live_pile()],
        "dead": state.dead,
        "stock": state.stock_count,
        "hands": [None if h is None else [str(c) for c in h] for h in state.hands],
        "counts": list(state.counts),
        "opened": list(state.opened),
        "laid": list(state.laid),
        "hand_over": state.hand_over,
        "hands_played": [result.to_data() for result in state.results],
        "result": None if state.result is None else state.result.to_data(),
    }


# -- new --------------------------------------------------------------------------------------


@game.command("new")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option(
    "--game",
    "game",
    type=click.Choice(CARD_GAMES),
    required=True,
    # Read before --rule, which then judges its options as this game's.
    is_eager=True,
    help="The card game.",
)
@click.option(
    "--players",
    default="2",
    show_default=True,
    help="Names separated by commas (in turn order), or a count (P1, P2, ...).",
)
@click.option("--seed", type=int, help="Shuffle and deal every hand with this seed.")
@click.option("--hand", "hand_text", metavar="CARDS", help="A real table: the hand dealt to you.")
@click.option(
    "--up", "up_text", metavar="CARD", help="A real table: the card turned up on the pile."
)
@click.option("--me", type=int, default=0, show_default=True, help="Your seat (with --hand).")
@click.option("--force", is_flag=True, help="Overwrite an existing record.")
@rules_options
def new(
    path: str,
    game: str,
    players: str,
    seed: int | None,
    hand_text: str | None,
    up_text: str | None,
    me: int,
    force: bool,
    rules_preset: str | None,
    rule_options: dict[str, str],
) -> None:
    """Start a card game's record: dealt from a seed (every hand and the stock known), or,
    with --hand and --up, a game at a real table where only your hand is known."""
    if os.path.lexists(path) and not force:
        raise BadInput(f"{path} exists: choose another name or use --force to overwrite it")
    real = hand_text is not None or up_text is not None
    if (seed is None) == (not real):
        raise BadInput(
            "give --seed N to deal a game, or --hand CARDS and --up CARD for a game at a real table"
        )
    rules = card_rules(game, rules_preset, rule_options)
    names = _players(players, rules)
    try:
        if real:
            if hand_text is None or up_text is None:
                raise BadInput("a game at a real table needs both --hand CARDS and --up CARD")
            if not 0 <= me < len(names):
                raise BadInput(f"--me {me}: expected a seat 0-{len(names) - 1}")
            up = _card("--up", up_text)
            assert up is not None
            record = engine.real_table(names, rules, me, _cards("--hand", hand_text), up)
        else:
            assert seed is not None
            record = engine.new_game(names, rules, seed)
        state = engine.start(record)  # a deal the pack cannot give is refused before writing
    except (RummikubError, TypeError) as error:
        raise BadInput(f"{path}: {error}") from None
    with locked(path):
        if os.path.lexists(path) and not force:
            raise BadInput(f"{path} exists: choose another name or use --force to overwrite it")
        _save(record, state, path)
    name = GAME_NAMES.get(rules.game, rules.game)
    click.echo(f"New game of {name}, {len(names)} players: {', '.join(names)}. Saved to {path}.")
    click.echo(state_text(state))


# -- show -------------------------------------------------------------------------------------


@game.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="The state as one JSON object.")
@click.option(
    "--svg",
    metavar="FILE",
    help="Also draw the position of the player to move (their hand known) in FILE.",
)
def show(path: str, as_json: bool, svg: str | None) -> None:
    """The hand in play, whose turn it is, the table, the discard pile, the hands known and
    the scores. A record with a bad turn is shown up to it, with the error (exit 1)."""
    played = _open(path)
    state = played.state
    if as_json:
        data = state_data(state)
        data["problem"] = played.problem
        click.echo(json.dumps(data))
    else:
        click.echo(state_text(state))
    if svg is not None:
        _picture(state, svg)
    if played.problem is not None:
        click.echo(f"{path}: {played.problem}", err=True)
        sys.exit(EXIT_REJECTED)


def _picture(state: CardGameState, svg: str) -> None:
    from rummikub.cli.common import write_svg
    from rummikub.render.card_svg import card_position_svg

    if state.over or state.hand_over:
        raise BadInput(f"--svg {svg}: the hand is over, there is no position to draw")
    seat = state.to_move
    if state.hands[seat] is None:
        raise BadInput(f"--svg {svg}: {state.players[seat]}'s hand is not known")
    title = f"Hand {state.hand + 1}: {state.players[seat]} to move"
    write_svg(svg, card_position_svg(state.position(), title=title))


# -- apply ------------------------------------------------------------------------------------


@game.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option(
    "--draw",
    "draw_text",
    default="stock",
    show_default=True,
    metavar="stock|DEPTH",
    help="The draw: the stock, or a depth of the discard pile (0 = its top card).",
)
@click.option(
    "--card",
    "card_text",
    metavar="CARD",
    help="The card drawn from the stock, where its order is not known (your own draw at a "
    "real table).",
)
@click.option(
    "--meld",
    "melds",
    multiple=True,
    metavar="MELD",
    help='A new meld, e.g. "7S 8S 9S" (repeatable, or several separated by |).',
)
@click.option(
    "--layoff",
    "layoffs",
    multiple=True,
    metavar='"I: MELD"',
    help='Cards laid off on table meld I, given as the meld after: "0: 7H 7D 7C 7S" (repeatable).',
)
@click.option(
    "--table",
    "table",
    multiple=True,
    metavar="MELDS",
    help="Instead of --meld/--layoff: the whole new table, old melds at their places, then "
    "the new ones (separated by | or repeated, as check --after takes it).",
)
@click.option(
    "--lay",
    "lay_text",
    metavar="CARDS",
    help="Cards to lay, instead of --meld/--layoff: the solver finds their melds and lay-offs.",
)
@click.option("--discard", "discard_text", metavar="CARD", help="The card discarded.")
@click.option(
    "--may-i",
    "claimer",
    metavar="PLAYER",
    help='"May I?": the player (a name or a seat) who claimed the top discard after this '
    "draw from the stock.",
)
@click.option(
    "--penalty",
    "penalty_text",
    metavar="CARD",
    help="The claimant's penalty card, where the stock's order is not known (your own claim "
    "at a real table).",
)
def apply(
    path: str,
    draw_text: str,
    card_text: str | None,
    melds: tuple[str, ...],
    layoffs: tuple[str, ...],
    table: tuple[str, ...],
    lay_text: str | None,
    discard_text: str | None,
    claimer: str | None,
    penalty_text: str | None,
) -> None:
    """Apply the next turn: the draw, the melds laid (--meld and --layoff, the whole new
    table with --table, or --lay for the solver to arrange), a "May I?" claim and the
    discard. An illegal turn is refused with
    every rule it breaks (exit 1); when a hand ends, the next one is dealt from the seed."""
    if sum([lay_text is not None, bool(melds or layoffs), bool(table)]) > 1:
        raise BadInput(
            "give the cards to lay with --lay, the melds with --meld/--layoff, or the whole "
            "new table with --table: one of them"
        )
    # Read, judge and write under the record's lock: two `apply` at once never lose a turn.
    with locked(path):
        played = _open(path)
        _intact(path, played)
        state = _playing(path, played.state)
        draw = read_draw(draw_text)
        card = _card("--card", card_text)
        discard = _card("--discard", discard_text)
        claim = None if claimer is None else _seat(claimer, state, "--may-i")
        penalty = _card("--penalty", penalty_text)
        if table:
            try:
                turn = whole_table(
                    state, _melds("--table", table), draw, card, discard, claim, penalty
                )
            except RummikubError as error:
                raise BadInput(f"--table: {error}") from None
        elif lay_text is not None:
            turn = lay_cards(state, _cards("--lay", lay_text), draw, card, discard, claim, penalty)
        else:
            turn = Turn(
                draw,
                card,
                _melds("--meld", melds),
                _layoffs(layoffs),
                discard,
                claim,
                penalty,
            )
        try:
            after = engine.advance(state, turn)
        except TurnError as error:
            click.echo(_turn_error_text(error), err=True)
            sys.exit(EXIT_REJECTED)
        record, after = _dealt(played.record.with_turn(turn), after)
        _save(record, after, path)
    click.echo(f"Hand {state.hand + 1}, turn {state.turns + 1}: {turn_text(turn, state)}.")
    if after.hand > state.hand:
        ended = after.results[state.hand]
        click.echo(
            f"{game_title(state)} is over: {_ending(state, ended)}; hand {after.hand + 1} is dealt."
        )
    click.echo(state_text(after))


def _playing(path: str, state: CardGameState) -> CardGameState:
    """The state, refused where no turn can be played: the game over, a hand waiting for its
    scores or the next deal."""
    if state.over:
        raise BadInput(f"{path}: the game is over")
    if state.hand_over:
        if state.results[-1].scores is None:
            raise BadInput(
                f"{path}: hand {state.hand + 1} is over and its scores are not known: enter them "
                "with 'rummikub game score'"
            )
        raise BadInput(
            f"{path}: hand {state.hand + 1} is over: deal the next one with 'rummikub game deal'"
        )
    return state


def lay_cards(
    state: CardGameState,
    cards: Sequence[Card],
    draw: Draw = "stock",
    card: Card | None = None,
    discard: Card | None = None,
    claim: int | None = None,
    penalty: Card | None = None,
) -> Turn:
    """The turn that lays exactly ``cards`` after the draw (and claim), arranged by the card
    solver into new melds and lay-offs, then discards ``discard``. The engine judges it
    afterwards (the opening, the contract, the deepest card of a pick). Raises
    :class:`BadInput` when the cards are not the player's or cannot all be laid."""
    from rummikub.cards.game.strategies import lay_of
    from rummikub.cards.solver import solve

    if not cards:
        raise BadInput("--lay: give the cards to lay, e.g. --lay '7S 8S 9S'")
    try:
        after = engine.draw(state, draw, card)
        if claim is not None:
            after = engine.claim(after, claim, penalty)
    except TurnError as error:
        raise BadInput(f"--lay: {'; '.join(error.problems)}") from None
    if after.hand_over:
        raise BadInput("--lay: the stock ran out and the hand ended: nothing more is laid")
    seat = after.to_move
    position = after.position(seat) if after.hands[seat] is not None else None
    held = (
        position.hand_after(draw)
        if position is not None
        else Counter(cards) + Counter([discard] if discard else [])
    )
    given = Counter(cards) + Counter([discard] if discard is not None else [])
    missing = given - held
    if missing:
        raise BadInput(
            f"--lay: not in {after.players[seat]}'s hand: "
            f"{format_cards(sorted(missing.elements(), key=sort_key))}"
        )
    # The solver lays the cards given (and discards the one given) from a hand of just
    # those: the most it can lay is all of them.
    hand = tuple(sorted(given.elements(), key=sort_key))
    trial = CardPosition(
        after.rules, hand, after.table, after.opened[seat], after.deal_number, (), True
    )
    turn = solve(trial).best
    laid = Counter(turn.played)
    if laid != Counter(cards) or turn.discard != discard:
        most = format_cards(sorted(turn.played, key=sort_key)) or "nothing"
        raise BadInput(
            f"--lay {format_cards(cards)}: these cards cannot all be laid (at most {most}); "
            "give the melds with --meld and --layoff"
        )
    lay = lay_of(turn, after.table)
    return Turn(
        draw,
        card,
        tuple(_written(m) for m in lay.melds),
        tuple(Layoff(index, _written(meld)) for index, meld in lay.layoffs),
        discard,
        claim,
        penalty,
    )


def whole_table(
    state: CardGameState,
    melds: Sequence[RawCardMeld],
    draw: Draw = "stock",
    card: Card | None = None,
    discard: Card | None = None,
    claim: int | None = None,
    penalty: Card | None = None,
) -> Turn:
    """The turn that makes ``melds`` the whole new table, as ``check --after`` takes one:
    every old meld at its place (a changed one is a lay-off on it), then the new melds.
    Raises :class:`RummikubError` for a table shorter than the old one."""
    old = state.table
    if len(melds) < len(old):
        raise RummikubError(
            f"the new table has {len(melds)} melds, the table {len(old)}: give every old meld "
            "at its place, then the new ones"
        )
    layoffs = tuple(
        Layoff(index, meld)
        for index, meld in enumerate(melds[: len(old)])
        if meld.cards != old[index].raw().cards
    )
    return Turn(draw, card, tuple(melds[len(old) :]), layoffs, discard, claim, penalty)


def _written(meld: CardMeld) -> RawCardMeld:
    return meld.raw()


# -- undo, replay ----------------------------------------------------------------------------


@game.command()
@click.argument("path", type=click.Path(dir_okay=False))
def undo(path: str) -> None:
    """Remove the last turn (with the next hand, where that turn ended a hand and it was
    dealt from the seed), or the last deal or scores entered at a real table."""
    with locked(path):
        record = _load(path)
        hands = list(record.hands)
        what: str
        last = hands[-1] if hands else None
        if last is not None and last.scores is not None and record.seed is None:
            hands[-1] = replace(last, scores=None)
            what = f"the scores of hand {len(hands)}"
        elif last is not None and last.turns:
            hands[-1] = replace(last, turns=last.turns[:-1], scores=None)
            what = f"hand {len(hands)}, turn {len(last.turns)}"
        elif len(hands) > 1 and record.seed is not None:
            hands.pop()
            ended = hands[-1]
            hands[-1] = replace(ended, turns=ended.turns[:-1], scores=None)
            what = (
                f"hand {len(hands)}, turn {len(ended.turns)} "
                f"(and the deal of hand {len(hands) + 1})"
            )
        elif len(hands) > 1:
            hands.pop()
            what = f"the deal of hand {len(hands) + 1}"
        else:
            raise BadInput(f"{path}: no turn to undo")
        record = record.with_hands(hands)
        played = engine.replay(record)
        _save(record, played.state, path)
    click.echo(f"Removed {what}.")
    click.echo(state_text(played.state))


def _load(path: str) -> CardRecord:
    try:
        return load(path)
    except RecordError as error:
        raise BadInput(str(error)) from None


@game.command("replay")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="One JSON object: turns, legal, error.")
def replay_command(path: str, as_json: bool) -> None:
    """Check every turn of every hand; the first illegal turn is reported with its hand, its
    number and the broken rules (exit 1)."""
    played = _open(path)
    record = played.record
    if as_json:
        error = played.error
        data: dict[str, Any] = {
            "hands": len(record.hands),
            "turns": sum(len(hand.turns) for hand in record.hands),
            "legal": played.problem is None,
            "error": None
            if error is None
            else {
                "hand": error.hand,
                "turn": error.number,
                "player": error.player,
                "problems": list(error.problems),
            },
            "problem": played.problem,
            "hands_played": [result.to_data() for result in played.state.results],
            "result": None if played.state.result is None else played.state.result.to_data(),
        }
        click.echo(json.dumps(data))
    else:
        click.echo("\n".join(_replay_lines(played)))
    if played.problem is not None:
        sys.exit(EXIT_REJECTED)


def _replay_lines(played: Replay) -> list[str]:
    lines: list[str] = []
    states = iter(played.states)
    state = next(states)
    legal = 0
    for number, hand in enumerate(played.record.hands, start=1):
        if number > 1:
            found = next(states, None)
            if found is None:
                break
            state = found
        lines.append(f"Hand {number}:")
        for index, turn in enumerate(hand.turns, start=1):
            after = next(states, None)
            if after is None:
                break
            lines.append(f"  {index:3d}. {turn_text(turn, state)}")
            legal += 1
            state = after
        if number <= len(state.results):
            result = state.results[number - 1]
            scores = result.scores
            shown = (
                "scores not known"
                if scores is None
                else "scores "
                + ", ".join(f"{n} {s}" for n, s in zip(state.players, scores, strict=True))
            )
            lines.append(f"  {_ending(state, result)}; {shown}.")
    if played.error is not None:
        lines.append(_turn_error_text(played.error))
    elif played.problem is not None:
        lines.append(played.problem)
    else:
        lines.append(f"All {legal} turns are legal.")
        if played.state.over:
            lines.append(result_line(played.state))
    return lines


# -- hint --------------------------------------------------------------------------------------


@game.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="The answer as solve --json prints it.")
@click.option(
    "--strategy",
    "strategy_name",
    metavar="NAME",
    help="The turn this card strategy would play (best, keep, casual) instead.",
)
@click.option(
    "--svg",
    metavar="FILE",
    help="Also draw the best turn in FILE, as 'rummikub solve --svg' draws a card turn.",
)
def hint(path: str, as_json: bool, strategy_name: str | None, svg: str | None) -> None:
    """The best turn for the player to move (their hand must be known): the draw, the melds,
    the lay-offs and the discard, proven optimal, as 'rummikub solve' gives it."""
    played = _open(path)
    _intact(path, played)
    state = _playing(path, played.state)
    seat = state.to_move
    if state.hands[seat] is None:
        raise BadInput(
            f"{path}: it is {state.players[seat]}'s turn, and their hand is not known (enter "
            "their turn with 'rummikub game apply')"
        )
    if strategy_name is not None:
        if svg is not None:
            raise BadInput("--svg draws the best turn: give it without --strategy")
        _strategy_hint(state, strategy_name, as_json)
        return
    from rummikub.cards.solver import solve
    from rummikub.cli.card_options import CardOptions
    from rummikub.cli.cards import CardTask, result_data, result_text

    result = solve(state.position())
    task = CardTask(options=CardOptions())
    if svg is not None:
        from rummikub.cli.common import write_svg
        from rummikub.render.card_svg import card_result_svg

        title = f"Hand {state.hand + 1}: {state.players[seat]} to move"
        write_svg(svg, card_result_svg(result, title=title))
    if as_json:
        click.echo(json.dumps(result_data(result, path, task), ensure_ascii=False))
        return
    click.echo(f"{game_title(state)}: {state.players[seat]} to move.")
    click.echo(result_text(result, None, None, task))


def _strategy_hint(state: CardGameState, name: str, as_json: bool) -> None:
    from rummikub.cards.game.strategies import strategy
    from rummikub.cards.game.view import view_of

    try:
        chosen = strategy(name)
    except RummikubError as error:
        raise BadInput(f"--strategy {quote(name)}: {error}") from None
    draw = chosen.draw(view_of(state))
    after = engine.draw(state, draw)
    lay = chosen.lay(view_of(after, state.to_move))
    turn = Turn(
        draw,
        None,
        tuple(m.raw() for m in lay.melds),
        tuple(Layoff(i, m.raw()) for i, m in lay.layoffs),
        lay.discard,
    )
    if as_json:
        data = {
            "strategy": chosen.name,
            "draw": draw,
            "melds": [meld_cards(m) for m in lay.melds],
            "layoffs": [{"meld": i, "cards": meld_cards(m)} for i, m in lay.layoffs],
            "discard": None if lay.discard is None else str(lay.discard),
        }
        click.echo(json.dumps(data))
        return
    click.echo(f"{game_title(state)}: {state.players[state.to_move]} to move.")
    text = turn_text(turn, state).removeprefix(f"{state.players[state.to_move]} ")
    click.echo(f"Strategy {chosen.name}: {text}.")


# -- a real table: the next deal, a hand's scores ---------------------------------------------


@game.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--hand", "hand_text", required=True, metavar="CARDS", help="The hand dealt to you.")
@click.option(
    "--up", "up_text", required=True, metavar="CARD", help="The card turned up on the pile."
)
def deal(path: str, hand_text: str, up_text: str) -> None:
    """A real table: the next hand, dealt when one has ended (your hand and the card turned
    up; the others' are not known)."""
    with locked(path):
        played = _open(path)
        _intact(path, played)
        state = played.state
        record = played.record
        if record.me is None:
            raise BadInput(f"{path}: a game dealt from a seed deals its hands itself")
        if state.over:
            raise BadInput(f"{path}: the game is over")
        if not state.hand_over:
            raise BadInput(f"{path}: hand {state.hand + 1} is still being played")
        if state.results[-1].scores is None:
            raise BadInput(
                f"{path}: enter the scores of hand {state.hand + 1} first ('rummikub game score')"
            )
        hands: list[tuple[Card, ...] | None] = [None] * len(state.players)
        hands[record.me] = tuple(sorted(_cards("--hand", hand_text), key=sort_key))
        up = _card("--up", up_text)
        assert up is not None
        new = Deal(tuple(hands), up)
        try:
            after = engine.start_hand(state, new)
        except RummikubError as error:
            raise BadInput(f"{path}: {error}") from None
        record = record.with_hands((*record.hands, Hand(new)))
        _save(record, after, path)
    click.echo(f"Hand {after.hand + 1} dealt.")
    click.echo(state_text(after))


@game.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option(
    "--scores",
    "scores_text",
    required=True,
    metavar="N,N,...",
    help="Each player's score of the hand just ended, in seat order.",
)
def score(path: str, scores_text: str) -> None:
    """A real table: the scores of a hand that has ended, where the engine could not count
    them (not every hand left was seen)."""
    words = [w.strip() for w in scores_text.split(",")]
    try:
        scores = tuple(int(w) for w in words if len(w) <= 9)
    except ValueError:
        scores = ()
    if len(scores) != len(words):
        raise BadInput(f"--scores {quote(scores_text)}: expected whole numbers separated by commas")
    with locked(path):
        played = _open(path)
        _intact(path, played)
        state = played.state
        if not state.hand_over or state.results[-1].scores is not None:
            raise BadInput(
                f"{path}: scores are entered only for a hand that has ended and whose scores "
                "the engine could not count"
            )
        if len(scores) != len(state.players):
            raise BadInput(
                f"--scores {quote(scores_text)}: {len(scores)} scores for "
                f"{len(state.players)} players"
            )
        hands = list(played.record.hands)
        hands[-1] = replace(hands[-1], scores=scores)
        record = played.record.with_hands(hands)
        after = engine.replay(record).state
        _save(record, after, path)
    click.echo(f"Scores of hand {state.hand + 1} entered.")
    click.echo(state_text(after))
