"""Semantic fuzzing of the window family under `--lower-pool-bwd`.

    python test/fuzz/window.py --count 2000 --seed 1             # 2,000 configurations per op
    python test/fuzz/window.py --op max_fwd --count 200 --iree 4  # one op, 4 through IREE

Ops (OPS):

    avg_bwd   aten.avg_pool2d/3d_backward (1-D as PyTorch's avg_pool1d: the 2-D op over a unit dim):
              kernel, stride, padding <= kernel/2, ceil_mode, count_include_pad, divisor_override
    max_bwd   aten.max_pool3d_with_indices_backward (the max-pool backward convopt lowers; the 2-D one is
              torch-mlir's): kernel, stride, padding, dilation, ceil_mode, the indices of PyTorch's forward
    max_fwd   aten.max_pool1d/2d/3d and _with_indices: also dilation; ties, NaN and -inf inputs

each over 1-3 spatial dims (max_bwd: 3), f32/f16/bf16/f64, static and dynamic sizes (batch,
spatial; channels for max_fwd) and unbatched inputs.  A valid configuration is lowered with one of
FLAG_SETS (--lower-pool-bwd alone, the README's recipe, the gpu profile, im2col), run by the
reference interpreter (convopt/interp) and compared with PyTorch: avg_bwd and max_bwd at
harness.TOLERANCE, max_fwd exactly (values and indices).  `--iree N` also compiles and runs the
first N valid configurations per op with IREE (llvm-cpu).

Broken variants (BROKEN_KINDS: padding over half the window, a zero stride, a zero dilation, a
window larger than the padded input, a zero divisor_override) are first given to PyTorch (its
forward and backward on zero tensors of those shapes must refuse them), then to convopt, which must
answer with a located error `window.mlir:LINE:COL: error: ...`:

    PyTorch refuses, convopt refuses (located)    rejected   good
    PyTorch refuses, convopt lowers               wrong      bug
    PyTorch accepts                               accepted   the variant is not broken (counted, not a failure)
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Optional

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import semantic  # noqa: E402, I001  (puts test/e2e and the repository on sys.path)
import harness  # noqa: E402
import pool_harness as ph  # noqa: E402
import test_max_pool_bwd as mpb  # noqa: E402

OPS = ("avg_bwd", "max_bwd", "max_fwd")
FLAG_SETS = (("--lower-pool-bwd",), ("--lower-conv-bwd", "--lower-pool-bwd"), ("--lower-pool-bwd", "--device=gpu"),
             ("--lower-pool-bwd", "--conv-form=im2col"))
BROKEN_KINDS = ("padding_over_half", "zero_stride", "zero_dilation", "window_too_large", "zero_divisor")
FAILURES = ("wrong", "over_rejected", "traceback", "unlocated", "hang")
DTYPES = ("f32", "f32", "f16", "bf16", "f64")
NAME = "window.mlir"


# --- random configurations ------------------------------------------------------------------------

def _window(rng: random.Random, nd: int, dilated: bool, at_least_kernel: bool = False, inside: bool = False) -> dict:
    """kernel, stride, padding <= kernel/2, dilation, ceil_mode and spatial
    sizes with an output of at least one position along every dim
    (at_least_kernel: input sizes >= the kernel's, avg_pool3d's check;
    inside: every window holds an input position, see has_empty_window)."""
    smax = {1: 16, 2: 9, 3: 6}[nd]
    while True:
        kernel = tuple(rng.choice([1, 2, 2, 3, 3, rng.randint(1, 5)]) for _ in range(nd))
        stride = tuple(rng.choice([1, 1, 2, 2, 3, rng.randint(1, 4)]) for _ in range(nd))
        padding = tuple(rng.randint(0, k // 2) if rng.random() < 0.5 else 0 for k in kernel)
        dilation = tuple(rng.choice([1, 1, 1, 2, 3]) if dilated else 1 for _ in range(nd))
        spatial = tuple(rng.randint(1, smax) for _ in range(nd))
        ceil = rng.random() < 0.35
        from convopt.lowering.kernel.relation import pool_output_size

        outs = [pool_output_size(n, k, s, p, ceil, d) for n, k, s, p, d in zip(spatial, kernel, stride, padding, dilation)]
        if min(outs) < 1 or (at_least_kernel and any(n < k for n, k in zip(spatial, kernel))):
            continue
        if inside and has_empty_window(spatial, kernel, stride, padding, dilation, outs):
            continue
        return dict(spatial=spatial, kernel=kernel, stride=stride, padding=padding, dilation=dilation, ceil_mode=ceil)


def has_empty_window(spatial, kernel, stride, padding, dilation, outs) -> bool:
    """Whether some window has no tap inside the input (dilation skipping
    it from the padding): PyTorch's forward then returns an index outside
    the window (maybe outside the plane), and its backward adds
    grad_output there, into another position or plane: undefined, so the
    max_bwd configurations avoid it (max_fwd checks PyTorch's index)."""
    return any(not any(0 <= s * st + d * k - p < n for k in range(kk)) for n, kk, st, p, d, o in zip(spatial, kernel, stride, padding, dilation, outs) for s in range(o))


def _dynamic(rng: random.Random, kinds: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(k for k in kinds if rng.random() < 0.25)


def random_config(op: str, rng: random.Random, index: int) -> Any:
    """A valid configuration of op (module docstring)."""
    batched = rng.random() < 0.8
    dtype = rng.choice(DTYPES)
    if op == "avg_bwd":
        nd = rng.choice([1, 2, 2, 3])
        w = _window(rng, nd, dilated=False, at_least_kernel=nd == 3)
        del w["dilation"]
        divisor = rng.choice([None, None, None, rng.randint(1, 9)])
        return ph.PoolConfig(name=f"avg_{index}", count_include_pad=rng.random() < 0.5, divisor_override=divisor, batch=rng.randint(1, 2),
                             channels=rng.randint(1, 3), batched=batched, dtype=dtype, dynamic=_dynamic(rng, ("batch", "spatial")), seed=index, **w)
    if op == "max_bwd":
        w = _window(rng, 3, dilated=True, inside=True)
        return mpb.MaxPoolConfig(name=f"maxb_{index}", batched=batched, dtype=dtype, dynamic=_dynamic(rng, ("batch", "spatial")), **w)
    w = _window(rng, rng.choice([1, 2, 2, 3]), dilated=True)
    values = rng.choice(["random", "random", "ties", "nan", "-inf"])
    return ph.MaxPoolFwdConfig(name=f"maxf_{index}", with_indices=rng.random() < 0.75, batch=rng.randint(1, 2), channels=rng.randint(1, 3),
                               batched=batched, dtype=dtype, dynamic=_dynamic(rng, ("batch", "channels", "spatial")), values=values, seed=index, **w)


# --- one case: IR, inputs, PyTorch's answer ------------------------------------------------------

@dataclass
class Case:
    op: str
    cfg: Any
    text: str
    inputs: list = field(default_factory=list)
    expected: Any = None
    compare: Optional[Callable[[list], Optional[float]]] = None  # raises AssertionError; returns the error


def valid_case(op: str, cfg: Any) -> Case:
    if op == "avg_bwd":
        go, x = ph.inputs(cfg)
        expected = ph.reference(cfg, go, x)
        return Case(op, cfg, ph.torch_ir(cfg), [harness.to_device(a, cfg.dtype) for a in (go, x)], expected,
                    lambda got: ph.compare(cfg, np.asarray(got[0]).astype(np.float64), expected))
    if op == "max_bwd":
        text, (go, x, idx), expected = mpb.case(cfg)
        return Case(op, cfg, text, [harness.to_device(go, cfg.dtype), harness.to_device(x, cfg.dtype), idx], expected,
                    lambda got: mpb.compare(cfg, np.asarray(got[0]).astype(np.float64), expected))
    x = ph.max_pool_input(cfg)
    expected = ph.max_pool_reference(cfg, x)
    return Case(op, cfg, ph.max_pool_ir(cfg), [harness.to_device(x, cfg.dtype)], expected, lambda got: ph.compare_max_pool(cfg, got, expected))


def valid_ir(op: str, cfg: Any) -> str:
    """The IR of a configuration without PyTorch's help (the indices' and
    output's shapes from the formula)."""
    return _broken_ir(op, cfg)


def _out_sizes(cfg: Any, spatial, kernel, stride, padding, dilation) -> tuple[int, ...]:
    """The declared output sizes of a broken call: PyTorch's formula where it is defined, at least 1."""
    from convopt.lowering.kernel.relation import pool_output_size

    return tuple(max(1, pool_output_size(n, k, s, p, cfg.ceil_mode, d)) if s > 0 else 1 for n, k, s, p, d in zip(spatial, kernel, stride, padding, dilation))


def broken_case(op: str, rng: random.Random, index: int, kind: Optional[str] = None) -> tuple[str, Case]:
    """A valid configuration broken in one way (BROKEN_KINDS), static sizes."""
    kinds = [k for k in BROKEN_KINDS if not (k == "zero_dilation" and op == "avg_bwd") and not (k == "zero_divisor" and op != "avg_bwd")]
    kind = kind or rng.choice(kinds)
    cfg = replace(random_config(op, rng, index), dynamic=())
    i = rng.randrange(len(cfg.spatial))
    kernel, spatial = list(cfg.kernel), list(cfg.spatial)
    stride = list(cfg.stride or cfg.kernel)
    padding = list(cfg.padding or (0,) * len(kernel))
    dilation = list(getattr(cfg, "dilation", ()) or (1,) * len(kernel))
    changes: dict[str, Any] = {}
    if kind == "padding_over_half":
        padding[i] = kernel[i] // 2 + rng.randint(1, 2)
    elif kind == "zero_stride":
        stride[i] = 0
    elif kind == "zero_dilation":
        dilation[i] = 0
    elif kind == "window_too_large":
        kernel[i] = max(kernel[i], 2)
        padding[i] = 0
        spatial[i] = rng.randint(1, dilation[i] * (kernel[i] - 1))
        changes["ceil_mode"] = False
    else:
        changes["divisor_override"] = 0
    changes.update(kernel=tuple(kernel), spatial=tuple(spatial), stride=tuple(stride), padding=tuple(padding))
    if op != "avg_bwd":
        changes["dilation"] = tuple(dilation)
    cfg = replace(cfg, **changes)
    return kind, Case(op, cfg, _broken_ir(op, cfg))


def _broken_ir(op: str, cfg: Any) -> str:
    if op == "avg_bwd":
        spatial, kernel, stride, padding = cfg.params()
        return ph.torch_ir(cfg, _out_sizes(cfg, spatial, kernel, stride, padding, (1,) * len(kernel)))
    dilation = cfg.dilation or (1,) * len(cfg.kernel)
    padding = cfg.padding or (0,) * len(cfg.kernel)
    out = _out_sizes(cfg, cfg.spatial, cfg.kernel, cfg.stride or cfg.kernel, padding, dilation)
    if op == "max_bwd":
        return mpb.torch_ir(cfg, (*cfg.lead(), *cfg.spatial), (*cfg.lead(), *out))
    return ph.max_pool_ir(cfg, (*cfg.lead(), *out))


def torch_refuses(case: Case) -> Optional[str]:
    """PyTorch's refusal of a broken call (its forward, then its backward,
    on zero tensors of the IR's shapes), or None when it accepts it."""
    import torch

    cfg = case.cfg
    z = torch.zeros
    try:
        if case.op == "avg_bwd":
            spatial, kernel, stride, padding = cfg.params()
            x = z(*cfg.lead(), *spatial, dtype=torch.float64)
            args = (list(kernel), list(stride), list(padding), cfg.ceil_mode, cfg.count_include_pad, cfg.divisor_override)
            fwd, bwd = (torch.ops.aten.avg_pool2d, torch.ops.aten.avg_pool2d_backward) if len(kernel) == 2 else (torch.ops.aten.avg_pool3d, torch.ops.aten.avg_pool3d_backward)
            y = fwd(x, *args)
            bwd(torch.zeros_like(y), x, *args)
        else:
            fn = {1: torch.ops.aten.max_pool1d_with_indices, 2: torch.ops.aten.max_pool2d_with_indices, 3: torch.ops.aten.max_pool3d_with_indices}[len(cfg.kernel)]
            dilation = list(cfg.dilation or (1,) * len(cfg.kernel))
            args = (list(cfg.kernel), list(cfg.stride or cfg.kernel), list(cfg.padding or (0,) * len(cfg.kernel)), dilation, cfg.ceil_mode)
            x = z(*cfg.lead(), *cfg.spatial, dtype=torch.float64)
            y, idx = fn(x, *args)
            if case.op == "max_bwd":
                torch.ops.aten.max_pool3d_with_indices_backward(torch.zeros_like(y), x, *args, idx)
    except Exception as e:  # noqa: BLE001 - PyTorch's verdict, whatever it raises
        return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]
    return None


# --- lowering and judging --------------------------------------------------------------------------

class Refused(Exception):
    """convopt's diagnostics (rendered) for an input it refused."""


def lower_text(text: str, flags: tuple[str, ...]) -> str:
    """convopt in-process with --lower-pool-bwd and the kernel options of flags; Refused on error."""
    from convopt.cli import flags_pipeline
    from convopt.diagnostics import DiagnosticEngine, SourceFile
    from convopt.driver import Options, process

    pipeline = flags_pipeline(("--lower-pool-bwd", *flags))
    engine = DiagnosticEngine()
    out = process(SourceFile(NAME, text), Options(pipeline=pipeline), engine)
    if out is None:
        raise Refused("\n".join(d.render() for d in engine.diagnostics))
    return out


def _located(text: str) -> Optional[str]:
    """None when text starts with a located error in window.mlir, else why not."""
    first = text.splitlines()[0] if text else ""
    m = semantic.LOCATED.match(first)
    if "internal error" in text or "Traceback" in text:
        return text[:1500]
    if not m or m.group("name") != NAME or int(m.group("line")) < 1 or int(m.group("col")) < 1:
        return "not a located error: " + first[:300]
    return None


def check_valid(case: Case, flags: tuple[str, ...]) -> semantic.Outcome:
    """Lower (within semantic.TIME_BOUND), interpret, compare with PyTorch."""
    from convopt.interp import run_text

    start = time.perf_counter()

    def done(status: str, detail: str = "", err: float = 0.0) -> semantic.Outcome:
        return semantic.Outcome(status, detail, err, time.perf_counter() - start)

    try:
        lowered = semantic._with_bound(lambda: lower_text(case.text, flags), semantic.TIME_BOUND)
    except Refused as e:
        why = _located(str(e))
        return done("unlocated" if why else "over_rejected", why or f"PyTorch accepts; convopt: {str(e).splitlines()[0]}")
    except semantic.Timeout:
        return done("hang", f"lowering took over {semantic.TIME_BOUND} s")
    except Exception:
        return done("traceback", traceback.format_exc(limit=20))
    if "torch.aten.avg_pool" in lowered or "torch.aten.max_pool" in lowered:
        return done("wrong", "a pooling op is left in the output")
    try:
        got = semantic._with_bound(lambda: run_text(lowered, "main", case.inputs, name=case.cfg.name), semantic.TIME_BOUND)
        assert case.compare is not None
        err = case.compare(got)
    except semantic.Timeout:
        return done("hang", f"interpreting took over {semantic.TIME_BOUND} s")
    except AssertionError as e:
        return done("wrong", str(e)[:1500], math.inf)
    except Exception:
        return done("wrong", "the interpreter raised on convopt's output:\n" + traceback.format_exc(limit=12))
    return done("ok", "", float(err or 0.0))


def check_broken(case: Case, flags: tuple[str, ...]) -> semantic.Outcome:
    start = time.perf_counter()
    verdict = torch_refuses(case)
    if verdict is None:
        return semantic.Outcome("accepted", "PyTorch accepts this variant", elapsed=time.perf_counter() - start)
    try:
        semantic._with_bound(lambda: lower_text(case.text, flags), semantic.TIME_BOUND)
    except Refused as e:
        why = _located(str(e))
        return semantic.Outcome("unlocated" if why else "rejected", why or str(e).splitlines()[0], elapsed=time.perf_counter() - start)
    except semantic.Timeout:
        return semantic.Outcome("hang", "lowering took too long", elapsed=time.perf_counter() - start)
    except Exception:
        return semantic.Outcome("traceback", traceback.format_exc(limit=20), elapsed=time.perf_counter() - start)
    return semantic.Outcome("wrong", f"PyTorch refuses ({verdict}); convopt lowered it", elapsed=time.perf_counter() - start)


def check_iree(case: Case, flags: tuple[str, ...]) -> Optional[str]:
    """None when IREE's build of convopt's output computes PyTorch's answer, else why not."""
    try:
        lowered = lower_text(case.text, flags)
        harness.torch_mlir_verify(lowered)
        got = harness.compile_and_run(lowered, case.inputs, f64=case.cfg.dtype == "f64")
        assert case.compare is not None
        case.compare(got)
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {str(e)[:1500]}"
    return None


# --- campaign -------------------------------------------------------------------------------------

@dataclass
class WindowSummary:
    seed: int
    valid: dict = field(default_factory=lambda: {op: Counter() for op in OPS})
    broken: dict = field(default_factory=lambda: {op: Counter() for op in OPS})
    iree: dict = field(default_factory=lambda: {op: Counter() for op in OPS})
    kinds: Counter = field(default_factory=Counter)
    failures: list = field(default_factory=list)
    max_error: dict = field(default_factory=dict)
    elapsed: float = 0.0

    @property
    def failed(self) -> int:
        return sum(c[s] for d in (self.valid, self.broken) for c in d.values() for s in FAILURES) + sum(c["failed"] for c in self.iree.values())

    def report(self) -> str:
        lines = [f"window seed {self.seed}: {self.elapsed:.1f} s"]
        for op in OPS:
            if self.valid[op] or self.broken[op]:
                lines.append(f"  {op:8} valid: " + "  ".join(f"{k} {n}" for k, n in sorted(self.valid[op].items()))
                             + "   broken: " + "  ".join(f"{k} {n}" for k, n in sorted(self.broken[op].items()))
                             + ("   IREE: " + "  ".join(f"{k} {n}" for k, n in sorted(self.iree[op].items())) if self.iree[op] else ""))
        if self.max_error:
            lines.append("  worst relative error: " + "  ".join(f"{d} {e:.2g}/{harness.TOLERANCE[d]}" for d, e in sorted(self.max_error.items())))
        lines.append("  broken kinds: " + ", ".join(f"{k} {n}" for k, n in sorted(self.kinds.items())))
        lines += [f"  FAIL {f}" for f in self.failures[:40]]
        return "\n".join(lines)


def run_window(seed: int, count: int, ops: tuple[str, ...] = OPS, broken_ratio: float = 0.3, iree: int = 0, start: int = 0, log=None) -> WindowSummary:
    """count valid configurations per op (and about broken_ratio*count broken variants)."""
    import torch

    torch.set_num_threads(1)
    summary = WindowSummary(seed)
    t0, last = time.perf_counter(), time.monotonic()
    for op in ops:
        iree_left = iree
        for n in range(start, start + count):
            rng = random.Random(f"convopt-window:{seed}:{op}:{n}")
            cfg = random_config(op, rng, n)
            flags = rng.choice(FLAG_SETS)
            try:
                case = valid_case(op, cfg)
            except Exception:  # noqa: BLE001 - PyTorch refuses what the generator thought valid: judged as broken
                cfg = replace(cfg, dynamic=())
                bcase = Case(op, cfg, valid_ir(op, cfg))
                summary.kinds[f"{op}:generated"] += 1
                b = check_broken(bcase, flags)
                summary.broken[op][b.status] += 1
                if b.status in FAILURES + ("accepted",):
                    summary.failures.append(f"generated {op} #{n} {cfg}: {b.status}: {b.detail[:1500]}")
                continue
            o = check_valid(case, flags)
            summary.valid[op][o.status] += 1
            if o.status == "ok":
                summary.max_error[cfg.dtype] = max(summary.max_error.get(cfg.dtype, 0.0), o.error)
                if iree_left > 0:
                    iree_left -= 1
                    why = check_iree(case, flags)
                    summary.iree[op]["ok" if why is None else "failed"] += 1
                    if why is not None:
                        summary.failures.append(f"IREE {op} #{n} {flags} {cfg}: {why}")
            else:
                summary.failures.append(f"valid {op} #{n} {flags} {cfg}: {o.status}: {o.detail[:1500]}")
            if rng.random() < broken_ratio:
                kind, bcase = broken_case(op, rng, n)
                summary.kinds[f"{op}:{kind}"] += 1
                b = check_broken(bcase, flags)
                summary.broken[op][b.status] += 1
                if b.status in FAILURES:
                    summary.failures.append(f"broken[{kind}] {op} #{n} {bcase.cfg}: {b.status}: {b.detail[:1500]}")
            if log is not None and time.monotonic() - last > 30:
                last = time.monotonic()
                log(f"  ... {op} {n + 1 - start}/{count}, {summary.failed} failures, {time.perf_counter() - t0:.0f} s")
    summary.elapsed = time.perf_counter() - t0
    return summary


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=200, help="valid configurations per op")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--op", choices=OPS + ("all",), default="all")
    ap.add_argument("--broken", type=float, default=0.3, help="broken variants per valid configuration")
    ap.add_argument("--iree", type=int, default=0, help="valid configurations per op also checked through IREE")
    ap.add_argument("--ir", type=int, metavar="INDEX", help="print the IR of valid configuration INDEX of --op and exit")
    args = ap.parse_args(argv)
    ops = OPS if args.op == "all" else (args.op,)
    if args.ir is not None:
        op = ops[0]
        sys.stdout.write(valid_case(op, random_config(op, random.Random(f"convopt-window:{args.seed}:{op}:{args.ir}"), args.ir)).text)
        return 0
    summary = run_window(args.seed, args.count, ops, args.broken, args.iree, args.start, log=lambda m: print(m, flush=True))
    print(summary.report(), flush=True)
    return 1 if summary.failed else 0


if __name__ == "__main__":
    sys.exit(main())
