"""Lower each calibration kernel in every candidate form, compile the
distinct ones with IREE for this CPU and time them.

A candidate is a forced `--conv-form` with a peel policy, and the
packed (mmt4d) variant of the matmul forms where this CPU has packed
tiles; what each candidate emitted, its variant and the `Work` the cost
model counts for it, is read from the registry's choice
(registry.observing), so the rows the fit reads are the cost model's own
estimates of exactly the IR that was timed.  Candidates that emit the same
text are compiled and timed once.  The packed candidates' results are
checked against the generic form's on the same inputs: tiles IREE
miscompiles on this CPU are refused (packed.py MAX_N0_WITHOUT_AVX512).
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple, Optional

from ..lowering.kernel.cost import FIELDS, Work
from .kernels import Kernel, torch_text


class Candidate(NamedTuple):
    """A forced form, peel policy, and whether the packed variant is
    offered (and preferred) to it."""

    form: str
    peel: str = "auto"
    packed: bool = False

    @property
    def label(self) -> str:
        return f"{self.form}{'/never' if self.peel == 'never' else ''}{'+packed' if self.packed else ''}"


CANDIDATES = (Candidate("generic"), Candidate("generic", "never"), Candidate("im2col"), Candidate("im2col", "never"), Candidate("named"))
PACKED = (Candidate("im2col", packed=True), Candidate("im2col", "never", packed=True))


class Lowered(NamedTuple):
    """One candidate's IR and what the cost model counts for it."""

    candidate: Candidate
    variant: str
    work: Work
    text: str


class Row(NamedTuple):
    """One timed candidate of one kernel."""

    kernel: str
    label: str
    variant: str
    work: tuple[float, ...]
    seconds: float


def profile_file(folder: str, cpu_class: str, flags: Sequence[str], costs: dict[str, float], packed: Sequence[str], name: str) -> str:
    """A cost profile (calibrated.py) with these costs, for lowering the
    candidates: the class's own costs, or with packed ones nearly free so
    that a forced im2col takes its packed variant."""
    from ..lowering.kernel import calibrated

    path = os.path.join(folder, f"{name}.json")
    with open(path, "w") as f:
        json.dump({"format": calibrated.FORMAT, "version": calibrated.VERSION, "cpu": {"model": "", "class": cpu_class, "flags": sorted(flags)},
                   "iree": {"version": "", "target_cpu": "host"}, "threads": 1, "costs": costs, "packed": list(packed)}, f)
    return path


def lower(kernel: Kernel, candidate: Candidate, profile: str) -> Optional[Lowered]:
    """The candidate's IR (None where the kernel made no single choice)."""
    from ..driver import Options, run_text
    from ..lowering.choices import Peel
    from ..lowering.forms import registry
    from ..pass_options import KernelOptions
    from ..pipelines import PipelineOptions, default_pipeline

    seen: list[Any] = []
    forced = KernelOptions(conv_form=candidate.form, cost_profile=profile, peel=Peel(candidate.peel))
    pipeline = default_pipeline(PipelineOptions(lower_conv_bwd=True, kernel=forced))
    with registry.observing(lambda req, pick: seen.append(pick)):
        text = run_text(torch_text(kernel), Options(pipeline=pipeline), kernel.name)
    if len(seen) != 1:
        return None
    pick = seen[0]
    if candidate.packed and not pick.variant.name.endswith("+packed"):
        return None
    return Lowered(candidate, f"{pick.form.name}/{pick.variant.name}", pick.variant.work, text)


def lower_all(kernel: Kernel, base_profile: str, packed_profile: Optional[str]) -> list[Lowered]:
    """Every candidate of kernel whose IR differs from the ones before it."""
    out: list[Lowered] = []
    todo = [(c, base_profile) for c in CANDIDATES] + ([(c, packed_profile) for c in PACKED] if packed_profile else [])
    for candidate, profile in todo:
        got = lower(kernel, candidate, profile)
        if got is not None and all(got.text != o.text for o in out):
            out.append(got)
    return out


Timer = Callable[[Kernel, list[Lowered]], list[tuple[float, Any]]]
"""(kernel, its candidates) -> per candidate (seconds, result array)."""


