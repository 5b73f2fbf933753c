"""A card game at the terminal: one person against 1-3 strategies (``rummikub play --game``).

The loop (:func:`rummikub.play.session.run`: whose turn, the record saved after every turn,
quit, the ending) talks only through ``ask(prompt) -> line`` and ``say(text)`` (plain text:
the command line paints the cards in their colors), so a test scripts it; the strategies'
work runs through ``think``, so that the command line makes Ctrl-C act at once. The record
says who plays each seat (``seats``), so a saved game goes on (:func:`table_of`). The
others' stock draws are told as "drew from the stock": at a real table nobody sees them.

A turn is typed in two steps. The draw: ``stock`` (or Enter), ``pile`` (the top card) or
``pile N`` (N cards from the top, where the game allows). Then the lay-down and the
discard: ``7S 8S 9S / KH`` (cards for the solver to arrange into melds and lay-offs, then
the card discarded), ``KH`` (only a discard), ``7S 8S 9S /`` (going out with no discard),
or ``table: MELD | MELD ... / KH`` (the whole new table, old melds at their places, as
``check --after`` takes it). ``hint``, ``help``, ``undo`` (take back the person's last
whole turn and the others' since) and ``quit`` work at both prompts.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

from rummikub.cards.cards import Card, format_cards, parse_cards, sort_key
from rummikub.cards.game import engine
from rummikub.cards.game.engine import CardGameState, TurnError
from rummikub.cards.game.entries import undone
from rummikub.cards.game.record import CardRecord, Hand, RecordError, Turn, save
from rummikub.cards.game.strategies import CardStrategy, Lay, strategy
from rummikub.cards.game.turns import lay_cards, turn_of_lay, whole_table
from rummikub.cards.game.view import view_of
from rummikub.cards.game.words import game_title, result_line, scores_lines, turn_text
from rummikub.cards.melds import RawCardMeld, meld_cards, meld_texts
from rummikub.cards.position import Draw
from rummikub.core.errors import NotationError, RummikubError
from rummikub.play import session
from rummikub.play.session import PERSON, Quit, Think, Undo, illegal
from rummikub.play.session import now as _now

__all__ = ["HELP", "NAMES", "PERSON", "CardTable", "play_cards", "table_of"]

#: Names of the strategies' seats, by seat after the person's.
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
At both: hint (the best turn), help, undo (take back your last turn), quit (the record is
kept)."""


class CardTable(session.Table[CardStrategy]):
    """Who sits where: the person's seat and name, and a strategy for every other seat."""

    __slots__ = ()

    def seats(self) -> tuple[str, ...]:
        """Who plays each seat, as a record's ``seats`` says."""
        return self.kinds(lambda chosen: chosen.name)


def table_of(record: CardRecord, path: str) -> CardTable:
    """Who sits where in a saved card game, from its ``seats``."""
    return CardTable(*session.seating(record.seats, record.players, path, strategy, RecordError))


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
    sitting = _Sitting(table, ask, say, think, session.stopped(path))

    def keep(kept: CardRecord, state: CardGameState, expect: CardRecord | None) -> None:
        assert path is not None
        save(kept, path, totals=engine.totals_of(state), expect=expect)

    return session.run(
        sitting,
        record,
        played.state,
        save=None if path is None else keep,
        added=_added,
        between=sitting.between,
        undone=_undone,
        resuming=resuming,
        say=say,
    )


def _undone(record: CardRecord) -> tuple[CardRecord, CardGameState]:
    taken, _ = undone(record)
    return taken, engine.replay(taken).state


def _added(record: CardRecord, turn: Turn, after: CardGameState) -> CardRecord:
    return record.with_turn(turn)


@dataclass(slots=True)
class _Sitting:
    """The card game at the terminal (:class:`rummikub.play.session.Sitting`)."""

    table: CardTable
    ask: Callable[[str], str]
    say: Callable[[str], None]
    think: Think[object]
    stopped: str = "Game stopped."
    #: The hand last announced (a new one is announced once).
    shown: int = field(default=-1)

    def between(self, record: CardRecord, state: CardGameState) -> tuple[CardRecord, CardGameState]:
        """A game dealt from its seed: the next hand follows at once (and is announced)."""
        if state.hand_over:
            deal = engine.next_deal(state)
            record = record.with_hands((*record.hands, Hand(deal)))
            state = engine.start_hand(state, deal)
        if state.hand != self.shown:
            self.shown = state.hand
            leader = state.hand % len(state.players)
            who = "you lead" if leader == self.table.seat else f"{state.players[leader]} leads"
            self.say(f"\n{game_title(state)}: {who}.")
        return record, state

    def over(self, state: CardGameState) -> bool:
        return state.over

    def person_plays(self, state: CardGameState) -> bool:
        return state.to_move == self.table.seat

    def person(self, state: CardGameState) -> Turn:
        return _person_turn(state, self.table, self.ask, self.say, self.think)

    def strategy(self, state: CardGameState) -> Turn:
        return _solver_turn(state, state.to_move, self.table, self.ask, self.say, self.think)

    def advance(self, state: CardGameState, turn: Turn) -> CardGameState:
        return engine.advance(state, turn)

    def tell(self, turn: Turn, before: CardGameState, after: CardGameState) -> None:
        self.say(_told(turn, before, self.table.seat))
        if after.hand_over:
            self.say("\n".join([f"{game_title(after)} is over.", *scores_lines(after)]))

    def ending(self, state: CardGameState) -> str:
        return f"Game over: {result_line(state).removeprefix('The game is over: ')}"


