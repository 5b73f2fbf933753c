"""``rummikub play --game PRESET``: one person against 1-3 solver players at a card game.

The loop talks only through ``ask(prompt) -> line`` and ``say(text)`` (plain text: the
command line paints the cards in their colors), so a test scripts it; the solver players'
work runs through ``think``, so that the command line makes Ctrl-C act at once
(:mod:`rummikub.cli.play`, whose prompt and Ctrl-C handling this shares). The record is
saved after every turn; it says who plays each seat (``seats``), so ``--resume`` goes on
with it. The others' stock draws are told as "drew from the stock": at a real table
nobody sees them.

A turn is typed in two steps. The draw: ``stock`` (or Enter), ``pile`` (the top card) or
``pile N`` (N cards from the top, where the game allows). Then the lay-down and the
discard: ``7S 8S 9S / KH`` (cards for the solver to arrange into melds and lay-offs, then
the card discarded), ``KH`` (only a discard), ``7S 8S 9S /`` (going out with no discard),
or ``table: MELD | MELD ... / KH`` (the whole new table, old melds at their places, as
``check --after`` takes it). ``hint``, ``help`` and ``quit`` work at both prompts.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TypeVar

import click

from rummikub.cards.cards import Card, format_cards, sort_key
from rummikub.cards.game import engine
from rummikub.cards.game.engine import CardGameState, TurnError
from rummikub.cards.game.record import CardRecord, Hand, Layoff, RecordError, Turn, load, save
from rummikub.cards.game.strategies import CardStrategy, Lay, strategy
from rummikub.cards.game.view import view_of
from rummikub.cards.melds import RawCardMeld
from rummikub.cards.position import Draw
from rummikub.cli.card_game import (
    GAME_NAMES,
    card_rules,
    game_title,
    lay_cards,
    result_line,
    scores_lines,
    turn_text,
    whole_table,
)
from rummikub.cli.cards import meld_texts
from rummikub.cli.common import BadInput
from rummikub.core.errors import NotationError, RummikubError
from rummikub.render.card_data import meld_cards

__all__ = ["HELP", "PERSON", "CardTable", "play_cards", "run", "table_of"]

T = TypeVar("T")
Think = Callable[[Callable[[], T]], T]
#: The ``seats`` entry of the person at the terminal.
PERSON = "person"
#: Names of the solver players, by seat after the person's.
NAMES = ("Ada", "Bert", "Cleo")

HELP = """Your turn comes in two steps.
The draw:
  stock             the stock's top card (Enter does the same)
  pile              the top card of the discard pile
  pile 3            the top 3 cards of the pile (where the game lets you take more)
Then lay and discard:
  7S 8S 9S / KH     cards to lay (the solver finds the melds and lay-offs), then the discard
  KH                only a discard
  7S 8S 9S /        lay them and go out with no discard (where the game allows)
  table: 7H 7D 7C 7S | 5S 6S 7S / KH   the whole new table (old melds at their places)
At both: hint (the best turn), help, quit (the record is kept)."""


def _now(work: Callable[[], T]) -> T:
    return work()


@dataclass(frozen=True, slots=True)
class CardTable:
    """Who sits where: the person's seat and name, and a strategy for every other seat."""

    name: str
    opponents: tuple[tuple[str, CardStrategy], ...]
    seat: int = 0

    def players(self) -> list[str]:
        names = [n for n, _ in self.opponents]
        names.insert(self.seat, self.name)
        return names

    def strategy_of(self, seat: int) -> CardStrategy:
        return self.opponents[seat if seat < self.seat else seat - 1][1]

    def seats(self) -> tuple[str, ...]:
        kinds = [s.name for _, s in self.opponents]
        kinds.insert(self.seat, PERSON)
        return tuple(kinds)


def table_of(record: CardRecord, path: str) -> CardTable:
    """Who sits where in a saved card game, from its ``seats``."""
    if record.seats is None:
        raise RecordError(
            f"{path}: the record does not say who plays each seat: add e.g. "
            f'seats = ["{PERSON}", "best"] (records written by rummikub play have it)'
        )
    people = [seat for seat, kind in enumerate(record.seats) if kind == PERSON]
    if len(people) != 1:
        raise RecordError(f"{path}: seats: expected exactly one {PERSON!r}, got {len(people)}")
    opponents = []
    for seat, kind in enumerate(record.seats):
        if kind != PERSON:
            try:
                opponents.append((record.players[seat], strategy(kind)))
            except RummikubError as error:
                raise RecordError(f"{path}: seats[{seat}]: {error}") from None
    return CardTable(record.players[people[0]], tuple(opponents), people[0])


