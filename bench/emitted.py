"""bench/emitted: how fast the IR each lowering emits runs, layer by layer.

For every layer of bench/layers.json (a forward convolution from a real
network; the benchmark runs its convolution_backward with the layer's mask):

  convopt direct       convopt --lower-conv-bwd
  convopt direct avx512 convopt --lower-conv-bwd --matmul-tiles=avx512 (packed matmuls)
  convopt decomposed   convopt --lower-conv-bwd --backend-legal-ops=
  torch-mlir direct    torch-mlir-opt: convert-torch-to-linalg, then its backend pipeline
  torch-mlir decomp.   torch-mlir-opt: torch-decompose-complex-ops, then its backend pipeline
  PyTorch              torch.ops.aten.convolution_backward on the CPU

All IR is compiled by IREE (llvm-cpu) for each CPU of --target-cpu
(`--iree-llvmcpu-target-cpu`: host, or znver2 / haswell for AVX2 code, which
an AVX-512 machine runs too) and run by its local-task runtime; every
variant and PyTorch use the same thread count, in one run.  --devices gives
the convopt `--device` classes each convopt variant is lowered for (`class`:
the target CPU's class, TARGET_CPUS); PyTorch always runs on this machine
(with AVX-512 here, so the ratio of AVX2 code to it is pessimistic).  Two
variants whose IR and target are the same are compiled and timed once
("same_as" in the JSON).  The share of the CPU other processes used while a
layer was timed is recorded ("others_busy", bench/load.py).
Every layer runs in each of --dtypes (f32, bf16, f16), PyTorch in the same
dtype.  --baseline REF adds "convopt REF": the direct lowering of convopt as
committed at git REF (extracted to a temporary directory), so that a change
is measured against what it replaces in the same run.  Times are the best
of --repeats runs.  Prints a table (time, ratio to PyTorch, ratio to the
best torch-mlir form, MAC efficiency) and writes JSON and a PNG chart to
bench/results/.

    python -m bench.emitted [--layers a,b] [--dtypes f32,bf16] [--variants ...] [--baseline HEAD]
                            [--target-cpu host,znver2] [--devices cpu,class] [--tag NAME]
                            [--iree-flags '...'] [--repeats 40] [--threads 2] [--out DIR]

Writes DIR/emitted.<host>.{json,txt,png} (bench/host.py's tag; with --tag
NAME, emitted-NAME.<host>.*).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from bench import baseline, host
from bench.load import QUIET
from bench.testsupport import load
from bench.timing import interleaved_samples

HERE = os.path.dirname(os.path.abspath(__file__))
harness = load("harness")

VARIANTS = {
    "convopt direct": ("convopt", ("--lower-conv-bwd",)),
    "convopt direct avx512": ("convopt", ("--lower-conv-bwd", "--matmul-tiles=avx512")),
    "convopt decomposed": ("convopt", ("--lower-conv-bwd", "--backend-legal-ops=")),
    "torch-mlir direct": ("torch-mlir", "builtin.module(func.func(convert-torch-to-linalg),torch-backend-to-linalg-on-tensors-backend-pipeline)"),
    "torch-mlir decomposed": ("torch-mlir", "builtin.module(func.func(torch-decompose-complex-ops),torch-backend-to-linalg-on-tensors-backend-pipeline)"),
}


TARGET_CPUS = {"host": "host", "znver2": "avx2", "znver3": "avx2", "haswell": "avx2", "skylake-avx512": "avx512", "znver4": "avx512"}
"""--target-cpu values (IREE's --iree-llvmcpu-target-cpu) and the convopt
--device class of each (what `--devices=class` lowers for)."""


def expand_variants(variants: dict, targets: list[str], devices: list[str]) -> dict:
    """Every variant for every target CPU, each convopt variant once per
    device class: name -> (tool, arg, target CPU).  Names get " --device=D"
    for a class other than cpu and " @T" for a target other than host."""
    out = {}
    for target in targets:
        where = "" if target == "host" else f" @{target}"
        for name, (tool, arg) in variants.items():
            if tool != "convopt":
                out[name + where] = (tool, arg, target)
                continue
            for device in devices:
                device = TARGET_CPUS[target] if device == "class" else device
                flags = arg if device == "cpu" else (*arg, f"--device={device}")
                out[name + ("" if device == "cpu" else f" --device={device}") + where] = (tool, flags, target)
    return out


def config(name: str, layer: dict, dtype: str = "f32") -> harness.Config:
    nd = len(layer["spatial"])
    return harness.Config(
        name=name, dtype=dtype, batch=layer["n"], cin=layer["cin"], cout=layer["cout"], spatial=tuple(layer["spatial"]), kernel=tuple(layer["kernel"]),
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


def baseline_lower(text: str, ref: str) -> str:
    """convopt --lower-conv-bwd as committed at git `ref` (baseline.py)."""
    import subprocess

    proc = subprocess.run([*baseline.command(ref), "--lower-conv-bwd"], input=text, capture_output=True, text=True)
    if proc.returncode:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "convopt failed")
    return proc.stdout


def timed_module(text: str, threads: int, flags: tuple[str, ...] = (), target: str = "host"):
    """Compile text for the target CPU; return (function, to_device) for the local-task runtime.
    Inputs are put on the device once, so the timing is the computation,
    not copies between numpy and IREE buffers (PyTorch makes none either)."""
    import iree.compiler as ireec
    import iree.runtime as ireert

    vmfb = ireec.compile_str(text, target_backends=["llvm-cpu"], extra_args=[f"--iree-llvmcpu-target-cpu={target}", *flags])
    config = _runtime_config(threads)
    ctx = ireert.SystemContext(config=config)
    ctx.add_vm_module(ireert.VmModule.copy_buffer(ctx.instance, vmfb))
    return ctx.modules.module["main"], lambda a: ireert.asdevicearray(config.device, a)


_CONFIG: list = []


def _runtime_config(threads: int):
    """One local-task device with `threads` worker threads, shared by every
    module, set up once and warmed up with a throwaway module: the first
    module loaded in a process ran 1.2-3x slower than later ones on the
    same IR (measured with identical modules; without the warm-up, the
    variant timed first was always the slowest)."""
    import iree.compiler as ireec
    import iree.runtime as ireert
    import numpy as np

    if not _CONFIG:
        ireert.flags.parse_flags(f"--task_topology_max_group_count={threads}")
        config = ireert.Config("local-task")
        _CONFIG.append(config)
        ctx = ireert.SystemContext(config=config)
        ctx.add_vm_module(ireert.VmModule.copy_buffer(ctx.instance, ireec.compile_str(_WARM_UP, target_backends=["llvm-cpu"], extra_args=["--iree-llvmcpu-target-cpu=host"])))
        ctx.modules.module["main"](np.ones(4, dtype=np.float32))
    return _CONFIG[0]


_WARM_UP = """func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = arith.addf %a, %a : tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


def convopt_lower(text: str, args: tuple[str, ...]) -> str:
    """harness.lower with the command-line flags args, `--peel=P` (a
    pass option, no flag: `peel=P` on both kernel passes of the pipeline)
    and `--profile-FIELD=N` (bench experiments: every device profile's
    integer FIELD set to N while lowering, e.g. a threshold of device.py)."""
    overrides = {a[len("--profile-"):].split("=", 1)[0]: int(a.split("=", 1)[1]) for a in args if a.startswith("--profile-")}
    if overrides:
        import dataclasses

        from convopt.lowering.kernel import device

        saved = dict(device.PROFILES)
        device.PROFILES.update({d: dataclasses.replace(p, **overrides) for d, p in saved.items()})
        try:
            return convopt_lower(text, tuple(a for a in args if not a.startswith("--profile-")))
        finally:
            device.PROFILES.update(saved)
    peel = [a.split("=", 1)[1] for a in args if a.startswith("--peel=")]
    flags = tuple(a for a in args if not a.startswith("--peel="))
    if not peel:
        return harness.lower(text, flags)
    pipeline = harness._options(flags).replace("lower=true", f"lower=true peel={peel[0]}")
    if "convopt-conv-bwd-to-linalg{" in pipeline:
        pipeline = pipeline.replace("convopt-conv-bwd-to-linalg{", f"convopt-conv-bwd-to-linalg{{peel={peel[0]} ")
    else:
        pipeline = pipeline.replace("convopt-conv-bwd-to-linalg,", f"convopt-conv-bwd-to-linalg{{peel={peel[0]}}},")
    from convopt.diagnostics import DiagnosticEngine, SourceFile
    from convopt.driver import Options, process

    engine = DiagnosticEngine()
    out = process(SourceFile("<bench>", text), Options(pipeline=pipeline), engine)
    if out is None:
        raise RuntimeError("convopt failed: " + "; ".join(d.render() for d in engine.diagnostics))
    return out


def lowered_text(tool: str, arg, text: str) -> str:
    if tool == "convopt":
        return convopt_lower(text, arg)
    if tool == "baseline":
        return baseline_lower(text, arg)
    return torch_mlir(text, arg)


def run_layer(name: str, layer: dict, dtype: str, variants: dict, repeats: int, threads: int, flags: tuple[str, ...] = (), quiet_wait: float = 0.0) -> dict:
    """Compile and check every variant, then time them and PyTorch
    interleaved (one call of each per round, best of `repeats` rounds), so
    that the machine's load drifts over all of them alike."""
    import numpy as np
    import torch

    cfg = config(name, layer, dtype)
    go, x, w = (harness.round_to(a, dtype) for a in harness.inputs(cfg))  # float64 holding dtype's values
    text = harness.torch_ir(cfg)
    row: dict = {"layer": name, "dtype": dtype, "times_ms": {}, "efficiency": {}, "errors": {}, "same_as": {}}
    ref = harness.reference(cfg, go, x, w)
    calls = {}
    seen: dict = {}
    for variant, (tool, arg, target) in variants.items():
        row["times_ms"][variant] = None
        try:
            lowered = lowered_text(tool, arg, text)
            if (lowered, target) in seen:
                row["same_as"][variant] = first = seen[lowered, target]
                row["errors"][variant], row["efficiency"][variant] = row["errors"][first], row["efficiency"][first]
                continue
            seen[lowered, target] = variant
            fn, to_device = timed_module(lowered, threads, flags, target)
            args = [to_device(harness.to_device(a, dtype)) for a in (go, x, w)]
            out = fn(*args)
            outs = out if isinstance(out, (tuple, list)) else [out]
            expected = [r for r, m in zip(ref, cfg.mask) if m]
            err = max(float(np.max(np.abs(np.asarray(o.to_host()).astype(np.float64) - e))) / max(1.0, float(np.max(np.abs(e)))) for o, e in zip(outs, expected))
            if not err <= harness.TOLERANCE[dtype]:
                raise RuntimeError(f"wrong result: relative error {err:.3g}")
            calls[variant] = lambda fn=fn, args=args: fn(*args)
            row["errors"][variant] = err
            executed = harness.executed_macs(lowered, [go.shape, x.shape, w.shape])
            row["efficiency"][variant] = harness.useful_macs(cfg) / executed if executed else None
        except Exception as e:  # a lowering or compiler that fails on this layer
            row["errors"][variant] = f"{type(e).__name__}: {str(e).strip().splitlines()[-1][:160] if str(e).strip() else ''}"
    torch.set_num_threads(threads)
    tdt = getattr(torch, harness.TORCH_DTYPES[dtype])
    t = lambda a: torch.from_numpy(a).to(tdt)  # noqa: E731
    args = (t(go), t(x), t(w), [cfg.cout], list(cfg.stride), list(cfg.padding), list(cfg.dilation), cfg.transposed, list(cfg.out_padding), cfg.groups, list(cfg.mask))
    calls["PyTorch"] = lambda: torch.ops.aten.convolution_backward(*args)
    times, row["others_busy"] = quiet_best_times(calls, repeats, quiet_wait)
    row["times_ms"].update(times)
    for variant, first in row["same_as"].items():
        row["times_ms"][variant] = row["times_ms"][first]
    return row


def quiet_best_times(calls: dict, repeats: int, quiet_wait: float) -> tuple[dict[str, float], float]:
    """Best time (ms) of each call over `repeats` interleaved rounds
    (SLOW_REPEATS for torch-mlir's variants), run again while other
    processes kept the CPU busy, up to quiet_wait s (timing.py); and the
    others' busy share during the last rounds."""
    caps = {k: SLOW_REPEATS for k in calls if k.startswith("torch-mlir")}
    stats: dict = {}
    samples = interleaved_samples(calls, repeats, quiet_wait, stats, caps)
    return {k: min(v) * 1e3 for k, v in samples.items()}, stats["others_busy"]


SLOW_REPEATS = 5
"""Rounds for the torch-mlir variants, 10-100x slower than the others: the
machine's noise matters less next to their times, and their rounds would
dominate the run."""


def report(rows: list[dict], variants: dict) -> str:
    """The table: per layer, dtype and variant the time, its ratio to PyTorch
    and to the best torch-mlir form compiled for the same target CPU."""
    lines = []
    w = max([22, *(len(v) for v in variants)])
    header = f"{'layer':22} {'dtype':5} {'variant':{w}} {'time ms':>9} {'/PyTorch':>9} {'/best tm':>9} {'MAC eff':>8}"
    lines.append(header)
    lines.append("-" * len(header))
    for row in rows:
        times = row["times_ms"]
        pt = times["PyTorch"]
        for variant in list(variants) + ["PyTorch"]:
            t = times.get(variant)
            if t is None:
                lines.append(f"{row['layer']:22} {row['dtype']:5} {variant:{w}} {'failed':>9}   {row['errors'].get(variant, '')}")
                continue
            where = variant[variant.index(" @"):] if " @" in variant else ""
            tm = [times[v + where] for v in ("torch-mlir direct", "torch-mlir decomposed") if times.get(v + where)]
            best_tm = min(tm) if tm else None
            same = f"  (= {row['same_as'][variant]})" if variant in row.get("same_as", {}) else ""
            eff = row["efficiency"].get(variant)
            lines.append(
                f"{row['layer']:22} {row['dtype']:5} {variant:{w}} {t:9.2f} {t / pt:9.2f} {(f'{t / best_tm:9.2f}' if best_tm else '      n/a')} {(f'{eff:8.3f}' if eff else '       -')}{same}"
            )
        busy = row.get("others_busy")
        if busy is not None and busy > QUIET:
            lines.append(f"{'':22} {'':5} (other processes {100 * busy:.0f}% busy while timing)")
    return "\n".join(lines)


def chart(rows: list[dict], variants: dict, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    variants = list(variants)
    fig, ax = plt.subplots(figsize=(max(12, 0.6 * len(rows)), 5.5))
    width = 0.8 / len(variants)
    for i, v in enumerate(variants):
        ys = [(row["times_ms"][v] / row["times_ms"]["PyTorch"]) if row["times_ms"].get(v) else 0 for row in rows]
        ax.bar([k + i * width for k in range(len(rows))], ys, width, label=v)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.axhline(1.5, color="gray", linewidth=0.8, linestyle="--")
    ax.set_yscale("log")
    ax.set_xticks([k + 0.4 - width / 2 for k in range(len(rows))])
    ax.set_xticklabels([f"{row['layer']} {row['dtype']}" for row in rows], rotation=45, ha="right", fontsize=8)
    ax.set_ylabel("time / PyTorch CPU time (log)")
    ax.set_title("convolution_backward, IREE llvm-cpu vs PyTorch (lower is better; 0 = failed)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layers", default="", help="comma-separated layer names (default: all)")
    parser.add_argument("--dtypes", default="f32,bf16", help="comma-separated element types (f32, bf16, f16)")
    parser.add_argument("--variants", default="", help="comma-separated variants (default: all)")
    parser.add_argument("--baseline", default="", help="also time convopt's direct lowering as committed at this git ref")
    parser.add_argument("--iree-flags", default="", help="extra iree-compile flags for every variant, space-separated (e.g. --iree-opt-data-tiling=true)")
    parser.add_argument("--target-cpu", default="host", help=f"comma-separated IREE target CPUs, each variant compiled for each ({', '.join(TARGET_CPUS)})")
    parser.add_argument("--devices", default="cpu", help="comma-separated convopt --device classes for the convopt variants (cpu, avx2, avx512, host; class: the target CPU's)")
    parser.add_argument("--tag", default="", help="write results/emitted-TAG.<host>.* instead of results/emitted.<host>.*")
    parser.add_argument("--quiet-wait", type=float, default=0.0, metavar="S", help="time a layer again, up to S s, while other processes use more than a quarter of the CPU")
    parser.add_argument("--repeats", type=int, default=40)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    args = parser.parse_args()
    with open(os.path.join(HERE, "layers.json")) as f:
        layers = {k: v for k, v in json.load(f).items() if not k.startswith("_")}
    names = [n for n in args.layers.split(",") if n] or list(layers)
    chosen = [v for v in args.variants.split(",") if v]
    variants = {k: v for k, v in VARIANTS.items() if not chosen or k in chosen}
    if args.baseline:
        variants = {f"convopt {args.baseline}": ("baseline", args.baseline), **variants}
    variants = expand_variants(variants, [t for t in args.target_cpu.split(",") if t], [d for d in args.devices.split(",") if d])
    rows = []
    for name in names:
        for dtype in [d for d in args.dtypes.split(",") if d]:
            row = run_layer(name, layers[name], dtype, variants, args.repeats, args.threads, tuple(args.iree_flags.split()), args.quiet_wait)
            rows.append(row)
            print(report([row], variants).split("\n", 2)[2], flush=True)
    text = report(rows, variants)
    print("\n" + text)
    os.makedirs(args.out, exist_ok=True)
    where = host.meta()
    stem = os.path.join(args.out, "emitted" + (f"-{args.tag}" if args.tag else "") + f".{where['host_tag']}")
    meta = {**where, "threads": args.threads, "repeats": args.repeats, "iree_flags": args.iree_flags, "target_cpu": args.target_cpu, "devices": args.devices}
    with open(stem + ".json", "w") as f:
        json.dump({**meta, "rows": rows}, f, indent=1)
    with open(stem + ".txt", "w") as f:
        f.write(text + "\n")
    chart(rows, variants, stem + ".png")


if __name__ == "__main__":
    main()
