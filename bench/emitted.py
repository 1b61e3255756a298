"""bench/emitted: how fast the IR each lowering emits runs, layer by layer.

For every layer of bench/layers.json (a forward convolution from a real
network; the benchmark runs its convolution_backward with the layer's mask):

  convopt direct       convopt --lower-conv-bwd
  convopt decomposed   convopt --lower-conv-bwd --backend-legal-ops=
  torch-mlir direct    torch-mlir-opt: convert-torch-to-linalg, then its backend pipeline
  torch-mlir decomp.   torch-mlir-opt: torch-decompose-complex-ops, then its backend pipeline
  PyTorch              torch.ops.aten.convolution_backward on the CPU

All IR is compiled by IREE (llvm-cpu, host CPU) and run by its local-task
runtime; every variant and PyTorch use the same thread count, in one run.
Times are the best of --repeats runs.  Prints a table (time, ratio to
PyTorch, ratio to the best torch-mlir form, MAC efficiency) and writes JSON
and a PNG chart to bench/results/.

    python bench/emitted.py [--layers a,b] [--repeats 5] [--threads 2]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "test", "e2e"))

import harness  # noqa: E402

VARIANTS = {
    "convopt direct": ("convopt", ("--lower-conv-bwd",)),
    "convopt decomposed": ("convopt", ("--lower-conv-bwd", "--backend-legal-ops=")),
    "torch-mlir direct": ("torch-mlir", "builtin.module(func.func(convert-torch-to-linalg),torch-backend-to-linalg-on-tensors-backend-pipeline)"),
    "torch-mlir decomposed": ("torch-mlir", "builtin.module(func.func(torch-decompose-complex-ops),torch-backend-to-linalg-on-tensors-backend-pipeline)"),
}


def config(name: str, layer: dict) -> harness.Config:
    nd = len(layer["spatial"])
    return harness.Config(
        name=name, batch=layer["n"], cin=layer["cin"], cout=layer["cout"], spatial=tuple(layer["spatial"]), kernel=tuple(layer["kernel"]),
        stride=tuple(layer["stride"]), padding=tuple(layer["padding"]), dilation=tuple(layer["dilation"]), groups=layer["groups"],
        transposed=layer["transposed"], output_padding=tuple(layer.get("output_padding") or (0,) * nd), mask=tuple(layer["mask"]),
    )


def torch_mlir(text: str, pipeline: str) -> str:
    import shutil
    import subprocess

    tool = shutil.which("torch-mlir-opt", path=os.path.dirname(sys.executable))
    if tool is None:
        raise RuntimeError("torch-mlir-opt is not installed")
    proc = subprocess.run([tool, f"--pass-pipeline={pipeline}"], input=text, capture_output=True, text=True)
    if proc.returncode:
        raise RuntimeError(proc.stderr.strip().splitlines()[0] if proc.stderr.strip() else "torch-mlir-opt failed")
    return proc.stdout


def timed_module(text: str, threads: int):
    """Compile text; return (function, to_device) for the local-task runtime.
    Inputs are put on the device once, so the timing is the computation,
    not copies between numpy and IREE buffers (PyTorch makes none either)."""
    import iree.compiler as ireec
    import iree.runtime as ireert

    vmfb = ireec.compile_str(text, target_backends=["llvm-cpu"], extra_args=["--iree-llvmcpu-target-cpu=host"])
    _runtime_threads(threads)
    config = ireert.Config("local-task")
    ctx = ireert.SystemContext(config=config)
    ctx.add_vm_module(ireert.VmModule.copy_buffer(ctx.instance, vmfb))
    return ctx.modules.module["main"], lambda a: ireert.asdevicearray(config.device, a)


_THREADS_SET: list[int] = []


def _runtime_threads(threads: int) -> None:
    """IREE's local-task runtime uses this many worker threads (set once)."""
    import iree.runtime as ireert

    if not _THREADS_SET:
        ireert.flags.parse_flags(f"--task_topology_max_group_count={threads}")
        _THREADS_SET.append(threads)


