"""Fit the cost model's constants on timed candidates.

The model (../lowering/kernel/cost.py): a candidate's time is
sum_f work.f * costs.f + c, linear in the constants, with c the call of
the module (the same for every candidate of a kernel, fitted and left out
of the profile: it decides nothing).  The fit is non-negative least
squares on the relative error, with each constant pulled towards a prior
(the CPU class's profile) by a weak term, so that a unit the timed
kernels barely exercise keeps the class's value instead of an arbitrary one:

    minimize  sum_rows (pred_r / t_r - 1)^2  +  PRIOR_WEIGHT^2 * sum_f (costs_f / prior_f - 1)^2,   costs >= 0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

PRIOR_WEIGHT = 0.1
"""How strongly a constant is held to its prior: a hundredth of one timed
candidate's squared relative error.  Any unit a few candidates exercise
moves to what they measured: on timings synthesized from known costs
(test_calibrate.py), the fit's median error was 0.011 and its pick right
on 18/18 kernels at 0.1, 0.043 and 17/18 at 0.5 (the first set of 18 kernels)."""


def nnls(a: Any, b: Any, iterations: int = 20000) -> Any:
    """min |a x - b| with x >= 0 (coordinate descent on scaled columns)."""
    import numpy as np

    scale = np.linalg.norm(a, axis=0)
    scale[scale == 0] = 1.0
    a = a / scale
    gram, rhs = a.T @ a, a.T @ b
    x = np.zeros(a.shape[1])
    for _ in range(iterations):
        before = x.copy()
        for j in range(len(x)):
            if gram[j, j] > 0:
                x[j] = max(0.0, x[j] + (rhs[j] - gram[j] @ x) / gram[j, j])
        if np.max(np.abs(x - before)) < 1e-12 * max(1.0, np.max(np.abs(x))):
            break
    return x / scale


def fit(works: Sequence[Sequence[float]], seconds: Sequence[float], prior: Sequence[float] = (), prior_weight: float = PRIOR_WEIGHT) -> Any:
    """ns per unit of each work field, then the call constant (ns), fitted
    on the relative error; `prior` (one per field, 0: none) adds the pull
    towards it."""
    import numpy as np

    t = np.array(seconds, dtype=float) * 1e9
    a = np.array([(*w, 1.0) for w in works], dtype=float) / t[:, None]
    b = np.ones(len(t))
    extra = [(j, p) for j, p in enumerate(prior) if p > 0]
    if extra:
        rows = np.zeros((len(extra), a.shape[1]))
        for i, (j, p) in enumerate(extra):
            rows[i, j] = prior_weight / p
        a = np.vstack([a, rows])
        b = np.concatenate([b, np.full(len(extra), prior_weight)])
    return nnls(a, b)


def relative_errors(works: Sequence[Sequence[float]], seconds: Sequence[float], theta: Any) -> Any:
    """|predicted / measured - 1| per row."""
    import numpy as np

    pred = np.array([(*w, 1.0) for w in works], dtype=float) @ theta
    return np.abs(pred / (np.array(seconds, dtype=float) * 1e9) - 1)
