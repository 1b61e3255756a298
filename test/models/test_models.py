"""The real-model suite: whole backward graphs (test/models/*.mlir, made by
generate.py from model_zoo.MODELS) through every pipeline of
model_pipelines.PIPELINES, compiled by IREE (llvm-cpu, host CPU), run, and
compared with PyTorch eager autograd in float64.

For each model and pipeline:
* the raw file holds one convolution_backward per convolution of the model
  (and at least one); torch-mlir's frontend stage keeps them all;
* nothing convopt printed holds a convolution_backward, and what goes into
  iree-compile after torch-mlir's linalg stage holds no torch dialect;
* every result (parameter gradients, input gradients of the blocks, updated
  BatchNorm statistics) matches: max|got - ref| / max(1, max|ref|) within
  the model's tolerance (1e-4 unless model_zoo says why not); integer
  results (num_batches_tracked) exactly.

Run with `-rP` to see each case's errors and step times.

make test runs every model through the IREE recipe (the README's main one)
and torch-mlir's stages and the one command on the models that exercise
what sets them apart (a static graph, symbolic shapes, 1-D); the raw-graph
check on all but the two largest graphs (their tracing takes longest).
--models=all (make test-full, CI) runs every model on every pipeline (the
other cases are a sweep: test/conftest.py).
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import os
import re
import time
from pathlib import Path

import model_pipelines as mp
import numpy as np
import pytest
import torch
from model_zoo import MODELS

HERE = Path(__file__).resolve().parent

FIRST_EIGHT = {"resnet18", "mobilenet_v2_slice", "unet", "audio_encoder", "video_block", "resnext_block", "dynamic_batch_cnn",
               "convnext_channels_last"}
"""The suite's first models; the families added later (issue 24's wider
suite) run in make test through the README's recipe only."""
FAST_MODELS = {
    "iree": FIRST_EIGHT,
    "torch-mlir-stages": {"resnext_block", "dynamic_batch_cnn", "audio_encoder"},
    "one-command": {"resnext_block", "dynamic_batch_cnn"},
    "iree-forward-convs": {"video_block", "audio_encoder", "dynamic_batch_cnn"} | (set(MODELS) - FIRST_EIGHT),
    "raw": FIRST_EIGHT - {"resnet18", "convnext_channels_last"} | {"c3d", "dcgan_generator"},
    "convopt-run": {"unet", "dynamic_batch_cnn", "audio_encoder"},
    "convopt-run-iree": {"unet", "convnext_channels_last", "audio_encoder"},
    "gpu-forward-convs": {"unet"},
}
"""The models each pipeline (and the raw-graph check) runs on in make test."""


GPU_FORMS_MODELS = {"resnet18", "unet"}
"""--models=all runs the GPU forms on these too: the models with a 2-D max pool they gather."""


def cases(pipeline: str) -> list[tuple[str, bool]]:
    """(model, whether make test runs it) for each model `pipeline` runs on
    under --models=all: every model, but the GPU forms only on GPU_FORMS_MODELS."""
    every = FAST_MODELS[pipeline] | GPU_FORMS_MODELS if pipeline == "gpu-forward-convs" else set(MODELS)
    return [(n, n in FAST_MODELS[pipeline]) for n in MODELS if n in every]


def param(*values: str, fast: bool):
    """A pytest case; beyond FAST_MODELS one of the "models" sweep (--models=all)."""
    return pytest.param(*values, marks=() if fast else pytest.mark.sweep("models"))


TORCH_LEFT = re.compile(r"!torch\.|\btorch\.(aten|prim|prims|constant|symbolic_int|bind_symbolic_shape)\b")
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')  # string literals (cf.assert messages name torch ops)


@functools.cache
def case(name: str) -> tuple[list[np.ndarray], list[np.ndarray], float]:
    """(arguments, float64 reference results, float32 eager error): the
    arguments at the spec's run batch; the float32 eager error is how far
    PyTorch itself in float32 is from the float64 reference (the noise floor)."""
    spec = MODELS[name]
    args = spec.arguments(spec.run_batch)
    ref = spec.reference(args)
    ref32 = spec.reference(args, torch.float32)
    eager = max(mp.relative_error(a.numpy(), b.numpy()) for a, b in zip(ref32, ref) if b.is_floating_point())
    to_np = lambda t: t.detach().contiguous().numpy()  # noqa: E731  (channels-last tensors: logical NCHW order)
    return [to_np(a) for a in args], [to_np(r) for r in ref], eager


