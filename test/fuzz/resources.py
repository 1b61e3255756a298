"""Resource bounds: deep nesting, very long lines, huge dense literals, huge
dimension sizes.  Each input must end in a result or a located error within
its time bound, and time and memory must grow linearly with its size (or
the run must fail fast with a located error).

    python test/fuzz/resources.py              # every case at every size; a table
    python test/fuzz/resources.py --quick      # the small sizes only
    python test/fuzz/resources.py --dense 1000000   # the dense-literal benchmark alone

Each measurement runs in a fresh subprocess (`--run CASE N`), which reports
its wall time and peak RSS; a subprocess over its limit is a hang.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
LOCATED = re.compile(r"^(?P<name>.+?):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$")
DENSE_TARGET = 2.0  # seconds for a 1,000,000-element dense literal (issue 12)
BIG = 9223372036854775807


# --- the inputs -------------------------------------------------------------------------------------

def nested_regions(n: int) -> str:
    return "func.func @deep() {\n  " + '"scf.execute_region"() ({ ' * n + '"scf.yield"() : () -> () ' + "}) : () -> () " * n + "\n  return\n}\n"


def nested_arrays(n: int) -> str:
    return "module attributes {t.x = " + "[" * n + "]" * n + "} {\n}\n"


def nested_dicts(n: int) -> str:
    return "module attributes {t.x = " + "{a = " * n + "1" + "}" * n + "} {\n}\n"


def nested_types(n: int) -> str:
    return "func.func @f(%a: " + "!torch.list<" * n + "int" + ">" * n + ") {\n  return\n}\n"


def nested_locations(n: int) -> str:
    return "func.func @f() {\n  return loc(" + "callsite(" * n + '"a":1:2' + ' at "b":1:2)' * n + ")\n}\n"


def affine_parens(n: int) -> str:
    return "#map = affine_map<(d0) -> (" + "(" * n + "d0" + ")" * n + ")>\nfunc.func @f() attributes {m = #map} {\n  return\n}\n"


def long_string(n: int) -> str:
    return 'func.func @f() attributes {s = "' + "a" * n + '"} {\n  return\n}\n'


def long_comment(n: int) -> str:
    return "// " + "x" * n + "\nfunc.func @f() {\n  return\n}\n"


def long_name(n: int) -> str:
    return "func.func @f(%" + "a" * n + ": f32) -> f32 {\n  return %" + "a" * n + " : f32\n}\n"


def long_operand_line(n: int) -> str:
    return ("func.func @f(%a: tensor<2xf32>) {\n  %0 = \"t.op\"(" + ", ".join(["%a"] * n) + ") : (" + ", ".join(["tensor<2xf32>"] * n)
            + ") -> f32\n  return\n}\n")


def long_list_construct(n: int) -> str:
    return ("func.func @f() {\n  %i = torch.constant.int 1\n  %l = torch.prim.ListConstruct " + ", ".join(["%i"] * n) + " : ("
            + ", ".join(["!torch.int"] * n) + ") -> !torch.list<int>\n  return\n}\n")


def many_ops(n: int) -> str:
    return "func.func @f() {\n" + "".join(f"  %c{i} = arith.constant {i} : index\n" for i in range(n)) + "  return\n}\n"


def many_functions(n: int) -> str:
    return "".join(f"func.func @f{i}(%a: f32) -> f32 {{\n  return %a : f32\n}}\n" for i in range(n))


def dense_literal(n: int) -> str:
    vals = ", ".join("%d.5" % (i % 100) for i in range(n))
    return f"func.func @f() -> tensor<{n}xf32> {{\n  %0 = arith.constant dense<[{vals}]> : tensor<{n}xf32>\n  return %0 : tensor<{n}xf32>\n}}\n"


def dense_nested(n: int) -> str:
    rows = max(1, int(n ** 0.5))
    cols = max(1, n // rows)
    row = "[" + ", ".join(str(i % 7) for i in range(cols)) + "]"
    body = "[" + ", ".join([row] * rows) + "]"
    return f"func.func @f() -> tensor<{rows}x{cols}xi32> {{\n  %0 = arith.constant dense<{body}> : tensor<{rows}x{cols}xi32>\n  return %0 : tensor<{rows}x{cols}xi32>\n}}\n"


def huge_integer_literal(n: int) -> str:
    return "func.func @f() -> !torch.int {\n  %0 = torch.constant.int " + "9" * n + "\n  return %0 : !torch.int\n}\n"


def huge_dims_roundtrip(n: int) -> str:
    t = "tensor<" + f"{BIG}x" * n + "f32>"
    return f"func.func @f(%a: {t}) -> {t} {{\n  return %a : {t}\n}}\n"


def _conv(go: tuple, x: tuple, w: tuple, stride=(1,), padding=(0,), dilation=(1,)) -> str:
    sys.path.insert(0, str(HERE))
    import semantic

    call = semantic.Call("r", go, x, w, ("f32",) * 3, None, stride, padding, dilation, False, (0,) * (len(x) - 2), 1, (True, True, True))
    return call.ir()


def conv_huge_spatial(n: int) -> str:  # n is ignored: sizes near 2^63
    return _conv((1, 1, BIG - 2), (1, 1, BIG), (1, 1, 3))


def conv_huge_batch(n: int) -> str:
    return _conv((BIG, 1, 5), (BIG, 1, 7), (1, 1, 3))


def conv_huge_kernel(n: int) -> str:
    return _conv((1, 1, 2), (1, 1, BIG), (1, 1, BIG - 1))


def conv_long_kernel(n: int) -> str:  # a 1-D kernel of n taps, stride 2
    return _conv((1, 1, 6), (1, 1, n + 10), (1, 1, n), stride=(2,))


def conv_long_input(n: int) -> str:  # a 1-D input of n samples
    return _conv((1, 1, n - 2), (1, 1, n), (1, 1, 3))


@dataclass(frozen=True)
class ResourceCase:
    name: str
    build: Callable[[int], str]
    mode: str  # roundtrip | lower | lower-decomposed
    sizes: tuple[int, ...]  # a geometric series: time and memory must grow at most linearly along it
    limit: float = 20.0  # seconds for the largest size
    known_bug: Optional[str] = None  # a reproducer under test/fuzz/crashes/ (the case is reported, not failed)
    quick: tuple[int, ...] = ()


CASES = [
    ResourceCase("nested_regions", nested_regions, "roundtrip", (1000, 4000, 16000), quick=(200, 800)),
    ResourceCase("nested_arrays", nested_arrays, "roundtrip", (25000, 100000, 400000), quick=(5000, 20000)),
    ResourceCase("nested_dicts", nested_dicts, "roundtrip", (25000, 100000, 400000), quick=(5000, 20000)),
    ResourceCase("nested_types", nested_types, "roundtrip", (25000, 100000, 400000), quick=(5000, 20000)),
    ResourceCase("nested_locations", nested_locations, "roundtrip", (100, 1000, 10000), quick=(100, 400)),
    ResourceCase("affine_parens", affine_parens, "roundtrip", (25000, 100000, 400000), quick=(5000, 20000)),
    ResourceCase("long_string", long_string, "roundtrip", (100_000, 200_000, 400_000), quick=(50_000, 100_000)),
    ResourceCase("long_comment", long_comment, "roundtrip", (1_000_000, 4_000_000, 16_000_000), quick=(100_000, 400_000)),
    ResourceCase("long_name", long_name, "roundtrip", (1_000_000, 4_000_000, 16_000_000), quick=(100_000, 400_000)),
    ResourceCase("long_operand_line", long_operand_line, "roundtrip", (10_000, 40_000, 160_000), quick=(2_000, 8_000)),
    ResourceCase("long_list_construct", long_list_construct, "lower", (2_000, 4_000, 8_000, 16_000), quick=(2_000, 8_000)),
    ResourceCase("many_ops", many_ops, "roundtrip", (10_000, 40_000, 160_000), limit=60.0, quick=(2_000, 8_000)),
    ResourceCase("many_functions", many_functions, "lower", (2_000, 8_000, 32_000), limit=60.0, quick=(500, 2_000)),
    ResourceCase("dense_literal", dense_literal, "roundtrip", (62_500, 250_000, 1_000_000), limit=60.0, quick=(25_000, 100_000)),
    ResourceCase("dense_nested", dense_nested, "roundtrip", (62_500, 250_000, 1_000_000), limit=60.0, quick=(25_000, 100_000)),
    ResourceCase("huge_integer_literal", huge_integer_literal, "roundtrip", (5_000, 50_000, 500_000), quick=(5_000, 20_000)),
    ResourceCase("huge_dims_roundtrip", huge_dims_roundtrip, "lower", (1, 4, 16), quick=(1, 4)),
    ResourceCase("conv_huge_spatial", conv_huge_spatial, "lower-decomposed", (1,), quick=(1,)),
    ResourceCase("conv_huge_spatial_direct", conv_huge_spatial, "lower", (1,), quick=(1,)),
    ResourceCase("conv_huge_batch", conv_huge_batch, "lower", (1,), quick=(1,)),
    ResourceCase("conv_huge_kernel", conv_huge_kernel, "lower", (1,), quick=(1,)),
    ResourceCase("conv_long_kernel", conv_long_kernel, "lower", (250, 1000, 4000), limit=60.0, quick=(50, 200)),
    ResourceCase("conv_long_input", conv_long_input, "lower-decomposed", (100_000, 400_000, 1_600_000), quick=(10_000, 40_000)),
]
BY_NAME = {c.name: c for c in CASES}


# --- one measurement (in the subprocess) --------------------------------------------------------------

def measure_here(case: ResourceCase, n: int) -> dict:
    """Run case at size n in this process: status, time (wall), cpu (this
    process's CPU seconds: what the growth checks compare, as other work on
    a shared machine does not count in it), peak RSS."""
    import resource

    os.environ.setdefault("CONVOPT_DEBUG", "1")
    import convopt
    from convopt.driver import Options, run_text
    from convopt.parser import _parser

    _parser()  # the grammar (cached by Lark) is not part of the measurement
    text = case.build(n)
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out_bytes = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    try:
        if case.mode == "roundtrip":
            out = run_text(text, Options(allow_unregistered_dialect=True), "r.mlir")  # "t.op": generic ops of no dialect
        elif case.mode == "lower":
            out = convopt.lower(text, name="r.mlir")
        else:
            out = convopt.lower(text, backend_legal_ops=[], name="r.mlir")
        status, first, out_bytes = "ok", f"{len(out)} bytes out", len(out)
    except convopt.ConvoptError as e:
        first = e.diagnostics[0][:300]
        m = LOCATED.match(first)
        status = "diagnosed" if m and int(m.group("line")) >= 1 and "internal error" not in first else "unlocated"
    except MemoryError:
        status, first = "memory", "MemoryError"
    except RecursionError as e:
        status, first = "traceback", f"RecursionError: {e}"[:300]
    except Exception as e:  # noqa: BLE001
        status, first = "traceback", f"{type(e).__name__}: {e}"[:300]
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"case": case.name, "n": n, "input_bytes": len(text), "output_bytes": out_bytes, "status": status, "time": elapsed, "cpu": cpu,
            "rss_mb": rss / 1024, "rss_growth_mb": (rss - rss0) / 1024, "first": first}


def measure_batch(runs: list[tuple[str, int]], timeout: float) -> list[dict]:
    """Several measurements in one subprocess (time and status are exact;
    the RSS growth of each is over the peak of the ones before): what the
    quick slice in `make test` uses.  A run over `timeout` is a hang; the
    rest are run in a new subprocess."""
    results: list[dict] = []
    todo = list(runs)
    while todo:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--run-batch", json.dumps(todo)]
        env = dict(os.environ, CONVOPT_DEBUG="1")
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)
        got = 0
        deadline = time.monotonic() + timeout
        import selectors

        sel = selectors.DefaultSelector()
        sel.register(proc.stdout, selectors.EVENT_READ)  # type: ignore[arg-type]
        while got < len(todo):
            if not sel.select(timeout=max(0.0, deadline - time.monotonic())):
                proc.kill()
                name, n = todo[got]
                results.append({"case": name, "n": n, "status": "hang", "time": timeout, "rss_mb": 0.0, "rss_growth_mb": 0.0, "first": f"over {timeout:.0f} s"})
                got += 1
                break
            line = proc.stdout.readline()  # type: ignore[union-attr]
            if not line:
                name, n = todo[got]
                err = proc.stderr.read() if proc.stderr else ""  # type: ignore[union-attr]
                results.append({"case": name, "n": n, "status": "traceback", "time": 0.0, "rss_mb": 0.0, "rss_growth_mb": 0.0,
                                "first": (err.strip().splitlines() or ["(no output)"])[-1][:300]})
                got += 1
                break
            if line.startswith("{"):
                results.append(json.loads(line))
                got += 1
                deadline = time.monotonic() + timeout
        proc.kill()
        proc.wait()
        todo = todo[got:]
    return results


def measure(case: ResourceCase, n: int, timeout: float) -> dict:
    """measure_here in a fresh subprocess, killed after timeout seconds (a hang)."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--run", case.name, str(n)]
    env = dict(os.environ, CONVOPT_DEBUG="1")
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=REPO)
    except subprocess.TimeoutExpired:
        return {"case": case.name, "n": n, "status": "hang", "time": timeout, "rss_mb": 0.0, "rss_growth_mb": 0.0, "first": f"over {timeout:.0f} s"}
    lines = [x for x in proc.stdout.splitlines() if x.startswith("{")]
    if proc.returncode != 0 or not lines:
        return {"case": case.name, "n": n, "status": "traceback", "time": 0.0, "rss_mb": 0.0, "rss_growth_mb": 0.0,
                "first": (proc.stderr.strip().splitlines() or ["(no output)"])[-1][:300]}
    return json.loads(lines[-1])


