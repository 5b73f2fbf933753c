"""The card model's parts, each on its own (as the tile model's sub-models are tested): the
variables and rows a part adds to the records, and the melds it reads back from values set
by hand, without a solver."""

from __future__ import annotations

from collections import Counter

from rummikub.cards.cards import Card, parse_cards
from rummikub.cards.position import CardPosition
from rummikub.cards.puzzles import loads
from rummikub.cards.solver.hand import Hand
from rummikub.cards.solver.layoffs import Layoffs
from rummikub.cards.solver.model import CardModel, weights_of
from rummikub.cards.solver.opening import Opening
from rummikub.cards.solver.runs import NewRuns
from rummikub.cards.solver.sets import NewSets
from rummikub.cards.solver.shared import Ledger, Turn, Value
from rummikub.core.lp.records import Records


def _position(text: str) -> CardPosition:
    return loads(text, "p.toml").position


def _parts(position: CardPosition) -> tuple[Records, Turn, Ledger]:
    model = Records()
    turn = Turn(position, Counter(position.hand))
    return model, turn, Ledger(model, turn)


def _reading(chosen: dict[int, int]) -> Value:
    return lambda var: 0 if var is None else chosen.get(var, 0)


def test_new_runs_are_intervals_read_back_as_runs() -> None:
    position = _position('game = "rummy"\nhand = "7S 8S 9S 10S KH"')
    model, turn, ledger = _parts(position)
    runs = NewRuns(model, turn, ledger)
    # Intervals of 3 or more of 7S..10S: 7-9, 7-10 and 8-10 (KH makes none: no wild card).
    assert sorted((r.first, r.length) for r in runs.runs) == [(7, 3), (7, 4), (8, 3)]
    longest = next(r for r in runs.runs if r.length == 4)
    assert ledger.new_runs == [r.var for r in runs.runs]
    assert sorted(ledger.use[Card(7, "S")]) == sorted(
        r.natural[7] for r in runs.runs if 7 in r.natural
    )
    chosen = {longest.var: 1, **{v: 1 for v in longest.natural.values()}}
    melds = runs.melds(_reading(chosen), iter([]))
    assert [str(m) for m in melds] == ["7S 8S 9S 10S"]


def test_new_sets_of_distinct_suits_are_patterns() -> None:
    position = _position('game = "rummy"\nhand = "7S 7H 7D KH"')
    model, turn, ledger = _parts(position)
    sets = NewSets(model, turn, ledger)
    # Rummy's sets hold distinct suits: one pattern of the three sevens (no wild card).
    assert [(rank, suits, wilds) for rank, suits, wilds, _ in sets.patterns] == [
        (7, ("S", "H", "D"), 0)
    ]
    laid = sets.patterns[0][3]
    assert model.uppers[laid] == 1.0
    assert [str(m) for m in sets.melds(_reading({laid: 1}), iter([]))] == ["7S 7H 7D"]


def test_a_table_run_grows_from_its_ends_and_is_touched() -> None:
    position = _position('game = "rummy"\nhand = "8S 4S KH"\ntable = ["5S 6S 7S"]')
    model, turn, ledger = _parts(position)
    layoffs = Layoffs(model, turn, ledger)
    [(index, ext, natural)] = layoffs.extensions
    assert index == 0 and sorted(natural) == [4, 8]
    # A place is added only with its inner neighbour: 3 needs 4, 9 needs 8.
    rows = [(row.upper, row.coefficients) for row in model.rows]
    assert (0.0, {ext[3]: 1.0, ext[4]: -1.0}) in rows
    assert (0.0, {ext[9]: 1.0, ext[8]: -1.0}) in rows
    assert len(ledger.touched) == 1
    done = layoffs.read(_reading({ext[8]: 1, natural[8]: 1}), iter([]))
    assert [str(m) for m in done.table] == ["5S 6S 7S 8S"]
    assert done.layoffs == {0: (Card(8, "S"),)} and done.laid_at == {0: [3]}


def test_each_draw_sets_the_cards_it_holds_as_row_bounds() -> None:
    position = _position(
        'game = "500-rum"\nhand = "7S 8S 4C QH"\ndiscard = ["KH", "9S", "2D"]\ndrawn = false'
    )
    depths = position.picks()
    deepest = max(depths)
    model = Records()
    turn = Turn(position, position.hand_after(deepest))
    ledger = Ledger(model, turn)
    NewRuns(model, turn, ledger)
    hand = Hand(model, turn, ledger, ["stock", *depths])
    rows, variables = hand.settings("stock")
    # The hand as it is: none of the pile's cards, and no deepest card to lay.
    assert rows[hand.card_rows[Card(9, "S")]] == (0, 0)
    assert rows[hand.card_rows[Card(7, "S")]] == (1, 1)
    assert all(low == 0 for row, (low, _) in rows.items() if row in hand.deepest_rows.values())
    assert variables[hand.left[Card(9, "S")]] == (0, 0)
    rows, _ = hand.settings(deepest)
    assert rows[hand.card_rows[Card(9, "S")]] == (1, 1)
    assert rows[hand.deepest_rows[deepest]][0] == 1  # its deepest card is laid


def test_the_opening_splits_the_model_into_cases() -> None:
    # Romme opens by points: lay nothing, open, or go out at once (opens, out fixed).
    position = _position('game = "romme"\nhand = "7S 8S 9S KH"')
    model, turn, ledger = _parts(position)
    NewRuns(model, turn, ledger)
    hand = Hand(model, turn, ledger, ["stock"])
    opening = Opening(model, turn, ledger, hand)
    assert [sorted(case.values()) for case in opening.cases] == [[0, 0], [0, 1], [0, 1]]
    assert all(model.uppers[var] == 1.0 for case in opening.cases for var in case)
    # Continental: the contract laid, or stay down; Rummy needs no opening.
    for text, cases in (
        ('game = "continental"\ndeal = 1\nhand = "7S 7H 7D 8S 8H 8D"', [[1], [0]]),
        ('game = "rummy"\nhand = "7S 8S 9S KH"', []),
    ):
        model, turn, ledger = _parts(_position(text))
        hand = Hand(model, turn, ledger, ["stock"])
        found = Opening(model, turn, ledger, hand).cases
        assert [list(case.values()) for case in found] == cases


def test_the_model_loaded_into_clp_is_its_records() -> None:
    position = _position('game = "rummy"\nhand = "7S 8S 9S KH 2C"\ntable = ["7H 7D 7C"]')
    model = CardModel(position, ["stock"], weights_of(position))
    assert model.lp.variables() == model.records.variables()
    assert model.lp.solver.NumConstraints() == len(model.records.rows)
    assert model.lp.objective == model.records.objective
    turn = model.solve("stock", None)
    assert turn.status == "optimal" and turn.discard == Card(13, "H")
    assert sorted(map(str, turn.played)) == sorted(map(str, parse_cards("7S 8S 9S")))
    assert turn.hand == (Card(2, "C"),)
