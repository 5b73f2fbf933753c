"""The equity's 95% interval is honest: on endgames that the exact search decides, the
estimate (the exact search switched off) holds the exact value about as often as it claims.

The endgames are tiny (3 colors of 1-6, one copy, no joker, racks of 5) and the playouts few,
so the test takes seconds; ``python -m benchmarks equity --analyse`` runs the same check on
more endgames and seeds (benchmarks/RESULTS.md, "analyse --equity").
"""

from __future__ import annotations

import functools
import math

import pytest

from benchmarks.equity import endgames, exact_value
from rummikub.tiles.game import endgame
from rummikub.tiles.game.engine import GameState
from rummikub.tiles.game.position_equity import equity
from rummikub.tiles.game.view import view_of
from rummikub.tiles.rules import Rules

RULES = Rules(numbers=6, colors="KRB", copies=1, jokers=0, initial_meld=0)
ENDGAMES, SEEDS, PLAYOUTS, ROUNDS = 16, 3, 8, 10


@functools.cache
def _cases() -> tuple[tuple[GameState, float], ...]:
    return tuple((state, exact_value(state)) for state in endgames(ENDGAMES, 5, RULES))


def _most_misses(n: int, p: float = 0.05, tail: float = 0.001) -> int:
    """The largest number of misses out of ``n`` that an honest 95% interval gives with
    probability at least 1 - ``tail`` (a one-sided binomial bound)."""
    total = 0.0
    for k in range(n + 1):
        total += math.comb(n, k) * p**k * (1 - p) ** (n - k)
        if total >= 1 - tail:
            return k
    return n


def test_the_bound() -> None:
    assert _most_misses(48) == 8  # scipy.stats.binom.ppf(0.999, 48, 0.05)
    assert _most_misses(1000) == 73


def test_the_interval_holds_the_exact_value_as_often_as_claimed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cases = _cases()
    assert {value for _, value in cases} >= {0.0, 1.0}  # won and lost endgames both

    def no_search(*args: object, **kwargs: object) -> object:
        raise AssertionError("the estimate must not use the exact search")

    monkeypatch.setattr(endgame, "decide", no_search)
    held = narrow = mean_held = total = 0
    for state, value in cases:
        position, view = view_of(state)
        for seed in range(SEEDS):
            found = equity(
                position,
                view=view,
                playouts=PLAYOUTS,
                rounds=ROUNDS,
                seed=seed,
                exact=False,
            )
            assert not found.exact
            low, high = found.ci
            held += low <= value <= high
            narrow += high - low < 1.0
            low, high = found.best.mean_ci
            mean_held += low <= value <= high
            total += 1
    assert total - held <= _most_misses(total), (held, total)
    # Not honest by saying nothing: many intervals are narrower than [0, 1].
    assert narrow >= total // 4, (narrow, total)
    # The interval of the mean alone (the sampling error, not the playouts' bias) is not
    # honest: that is why ``ci`` is the interval of the outcomes.
    assert total - mean_held > _most_misses(total), (mean_held, total)


def test_the_estimate_is_seeded() -> None:
    """The same seed gives the same estimate; another seed another line of playouts."""
    cases = _cases()
    position, view = view_of(cases[0][0])
    found = equity(position, view=view, playouts=PLAYOUTS, rounds=ROUNDS, seed=0, exact=False)
    again = equity(position, view=view, playouts=PLAYOUTS, rounds=ROUNDS, seed=0, exact=False)
    assert found == again  # seeded: the same estimate every time
    other = equity(position, view=view, playouts=PLAYOUTS, rounds=ROUNDS, seed=1, exact=False)
    assert other.seed == 1 and found.seed == 0