class IreeTimer:
    """Compiles with iree-compile for llvm-cpu and this CPU (`target_cpu`),
    runs on IREE's local-task runtime with `threads` workers; each
    candidate's time is the least of `repeats` interleaved rounds
    (after one warm-up call each), on the same device-resident inputs."""

    def __init__(self, threads: int, repeats: int, target_cpu: str = "host", jobs: int = 2):
        import iree.runtime as ireert

        self.threads, self.repeats, self.target_cpu, self.jobs = threads, repeats, target_cpu, jobs
        ireert.flags.parse_flags(f"--task_topology_max_group_count={threads}")
        self.config = ireert.Config("local-task")

    def compile(self, texts: list[str]) -> list[bytes]:
        import iree.compiler as ireec

        def one(text: str) -> bytes:
            return ireec.compile_str(text, target_backends=["llvm-cpu"], extra_args=[f"--iree-llvmcpu-target-cpu={self.target_cpu}"])

        with ThreadPoolExecutor(self.jobs) as pool:
            return list(pool.map(one, texts))

    def __call__(self, kernel: Kernel, cands: list[Lowered]) -> list[tuple[float, Any]]:
        import iree.runtime as ireert
        import numpy as np

        rng = np.random.default_rng(0)
        args = [rng.standard_normal(s).astype(np.float32) for s in kernel.layer.shapes()]
        fns = []
        for vmfb in self.compile([c.text for c in cands]):
            ctx = ireert.SystemContext(config=self.config)
            ctx.add_vm_module(ireert.VmModule.copy_buffer(ctx.instance, vmfb))
            fns.append(ctx.modules.module["main"])
        dev = [ireert.asdevicearray(self.config.device, a) for a in args]
        results = [np.asarray(fn(*dev).to_host()) for fn in fns]
        best = [float("inf")] * len(fns)
        for _ in range(self.repeats):
            for i, fn in enumerate(fns):
                t0 = time.perf_counter()
                out = fn(*dev)
                out.to_host()
                best[i] = min(best[i], time.perf_counter() - t0)
        return list(zip(best, results))


def packed_right(cands: list[Lowered], timed: list[tuple[float, Any]]) -> bool:
    """Whether every packed candidate's result matches the first
    candidate's (generic) within f32 accumulation error."""
    import numpy as np

    ref = timed[0][1]
    scale = max(1.0, float(np.max(np.abs(ref))))
    return all(float(np.max(np.abs(r - ref))) <= 1e-3 * scale for c, (_, r) in zip(cands, timed) if c.candidate.packed)


def measure(kernels: Sequence[Kernel], timer: Timer, cpu_class: str, flags: Sequence[str], class_costs: dict[str, float], packed: Sequence[str],
            progress: Callable[[str], None] = lambda s: None) -> tuple[list[Row], bool]:
    """Rows of every distinct candidate of every kernel, and whether the
    packed tiles (if any were offered) computed right on every kernel."""
    rows: list[Row] = []
    right = True
    with tempfile.TemporaryDirectory(prefix="convopt-calibrate-") as folder:
        base = profile_file(folder, cpu_class, flags, class_costs, (), "base")
        fast_packed = profile_file(folder, cpu_class, flags, {**class_costs, "packed": 1e-6}, packed, "packed") if packed else None
        for i, kernel in enumerate(kernels, 1):
            t0 = time.monotonic()
            cands = lower_all(kernel, base, fast_packed)
            timed = timer(kernel, cands)
            ok = packed_right(cands, timed)
            right = right and ok
            for c, (seconds, _) in zip(cands, timed):
                if c.candidate.packed and not ok:
                    continue
                rows.append(Row(kernel.name, c.candidate.label, c.variant, tuple(getattr(c.work, f) for f in FIELDS), seconds))
            best = min(zip(cands, timed), key=lambda x: x[1][0])
            progress(f"[{i}/{len(kernels)}] {kernel.name}: {len(cands)} candidates, fastest {best[0].variant} {best[1][0] * 1e3:.3f} ms"
                     f"{'' if ok else ' (packed tiles computed wrong results: refused)'} ({time.monotonic() - t0:.1f} s)")
    return rows, right