# --- judging -----------------------------------------------------------------------------------------

NOISE = 0.25  # seconds: below this a time is noise on a loaded machine
GROWTH = 2.5  # allowed factor over linear between consecutive sizes
MEMORY_PER_BYTE = 200  # peak RSS growth allowed per byte of input or output, whichever is larger (beyond 64 MB)


def judge(case: ResourceCase, results: list[dict]) -> list[str]:
    """Problems with the measurements of one case (empty: fine)."""
    problems = []
    for r in results:
        if r["status"] not in ("ok", "diagnosed"):
            problems.append(f"n={r['n']}: {r['status']}: {r['first']}")
    if results and results[-1]["status"] in ("ok", "diagnosed") and results[-1]["time"] > case.limit:
        problems.append(f"n={results[-1]['n']}: {results[-1]['time']:.1f} s > {case.limit} s")
    for r in results:
        size = max(r.get("input_bytes", 0), r.get("output_bytes", 0)) / 2**20
        if r["status"] in ("ok", "diagnosed") and r["rss_growth_mb"] > 64 + MEMORY_PER_BYTE * size:
            problems.append(f"n={r['n']}: memory +{r['rss_growth_mb']:.0f} MB for {size:.1f} MB of input/output")
    pairs = list(zip(results, results[1:]))
    if len(results) > 2:
        pairs.append((results[0], results[-1]))  # over the whole range: a quadratic hides in noise between neighbours
    for a, b in pairs:
        if a["status"] != "ok" or b["status"] != "ok":
            continue  # a located error is fine however fast it comes (the time limit still applies)
        ratio = b["n"] / a["n"]
        ta, tb = a["cpu"], b["cpu"]
        if tb > NOISE and tb > GROWTH * ratio * max(ta, NOISE / (GROWTH * ratio)):
            problems.append(f"time grows faster than linear: n {a['n']} -> {b['n']}: {ta:.2f} -> {tb:.2f} CPU s")
        ga, gb = a["rss_growth_mb"], b["rss_growth_mb"]
        if gb > 64 and gb > GROWTH * ratio * max(ga, 64 / (GROWTH * ratio)):
            problems.append(f"memory grows faster than linear: n {a['n']} -> {b['n']}: +{ga:.0f} MB -> +{gb:.0f} MB")
    return problems


