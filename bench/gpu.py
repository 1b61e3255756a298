"""bench/gpu: does convopt's output build for IREE's GPU backends?  Compile-only.

For every target of test/gpu/gpu_compile.py (rocm gfx942, cuda sm_80,
vulkan-spirv) and every input -- the models of test/models/*.mlir and the
named e2e rows of test/e2e/harness.py named_matrix() -- three variants go to
iree-compile --iree-input-type=torch, one after the other, with a timeout:

  raw      the torch IR as it is (IREE lowers convolution_backward itself,
           with torch-mlir's TorchToLinalg: "the raw import")
  convopt  convopt --lower-conv-bwd (the default, --device=cpu)
  gpu      convopt --lower-conv-bwd --device=gpu
  gpufwd   convopt --lower-conv-bwd --lower-forward-convs --device=gpu
           (README's second GPU recipe: the forward convolutions and the
           max-pool backward through convopt too)

Records, per (target, input, variant): built or not, build wall seconds,
the first error line and the op it is about.  Writes bench/results/gpu.txt
(the table for bench/README.md: target x input, convopt / raw import) and
bench/results/gpu.json.

    python -m bench.gpu [--targets rocm,cuda,vulkan] [--models a,b|none] [--rows a,b|all|none]
                       [--variants raw,convopt,gpu,gpufwd] [--timeout S] [--out NAME] [--raw-on-failure] [--dispatches]
                       [--repeats N] [--models-dir DIR] [--dtypes bf16,f16]

--models-dir DIR takes the models from DIR instead of test/models (e.g.
bench/lowp, the bf16/f16 steps of `test/models/generate.py --dtype`:
<name>.<dtype>.mlir); --dtypes keeps the files of those dtypes (f32: the
files without a dtype suffix).  The results file is rewritten after every
build, so a sweep cut short keeps what it built; with models named
<name>.<dtype> the text has a second table, model x dtype with a column per
target and variant (the bf16/f16 build matrix of bench/README.md).
    python -m bench.gpu --mma [bench/mma.py's options]   (the matrix-core measure)

Cells: `ok <iree-compile CPU seconds>` (with --dispatches also `(<n> d)`,
the distinct dispatches of `--compile-to=flow`; their kinds are in the json;
with --repeats N the least CPU seconds of N sweeps: on a loaded machine a
single build moves by up to 40%).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Optional

from bench.testsupport import load

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
harness = load("harness")
gpu_compile = load("gpu_compile")

VARIANTS = {"raw": None, "convopt": "cpu", "gpu": "gpu", "gpufwd": "gpu"}


def dtype_of(stem: str) -> str:
    """resnet18.bf16 -> bf16, resnet18 -> f32."""
    return stem.partition(".")[2] or "f32"


def inputs(models: str, rows: str, models_dir: Path = ROOT / "test" / "models", dtypes: str = "all") -> dict[str, str]:
    """name -> torch IR text: models as model:<stem> (a name in --models
    selects its file in every dtype kept), rows as row:<name>."""
    out: dict[str, str] = {}
    names = sorted(p.stem for p in models_dir.glob("*.mlir"))
    if dtypes != "all":
        names = [n for n in names if dtype_of(n) in dtypes.split(",")]
    if models != "none":
        wanted = models.split(",")
        keep = names if models == "all" else [n for n in names if n in wanted or n.partition(".")[0] in wanted]
        for name in keep:
            out[f"model:{name}"] = (models_dir / f"{name}.mlir").read_text()
    if rows != "none":
        table = {c.name: c for c in harness.named_matrix()}
        keep = list(table) if rows == "all" else rows.split(",")
        for name in keep:
            out[f"row:{name}"] = harness.torch_ir(table[name])
    return out


def variant_text(text: str, variant: str) -> str:
    device = VARIANTS[variant]
    return text if device is None else gpu_compile.convopt_output(text, device, forward_convs=variant == "gpufwd")


def run(targets: list[str], texts: dict[str, str], variants: list[str], timeout: float, raw_on_failure: bool = False, count: bool = False,
        save: Optional[Callable[[list[dict]], None]] = None) -> list[dict]:
    """Every variant of every input for every target, one build at a time;
    with raw_on_failure the raw import is built only where another variant
    failed (to tell a shared IREE limitation apart), after them; with count
    also the dispatches of each build that works (flow.executable ops, by
    kind); save is called with the results so far after every build.  A
    variant convopt cannot lower is a failed build with convopt's error."""
    results: list[dict] = []
    for name, text in texts.items():
        lowered: dict[str, str] = {}
        refused: dict[str, str] = {}
        for v in variants + (["raw"] if raw_on_failure and "raw" not in variants else []):
            try:
                lowered[v] = variant_text(text, v)
            except RuntimeError as e:
                refused[v] = str(e).splitlines()[1 if len(str(e).splitlines()) > 1 else 0][:300]
        for target in targets:
            order = [v for v in variants if v != "raw"] + ["raw"] if raw_on_failure else variants
            for v in order:
                if v == "raw" and raw_on_failure and all(r["ok"] for r in results if r["input"] == name and r["target"] == target):
                    continue
                if v in refused:
                    results.append({"target": target, "input": name, "variant": v, "ok": False, "seconds": 0.0, "cpu_seconds": 0.0,
                                    "error": refused[v], "op": "convopt", "timeout": False})
                    print(f"{target:7} {name:45} {v:8} convopt refused: {refused[v]}", flush=True)
                    continue
                if v == "gpu" and "convopt" in lowered and lowered["gpu"] == lowered["convopt"]:
                    prev = next(r for r in results if r["input"] == name and r["target"] == target and r["variant"] == "convopt")
                    results.append(dict(prev, variant=v, same_as="convopt"))
                    continue
                b = gpu_compile.compile_text(lowered[v], target, timeout)
                row = {"target": target, "input": name, "variant": v, "ok": b.ok, "seconds": round(b.seconds, 2), "cpu_seconds": round(b.cpu_seconds, 2),
                       "error": b.error, "op": b.op, "timeout": b.timeout}
                if count and b.ok:
                    names = gpu_compile.dispatches(lowered[v], target, timeout) or []
                    row["dispatches"] = len(names)
                    row["kinds"] = dict(Counter(map(gpu_compile.dispatch_kind, names)).most_common())
                print(f"{target:7} {name:45} {v:8} {b.short()}", flush=True)
                results.append(row)
                if save is not None:
                    save(results)
    return results


