"""bench/models: whole backward steps of real models, compiled by IREE, next to PyTorch eager.

For every model of test/models/model_zoo.py (the raw FX import
test/models/<name>.mlir: one training step's forward and backward as a
function of inputs, weights, buffers and cotangents), the same graph goes
through five pipelines, each compiled by IREE (llvm-cpu,
--iree-llvmcpu-target-cpu=host) and run by its local-task runtime:

  convopt + IREE         raw -> convopt --lower-conv-bwd --lower-pool-bwd -> iree-compile --iree-input-type=torch
  convopt + torch-mlir   raw -> torch-mlir-opt frontend stage (convolution_backward legal)
                         -> convopt --lower-conv-bwd -> torch-mlir-opt linalg stage -> iree-compile
  torch-mlir direct      raw -> frontend stage (convolution_backward legal) -> linalg stage
                         (torch-mlir's TorchToLinalg lowers convolution_backward itself)
  torch-mlir decomposed  raw -> frontend stage (convolution_backward decomposed) -> linalg stage
  IREE torch input       raw -> iree-compile --iree-input-type=torch (IREE's own torch lowering)
  PyTorch                the eager module: forward and torch.autograd.grad, float32, on the CPU

  frontend stage  builtin.module(torch-function-to-torch-backend-pipeline[{backend-legal-ops=aten.convolution_backward}])
  linalg stage    builtin.module(torch-backend-to-linalg-on-tensors-backend-pipeline)

Every step is the tool's command line (the binaries next to this Python),
so a failing step is reported with its first error line, not a crash.  Each
variant's results (every gradient and the updated BatchNorm statistics) are
compared with PyTorch eager autograd in float64: the "max rel err" column is
max|got - ref| / max(1, max|ref|) over the float results (an integer result
that differs makes it "int!"); a variant above the model's tolerance is
marked WRONG and left out of the ratios, so a fast but wrong pipeline shows.

Timing.  The compiled modules run in this process through iree.runtime
(one local-task device, --task_topology_max_group_count=--threads), with
their arguments put on the device once: the timed call is the computation,
not copies between numpy and IREE buffers (PyTorch makes none).  PyTorch
runs in the same process with torch.set_num_threads(--threads).  Every
variant and PyTorch are timed the same way: one warm-up call each, then
--repeats rounds that call each of them once (perf_counter), each round
starting one variant later; the table gives each variant's median, and the
recipe's table each ratio's median over the rounds with its range (round i
of one variant against round i of the other): interleaving makes load from
other processes and drift hit all alike, and the range says how stable a
ratio was in the run (PyTorch's own time here moves by up to 1.8x between
runs).
In-process rather than iree-benchmark-module because both sides are then
timed by the same clock and loop, and the results checked are those of the
module timed (no .npy files of the ~100 arguments).  The machines here are
shared: PyTorch's OpenMP threads spin at barriers and lose 100x and more
when other processes oversubscribe the cores (IREE's workers sleep), so
--quiet-wait S waits up to S s before each timing loop for the machine to
be nearly idle, and the table notes how busy it was when it was not.
--baseline REF adds "convopt fwd + IREE @REF", the recipe with convopt as
committed at git REF, timed in the same rounds: a change against what it
replaces, in one run.

Analysis (optional, for where the time goes):
  --profile  iree-benchmark-module (same device and threads) with HAL
             host-execution profiling on convopt's faster pipeline and on
             the fastest other IREE pipeline: per call, the dispatch time by
             dispatch kind (conv, matmul_like, reduction, ...) and the top
             dispatches (iree-profile dispatch).  The sum of each
             dispatch's fastest run is the load-free estimate.
  --ops      each convolution_backward of the model alone (its shapes and
             output_mask, taken from the eager module with forward hooks, as
             bench/emitted's torch IR): convopt --lower-conv-bwd and
             torch-mlir direct, both through IREE, next to PyTorch's
             aten.convolution_backward, and the sum over the model next to
             the whole step: how much of it is convolution backward.

Tool wall time, per model, in the same run (best of 3 runs of each command,
start-up included): convopt's stage (`convopt --lower-conv-bwd` on the
frontend stage's output) next to torch-mlir-opt doing the same stage on the
same file (`func.func(convert-torch-to-linalg)`, which lowers every torch
op, conv backward included), and the one command
`convopt --lower-conv-bwd --torch-mlir-stages` on the raw file (frontend
stage, convopt and linalg stage in one process; its output is compared with
the three-command chain's) next to torch-mlir-opt's two stages of
torch-mlir direct.  The "lower s" and "compile s" columns are the lowering
chain's and iree-compile's wall time of each variant.

Prints a table per model and a summary (convopt's faster pipeline /
fastest other IREE pipeline, / PyTorch, tool times), and writes
bench/results/NAME.<host>.txt, .json and .png (--name, default models.suite;
<host>: bench/host.py's tag, with the IREE target CPU when not the host's).

    python -m bench.models [--models a,b] [--repeats 5] [--threads 2] [--work DIR]
                           [--profile] [--ops] [--quiet-wait S] [--convopt-flags FLAGS] [--name NAME]
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from bench import baseline, host
from bench.load import QUIET, children_cpu
from bench.stats import geomean, median, quartiles
from bench.testsupport import load
from bench.timing import interleaved_best, interleaved_samples

HERE = Path(__file__).resolve().parent
MODELS_DIR = HERE.parent / "test" / "models"
_model_zoo = load("model_zoo")
_CONVS, MODELS, ModelSpec = _model_zoo._CONVS, _model_zoo.MODELS, _model_zoo.ModelSpec

BIN = Path(sys.executable).parent
TIMEOUT = 1800
TOOL_RUNS = [3]  # --tool-runs: runs per tool command (0: no tool wall times)
INDUCTOR_CACHE = [False]  # --inductor-cache: keep Inductor's caches (a warm build: its build column is not cold)
CONV_BWD = "torch.aten.convolution_backward"
FRONTEND = "builtin.module(torch-function-to-torch-backend-pipeline{backend-legal-ops=aten.convolution_backward})"
FRONTEND_DECOMPOSED = "builtin.module(torch-function-to-torch-backend-pipeline)"
LINALG = "builtin.module(torch-backend-to-linalg-on-tensors-backend-pipeline)"
TM_CONVERT = "builtin.module(func.func(convert-torch-to-linalg))"
IREE_FLAGS = ["--iree-hal-target-backends=llvm-cpu", "--iree-llvmcpu-target-cpu=host"]  # --target-cpu replaces the CPU

# stage name -> (tool, arguments, input stage); "raw" is the imported file
STAGES: dict[str, tuple[str, tuple[str, ...], str]] = {
    "frontend": ("torch-mlir-opt", (f"--pass-pipeline={FRONTEND}",), "raw"),
    "frontend-decomposed": ("torch-mlir-opt", (f"--pass-pipeline={FRONTEND_DECOMPOSED}",), "raw"),
    "convopt(raw)": ("convopt", ("--lower-conv-bwd", "--lower-pool-bwd"), "raw"),
    "convopt-fwd(raw)": ("convopt", ("--lower-conv-bwd", "--lower-pool-bwd", "--lower-forward-convs"), "raw"),
    "convopt(frontend)": ("convopt", ("--lower-conv-bwd", "--lower-pool-bwd"), "frontend"),
    "linalg(convopt)": ("torch-mlir-opt", (f"--pass-pipeline={LINALG}",), "convopt(frontend)"),
    "linalg(direct)": ("torch-mlir-opt", (f"--pass-pipeline={LINALG}",), "frontend"),
    "linalg(decomposed)": ("torch-mlir-opt", (f"--pass-pipeline={LINALG}",), "frontend-decomposed"),
    # tool wall time only (not compiled)
    "one-command": ("convopt", ("--lower-conv-bwd", "--lower-pool-bwd", "--torch-mlir-stages"), "raw"),
    "torch-mlir-opt convert": ("torch-mlir-opt", (f"--pass-pipeline={TM_CONVERT}",), "frontend"),
}

# variant -> (last stage, iree-compile input type)
VARIANTS: dict[str, tuple[str, str]] = {
    "convopt + IREE": ("convopt(raw)", "torch"),
    "convopt fwd + IREE": ("convopt-fwd(raw)", "torch"),
    "convopt + torch-mlir": ("linalg(convopt)", "auto"),
    "torch-mlir direct": ("linalg(direct)", "auto"),
    "torch-mlir decomposed": ("linalg(decomposed)", "auto"),
    "IREE torch input": ("raw", "torch"),
}
CONVOPT = {"convopt + IREE": "convopt(raw)", "convopt fwd + IREE": "convopt-fwd(raw)", "convopt + torch-mlir": "convopt(frontend)"}
"""The convopt pipelines and the stage that is convopt's output in each."""
OTHERS = ("torch-mlir direct", "torch-mlir decomposed", "IREE torch input")


