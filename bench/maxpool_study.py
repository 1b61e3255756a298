"""bench/maxpool_study: max_pool2d_with_indices_backward as torch-mlir lowers
it (IREE's torch input: the raw import given to iree-compile), and where a
SqueezeNet-style training step's difference from PyTorch comes from.

1. Numerics: the forward max_pool2d_with_indices and its backward (the
   pair a training graph holds) on configurations with ceil_mode, padding,
   overlapping windows and ties (a ReLU's zeros, small integers), compiled
   by IREE from the raw import and compared with PyTorch in float64.
2. Speed: the same pair, IREE (local-task, --threads) against PyTorch
   eager, interleaved rounds, median and spread (bench/timing.py, as
   bench/pool.py times).
3. The SqueezeNet-style step (SqueezeNet 1.1 at a quarter width, 2x3x64x64,
   max pools 3x3 stride 2 ceil_mode, no BatchNorm) through the recipe
   (convopt --lower-conv-bwd --lower-pool-bwd) and IREE: per-parameter
   error against float64 and float32 eager, the smallest |ReLU input| per
   ReLU and the smallest gap between a max-pool window's largest and second
   largest value (a gap or |input| below float32's rounding of the
   forward, ~1e-6 here, can flip a ReLU mask or a max-pool index), and the
   same step with every max pool replaced by an average pool (no argmax).

    python -m bench.maxpool_study [--rounds 15] [--threads 2] [--skip-squeezenet]
"""

from __future__ import annotations

import argparse
import tempfile
from dataclasses import dataclass

from bench.testsupport import load
from bench.timing import report, summary, time_rounds


@dataclass(frozen=True)
class MaxPoolCase:
    name: str
    shape: tuple[int, ...]
    kernel: int
    stride: int
    padding: int = 0
    ceil_mode: bool = False
    data: str = "randn"  # randn | relu (zeros: ties) | int (small integers: ties)


CASES = [
    MaxPoolCase("k3s2_ceil_squeezenet", (2, 16, 31, 31), 3, 2, ceil_mode=True),
    MaxPoolCase("k3s2_ceil_relu_ties", (2, 16, 31, 31), 3, 2, ceil_mode=True, data="relu"),
    MaxPoolCase("k3s2p1_resnet", (2, 16, 32, 32), 3, 2, 1),
    MaxPoolCase("k3s2p1_ceil", (2, 16, 32, 32), 3, 2, 1, ceil_mode=True),
    MaxPoolCase("k2s2_int_ties", (2, 16, 32, 32), 2, 2, data="int"),
    MaxPoolCase("k3s1p1_int_ties", (2, 16, 16, 16), 3, 1, 1, data="int"),
]
TIMED = [
    MaxPoolCase("resnet_stem_64x112_k3s2p1", (4, 64, 112, 112), 3, 2, 1),
    MaxPoolCase("squeezenet_64x111_k3s2_ceil", (4, 64, 111, 111), 3, 2, ceil_mode=True),
    MaxPoolCase("squeezenet_256x27_k3s2_ceil", (4, 256, 27, 27), 3, 2, ceil_mode=True),
]


def data(case: MaxPoolCase):
    import torch

    gen = torch.Generator().manual_seed(0)
    x = torch.randn(case.shape, generator=gen, dtype=torch.float64)
    if case.data == "relu":
        x = x.clamp(min=0)
    elif case.data == "int":
        x = torch.randint(0, 4, case.shape, generator=gen).double()
    return x.float()


def pair(case: MaxPoolCase):
    """(grad_output, x) -> grad_input through the forward op and its backward."""
    import torch

    args = ([case.kernel] * 2, [case.stride] * 2, [case.padding] * 2, [1, 1], case.ceil_mode)

    class Pair(torch.nn.Module):
        def forward(self, go, x):
            _, idx = torch.ops.aten.max_pool2d_with_indices(x, *args)
            return torch.ops.aten.max_pool2d_with_indices_backward(go, x, *args, idx)

    return Pair()


def raw_import(module, *example) -> str:
    import torch_mlir.fx as tm_fx

    return str(tm_fx.export_and_import(module, *example, output_type="raw"))


def iree_module(text: str):
    """The raw import compiled by IREE (torch input), local-sync."""
    import iree.compiler as ireec
    import iree.runtime as ireert

    vmfb = ireec.compile_str(text, target_backends=["llvm-cpu"], extra_args=["--iree-input-type=torch", "--iree-llvmcpu-target-cpu=host"])
    ctx = ireert.SystemContext(config=ireert.Config("local-sync"))
    ctx.add_vm_module(ireert.VmModule.copy_buffer(ctx.instance, vmfb))
    return ctx.modules.module["main"]


