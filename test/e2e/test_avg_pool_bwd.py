"""End to end: average-pooling backward through convopt --lower-pool-bwd,
IREE (llvm-cpu) and PyTorch, over the configuration space of
pool_harness.matrix().  make test: the FAST slice on the default forms and
two rows on each other path; the other cases are the "e2e-forms" sweep
(--e2e-forms=all, make test-full: every row on every path)."""

from __future__ import annotations

import pool_harness as ph
import pytest
from e2e_results import record

PATHS = {
    "auto": ("--lower-pool-bwd",),
    "recipe": ("--lower-conv-bwd", "--lower-pool-bwd"),
    "avx2": ("--lower-pool-bwd", "--device=avx2"),
    "gpu-forms": ("--lower-pool-bwd", "--device=gpu"),
    "im2col": ("--lower-pool-bwd", "--conv-form=im2col"),
    "named": ("--lower-pool-bwd", "--conv-form=named"),
}
OTHER_PATH_ROWS = {"2d_k3s2p1_ceil_exclude", "3d_k2s2"}
SWEEP = pytest.mark.sweep("e2e-forms")


def _cases() -> list:
    """Every row on every path; beyond the slice a case of the sweep."""
    return [pytest.param(c, p, id=f"{c.name}-{p}", marks=() if c.name in (ph.FAST if p == "auto" else OTHER_PATH_ROWS) else SWEEP)
            for p in PATHS for c in ph.matrix()]


@pytest.mark.parametrize("cfg,path", _cases())
def test_pool_backward_matches_torch(cfg: ph.PoolConfig, path: str) -> None:
    err = ph.check(cfg, PATHS[path])
    record({"path": f"pool-{path}", "name": cfg.name, "errors": [err], "executed": 0, "useful": 0})