class StepFailed(RuntimeError):
    """A command exited non-zero; the message is its first error line."""


def slug(name: str) -> str:
    return re.sub(r"[^\w]+", "_", name).strip("_")


BASELINE_TOOLS: dict[str, str] = {}
"""--baseline: tool name (convopt@REF) -> a script running convopt as committed at REF."""


def add_baseline(ref: str) -> str:
    """The variant "convopt fwd + IREE @REF": the README recipe with convopt
    as committed at git ref (baseline.py), so that a change is timed
    against what it replaces in the same interleaved run.  Returns the
    variant's name."""
    script = Path(baseline.extracted(ref)) / "convopt-at-ref"
    script.write_text(f"#!/bin/sh\nexec {shlex.join(baseline.command(ref))} \"$@\"\n")
    script.chmod(0o755)
    BASELINE_TOOLS[f"convopt@{ref}"] = str(script)
    STAGES[f"convopt-fwd(raw)@{ref}"] = (f"convopt@{ref}", STAGES["convopt-fwd(raw)"][1], "raw")
    VARIANTS[f"convopt fwd + IREE @{ref}"] = (f"convopt-fwd(raw)@{ref}", "torch")
    return f"convopt fwd + IREE @{ref}"


@functools.cache
def _compile_bytecode_once() -> None:
    """The working tree's .pyc files, written before its first timed run (baseline.compile_bytecode)."""
    baseline.compile_bytecode()


def tool(name: str) -> str:
    if name in BASELINE_TOOLS:
        return BASELINE_TOOLS[name]
    if name == "convopt":
        _compile_bytecode_once()
    path = shutil.which(name, path=str(BIN))
    if path is None:
        raise StepFailed(f"'{name}' is not installed next to {sys.executable}")
    return path


def first_error(stderr: str, work: Path) -> str:
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    pick = next((line for line in lines if "error" in line.lower()), lines[0] if lines else "failed (no message)")
    return pick.replace(str(work) + os.sep, "")[:200]


def run(cmd: list[str], work: Path) -> tuple[float, float]:
    """Run cmd; its wall time and CPU time (user + system, every thread) in
    seconds.  StepFailed with the first error line."""
    start, cpu0 = time.perf_counter(), children_cpu()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise StepFailed(f"timed out after {TIMEOUT} s") from None
    elapsed, cpu = time.perf_counter() - start, children_cpu() - cpu0
    if proc.returncode:
        raise StepFailed(first_error(proc.stderr, work))
    return elapsed, cpu


@dataclass
class Stages:
    """The stage files of one model, made on first use; each stage's wall
    and CPU time, or the error of the first failing step on its chain."""

    raw: Path
    work: Path
    paths: dict[str, Path] = field(default_factory=dict)
    times: dict[str, float] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)

    def get(self, name: str) -> Path:
        if name == "raw":
            return self.raw
        if name in self.errors:
            raise StepFailed(self.errors[name])
        if name not in self.paths:
            prog, args, source = STAGES[name]
            src = self.get(source)  # a failed source raises its own error
            out = self.work / (slug(name) + ".mlir")
            try:
                self.times[name], self.cpu[name] = run([tool(prog), *args, str(src), "-o", str(out)], self.work)
            except StepFailed as e:
                self.errors[name] = f"{name}: {e}"
                raise StepFailed(self.errors[name]) from None
            self.paths[name] = out
        return self.paths[name]

    def retime(self, name: str, runs: int) -> float:
        """Best wall time of the stage's command over runs runs (the first is
        the one that made the file)."""
        self.get(name)
        prog, args, source = STAGES[name]
        scratch = self.work / "retime.mlir"
        for _ in range(runs - 1):
            t, _ = run([tool(prog), *args, str(self.get(source)), "-o", str(scratch)], self.work)
            self.times[name] = min(self.times[name], t)
        return self.times[name]

    def chain_time(self, name: str, cpu: bool = False) -> float:
        """Wall (or CPU) time of all stages from the raw file to name."""
        total = 0.0
        while name != "raw":
            total += (self.cpu if cpu else self.times)[name]
            name = STAGES[name][2]
        return total


# --------------------------------------------------------------------------
# Running and timing
# --------------------------------------------------------------------------

_CONFIG: list = []


def iree_config(threads: int):
    """One local-task device for every module, with this many worker threads
    (the flag is read when the device is created, so it is set once)."""
    import iree.runtime as ireert

    if not _CONFIG:
        ireert.flags.parse_flags(f"--task_topology_max_group_count={threads}")
        _CONFIG.append(ireert.Config("local-task"))
    return _CONFIG[0]


OPS_QUIET_WAIT = 20.0  # --ops: at most this --quiet-wait per op (a model has up to 20)


def ratio_spread(row: dict, a: str, b: str) -> Optional[tuple[float, float, float]]:
    """(median, first quartile, third quartile) over the rounds of
    time(a) / time(b) in the same round: how stable the ratio a/b was in
    this run (None when either is missing or wrong).  Quartiles rather than
    the extremes: a call here now and then loses a scheduler time slice
    (+3-5 ms, on any variant, also with every other process paused), which
    the median and the quartiles ride out and the extremes do not."""
    sa, sb = row.get("samples_ms", {}).get(a), row.get("samples_ms", {}).get(b)
    if not sa or not sb or not ok(row, a) or not ok(row, b):
        return None
    q1, med, q3 = quartiles([x / y for x, y in zip(sa, sb)])
    return med, q1, q3


def relative_error(got, ref) -> float:
    """max|got - ref| / max(1, max|ref|) for floats (0 for empty tensors);
    integers must be equal (inf when not)."""
    import numpy as np

    if got.shape != ref.shape:
        return math.inf
    if np.issubdtype(ref.dtype, np.integer):
        return 0.0 if np.array_equal(got, ref) else math.inf
    if ref.size == 0:
        return 0.0
    ref64 = ref.astype(np.float64)
    scale = max(1.0, float(np.max(np.abs(ref64))))
    return float(np.max(np.abs(got.astype(np.float64) - ref64))) / scale


