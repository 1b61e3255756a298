"""The model suite's training steps in bf16 and f16 (bench/lowp/<name>.<dtype>.mlir,
made by `generate.py --dtype`: the whole step traced in that dtype, module,
inputs and grad_outs) through README's GPU recipe, compiled by IREE for the
CPU (llvm-cpu), run, and compared with PyTorch eager autograd in float64 on
the same (rounded) argument values.

The GPU recipe's IR is what IREE's GPU backends build (test/gpu); here its
numbers are checked where a device is at hand: the host CPU.  Pipeline
`gpu` (`convopt --lower-conv-bwd --lower-pool-bwd --device=gpu`), and for
the models whose forward convolutions torch-mlir cannot lower (r2plus1d,
model_zoo's known failures of the `iree` pipeline) `gpu-forward-convs`.

Tolerance: SPEC's, max|got - ref| / max(1, max|ref|) <= 5e-2 (bf16), 2e-2
(f16) -- a bound for one convolution_backward.  A whole step computed in
bf16 or f16 is further than that from float64 in PyTorch eager itself
(BatchNorm's and the other normalisations' backward: sums of products that
cancel, every intermediate rounded; ResNet-18 in bf16: 0.90 on a weight
gradient), and so is IREE's own lowering of the same step: on the CPU its
error is the same as that of convopt's output to three digits, result by
result (measured on resnext_block and mobilenet_v2_slice in f16), since
IREE lowers every op but the convolutions' backward the same way in both.
So a result may exceed SPEC's bound by as much as IREE's own lowering of
the raw import does (times RAW_FACTOR, the rounding order of two different
kernels); where the raw import does not build (transposed convolutions,
model_zoo's known failures), as much as the worst result of PyTorch eager
in the dtype (times EAGER_FACTOR).  Every error is printed (`-rP`): the
worst, how many results are above SPEC's bound, and the same for IREE's own
and for eager.  Integer results (num_batches_tracked) exactly.

The "gpu" sweep (make test-full): every model in both dtypes, and each
file is what generate.py makes now.  make test: none (the GPU builds of a
bf16 step are in test/gpu's fast slice).
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import time
from pathlib import Path

import model_pipelines as mp
import numpy as np
import pytest
import torch
from model_zoo import MODELS

HERE = Path(__file__).resolve().parent
LOWP = HERE.parents[1] / "bench" / "lowp"

DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16}
TOLERANCE = {"bf16": 5e-2, "f16": 2e-2}
"""SPEC section 5's relative tolerances."""
RAW_FACTOR = 1.25
"""A result may be this many times the error of IREE's own lowering of the
same step (the raw import) where that is above SPEC's bound."""
EAGER_FACTOR = 2.0
"""Where the raw import does not build: a result may be this many times the
worst error of PyTorch eager in the dtype over the step's results."""


def pipeline(name: str) -> str:
    """The GPU recipe, with --lower-forward-convs where IREE's own lowering
    of the forward convolutions fails (a known failure of the iree pipeline)."""
    return "gpu-forward-convs" if "iree" in dict(MODELS[name].known_failures) else "gpu"


def to_numpy(t: torch.Tensor) -> np.ndarray:
    """A tensor as IREE's runtime takes it (bf16 as ml_dtypes.bfloat16)."""
    t = t.detach().contiguous()
    if t.dtype == torch.bfloat16:
        import ml_dtypes

        return t.float().numpy().astype(ml_dtypes.bfloat16)
    return t.numpy()


@functools.cache
def case(name: str, dtype: str) -> tuple[list[np.ndarray], list[np.ndarray], list[float]]:
    """(arguments in dtype, float64 reference results, PyTorch eager's
    relative error in dtype per result): the reference is computed from the
    dtype-rounded argument values, so it is the exact answer for them."""
    spec = MODELS[name]
    lp = DTYPES[dtype]
    args = [a.to(lp) if a.is_floating_point() else a for a in spec.arguments(spec.run_batch)]
    ref = spec.reference(args)
    eager = spec.reference(args, lp)
    errors = [mp.relative_error(e.float().numpy(), r.numpy()) if r.is_floating_point() else 0.0 for e, r in zip(eager, ref)]
    return [to_numpy(a) for a in args], [to_numpy(r) for r in ref], errors


