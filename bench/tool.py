"""bench/tool: how fast convopt itself runs, next to torch-mlir-opt.

  * a generated module of --functions conv-backward functions (seeded random
    configurations torch-mlir's direct lowering accepts: not transposed,
    padding <= dilation * (kernel - 1)), lowered by
      convopt --lower-conv-bwd   vs   torch-mlir-opt -convert-torch-to-linalg
  * the real-model graphs of the model suite (test/models/*.mlir, raw FX
    imports of whole backward graphs), the same two commands on each
    (torch-mlir-opt cannot lower some of them: reported, no ratio)
  * Lark alone on each of them: Lark's LALR parser with the contextual
    lexer over the file (our grammar, rule callbacks that build nothing,
    parser tables from the cache), a floor for any convopt built on Lark,
    next to torch-mlir-opt's whole lowering
  * start-up: both tools on a one-function file, and in the same run the
    floor under convopt's: `python -c pass`, `import lark, click` (both
    mandated dependencies) and the construction of convopt's Lark parser
  * peak memory (max RSS) of convopt at 1/4, 1/2 and all of the functions,
    to show it grows linearly with the input, and on each model graph

Every measurement is the best of --repeats runs of the real command lines
(start-up: of at least 10), the commands of a workload run in turn (A, B, A,
B, ...) so that both see the same load; all in one run.  Prints a table of
times and ratios and writes bench/results/tool.<host>.json (and .txt, .png;
<host>: bench/host.py's tag).

    python -m bench.tool [--functions 2000] [--repeats 3] [--convopt PATH]
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Optional

from bench import host
from bench.testsupport import load

HERE = os.path.dirname(os.path.abspath(__file__))
harness = load("harness")


def configs(count: int, seed: int = 7) -> list[harness.Config]:
    rng = random.Random(seed)
    out: list[harness.Config] = []
    while len(out) < count:
        nd = rng.choice([1, 2, 2, 3])
        kernel = tuple(rng.choice([1, 3, 3, 5]) for _ in range(nd))
        dilation = tuple(rng.choice([1, 1, 2]) for _ in range(nd))
        padding = tuple(rng.randint(0, dilation[i] * (kernel[i] - 1)) for i in range(nd))
        groups = rng.choice([1, 1, 2, 4])
        cfg = harness.Config(
            name=f"f{len(out)}", batch=rng.choice([1, 2, 4]), cin=groups * rng.choice([2, 4, 8]), cout=groups * rng.choice([2, 4, 8]),
            spatial=tuple(rng.choice([8, 14, 16, 28]) for _ in range(nd)), kernel=kernel, stride=tuple(rng.choice([1, 1, 2]) for _ in range(nd)),
            padding=padding, dilation=dilation, groups=groups, mask=rng.choice([(True, True, True), (True, True, False), (False, True, False)]),
            dtype=rng.choice(["f32", "f32", "f16", "bf16"]), seed=len(out),
        )
        if cfg.valid():
            out.append(cfg)
    return out


def module(cfgs: list[harness.Config]) -> str:
    return "module {\n" + "".join(harness.torch_ir(c).replace("@main", f"@{c.name}") for c in cfgs) + "}\n"


# Lark alone over argv[1]: convopt's grammar and parser options
# (convopt.parser.lark_parser), every rule callback returning None.
LARK_ALONE = """
import sys
from convopt.parser import lark_parser

class NoCallbacks:
    def __getattr__(self, name):
        if name[:1].islower():  # a rule (terminals are upper case: no token callbacks)
            return lambda children: None
        raise AttributeError(name)

with open(sys.argv[1], encoding="utf-8") as f:
    lark_parser(NoCallbacks()).parse(f.read())