def load_iree(vmfb: Path, args: list, ref: list, threads: int):
    """(main with its device-resident arguments bound, max relative error of
    one call's results)."""
    import iree.runtime as ireert
    import numpy as np

    config = iree_config(threads)
    ctx = ireert.SystemContext(config=config)
    ctx.add_vm_module(ireert.VmModule.copy_buffer(ctx.instance, vmfb.read_bytes()))
    fn = ctx.modules.module["main"]
    dev_args = [ireert.asdevicearray(config.device, a) for a in args]
    out = fn(*dev_args)
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    if len(outs) != len(ref):
        raise StepFailed(f"{len(outs)} results, expected {len(ref)}")
    err = max(relative_error(np.asarray(o.to_host()), r) for o, r in zip(outs, ref))
    return (lambda: fn(*dev_args)), err


def eager_step(spec: ModelSpec, args_t: list, ref: list, threads: int, inductor: bool = False):
    """The same step in PyTorch eager, float32: forward of the training-mode
    module and torch.autograd.grad wrt the parameters (and the inputs for the
    blocks).  (the step, max relative error of grads + updated buffers, wall
    and CPU time of the first call: this process's and its children's).  inductor: the module under torch.compile
    (Inductor, CPU): AOTAutograd traces the same aten graph, forward and
    backward, and Inductor compiles both on the first call (its build time,
    with its caches disabled: a cold build)."""
    import torch

    torch.set_num_threads(threads)
    if inductor and not INDUCTOR_CACHE[0]:  # a cold build: no FX graph / kernel caches from earlier runs
        import torch._inductor.config

        torch._inductor.config.force_disable_caches = True
    n_in, n_p, n_b, n_o = spec.counts()
    m = spec.model()
    fwd = torch.compile(m, backend="inductor") if inductor else m
    params = [p for _, p in m.named_parameters()]
    buffers = [b for _, b in m.named_buffers()]
    with torch.no_grad():
        for p, v in zip(params, args_t[n_in:n_in + n_p]):
            p.copy_(v)
        for b, v in zip(buffers, args_t[n_in + n_p:n_in + n_p + n_b]):
            b.copy_(v)
    inputs = [a.detach().clone(memory_format=torch.preserve_format).requires_grad_(spec.input_grad) for a in args_t[:n_in]]
    grad_outs = list(args_t[n_in + n_p + n_b:])
    wrt = (inputs if spec.input_grad else []) + params

    def step():
        outs = fwd(*inputs)
        outs = outs if isinstance(outs, tuple) else (outs,)
        return torch.autograd.grad(outs, wrt, grad_outs)

    t0, cpu0 = time.perf_counter(), time.process_time() + children_cpu()
    grads = step()
    first, first_cpu = time.perf_counter() - t0, time.process_time() + children_cpu() - cpu0
    got = [g.detach().contiguous().numpy() for g in grads] + [b.detach().contiguous().numpy() for b in buffers]
    return step, max(relative_error(g, r) for g, r in zip(got, ref)), first, first_cpu


def iree_compile(src: Path, input_type: str, out: Path, work: Path) -> tuple[float, float]:
    return run([tool("iree-compile"), f"--iree-input-type={input_type}", *IREE_FLAGS, str(src), "-o", str(out)], work)


def run_model(name: str, repeats: int, threads: int, work: Path, quiet_wait: float = 0.0) -> dict:
    spec = MODELS[name]
    raw = MODELS_DIR / spec.file
    args_t = spec.arguments(spec.run_batch)
    ref = [r.detach().contiguous().numpy() for r in spec.reference(args_t)]
    args = [a.detach().contiguous().numpy() for a in args_t]  # channels-last tensors: logical NCHW order
    stages = Stages(raw, work)
    row: dict = {
        "model": name, "conv_bwd": sum(1 for line in raw.read_text().splitlines() if f"= {CONV_BWD} " in line),
        "tolerance": spec.tolerance, "batch": spec.run_batch or spec.inputs[0][0],
        "times_ms": {}, "max_rel_err": {}, "errors": {}, "lower_s": {}, "compile_s": {}, "lower_cpu_s": {}, "compile_cpu_s": {}, "conv_bwd_left": {},
    }
    fns = {}
    for variant, (stage, input_type) in VARIANTS.items():
        row["times_ms"][variant] = None
        try:
            src = stages.get(stage)
            if variant in CONVOPT:
                out = stages.get(CONVOPT[variant])
                row["conv_bwd_left"][variant] = out.read_text().count(CONV_BWD)
            row["lower_s"][variant], row["lower_cpu_s"][variant] = stages.chain_time(stage), stages.chain_time(stage, cpu=True)
            vmfb = work / (slug(variant) + ".vmfb")
            row["compile_s"][variant], row["compile_cpu_s"][variant] = iree_compile(src, input_type, vmfb, work)
            fns[variant], row["max_rel_err"][variant] = load_iree(vmfb, args, ref, threads)
        except StepFailed as e:
            row["errors"][variant] = str(e)
        except Exception as e:  # the runtime rejecting a module, for example
            row["errors"][variant] = f"{type(e).__name__}: {str(e).strip().splitlines()[0][:160] if str(e).strip() else ''}"
    fns["PyTorch"], row["max_rel_err"]["PyTorch"], _, _ = eager_step(spec, args_t, ref, threads)
    row["times_ms"]["Inductor"] = None
    try:
        fns["Inductor"], row["max_rel_err"]["Inductor"], row["compile_s"]["Inductor"], row["compile_cpu_s"]["Inductor"] = eager_step(spec, args_t, ref, threads, inductor=True)
    except Exception as e:  # Inductor failing on a model
        row["errors"]["Inductor"] = f"{type(e).__name__}: {str(e).strip().splitlines()[0][:160] if str(e).strip() else ''}"
    stats: dict = {}
    row["samples_ms"] = {}
    for variant, ts in interleaved_samples(fns, repeats, quiet_wait, stats).items():
        row["samples_ms"][variant] = [t * 1e3 for t in ts]
        row["times_ms"][variant] = median(ts) * 1e3
    row["others_busy"] = stats.get("others_busy")
    del fns
    gc.collect()
    # tool wall time: convopt's stage next to torch-mlir-opt's on the same file, and the one command
    tools: dict = {}
    for key, stage in (("convopt", "convopt(frontend)"), ("torch-mlir-opt", "torch-mlir-opt convert"),
                       ("convopt one-command", "one-command")) if TOOL_RUNS[0] else ():
        try:
            tools[key] = stages.retime(stage, TOOL_RUNS[0])
        except StepFailed as e:
            tools[key] = None
            row["errors"][f"tool: {key}"] = str(e)
    if "frontend" in stages.times and "linalg(direct)" in stages.times:
        tools["torch-mlir-opt two stages"] = stages.times["frontend"] + stages.times["linalg(direct)"]
    if "one-command" in stages.paths and "linalg(convopt)" in stages.paths:
        row["one_command_same_output"] = same_module(stages.paths["one-command"].read_text(), stages.paths["linalg(convopt)"].read_text())
    row["tool_s"] = tools
    row["stage_s"] = dict(stages.times)
    row["summary"] = summarize(row)
    return row


def same_module(a: str, b: str) -> bool:
    """Equal up to the names of dense_resource blobs (torch-mlir numbers them
    per process: the one command and the chain of commands name them apart)."""
    def norm(text: str) -> str:
        text = re.sub(r"dense_resource<[\w.]+>", "dense_resource<>", text)
        return re.sub(r"^(\s*)[\w.]+: \"0x", r'\1: "0x', text, flags=re.M)

    return norm(a) == norm(b)


