"""A card game in words: its state, its turns, its hands' scores and its end.

What ``rummikub game`` (show, apply, replay) and ``rummikub play --game`` say of a card game
is written here once, as plain text (the command line paints the cards), and as JSON
(:func:`state_data`, what ``game show --json`` prints).
"""

from __future__ import annotations

from typing import Any

from rummikub.cards.cards import format_cards
from rummikub.cards.game.engine import (
    CONTRACT_DEALS,
    CardGameState,
    HandResult,
    Replay,
    TurnError,
    lowest_wins,
)
from rummikub.cards.game.record import Turn
from rummikub.cards.melds import RawCardMeld, meld_cards
from rummikub.cards.rules import GAME_NAMES as GAME_NAMES
from rummikub.cards.rules import contract_words
from rummikub.core.arguments import instance
from rummikub.play import replay as replaying
from rummikub.play.session import illegal

__all__ = [
    "GAME_NAMES",
    "ending_words",
    "game_title",
    "replay_data",
    "replay_lines",
    "result_line",
    "scores_lines",
    "state_data",
    "state_text",
    "table_lines",
    "turn_error_text",
    "turn_text",
]


def game_title(state: CardGameState) -> str:
    """``Hand 2 of 500 Rum (to 500)`` or ``Hand 3 of 7 of Continental (deal 3: 2 runs)``."""
    rules = state.rules
    name = GAME_NAMES.get(rules.game, rules.game)
    number = state.hand + 1
    if rules.opening == "contract":
        sets, runs = rules.contract(number)
        return (
            f"Hand {number} of {CONTRACT_DEALS} of {name} "
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
    instance(state, CardGameState, "state", "replay(record).state")
    lines: list[str] = []
    if state.over:
        assert state.result is not None
        lines.append(result_line(state))
    elif state.hand_over:
        lines.append(f"{game_title(state)} is over: {ending_words(state, state.results[-1])}.")
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
        lines += table_lines(state)
    lines += scores_lines(state)
    return "\n".join(lines)


def table_lines(state: CardGameState) -> list[str]:
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


def ending_words(state: CardGameState, result: HandResult) -> str:
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
        lines.append(f"  hand {number}: {shown} ({ending_words(state, result)})")
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
    lowest = lowest_wins(state.rules)
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


def turn_error_text(error: TurnError) -> str:
    """A refused turn with every rule it breaks, as ``game apply`` and ``replay`` tell it."""
    return illegal(
        f"Hand {error.hand}, turn {error.number} ({error.player}) is illegal", error.problems
    )


def state_data(state: CardGameState) -> dict[str, Any]:
    """The state as JSON: what ``game show --json`` prints."""
    instance(state, CardGameState, "state", "replay(record).state")
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


def replay_lines(played: Replay, path: str | None = None) -> list[str]:
    """A record replayed, as ``game replay`` prints it: each hand's legal turns and its end,
    then the first problem (the record named ``path``, where given), or that every turn is
    legal and the result."""
    instance(played, replaying.Replay, "played", "replay(record)")
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
            lines.append(f"  {ending_words(state, result)}; {shown}.")
    if played.error is not None:
        lines.append(turn_error_text(played.error))
    elif played.problem is not None:
        lines.append(played.problem if path is None else f"{path}: {played.problem}")
    else:
        lines.append(f"All {legal} turns are legal.")
        if played.state.over:
            lines.append(result_line(played.state))
    return lines


def replay_data(played: Replay) -> dict[str, Any]:
    """A record replayed as JSON (``game replay --json``): its hands and turns, the first
    problem, each hand's scores and the result."""
    instance(played, replaying.Replay, "played", "replay(record)")
    record = played.record
    error = played.error
    return {
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