class Quit(Exception):
    """The person stopped the game."""


# -- the loop ---------------------------------------------------------------------------------


def play_cards(
    record: CardRecord,
    table: CardTable,
    *,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    path: str | os.PathLike[str] | None = None,
    think: Think[object] = _now,
    resuming: bool = False,
) -> CardRecord:
    """Play ``record``'s game from where it is to its end (or until the person quits),
    saving the record after every turn when ``path`` is given; the record is returned."""
    played = engine.replay(record)
    if played.problem is not None:
        raise RecordError(f"{path or '<record>'}: {played.problem}")
    state = played.state
    on_file: CardRecord | None = record if resuming else None

    def keep(kept: CardRecord, state: CardGameState) -> CardRecord:
        nonlocal on_file
        if path is not None:
            save(kept, path, totals=engine.totals_of(state), expect=on_file)
            on_file = kept
        return kept

    record = keep(record, state)
    shown_hand = -1
    while not state.over:
        if state.hand_over:
            # A game dealt from its seed: the next hand follows at once.
            deal = engine.next_deal(state)
            record = record.with_hands((*record.hands, Hand(deal)))
            state = engine.start_hand(state, deal)
            record = keep(record, state)
        if state.hand != shown_hand:
            shown_hand = state.hand
            leader = state.hand % len(state.players)
            who = "you lead" if leader == table.seat else f"{state.players[leader]} leads"
            say(f"\n{game_title(state)}: {who}.")
        seat = state.to_move
        try:
            if seat == table.seat:
                turn = _person_turn(state, seat, ask, say, think)
            else:
                turn = _solver_turn(state, seat, table, ask, say, think)
        except Quit:
            say("Game stopped; the record keeps every whole turn so far.")
            return record
        after = engine.advance(state, turn)
        # Saved before it is told: an interrupt leaves the record at a whole turn.
        record = keep(record.with_turn(turn), after)
        say(_told(turn, state, table.seat))
        state = after
        if state.hand_over:
            say("\n".join([f"{game_title(state)} is over.", *scores_lines(state)]))
    say(f"Game over: {result_line(state).removeprefix('The game is over: ')}")
    return record


def _told(turn: Turn, before: CardGameState, me: int) -> str:
    """A turn as the person at the table saw it."""
    text = turn_text(turn, before)
    if before.to_move == me:
        text = "You" + text[len(before.players[me]) :]
        if turn.draw == "stock" and turn.card is None and before.stock:
            drawn = before.stock[0]
            text = text.replace("drew from the stock", f"drew {drawn} from the stock", 1)
    return text + "."


def _solver_turn(
    state: CardGameState,
    seat: int,
    table: CardTable,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    think: Think[object],
) -> Turn:
    chosen = table.strategy_of(seat)
    draw = think(partial(chosen.draw, view_of(state, seat)))
    assert draw == "stock" or isinstance(draw, int)
    after = engine.draw(state, draw)
    claim = None
    if not after.hand_over:
        for other in engine.claimants(after):
            if other == table.seat:
                top = after.live_pile()[-1]
                try:
                    answer = ask(
                        f'{state.players[seat]} drew from the stock. "May I?" for {top} '
                        "(and a penalty card)? [y/N] "
                    )
                except EOFError:
                    raise Quit from None
                if answer.strip().lower() in ("y", "yes"):
                    claim = other
                    break
            elif think(partial(table.strategy_of(other).claim, view_of(after, other))):
                claim = other
                break
    if after.hand_over:
        return Turn(draw)
    if claim is not None:
        after = engine.claim(after, claim)
    lay = think(partial(chosen.lay, view_of(after, seat)))
    assert isinstance(lay, Lay)
    return Turn(
        draw,
        None,
        tuple(m.raw() for m in lay.melds),
        tuple(Layoff(i, m.raw()) for i, m in lay.layoffs),
        lay.discard,
        claim,
    )


