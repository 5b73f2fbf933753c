"""The game layer's determinized Monte Carlo and review arithmetic (play/equity.py,
play/review.py), tested apart from tiles and cards on a toy game defined here: a race of two
runners to a goal, each turn's step the top die of a hidden stack."""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field, replace

import pytest

from rummikub.core.errors import RummikubError
from rummikub.play import review
from rummikub.play.equity import (
    Budget,
    Outcome,
    Search,
    deals,
    interval,
    mean_interval,
    play_out,
    ranked,
    wins_of,
)

GOAL = 10
FACES = (1, 2, 3)


@dataclass(frozen=True, slots=True)
class Race:
    """The whole state: where each runner stands, who moves, and the hidden dice in order."""

    at: tuple[int, int]
    to_move: int
    dice: tuple[int, ...]

    @property
    def over(self) -> bool:
        return max(self.at) >= GOAL or not self.dice


@dataclass(frozen=True, slots=True)
class Seen:
    """What a runner sees: everything but the order of the dice (it knows how many are left
    and which faces have been used up: none, in this game)."""

    seat: int
    at: tuple[int, int]
    dice: int


#: A decision: ``run`` steps the top die, ``walk`` steps 1 (and throws the die away).
Decision = str


@dataclass(frozen=True)
class RaceSearch:
    """The race as determinized Monte Carlo sees it; it keeps what it was asked."""

    applied: list[tuple[Race, Decision]] = field(default_factory=list)
    streams: list[tuple[Race, float]] = field(default_factory=list)

    def seat_of(self, view: Seen) -> int:
        return view.seat

    def seed_of(self, view: Seen) -> int:
        return view.at[0] * 1000 + view.at[1] * 10 + view.dice

    def determinize(self, view: Seen, rng: random.Random) -> Race:
        return Race(view.at, view.seat, tuple(rng.choice(FACES) for _ in range(view.dice)))

    def apply(self, state: Race, decision: Decision) -> Race:
        self.applied.append((state, decision))
        die, rest = state.dice[0], state.dice[1:]
        step = die if decision == "run" else 1
        at = list(state.at)
        at[state.to_move] += step
        return Race((at[0], at[1]), 1 - state.to_move, rest)

    def over(self, state: Race) -> bool:
        return state.over

    def playout(self, state: Race, rounds: int, explore: float, rng: random.Random | None) -> Race:
        start = state
        for _ in range(rounds * 2):
            if state.over:
                break
            walk = rng is not None and rng.random() < explore
            state = self.apply(state, "walk" if walk else "run")
        if rng is not None:
            self.streams.append((start, rng.random()))
        return state

    def scored(self, state: Race, seat: int) -> tuple[float, float, float]:
        lead = float(state.at[seat] - state.at[1 - seat])
        if state.at[seat] >= GOAL:
            return 1.0, lead, lead
        if state.at[1 - seat] >= GOAL:
            return 0.0, lead, lead
        return min(1.0, max(0.0, 0.5 + lead / 10)), lead, lead


def _search() -> Search[Race, Seen, Decision]:
    return RaceSearch()


VIEW = Seen(seat=0, at=(3, 4), dice=12)
CANDIDATES = [("run", "run"), ("walk", "walk")]


def test_the_deals_are_seeded_by_what_the_seat_sees() -> None:
    budget = Budget(samples=5)
    first = deals(RaceSearch(), VIEW, budget)
    assert first == deals(RaceSearch(), VIEW, budget)
    assert first == deals(RaceSearch(), VIEW, budget, seed=RaceSearch().seed_of(VIEW))
    assert first != deals(RaceSearch(), VIEW, budget, seed=1)
    assert len(first) == 5 and all(d.at == VIEW.at and len(d.dice) == 12 for d in first)
    expected = RaceSearch().determinize(VIEW, random.Random(RaceSearch().seed_of(VIEW) + 3))
    assert first[3] == expected  # deal i is from seed base + i


def test_every_candidate_meets_the_same_deals_in_order() -> None:
    search = RaceSearch()
    budget = Budget(samples=4, rounds=0)
    outcomes = play_out(search, VIEW, CANDIDATES, budget, seed=7)
    dealt = deals(search, VIEW, budget, seed=7)
    assert [o.label for o in outcomes] == ["run", "walk"]
    # The deals in turn, every candidate on one before the next (a stop between deals
    # leaves every candidate with the same deals).
    assert [s for s, _ in search.applied] == [d for d in dealt for _ in CANDIDATES]
    assert [d for _, d in search.applied] == ["run", "walk"] * 4
    # Given deals are played on as they are.
    again = RaceSearch()
    assert play_out(again, VIEW, CANDIDATES, budget, seed=7, deals=dealt) == outcomes


class FirstDraws(RaceSearch):
    """A search whose playouts only note the first draw of their explore stream."""

    def playout(self, state: Race, rounds: int, explore: float, rng: random.Random | None) -> Race:
        self.streams.append((state, -1.0 if rng is None else rng.random()))
        return state


