"""The data-tiled matmul form (convopt/lowering/packed.py): the tiling rule,
the interpreter's pack/mmt4d/unpack, and lowered layers that take it checked
by the interpreter (the e2e tests and bench/emitted.py compile them with
IREE; test/e2e verifies them with torch-mlir-opt)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from convopt.interp import run_text
from convopt.lowering.packed import MMT4D_MIN_MACS, mmt4d_plan

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
import harness  # noqa: E402


def test_plan_picks_the_least_padding():
    stem = mmt4d_plan(64, 147, 6272, "bf16")  # 147 = 3*7*7: as rows of 8 (152), not columns of 16 (160)
    assert stem is not None and stem.swapped and (stem.m0, stem.n0, stem.k0) == (8, 16, 2)
    assert stem.executed == 152 * 64 * 6272
    dense = mmt4d_plan(64, 576, 6272, "f32")
    assert dense is not None and not dense.swapped and (dense.m0, dense.n0, dense.k0) == (16, 16, 1)


@pytest.mark.parametrize("shape,element", [((64, 64, 64), "bf16"), ((64, 20, 4096), "bf16"), ((512, 512, 512), "f16"), ((512, 512, 512), "f64"), ((None, 64, 4096), "bf16")])
def test_plan_keeps_the_matmul(shape, element):
    """Small, too much padding (20 -> 32), unmeasured types, dynamic."""
    assert mmt4d_plan(*shape, element) is None
    assert 64 * 64 * 64 < MMT4D_MIN_MACS


PACKED = """func.func @main(%a: tensor<5x7xf32>, %b: tensor<7x3xf32>) -> tensor<5x3xf32> {
  %z = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<3x4x2x2xf32>
  %pa = "linalg.pack"(%a, %ea, %z) <{inner_dims_pos = array<i64: 0, 1>, operandSegmentSizes = array<i32: 1, 1, 1, 0>, outer_dims_perm = array<i64: 0, 1>, static_inner_tiles = array<i64: 2, 2>}> : (tensor<5x7xf32>, tensor<3x4x2x2xf32>, f32) -> tensor<3x4x2x2xf32>
  %eb = tensor.empty() : tensor<1x4x4x2xf32>
  %pb = "linalg.pack"(%b, %eb, %z) <{inner_dims_pos = array<i64: 1, 0>, operandSegmentSizes = array<i32: 1, 1, 1, 0>, outer_dims_perm = array<i64: 1, 0>, static_inner_tiles = array<i64: 4, 2>}> : (tensor<7x3xf32>, tensor<1x4x4x2xf32>, f32) -> tensor<1x4x4x2xf32>
  %ec = tensor.empty() : tensor<3x1x2x4xf32>
  %c = linalg.fill ins(%z : f32) outs(%ec : tensor<3x1x2x4xf32>) -> tensor<3x1x2x4xf32>
  %m = linalg.mmt4d ins(%pa, %pb : tensor<3x4x2x2xf32>, tensor<1x4x4x2xf32>) outs(%c : tensor<3x1x2x4xf32>) -> tensor<3x1x2x4xf32>
  %eo = tensor.empty() : tensor<5x3xf32>
  %u = "linalg.unpack"(%m, %eo) <{inner_dims_pos = array<i64: 0, 1>, outer_dims_perm = array<i64: 0, 1>, static_inner_tiles = array<i64: 2, 4>}> : (tensor<3x1x2x4xf32>, tensor<5x3xf32>) -> tensor<5x3xf32>
  return %u : tensor<5x3xf32>
}
"""


def test_interpreter_pack_mmt4d_unpack_is_the_matmul():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((5, 7)).astype(np.float32), rng.standard_normal((7, 3)).astype(np.float32)
    (out,) = run_text(PACKED, "main", [a, b], name="t.mlir")
    np.testing.assert_allclose(out, a @ b, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", ["f32", "bf16"])
def test_lowered_stem_like_layer_takes_the_packed_form(dtype):
    """grad_weight of a 7x7 stride-2 layer with 3 input channels (147 rows,
    swapped, 8-row tiles), interpreted against PyTorch."""
    cfg = harness.Config(name="stem", dtype=dtype, batch=1, cin=3, cout=16, spatial=(64, 64), kernel=(7, 7), stride=(2, 2), padding=(3, 3),
                         dilation=(1, 1), groups=1, transposed=False, output_padding=(0, 0), mask=(False, True, False))
    text = harness.lower(harness.torch_ir(cfg))
    assert "linalg.mmt4d" in text and text.count('"linalg.pack"') == 2 and '"linalg.unpack"' in text
    go, x, w = (harness.round_to(v, dtype) for v in harness.inputs(cfg))
    (out,) = run_text(text, "main", [harness.to_device(v, dtype) for v in (go, x, w)], name="t.mlir")
    ref = harness.reference(cfg, go, x, w)[1]
    err = np.max(np.abs(np.asarray(out).astype(np.float64) - ref)) / max(1.0, float(np.max(np.abs(ref))))
    assert err <= harness.TOLERANCE[dtype]