def _person_turn(
    state: CardGameState,
    seat: int,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    think: Think[object],
) -> Turn:
    say(_shown(state, seat))
    while True:
        draw = _ask_draw(state, ask, say, think)
        after = engine.draw(state, draw)
        if after.hand_over:
            return Turn(draw)
        if draw == "stock" and state.stock:
            say(f"You drew {state.stock[0]}. Your hand: {format_cards(after.hands[seat] or ())}")
        elif draw != "stock":
            taken = after.live_pile()[len(after.live_pile()) - 1 - draw :]
            say(f"You take {format_cards(taken)}.")
        turn = _ask_lay(state, after, draw, ask, say, think)
        if turn is not None:
            return turn
        say("Draw again.")


def _ask_draw(
    state: CardGameState,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    think: Think[object],
) -> Draw:
    while True:
        try:
            line = ask("Draw (stock, pile; help for help): ")
        except EOFError:
            raise Quit from None
        word = line.strip().lower()
        if word in ("", "s", "stock"):
            return "stock"
        if word in ("help", "h", "?"):
            say(HELP)
            continue
        if word in ("quit", "q", "exit"):
            raise Quit
        if word == "hint":
            say(str(think(partial(_hint, state))))
            continue
        parts = word.split()
        if parts and parts[0] in ("pile", "p"):
            count = parts[1] if len(parts) == 2 else "1"
            if len(parts) <= 2 and count.isdigit() and 1 <= int(count[:3]) <= 999:
                depth = int(count) - 1
                try:
                    engine.draw(state, depth)
                except TurnError as error:
                    say(f"Not a draw: {'; '.join(error.problems)}")
                    continue
                return depth
        say(f"Not a draw: {line.strip()!r} (stock, pile, or pile N; help for help)")


def _ask_lay(
    state: CardGameState,
    after: CardGameState,
    draw: Draw,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    think: Think[object],
) -> Turn | None:
    """The rest of the person's turn; None to take the draw back (``back``)."""
    while True:
        try:
            line = ask("Lay and discard (help for help): ")
        except EOFError:
            raise Quit from None
        word = line.strip().lower()
        if word in ("help", "h", "?"):
            say(HELP)
            continue
        if word in ("quit", "q", "exit"):
            raise Quit
        if word == "hint":
            say(str(think(partial(_after_draw_hint, after))))
            continue
        try:
            turn = think(partial(_read_lay, state, after, draw, line))
        except (RummikubError, BadInput) as error:
            say(f"Not a turn: {error.message if isinstance(error, BadInput) else error}")
            continue
        assert isinstance(turn, Turn)
        try:
            engine.advance(state, turn)
        except TurnError as error:
            count = len(error.problems)
            lines = [f"Illegal turn: {count} rule{'' if count == 1 else 's'} broken."]
            lines += [f"  - {problem}" for problem in error.problems]
            say("\n".join(lines))
            continue
        return turn


def _read_lay(state: CardGameState, after: CardGameState, draw: Draw, line: str) -> Turn:
    """The turn a typed lay-down line stands for (see the module's docstring)."""
    text = line.strip()
    whole = text.lower().startswith("table:")
    if whole:
        text = text[len("table:") :]
    if "/" in text:
        laid, _, rest = text.rpartition("/")
        discard = _one_card(rest) if rest.strip() else None
    elif whole:
        laid, discard = text, None
    else:
        words = text.split()
        if len(words) == 1:
            laid, discard = "", _one_card(words[0])
        else:
            laid, discard = text, None
    if whole:
        try:
            melds = [RawCardMeld.parse(piece) for piece in meld_texts([laid])]
        except NotationError as error:
            raise RummikubError(str(error)) from None
        return whole_table(state, melds, draw, None, discard)
    cards = _card_list(laid)
    if not cards:
        return Turn(draw, None, (), (), discard)
    return lay_cards(state, cards, draw, None, discard)


def _one_card(text: str) -> Card:
    cards = _card_list(text)
    if len(cards) != 1:
        raise RummikubError(f"{text.strip()!r}: expected one card to discard, such as KH")
    return cards[0]


def _card_list(text: str) -> tuple[Card, ...]:
    from rummikub.cards.cards import parse_cards

    try:
        return parse_cards(text)
    except NotationError as error:
        raise RummikubError(str(error)) from None


