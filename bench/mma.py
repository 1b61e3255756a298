"""bench/mma: how much of a training step IREE's GPU codegen puts on the
matrix cores.  Compile-only: no GPU is needed.

Per model (test/models/*.mlir), target and flow, iree-compile runs twice:
`--compile-to=flow` (the dispatch sites: how many times each executable
runs), then `--compile-from=flow` with
`--iree-hal-dump-executable-configurations-to=DIR` (each dispatch with the
configuration IREE's GPU codegen chose; with --build to the end, which
gives the build's CPU seconds and whether it builds at all, else only up to
`--compile-to=executable-configurations`).  From the dump:

  macs      executed multiply-adds of the ops that multiply: every linalg op
            (named ops generalized by iree-opt) with a reduction iterator and a
            multiplication of values in its body (arith.mulf, or arith.muli
            of integers, not of indices) counts its iteration-domain size, times
            the dispatch's call sites in the flow program;
  mma       the part of macs in dispatches whose `lowering_config` names an
            `mma_kind` (MFMA on gfx942, MMA on NVIDIA): the matrix cores; the
            rest runs on the SIMT lanes;
  dispatches  distinct executables (and call sites);
  cpu_s     iree-compile's CPU seconds, both runs (user + system).

Flows: `raw` (the torch IR itself: IREE's own lowering), `gpu` (convopt
--lower-conv-bwd --device=gpu), `gpufwd` (the same with
--lower-forward-convs).  Flag sets: `default`, and `boo` (IREE's flags for
backward convolutions as iree-turbine's BOO and Fusilli pass them, BOO).

    python -m bench.mma [--targets rocm,cuda,cuda90] [--models a,b] [--flows raw,gpu,gpufwd]
                       [--flags default,boo] [--build] [--timeout S] [--out NAME] [--models-dir DIR]
    python -m bench.gpu --mma ...   (the same)

Writes bench/results/NAME.json and NAME.txt (default NAME: mma).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import tempfile
from collections import Counter
from pathlib import Path
from typing import Optional

from bench.load import children_cpu
from bench.testsupport import load

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
gpu_compile = load("gpu_compile")

TARGETS: dict[str, tuple[str, ...]] = {
    "rocm": gpu_compile.TARGETS["rocm"],
    "cuda": gpu_compile.TARGETS["cuda"],
    "cuda90": ("--iree-hal-target-backends=cuda", "--iree-cuda-target=sm_90"),
}
BOO = (
    "--iree-opt-level=O3",
    "--iree-preprocessing-pass-pipeline=builtin.module(iree-preprocessing-backward-data-conv-pipeline)",
    "--iree-dispatch-creation-enable-fuse-padding-into-linalg-consumer-ops",
    "--iree-dispatch-creation-enable-split-reduction",
)
FLAGS: dict[str, tuple[str, ...]] = {
    "default": (),
    "boo": BOO,
    "boo-o2": BOO[1:],  # the set without --iree-opt-level=O3 (which breaks max-pool backward: test/gpu/repro/maxpool_bwd_o3.mlir)
    # each flag of the set alone, for what it gains in the measure
    "o3": BOO[:1],
    "bwd-data": BOO[1:2],
    "fuse-pad": BOO[2:3],
    "split-red": BOO[3:4],
}
FLOWS: dict[str, Optional[bool]] = {"raw": None, "gpu": False, "gpufwd": True}
"""Each flow: None (the torch IR itself) or convopt.lower(device="gpu") with forward_convs."""

# ---------------------------------------------------------------- parsing

_MAP_ALIAS = re.compile(r"^(#map\d*) = (affine_map<.*>)$", re.M)
_AFFINE = re.compile(r"affine_map<\(([^)]*)\)(?:\[[^\]]*\])? -> \((.*?)\)>")
_NAMED = re.compile(r"\blinalg\.(matmul|batch_matmul|batch_reduce_matmul|conv_|depthwise_conv_|pooling_|contract|mmt4d|batch_mmt4d|matvec|vecmat|batch_matvec|batch_vecmat|dot)\w*")
_MUL = re.compile(r"\b(arith\.mulf|complex\.mul)\b|\barith\.muli\b.*: i\d+$")
"""A multiplication of values: floats, or integers (not index arithmetic,
e.g. a gather's position h * W + w)."""
_TENSOR = re.compile(r"tensor<([^>]*)>")
_EXE = re.compile(r"hal\.executable public @(\S+) \{")
_CALL = re.compile(r"flow\.dispatch @([^:\s]+)::")
_MMA = re.compile(r"\bmma_kind\b|\bmma_schedule\b")


def _split_top(s: str) -> list[str]:
    """s split at the commas outside brackets."""
    out, depth, cur = [], 0, ""
    for k, ch in enumerate(s):
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>" and s[k - 1 : k + 1] != "->":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _bracketed(s: str, opener: str) -> str:
    """The text between opener (ending in an open bracket) and its match."""
    i = s.find(opener)
    if i < 0:
        return ""
    start = i + len(opener)
    depth = 1
    for j in range(start, len(s)):
        depth += s[j] in "([{<"
        depth -= s[j] in ")]}>" and s[j - 1 : j + 1] != "->"
        if depth == 0:
            return s[start:j]
    return s[start:]


def _shape(tensor_type: str) -> list[Optional[int]]:
    """tensor<2x?x64xf32> -> [2, None, 64] (a rank-0 tensor: [])."""
    dims = tensor_type.split("x")[:-1]
    return [None if d == "?" else int(d) for d in dims]


def _operand_types(header: str, key: str) -> list[str]:
    """The tensor types of a generic's ins(...) or outs(...)."""
    _, _, types = _bracketed(header, f" {key}(").partition(" : ")
    return [m.group(1) for m in _TENSOR.finditer(types)]


def domain_size(maps: list[str], shapes: list[list[Optional[int]]]) -> Optional[int]:
    """The iteration-domain size of a linalg.generic: each loop dim's extent
    from an operand dim its map reads plainly (None when one is dynamic or
    read only in compound expressions)."""
    extent: dict[str, int] = {}
    names: list[str] = []
    for m, shape in zip(maps, shapes):
        a = _AFFINE.search(m)
        if not a:
            return None
        names = [d.strip() for d in a.group(1).split(",") if d.strip()]
        results = _split_top(a.group(2))
        for expr, size in zip(results, shape):
            if expr in names and size is not None:
                extent.setdefault(expr, size)
    if not names or any(d not in extent for d in names):
        return None
    return math.prod(extent[d] for d in names)


def generics(text: str) -> list[dict]:
    """The linalg.generic ops of an MLIR text: {maps, iterators, shapes,
    multiplies (a mul in the body), reduces (a reduction iterator), size}."""
    aliases = dict(_MAP_ALIAS.findall(text))
    lines = text.splitlines()
    ops = []
    for i, line in enumerate(lines):
        if "linalg.generic {" not in line:
            continue
        indent = len(line) - len(line.lstrip())
        header = line
        maps = _split_top(_bracketed(header, "indexing_maps = ["))
        maps = [aliases.get(m, m) for m in maps]
        it = re.search(r"iterator_types = \[([^\]]*)\]", header)
        iterators = re.findall(r"parallel|reduction", it.group(1)) if it else []
        types = _operand_types(header, "ins") + _operand_types(header, "outs")
        shapes = [_shape(t) for t in types]
        body = []
        for nxt in lines[i + 1 :]:
            if nxt.lstrip().startswith("} ->") and len(nxt) - len(nxt.lstrip()) == indent:
                break
            body.append(nxt)
        ops.append(
            {
                "iterators": iterators,
                "shapes": shapes,
                "multiplies": any(_MUL.search(b) for b in body),
                "reduces": "reduction" in iterators,
                "size": domain_size(maps, shapes) if len(maps) == len(shapes) else None,
            }
        )
    return ops


def generalize(text: str) -> str:
    """text with its named linalg ops as linalg.generic (iree-opt)."""
    pipeline = "builtin.module(hal.executable(hal.executable.variant(builtin.module(func.func(linalg-generalize-named-ops)))))"
    iree_opt = str(Path(gpu_compile.iree_compile()).with_name("iree-opt"))
    proc = subprocess.run([iree_opt, f"--pass-pipeline={pipeline}", "-"], input=text, capture_output=True, text=True, timeout=120)
    if proc.returncode:
        raise RuntimeError(f"iree-opt: {proc.stderr[:300]}")
    return proc.stdout


def dispatch(text: str) -> dict:
    """One dumped executable: its name, whether it names an mma_kind, and
    the multiply-adds of its ops that multiply (None: a dynamic size)."""
    m = _EXE.search(text)
    name = m.group(1) if m else "?"
    if _NAMED.search(text):
        text = generalize(text)
    macs: Optional[int] = 0
    multiplies = False
    for op in generics(text):
        if op["multiplies"] and op["reduces"]:
            multiplies = True
            macs = None if macs is None or op["size"] is None else macs + op["size"]
    return {"name": name, "mma": bool(_MMA.search(text)), "multiplies": multiplies, "macs": macs if multiplies else 0}


def call_counts(flow_text: str) -> Counter:
    """Executable name -> dispatch sites in a --compile-to=flow program."""
    return Counter(_CALL.findall(flow_text))


def measure(dump_dir: Path, flow_text: str) -> dict:
    """The measure of one build from its configuration dump and its flow
    program (see the module docstring)."""
    calls = call_counts(flow_text)
    rows = [dispatch(p.read_text()) for p in sorted(dump_dir.glob("*.mlir"))]
    total = mma = 0
    dynamic = []
    for r in rows:
        n = calls.get(r["name"], 1)
        r["calls"] = n
        if r["macs"] is None:
            dynamic.append(r["name"])
            continue
        total += n * r["macs"]
        mma += n * r["macs"] if r["mma"] else 0
    return {
        "dispatches": len(rows),
        "calls": sum(r["calls"] for r in rows),
        "multiplying": sum(1 for r in rows if r["multiplies"]),
        "mma_dispatches": sum(1 for r in rows if r["multiplies"] and r["mma"]),
        "macs": total,
        "mma_macs": mma,
        "share": mma / total if total else None,
        "dynamic": dynamic,
        "per_dispatch": rows,
    }


# ---------------------------------------------------------------- builds


def flow_text(text: str, flow: str) -> str:
    forward = FLOWS[flow]
    if forward is None:
        return text
    import convopt

    return convopt.lower(text, device="gpu", forward_convs=forward)


def build(text: str, target: str, flags: str, full: bool, timeout: float) -> dict:
    """iree-compile text (torch IR) for target with a flag set: the measure
    of its configuration dump, CPU seconds, or the failure."""
    iree = gpu_compile.iree_compile()
    common = (*TARGETS[target], *FLAGS[flags])
    before = children_cpu()
    with tempfile.TemporaryDirectory(prefix="convopt-mma-") as tmp:
        t = Path(tmp)
        (t / "in.mlir").write_text(text)
        steps = [
            [iree, str(t / "in.mlir"), "--iree-input-type=torch", *common, "--compile-to=flow", "-o", str(t / "flow.mlir")],
            [iree, str(t / "flow.mlir"), *common, "--compile-from=flow", f"--iree-hal-dump-executable-configurations-to={t / 'cfg'}"]
            + ([] if full else ["--compile-to=executable-configurations"])
            + ["-o", str(t / ("out.vmfb" if full else "out.mlir"))],
        ]
        for cmd in steps:
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                return {"ok": False, "error": f"timeout after {timeout:.0f}s", "op": "", "cpu_s": round(children_cpu() - before, 2)}
            if proc.returncode:
                error, op = gpu_compile.parse_failure(proc.stderr)
                out = {"ok": False, "error": error, "op": op, "cpu_s": round(children_cpu() - before, 2)}
                if (t / "cfg").is_dir():
                    out.update(measure(t / "cfg", (t / "flow.mlir").read_text()))
                return out
        out = {"ok": True, "cpu_s": round(children_cpu() - before, 2), "full": full}
        out.update(measure(t / "cfg", (t / "flow.mlir").read_text()))
        return out


def run(targets: list[str], models: list[Path], flows: list[str], flagsets: list[str], full: bool, timeout: float, log=print) -> list[dict]:
    """Every (model, target, flag set, flow), one build at a time."""
    results = []
    for path in models:
        model = path.stem
        torch_ir = path.read_text()
        texts = {f: flow_text(torch_ir, f) for f in flows}
        for target in targets:
            for flags in flagsets:
                for f in flows:
                    r = build(texts[f], target, flags, full, timeout)
                    r.update(model=model, target=target, flow=f, flags=flags)
                    log(f"{target:7} {model:24} {f:7} {flags:8} {cell(r)}")
                    results.append(r)
    return results


# ---------------------------------------------------------------- tables


def cell(r: Optional[dict]) -> str:
    if r is None:
        return "-"
    share = r.get("share")
    s = f"{100 * share:.0f}%" if share is not None else "-"
    macs = f"{r['macs'] / 1e6:.0f}M" if "macs" in r else "-"
    d = f"{r['dispatches']}d" if "dispatches" in r else ""
    head = "ok" if r["ok"] else f"FAIL {r['op'] or r['error'][:40]}"
    return f"{head} {s} {macs} {d} {r['cpu_s']:.1f}s" if r["ok"] or "macs" in r else f"{head} {r['cpu_s']:.1f}s"


def _simt(r: dict) -> int:
    """Executed multiply-adds outside the matrix cores."""
    return int(r["macs"] - r["mma_macs"])


def table(results: list[dict]) -> str:
    """Markdown: a row per (target, model, flags), per flow the mma share,
    executed multiply-adds (M), dispatches and CPU seconds; then convopt's
    multiply-adds and share against the raw import's."""
    flows = [f for f in FLOWS if any(r["flow"] == f for r in results)]
    index = {(r["target"], r["model"], r["flags"], r["flow"]): r for r in results}
    keys = sorted({(r["target"], r["model"], r["flags"]) for r in results})
    head = ["target", "model", "flags", *flows]
    cmp = [f for f in flows if f != "raw"] if "raw" in flows else []
    head += [f"{f} macs/raw (simt)" for f in cmp]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for t, m, fl in keys:
        cells = [t, m, fl] + [cell(index.get((t, m, fl, f))) for f in flows]
        raw = index.get((t, m, fl, "raw"))
        for f in cmp:
            r = index.get((t, m, fl, f))
            ok = r and raw and r.get("macs") and raw.get("macs")
            cells.append(f"{r['macs'] / raw['macs']:.2f} ({_simt(r) / max(1, _simt(raw)):.2f})" if ok else "-")  # type: ignore[index]
        lines.append("| " + " | ".join(cells) + " |")
    lines += [
        "",
        "Cells: built (ok) or the failing op; matrix-core share of the executed multiply-adds; executed multiply-adds (millions); "
        "distinct dispatches; iree-compile CPU seconds.  macs/raw: executed multiply-adds against the raw import's, and in "
        "parentheses those on the SIMT lanes (not in an mma_kind dispatch) against the raw import's.",
    ]
    return "\n".join(lines) + "\n"


def main(argv: Optional[list[str]] = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--targets", default="rocm,cuda,cuda90")
    ap.add_argument("--models", default="resnext_block,video_block,audio_encoder")
    ap.add_argument("--flows", default="raw,gpu,gpufwd")
    ap.add_argument("--flags", default="default,boo")
    ap.add_argument("--build", action="store_true", help="build to the end (CPU seconds, builds or not), not only to the configurations")
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--out", default="mma")
    ap.add_argument("--models-dir", default=str(ROOT / "test" / "models"), help="where the models' torch IR (NAME.mlir) is")
    a = ap.parse_args(argv)
    where = Path(a.models_dir)
    models = sorted(where.glob("*.mlir")) if a.models == "all" else [where / f"{m}.mlir" for m in a.models.split(",")]
    results = run(a.targets.split(","), models, a.flows.split(","), a.flags.split(","), a.build, a.timeout, log=lambda s: print(s, flush=True))
    (HERE / "results").mkdir(exist_ok=True)
    slim = [{k: v for k, v in r.items() if k != "per_dispatch"} | {"per_dispatch": [d for d in r.get("per_dispatch", []) if d["multiplies"]]} for r in results]
    (HERE / "results" / f"{a.out}.json").write_text(json.dumps(slim, indent=1) + "\n")
    text = table(results)
    print(text)
    (HERE / "results" / f"{a.out}.txt").write_text(text)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONPATH", str(ROOT))
    main()
