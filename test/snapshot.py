"""Byte-identity snapshot of convopt's output, for refactors that must keep behaviour.

    python test/snapshot.py write DIR          # every corpus input x every mode -> DIR
    python test/snapshot.py compare OLD NEW    # exit 1 and list the outputs that differ

Run `write` from the tree whose code you want (a worktree: `PYTHONPATH=$PWD`),
once before and once after a change, and `compare` the two folders.  The
corpus is every `.mlir` file under test/inputs, test/models, examples and
test/lit (lit files split at `// -----`), the e2e configurations
(`harness.all_configs()` with all 110 random ones, and the packed-matmul rows)
and the 300-function module of bench/tool.py.  Each input runs under every
mode of MODES in-process, through the same click command as the shell; each
output file holds stdout, stderr and the exit code.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import sys
from concurrent.futures import ProcessPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name -> command-line arguments (the input file is appended).
MODES = {
    "roundtrip": [],
    "lower": ["--lower-conv-bwd"],
    "decomposed": ["--lower-conv-bwd", "--backend-legal-ops="],
    "rocmlir": ["--lower-conv-bwd", "--target=rocmlir"],
    "decompose": ["--decompose-conv-bwd"],
    "im2col": ["--lower-conv-bwd", "--conv-form=im2col"],
    "named": ["--lower-conv-bwd", "--backend-legal-ops=", "--conv-form=named"],
    "generic": ["--lower-conv-bwd", "--conv-form=generic"],
    "boundary": ["--lower-conv-bwd", "--torch-boundary"],
    "tiles": ["--lower-conv-bwd", "--matmul-tiles=avx512"],
    "debuginfo": ["--lower-conv-bwd", "--mlir-print-debuginfo"],
    "stats": ["--lower-conv-bwd", "--stats", "--remarks"],
    "avx2": ["--lower-conv-bwd", "--device=avx2"],
    "avx512": ["--lower-conv-bwd", "--device=avx512"],
    "gpu": ["--lower-conv-bwd", "--device=gpu"],
    "gpu-decomposed": ["--lower-conv-bwd", "--backend-legal-ops=", "--device=gpu"],
}


def _corpus(tmp: str) -> list[tuple[str, str, list[str]]]:
    """(name, path, extra args) of every input; generated ones are written to tmp."""
    out = []
    for folder in ("test/inputs", "test/models", "examples", "test/lit"):
        for dirpath, _, files in sorted(os.walk(os.path.join(ROOT, folder))):
            for f in sorted(files):
                if f.endswith(".mlir"):
                    path = os.path.join(dirpath, f)
                    extra = ["--split-input-file"] if folder == "test/lit" else []
                    out.append((os.path.relpath(path, ROOT).replace("/", "_"), path, extra))
    sys.path[:0] = [os.path.join(ROOT, "test", "e2e"), ROOT]
    import dataclasses

    import harness

    cfgs = harness.all_configs()
    cfgs += [
        harness.C("tiles_stem", batch=1, cin=3, cout=16, spatial=64, kernel=7, stride=2, padding=3, mask=(False, True, False)),
        harness.C("tiles_dense", batch=2, cin=32, cout=64, spatial=16, kernel=3, padding=1, mask=(True, True, False)),
    ]
    cfgs += [dataclasses.replace(c, name=c.name + "_bf16", dtype="bf16") for c in cfgs[-2:]]
    for cfg in cfgs:
        path = os.path.join(tmp, f"e2e_{cfg.name}.mlir")
        with open(path, "w") as fh:
            fh.write(harness.torch_ir(cfg))
        out.append((f"e2e_{cfg.name}", path, []))
    try:
        from bench import tool

        path = os.path.join(tmp, "bench_m300.mlir")
        with open(path, "w") as fh:
            fh.write(tool.module(tool.configs(300)))
        out.append(("bench_m300", path, []))
    except Exception as e:  # pragma: no cover - bench/tool.py changed its helpers
        print(f"snapshot: bench module left out ({e})", file=sys.stderr)
    return out


def _run_one(job: tuple[str, str, list[str], str, str]) -> tuple[str, str]:
    name, path, extra, mode, dest = job
    import click

    from convopt.cli import main, normalize_argv

    stdout, stderr = io.StringIO(), io.StringIO()
    code: object = 0
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            main.main(args=normalize_argv([*MODES[mode], *extra, path]), prog_name="convopt", standalone_mode=False)
        except SystemExit as e:
            code = e.code
        except click.ClickException as e:
            code = f"click: {e}"
        except Exception as e:  # noqa: BLE001 - an internal error is an output too
            code = f"internal error: {type(e).__name__}: {e}"
    # the input's path (a temp folder, a worktree) is in locations and diagnostics
    text = f"{stdout.getvalue()}\n=== stderr\n{stderr.getvalue()}\n=== exit {code}\n".replace(path, "<input>")
    fname = f"{name}.{mode}.out"
    with open(os.path.join(dest, fname), "w") as fh:
        fh.write(text)
    return fname, hashlib.sha256(text.encode()).hexdigest()


def write(dest: str, jobs: int) -> int:
    import tempfile

    os.makedirs(dest, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="convopt-snapshot-")
    work = [(n, p, e, m, dest) for n, p, e in _corpus(tmp) for m in MODES]
    with ProcessPoolExecutor(jobs) as pool:
        digests = sorted(pool.map(_run_one, work, chunksize=8))
    with open(os.path.join(dest, "MANIFEST"), "w") as fh:
        fh.writelines(f"{d}  {f}\n" for f, d in digests)
    print(f"snapshot: {len(digests)} outputs in {dest}")
    return 0


def compare(old: str, new: str) -> int:
    def manifest(d: str) -> dict[str, str]:
        with open(os.path.join(d, "MANIFEST")) as fh:
            return {f: h for h, f in (line.split() for line in fh)}

    a, b = manifest(old), manifest(new)
    differ = sorted(f for f in a.keys() & b.keys() if a[f] != b[f])
    only = sorted(a.keys() ^ b.keys())
    for f in differ:
        print(f"differs: {f}")
    for f in only:
        print(f"only in {'old' if f in a else 'new'}: {f}")
    print(f"snapshot: {len(a.keys() & b.keys())} compared, {len(differ)} differ, {len(only)} unpaired")
    return 1 if differ or only else 0


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    if len(sys.argv) == 3 and sys.argv[1] == "write":
        sys.exit(write(sys.argv[2], int(os.environ.get("JOBS", "2"))))
    if len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    sys.exit(__doc__)
