"""Summaries of repeated timings: median, quartiles, geometric mean."""

from __future__ import annotations

import math
from collections.abc import Sequence


def median(xs: Sequence[float]) -> float:
    """The middle value (the mean of the two middle ones for an even count)."""
    ys = sorted(xs)
    mid = len(ys) // 2
    return ys[mid] if len(ys) % 2 else (ys[mid - 1] + ys[mid]) / 2


def quartiles(xs: Sequence[float]) -> tuple[float, float, float]:
    """(first quartile, median, third quartile), linear between ranks:
    q(f) = y[i] + (y[i+1] - y[i]) * (p - i) with p = f * (n - 1), i = floor(p)
    over the sorted values y."""
    ys = sorted(xs)

    def q(f: float) -> float:
        pos = f * (len(ys) - 1)
        lo = int(pos)
        return ys[lo] + (ys[min(lo + 1, len(ys) - 1)] - ys[lo]) * (pos - lo)

    return q(0.25), q(0.5), q(0.75)


def geomean(xs: Sequence[float]) -> float:
    """exp(mean(log x)): the mean of ratios."""
    return math.exp(sum(map(math.log, xs)) / len(xs))
