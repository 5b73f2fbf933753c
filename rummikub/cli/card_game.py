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
import sys
from collections.abc import Sequence
from dataclasses import replace

import click

from rummikub.cards.cards import Card, card_words
from rummikub.cards.game import engine, entries
from rummikub.cards.game.engine import CardGameState, Replay, TurnError
from rummikub.cards.game.entries import EntryError
from rummikub.cards.game.record import (
    CardRecord,
    Layoff,
    RecordError,
    Turn,
    load,
    locked,
    save,
)
from rummikub.cards.game.turns import lay_cards, whole_table
from rummikub.cards.game.words import (
    GAME_NAMES,
    ending_words,
    game_title,
    replay_data,
    replay_lines,
    state_data,
    state_text,
    turn_error_text,
    turn_text,
)
from rummikub.cards.melds import RawCardMeld, meld_cards, meld_texts
from rummikub.cards.position import Draw
from rummikub.cards.rules import CardRules, most_players, option_from_text, read_rules
from rummikub.cli.card_options import CARD_GAMES
from rummikub.cli.common import (
    EXIT_REJECTED,
    BadInput,
    intact,
    named,
    problem_code,
    quoted,
    refuse_existing,
    rules_options,
)
from rummikub.core.documents import quote
from rummikub.core.errors import NotationError, RummikubError

__all__ = ["card_rules", "game", "read_draw"]


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
            raise BadInput(f"--players {quoted(text)}: a {rules.game} game has 2-{most} players")
        return [f"P{i + 1}" for i in range(count)]
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not 2 <= len(names) <= most:
        raise BadInput(
            f"--players {quoted(text)}: {len(names)} names, a {rules.game} game has "
            f"2-{most} players"
        )
    if len(set(names)) != len(names):
        raise BadInput(f"--players {quoted(text)}: every player needs a name of their own")
    return names


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


def _save(record: CardRecord, state: CardGameState, path: str) -> None:
    save(record, path, totals=engine.totals_of(state))


# -- words ----------------------------------------------------------------------------------


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
    refuse_existing(path, force)
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
        # A deal the pack cannot give is refused before writing.
        state = engine.replay(record).state
    except (RummikubError, TypeError) as error:
        raise BadInput(f"{path}: {error}") from None
    with locked(path):
        refuse_existing(path, force)
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
        sys.exit(problem_code(played.problem, played.record.problem))


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
    help='"May I?": the player (a name or a seat) who claimed the top discard before this '
    "draw from the stock (taking the stock's top card; --card is the next).",
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
        intact(path, played.problem)
        state = _playing(path, played.state)
        draw = read_draw(draw_text)
        card = _card("--card", card_text)
        discard = _card("--discard", discard_text)
        claim = None if claimer is None else _seat(claimer, state, "--may-i")
        penalty = _card("--penalty", penalty_text)
        rest = Turn(draw, card, discard=discard, claim=claim, penalty=penalty)
        if table:
            try:
                turn = whole_table(state, _melds("--table", table), rest)
            except RummikubError as error:
                raise BadInput(f"--table: {error}") from None
        elif lay_text is not None:
            cards = _cards("--lay", lay_text)
            try:
                turn = lay_cards(state, cards, rest)
            except RummikubError as error:
                raise BadInput(str(error)) from None
        else:
            turn = replace(rest, melds=_melds("--meld", melds), layoffs=_layoffs(layoffs))
        try:
            record, after = entries.played_on(played.record, state, turn)
        except TurnError as error:
            click.echo(turn_error_text(error), err=True)
            sys.exit(EXIT_REJECTED)
        _save(record, after, path)
    click.echo(f"Hand {state.hand + 1}, turn {state.turns + 1}: {turn_text(turn, state)}.")
    if after.hand > state.hand:
        ended = after.results[state.hand]
        click.echo(
            f"{game_title(state)} is over: {ending_words(state, ended)}; "
            f"hand {after.hand + 1} is dealt."
        )
    click.echo(state_text(after))


def _playing(path: str, state: CardGameState) -> CardGameState:
    """The state, refused where no turn can be played (:func:`entries.playable`)."""
    try:
        return entries.playable(state)
    except EntryError as error:
        raise BadInput(f"{path}: {error}") from None


# -- undo, replay ----------------------------------------------------------------------------


@game.command()
@click.argument("path", type=click.Path(dir_okay=False))
def undo(path: str) -> None:
    """Remove the last turn (with the next hand, where that turn ended a hand and it was
    dealt from the seed), or the last deal or scores entered at a real table."""
    with locked(path):
        try:
            record, what = entries.undone(_load(path))
        except EntryError as error:
            raise BadInput(f"{path}: {error}") from None
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
    if as_json:
        click.echo(json.dumps(replay_data(played)))
    else:
        click.echo("\n".join(replay_lines(played, path)))
        named(path, played)
    if played.problem is not None:
        sys.exit(problem_code(played.problem, played.record.problem))


# -- hint --------------------------------------------------------------------------------------


@game.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="The answer as solve --json prints it.")
@click.option(
    "--strategy",
    "strategy_name",
    metavar="NAME",
    help="The turn this card strategy would play (best, keep, casual, equity) instead.",
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
    intact(path, played.problem)
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

    try:
        chosen = strategy(name)
    except RummikubError as error:
        raise BadInput(f"--strategy {quote(name)}: {error}") from None
    draw, lay, turn = entries.strategy_turn(state, chosen)
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
        intact(path, played.problem)
        state = played.state
        record = played.record
        try:
            entries.dealable(record, state)
        except EntryError as error:
            raise BadInput(f"{path}: {error}") from None
        hand = _cards("--hand", hand_text)
        up = _card("--up", up_text)
        assert up is not None
        try:
            record, after = entries.deal_at_table(record, state, hand, up)
        except EntryError as error:
            raise BadInput(f"{path}: {error}") from None
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
        intact(path, played.problem)
        state = played.state
        try:
            entries.scores_wanted(state)
        except EntryError as error:
            raise BadInput(f"{path}: {error}") from None
        try:
            record, after = entries.enter_hand_scores(played.record, state, scores)
        except EntryError as error:
            raise BadInput(f"--scores {quote(scores_text)}: {error}") from None
        _save(record, after, path)
    click.echo(f"Scores of hand {state.hand + 1} entered.")
    click.echo(state_text(after))
