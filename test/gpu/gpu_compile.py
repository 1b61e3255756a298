"""Compile-only checks for IREE's GPU backends (no device needed).

One iree-compile run per (target, input): the exact flags of each GPU
target, a timeout, and what came out -- built or not, the build's wall
seconds, the first error line and the op it names (IREE's
"see current operation" note, else the op at the error's location).

    rocm    --iree-hal-target-backends=rocm --iree-rocm-target=gfx942      (MI300)
    cuda    --iree-hal-target-backends=cuda --iree-cuda-target=sm_80       (A100)
    vulkan  --iree-hal-target-backends=vulkan-spirv --iree-vulkan-target=rdna3  (RDNA3's SPIR-V env)

IREE's default Vulkan environment has no Int64: every model with a
BatchNorm (its i64 num_batches_tracked) fails there, the raw import alike
('vector.broadcast' of i64 illegal), so the Vulkan target names a device
class (rdna3) whose environment has it.

Inputs are torch-dialect IR (--iree-input-type=torch): convopt's output
mixes torch and linalg, and the raw import is the same torch IR given to
iree-compile directly (IREE lowers convolution_backward itself).
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

TARGETS: dict[str, tuple[str, ...]] = {
    "rocm": ("--iree-hal-target-backends=rocm", "--iree-rocm-target=gfx942"),
    "cuda": ("--iree-hal-target-backends=cuda", "--iree-cuda-target=sm_80"),
    "vulkan": ("--iree-hal-target-backends=vulkan-spirv", "--iree-vulkan-target=rdna3"),
}
COMMON = ("--iree-input-type=torch",)
TIMEOUT = float(os.environ.get("CONVOPT_GPU_TIMEOUT", "300"))


def iree_compile() -> str:
    """The iree-compile next to this Python (the project's virtualenv)."""
    return str(Path(sys.executable).with_name("iree-compile"))


@dataclass(frozen=True)
class Build:
    """One iree-compile run: ok, wall seconds, CPU seconds (user + system
    of iree-compile: on a shared machine the wall time mostly measures the
    load), first error line, failing op."""

    ok: bool
    seconds: float
    error: str = ""
    op: str = ""
    timeout: bool = False
    cpu_seconds: float = 0.0

    def short(self) -> str:
        if self.ok:
            return f"ok {self.seconds:.1f}s ({self.cpu_seconds:.1f} cpu-s)"
        if self.timeout:
            return f"timeout {self.seconds:.0f}s"
        return f"FAIL ({self.op or '?'}: {self.error})"


_ERROR = re.compile(r"error: (.*)")
_OP = re.compile(r"see current operation:\s*(?:%[^=\n]*= )?\"?([a-z_]+\.[a-z_.0-9]+)")
_OP_AT = re.compile(r"\b([a-z_]+\.[a-z_0-9]+(?:\.[a-z_0-9]+)?)\b")


def parse_failure(stderr: str) -> tuple[str, str]:
    """The first error line and the op it is about."""
    error = next((m.group(1).strip() for m in map(_ERROR.search, stderr.splitlines()) if m), "")
    if not error:
        error = next((line.strip() for line in stderr.splitlines() if line.strip()), "no output")
    op = ""
    m = _OP.search(stderr)
    if m:
        op = m.group(1)
    else:
        quoted = re.search(r"'([a-z_]+\.[a-z_.0-9]+)' op", error)
        if quoted:
            op = quoted.group(1)
    return error[:300], op


def compile_text(text: str, target: str, timeout: float = TIMEOUT) -> Build:
    """iree-compile text for target (compile-only; the .vmfb is discarded)."""
    with tempfile.TemporaryDirectory(prefix="convopt-gpu-") as tmp:
        src = os.path.join(tmp, "in.mlir")
        with open(src, "w") as f:
            f.write(text)
        cmd = [iree_compile(), src, *COMMON, *TARGETS[target], "-o", os.path.join(tmp, "out.vmfb")]
        before = _children_cpu()
        start = time.perf_counter()
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return Build(False, time.perf_counter() - start, f"timeout after {timeout:.0f}s", timeout=True)
        seconds = time.perf_counter() - start
        cpu = _children_cpu() - before
    if proc.returncode == 0:
        return Build(True, seconds, cpu_seconds=cpu)
    error, op = parse_failure(proc.stderr)
    return Build(False, seconds, error, op, cpu_seconds=cpu)


def _children_cpu() -> float:
    """User + system seconds of this process's waited-for children (one
    iree-compile runs at a time, so the difference is that run's)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def convopt_output(text: str, device: Optional[str], decomposed: bool = False, forward_convs: bool = False) -> str:
    """convopt --lower-conv-bwd --lower-pool-bwd [--lower-forward-convs] [--device=...]
    [--backend-legal-ops=] of a torch IR text (in-process): README's GPU
    recipes (the second, for IREE's backward-convolution flags, with the
    forward convolutions and the max-pool backward through convopt too)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
    import harness

    args = ["--lower-conv-bwd", "--lower-pool-bwd"]
    if forward_convs:
        args.append("--lower-forward-convs")
    if decomposed:
        args.append("--backend-legal-ops=")
    if device:
        args.append(f"--device={device}")
    return harness.lower(text, tuple(args))


_EXPORT = re.compile(r"flow\.executable\.export public @(\S+)")


def dispatch_kind(name: str) -> str:
    """An export's kind: main$async_dispatch_3_slow_memcpy -> slow_memcpy,
    ..._matmul_like_2x32x5x32_f32 -> matmul_like, ..._conv_2x32x9x32x2_f32 -> conv."""
    words = []
    for tok in re.split(r"dispatch_\d+_", name, maxsplit=1)[-1].split("_"):
        if not re.fullmatch(r"[a-z]+", tok) or re.fullmatch(r"[fi]\d+|bf\d+", tok):
            break
        words.append(tok)
    return "_".join(words) or name


def dispatches(text: str, target: str, timeout: float = TIMEOUT) -> Optional[list[str]]:
    """The export names of the flow.executable ops iree-compile forms for
    target (`--compile-to=flow`: one per distinct dispatch), or None when
    it fails there."""
    with tempfile.TemporaryDirectory(prefix="convopt-flow-") as tmp:
        src = os.path.join(tmp, "in.mlir")
        with open(src, "w") as f:
            f.write(text)
        cmd = [iree_compile(), src, *COMMON, *TARGETS[target], "--compile-to=flow", "-o", os.path.join(tmp, "out.mlir")]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None
        if proc.returncode:
            return None
        return _EXPORT.findall(Path(tmp, "out.mlir").read_text())
