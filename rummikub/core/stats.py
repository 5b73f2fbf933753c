"""The intervals of the estimates self-play reports (win rates, mean scores, equities), for
both domains' games.

Every estimate the program prints comes with its 95% interval: a rate with Wilson's score
interval (sound near 0 and 1 and with few trials), a mean with the normal one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["Z95", "mean_ci", "wilson"]

#: 95% two-sided normal quantile.
Z95 = 1.959963984540054


def wilson(successes: float, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate (sound near 0 and 1 and for few trials).

    >>> [round(x, 3) for x in wilson(5, 10)]
    [0.237, 0.763]
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """The mean and its 95% normal interval (±1.96 standard errors; a point for one value).

    >>> mean_ci([1.0, 2.0, 3.0])[0]
    2.0
    """
    n = len(values)
    if n == 0:
        return (0.0, (0.0, 0.0))
    mean = math.fsum(values) / n
    if n == 1:
        return (mean, (mean, mean))
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    return (mean, (mean - half, mean + half))
