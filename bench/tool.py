"""bench/tool: how fast convopt itself runs, next to torch-mlir-opt.

  * a generated module of --functions conv-backward functions (seeded random
    configurations torch-mlir's direct lowering accepts: not transposed,
    padding <= dilation * (kernel - 1)), lowered by
      convopt --lower-conv-bwd   vs   torch-mlir-opt -convert-torch-to-linalg
  * start-up: both tools on a one-function file
  * peak memory (max RSS) of convopt at 1/4, 1/2 and all of the functions,
    to show it grows linearly with the input

Each measurement is the best of --repeats runs of the real command lines, in
one run; prints a table of times, the ratio, and writes bench/results/tool.json.

    python bench/tool.py [--functions 2000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "test", "e2e"))

import harness  # noqa: E402


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


def tool(name: str) -> str:
    path = shutil.which(name, path=os.path.dirname(sys.executable)) or shutil.which(name)
    if path is None:
        raise SystemExit(f"bench/tool: '{name}' is not installed")
    return path


def run(cmd: list[str], repeats: int) -> tuple[float, int]:
    """Best wall time in seconds, and the max RSS (KiB) of one run."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        elapsed = time.perf_counter() - start
        if proc.returncode:
            raise SystemExit(f"bench/tool: {' '.join(cmd)} failed:\n{proc.stderr[-2000:]}")
        best = min(best, elapsed)
    return best, peak_rss(cmd)


def peak_rss(cmd: list[str]) -> int:
    """Max RSS (KiB) of one run of cmd, measured in a fresh child."""
    code = (
        "import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    return int(subprocess.run([sys.executable, "-c", code, *cmd], capture_output=True, text=True, check=True).stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--functions", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    args = parser.parse_args()
    convopt, tmo = tool("convopt"), tool("torch-mlir-opt")
    cfgs = configs(args.functions)
    with tempfile.TemporaryDirectory() as tmp:
        big = os.path.join(tmp, "module.mlir")
        with open(big, "w") as f:
            f.write(module(cfgs))
        one = os.path.join(tmp, "one.mlir")
        with open(one, "w") as f:
            f.write(module(cfgs[:1]))
        rows = {}
        rows["convopt --lower-conv-bwd"] = run([convopt, "--lower-conv-bwd", big], args.repeats)
        rows["torch-mlir-opt -convert-torch-to-linalg"] = run([tmo, "-convert-torch-to-linalg", big], args.repeats)
        rows["convopt start-up (1 function)"] = run([convopt, "--lower-conv-bwd", one], args.repeats * 3)
        rows["torch-mlir-opt start-up (1 function)"] = run([tmo, "-convert-torch-to-linalg", one], args.repeats * 3)
        rows["convopt parse+print only"] = run([convopt, big], args.repeats)
        memory = []
        for fraction in (4, 2, 1):
            part = os.path.join(tmp, f"part{fraction}.mlir")
            subset = cfgs[: max(1, len(cfgs) // fraction)]
            with open(part, "w") as f:
                f.write(module(subset))
            memory.append({"functions": len(subset), "bytes": os.path.getsize(part), "convopt_max_rss_kib": peak_rss([convopt, "--lower-conv-bwd", part])})
        size = os.path.getsize(big)
    ratio = rows["convopt --lower-conv-bwd"][0] / rows["torch-mlir-opt -convert-torch-to-linalg"][0]
    lines = [f"module: {args.functions} functions, {size / 1e6:.1f} MB", ""]
    lines.append(f"{'command':45} {'best s':>9} {'max RSS MiB':>12}")
    for name, (t, rss) in rows.items():
        lines.append(f"{name:45} {t:9.3f} {rss / 1024:12.1f}")
    lines.append("")
    lines.append(f"convopt / torch-mlir-opt on the module: {ratio:.2f}x (target <= 3x)")
    lines.append(f"convopt start-up: {rows['convopt start-up (1 function)'][0] * 1e3:.0f} ms (target <= 100 ms)")
    lines.append("peak memory of convopt --lower-conv-bwd:")
    for m in memory:
        lines.append(f"  {m['functions']:5} functions {m['bytes'] / 1e6:7.2f} MB input -> {m['convopt_max_rss_kib'] / 1024:7.1f} MiB, {m['convopt_max_rss_kib'] * 1024 / m['bytes']:.1f} bytes of memory per input byte")
    text = "\n".join(lines)
    print(text)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "tool.json"), "w") as f:
        json.dump({"functions": args.functions, "bytes": size, "seconds": {k: v[0] for k, v in rows.items()}, "ratio": ratio, "memory": memory}, f, indent=1)
    with open(os.path.join(args.out, "tool.txt"), "w") as f:
        f.write(text + "\n")
    chart(rows, memory, os.path.join(args.out, "tool.png"))


def chart(rows: dict[str, tuple[float, int]], memory: list[dict], path: str) -> None:
    """Left: wall time of each command (log scale); right: peak memory against
    input size, with the line through the origin and the largest point."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    names = list(rows)
    seconds = [rows[n][0] for n in names]
    colors = ["tab:blue" if n.startswith("convopt") else "tab:gray" for n in names]
    left.barh(range(len(names)), seconds, color=colors)
    left.set_yticks(range(len(names)), names, fontsize=8)
    left.invert_yaxis()
    left.set_xscale("log")
    left.set_xlabel("best wall time, s (log)")
    for i, t in enumerate(seconds):
        left.text(t, i, f" {t:.3g}", va="center", fontsize=8)
    mb = [m["bytes"] / 1e6 for m in memory]
    mib = [m["convopt_max_rss_kib"] / 1024 for m in memory]
    right.plot(mb, mib, "o-", color="tab:blue", label="convopt --lower-conv-bwd")
    right.plot([0, mb[-1]], [0, mib[-1]], ":", color="tab:gray", label="linear through the origin")
    right.set_xlabel("input size, MB")
    right.set_ylabel("peak RSS, MiB")
    right.legend(fontsize=8)
    fig.suptitle("bench/tool: convopt vs torch-mlir-opt (same run)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    main()
