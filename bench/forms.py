"""bench/forms: the measured form choice, one kernel at a time, per CPU class.

For every layer of bench/layers.json (and, with --models, every distinct
convolution of those models of test/models) and each of its gradients alone
(grad_input, grad_weight: one output_mask entry each, so that a form applies
to one kernel), the candidate forms

    --conv-form=generic|im2col|named|taps|auto  x  --peel=auto|never

are lowered by convopt, compiled by IREE for each target CPU of
--target-cpu (host: this AVX-512 machine; znver2: AVX2 code, which runs
here too) and timed interleaved with PyTorch (best of --repeats rounds;
the share of the CPU other processes used is recorded).  "auto D" is
`--conv-form=auto --device=D` for the device classes of --devices, so the
table shows whether auto picks the measured fastest form for each class.
Candidates with the same IR are compiled and timed once.

Writes bench/results/forms.<class>.json (class: avx512 for host, avx2 for
znver2): per kernel its shape, multiply-adds, every candidate's time, the
fastest, and which candidate each auto is the same IR as.  These tables
are the data bench/costfit.py fits the cost model of each CPU class on
(convopt/lowering/kernel/device.py, cost.py).

    python -m bench.forms [--layers a,b] [--models audio_encoder,...] [--only a,model:layer] [--dtypes f32]
                         [--target-cpu host,znver2] [--devices cpu,avx2,avx512] [--repeats 15]
"""

from __future__ import annotations

import argparse
import json
import math
import os

from bench import emitted, host
from bench.testsupport import load

HERE = os.path.dirname(os.path.abspath(__file__))
harness = load("harness")

FORMS = ("generic", "im2col", "named", "taps")
PEELS = ("auto", "never")
GRADIENTS = ("grad_input", "grad_weight")


def candidates(devices: list[str], cost_profile: str = "") -> dict[str, tuple[str, tuple[str, ...]]]:
    """name -> ("convopt", flags): every forced form with either peel policy,
    then auto for each device class; with a cost profile, also auto by it
    ("auto calibrated") and im2col with every large matmul packed
    ("im2col packed", --matmul-tiles=host: the packed variant's forced form)."""
    out = {}
    for form in FORMS:
        for peel in PEELS:
            out[f"{form} peel={peel}"] = ("convopt", ("--lower-conv-bwd", f"--conv-form={form}", f"--peel={peel}"))
    for device in devices:
        out[f"auto {device}"] = ("convopt", ("--lower-conv-bwd", f"--device={device}"))
    for label, flags in EXPERIMENTS.items():
        out[label] = ("convopt", ("--lower-conv-bwd", *flags))
    if cost_profile:
        out["im2col packed"] = ("convopt", ("--lower-conv-bwd", "--conv-form=im2col", "--matmul-tiles=host"))
        out["auto calibrated"] = ("convopt", ("--lower-conv-bwd", f"--cost-profile={os.path.abspath(cost_profile)}"))
    return out


EXPERIMENTS: dict[str, tuple[str, ...]] = {}
"""Candidates that are auto with a profile field changed (emitted.convopt_lower's
--profile-FIELD=N).  The stored tables have two of the former thresholds'
(gone with the cost model): "auto compact" (every small depthwise 5x5+
kernel as one compact op: the `compact` variant of generic_form, which
bench/costfit.py reads) and "auto im2col>=0" (the matmul forms at any size)."""


def kernels(layers: dict, joint: bool = False) -> list[tuple[str, str, dict]]:
    """(layer name, gradient, layer with a one-gradient mask) for every
    gradient a layer's mask asks for; with joint, (name, "both", layer) for
    each layer asking for both, the two kernels in one op as a training step
    computes them (what they share, e.g. grad_output's transposed copy, is
    then computed once)."""
    out = []
    for name, layer in layers.items():
        if joint:
            if layer["mask"][0] and layer["mask"][1]:
                out.append((name, "both", {**layer, "mask": [True, True, False]}))
            continue
        for i, grad in enumerate(GRADIENTS):
            if layer["mask"][i]:
                mask = [j == i for j in range(3)]
                out.append((name, grad, {**layer, "mask": mask}))
    return out


def model_layers(models: list[str]) -> dict:
    """The distinct convolutions of these models as layers.json entries."""
    from bench.models import MODELS, conv_configs

    out: dict = {}
    for model in models:
        for cfg, _count in conv_configs(MODELS[model]):
            layer = {
                "n": cfg.batch, "cin": cfg.cin, "cout": cfg.cout, "spatial": list(cfg.spatial), "kernel": list(cfg.kernel),
                "stride": list(cfg.stride), "padding": list(cfg.padding), "dilation": list(cfg.dilation), "groups": cfg.groups,
                "transposed": cfg.transposed, "output_padding": list(cfg.output_padding or (0,) * len(cfg.spatial)),
                "mask": list(cfg.mask[:2]) + [False],
            }
            if layer not in out.values():
                out[f"{model}:{cfg.name}"] = layer
    return out


def entry(name: str, grad: str, layer: dict, dtype: str, row: dict, names: list[str]) -> dict:
    """One kernel's cost-table entry from emitted.run_layer's row."""
    times = {c: row["times_ms"].get(c) for c in names}
    ok = {c: t for c, t in times.items() if t is not None}
    fastest = min(ok, key=ok.__getitem__) if ok else None
    cfg = emitted.config(name, layer, dtype)
    return {
        "layer": name, "gradient": grad, "dtype": dtype, "shape": layer, "useful_macs": harness.useful_macs(cfg),
        "times_ms": times, "pytorch_ms": row["times_ms"].get("PyTorch"), "fastest": fastest,
        "same_as": row["same_as"], "errors": {c: e for c, e in row["errors"].items() if isinstance(e, str)},
        "others_busy": row.get("others_busy"),
    }


