"""Interleaved timing rounds: every variant called once per round, each
round starting one variant later, so that load from other processes and
the machine's drift hit every variant alike, and round i of one variant can
be set against round i of another (a per-round ratio).

Also the per-op rows of bench/pool.py and bench/maxpool_study.py (median,
spread and ratio to PyTorch of such rounds) and their table.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Optional

from bench.load import QUIET, OthersBusy, paused, wait_quiet
from bench.stats import median


def _rounds(fns: dict[str, Callable[[], object]], repeats: int, caps: Optional[dict[str, int]] = None) -> dict[str, list[float]]:
    """Each callable's time in s in each of `repeats` rotated rounds (a
    callable with a cap in `caps` sits out the rounds after its cap)."""
    keys = list(fns)
    samples: dict[str, list[float]] = {k: [] for k in keys}
    for r in range(repeats):
        for k in keys[r % len(keys):] + keys[:r % len(keys)]:
            if caps and r >= caps.get(k, repeats):
                continue
            start = time.perf_counter()
            fns[k]()
            samples[k].append(time.perf_counter() - start)
    return samples


def interleaved_samples(fns: dict, repeats: int, quiet_wait: float = 0.0, stats: Optional[dict] = None,
                        caps: Optional[dict[str, int]] = None) -> dict[str, list[float]]:
    """Every round's time in s of each callable: one warm-up call each, then
    `repeats` interleaved rounds.  PyTorch's OpenMP threads spin at barriers
    and lose 100x and more when other processes oversubscribe the cores, so
    with quiet_wait > 0 the rounds wait for a quiet machine and are run again
    while other processes kept more than QUIET of the CPU busy during them,
    until quiet_wait s have passed (and, with $CONVOPT_BENCH_PAUSE_CWD, the
    processes in that folder are paused while they run: load.paused).  stats
    gets the other processes' busy share during the last rounds, whose
    samples are returned; caps: fewer rounds for the callables named."""
    for fn in fns.values():
        fn()
    deadline = time.monotonic() + quiet_wait
    while True:
        with paused():
            if quiet_wait > 0:
                wait_quiet(max(0.0, deadline - time.monotonic()))
            probe = OthersBusy().start()
            samples = _rounds(fns, repeats, caps)
            busy = probe.value()
        if stats is not None:
            stats["others_busy"] = busy
        if not busy > QUIET or time.monotonic() >= deadline:
            return samples


def interleaved_best(fns: dict, repeats: int, quiet_wait: float = 0.0, stats: Optional[dict] = None) -> dict[str, float]:
    """The best of interleaved_samples' rounds, per callable."""
    return {k: min(v) for k, v in interleaved_samples(fns, repeats, quiet_wait, stats).items()}


def best_per_call(fns: dict, n: int, rounds: int = 20) -> dict[str, float]:
    """The fastest round's time per call of each callable, in us: `rounds`
    rounds, each calling every callable n times in a row (calls too short
    to time one by one)."""
    best = {k: float("inf") for k in fns}
    for _ in range(rounds):
        for k, fn in fns.items():
            start = time.perf_counter()
            for _ in range(n):
                fn()
            best[k] = min(best[k], (time.perf_counter() - start) / n)
    return {k: 1e6 * v for k, v in best.items()}


def time_rounds(calls: dict, rounds: int) -> tuple[dict[str, list[float]], float]:
    """ms of each call in each of `rounds` interleaved rounds (after a
    warm-up call each), with the bench's helpers paused; and the others'
    share of the CPU meanwhile."""
    stats: dict = {}
    samples = interleaved_samples(calls, rounds, stats=stats)
    return {k: [s * 1e3 for s in v] for k, v in samples.items()}, stats["others_busy"]


def summary(name: str, dtype: str, times: dict[str, list[float]], busy: float, errors: dict) -> dict:
    """One op's row: median, min and max ms per variant, and the medians'
    ratio to PyTorch's."""
    med = {k: median(v) for k, v in times.items()}
    return {
        "layer": name, "dtype": dtype, "median_ms": med, "min_ms": {k: min(v) for k, v in times.items()},
        "max_ms": {k: max(v) for k, v in times.items()}, "errors": errors, "others_busy": busy,
        "ratio_to_pytorch": {k: med[k] / med["PyTorch"] for k in med if k != "PyTorch"},
    }


def report(rows: list[dict]) -> str:
    """The table of summary rows."""
    out = [f"{'layer':34} {'dtype':5} {'variant':11} {'median ms':>10} {'spread (min-max)':>18} {'x PyTorch':>9}  busy"]
    for row in rows:
        for k, med in row["median_ms"].items():
            ratio = row["ratio_to_pytorch"].get(k)
            spread = f"{row['min_ms'][k]:.3f}-{row['max_ms'][k]:.3f}"
            out.append(f"{row['layer']:34} {row['dtype']:5} {k:11} {med:10.3f} {spread:>18} {'' if ratio is None else f'{ratio:.2f}x':>9}  {row['others_busy']:.2f}")
    return "\n".join(out)