def numerics() -> list[tuple[str, float, float]]:
    """(case, relative error of IREE's grad_input, of PyTorch float32) against float64."""
    import numpy as np
    import torch

    rows = []
    for case in CASES:
        x = data(case)
        m = pair(case)
        with torch.no_grad():
            out, _ = torch.ops.aten.max_pool2d_with_indices(x, [case.kernel] * 2, [case.stride] * 2, [case.padding] * 2, [1, 1], case.ceil_mode)
        go = torch.randn(out.shape, generator=torch.Generator().manual_seed(1))
        ref = m(go.double(), x.double()).numpy()
        fn = iree_module(raw_import(m, go, x))
        got = np.asarray(fn(go.numpy(), x.numpy()).to_host()).astype(np.float64)
        scale = max(1.0, float(np.abs(ref).max()))
        rows.append((case.name, float(np.abs(got - ref).max()) / scale, float(np.abs(m(go, x).double().numpy() - ref).max()) / scale))
    return rows


def bench_rows(rounds: int, threads: int, batch: int) -> list[dict]:
    """bench/pool.py --max-pool: the forward+backward pair, IREE from the
    raw import (torch-mlir's lowering) against PyTorch eager."""
    import dataclasses

    import numpy as np
    import torch

    from bench.emitted import timed_module

    torch.set_num_threads(threads)
    rows = []
    for case in TIMED:
        case = dataclasses.replace(case, shape=(batch, *case.shape[1:]))
        x = data(case)
        m = pair(case)
        with torch.no_grad():
            out, _ = torch.ops.aten.max_pool2d_with_indices(x, [case.kernel] * 2, [case.stride] * 2, [case.padding] * 2, [1, 1], case.ceil_mode)
        go = torch.randn(out.shape, generator=torch.Generator().manual_seed(1))
        fn, to_device = timed_module(raw_import(m, go, x), threads, ("--iree-input-type=torch",))
        args = [to_device(go.numpy()), to_device(x.numpy())]
        ref = m(go.double(), x.double()).numpy()
        err = float(np.abs(np.asarray(fn(*args).to_host()) - ref).max()) / max(1.0, float(np.abs(ref).max()))
        calls = {"torch-mlir": lambda fn=fn, args=args: fn(*args), "PyTorch": lambda m=m, go=go, x=x: m(go, x)}
        times, busy = time_rounds(calls, rounds)
        rows.append(summary(case.name, "f32", times, busy, {"torch-mlir": err}))
        med = rows[-1]["median_ms"]
        print(f"{case.name}: torch-mlir {med['torch-mlir']:.3f} ms, PyTorch {med['PyTorch']:.3f} ms", flush=True)
    return rows


# --- the SqueezeNet-style step ------------------------------------------------------------------

def squeezenet(pool: str = "max"):
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class Fire(nn.Module):
        def __init__(self, cin: int, s: int, e: int):
            super().__init__()
            self.squeeze = nn.Conv2d(cin, s, 1)
            self.e1 = nn.Conv2d(s, e, 1)
            self.e3 = nn.Conv2d(s, e, 3, padding=1)

        def forward(self, x):
            x = F.relu(self.squeeze(x))
            return torch.cat([F.relu(self.e1(x)), F.relu(self.e3(x))], 1)

    def pool2d(x):
        return F.max_pool2d(x, 3, 2, ceil_mode=True) if pool == "max" else F.avg_pool2d(x, 3, 2, ceil_mode=True)

    class SqueezeNet(nn.Module):
        """SqueezeNet 1.1 at a quarter width (no BatchNorm, max pools 3x3/2 ceil_mode)."""

        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 16, 3, stride=2)
            self.f = nn.ModuleList([Fire(16, 4, 16), Fire(32, 4, 16), Fire(32, 8, 32), Fire(64, 8, 32),
                                    Fire(64, 12, 48), Fire(96, 12, 48), Fire(96, 16, 64), Fire(128, 16, 64)])
            self.head = nn.Conv2d(128, 10, 1)

        def forward(self, x):
            x = pool2d(F.relu(self.conv1(x)))
            x = pool2d(self.f[1](self.f[0](x)))
            x = pool2d(self.f[3](self.f[2](x)))
            for f in self.f[4:]:
                x = f(x)
            return torch.flatten(F.adaptive_avg_pool2d(F.relu(self.head(x)), 1), 1)

    return SqueezeNet