def line(e: dict, target: str) -> str:
    ok = {c: t for c, t in e["times_ms"].items() if t is not None}
    best = ok.get(e["fastest"]) if e["fastest"] else None
    autos = [f"{c}={e['same_as'].get(c + where, c)}" for c in e["times_ms"] if c.startswith("auto ") for where in [f" @{target}" if target != "host" else ""]]
    ratios = " ".join(f"{c.replace(' peel=', '/')}:{t / best:.2f}" for c, t in ok.items() if best and not c.startswith("auto "))
    return f"{e['layer'][:34]:34} {e['gradient']:11} {e['dtype']:4} {e['useful_macs']:>11} best {e['fastest']} {best or 0:.3f} ms | {ratios} | {' '.join(autos)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layers", default="", help="comma-separated layers of layers.json (default: all; 'none': none)")
    parser.add_argument("--models", default="", help="comma-separated models of test/models whose convolutions are added")
    parser.add_argument("--dtypes", default="f32")
    parser.add_argument("--target-cpu", default="host,znver2")
    parser.add_argument("--devices", default="cpu,avx2,avx512")
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--cost-profile", default="", metavar="FILE", help="also time auto by this convopt-calibrate profile ('auto calibrated') and the forced packed im2col")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--quiet-wait", type=float, default=0.0)
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    parser.add_argument("--joint", action="store_true", help="time grad_input and grad_weight together in one op (gradient 'both'), not one at a time")
    parser.add_argument("--only", default="", help="comma-separated layer names (model:layer for --models' convolutions): time only these")
    parser.add_argument("--summary", action="store_true", help="measure nothing: print the summary of the tables in --out")
    args = parser.parse_args()
    if args.summary:
        print(summarize_files(args.out))
        return
    with open(os.path.join(HERE, "layers.json")) as f:
        layers = {k: v for k, v in json.load(f).items() if not k.startswith("_")}
    if args.layers == "none":
        layers = {}
    elif args.layers:
        layers = {n: layers[n] for n in args.layers.split(",")}
    layers.update(model_layers([m for m in args.models.split(",") if m]))
    if args.only:
        layers = {n: layers[n] for n in args.only.split(",")}
    targets = [t for t in args.target_cpu.split(",") if t]
    cands = candidates([d for d in args.devices.split(",") if d], args.cost_profile)
    variants = emitted.expand_variants(cands, targets, ["cpu"])
    tables: dict[str, list] = {t: [] for t in targets}
    for name, grad, layer in kernels(layers, args.joint):
        for dtype in [d for d in args.dtypes.split(",") if d]:
            row = emitted.run_layer(name, layer, dtype, variants, args.repeats, args.threads, (), args.quiet_wait)
            for target in targets:
                where = "" if target == "host" else f" @{target}"
                sub = {**row, "times_ms": {c: row["times_ms"].get(c + where) for c in cands} | {"PyTorch": row["times_ms"]["PyTorch"]},
                       "same_as": {c: row["same_as"][c + where].removesuffix(where) for c in cands if c + where in row["same_as"]},
                       "errors": {c: row["errors"].get(c + where) for c in cands}}
                e = entry(name, grad, layer, dtype, sub, list(cands))
                tables[target].append(e)
                print(f"{target:7} " + line(e, "host"), flush=True)
            write(tables, args)


def class_of(target: str) -> str:
    """The CPU class a target stands for (host: this AVX-512 machine)."""
    cls = emitted.TARGET_CPUS[target]
    return "avx512" if cls == "host" else cls


def write(tables: dict, args) -> None:
    os.makedirs(args.out, exist_ok=True)
    for target, rows in tables.items():
        with open(os.path.join(args.out, f"forms.{class_of(target)}.json"), "w") as f:
            json.dump({**host.meta(target), "target_cpu": target, "threads": args.threads, "repeats": args.repeats, "kernels": rows}, f, indent=1)
    with open(os.path.join(args.out, "forms.txt"), "w") as f:
        f.write(summary({class_of(t): rows for t, rows in tables.items()}) + "\n")


def summary(tables: dict[str, list]) -> str:
    """Per kernel and class: the fastest candidate and each auto's time over
    the fastest (1.00: auto picks it), then the geometric mean per auto."""
    lines = [f"{'kernel':44} {'MACs':>10} {'class':6} {'fastest':18} {'ms':>8}  auto/fastest"]
    logs: dict[str, list[float]] = {}
    for cls, rows in tables.items():
        for e in rows:
            ok = {c: t for c, t in e["times_ms"].items() if t is not None}
            if not e["fastest"]:
                continue
            best = ok[e["fastest"]]
            autos = {c: ok[c] / best for c in ok if c.startswith("auto ")}
            for c, r in autos.items():
                logs.setdefault(f"{c} on {cls}", []).append(math.log(r))
            name = f"{e['layer']} {e['gradient']} {e['dtype']}"
            lines.append(f"{name[:44]:44} {e['useful_macs']:>10} {cls:6} {e['fastest']:18} {best:8.3f}  "
                         + " ".join(f"{c[5:]}={r:.2f}" for c, r in autos.items()))
    lines.append("")
    for k, v in logs.items():
        lines.append(f"geomean {k}: {math.exp(sum(v) / len(v)):.3f} over {len(v)} kernels, worst {math.exp(max(v)):.2f}")
    return "\n".join(lines)


def summarize_files(out: str) -> str:
    tables = {}
    for cls in ("avx512", "avx2"):
        path = os.path.join(out, f"forms.{cls}.json")
        if os.path.exists(path):
            with open(path) as f:
                tables[cls] = json.load(f)["kernels"]
    return summary(tables)


if __name__ == "__main__":
    main()