def best_time(fn, repeats: int) -> float:
    fn()  # warm up
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def run_layer(name: str, layer: dict, repeats: int, threads: int) -> dict:
    import numpy as np
    import torch

    cfg = config(name, layer)
    go, x, w = (np.asarray(a, dtype=np.float32) for a in harness.inputs(cfg))
    text = harness.torch_ir(cfg)
    row: dict = {"layer": name, "times_ms": {}, "efficiency": {}, "errors": {}}
    ref = harness.reference(cfg, go.astype(np.float64), x.astype(np.float64), w.astype(np.float64))
    for variant, (tool, arg) in VARIANTS.items():
        try:
            lowered = harness.lower(text, arg) if tool == "convopt" else torch_mlir(text, arg)
            fn, to_device = timed_module(lowered, threads)
            args = [to_device(a) for a in (go, x, w)]
            out = fn(*args)
            outs = out if isinstance(out, (tuple, list)) else [out]
            expected = [r for r, m in zip(ref, cfg.mask) if m]
            err = max(float(np.max(np.abs(np.asarray(o.to_host()) - e))) / max(1.0, float(np.max(np.abs(e)))) for o, e in zip(outs, expected))
            row["times_ms"][variant] = best_time(lambda fn=fn, args=args: fn(*args), repeats) * 1e3
            row["errors"][variant] = err
            executed = harness.executed_macs(lowered, [go.shape, x.shape, w.shape])
            row["efficiency"][variant] = harness.useful_macs(cfg) / executed if executed else None
        except Exception as e:  # a lowering or compiler that fails on this layer
            row["times_ms"][variant] = None
            row["errors"][variant] = f"{type(e).__name__}: {str(e).strip().splitlines()[-1][:160] if str(e).strip() else ''}"
    torch.set_num_threads(threads)
    t = lambda a: torch.from_numpy(a)  # noqa: E731
    args = (t(go), t(x), t(w), [cfg.cout], list(cfg.stride), list(cfg.padding), list(cfg.dilation), cfg.transposed, list(cfg.out_padding), cfg.groups, list(cfg.mask))
    row["times_ms"]["PyTorch"] = best_time(lambda: torch.ops.aten.convolution_backward(*args), repeats) * 1e3
    return row


def report(rows: list[dict]) -> str:
    lines = []
    header = f"{'layer':22} {'variant':22} {'time ms':>9} {'/PyTorch':>9} {'/best tm':>9} {'MAC eff':>8}"
    lines.append(header)
    lines.append("-" * len(header))
    for row in rows:
        times = row["times_ms"]
        pt = times["PyTorch"]
        tm = [times[v] for v in ("torch-mlir direct", "torch-mlir decomposed") if times.get(v)]
        best_tm = min(tm) if tm else None
        for variant in list(VARIANTS) + ["PyTorch"]:
            t = times.get(variant)
            if t is None:
                lines.append(f"{row['layer']:22} {variant:22} {'failed':>9}   {row['errors'].get(variant, '')}")
                continue
            eff = row["efficiency"].get(variant)
            lines.append(
                f"{row['layer']:22} {variant:22} {t:9.2f} {t / pt:9.2f} {(f'{t / best_tm:9.2f}' if best_tm else '      n/a')} {(f'{eff:8.3f}' if eff else '       -')}"
            )
    return "\n".join(lines)


def chart(rows: list[dict], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    variants = list(VARIANTS)
    fig, ax = plt.subplots(figsize=(12, 5))
    width = 0.8 / len(variants)
    for i, v in enumerate(variants):
        ys = [(row["times_ms"][v] / row["times_ms"]["PyTorch"]) if row["times_ms"].get(v) else 0 for row in rows]
        ax.bar([k + i * width for k in range(len(rows))], ys, width, label=v)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.axhline(2.0, color="gray", linewidth=0.8, linestyle="--")
    ax.set_yscale("log")
    ax.set_xticks([k + 0.4 - width / 2 for k in range(len(rows))])
    ax.set_xticklabels([row["layer"] for row in rows], rotation=30, ha="right")
    ax.set_ylabel("time / PyTorch CPU time (log)")
    ax.set_title("convolution_backward, IREE llvm-cpu vs PyTorch (lower is better; 0 = failed)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layers", default="", help="comma-separated layer names (default: all)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    args = parser.parse_args()
    with open(os.path.join(HERE, "layers.json")) as f:
        layers = {k: v for k, v in json.load(f).items() if not k.startswith("_")}
    names = [n for n in args.layers.split(",") if n] or list(layers)
    rows = []
    for name in names:
        row = run_layer(name, layers[name], args.repeats, args.threads)
        rows.append(row)
        print(report([row]).split("\n", 2)[2], flush=True)
    text = report(rows)
    print("\n" + text)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "emitted.json"), "w") as f:
        json.dump({"threads": args.threads, "repeats": args.repeats, "rows": rows}, f, indent=1)
    with open(os.path.join(args.out, "emitted.txt"), "w") as f:
        f.write(text + "\n")
    chart(rows, os.path.join(args.out, "emitted.png"))


if __name__ == "__main__":
    main()