def ok(row: dict, variant: str) -> bool:
    t = row["times_ms"].get(variant)
    err = row["max_rel_err"].get(variant)
    return t is not None and err is not None and err <= row["tolerance"]


def summarize(row: dict) -> dict:
    times = row["times_ms"]
    conv = [v for v in CONVOPT if ok(row, v)]
    other = [v for v in OTHERS if ok(row, v)]
    best_c = min(conv, key=times.__getitem__) if conv else None
    best_o = min(other, key=times.__getitem__) if other else None
    return {
        "convopt_best": best_c, "fastest_other": best_o,
        "convopt_over_other": times[best_c] / times[best_o] if best_c and best_o else None,
        "convopt_over_pytorch": times[best_c] / times["PyTorch"] if best_c else None,
        "other_over_pytorch": times[best_o] / times["PyTorch"] if best_o else None,
        "convopt_over_inductor": times[best_c] / times["Inductor"] if best_c and ok(row, "Inductor") else None,
        "build_s": build_seconds(row, best_c),
        "recipe": recipe_summary(row),
    }


RECIPE = "convopt fwd + IREE"
"""README's IREE recipe (convopt --lower-conv-bwd --lower-forward-convs, then iree-compile);
with --cost-profile, CALIBRATED (the same with the host's profile), against RECIPE too."""
CALIBRATED = "convopt calibrated + IREE"


def add_calibrated(path: str) -> None:
    """The variant CALIBRATED: the recipe with --cost-profile=path, which
    becomes the recipe the tables report (against the class profile's too)."""
    global RECIPE
    prog, flags, source = STAGES["convopt-fwd(raw)"]
    STAGES["convopt-cal(raw)"] = (prog, (*flags, f"--cost-profile={os.path.abspath(path)}"), source)
    VARIANTS[CALIBRATED] = ("convopt-cal(raw)", "torch")
    CONVOPT[CALIBRATED] = "convopt-cal(raw)"
    PARTNER[CALIBRATED] = "IREE torch input"
    RECIPE = CALIBRATED


def recipe_summary(row: dict) -> dict:
    """The README recipe against PyTorch eager, Inductor, IREE's own torch
    input and convopt without forward convolutions: per-round ratios
    (median, min, max), and its build CPU seconds (convopt's chain +
    iree-compile) over the raw import's iree-compile."""
    refs = ("PyTorch", "Inductor", "IREE torch input", "convopt + IREE") + (("convopt fwd + IREE",) if RECIPE == CALIBRATED else ())
    out: dict = {ref: ratio_spread(row, RECIPE, ref) for ref in refs}
    comp, low = row.get("compile_cpu_s", {}), row.get("lower_cpu_s", {})
    if RECIPE in comp and RECIPE in low and comp.get("IREE torch input"):
        out["build_cpu_s"] = low[RECIPE] + comp[RECIPE]
        out["build_over_raw"] = out["build_cpu_s"] / comp["IREE torch input"]
    return out


def build_seconds(row: dict, best_c: Optional[str]) -> dict:
    """Build time (s) per pipeline: convopt's faster pipeline (its lowering
    chain + iree-compile), iree-compile of the raw import (IREE torch
    input), Inductor's first call (compile of forward and backward and one
    run); wall time, and CPU time (user + system of every thread and child:
    what the table shows, as other processes on a shared machine stretch
    wall times but not CPU times) under "... cpu"."""
    out: dict = {}
    for suffix, comp, low in (("", row["compile_s"], row["lower_s"]), (" cpu", row.get("compile_cpu_s", {}), row.get("lower_cpu_s", {}))):
        out["convopt" + suffix] = low[best_c] + comp[best_c] if best_c and best_c in comp and best_c in low else None
        out["raw import" + suffix] = comp.get("IREE torch input")
        out["Inductor" + suffix] = comp.get("Inductor")
        if out["convopt" + suffix] and out["raw import" + suffix]:
            out["convopt / raw import" + suffix] = out["convopt" + suffix] / out["raw import" + suffix]
    return out


# --------------------------------------------------------------------------
# Dispatch profile (--profile)
# --------------------------------------------------------------------------

PROFILE_CALLS = 20


# the pipeline that lowers everything but the conv backward ops the same way as each convopt pipeline
PARTNER = {"convopt + torch-mlir": "torch-mlir direct", "convopt + IREE": "IREE torch input", "convopt fwd + IREE": "IREE torch input"}


def profile(row: dict, work: Path, threads: int, args: list) -> list[str]:
    """iree-benchmark-module (local-task, same threads) with HAL host-execution
    dispatch profiling, PROFILE_CALLS calls, on README's recipe, convopt's faster pipeline, the
    fastest other IREE pipeline and the partner of each convopt pipeline
    profiled (PARTNER: same lowering of every other op): per call, the
    dispatch time by dispatch kind and the top dispatches (iree-profile
    dispatch); for each convopt pipeline and its partner, the time of the
    dispatches both have (same name without the dispatch number: the rest of
    the graph) and of those only one of them has (the conv backward ops)."""
    import numpy as np

    lines = []
    inputs = []
    for i, a in enumerate(args):
        p = work / f"arg{i}.npy"
        np.save(p, a)
        inputs.append(f"--input=@{p}")
    wanted = [RECIPE, row["summary"]["convopt_best"], row["summary"]["fastest_other"]]
    wanted += [PARTNER[v] for v in CONVOPT if v in wanted]
    groups: dict[str, list] = {}
    for variant in dict.fromkeys(v for v in wanted if v and ok(row, v)):
        vmfb = work / (slug(variant) + ".vmfb")
        prof = work / f"{slug(variant)}.ireeprof"
        cmd = [tool("iree-benchmark-module"), f"--module={vmfb}", "--device=local-task", "--function=main",
               f"--task_topology_max_group_count={threads}", "--benchmark_repetitions=1", f"--benchmark_min_time={PROFILE_CALLS}x",
               "--device_profiling_mode=host-execution", f"--device_profiling_output={prof}", *inputs]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
        if proc.returncode:
            lines.append(f"{row['model']} / {variant}: iree-benchmark-module failed: {first_error(proc.stderr, work)}")
            continue
        rep = subprocess.run([tool("iree-profile"), "dispatch", "--format=jsonl", str(prof)], capture_output=True, text=True)
        groups[variant] = dispatch_groups(rep.stdout, PROFILE_CALLS)
        lines.append(f"{row['model']} / {variant} ({row['times_ms'][variant]:.2f} ms in the table):")
        lines += dispatch_summary(groups[variant])
    for conv, partner in PARTNER.items():
        if conv in groups and partner in groups:
            lines += compare_dispatches(conv, groups[conv], partner, groups[partner])
    return lines


INDUCTOR_GROUPS = (("convolution", ("convolution", "mkldnn_conv", "conv2d", "conv3d", "conv1d")), ("pooling", ("pool",)),
                   ("Inductor's kernels", ("cpp_fused", "graph_", "kernel")))
"""torch.profiler op names -> group, first match wins; the rest is 'other aten'."""