def _shown(state: CardGameState, seat: int) -> str:
    """The table, the discard pile, the others' hand sizes, the person's hand."""
    lines = [""]
    if state.table:
        lines.append("Table:")
        lines += [f"  {i}. {' '.join(meld_cards(m))}" for i, m in enumerate(state.table)]
    else:
        lines.append("Table: (empty)")
    pile = state.live_pile()
    lines.append(f"Discard pile: {format_cards(pile)}" if pile else "Discard pile: (empty)")
    others = ", ".join(
        f"{name} {count} cards" + ("" if opened or state.rules.opening == "none" else " (not down)")
        for s, (name, count, opened) in enumerate(
            zip(state.players, state.counts, state.opened, strict=True)
        )
        if s != seat
    )
    lines.append(f"Stock: {state.stock_count} cards. Others: {others}.")
    hand = state.hands[seat] or ()
    lines.append(f"Your hand: {format_cards(hand)}")
    return "\n".join(lines)


def _hint(state: CardGameState) -> str:
    from rummikub.cards.solver import solve

    result = solve(state.position())
    turn = result.best
    draw = "the stock" if turn.draw == "stock" else f"pile {turn.draw + 1}"
    return f"Hint: draw from {draw}, then " + _lay_words(turn.played, turn.discard)


def _after_draw_hint(after: CardGameState) -> str:
    from rummikub.cards.solver import solve_draw

    position = after.position()
    draw: Draw = "stock" if after.drawn == "stock" or after.drawn is None else after.drawn
    turn = solve_draw(position, draw)
    return "Hint: " + _lay_words(turn.played, turn.discard)


def _lay_words(played: Sequence[Card], discard: Card | None) -> str:
    laid = format_cards(sorted(played, key=sort_key))
    if not laid:
        return f"lay nothing; discard {discard}." if discard else "lay nothing."
    return f"type {laid} / {discard if discard is not None else ''}".rstrip() + "."


# -- the command line ---------------------------------------------------------------------------


def run(
    *,
    game: str | None,
    opponents: int,
    strategies: str,
    seed: int | None,
    name: str,
    path: str | None,
    force: bool,
    resume_path: str | None,
    rules_preset: str | None,
    rule_options: dict[str, str],
    color: bool,
    four_color: bool,
    ask: Callable[[str], str],
    think: Think[object],
) -> None:
    """``rummikub play --game PRESET`` (or ``--resume`` with a card record)."""
    from rummikub.render.text import paint_cards

    def say(text: str) -> None:
        click.echo(paint_cards(text, four_color=four_color) if color else text)

    if resume_path is not None:
        try:
            record = load(resume_path)
            table = table_of(record, resume_path)
            played = engine.replay(record)
        except RummikubError as error:
            raise BadInput(str(error)) from None
        if played.problem is not None:
            raise BadInput(f"{resume_path}: {played.problem}")
        if played.state.over:
            raise BadInput(f"{resume_path}: the game is over; nothing to resume")
        click.echo(f"The game is saved to {resume_path} after every turn.")
        say(f"Resuming at hand {played.state.hand + 1}, turn {played.state.turns + 1}.")
        play_cards(record, table, ask=ask, say=say, path=resume_path, think=think, resuming=True)
        return
    assert game is not None
    rules = card_rules(game, rules_preset, rule_options)
    names = [n.strip() for n in strategies.split(",") if n.strip()] or ["best"]
    try:
        chosen = [strategy(names[i % len(names)]) for i in range(opponents)]
    except RummikubError as error:
        raise BadInput(f"--strategy: {error}") from None
    if seed is None:
        seed = secrets.randbelow(10**6)
    path = path or f"{game}-{seed}.toml"
    if os.path.lexists(path) and not force:
        raise BadInput(
            f"{path} exists: go on with it (--resume {path}), choose another --save FILE, "
            "or use --force to overwrite it"
        )
    table = CardTable(name, tuple(zip(NAMES[:opponents], chosen, strict=True)))
    try:
        record = engine.new_game(table.players(), rules, seed)
    except RummikubError as error:
        raise BadInput(str(error)) from None
    record = replace(record, seats=table.seats())
    against = ", ".join(f"{n} ({s.name})" for n, s in table.opponents)
    click.echo(f"Seed {seed}; the game is saved to {path} after every turn.")
    say(f"{GAME_NAMES.get(rules.game, rules.game)}: you against {against}.")
    play_cards(record, table, ask=ask, say=say, path=path, think=think)
