"""The game layer's piles: the next one drawn, and a kind put on top for a draw's luck."""

from __future__ import annotations

from rummikub.play.piles import put_on_top


def test_a_kind_already_on_top_changes_nothing() -> None:
    hands = (("a",), ("b", "c"))
    assert put_on_top(("x", "y"), hands, 0, "x", str) == (("x", "y"), hands)


def test_a_kind_deeper_in_the_pile_is_swapped_with_the_top() -> None:
    assert put_on_top(("x", "y", "z"), ((), ()), 0, "z", str) == (("z", "y", "x"), ((), ()))


def test_a_kind_in_another_hand_trades_places_with_the_top_and_the_hand_stays_sorted() -> None:
    pile, hands = put_on_top(("x", "y"), (("m",), ("q", "k")), 0, "k", str) or ((), ())
    assert pile == ("k", "y") and hands == (("m",), ("q", "x"))


def test_the_drawer_s_own_hand_and_unknown_hands_are_never_taken_from() -> None:
    assert put_on_top(("x",), (("k",), None), 0, "k", str) is None