def run_all(quick: bool = False, names: Optional[list[str]] = None, log=print) -> tuple[list[dict], dict[str, list[str]]]:
    table: list[dict] = []
    problems: dict[str, list[str]] = {}
    for case in CASES:
        if names and case.name not in names:
            continue
        results = []
        for n in (case.quick or case.sizes) if quick else case.sizes:
            r = measure(case, n, timeout=max(60.0, 3 * case.limit))
            results.append(r)
            table.append(r)
            if log:
                log(f"  {case.name:26} n={r['n']:<10} {r['status']:9} {r['time']:7.2f} s  rss {r['rss_mb']:7.0f} MB (+{r['rss_growth_mb']:.0f})  {r['first'][:90]}")
            if r["status"] == "hang":
                break
        found = judge(case, results)
        if found:
            problems[case.name] = found
    return table, problems


def dense_benchmark(n: int = 1_000_000) -> dict:
    """The 1,000,000-element dense literal (issue 12: under 2 s), parsed and printed back."""
    return measure(BY_NAME["dense_literal"], n, timeout=300)


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--run", nargs=2, metavar=("CASE", "N"), help=argparse.SUPPRESS)
    ap.add_argument("--run-batch", metavar="JSON", help=argparse.SUPPRESS)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--case", action="append", help="only these cases")
    ap.add_argument("--dense", type=int, metavar="N", help="only the dense-literal benchmark with N elements")
    args = ap.parse_args(argv)
    if args.run:
        print(json.dumps(measure_here(BY_NAME[args.run[0]], int(args.run[1]))), flush=True)
        return 0
    if args.run_batch:
        for name, n in json.loads(args.run_batch):
            print(json.dumps(measure_here(BY_NAME[name], int(n))), flush=True)
        return 0
    if args.dense:
        r = dense_benchmark(args.dense)
        verdict = "meets" if r["status"] == "ok" and r["time"] < DENSE_TARGET else "MISSES"
        print(f"dense literal of {args.dense} elements: {r['status']} in {r['time']:.2f} s, rss {r['rss_mb']:.0f} MB ({verdict} the {DENSE_TARGET} s target)")
        return 0
    table, problems = run_all(args.quick, args.case)
    dense = [r for r in table if r["case"] == "dense_literal"]
    if dense:
        r = dense[-1]
        verdict = "meets" if r["status"] == "ok" and r["time"] < DENSE_TARGET * r["n"] / 1_000_000 else "MISSES"
        print(f"dense literal benchmark: {r['n']} elements in {r['time']:.2f} s ({verdict} the {DENSE_TARGET} s per 1,000,000 target)")
    failing = 0
    for name, found in problems.items():
        bug = BY_NAME[name].known_bug
        tag = f"known bug (test/fuzz/crashes/{bug})" if bug else "PROBLEM"
        failing += bug is None
        for p in found:
            print(f"  {tag}: {name}: {p}")
    print(f"resources: {len({r['case'] for r in table})} cases, {len(table)} runs, {failing} with problems, "
          f"{sum(1 for n in problems if BY_NAME[n].known_bug)} known bugs")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
