"""bench/dispatches: IREE dispatches per model, the raw import next to convopt's output.

For every model of test/models (the raw FX import of one training step), the
number of executables IREE forms (`iree-compile --compile-to=flow`,
`flow.executable` ops) for: the raw import (IREE's own torch lowering),
`convopt --lower-conv-bwd`, and `convopt --lower-conv-bwd --lower-forward-convs`.
The count is deterministic (unlike times) and IREE's build time grows with it:
each executable is compiled on its own.

    python -m bench.dispatches [--models a,b] [--target-cpu host] [--convopt-flags '--device=avx2']

Prints one line per model and writes bench/results/dispatches.<host>.txt (--out;
<host>: bench/host.py's tag).
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from bench import host

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BIN = Path(sys.executable).parent


def flow_executables(src: Path, target_cpu: str, work: Path) -> int | None:
    """flow.executable count of src through IREE's torch input, or None
    where iree-compile fails."""
    out = work / (src.stem + ".flow.mlir")
    cmd = [str(BIN / "iree-compile"), "--iree-input-type=torch", "--iree-hal-target-backends=llvm-cpu",
           f"--iree-llvmcpu-target-cpu={target_cpu}", "--compile-to=flow", str(src), "-o", str(out)]
    if subprocess.run(cmd, capture_output=True, text=True).returncode:
        return None
    return out.read_text().count("flow.executable private")


def convopt(src: Path, flags: list[str], out: Path) -> Path:
    """src through the convopt command line with flags."""
    subprocess.run([str(BIN / "convopt"), *flags, str(src), "-o", str(out)], check=True, capture_output=True)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=",".join(sorted(p.stem for p in (ROOT / "test" / "models").glob("*.mlir"))))
    parser.add_argument("--target-cpu", default="host")
    parser.add_argument("--convopt-flags", default="", help="extra flags for every convopt run (shell-quoted)")
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    extra = shlex.split(args.convopt_flags)
    where = host.meta(args.target_cpu)
    out = args.out or str(HERE / "results" / f"dispatches.{where['host_tag']}.txt")
    lines = [f"# {host.line(where['machine'])}, commit {where['commit']}, {where['date']}",
             "# IREE dispatches per step (iree-compile --compile-to=flow, flow.executable count; '-': iree-compile fails):"
             f" model, raw import, convopt --lower-conv-bwd, convopt --lower-conv-bwd --lower-forward-convs {' '.join(extra)}".rstrip()]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name in args.models.split(","):
            raw = ROOT / "test" / "models" / f"{name}.mlir"
            counts = [flow_executables(raw, args.target_cpu, work)]
            for variant, flags in (("bwd", ["--lower-conv-bwd"]), ("fwd", ["--lower-conv-bwd", "--lower-forward-convs"])):
                counts.append(flow_executables(convopt(raw, flags + extra, work / f"{name}.{variant}.mlir"), args.target_cpu, work))
            lines.append(" ".join([name, *("-" if c is None else str(c) for c in counts)]))
            print(lines[-1], flush=True)
    Path(out).write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
