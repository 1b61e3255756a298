"""Max pooling's forward (convopt-pool-bwd-to-linalg, --lower-pool-bwd;
patterns/max_pool_fwd.py, forms/pool_max.py): every row of
pool_harness.max_pool_matrix() lowered, run by the reference interpreter
and compared exactly with PyTorch's values and indices; the IR's shape;
the errors."""

from __future__ import annotations

import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest

import convopt as api
from convopt.diagnostics import ConvoptError
from convopt.interp import run_text

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
import harness  # noqa: E402
import pool_harness as ph  # noqa: E402


def interpret(cfg: ph.MaxPoolFwdConfig, text: str) -> list:
    x = ph.max_pool_input(cfg)
    return run_text(text, "main", [harness.to_device(x, cfg.dtype)], name=cfg.name)


@pytest.mark.parametrize("cfg", ph.max_pool_matrix(), ids=lambda c: c.name)
def test_forward_interpreted_matches_torch_exactly(cfg: ph.MaxPoolFwdConfig) -> None:
    lowered = ph.lower(ph.max_pool_ir(cfg))
    assert "torch.aten.max_pool" not in lowered
    got = interpret(cfg, lowered)
    assert str(got[-1].dtype) == ("int64" if cfg.with_indices else str(harness.to_device(ph.max_pool_input(cfg), cfg.dtype).dtype))
    ph.compare_max_pool(cfg, got, ph.max_pool_reference(cfg, ph.max_pool_input(cfg)))


@pytest.mark.parametrize("values", ["ties", "nan", "-inf"])
def test_ties_nan_and_neginf_follow_pytorch(values: str) -> None:
    """Ties take the first maximum in window order, a NaN the last NaN, an
    all -inf window its first in-bounds position (padding 1 on both sides)."""
    for seed in range(3):
        cfg = ph.M(f"special_{values}_{seed}", spatial=(5, 6), kernel=3, stride=(1, 2), padding=1, values=values, seed=seed)
        ph.compare_max_pool(cfg, interpret(cfg, ph.lower(ph.max_pool_ir(cfg))), ph.max_pool_reference(cfg, ph.max_pool_input(cfg)))


def test_first_maximum_is_caught(monkeypatch) -> None:
    """The exact check can fail: taking the last of equal maxima (maxsi for minsi)."""
    cfg = ph.M("ties", kernel=3, stride=1, spatial=6, values="ties")
    good = ph.lower(ph.max_pool_ir(cfg))
    bad = good.replace("arith.minsi", "arith.maxsi").replace("9223372036854775807", "-9223372036854775808")
    assert bad != good
    with pytest.raises(AssertionError, match="indices differ"):
        ph.compare_max_pool(cfg, interpret(cfg, bad), ph.max_pool_reference(cfg, ph.max_pool_input(cfg)))


def test_maps_have_no_negative_coefficients() -> None:
    for cfg in ph.max_pool_matrix():
        text = ph.lower(ph.max_pool_ir(cfg))
        for m in re.findall(r"affine_map<[^>]*>", text):
            assert "-" not in m.split("->")[1], (cfg.name, m)


def test_the_issue_shapes() -> None:
    """[2,8,4,4], window 3, stride 2: a slice of the 3x3 the window reads,
    three generics (values, keys, decode); the ceil_mode [2,3,13,5] case:
    one row of -inf padding."""
    short = ph.lower(ph.max_pool_ir(ph.M("a", spatial=4, kernel=3, stride=2, channels=8)))
    assert short.count("linalg.generic") == 3 and "[2, 8, 3, 3]" in short and "tensor.pad" not in short
    ceil = ph.lower(ph.max_pool_ir(ph.M("b", spatial=(13, 5), kernel=5, stride=3, ceil_mode=True)))
    assert "high[0, 0, 1, 0]" in ceil and "tensor<2x3x4x1xi64>" in ceil


def test_values_alone_reduce_with_maximumf() -> None:
    text = ph.lower(ph.max_pool_ir(ph.M("v", kernel=3, stride=2, padding=1, spatial=7, with_indices=False)))
    assert "arith.maximumf" in text and "linalg.index" not in text and "i64" not in text


@pytest.mark.parametrize("cfg,shape,message", [
    (ph.M("pad", kernel=3, stride=2, padding=2, spatial=6), None, "expects padding between 0 and half the kernel size"),
    (ph.M("stride0", kernel=3, stride=(0, 1), spatial=6), (2, 3, 1, 1), "expects kernel_size, stride and dilation >= 1"),
    (ph.M("dil0", kernel=3, dilation=(1, 0), spatial=6), (2, 3, 2, 2), "expects kernel_size, stride and dilation >= 1"),
    (ph.M("empty", nd=1, kernel=3, dilation=3, spatial=4), (2, 3, 1), "has an empty output along spatial dim 0"),
    (ph.M("shape", kernel=2, spatial=6), (2, 3, 3, 2), "expects a result of shape [2,3,3,3] and element type f32"),
    (ph.M("rank", kernel=2, spatial=6, batched=False), (2, 3, 3, 3), "expects a result of shape [3,3,3]"),
])
def test_invalid_calls_are_located_errors(cfg, shape, message) -> None:
    with pytest.raises(ConvoptError) as e:
        api.lower(ph.max_pool_ir(cfg, shape), name="pool.mlir", pool_bwd=True)
    text = "\n".join(e.value.diagnostics)
    assert re.match(r"pool\.mlir:\d+:\d+: error: ", text) and message in text, text


def test_integer_input_is_unsupported() -> None:
    cfg = replace(ph.M("int", kernel=2, spatial=4), dtype="si64")
    with pytest.raises(ConvoptError, match="unsupported: element type si64"):
        api.lower(ph.max_pool_ir(cfg), name="pool.mlir", pool_bwd=True)
