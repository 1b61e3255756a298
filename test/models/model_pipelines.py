"""The pipelines a user runs on a raw backward graph, as the model suite
runs them: each step one command of the tools installed next to the running
Python (the project's virtualenv), each stage's output a file in a work
directory (so a failure names the file that reproduces it).

  iree               raw -> convopt --lower-conv-bwd --lower-pool-bwd -> iree-compile --iree-input-type=torch
                     (convopt's output is mixed: the other torch ops remain)
  iree-forward-convs raw -> convopt --lower-conv-bwd --lower-pool-bwd --lower-forward-convs
                     -> iree-compile --iree-input-type=torch
                     (the forward aten.convolution ops through convopt too: none may be left)
  gpu-forward-convs  the same with --device=gpu (the GPU recipe's IR, max-pool backward a gather)
  gpu                raw -> convopt --lower-conv-bwd --lower-pool-bwd --device=gpu -> iree-compile
                     (README's first GPU recipe; GPU_PIPELINES, not run by test_models)
  torch-mlir-stages  raw -> torch-mlir-opt frontend stage (convolution_backward legal)
                     -> convopt --lower-conv-bwd --lower-pool-bwd
                     -> torch-mlir-opt linalg stage -> iree-compile (input type auto)
  one-command        raw -> convopt --lower-conv-bwd --lower-pool-bwd --torch-mlir-stages -> iree-compile (auto)

--lower-pool-bwd (README's recipes have it) lowers avg_pool2d/3d_backward,
which neither torch-mlir nor IREE lowers; on a graph without one it changes
nothing.

Then the module runs with iree.runtime (llvm-cpu, host CPU, local-sync) and
its results are compared with the reference.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import numpy as np

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
TIMEOUT = 900

FRONTEND = "builtin.module(torch-function-to-torch-backend-pipeline{backend-legal-ops=aten.convolution_backward})"
LINALG = "builtin.module(torch-backend-to-linalg-on-tensors-backend-pipeline)"
CONV_BWD = "torch.aten.convolution_backward"
RECIPE = ("--lower-conv-bwd", "--lower-pool-bwd")
AVG_POOL_BWD = re.compile(r"= torch\.aten\.avg_pool[123]d_backward ")
IREE_FLAGS = ("--iree-hal-target-backends=llvm-cpu", f"--iree-llvmcpu-target-cpu={os.environ.get('CONVOPT_IREE_TARGET_CPU', 'host')}")


class StepFailed(RuntimeError):
    """A command of a pipeline exited non-zero; the message has the command
    line and the end of its stderr."""

    def __init__(self, cmd: list[str], stderr: str):
        self.cmd = cmd
        self.stderr = stderr
        super().__init__(f"`{' '.join(cmd)}` failed:\n{stderr[-3000:]}")


def tool(name: str) -> str:
    path = shutil.which(name, path=str(BIN))
    if path is None:
        raise FileNotFoundError(f"'{name}' is not installed next to {sys.executable}")
    return path


def run(cmd: list[str]) -> str:
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
    if proc.returncode != 0:
        raise StepFailed(cmd, proc.stderr)
    return proc.stdout


def count_conv_bwd(text: str) -> int:
    """convolution_backward ops in a module's text (each op is one line)."""
    return sum(1 for line in text.splitlines() if f"= {CONV_BWD} " in line)


@dataclass
class Lowered:
    """What a pipeline made: the module for iree-compile, its input type,
    and every module convopt printed (which must hold no conv backward)."""

    path: Path
    input_type: str
    convopt_outputs: list[Path] = field(default_factory=list)
    stages: dict[str, Path] = field(default_factory=dict)


def iree(raw: Path, work: Path) -> Lowered:
    out = work / "convopt.mlir"
    run([tool("convopt"), *RECIPE, str(raw), "-o", str(out)])
    return Lowered(out, "torch", [out])


def iree_forward_convs(raw: Path, work: Path) -> Lowered:
    out = work / "convopt.mlir"
    run([tool("convopt"), *RECIPE, "--lower-forward-convs", str(raw), "-o", str(out)])
    return Lowered(out, "torch", [out])


def gpu(raw: Path, work: Path) -> Lowered:
    """README's GPU recipe (the forms IREE's GPU backends build; the forward
    convolutions and the max-pool backward left to IREE), run here on the CPU."""
    out = work / "convopt.mlir"
    run([tool("convopt"), *RECIPE, "--device=gpu", str(raw), "-o", str(out)])
    return Lowered(out, "torch", [out])


def gpu_forward_convs(raw: Path, work: Path) -> Lowered:
    """The second GPU recipe's IR (the forms IREE's GPU backends build,
    forward convolutions and max-pool backward as a gather included), run
    here on the CPU."""
    out = work / "convopt.mlir"
    run([tool("convopt"), *RECIPE, "--lower-forward-convs", "--device=gpu", str(raw), "-o", str(out)])
    return Lowered(out, "torch", [out])