def test_the_explore_streams_are_common_to_the_candidates() -> None:
    # Playout i of every candidate draws its variants from random.Random(f"{base}:{i}").
    probe = FirstDraws()
    play_out(probe, VIEW, CANDIDATES, Budget(samples=3, rounds=2, explore=0.5), seed=11)
    firsts = [random.Random(f"11:{i}").random() for i in range(3)]
    assert [u for _, u in probe.streams] == [u for u in firsts for _ in CANDIDATES]
    # Without explore there is no stream.
    greedy = FirstDraws()
    play_out(greedy, VIEW, CANDIDATES, Budget(samples=3, rounds=2), seed=11)
    assert [u for _, u in greedy.streams] == [-1.0] * 6


def test_exploring_changes_the_playouts_but_not_the_deals() -> None:
    greedy = play_out(RaceSearch(), VIEW, CANDIDATES, Budget(samples=8, rounds=3), seed=2)
    budget = Budget(samples=8, rounds=3, explore=0.6)
    exploring = play_out(RaceSearch(), VIEW, CANDIDATES, budget, seed=2)
    assert exploring == play_out(RaceSearch(), VIEW, CANDIDATES, budget, seed=2)
    assert [o.wins for o in exploring] != [o.wins for o in greedy]


def test_an_outcome_sums_its_playouts() -> None:
    budget = Budget(samples=20, rounds=1)
    run, walk = play_out(RaceSearch(), VIEW, CANDIDATES, budget, seed=3)
    assert len(run.wins) == run.samples == 20
    assert run.win == pytest.approx(sum(run.wins) / 20)
    assert run.ci[0] <= run.win <= run.ci[1]
    assert run.mean_ci[0] <= run.win <= run.mean_ci[1]
    assert not run.certain and 0.0 <= run.finished <= 1.0
    assert run.win > walk.win  # running is better on the same luck


def test_a_candidate_that_ends_the_hand_is_certain() -> None:
    near = Seen(seat=0, at=(9, 4), dice=5)
    [won] = play_out(RaceSearch(), near, [("run", "run")], Budget(samples=6, rounds=2))
    assert won.certain and won.finished == 1.0
    assert won.win == 1.0 and won.ci == (1.0, 1.0)


def test_the_progress_follows_every_playout() -> None:
    calls: list[tuple[int, int]] = []
    play_out(RaceSearch(), VIEW, CANDIDATES, Budget(samples=3), progress=lambda *a: calls.append(a))
    assert calls == [(i, 6) for i in range(1, 7)]


def test_a_decision_judged_apart_has_the_wins_it_would_have_as_a_candidate() -> None:
    budget = Budget(samples=6, rounds=2, explore=0.3)
    _, walk = play_out(RaceSearch(), VIEW, CANDIDATES, budget, seed=4)
    assert wins_of(RaceSearch(), VIEW, "walk", budget, seed=4) == walk.wins


def _outcome(label: str, win: float, lead: float) -> Outcome[str]:
    return Outcome(label, label, (win,), win, (0.0, 1.0), (0.0, 1.0), lead, 0.0, 1, 0.0, False)


def test_ranking_is_by_win_then_lead_then_order() -> None:
    found = [
        _outcome("a", 0.5, 0.0),
        _outcome("b", 0.6, -1.0),
        _outcome("c", 0.5, 1.0),
        _outcome("d", 0.5, 0.0),
    ]
    assert [o.label for o in ranked(found)] == ["b", "c", "a", "d"]
    assert [o.label for o in ranked(found[::-1])] == ["b", "c", "d", "a"]


@pytest.mark.parametrize(
    "values",
    [[0.0, 1.0, 1.0, 0.0, 1.0], [0.3] * 7, [0.1, 0.9], [1.0] * 50 + [0.0] * 3, [0.42, 0.57, 0.5]],
)
def test_the_intervals_hold_the_mean(values: list[float]) -> None:
    mean = math.fsum(values) / len(values)
    for low, high in (interval(values), mean_interval(values)):
        assert 0.0 <= low <= mean <= high <= 1.0
    # The honest interval holds the central 95% of the outcomes: all of them below 40.
    if len(values) < 40:
        assert interval(values)[0] <= min(values) and interval(values)[1] >= max(values)
    assert interval(values, certain=True) == (mean, mean)


def test_one_playout_tells_nothing() -> None:
    assert interval([0.7]) == (0.0, 1.0) == mean_interval([0.7])
    assert interval([0.7], certain=True) == (0.7, 0.7)


@pytest.mark.parametrize(("samples", "rounds", "explore"), [(0, 1, 0.0), (1, -1, 0.0), (1, 1, 1.5)])
def test_a_bad_budget_is_refused(samples: int, rounds: int, explore: float) -> None:
    with pytest.raises(RummikubError):
        Budget(samples=samples, rounds=rounds, explore=explore)


# -- the review's arithmetic ---------------------------------------------------------------