def _told(turn: Turn, before: CardGameState, me: int) -> str:
    """A turn as the person at the table saw it."""
    text = turn_text(turn, before)
    if before.to_move == me:
        text = "You" + text[len(before.players[me]) :]
        if turn.draw == "stock" and turn.card is None and before.stock:
            # The card drawn: the stock's top, or its next after a "May I?" claim.
            held = engine.draw_and_claim(before, turn).hands[me] or ()
            drawn = next(iter(Counter(held) - Counter(before.hands[me] or ())), None)
            if drawn is not None:
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
    claim = _claimed(state, table, ask, think) if draw == "stock" else None
    if claim is not None:
        state = engine.claim(state, claim)
    after = engine.draw(state, draw)
    if after.hand_over:
        return Turn(draw)
    lay = think(partial(chosen.lay, view_of(after, seat)))
    assert isinstance(lay, Lay)
    return turn_of_lay(draw, lay, claim)


def _claimed(
    state: CardGameState, table: CardTable, ask: Callable[[str], str], think: Think[object]
) -> int | None:
    """The seat that says "May I?" when the player to move goes to the stock, before it
    draws (CARDS.md section 7), or None: the others asked in turn order, the person by a
    question, a solver seat by its strategy."""
    for other in engine.claimants(state):
        if other == table.seat:
            top = state.live_pile()[-1]
            try:
                answer = ask(
                    f'{state.players[state.to_move]} draws from the stock. "May I?" for {top} '
                    "(and a penalty card)? [y/N] "
                )
            except EOFError:
                raise Quit from None
            if answer.strip().lower() in ("y", "yes"):
                return other
        elif think(partial(table.strategy_of(other).claim, view_of(state, other))):
            return other
    return None


def _person_turn(
    state: CardGameState,
    table: CardTable,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    think: Think[object],
) -> Turn:
    seat = state.to_move
    say(_shown(state, seat))
    while True:
        draw = _ask_draw(state, ask, say, think)
        # Going to the stock lets the others say "May I?" first.
        claim = _claimed(state, table, ask, think) if draw == "stock" else None
        before = state
        if claim is not None:
            before = engine.claim(state, claim)
            say(
                f'{state.players[claim]} says "May I?" and takes {state.live_pile()[-1]} '
                "and a penalty card."
            )
        after = engine.draw(before, draw)
        if after.hand_over:
            return Turn(draw)
        if draw == "stock" and before.stock:
            say(f"You drew {before.stock[0]}. Your hand: {format_cards(after.hands[seat] or ())}")
        elif draw != "stock":
            taken = after.live_pile()[len(after.live_pile()) - 1 - draw :]
            say(f"You take {format_cards(taken)}.")
        turn = _ask_lay(state, after, Turn(draw, claim=claim), ask, say, think)
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
        line = _line("Draw (stock, pile; help for help): ", ask, say, partial(_hint, state), think)
        if line is None:
            continue
        word = line.strip().lower()
        if word in ("", "s", "stock"):
            return "stock"
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
    drawn: Turn,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    think: Think[object],
) -> Turn | None:
    """The rest of the person's turn after ``drawn`` (its draw and any "May I?" claim);
    None to take the draw back (``back``)."""
    while True:
        hint = partial(_after_draw_hint, after)
        line = _line("Lay and discard (help for help): ", ask, say, hint, think)
        if line is None:
            continue
        try:
            turn = think(partial(_read_lay, state, drawn, line))
        except RummikubError as error:
            say(f"Not a turn: {error}")
            continue
        assert isinstance(turn, Turn)
        try:
            engine.advance(state, turn)
        except TurnError as error:
            say(illegal("Illegal turn", error.problems))
            continue
        return turn


def _line(
    prompt: str,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    hint: Callable[[], str],
    think: Think[object],
) -> str | None:
    """A line typed at ``prompt``, or None for a word answered here (help, a hint worked
    out through ``think``); quit and the end of input stop the game (:class:`Quit`)."""
    try:
        line = ask(prompt)
    except EOFError:
        raise Quit from None
    word = line.strip().lower()
    if word in ("help", "h", "?"):
        say(HELP)
        return None
    if word in ("quit", "q", "exit"):
        raise Quit
    if word == "undo":
        raise Undo
    if word == "hint":
        say(str(think(hint)))
        return None
    return line


def _read_lay(state: CardGameState, drawn: Turn, line: str) -> Turn:
    """The turn a typed lay-down line stands for (see the module's docstring), after
    ``drawn`` (the turn's draw and any "May I?" claim)."""
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
        return whole_table(state, melds, replace(drawn, discard=discard))
    cards = _card_list(laid)
    if not cards:
        return replace(drawn, discard=discard)
    return lay_cards(state, cards, replace(drawn, discard=discard))


def _one_card(text: str) -> Card:
    cards = _card_list(text)
    if len(cards) != 1:
        raise RummikubError(f"{text.strip()!r}: expected one card to discard, such as KH")
    return cards[0]


def _card_list(text: str) -> tuple[Card, ...]:
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