def torch_mlir_stages(raw: Path, work: Path) -> Lowered:
    frontend = work / "frontend.mlir"
    lowered = work / "convopt.mlir"
    linalg = work / "linalg.mlir"
    run([tool("torch-mlir-opt"), f"--pass-pipeline={FRONTEND}", str(raw), "-o", str(frontend)])
    run([tool("convopt"), *RECIPE, str(frontend), "-o", str(lowered)])
    run([tool("torch-mlir-opt"), f"--pass-pipeline={LINALG}", str(lowered), "-o", str(linalg)])
    return Lowered(linalg, "auto", [lowered], {"frontend": frontend})


def one_command(raw: Path, work: Path) -> Lowered:
    out = work / "linalg.mlir"
    run([tool("convopt"), *RECIPE, "--torch-mlir-stages", str(raw), "-o", str(out)])
    return Lowered(out, "auto", [out])


def one_command_forward_convs(raw: Path, work: Path) -> Lowered:
    """The one command with convopt lowering the forward convolutions too
    (for the models whose forward convolutions torch-mlir lowers to invalid
    IR: model_zoo's known failures)."""
    out = work / "linalg.mlir"
    run([tool("convopt"), *RECIPE, "--lower-forward-convs", "--torch-mlir-stages", str(raw), "-o", str(out)])
    return Lowered(out, "auto", [out])


PIPELINES = {"iree": iree, "iree-forward-convs": iree_forward_convs, "gpu-forward-convs": gpu_forward_convs, "torch-mlir-stages": torch_mlir_stages, "one-command": one_command}
GPU_PIPELINES = {"gpu": gpu, "gpu-forward-convs": gpu_forward_convs}
"""README's two GPU recipes (test_lowp runs the bf16/f16 steps through them on the CPU)."""


def compile_vmfb(lowered: Lowered, work: Path, cache: Optional[Path] = None) -> tuple[Path, bool]:
    """iree-compile the pipeline's module; returns (vmfb, whether it came
    from cache).  With a cache directory (shared by the processes of one
    test session) a module whose text and flags were compiled before is not
    compiled again: the one-command pipeline prints the same module as the
    stage-by-stage one."""
    cmd = [tool("iree-compile"), f"--iree-input-type={lowered.input_type}", *IREE_FLAGS]
    if cache is None:
        vmfb = work / "module.vmfb"
        run([*cmd, str(lowered.path), "-o", str(vmfb)])
        return vmfb, False
    key = hashlib.sha256("\0".join([*cmd[1:], lowered.path.read_text()]).encode()).hexdigest()[:24]
    os.makedirs(cache, exist_ok=True)
    vmfb = cache / f"{key}.vmfb"
    with open(cache / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker compiling the same module: wait for it
        if vmfb.exists():
            return vmfb, True
        partial = cache / f"{key}.{os.getpid()}.partial"
        run([*cmd, str(lowered.path), "-o", str(partial)])
        os.replace(partial, vmfb)
    return vmfb, False


def run_vmfb(vmfb: Path, args: list[np.ndarray], function: str = "main") -> list[np.ndarray]:
    import iree.runtime as ireert

    config = ireert.Config("local-sync")
    ctx = ireert.SystemContext(config=config)
    with open(vmfb, "rb") as f:
        ctx.add_vm_module(ireert.VmModule.copy_buffer(ctx.instance, f.read()))
    result = ctx.modules.module[function](*args)
    if not isinstance(result, (tuple, list)):
        result = [result]
    return [np.asarray(r.to_host()) for r in result]


def relative_error(got: np.ndarray, ref: np.ndarray) -> float:
    """max|got - ref| / max(1, max|ref|) (0 for empty tensors)."""
    if ref.size == 0:
        return 0.0
    ref64 = ref.astype(np.float64)
    scale = max(1.0, float(np.max(np.abs(ref64))))
    return float(np.max(np.abs(got.astype(np.float64) - ref64))) / scale


def workdir(root: Path, *parts: str) -> Path:
    path = root.joinpath(*parts)
    os.makedirs(path, exist_ok=True)
    return path


def result_errors(names: list[str], got: list[np.ndarray], ref: list[np.ndarray]) -> dict[str, float]:
    """Relative error per floating-point result; integer results must be exact."""
    errors: dict[str, float] = {}
    for res_name, g, r in zip(names, got, ref):
        assert g.shape == r.shape, f"{res_name}: shape {g.shape} != {r.shape}"
        if np.issubdtype(r.dtype, np.integer):
            assert np.array_equal(g, r), f"{res_name}: {g} != {r}"
            continue
        errors[res_name] = relative_error(g, r)
    return errors