@functools.cache
def _load_generate():
    """generate.py, under a name no other test directory's module can take
    (test/inputs has a generate.py too)."""
    loader = importlib.util.spec_from_file_location("models_generate", HERE / "generate.py")
    assert loader is not None and loader.loader is not None
    module = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def vmfb_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory for compiled modules shared by the session's xdist workers."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    return root / "models-vmfb"


# torch 2.13's export deprecates a pytree spelling it uses itself (FutureWarning from copyreg).
@pytest.mark.filterwarnings("ignore:`isinstance\\(treespec, LeafSpec\\)` is deprecated:FutureWarning")
@pytest.mark.parametrize("name", [param(n, fast=f) for n, f in cases("raw")])
def test_raw_graph(name: str, caplog: pytest.LogCaptureFixture) -> None:
    """The checked-in file is what generate.py makes now, and it is the graph
    the spec describes."""
    generate = _load_generate()
    caplog.set_level(logging.WARNING, logger="torch")  # tracing logs every step at DEBUG

    spec = MODELS[name]
    text = (HERE / spec.file).read_text()
    assert generate.render(spec) == text, f"{spec.file} is stale: run .venv/bin/python test/models/generate.py {name}"
    n = mp.count_conv_bwd(text)
    assert n == spec.conv_count() > 0, f"{spec.file}: {n} convolution_backward ops, the model has {spec.conv_count()} convolutions"
    assert ("torch.symbolic_int" in text and "torch.bind_symbolic_shape" in text) == spec.dynamic_batch
    signature = next(line for line in text.splitlines() if "func.func @main" in line)
    assert ("[?," in signature) == spec.dynamic_batch
    results = signature.split("->", 1)[1]
    assert results.count("!torch.vtensor") == len(spec.result_names())


def build(name: str, pipeline: str, tmp_path: Path, vmfb_cache: Path, times: dict[str, float]) -> Path:
    """The model through the pipeline and iree-compile, checking what each
    stage left; the module (a StepFailed where a command fails)."""
    raw = HERE / MODELS[name].file
    n_conv = mp.count_conv_bwd(raw.read_text())
    t0 = time.perf_counter()
    lowered = mp.PIPELINES[pipeline](raw, tmp_path)
    times["lower"] = time.perf_counter() - t0
    for path in lowered.convopt_outputs:
        left = mp.count_conv_bwd(path.read_text())
        assert left == 0 and mp.CONV_BWD not in path.read_text(), f"{path}: convopt left {left} of {n_conv} convolution_backward ops"
        assert not mp.AVG_POOL_BWD.search(path.read_text()), f"{path}: convopt left an avg_pool backward op"
    if pipeline in ("iree-forward-convs", "gpu-forward-convs"):
        assert "torch.aten.convolution " not in lowered.path.read_text(), f"{lowered.path}: a forward aten.convolution was left"
    if "frontend" in lowered.stages:
        kept = mp.count_conv_bwd(lowered.stages["frontend"].read_text())
        assert kept == n_conv, f"torch-mlir's frontend stage kept {kept} of {n_conv} convolution_backward ops"
    if lowered.input_type != "torch":
        m = TORCH_LEFT.search(STRING.sub('""', lowered.path.read_text()))
        assert m is None, f"{lowered.path}: torch dialect left after the linalg stage ({m.group(0) if m else ''})"
    t0 = time.perf_counter()
    vmfb, cached = mp.compile_vmfb(lowered, tmp_path, vmfb_cache)
    times["iree-compile (same module compiled before)" if cached else "iree-compile"] = time.perf_counter() - t0
    return vmfb


@pytest.mark.parametrize(("name", "pipeline"), [param(n, p, fast=f) for p in mp.PIPELINES for n, f in cases(p)])
def test_model(name: str, pipeline: str, tmp_path: Path, vmfb_cache: Path) -> None:
    spec = MODELS[name]
    n_conv = mp.count_conv_bwd((HERE / spec.file).read_text())
    assert n_conv == spec.conv_count() > 0
    known = dict(spec.known_failures).get(pipeline)
    times: dict[str, float] = {}
    try:
        vmfb = build(name, pipeline, tmp_path, vmfb_cache, times)
    except mp.StepFailed as e:
        if not known:
            raise
        assert spec.known_error in e.stderr, f"{name} / {pipeline} fails otherwise than model_zoo's known failure says ({spec.known_error!r}):\n{e}"
        pytest.xfail(known)
    assert not known, f"{name} / {pipeline} builds now: remove its known failure from model_zoo"

    args, ref, eager_error = case(name)
    t0 = time.perf_counter()
    got = mp.run_vmfb(vmfb, args)
    times["run"] = time.perf_counter() - t0

    names = spec.result_names()
    assert len(got) == len(ref) == len(names), f"{len(got)} results, expected {len(ref)}"
    errors = mp.result_errors(names, got, ref)
    worst = max(errors, key=errors.__getitem__)
    print(f"{name} / {pipeline}: {n_conv} convolution_backward, max relative error {errors[worst]:.2e} ({worst}), "
          f"float32 eager {eager_error:.2e}; " + ", ".join(f"{k} {v:.1f}s" for k, v in times.items()))
    bad = {k: v for k, v in errors.items() if v > spec.tolerance}
    assert not bad, f"{name} / {pipeline}: relative errors above {spec.tolerance}: " + ", ".join(f"{k} {v:.3g}" for k, v in bad.items())