def margins(spec, args) -> tuple[list[float], list[float]]:
    """Smallest |ReLU input| of each ReLU, smallest top-2 gap of each max
    pool's windows, in the float64 forward (in call order)."""
    import torch
    import torch.nn.functional as F

    n_in, n_p, _, _ = spec.counts()
    m = spec.model().double()
    with torch.no_grad():
        for (_, p), v in zip(m.named_parameters(), args[n_in:n_in + n_p]):
            p.copy_(v)
    relus: list[float] = []
    gaps: list[float] = []
    relu, max_pool = F.relu, F.max_pool2d

    def watch_relu(x, inplace=False):
        relus.append(float(x.abs().min()))
        return relu(x)

    def watch_pool(x, k, s=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
        cols = torch.nn.functional.unfold(F.pad(x, (0, 2, 0, 2), value=-float("inf")) if ceil_mode else x, k, stride=s)
        cols = cols.view(x.shape[0], x.shape[1], k * k, -1)
        top = cols.topk(2, dim=2).values
        gap = (top[:, :, 0] - top[:, :, 1])
        gaps.append(float(gap[torch.isfinite(gap)].min()))
        return max_pool(x, k, s, padding, dilation, ceil_mode, return_indices)

    F.relu, F.max_pool2d = watch_relu, watch_pool
    try:
        with torch.no_grad():
            m(*[a.double() for a in args[:n_in]])
    finally:
        F.relu, F.max_pool2d = relu, max_pool
    return relus, gaps


def squeezenet_step(pool: str, size: int = 64) -> dict:
    """The step through the recipe and IREE's own torch input (which cannot
    build an average pool's backward); errors per parameter."""
    from pathlib import Path

    import torch

    mp, generate = load("model_pipelines"), load("generate")
    spec = load("model_zoo").ModelSpec(name=f"squeezenet_{pool}", make=squeezenet(pool), inputs=((2, 3, size, size),), features=())
    args = spec.arguments()
    ref = spec.reference(args)
    ref32 = spec.reference(args, torch.float32)
    out: dict = {"errors": {}, "eager32": {}}
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "raw.mlir"
        raw.write_text(generate.render(spec))
        flows = {"recipe": mp.iree(raw, Path(tmp)), "IREE raw": mp.Lowered(raw, "torch")}
        for flow, lowered in flows.items():
            work = Path(tmp) / flow.replace(" ", "_")
            work.mkdir()
            try:
                vmfb, _ = mp.compile_vmfb(lowered, work)
            except mp.StepFailed as e:
                out["errors"][flow] = {"does not build: " + e.stderr.strip().splitlines()[0][:100]: float("nan")}
                continue
            got = mp.run_vmfb(vmfb, [a.numpy() for a in args])
            out["errors"][flow] = {n: mp.relative_error(g, r.numpy()) for n, g, r in zip(spec.result_names(), got, ref)}
    out["eager32"] = {n: mp.relative_error(a.numpy(), r.numpy()) for n, a, r in zip(spec.result_names(), ref32, ref)}
    out["relu_margins"], out["maxpool_gaps"] = margins(spec, args) if pool == "max" else (margins(spec, args)[0], [])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--skip-squeezenet", action="store_true")
    ap.add_argument("--skip-speed", action="store_true")
    ap.add_argument("--skip-numerics", action="store_true")
    ap.add_argument("--size", type=int, default=64, help="the SqueezeNet-style step's image size")
    ap.add_argument("--pools", default="max,avg", help="the SqueezeNet-style step's pooling variants")
    a = ap.parse_args()
    if not a.skip_numerics:
        print("max_pool2d_with_indices(+_backward) from the raw import through IREE, relative error vs float64:")
        for name, err, err32 in numerics():
            print(f"  {name:26} IREE {err:.2e}   PyTorch float32 {err32:.2e}")
    if not a.skip_speed:
        print(report(bench_rows(a.rounds, a.threads, a.batch)))
    if a.skip_squeezenet:
        return
    for pool in a.pools.split(","):
        r = squeezenet_step(pool, a.size)
        print(f"SqueezeNet-style step with {pool} pools, 2x3x{a.size}x{a.size}:")
        for flow, errs in r["errors"].items():
            worst = max(errs, key=errs.__getitem__)
            print(f"  {flow:9} max error {errs[worst]:.2e} ({worst}); per parameter: " + ", ".join(f"{k.removeprefix('grad_')} {v:.1e}" for k, v in errs.items() if v > 1e-5))
        worst = max(r["eager32"], key=r["eager32"].__getitem__)
        print(f"  PyTorch float32 eager: max error {r['eager32'][worst]:.2e} ({worst})")
        print("  smallest |ReLU input| per ReLU: " + ", ".join(f"{m:.1e}" for m in r["relu_margins"]))
        if r["maxpool_gaps"]:
            print("  smallest top-2 gap per max pool: " + ", ".join(f"{g:.1e}" for g in r["maxpool_gaps"]))


if __name__ == "__main__":
    main()
