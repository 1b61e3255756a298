"""End to end: max pooling's forward (`aten.max_pool{1,2,3}d` and
`..._with_indices`) through convopt --lower-pool-bwd, torch-mlir-opt's
verifier, IREE (llvm-cpu, compiled and run) and PyTorch: values and
indices equal exactly (pool_harness.max_pool_matrix: torch-mlir's invalid
shapes, 1-3 dims, dilation, padding, ceil_mode, ties, NaN, -inf, values
alone, unbatched, dynamic sizes, every dtype).  make test compiles the
FAST rows; the others are the "e2e-forms" sweep (--e2e-forms=all)."""

from __future__ import annotations

import pool_harness as ph
import pytest

FAST = {"2d_k3s2_out1", "2d_ceil_13x5_k5s3", "2d_k3s2p1_ceil", "2d_k3s1p1_nan", "1d_k4s3_ceil_dil2", "3d_k3s2p1_ceil", "2d_values_only",
        "2d_dynamic_spatial_ceil", "2d_bf16", "3d_empty_window_dil2p1"}
"""torch-mlir's two invalid shapes (the issue's regression cases) and one row per mechanism."""


@pytest.mark.parametrize("cfg", [pytest.param(c, id=c.name, marks=() if c.name in FAST else pytest.mark.sweep("e2e-forms")) for c in ph.max_pool_matrix()])
def test_max_pool_forward_matches_torch(cfg: ph.MaxPoolFwdConfig) -> None:
    ph.check_max_pool(cfg)


def test_recipe_flags() -> None:
    """The README's recipe (--lower-conv-bwd --lower-pool-bwd) lowers it too."""
    ph.check_max_pool(ph.M("2d_k3s2_out1_recipe", spatial=4, kernel=3, stride=2, channels=8), ("--lower-conv-bwd", "--lower-pool-bwd"))