def cases() -> list:
    """Every step, a case of the "gpu" sweep (make test-full, with test/gpu's
    every GPU build): 32 steps, each built twice (convopt's and IREE's own),
    ~30 min on 2 cores; make test runs test/gpu's bf16 slice."""
    return [pytest.param(n, d, marks=pytest.mark.sweep("gpu")) for n in MODELS for d in DTYPES]


@pytest.mark.parametrize(("name", "dtype"), cases())
def test_lowp_step(name: str, dtype: str, tmp_path: Path) -> None:
    raw = LOWP / f"{name}.{dtype}.mlir"
    t0 = time.perf_counter()
    lowered = mp.GPU_PIPELINES[pipeline(name)](raw, tmp_path)
    text = lowered.path.read_text()
    assert mp.count_conv_bwd(text) == 0, f"{lowered.path}: convopt left a convolution_backward"
    lower_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    vmfb, _ = mp.compile_vmfb(lowered, tmp_path)
    compile_s = time.perf_counter() - t0
    args, ref, eager = case(name, dtype)
    got = mp.run_vmfb(vmfb, args)
    names = MODELS[name].result_names()
    assert len(got) == len(ref) == len(names), f"{len(got)} results, expected {len(ref)}"
    errors = mp.result_errors(names, got, ref)
    floor = {k: e for k, e in zip(names, eager) if k in errors}
    try:
        raw_vmfb, _ = mp.compile_vmfb(mp.Lowered(raw, "torch"), mp.workdir(tmp_path, "raw"))
        own: dict[str, float] | None = mp.result_errors(names, mp.run_vmfb(raw_vmfb, args), ref)
    except mp.StepFailed:
        own = None  # IREE cannot lower the raw import (transposed backward, torch-mlir's invalid forward IR)
    tol = TOLERANCE[dtype]
    if own is not None:
        limit = {k: max(tol, RAW_FACTOR * own[k]) for k in errors}
    else:
        limit = dict.fromkeys(errors, max(tol, EAGER_FACTOR * max(floor.values())))
    worst = max(errors, key=errors.__getitem__)

    def above(d: dict[str, float]) -> int:
        return sum(v > tol for v in d.values())

    print(f"{name} {dtype} / {pipeline(name)}: max relative error {errors[worst]:.2e} ({worst}), {above(errors)} of {len(errors)} "
          f"results above {tol:g}; IREE's own " + (f"{max(own.values()):.2e}, {above(own)} above" if own is not None else "does not build")
          + f"; PyTorch eager {dtype} {max(floor.values()):.2e}, {above(floor)} above; lower {lower_s:.1f}s, iree-compile {compile_s:.1f}s")
    bad = {k: v for k, v in errors.items() if v > limit[k]}
    assert not bad, f"{name} {dtype}: relative errors above the limit: " + ", ".join(
        f"{k} {v:.3g} (limit {limit[k]:.3g}, IREE's own {own[k] if own else float('nan'):.3g}, eager {floor[k]:.3g})" for k, v in bad.items())


@functools.cache
def _generate():
    loader = importlib.util.spec_from_file_location("models_generate_lowp", HERE / "generate.py")
    assert loader is not None and loader.loader is not None
    module = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(module)
    return module


@pytest.mark.filterwarnings("ignore:`isinstance\\(treespec, LeafSpec\\)` is deprecated:FutureWarning")
@pytest.mark.parametrize(("name", "dtype"), cases())
def test_lowp_file_is_fresh(name: str, dtype: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="torch")
    text = (LOWP / f"{name}.{dtype}.mlir").read_text()
    assert _generate().render(MODELS[name], dtype) == text, (
        f"bench/lowp/{name}.{dtype}.mlir is stale: run .venv/bin/python test/models/generate.py --dtype {dtype} -o bench/lowp {name}")
    assert mp.count_conv_bwd(text) == MODELS[name].conv_count()