def least(a: list[dict], b: list[dict]) -> list[dict]:
    """a with each build's CPU and wall seconds the least of a's and b's
    (the same builds in the same order; a failure in either stays one)."""
    out = []
    for x, y in zip(a, b):
        assert (x["target"], x["input"], x["variant"]) == (y["target"], y["input"], y["variant"])
        if x["ok"] and y["ok"]:
            x = dict(x, cpu_seconds=min(x["cpu_seconds"], y["cpu_seconds"]), seconds=min(x["seconds"], y["seconds"]), runs=x.get("runs", 1) + 1)
        elif not y["ok"]:
            x = dict(y, **{k: x[k] for k in ("dispatches", "kinds") if k in x})
        out.append(x)
    return out


def cell(r: dict | None) -> str:
    if r is None:
        return "-"
    if r["ok"]:
        return f"ok {r['cpu_seconds']:.1f}" + (f" ({r['dispatches']} d)" if "dispatches" in r else "")
    return "timeout" if r["timeout"] else f"FAIL {r['op'] or '?'}"


def table(results: list[dict], variants: list[str]) -> str:
    """Markdown: one row per (target, input), a column per variant (ok and
    iree-compile's CPU seconds, or the failing op), and the build-time
    ratio (CPU seconds) of the gpu variant to the raw import."""
    index = {(r["target"], r["input"], r["variant"]): r for r in results}
    keys = sorted({(r["target"], r["input"]) for r in results}, key=lambda k: (k[0], k[1]))
    head = ["target", "input", *variants]
    if "gpu" in variants and "raw" in variants:
        head.append("gpu / raw cpu-s")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for t, name in keys:
        cells = [t, name] + [cell(index.get((t, name, v))) for v in variants]
        if "gpu / raw cpu-s" in head:
            g, raw = index.get((t, name, "gpu")), index.get((t, name, "raw"))
            cells.append(f"{g['cpu_seconds'] / raw['cpu_seconds']:.2f}" if g and raw and g["ok"] and raw["ok"] else "-")
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    for t in sorted({k[0] for k in keys}):
        for v in variants:
            rows = [r for r in results if r["target"] == t and r["variant"] == v]
            ok = [r for r in rows if r["ok"]]
            lines.append(f"{t} {v}: {len(ok)}/{len(rows)} build")
        if "gpu" in variants and "raw" in variants:
            pairs = [(index.get((t, n, "gpu")), index.get((t, n, "raw"))) for tt, n in keys if tt == t]
            ratios = [g["cpu_seconds"] / r["cpu_seconds"] for g, r in pairs if g and r and g["ok"] and r["ok"]]
            if ratios:
                gm = math.exp(sum(map(math.log, ratios)) / len(ratios))
                lines.append(f"{t} gpu/raw build CPU seconds where both build: geomean {gm:.2f}, max {max(ratios):.2f} ({len(ratios)} inputs)")
    failures = [r for r in results if not r["ok"] and not r.get("same_as")]
    if failures:
        lines += ["", "First error per failing build:"]
        for r in failures:
            lines.append(f"- {r['target']} {r['input']} {r['variant']}: {r['op'] or '?'}: {r['error']}")
    return "\n".join(lines) + "\n"


