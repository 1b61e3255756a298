"""Average-pooling backward (convopt-pool-bwd-to-linalg, --lower-pool-bwd):
every row of the pool matrix (test/e2e/pool_harness.py) lowered on each
form and device class, run by the reference interpreter and compared with
PyTorch; the command line, the pipeline and the API; the errors."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import numpy as np
import pytest
from unit_helpers import convopt, ok

import convopt as api
from convopt.interp import run_text
from convopt.lowering.choices import Device
from convopt.pass_options import KernelOptions
from convopt.pipelines import PipelineOptions, default_pipeline

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
import harness  # noqa: E402
import pool_harness as ph  # noqa: E402

PATHS = {
    "auto": ("--lower-pool-bwd",),
    "gpu": ("--lower-pool-bwd", "--device=gpu"),
    "avx2": ("--lower-pool-bwd", "--device=avx2"),
    "generic": ("--lower-pool-bwd", "--conv-form=generic"),
    "named": ("--lower-pool-bwd", "--conv-form=named"),
    "im2col": ("--lower-pool-bwd", "--conv-form=im2col"),
}


@functools.cache
def expected_and_inputs(cfg: ph.PoolConfig) -> tuple[np.ndarray, list]:
    go, x = ph.inputs(cfg)
    return ph.reference(cfg, go, x), [harness.to_device(a, cfg.dtype) for a in (go, x)]


@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize("cfg", ph.matrix(), ids=lambda c: c.name)
def test_pool_backward_interpreted_matches_torch(cfg: ph.PoolConfig, path: str) -> None:
    expected, device = expected_and_inputs(cfg)
    got = run_text(ph.lower(ph.torch_ir(cfg), PATHS[path]), "main", device, name=cfg.name)
    assert got[0].dtype == device[0].dtype
    ph.compare(cfg, got[0].astype(np.float64), expected)


def test_uniform_divisor_is_the_weight_and_the_rest_divides_grad_output() -> None:
    """count_include_pad with full windows: a constant weight 1/prod(K), no
    division; count_include_pad=false with padding: grad_output divided per
    window (from linalg.index), a weight of ones."""
    plain = ph.lower(ph.torch_ir(ph.P("k2s2")))
    assert "2.500000e-01" in plain and "arith.divf" not in plain and "linalg.index" not in plain
    exclude = ph.lower(ph.torch_ir(ph.P("x", kernel=3, stride=1, padding=1, count_include_pad=False)))
    assert "arith.divf" in exclude and "linalg.index" in exclude and "1.000000e+00" in exclude
    override = ph.lower(ph.torch_ir(ph.P("d", kernel=3, stride=2, padding=1, spatial=8, ceil_mode=True, divisor_override=4)))
    assert "2.500000e-01" in override and "arith.divf" not in override


def test_pipeline_cli_and_api() -> None:
    text = ph.torch_ir(ph.P("k3s2p1", kernel=3, stride=2, padding=1, spatial=9))
    assert default_pipeline(PipelineOptions(lower_pool_bwd=True)) == (
        "builtin.module(func.func(convopt-drop-symbolic-shapes, convopt-pool-bwd-to-linalg, convopt-cleanup), convopt-finalize-boundary)"
    )
    with_conv = default_pipeline(PipelineOptions(lower_conv_bwd=True, lower_pool_bwd=True, kernel=KernelOptions(device=Device.GPU)))
    assert "convopt-conv-bwd-to-linalg{device=gpu}, convopt-pool-bwd-to-linalg{device=gpu}, convopt-cleanup" in with_conv
    # --lower-conv-bwd alone leaves the op (its pipeline is unchanged); the flag adds the pass
    assert "convopt-pool-bwd-to-linalg" not in default_pipeline(PipelineOptions(lower_conv_bwd=True))
    alone = ok(convopt("--lower-pool-bwd", "-", stdin=text.encode())).decode()
    both = ok(convopt("--lower-conv-bwd", "--lower-pool-bwd", "-", stdin=text.encode())).decode()
    pipeline = ok(convopt(f"--pass-pipeline={default_pipeline(PipelineOptions(lower_pool_bwd=True))}", "-", stdin=text.encode())).decode()
    assert alone == both == pipeline == api.lower(text, pool_bwd=True)
    assert "torch." not in alone and "linalg.generic" in alone
    assert "avg_pool2d_backward" in api.lower(text)
    assert b"convopt-pool-bwd-to-linalg" in ok(convopt("--list-passes"))
    bad = convopt("--lower-pool-bwd", "--decompose-conv-bwd", "-", stdin=text.encode())
    assert bad.returncode == 2 and b"--lower-pool-bwd" in bad.stderr


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda t: t.replace("f32", "si64"), "unsupported: element type si64"),
        (lambda t: t.replace("%ceil = torch.constant.bool false", "%ceil = torch.aten.Bool.int %p0 : !torch.int -> !torch.bool"),
         "unsupported: non-constant ceil_mode or count_include_pad"),
        (lambda t: t.replace("%p0 = torch.constant.int 1", "%p0 = torch.constant.int 2"), "expects padding between 0 and half the kernel size"),
        (lambda t: t.replace("[2,3,4,4]", "[2,3,5,5]"), "expects grad_output size 4 along spatial dim 0 (input 8), got 5"),
        (lambda t: t.replace("%div = torch.constant.none", "%div = torch.constant.int 0").replace("!torch.bool, !torch.none", "!torch.bool, !torch.int"),
         "expects a non-zero divisor_override"),
    ],
)
def test_errors_are_located(change, message) -> None:
    text = change(ph.torch_ir(ph.P("k3s2p1", kernel=3, stride=2, padding=1, spatial=8)))
    proc = convopt("--lower-pool-bwd", "-", stdin=text.encode())
    assert proc.returncode == 1 and message in proc.stderr.decode(), proc.stderr.decode()
    assert b"<stdin>:" in proc.stderr and b"Traceback" not in proc.stderr


def test_avg_pool3d_input_smaller_than_the_kernel_is_refused() -> None:
    """PyTorch's avg_pool3d checks input >= kernel along every dim (padding
    not counted); avg_pool2d does not (found by test/fuzz/window.py)."""
    import re

    cfg = ph.P("small", nd=3, spatial=(3, 4, 4), kernel=(2, 1, 5), stride=(1, 2, 3), padding=(0, 0, 1))
    with pytest.raises(api.ConvoptError) as e:
        api.lower(ph.torch_ir(cfg), name="pool.mlir", pool_bwd=True)
    assert re.match(r"pool\.mlir:\d+:\d+: error: .*expects an input at least as large as the kernel along spatial dim 2 \(input size 4, kernel 5\)", e.value.diagnostics[0])
    api.lower(ph.torch_ir(ph.P("ok2d", spatial=(4, 4), kernel=(1, 5), padding=(0, 1))), pool_bwd=True)  # 2-D: accepted, as PyTorch does


def test_max_pool3d_backward_checks_grad_output_and_empty_outputs() -> None:
    import test_max_pool_bwd as mpb

    cfg = mpb.MaxPoolConfig("x", spatial=(4, 6, 6))
    with pytest.raises(api.ConvoptError, match=r"expects grad_output size 3 along spatial dim 2 \(input 6\), got 2"):
        api.lower(mpb.torch_ir(cfg, (2, 3, 4, 6, 6), (2, 3, 2, 3, 2)), pool_bwd=True)
    empty = mpb.MaxPoolConfig("e", spatial=(4, 6, 1), kernel=(2, 2, 2))
    with pytest.raises(api.ConvoptError, match="has an empty output along spatial dim 2"):
        api.lower(mpb.torch_ir(empty, (2, 3, 4, 6, 1), (2, 3, 2, 3, 1)), pool_bwd=True)