def inductor_profile(name: str, threads: int, calls: int = PROFILE_CALLS) -> list[str]:
    """torch.profiler on the Inductor step (the same step as the table's,
    compiled again): self CPU time per call of its ops, grouped into the
    convolutions (aten's convolution backward and forward, which Inductor
    calls as eager does), pooling, Inductor's generated kernels (the rest
    of the graph, fused) and other aten ops; beside the IREE profiles of
    --profile, where convopt's own kernels are the dispatches the recipe
    does not share with IREE's own lowering."""
    from torch.profiler import ProfilerActivity
    from torch.profiler import profile as torch_profile

    spec = MODELS[name]
    args_t = spec.arguments(spec.run_batch)
    ref = [r.detach().contiguous().numpy() for r in spec.reference(args_t)]
    step = eager_step(spec, args_t, ref, threads, inductor=True)[0]
    step()
    with torch_profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(calls):
            step()
    groups: dict[str, float] = {}
    top = []
    for ev in prof.key_averages():
        if ev.self_cpu_time_total <= 0:
            continue
        group = next((g for g, keys in INDUCTOR_GROUPS if any(k in ev.key for k in keys)), "other aten")
        groups[group] = groups.get(group, 0.0) + ev.self_cpu_time_total / calls / 1e3
        top.append((ev.self_cpu_time_total / calls / 1e3, ev.key))
    total = sum(groups.values())
    lines = [f"{name} / Inductor (torch.profiler, self CPU ms per call over {calls} calls; {total:.2f} ms in all):"]
    lines += [f"  {g:20s} {ms:8.3f} ms  {100 * ms / total:5.1f}%" for g, ms in sorted(groups.items(), key=lambda x: -x[1])]
    lines += [f"    {ms:8.3f} ms  {key[:90]}" for ms, key in sorted(top, reverse=True)[:6]]
    return lines