def test_the_marks_start_at_their_thresholds() -> None:
    assert (review.INACCURACY, review.MISTAKE, review.BLUNDER) == (0.05, 0.10, 0.20)
    assert review.THRESHOLDS == (("??", 0.20), ("?", 0.10), ("?!", 0.05))
    assert [review.mark_of(x) for x in (0.0, 0.0499, 0.05, 0.0999, 0.1, 0.1999, 0.2, 1.0)] == [
        None,
        None,
        "?!",
        "?!",
        "?",
        "?",
        "??",
        "??",
    ]
    # As written: review.rounded to 4 decimals first.
    assert (review.written_mark(0.09996), review.written_mark(0.0999)) == ("?", "?!")
    assert review.rounded(0.123456) == 0.1235 and review.rounded(None) is None


def test_the_accuracy_falls_with_the_loss() -> None:
    assert review.ACCURACY_SCALE == 0.25
    assert review.accuracy_of(0.0) == 100.0 == review.accuracy_of(-0.1)
    assert [
        round(review.accuracy_of(x)) for x in (review.INACCURACY, review.MISTAKE, review.BLUNDER)
    ] == [82, 67, 45]
    assert review.lost_of(0.6, 0.4) == pytest.approx(0.2) and review.lost_of(0.4, 0.6) == 0.0


def test_a_turn_is_judged_against_the_best_candidate() -> None:
    best, other = _outcome("best", 0.7, 0.0), _outcome("other", 0.55, 0.0)
    found = review.judge([best, other], lambda c: c.label == "other", lambda: pytest.fail("apart"))
    assert (found.best, found.win, found.played_win, found.choices) == (best, 0.7, 0.55, 2)
    assert found.lost == pytest.approx(0.15)
    apart = review.judge([best, other], lambda c: False, lambda: (0.2, 0.5, 0.8))
    assert apart.played_win == pytest.approx(0.5) and apart.lost == pytest.approx(0.2)
    # A decision the playouts liked better than the best one lost nothing.
    assert review.judge([best], lambda c: False, lambda: (0.9,)).lost == 0.0


def test_the_luck_is_zero_on_average_over_the_draws() -> None:
    equities = {"a": 0.9, "b": 0.2, "c": 0.5}
    counts = Counter({"a": 2, "b": 5, "c": 1})
    lucks = {k: review.draw_luck(equities, counts, k) for k in equities}
    assert math.fsum(counts[k] * luck for k, luck in lucks.items()) == pytest.approx(0.0)
    assert lucks["a"] == pytest.approx(0.9 - (1.8 + 1.0 + 0.5) / 8)
    with pytest.raises(RummikubError, match="could not be drawn"):
        review.draw_luck(equities, counts, "z")


def test_the_draw_equities_play_every_kind_on_the_same_deals() -> None:
    search = RaceSearch()
    view = Seen(seat=0, at=(6, 6), dice=6)
    budget = Budget(samples=4, rounds=1)

    def drawing(deal: Race, face: int) -> Race:
        return search.apply(replace(deal, dice=(face, *deal.dice[1:])), "run")

    equities = review.draw_equities(search, view, FACES, drawing, budget, seed=5)
    assert list(equities) == list(FACES)
    assert equities[1] < equities[3]  # a bigger step is better luck
    dealt = deals(search, view, budget, seed=5)
    drawn = [s for s, d in search.applied if s.to_move == 0 and s.at == (6, 6)]
    assert [replace(s, dice=(0, *s.dice[1:])) for s in drawn] == [
        replace(d, dice=(0, *d.dice[1:])) for d in dealt
    ] * 3


@dataclass(frozen=True)
class Turn:
    seat: int
    graded: bool
    lost: float | None
    luck: float | None

    @property
    def mark(self) -> str | None:
        return review.written_mark(self.lost) if self.graded and self.lost is not None else None


def test_the_player_lines_sum_each_seat() -> None:
    turns = [
        Turn(0, True, 0.0, None),
        Turn(1, True, 0.12, None),
        Turn(0, True, 0.25, 0.1),
        Turn(1, False, 0.5, -0.3),  # no choice: not graded, but its luck counts
        Turn(0, False, None, None),
        Turn(1, True, 0.06, 0.05),
    ]
    ann, bob = review.lines(["Ann", "Bob"], turns)
    assert (ann.seat, ann.player, ann.graded, ann.draws) == (0, "Ann", 2, 1)
    assert ann.lost == 0.25 and ann.luck == 0.1
    assert ann.accuracy == pytest.approx((100.0 + review.accuracy_of(0.25)) / 2)
    assert ann.marks == (("?!", 0), ("?", 0), ("??", 1))
    assert bob.graded == 2 and bob.lost == pytest.approx(0.18) and bob.draws == 2
    assert bob.luck == pytest.approx(-0.25)
    assert dict(bob.marks) == {"?!": 1, "?": 1, "??": 0}
    assert bob.to_data() == {
        "seat": 1,
        "player": "Bob",
        "graded": 2,
        "lost": 0.18,
        "accuracy": round(bob.accuracy or 0.0, 1),
        "luck": -0.25,
        "draws": 2,
        "marks": {"?!": 1, "?": 1, "??": 0},
    }
    [nobody] = review.lines(["Cy"], [])
    assert nobody.accuracy is None and nobody.graded == 0 and nobody.luck == 0.0