"""

# The floor under convopt's start-up, run in turn with it.
FLOOR = {
    "python -c pass": "pass",
    "python -c 'import lark, click'": "import lark, click",
    "Lark construction (convopt.parser._parser())": "from convopt.parser import _parser; _parser()",
}


def tool(name: str) -> str:
    path = shutil.which(name, path=os.path.dirname(sys.executable)) or shutil.which(name)
    if path is None:
        raise SystemExit(f"bench/tool: '{name}' is not installed")
    return path


def run(cmds: dict[str, list[str]], repeats: int, may_fail: tuple[str, ...] = ()) -> dict[str, Optional[tuple[float, int]]]:
    """Best wall time in seconds and the max RSS (KiB) of each command, the
    commands run in turn `repeats` times; None for a command of `may_fail`
    that fails (any other failure stops the benchmark)."""
    best = {name: float("inf") for name in cmds}
    failed: set[str] = set()
    for _ in range(repeats):
        for name, cmd in cmds.items():
            if name in failed:
                continue
            start = time.perf_counter()
            proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            elapsed = time.perf_counter() - start
            if proc.returncode:
                if name in may_fail:
                    failed.add(name)
                    continue
                raise SystemExit(f"bench/tool: {' '.join(cmd)} failed:\n{proc.stderr[-2000:]}")
            best[name] = min(best[name], elapsed)
    return {name: None if name in failed else (best[name], peak_rss(cmd)) for name, cmd in cmds.items()}


def peak_rss(cmd: list[str]) -> int:
    """Max RSS (KiB) of one run of cmd, measured in a fresh child."""
    code = (
        "import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    return int(subprocess.run([sys.executable, "-c", code, *cmd], capture_output=True, text=True, check=True).stdout)


def models_dir() -> str:
    return os.path.join(HERE, "..", "test", "models")


def report(functions: int, graphs: int, rows: dict, ratios: dict, lark_ratios: dict, sizes: dict, memory: list[dict]) -> str:
    """The table of times, the ratios to torch-mlir-opt, start-up and memory."""
    lines = [f"module: {functions} functions, {sizes[f'{functions} functions'] / 1e6:.1f} MB; {graphs} model graphs from test/models", ""]
    lines.append(f"{'command':66} {'best s':>9} {'max RSS MiB':>12}")
    for name, row in rows.items():
        lines.append(f"{name:66} {'fails':>9}" if row is None else f"{name:66} {row[0]:9.3f} {row[1] / 1024:12.1f}")
    lines.append("")
    lines.append("convopt / torch-mlir-opt (target <= 3x):")
    for label, ratio in ratios.items():
        lines.append(f"  {label:30} {sizes[label] / 1e3:8.0f} KB  " + ("torch-mlir-opt fails" if ratio is None else f"{ratio:6.2f}x"))
    lines.append("Lark alone (parse only, no-op callbacks) / torch-mlir-opt's whole lowering:")
    for label, ratio in lark_ratios.items():
        lines.append(f"  {label:30} {sizes[label] / 1e3:8.0f} KB  " + ("torch-mlir-opt fails" if ratio is None else f"{ratio:6.2f}x"))
    su, st = rows["start-up (1 function): convopt"], rows["start-up (1 function): torch-mlir-opt"]
    assert su is not None and st is not None
    lines.append(f"convopt start-up: {su[0] * 1e3:.0f} ms, torch-mlir-opt {st[0] * 1e3:.0f} ms (target <= 60 ms); of convopt's, in the same run:")
    for name in FLOOR:
        row = rows[f"start-up floor: {name}"]
        assert row is not None
        lines.append(f"  {name:50} {row[0] * 1e3:5.0f} ms  ({row[0] / su[0]:4.0%})")
    lines.append("peak memory of convopt --lower-conv-bwd (target <= 100 bytes per input byte):")
    for m in memory:
        lines.append(f"  {m['input']:30} {m['bytes'] / 1e6:7.2f} MB input -> {m['convopt_max_rss_kib'] / 1024:7.1f} MiB, {m['convopt_max_rss_kib'] * 1024 / m['bytes']:.1f} bytes of memory per input byte")
    quarter, whole = memory[0], memory[2]
    if whole["bytes"] > quarter["bytes"]:
        slope = (whole["convopt_max_rss_kib"] - quarter["convopt_max_rss_kib"]) * 1024 / (whole["bytes"] - quarter["bytes"])
        lines.append(f"  growth from {quarter['input']} to {whole['input']}: {slope:.1f} bytes per added input byte")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--functions", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--convopt", default=None, help="the convopt command to measure (default: the installed one)")
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    args = parser.parse_args()
    convopt, tmo = args.convopt or tool("convopt"), tool("torch-mlir-opt")
    cfgs = configs(args.functions)
    models = sorted(glob.glob(os.path.join(models_dir(), "*.mlir")))
    rows: dict[str, Optional[tuple[float, int]]] = {}
    ratios: dict[str, Optional[float]] = {}
    lark_ratios: dict[str, Optional[float]] = {}
    sizes: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        big = os.path.join(tmp, "module.mlir")
        with open(big, "w") as f:
            f.write(module(cfgs))
        one = os.path.join(tmp, "one.mlir")
        with open(one, "w") as f:
            f.write(module(cfgs[:1]))
        workloads = [(f"{args.functions} functions", big)] + [(os.path.basename(m)[: -len(".mlir")], m) for m in models]
        for label, path in workloads:
            sizes[label] = os.path.getsize(path)
            got = run(
                {"convopt": [convopt, "--lower-conv-bwd", path], "torch-mlir-opt": [tmo, "-convert-torch-to-linalg", path], "lark": [sys.executable, "-c", LARK_ALONE, path]},
                args.repeats,
                may_fail=("torch-mlir-opt",),
            )
            rows[f"{label}: convopt --lower-conv-bwd"] = got["convopt"]
            rows[f"{label}: torch-mlir-opt -convert-torch-to-linalg"] = got["torch-mlir-opt"]
            rows[f"{label}: Lark alone (parse, no-op callbacks)"] = got["lark"]
            tm = got["torch-mlir-opt"]
            ratios[label] = None if tm is None else got["convopt"][0] / tm[0]  # type: ignore[index]
            lark_ratios[label] = None if tm is None else got["lark"][0] / tm[0]  # type: ignore[index]
        floor = {name: [sys.executable, "-c", code] for name, code in FLOOR.items()}
        startup = run({"convopt": [convopt, "--lower-conv-bwd", one], "torch-mlir-opt": [tmo, "-convert-torch-to-linalg", one], **floor}, max(10, args.repeats * 3))
        rows["start-up (1 function): convopt"] = startup["convopt"]
        rows["start-up (1 function): torch-mlir-opt"] = startup["torch-mlir-opt"]
        for name in FLOOR:
            rows[f"start-up floor: {name}"] = startup[name]
        rows["convopt parse+print only (module)"] = run({"convopt": [convopt, big]}, args.repeats)["convopt"]
        memory = []
        for fraction in (4, 2, 1):
            part = os.path.join(tmp, f"part{fraction}.mlir")
            subset = cfgs[: max(1, len(cfgs) // fraction)]
            with open(part, "w") as f:
                f.write(module(subset))
            memory.append({"input": f"{len(subset)} functions", "functions": len(subset), "bytes": os.path.getsize(part), "convopt_max_rss_kib": peak_rss([convopt, "--lower-conv-bwd", part])})
        for label, path in workloads[1:]:
            memory.append({"input": label, "bytes": sizes[label], "convopt_max_rss_kib": peak_rss([convopt, "--lower-conv-bwd", path])})
    text = report(args.functions, len(models), rows, ratios, lark_ratios, sizes, memory)
    print(text)
    data = {"functions": args.functions, "bytes": sizes, "seconds": {k: None if v is None else v[0] for k, v in rows.items()},
            "ratios": ratios, "lark_ratios": lark_ratios, "memory": memory}
    write(args.out, data, text, {k: v for k, v in rows.items() if v is not None})


def write(out: str, data: dict, text: str, rows: dict[str, tuple[float, int]]) -> None:
    """out/tool.<host>.{json,txt,png}."""
    os.makedirs(out, exist_ok=True)
    where = host.meta()
    stem = os.path.join(out, f"tool.{where['host_tag']}")
    with open(stem + ".json", "w") as f:
        json.dump({**where, **data}, f, indent=1)
    with open(stem + ".txt", "w") as f:
        f.write(text + "\n")
    chart(rows, data["memory"], stem + ".png")


def chart(rows: dict[str, tuple[float, int]], memory: list[dict], path: str) -> None:
    """Left: wall time of each command (log scale); right: peak memory against
    input size, with the line through the origin and the largest point."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    names = list(rows)
    seconds = [rows[n][0] for n in names]
    colors = ["tab:gray" if "torch-mlir-opt" in n else "tab:green" if "Lark" in n or "floor" in n else "tab:blue" for n in names]
    left.barh(range(len(names)), seconds, color=colors)
    left.set_yticks(range(len(names)), names, fontsize=8)
    left.invert_yaxis()
    left.set_xscale("log")
    left.set_xlabel("best wall time, s (log)")
    for i, t in enumerate(seconds):
        left.text(t, i, f" {t:.3g}", va="center", fontsize=8)
    generated = [m for m in memory if "functions" in m]
    mb = [m["bytes"] / 1e6 for m in generated]
    mib = [m["convopt_max_rss_kib"] / 1024 for m in generated]
    right.plot(mb, mib, "o-", color="tab:blue", label="convopt --lower-conv-bwd (generated module)")
    others = [m for m in memory if "functions" not in m]
    right.plot([m["bytes"] / 1e6 for m in others], [m["convopt_max_rss_kib"] / 1024 for m in others], "s", color="tab:green", label="model graphs")
    right.plot([0, mb[-1]], [0, mib[-1]], ":", color="tab:gray", label="linear through the origin")
    right.set_xlabel("input size, MB")
    right.set_ylabel("peak RSS, MiB")
    right.legend(fontsize=8)
    fig.suptitle("bench/tool: convopt vs torch-mlir-opt (same run)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    main()