def dispatch_groups(jsonl: str, calls: int) -> list[tuple[float, float, int, str]]:
    """(mean ns per call, fastest run x count, dispatches per call, name) per dispatch function."""
    groups = []
    for line in jsonl.splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        if rec.get("type") == "host_dispatch_group" and rec.get("total_ns"):
            per_call = max(1, int(rec["count"]) // calls)
            groups.append((float(rec["total_ns"]) / calls, float(rec["min_ns"]) * per_call, per_call, rec["key"]))
    return sorted(groups, key=lambda g: -g[1])


def compare_dispatches(a: str, ga: list, b: str, gb: list) -> list[str]:
    """Split two profiles into dispatches with a same-named counterpart (name
    without its number) and the rest; fastest-run sums in ms."""
    def bag(groups):
        out: dict[str, list[float]] = {}
        for _, ns, count, key in groups:
            name = re.split(r"dispatch_\d+_", key, maxsplit=1)[-1]
            out.setdefault(name, []).extend([ns / count] * count)
        return out

    ba, bb = bag(ga), bag(gb)
    shared_a = shared_b = only_a = only_b = 0.0
    n_only_a = n_only_b = 0
    for name in set(ba) | set(bb):
        xa, xb = sorted(ba.get(name, [])), sorted(bb.get(name, []))
        k = min(len(xa), len(xb))
        shared_a += sum(xa[:k])
        shared_b += sum(xb[:k])
        only_a += sum(xa[k:])
        only_b += sum(xb[k:])
        n_only_a += len(xa) - k
        n_only_b += len(xb) - k
    return [f"  {a} vs {b} (fastest runs, ms): dispatches both have {shared_a / 1e6:.2f} vs {shared_b / 1e6:.2f}; "
            f"only in one ({n_only_a} vs {n_only_b} dispatches: the conv backward ops) {only_a / 1e6:.2f} vs {only_b / 1e6:.2f}"]


def dispatch_kind(key: str) -> str:
    """main$async_dispatch_43_conv_Dx16x16_f32 -> conv, ..._matmul_like_2x128_f32 -> matmul_like."""
    tail = re.split(r"dispatch_\d+_", key, maxsplit=1)[-1]
    words = []
    for tok in tail.split("_"):
        if not re.fullmatch(r"[a-z]+", tok) or re.fullmatch(r"[fi]\d+|bf\d+", tok):
            break
        words.append(tok)
    return "_".join(words) or tail


def dispatch_summary(groups: list, top: int = 10) -> list[str]:
    """Per call: the dispatch time (spans, mean over the calls, and the sum of
    each dispatch's fastest run) by dispatch kind, and the top dispatches."""
    if not groups:
        return ["  (no dispatch records)"]
    mean = sum(g[0] for g in groups)
    fastest = sum(g[1] for g in groups)
    kinds: dict[str, float] = {}
    for _, ns, _, key in groups:
        kinds[dispatch_kind(key)] = kinds.get(dispatch_kind(key), 0.0) + ns
    out = [f"  per call: {sum(g[2] for g in groups)} dispatches, {mean / 1e6:.2f} ms mean, {fastest / 1e6:.2f} ms as the sum of each "
           "dispatch's fastest run; by kind (fastest runs, ms): " + ", ".join(f"{k} {v / 1e6:.3f}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1]))]
    for _, ns, count, key in groups[:top]:
        out.append(f"  {100 * ns / fastest:5.1f}%  {ns / 1e3:8.1f} us  x{count:<3} {key}")
    return out


# --------------------------------------------------------------------------
# The model's convolution backward ops alone (--ops)
# --------------------------------------------------------------------------

OP_TORCH_MLIR = "builtin.module(func.func(convert-torch-to-linalg),torch-backend-to-linalg-on-tensors-backend-pipeline)"


def conv_configs(spec: ModelSpec) -> list[tuple[Any, int]]:
    """The model's convolutions as bench/emitted's harness.Config (NCHW, the
    shapes and output_mask of the eager step), with how often each occurs."""
    import torch

    harness = load("harness")

    m = spec.model()
    seen: list = []

    def hook(mod, inp, _out, name=""):
        x = inp[0]
        tr = isinstance(mod, (torch.nn.ConvTranspose1d, torch.nn.ConvTranspose2d, torch.nn.ConvTranspose3d))
        seen.append(harness.Config(
            name=name, batch=x.shape[0], cin=mod.in_channels, cout=mod.out_channels, spatial=tuple(x.shape[2:]),
            kernel=tuple(mod.kernel_size), stride=tuple(mod.stride), padding=tuple(mod.padding), dilation=tuple(mod.dilation),
            groups=mod.groups, transposed=tr, output_padding=tuple(mod.output_padding) if tr else (),
            mask=(bool(x.requires_grad), True, mod.bias is not None),
        ))

    for name, mod in m.named_modules():
        if isinstance(mod, _CONVS):
            mod.register_forward_hook(lambda mod, i, o, name=name: hook(mod, i, o, name))
    args = spec.arguments(spec.run_batch)
    n_in = len(spec.inputs)
    m(*[a.detach().clone().requires_grad_(spec.input_grad) for a in args[:n_in]])
    counts: dict = {}
    for cfg in seen:
        key = cfg.__class__(**{**cfg.__dict__, "name": ""})
        if key not in counts:
            counts[key] = [cfg, 0]
        counts[key][1] += 1
    return [(cfg, n) for cfg, n in counts.values()]


def describe(cfg) -> str:
    k = "x".join(map(str, cfg.kernel))
    parts = [f"{cfg.batch}x{cfg.cin}x{'x'.join(map(str, cfg.spatial))} -> {cfg.cout}, k{k}"]
    if set(cfg.stride) != {1}:
        parts.append("s" + "x".join(map(str, cfg.stride)))
    if set(cfg.dilation) != {1}:
        parts.append("d" + "x".join(map(str, cfg.dilation)))
    if cfg.groups != 1:
        parts.append(f"g{cfg.groups}")
    if cfg.transposed:
        parts.append("T")
    parts.append("mask " + "".join("T" if b else "F" for b in cfg.mask))
    return " ".join(parts)


def run_ops(name: str, repeats: int, threads: int, work: Path, quiet_wait: float = 0.0) -> dict:
    """Each convolution_backward of the model alone: convopt --lower-conv-bwd
    and torch-mlir direct (convert-torch-to-linalg, backend pipeline), both
    compiled by IREE like the whole models, next to PyTorch's
    aten.convolution_backward; times interleaved, best of repeats."""
    import numpy as np
    import torch

    harness = load("harness")
    torch.set_num_threads(threads)
    out: dict = {"ops": [], "sum_ms": {"convopt": 0.0, "torch-mlir direct": 0.0, "PyTorch": 0.0}, "failed": {}}
    opdir = work / "ops"
    opdir.mkdir(exist_ok=True)
    for i, (cfg, count) in enumerate(conv_configs(MODELS[name])):
        go, x, w = (np.asarray(a, dtype=np.float32) for a in harness.inputs(cfg))
        src = opdir / f"op{i}.mlir"
        src.write_text(harness.torch_ir(cfg))
        ref = [r for r, m in zip(harness.reference(cfg, go.astype(np.float64), x.astype(np.float64), w.astype(np.float64)), cfg.mask) if m]
        fns: dict = {}
        errs: dict = {}
        rec: dict[str, Any] = {"op": describe(cfg), "count": count, "times_ms": {}, "max_rel_err": errs, "errors": {}}
        for variant, cmd in (("convopt", [tool("convopt"), "--lower-conv-bwd"]),
                             ("torch-mlir direct", [tool("torch-mlir-opt"), f"--pass-pipeline={OP_TORCH_MLIR}"])):
            lowered = opdir / f"op{i}.{slug(variant)}.mlir"
            vmfb = opdir / f"op{i}.{slug(variant)}.vmfb"
            try:
                run([*cmd, str(src), "-o", str(lowered)], opdir)
                iree_compile(lowered, "auto", vmfb, opdir)
                fns[variant], errs[variant] = load_iree(vmfb, [go, x, w], ref, threads)
            except StepFailed as e:
                rec["errors"][variant] = str(e)
        t = torch.from_numpy
        pt_args = (t(go), t(x), t(w), [cfg.cout], list(cfg.stride), list(cfg.padding), list(cfg.dilation), cfg.transposed,
                   list(cfg.out_padding), cfg.groups, list(cfg.mask))
        fns["PyTorch"] = lambda pt_args=pt_args: torch.ops.aten.convolution_backward(*pt_args)
        stats: dict = {}
        for variant, best in interleaved_best(fns, repeats, quiet_wait, stats).items():
            rec["times_ms"][variant] = best * 1e3
        rec["others_busy"] = stats.get("others_busy")
        del fns
        for variant in out["sum_ms"]:
            if variant in rec["times_ms"]:
                out["sum_ms"][variant] += count * rec["times_ms"][variant]
            else:
                out["failed"][variant] = out["failed"].get(variant, 0) + count
        out["ops"].append(rec)
    gc.collect()
    return out


def report_ops(row: dict) -> list[str]:
    ops = row.get("ops")
    if not ops:
        return []
    lines = [f"{row['model']}: its convolution_backward ops alone (ms, best of the run's repeats; xN = N such ops in the model)",
             f"  {'':56} {'convopt':>8} {'tm dir.':>8} {'PyTorch':>8}"]
    for rec in ops["ops"]:
        cells = []
        for v in ("convopt", "torch-mlir direct", "PyTorch"):
            tm = rec["times_ms"].get(v)
            cells.append(f"{tm:8.3f}" if tm is not None else f"{'failed':>8}")
        busy = rec.get("others_busy")
        note = f"  (other processes {100 * busy:.0f}% busy)" if busy is not None and busy > QUIET else ""
        lines.append(f"  x{rec['count']:<2} {rec['op']:52} " + " ".join(cells) + note)
    s = ops["sum_ms"]
    fail = ops["failed"]
    lines.append(f"  {'sum (x count)':56} " + " ".join(
        f"{s[v]:8.2f}" + ("" if v not in fail else f" ({fail[v]} failed)") for v in ("convopt", "torch-mlir direct", "PyTorch")))
    t = row["times_ms"]
    best = row["summary"]["convopt_best"]
    if best and t.get(best):
        lines.append(f"  whole step: {best} {t[best]:.2f} ms, of which conv backward alone {s['convopt']:.2f} ms ({100 * s['convopt'] / t[best]:.0f}%);"
                     f" PyTorch {t['PyTorch']:.2f} ms, of which conv backward {s['PyTorch']:.2f} ms ({100 * s['PyTorch'] / t['PyTorch']:.0f}%)")
    return lines


# --------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------

def fmt_err(row: dict, variant: str) -> str:
    err = row["max_rel_err"].get(variant)
    if err is None:
        return ""
    text = "int!" if err == math.inf else f"{err:.1e}"
    return text + (" WRONG" if err > row["tolerance"] else "")


def report_model(row: dict) -> list[str]:
    times = row["times_ms"]
    s = row["summary"]
    pt = times["PyTorch"]
    best_o = times[s["fastest_other"]] if s["fastest_other"] else None
    lines = []
    for variant in list(VARIANTS) + ["Inductor", "PyTorch"]:
        t = times.get(variant)
        head = f"{row['model']:24} {variant:22}"
        if t is None:
            lines.append(f"{head} {'failed':>9}   {row['errors'].get(variant, '')}")
            continue
        rel_o = f"{t / best_o:9.2f}" if best_o else "      n/a"
        lower = row["lower_s"].get(variant)
        comp = row["compile_s"].get(variant)
        tail = f" {(f'{lower:8.2f}' if lower is not None else ''):8} {comp:8.1f}" if comp is not None else f" {'':8} {'':8}"
        lines.append(f"{head} {t:9.2f} {t / pt:9.2f} {rel_o} {fmt_err(row, variant):>13}{tail}")
    busy = row.get("others_busy")
    if busy is not None and busy > QUIET:
        lines[-1] += f"  (other processes kept {100 * busy:.0f}% of the CPU busy during the timing)"
    return lines


def report_summary(rows: list[dict]) -> list[str]:
    lines = [
        f"{'model':24} {'convs':>5} {'convopt best':>20} {'fastest other':>21} {'c/other':>8} {'c/PyTorch':>9} {'c/Inductor':>10}"
        f" {'convopt s':>9} {'tm-opt s':>8} {'1-cmd s':>8} {'tm 2-stg s':>10} {'build c cpu-s':>13} {'raw cpu-s':>9} {'c/raw':>6} {'Ind cpu-s':>9}",
    ]
    lines.append("-" * len(lines[0]))

    def f(x, spec="8.2f"):
        return format(x, spec) if x is not None else format("-", ">" + spec.split(".")[0])

    for row in rows:
        s, tl = row["summary"], row["tool_s"]
        b = s.get("build_s", {})
        ratio_o = s["convopt_over_other"]
        ratio_p = s["convopt_over_pytorch"]
        lines.append(
            f"{row['model']:24} {row['conv_bwd']:5d} {s['convopt_best'] or 'none':>20} {s['fastest_other'] or 'none':>21}"
            f" {f(ratio_o)} {f(ratio_p, '9.2f')} {f(s.get('convopt_over_inductor'), '10.2f')} {f(tl.get('convopt'), '9.2f')} {f(tl.get('torch-mlir-opt'))}"
            f" {f(tl.get('convopt one-command'))} {f(tl.get('torch-mlir-opt two stages'), '10.2f')}"
            f" {f(b.get('convopt cpu'), '13.1f')} {f(b.get('raw import cpu'), '9.1f')} {f(b.get('convopt / raw import cpu'), '6.2f')} {f(b.get('Inductor cpu'), '9.1f')}"
        )
    ratios = [r["summary"]["convopt_over_other"] for r in rows if r["summary"]["convopt_over_other"]]
    ratios_p = [r["summary"]["convopt_over_pytorch"] for r in rows if r["summary"]["convopt_over_pytorch"]]
    if ratios:
        geo = geomean
        lines.append(f"{'geometric mean':24} {'':5} {'':20} {'':21} {geo(ratios):8.2f} {geo(ratios_p):9.2f}")
    return lines


def report_recipe(rows: list[dict]) -> list[str]:
    """README's recipe against what a user would run instead: per-round
    ratios, median [first-third quartile] over the rounds of one run, and
    build CPU s."""
    refs = (("PyTorch", "/PyTorch"), ("Inductor", "/Inductor"), ("IREE torch input", "/IREE own"), ("convopt + IREE", "/no fwd"))
    refs += (("convopt fwd + IREE", "/class prof"),) if RECIPE == CALIBRATED else ()
    head = f"{'model':24}" + "".join(f" {label:>19}" for _, label in refs) + f" {'build cpu-s':>11} {'/raw build':>10}"
    lines = [f"README recipe ({RECIPE}): time ratio, median [quartiles] of the per-round ratios", head, "-" * len(head)]

    def cell(r) -> str:
        return f"{r[0]:5.2f} [{r[1]:4.2f}-{r[2]:4.2f}]" if r else "-"

    for row in rows:
        rec = row["summary"].get("recipe", {})
        b, br = rec.get("build_cpu_s"), rec.get("build_over_raw")
        lines.append(f"{row['model']:24}" + "".join(f" {cell(rec.get(ref)):>19}" for ref, _ in refs)
                     + f" {(f'{b:.1f}' if b else '-'):>11} {(f'{br:.2f}' if br else '-'):>10}")
    meds = {ref: [row["summary"]["recipe"][ref][0] for row in rows if row["summary"].get("recipe", {}).get(ref)] for ref, _ in refs}
    builds = [row["summary"]["recipe"]["build_over_raw"] for row in rows if row["summary"].get("recipe", {}).get("build_over_raw")]
    geo = lambda xs: f"{geomean(xs):5.2f}" if xs else "-"  # noqa: E731
    lines.append(f"{'geometric mean':24}" + "".join(f" {geo(meds[ref]):>19}" for ref, _ in refs) + f" {'':>11} {geo(builds):>10}")
    return lines


def report(rows: list[dict], threads: int, repeats: int) -> str:
    header = (f"{'model':24} {'variant':22} {'time ms':>9} {'/PyTorch':>9} {'/best oth':>9} {'max rel err':>13}"
              f" {'lower s':>8} {'compile s':>8}")
    lines = [f"whole backward step, IREE llvm-cpu ({IREE_FLAGS[-1].split('=')[1]}) local-task vs PyTorch eager and Inductor, {threads} threads, median of {repeats} interleaved rounds"
             + (f", convopt {' '.join(STAGES['convopt(raw)'][1])}" if STAGES["convopt(raw)"][1] != ("--lower-conv-bwd",) else ""), "",
             host.line(), "", header, "-" * len(header)]
    for row in rows:
        lines += report_model(row)
    lines += ["", "convopt best = the faster correct convopt pipeline; fastest other = the fastest correct one of torch-mlir direct,",
              "torch-mlir decomposed, IREE torch input; c/other and c/PyTorch are time ratios (< 1: convopt faster).",
              "convopt s: convopt --lower-conv-bwd on the frontend stage's output; tm-opt s: torch-mlir-opt",
              "func.func(convert-torch-to-linalg) on the same file; 1-cmd s: convopt --lower-conv-bwd --torch-mlir-stages",
              "on the raw file; tm 2-stg s: torch-mlir-opt's frontend + linalg stages (torch-mlir direct). Wall time, best of 3.",
              "c/Inductor: convopt best / torch.compile (Inductor, CPU) of the same module. build c cpu-s: convopt best's lowering",
              "chain + iree-compile; raw cpu-s: iree-compile of the raw import; c/raw: their ratio; Ind cpu-s: Inductor's first",
              "step (compile + run, caches off). CPU seconds (user + system, all threads and children).", ""]
    lines += report_summary(rows)
    lines += [""] + report_recipe(rows)
    runs: dict[int, list[str]] = {}
    for r in rows:
        runs.setdefault(r.get("run", 1), []).append(r["model"])
    if len(runs) > 1:
        lines.append("")
        lines.append("rows merged from separate runs (each model's variants in one run): "
                     + "; ".join(f"run {k}: {', '.join(v)}" for k, v in sorted(runs.items())))
    left = [f"{r['model']}/{v}: {n}" for r in rows for v, n in r["conv_bwd_left"].items() if n]
    lines.append("")
    lines.append("convolution_backward left in convopt's output: " + (", ".join(left) if left else "none"))
    differ = [r["model"] for r in rows if r.get("one_command_same_output") is False]
    lines.append("convopt --torch-mlir-stages output = the three commands' (up to dense_resource names): "
                 + ("yes on every model" if not differ else "differs on " + ", ".join(differ)))
    for row in rows:
        if row.get("profile"):
            lines += ["", f"dispatch profile (iree-benchmark-module, HAL host-execution, {PROFILE_CALLS} calls):"] + row["profile"]
        if row.get("ops"):
            lines += [""] + report_ops(row)
    return "\n".join(lines)


def chart(rows: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    variants = list(VARIANTS) + ["Inductor"]
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=(13, 9), gridspec_kw={"height_ratios": [3, 2]})
    width = 0.8 / len(variants)
    ratios = [row["times_ms"][v] / row["times_ms"]["PyTorch"] for row in rows for v in variants if row["times_ms"].get(v)]
    floor = min(ratios + [1.0]) / 2
    failed = []
    for i, v in enumerate(variants):
        xs = [k + i * width for k in range(len(rows))]
        ys = [(row["times_ms"][v] / row["times_ms"]["PyTorch"]) if row["times_ms"].get(v) else 0 for row in rows]
        bars = ax.bar(xs, ys, width, label=v)
        for x, bar, row in zip(xs, bars, rows):
            if not row["times_ms"].get(v):
                failed.append(x)
            elif not ok(row, v):
                bar.set_hatch("xx")
    ax.set_ylim(floor, max(ratios + [1.0]) * 1.6)
    ax.plot(failed, [floor * 1.15] * len(failed), "kx", linestyle="none", label="failed")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xticks([k + 0.4 - width / 2 for k in range(len(rows))])
    ax.set_xticklabels([row["model"] for row in rows], rotation=20, ha="right")
    ax.set_ylabel("time / PyTorch eager (log)")
    ax.set_title("whole backward step, IREE llvm-cpu vs PyTorch eager (lower is better; x = failed, hatched = wrong)")
    ax.legend(fontsize=8, ncol=3)

    keys = ["convopt", "torch-mlir-opt", "convopt one-command", "torch-mlir-opt two stages"]
    labels = ["convopt --lower-conv-bwd", "torch-mlir-opt convert-torch-to-linalg", "convopt --torch-mlir-stages (one command)",
              "torch-mlir-opt frontend + linalg stages"]
    w2 = 0.8 / len(keys)
    for i, (k, label) in enumerate(zip(keys, labels)):
        ax2.bar([j + i * w2 for j in range(len(rows))], [row["tool_s"].get(k) or 0 for row in rows], w2, label=label)
    ax2.set_xticks([j + 0.4 - w2 / 2 for j in range(len(rows))])
    ax2.set_xticklabels([row["model"] for row in rows], rotation=20, ha="right")
    ax2.set_ylabel("tool wall time, s")
    ax2.set_title("lowering tools' wall time on the same file (best of 3)")
    ax2.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def write_results(rows: list[dict], out: Path, meta: dict, name: str) -> str:
    """out/NAME.<host>.{json,txt,png} (<host>: meta's host_tag)."""
    text = report(rows, meta["threads"], meta["repeats"])
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"{name}.{meta['host_tag']}"
    with open(f"{stem}.json", "w") as f:
        json.dump({**meta, "rows": rows}, f, indent=1)
    with open(f"{stem}.txt", "w") as f:
        f.write(text + "\n")
    chart(rows, Path(f"{stem}.png"))
    return text


def merge(files: list[str], out: Path, name: str) -> None:
    """The rows of several runs, in registry order; each row keeps its own run's
    numbers (every ratio is within one model's row, i.e. within one run)."""
    by_model: dict[str, dict] = {}
    metas = []
    for path in files:
        with open(path) as f:
            data = json.load(f)
        metas.append({k: v for k, v in data.items() if k != "rows"})
        for row in data["rows"]:
            row["run"] = len(metas)
            by_model[row["model"]] = row
    if len({(m["threads"], m["repeats"], m.get("convopt_flags", "")) for m in metas}) != 1:
        raise SystemExit(f"the runs differ in threads, repeats or convopt flags: {metas}")
    rows = [by_model[n] for n in MODELS if n in by_model] + [r for n, r in by_model.items() if n not in MODELS]
    text = write_results(rows, out, {**host.meta(metas[0].get("target_cpu", "host")), **metas[0], "merged_from": files}, name)
    print(text)


def arguments() -> argparse.ArgumentParser:
    """The command line (module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", default="", help="comma-separated model names (default: all of test/models/model_zoo.py)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", default=str(HERE / "results"))
    parser.add_argument("--name", default="models.suite", help="the results' name: --out/NAME.<host>.{json,txt,png} (e.g. models.misses for a --profile run)")
    parser.add_argument("--work", default="", help="keep the stage files, modules and profiles here (default: a temporary directory)")
    parser.add_argument("--profile", action="store_true",
                        help="also profile the dispatches of convopt's faster and of the fastest other pipeline (iree-benchmark-module)")
    parser.add_argument("--ops", action="store_true", help="also time each convolution_backward of the model alone")
    parser.add_argument("--merge", nargs="+", metavar="JSON",
                        help="run nothing: merge the rows of these models.json files (a later file's row of a model replaces an "
                             "earlier one's) and write the table, JSON and chart of the merged rows to --out")
    parser.add_argument("--convopt-flags", default="", metavar="FLAGS",
                        help="extra flags for every convopt run (shell-quoted), e.g. --convopt-flags=--conv-form=im2col; "
                             "a --pass-pipeline=... replaces --lower-conv-bwd")
    parser.add_argument("--quiet-wait", type=float, default=0.0, metavar="S",
                        help=f"wait and time again, up to S seconds per timing loop, while other processes use > {100 * QUIET:.0f}%% of the CPU")
    parser.add_argument("--target-cpu", default="host", help="IREE's --iree-llvmcpu-target-cpu (znver2 or haswell: AVX2 code, which this AVX-512 host runs too)")
    parser.add_argument("--tool-runs", type=int, default=3, help="runs of each tool command for the tool wall times (0: none)")
    parser.add_argument("--variants", default="", metavar="V,V",
                        help=f"comma-separated IREE variants to run (default: all: {', '.join(VARIANTS)}); PyTorch and Inductor always run")
    parser.add_argument("--inductor-cache", action="store_true",
                        help="keep Inductor's caches (a second run of the same models, e.g. --target-cpu=znver2, whose Inductor "
                             "times do not depend on it: a warm build, so its build column is not a cold build's)")
    parser.add_argument("--cost-profile", default="", metavar="FILE",
                        help="also time the recipe with convopt --cost-profile=FILE (variant 'convopt calibrated + IREE'), reported as the recipe")
    parser.add_argument("--baseline", default="", metavar="REF",
                        help="also time the README recipe with convopt as committed at git REF (variant 'convopt fwd + IREE @REF')")
    return parser


def configure(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """The variants, stages and IREE flags the arguments choose (module globals)."""
    INDUCTOR_CACHE[0] = args.inductor_cache
    chosen = [v for v in args.variants.split(",") if v]
    if args.cost_profile:
        add_calibrated(args.cost_profile)
        chosen += [CALIBRATED] if chosen else []
    if args.baseline:
        baseline = add_baseline(args.baseline)
        chosen += [baseline] if chosen else []
    if [v for v in chosen if v not in VARIANTS]:
        parser.error(f"unknown variant(s) {[v for v in chosen if v not in VARIANTS]}; known: {', '.join(VARIANTS)}")
    for v in list(VARIANTS) if chosen else ():
        if v not in chosen:
            del VARIANTS[v]
    TOOL_RUNS[0] = args.tool_runs
    IREE_FLAGS[-1] = f"--iree-llvmcpu-target-cpu={args.target_cpu}"


def main() -> None:
    parser = arguments()
    args = parser.parse_args()
    configure(args, parser)
    if args.merge:
        merge(args.merge, Path(args.out), args.name)
        return
    names = [n for n in args.models.split(",") if n] or list(MODELS)
    if args.convopt_flags:
        extra = tuple(shlex.split(args.convopt_flags))
        for stage, (prog, flags, source) in list(STAGES.items()):
            if prog == "convopt":
                # a pipeline of its own replaces --lower-conv-bwd (the one command then fails: it needs it)
                mine = extra if any(f.startswith("--pass-pipeline") for f in extra) else (*flags, *extra)
                STAGES[stage] = (prog, mine, source)
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        parser.error(f"unknown model(s) {unknown}; known: {', '.join(MODELS)}")
    tmp: Optional[tempfile.TemporaryDirectory] = None
    if args.work:
        root = Path(args.work)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="convopt-bench-models-")
        root = Path(tmp.name)
    rows = []
    for name in names:
        work = root / name
        work.mkdir(parents=True, exist_ok=True)
        row = run_model(name, args.repeats, args.threads, work, args.quiet_wait)
        rows.append(row)
        print("\n".join(report_model(row)), flush=True)
        if args.profile:
            spec = MODELS[name]
            np_args = [a.detach().contiguous().numpy() for a in spec.arguments(spec.run_batch)]
            row["profile"] = profile(row, work, args.threads, np_args) + inductor_profile(name, args.threads)
            print("\n".join(row["profile"]), flush=True)
        if args.ops:
            row["ops"] = run_ops(name, args.repeats, args.threads, work, min(args.quiet_wait, OPS_QUIET_WAIT))
            print("\n".join(report_ops(row)), flush=True)
    text = write_results(rows, Path(args.out), {**host.meta(args.target_cpu), "threads": args.threads, "repeats": args.repeats, "convopt_flags": args.convopt_flags, "target_cpu": args.target_cpu,
                                                   "inductor_cache": args.inductor_cache, "variants": list(VARIANTS),
                                                   "host": host.line(), "cost_profile": args.cost_profile}, args.name)
    print("\n" + text)
    if tmp is not None:
        tmp.cleanup()


if __name__ == "__main__":
    main()