def test_strided_kx1x1_forward_conv(tmp_path: Path) -> None:
    """repro/strided_kx1x1_forward_conv.mlir: IREE's own torch input still
    fails on torch-mlir's invalid IR (when it builds, r2plus1d's known
    failure is gone: drop it), and convopt --lower-forward-convs builds it
    and computes PyTorch's conv3d."""
    src = HERE / "repro" / "strided_kx1x1_forward_conv.mlir"
    with pytest.raises(mp.StepFailed, match="inferred input/output operand #1"):
        mp.compile_vmfb(mp.Lowered(src, "torch"), mp.workdir(tmp_path, "raw"))
    vmfb, _ = mp.compile_vmfb(mp.iree_forward_convs(src, mp.workdir(tmp_path, "convopt")), mp.workdir(tmp_path, "convopt"))
    gen = torch.Generator().manual_seed(0)
    x, w = torch.randn(2, 48, 2, 4, 4, generator=gen), torch.randn(64, 48, 3, 1, 1, generator=gen)
    (got,) = mp.run_vmfb(vmfb, [x.numpy(), w.numpy()])
    ref = torch.nn.functional.conv3d(x.double(), w.double(), stride=(2, 1, 1), padding=(1, 0, 0))
    assert mp.relative_error(got, ref.numpy()) < 1e-4


def convopt_run_matches(name: str, lowered: mp.Lowered, tmp_path: Path) -> None:
    """convopt-run --compare on a pipeline's module, with the model's
    arguments and PyTorch's results in one .npz, at the model's tolerance."""
    args, ref, _ = case(name)
    reference = tmp_path / "ref.npz"
    np.savez(reference, **{f"arg{i}": a for i, a in enumerate(args)}, **{f"out{i}": r for i, r in enumerate(ref)})
    out = mp.run([mp.tool("convopt-run"), str(lowered.path), "--inputs", str(reference), "--compare", str(reference), "--rtol", str(MODELS[name].tolerance)])
    assert out.startswith(f"convopt-run: {len(ref)} results match {reference}"), out


@pytest.mark.parametrize("name", [param(n, fast=f) for n, f in cases("convopt-run-iree")])
def test_convopt_run_checks_the_iree_route(name: str, tmp_path: Path) -> None:
    """convopt-run --compare on the IREE recipe's module (linalg and the torch
    ops IREE's torch input takes: batch norm's, relu, gelu, sigmoid, tanh, mm,
    view, cat, split_with_sizes, index.Tensor, avg_pool, max_pool2d/3d with
    indices and the 2-D backward ...)."""
    convopt_run_matches(name, mp.iree_forward_convs(HERE / MODELS[name].file, tmp_path), tmp_path)


@pytest.mark.parametrize("name", [param(n, fast=f) for n, f in cases("convopt-run")])
def test_convopt_run_checks_the_whole_step(name: str, tmp_path: Path) -> None:
    """convopt-run --compare on the one command's pure linalg: the reference
    interpreter runs the whole training step (pooling, tensor.concat,
    tm_tensor.scatter, cf.assert, affine.apply, dense_resource constants:
    what torch-mlir's linalg stage emits for the suite) and matches PyTorch
    within the model's tolerance.  make test runs the models that need each
    of those; --models=all every model (one to six seconds of
    interpreting each).  Where torch-mlir's linalg stage cannot take the
    model's forward convolutions (its one-command known failure), convopt
    lowers them first, as the known failure says."""
    route = mp.one_command_forward_convs if "one-command" in dict(MODELS[name].known_failures) else mp.one_command
    convopt_run_matches(name, route(HERE / MODELS[name].file, tmp_path), tmp_path)