def dtype_matrix(results: list[dict], variants: list[str]) -> str:
    """Markdown: one row per model and dtype (inputs model:<name>.<dtype>),
    a column per target and variant (ok and iree-compile's CPU seconds, or
    FAIL and the op IREE failed on), then the builds that succeed per
    target, dtype and variant."""
    models = [r for r in results if r["input"].startswith("model:")]
    index = {(r["target"], r["input"], r["variant"]): r for r in models}
    targets = list(dict.fromkeys(r["target"] for r in models))
    keys = sorted({(r["input"].split(":", 1)[1].partition(".")[0], dtype_of(r["input"].split(":", 1)[1])) for r in models})
    cols = [(t, v) for t in targets for v in variants]
    lines = ["| model | dtype | " + " | ".join(f"{t} {v}" for t, v in cols) + " |", "|---|---|" + "---|" * len(cols)]
    for model, dtype in keys:
        name = f"model:{model}" + ("" if dtype == "f32" else f".{dtype}")
        lines.append(f"| {model} | {dtype} | " + " | ".join(cell(index.get((t, name, v))) for t, v in cols) + " |")
    lines.append("")
    for t in targets:
        for dtype in sorted({d for _, d in keys}):
            for v in variants:
                rows = [r for r in models if r["target"] == t and r["variant"] == v and dtype_of(r["input"].split(":", 1)[1]) == dtype]
                if rows:
                    bad = [f"{r['input'].split(':', 1)[1]} ({'timeout' if r['timeout'] else r['op'] or '?'})" for r in rows if not r["ok"]]
                    lines.append(f"{t} {dtype} {v}: {len(rows) - len(bad)}/{len(rows)} build" + (f"; FAIL: {', '.join(bad)}" if bad else ""))
    return "\n".join(lines) + "\n"


def main() -> None:
    if sys.argv[1:2] == ["--mma"]:
        from bench import mma  # the matrix-core measure

        mma.main(sys.argv[2:])
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--targets", default="rocm,cuda,vulkan")
    ap.add_argument("--models", default="all")
    ap.add_argument("--rows", default="none")
    ap.add_argument("--variants", default="raw,convopt,gpu")
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--out", default="gpu")
    ap.add_argument("--raw-on-failure", action="store_true", help="build the raw import only where another variant fails")
    ap.add_argument("--dispatches", action="store_true", help="also count each build's dispatches (iree-compile --compile-to=flow)")
    ap.add_argument("--repeats", type=int, default=1, help="sweep N times, keep each build's least CPU seconds")
    ap.add_argument("--models-dir", type=Path, default=ROOT / "test" / "models", help="where the models' .mlir files are (e.g. bench/lowp)")
    ap.add_argument("--dtypes", default="all", help="keep the model files of these dtypes (f32,bf16,f16)")
    a = ap.parse_args()
    variants = a.variants.split(",")
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        ap.error(f"unknown variant(s) {unknown}; known: {', '.join(VARIANTS)}")
    texts = inputs(a.models, a.rows, a.models_dir, a.dtypes)
    (HERE / "results").mkdir(exist_ok=True)
    out = HERE / "results" / f"{a.out}.json"

    def save(rows: list[dict]) -> None:
        out.write_text(json.dumps(rows, indent=1) + "\n")

    results = run(a.targets.split(","), texts, variants, a.timeout, a.raw_on_failure, a.dispatches, save)
    for _ in range(a.repeats - 1):
        results = least(results, run(a.targets.split(","), texts, variants, a.timeout, a.raw_on_failure))
    save(results)
    text = table(results, variants)
    if any("." in r["input"] for r in results if r["input"].startswith("model:")):
        text += "\n" + dtype_matrix(results, variants)
    print(text)
    (HERE / "results" / f"{a.out}.txt").write_text(text)


if __name__ == "__main__":
    main()
