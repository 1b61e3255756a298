"""In-process syntactic fuzzer for convopt.

    python test/fuzz/fuzz.py --count 10000 --seed 1        # a campaign; prints the counts
    python test/fuzz/fuzz.py --replay test/fuzz/crashes/traceback-s1-i42.mlir

Each input is a mutation (test/fuzz/mutators.py) of a seed file: every file
of test/inputs/ and test/models/*.mlir (read when the campaign starts, so a
model that is being regenerated is taken as it is now) and the lit
round-trip files.  Input `i` of seed `N` depends only on (N, i) and those
files.  It runs through the Python API in one of several modes
(`convopt.lower` direct/decomposed/rocmlir/forms/boundary/pool,
`convopt.decompose`, the round trip, `--split-input-file`, bytes input, and
the driver's `-o` path) and must end in

    ok         a string; it parses back to itself (`convopt` prints what it
               parses), no `torch.aten.convolution_backward` is left by a
               lowering or decomposition (nor an avg_pool backward by
               `lower-pool`, `pool_bwd=True`), and torch-mlir (in-process, when
               the `torch_mlir` package is installed) parses and verifies
               it -- or rejects the input as well: then the input is counted
               as `accepts_invalid` (convopt passes unknown torch ops
               through and verifies less than torch-mlir; not a failure);
    diagnosed  a `ConvoptError` whose first line is located
               (`NAME:LINE:COL: error:` inside the input, or `convopt: error:`).

Anything else is a failure, saved under test/fuzz/crashes/ with its seed,
index, mode and traceback:

    traceback  another exception (CONVOPT_DEBUG=1 makes the driver raise what
               it would report as an "internal error"), or an internal-error line;
    unlocated  an error without a usable position;
    bad_output the output does not parse back to itself, a conv backward is
               left, torch-mlir accepts the input but not the output, or the
               `-o` file is partial, missing or touched on error;
    memory     MemoryError (the worker runs under a 4 GiB address-space limit);
    hang       over the time bound: 10x the unmutated file's time in that
               mode, at least 2 s (SIGALRM in the worker; a watchdog in the
               parent kills a worker stuck in C code and restarts it after
               the input).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import math
import os
import random
import re
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CRASHES = HERE / "crashes"
sys.path.insert(0, str(HERE))
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import mutators  # noqa: E402

MIN_BOUND = 2.0
HANG_CAP = 60.0  # the alarm while a file's bound is not known yet
WATCHDOG_GRACE = 10.0  # the parent kills a worker this long after the alarm should have fired
ORACLE_NOTIFY: Any = None  # in a worker: tells the parent that torch-mlir runs now (a crash then is torch-mlir's)
INJECT: dict[int, Any] = {}  # tests: input index -> a fault to raise/hang in the worker instead of running it
FORCE_MODE: Optional[str] = None  # tests: every input in this mode (the text as drawn for the seed and index)
BOUND_FACTOR = 10.0
MEMORY_LIMIT = 4 << 30
FAILURES = ("traceback", "unlocated", "bad_output", "memory", "hang", "fuzzer_error")
STATUSES = ("ok", "diagnosed", "accepts_invalid") + FAILURES

# (weight, description); the runner for each is in run_mode()
MODES = {
    "lower": 30,
    "lower-decomposed": 14,
    "roundtrip": 18,
    "decompose": 10,
    "lower-rocmlir": 5,
    "lower-form": 6,
    "lower-boundary": 4,
    "lower-pool": 6,
    "split": 5,
    "bytes": 4,
    "output-file": 4,
}
LOCATED = re.compile(r"^(?P<name>.+?):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$")
CONVOPT_LINE = re.compile(r"^convopt: error: \S")
CONV_BWD_LEFT = re.compile(r"torch\.aten\.convolution_backward(?![\w.])")
AVG_POOL_BWD_LEFT = re.compile(r"torch\.aten\.avg_pool[23]d_backward(?![\w.])")
NESTED_MODULE = re.compile(r"^\s+(?:module\b|\"builtin\.module\")", re.MULTILINE)
TORCH_MLIR_ORACLE = True  # also parse every output with torch-mlir


# Bugs outside the files the fuzzer's author may fix (the parser), each with a
# minimal reproducer in test/fuzz/crashes/: failures whose detail matches
# are counted per bug and do not fail `make test`'s slice; anything else does.
KNOWN_BUGS: dict[str, re.Pattern] = {}  # reproducer under test/fuzz/crashes/ -> the failure's detail


def known_bug(detail: str) -> Optional[str]:
    for name, pattern in KNOWN_BUGS.items():
        if pattern.search(detail or ""):
            return name
    return None


class Hang(BaseException):
    """Raised by SIGALRM: BaseException, so `except Exception` in convopt does not swallow it."""


@dataclass
class Seed:
    name: str  # path relative to the repo
    text: str

    @property
    def weight(self) -> float:
        # deterministic (from the size, not a measured time): a 300 kB model
        # gets ~1/8 of the inputs of a 2 kB file, each costing ~100x more
        return 1.0 / math.sqrt(len(self.text) / 1024 + 4)


@dataclass
class Case:
    seed: int
    index: int
    seed_file: str
    mode: str
    text: str
    mutations: list[str]
    option: Optional[str] = None  # conv form for lower-form
    data: Optional[bytes] = None  # bytes mode

    @property
    def name(self) -> str:
        return f"fuzz-{self.seed}-{self.index}.mlir"


@dataclass
class Result:
    status: str
    elapsed: float
    detail: str = ""


def load_seeds() -> list[Seed]:
    paths = sorted((REPO / "test" / "inputs").glob("*.mlir")) + sorted((REPO / "test" / "models").glob("*.mlir"))
    paths += sorted((REPO / "test" / "lit" / "roundtrip").glob("*.mlir"))
    seeds = []
    for p in paths:
        try:
            seeds.append(Seed(str(p.relative_to(REPO)), p.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError):  # a model file being rewritten right now
            continue
    return seeds


def make_case(seeds: list[Seed], seed: int, index: int) -> Case:
    rng = random.Random(f"convopt-fuzz:{seed}:{index}")
    src = rng.choices(seeds, weights=[s.weight for s in seeds])[0]
    mode = rng.choices(list(MODES), weights=list(MODES.values()))[0]
    text, applied = mutators.mutate(rng, src.text)
    case = Case(seed, index, src.name, FORCE_MODE or mode, text, applied)
    if case.mode == "lower-form":
        from convopt.lowering.forms import registry as forms

        case.option = rng.choice(list(forms.BUILTIN))
    if case.mode == "bytes":
        data = bytearray(text.encode("utf-8"))
        for _ in range(rng.randint(0, 3)):
            i = rng.randint(0, len(data))
            data[i:i] = bytes([rng.choice([0x80, 0xFF, 0xC3, 0xE2, 0xF0, 0xFE, 0x00, 0xED])]) * rng.randint(1, 2)
        case.data = bytes(data)
    return case


# --- running one input ---------------------------------------------------------------------------

def _lower_pipeline(**kw: Any) -> str:
    from convopt.pass_options import DecomposeOptions
    from convopt.pipelines import PipelineOptions, default_pipeline

    return default_pipeline(PipelineOptions(lower_conv_bwd=True, decompose=DecomposeOptions(legal_ops=kw.get("legal"), target=kw.get("target"))))


def run_mode(case: Case) -> Optional[str]:
    """Run the case; its output text (None when the mode has none to check).
    Raises ConvoptError (or anything else: a bug)."""
    import convopt
    from convopt.driver import Options, run_text

    m, text, name = case.mode, case.text, case.name
    if m == "lower":
        return convopt.lower(text, name=name)
    if m == "lower-decomposed":
        return convopt.lower(text, backend_legal_ops=[], name=name)
    if m == "lower-rocmlir":
        return convopt.lower(text, target="rocmlir", name=name)
    if m == "lower-form":
        return convopt.lower(text, conv_form=case.option or "auto", name=name)
    if m == "lower-boundary":
        return convopt.lower(text, torch_boundary=True, name=name)
    if m == "lower-pool":
        return convopt.lower(text, pool_bwd=True, name=name)
    if m == "decompose":
        return convopt.decompose(text, name=name)
    if m == "roundtrip":
        return run_text(text, Options(), name)
    if m == "split":
        return run_text(text, Options(split_input_file=True), name)
    if m == "bytes":
        return convopt.lower(case.data if case.data is not None else text.encode(), name=name)
    if m == "output-file":
        return _run_output_file(case)
    raise ValueError(f"unknown mode {m}")


class OutputFileViolation(Exception):
    pass


class AcceptsInvalid(Exception):
    """convopt accepted (and printed) input that torch-mlir rejects: a
    verifier gap, counted apart (`accepts_invalid`), not a failure: convopt
    passes unknown torch ops through and verifies less than torch-mlir."""


def _run_output_file(case: Case) -> Optional[str]:
    """The driver with `-o`: on success the file holds the output, on error
    the previous content is intact; no temp file is left either way."""
    from convopt.diagnostics import ConvoptError
    from convopt.driver import Options, run

    with tempfile.TemporaryDirectory(prefix="convopt-fuzz-") as d:
        src = os.path.join(d, case.name)
        out = os.path.join(d, "out.mlir")
        with open(src, "w", encoding="utf-8") as f:
            f.write(case.text)
        with open(out, "w") as f:
            f.write("previous content\n")
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = run(Options(input_path=src, output_path=out, pipeline=_lower_pipeline()))
        files = sorted(os.listdir(d))
        if files != sorted([case.name, "out.mlir"]):
            raise OutputFileViolation(f"files left in the output directory: {files}")
        with open(out, encoding="utf-8") as f:
            content = f.read()
        if rc == 1:
            if content != "previous content\n":
                raise OutputFileViolation("the -o file changed although the run failed")
            lines = err.getvalue().split("\n")
            raise ConvoptError(lines=lines if lines and lines[0] else ["(no stderr)"])
        if rc != 0:
            raise OutputFileViolation(f"exit code {rc}")
        return content


def _located(case: Case, lines: list[str]) -> Optional[str]:
    """None when the diagnostic lines are acceptable, else why not."""
    if not lines:
        return "no diagnostic lines"
    joined = "\n".join(lines)
    if "internal error" in joined or "Traceback" in joined:
        return "internal error: " + joined[:2000]
    first = lines[0]
    if CONVOPT_LINE.match(first):
        return None
    m = LOCATED.match(first)
    if not m:
        return "first line is not a located error: " + first[:300]
    text = case.text if case.data is None else case.data.decode("utf-8", errors="replace")
    line, col = int(m.group("line")), int(m.group("col"))
    nlines = text.count("\n") + 1
    if not (1 <= line <= nlines + 1) or col < 1:
        return f"position {line}:{col} outside the input ({nlines} lines): {first[:300]}"
    if not m.group("name").endswith(case.name) and m.group("name") not in ("<stdin>",):
        return "diagnostic names another file: " + first[:300]
    return None


class TorchMlir:
    """torch-mlir's parser and verifier, in-process (the `torch_mlir`
    package), with every dialect convopt prints loaded and unregistered
    dialects allowed: the differential oracle for SPEC section 3 ("the text
    is accepted by torch-mlir-opt")."""

    _instance: Any = None

    def __init__(self) -> None:
        from torch_mlir import ir, passmanager
        from torch_mlir.dialects import torch as torch_dialect

        from convopt.torch_mlir_stages import LINALG_STAGE

        self.ir = ir
        self.context = ir.Context()
        torch_dialect.register_dialect(self.context)
        with self.context:  # loads torch_c and the upstream dialects the linalg stage produces
            passmanager.PassManager.parse(LINALG_STAGE).run(ir.Module.parse("module {\n}\n").operation)
        self.context.allow_unregistered_dialects = True

    @classmethod
    def get(cls) -> TorchMlir:
        """The one instance (torch-mlir is a test dependency: without it the fuzzer stops)."""
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    def rejects(self, text: str) -> Optional[str]:
        """torch-mlir's error for text (None: it parses and verifies)."""
        if ORACLE_NOTIFY is not None:  # torch-mlir may crash the process on what convopt let through
            ORACLE_NOTIFY()
        try:
            with self.context:
                module = self.ir.Module.parse(text)
                if not module.operation.verify():
                    return "does not verify"
        except Exception as e:  # noqa: BLE001
            return str(e).replace("Unable to parse module assembly:", "").strip()[:1500]
        return None


def check_output(case: Case, out: str) -> Optional[str]:
    """None when the output is acceptable: a lowering or decomposition
    leaves no convolution_backward, it parses back to the same text, and
    torch-mlir parses and verifies it (unless torch-mlir rejects the input
    too: AcceptsInvalid)."""
    from convopt.diagnostics import ConvoptError
    from convopt.driver import Options, run_text

    if case.mode not in ("roundtrip", "split") and CONV_BWD_LEFT.search(out) and not NESTED_MODULE.search(out):
        # (the pipeline is anchored on the top module's functions, as in mlir-opt: a nested module is not visited)
        return "a torch.aten.convolution_backward is left in the output"
    if case.mode == "lower-pool" and AVG_POOL_BWD_LEFT.search(out) and not NESTED_MODULE.search(out):
        return "a torch.aten.avg_pool*_backward is left in the output"
    if case.mode == "split" or len(out) > 400_000:
        return None  # split output joins chunks with `// -----` lines (checked per chunk by the others); very large outputs: time
    try:
        again = run_text(out, Options(), "again.mlir")
    except ConvoptError as e:
        return "the output does not parse back:\n" + "\n".join(e.diagnostics)[:3000]
    if again != out:
        return "the output does not print back to itself (first difference at offset %d)" % _first_diff(out, again)
    tm = TorchMlir.get() if TORCH_MLIR_ORACLE else None
    if tm is not None:
        why = tm.rejects(out)
        if why is not None:
            if tm.rejects(case.text if case.data is None else case.data.decode("utf-8", errors="replace")) is None:
                return "torch-mlir accepts the input but rejects convopt's output: " + why
            raise AcceptsInvalid(why)
    return None


def _first_diff(a: str, b: str) -> int:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def _alarm(signum, frame):  # pragma: no cover - only on a hang
    raise Hang()


def run_case(case: Case, bound: float) -> Result:
    """Run one case under a SIGALRM bound (when called on the main thread)."""
    from convopt.diagnostics import ConvoptError

    use_alarm = hasattr(signal, "setitimer") and _on_main_thread()
    if use_alarm:
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, bound)
    start = time.perf_counter()
    try:
        try:
            out = INJECT[case.index](case) if case.index in INJECT else run_mode(case)
        except ConvoptError as e:
            why = _located(case, e.diagnostics)
            status = "diagnosed" if why is None else ("traceback" if why.startswith("internal error") else "unlocated")
            return Result(status, time.perf_counter() - start, why or "")
        except OutputFileViolation as e:
            return Result("bad_output", time.perf_counter() - start, str(e))
        except MemoryError:
            return Result("memory", time.perf_counter() - start, traceback.format_exc(limit=30))
        except Hang:
            raise
        except RecursionError:
            return Result("traceback", time.perf_counter() - start, "RecursionError escaped:\n" + traceback.format_exc(limit=12))
        except Exception:
            return Result("traceback", time.perf_counter() - start, traceback.format_exc(limit=30))
        if out is None:
            return Result("ok", time.perf_counter() - start)
        if not isinstance(out, str):
            return Result("bad_output", time.perf_counter() - start, f"returned {type(out).__name__}, not str")
        elapsed = time.perf_counter() - start
        try:
            why = check_output(case, out)
        except AcceptsInvalid as e:
            return Result("accepts_invalid", elapsed, str(e))
        except Exception:
            why = "checking the output raised:\n" + traceback.format_exc(limit=20)
        return Result("ok" if why is None else "bad_output", elapsed, why or "")
    except Hang:
        return Result("hang", time.perf_counter() - start, f"over the {bound:.1f} s bound")
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)


def _on_main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


class Bounds:
    """Per-(seed file, mode) time bound: BOUND_FACTOR x the unmutated file's
    time in that mode, at least MIN_BOUND.  The unmutated time is measured
    only when an input of that file takes longer than MIN_BOUND (most never
    do); until then an input runs under the HANG_CAP alarm."""

    GROUP = {"lower-rocmlir": "lower", "lower-form": "lower", "lower-boundary": "lower", "bytes": "lower", "output-file": "lower", "split": "roundtrip"}

    def __init__(self, seeds: list[Seed]):
        self.seeds = {s.name: s for s in seeds}
        self.base: dict[tuple[str, str], float] = {}

    def _key(self, case: Case) -> tuple[str, str]:
        return (case.seed_file, self.GROUP.get(case.mode, case.mode))

    def known(self, case: Case) -> Optional[float]:
        base = self.base.get(self._key(case))
        return None if base is None else max(MIN_BOUND, BOUND_FACTOR * base)

    def get(self, case: Case) -> float:
        key = self._key(case)
        if key not in self.base:
            src = self.seeds[case.seed_file]
            plain = Case(case.seed, -1, case.seed_file, key[1], src.text, [], case.option)
            start = time.perf_counter()
            run_case(plain, HANG_CAP)
            self.base[key] = time.perf_counter() - start
        return max(MIN_BOUND, BOUND_FACTOR * self.base[key])


def run_bounded(case: Case, bounds: Bounds) -> tuple[Result, float]:
    """Run case under its bound; (result, bound)."""
    bound = bounds.known(case)
    result = run_case(case, bound or HANG_CAP)
    if result.elapsed > MIN_BOUND or result.status == "hang":
        bound = bounds.get(case)
        if result.elapsed > bound and result.status != "hang":
            result = Result("hang", result.elapsed, f"took {result.elapsed:.2f} s, over the {bound:.2f} s bound (10x the unmutated file)")
    return result, bound or MIN_BOUND


# --- the campaign: workers and watchdog -------------------------------------------------------------

@dataclass
class Summary:
    seed: int
    count: int = 0
    counts: Counter = field(default_factory=Counter)
    by_mode: dict = field(default_factory=dict)
    max_time: float = 0.0
    max_time_case: str = ""
    max_ratio: float = 0.0  # elapsed / bound
    elapsed: float = 0.0
    failures: list = field(default_factory=list)  # (status, index, mode, seed_file, first line of detail)
    saved: list = field(default_factory=list)
    invalid_kinds: Counter = field(default_factory=Counter)  # torch-mlir's errors on input convopt accepted
    known: Counter = field(default_factory=Counter)  # failures per known bug (KNOWN_BUGS)
    unexpected: list = field(default_factory=list)  # failures that are not a known bug

    def add(self, case: Case, result: Result, bound: float) -> None:
        self.count += 1
        self.counts[result.status] += 1
        self.by_mode.setdefault(case.mode, Counter())[result.status] += 1
        if result.elapsed > self.max_time:
            self.max_time, self.max_time_case = result.elapsed, f"{case.seed_file} {case.mode} #{case.index}"
        self.max_ratio = max(self.max_ratio, result.elapsed / bound if bound else 0.0)

    @property
    def failed(self) -> int:
        return sum(self.counts[s] for s in FAILURES)

    def report(self) -> str:
        c = self.counts
        rate = self.count / self.elapsed if self.elapsed else 0.0
        lines = [
            f"seed {self.seed}: {self.count} inputs in {self.elapsed:.1f} s ({rate:.1f} inputs/s)",
            f"  ok {c['ok']}  diagnosed {c['diagnosed']}  tracebacks {c['traceback']}  hangs {c['hang']}  "
            f"unlocated {c['unlocated']}  bad output {c['bad_output']}  memory {c['memory']}  fuzzer errors {c['fuzzer_error']}  "
            f"(accepted input torch-mlir rejects: {c['accepts_invalid']})",
            f"  slowest input {self.max_time:.2f} s ({self.max_time_case}); max time/bound {self.max_ratio:.2f}",
        ]
        for mode in sorted(self.by_mode):
            mc = self.by_mode[mode]
            lines.append(f"    {mode:17} " + "  ".join(f"{s} {mc[s]}" for s in STATUSES if mc[s]))
        if self.invalid_kinds:
            lines.append("  accepted input that torch-mlir rejects (verifier gaps; not failures), by torch-mlir's error:")
            for k, n in self.invalid_kinds.most_common(12):
                lines.append(f"    {n:5}  {k}")
        for bug, n in sorted(self.known.items()):
            lines.append(f"  known bug {bug} (test/fuzz/crashes/): {n} of the failures")
        for f in self.unexpected[:30]:
            lines.append(f"  FAIL {f[0]} #{f[1]} {f[2]} {f[3]}: {f[4]}")
        if len(self.unexpected) > 30:
            lines.append(f"  ... {len(self.unexpected) - 30} more failures")
        for p in self.saved:
            lines.append(f"  saved {p}")
        return "\n".join(lines)


def _worker(conn, seeds: list[Seed], seed: int, indices: list[int]) -> None:
    os.environ["CONVOPT_DEBUG"] = "1"  # an internal error raises (with its traceback) instead of becoming a diagnostic
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard == resource.RLIM_INFINITY or hard > MEMORY_LIMIT:
            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, hard))
    except (ImportError, ValueError, OSError):  # pragma: no cover
        pass
    bounds = Bounds(seeds)
    global ORACLE_NOTIFY
    current = [None]
    ORACLE_NOTIFY = lambda: conn.send(("oracle", current[0]))  # noqa: E731
    for i in indices:
        current[0] = i
        try:
            case = make_case(seeds, seed, i)
        except Exception:  # a bug in the fuzzer itself: reported, and the campaign goes on
            conn.send(("done", i, MIN_BOUND, "fuzzer_error", 0.0, traceback.format_exc(limit=10), "", None))
            continue
        conn.send(("start", i, bounds.known(case) or HANG_CAP))
        result, bound = run_bounded(case, bounds)
        if result.status in FAILURES:
            conn.send(("done", i, bound, result.status, result.elapsed, result.detail, case.text, case.data))
        elif result.status == "accepts_invalid":
            conn.send(("done", i, bound, result.status, result.elapsed, result.detail[:300], None, None))
        else:
            conn.send(("done", i, bound, result.status, result.elapsed, None, None, None))
    conn.send(("exit",))
    conn.close()


@dataclass
class _Job:
    """A forked worker running one job's inputs, as the parent sees it."""

    job: int
    proc: Any
    current: Optional[int] = None  # the input it runs now
    deadline: float = 0.0  # when the watchdog kills it
    bound: float = 600.0
    oracle: Optional[int] = None  # the input whose output torch-mlir parses now


class Campaign:
    """The parent side of run_campaign: the forked workers (one per job,
    restarted after a crash), the watchdog, and the Summary they fill."""

    def __init__(self, seeds: list[Seed], seed: int, indices: range, jobs: int, save: bool, max_saved_per_signature: int) -> None:
        import multiprocessing as mp

        self.seeds, self.seed, self.save, self.max_saved = seeds, seed, save, max_saved_per_signature
        self.ctx = mp.get_context("fork")
        self.summary = Summary(seed)
        self.pending = {j: [i for i in indices if (i - indices.start) % jobs == j] for j in range(jobs)}
        self.workers: dict[Any, _Job] = {}
        self.signatures: Counter = Counter()
        self.done = 0
        self.handlers = {"oracle": self._on_oracle, "start": self._on_start, "done": self._on_done, "exit": self._on_exit, "died": self._on_exit}

    def spawn(self, j: int) -> None:
        if not self.pending[j]:
            return
        parent, child = self.ctx.Pipe(duplex=False)
        proc = self.ctx.Process(target=_worker, args=(child, self.seeds, self.seed, list(self.pending[j])), daemon=True)
        proc.start()
        child.close()
        self.workers[parent] = _Job(j, proc, deadline=time.monotonic() + 600)

    def record(self, case: Case, status: str, elapsed: float, bound: float, detail: str) -> None:
        summary = self.summary
        summary.add(case, Result(status, elapsed, detail), bound)
        if status == "accepts_invalid":
            summary.invalid_kinds[_normalize(detail)] += 1
        if status not in FAILURES:
            return
        first = (detail or "").strip().split("\n")[-1][:200] if status == "traceback" else (detail or "").split("\n")[0][:200]
        summary.failures.append((status, case.index, case.mode, case.seed_file, first))
        bug = known_bug(detail)
        if bug is not None:
            summary.known[bug] += 1
        else:
            summary.unexpected.append((status, case.index, case.mode, case.seed_file, first))
        sig = status + ":" + _signature(detail)
        self.signatures[sig] += 1
        if self.save and self.signatures[sig] <= self.max_saved and bug is None:
            summary.saved.append(save_crash(case, status, detail))

    def receive(self, conn, now: float) -> None:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            msg = ("died",)
        self.handlers[msg[0]](conn, self.workers[conn], msg, now)

    def _on_oracle(self, conn, w: _Job, msg: tuple, now: float) -> None:
        w.oracle = msg[1]

    def _on_start(self, conn, w: _Job, msg: tuple, now: float) -> None:
        w.current, w.bound, w.oracle = msg[1], msg[2], None
        w.deadline = now + msg[2] + WATCHDOG_GRACE  # SIGALRM fires at the bound; the watchdog only for a stuck C call

    def _on_done(self, conn, w: _Job, msg: tuple, now: float) -> None:
        _, i, bound, status, elapsed, detail, text, data = msg
        case = make_case(self.seeds, self.seed, i) if status != "fuzzer_error" else Case(self.seed, i, "?", "?", "", [])
        if text is not None:
            case.text, case.data = text, data
        self.record(case, status, elapsed, bound, detail or "")
        self.pending[w.job].remove(i)
        w.current = None
        self.done += 1

    def _on_exit(self, conn, w: _Job, msg: tuple, now: float) -> None:
        w.proc.join(timeout=5)
        del self.workers[conn]
        j = w.job
        if msg[0] == "died" and w.current is not None:  # crashed hard (segfault, OOM kill) on this input
            i = w.current
            if w.oracle == i:  # inside torch-mlir, parsing what convopt accepted and printed
                self.record(make_case(self.seeds, self.seed, i), "accepts_invalid", 0.0, w.bound,
                            f"torch-mlir crashed (exit code {w.proc.exitcode}) on convopt's output")
            else:
                self.record(make_case(self.seeds, self.seed, i), "traceback", 0.0, w.bound, f"worker died (exit code {w.proc.exitcode})")
            self.pending[j].remove(i)
        elif msg[0] == "died" and self.pending[j]:  # died between inputs: blame the next one, so that the campaign moves on
            i = self.pending[j].pop(0)
            self.record(Case(self.seed, i, "?", "?", "", []), "fuzzer_error", 0.0, MIN_BOUND,
                        f"worker died before input {i} (exit code {w.proc.exitcode})")
        if self.pending[j]:
            self.spawn(j)

    def watchdog(self, now: float) -> None:
        """Kill (and restart after its input) a worker stuck where SIGALRM cannot interrupt."""
        for conn, w in list(self.workers.items()):
            if w.current is not None and now > w.deadline:
                w.proc.kill()
                w.proc.join(timeout=5)
                del self.workers[conn]
                i = w.current
                self.record(make_case(self.seeds, self.seed, i), "hang", now - w.deadline + w.bound + WATCHDOG_GRACE, w.bound, "killed by the watchdog")
                self.pending[w.job].remove(i)
                self.spawn(w.job)

    def run(self, count: int, log=None) -> Summary:
        from multiprocessing.connection import wait

        t0 = time.perf_counter()
        for j in self.pending:
            self.spawn(j)
        last_progress = time.monotonic()
        while self.workers:
            ready = wait(list(self.workers), timeout=1.0)
            now = time.monotonic()
            for conn in ready:
                self.receive(conn, now)
            self.watchdog(now)
            if log is not None and now - last_progress > 30:
                last_progress = now
                log(f"  ... {self.done}/{count} inputs, {self.summary.failed} failures, {time.perf_counter() - t0:.0f} s")
        self.summary.elapsed = time.perf_counter() - t0
        return self.summary


def run_campaign(seed: int, count: int, start: int = 0, jobs: int = 1, save: bool = True, log=None, seeds: Optional[list[Seed]] = None,
                 max_saved_per_signature: int = 2) -> Summary:
    """Run inputs start..start+count-1 of `seed` in `jobs` forked workers."""
    seeds = seeds if seeds is not None else load_seeds()
    return Campaign(seeds, seed, range(start, start + count), jobs, save, max_saved_per_signature).run(count, log)


def _normalize(message: str) -> str:
    m = re.sub(r'^error: "-":\d+:\d+: ', "", message.strip().split("\n")[0])
    m = re.sub(r"'[^']*'", "'X'", m)
    return re.sub(r"\d+", "N", m)[:110]


def _signature(detail: str) -> str:
    """What identifies one bug: the exception line and the innermost convopt frame."""
    lines = [x for x in (detail or "").strip().split("\n") if x.strip()]
    if not lines:
        return ""
    frames = [x.strip() for x in lines if x.strip().startswith('File "') and "/convopt/" in x]
    last = lines[-1]
    last = re.sub(r"\d+", "N", last)[:120]
    return (frames[-1] if frames else "") + " | " + last


def save_crash(case: Case, status: str, detail: str) -> str:
    CRASHES.mkdir(exist_ok=True)
    stem = f"{status}-s{case.seed}-i{case.index}"
    path = CRASHES / f"{stem}.mlir"
    if case.data is not None:
        path.write_bytes(case.data)
    else:
        path.write_text(case.text, encoding="utf-8")
    meta = {
        "seed": case.seed, "index": case.index, "mode": case.mode, "option": case.option, "seed_file": case.seed_file,
        "mutations": case.mutations, "status": status, "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "replay": f"python test/fuzz/fuzz.py --replay {path.relative_to(REPO)}",
    }
    (CRASHES / f"{stem}.json").write_text(json.dumps(meta, indent=1) + "\n")
    (CRASHES / f"{stem}.txt").write_text(detail + "\n")
    return str(path.relative_to(REPO))


def replay(path: Path, mode: Optional[str] = None) -> Result:
    meta_path = path.with_suffix(".json")
    meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
    mode = mode or meta.get("mode", "lower")
    data = path.read_bytes()
    case = Case(meta.get("seed", 0), meta.get("index", 0), meta.get("seed_file", str(path)), mode, data.decode("utf-8", errors="replace"), [],
                meta.get("option"))
    if mode == "bytes":
        case.data = data
    os.environ["CONVOPT_DEBUG"] = "1"
    return run_case(case, 60.0)


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first input index")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (the machine is shared: default 1)")
    ap.add_argument("--no-save", action="store_true", help="do not save failing inputs under test/fuzz/crashes/")
    ap.add_argument("--replay", type=Path, help="rerun one saved input (its .json sidecar gives the mode)")
    ap.add_argument("--mode", choices=sorted(MODES), help="with --replay: the mode to run it in")
    ap.add_argument("--show", type=int, metavar="INDEX", help="print input INDEX of --seed (and its mode and mutations) and exit")
    args = ap.parse_args(argv)
    if args.replay:
        r = replay(args.replay, args.mode)
        print(f"{r.status} in {r.elapsed:.2f} s\n{r.detail}")
        return 0 if r.status in ("ok", "diagnosed") else 1
    if args.show is not None:
        case = make_case(load_seeds(), args.seed, args.show)
        sys.stderr.write(f"// {case.seed_file} mode={case.mode} option={case.option} mutations={case.mutations}\n")
        sys.stdout.write(case.text)
        return 0
    summary = run_campaign(args.seed, args.count, args.start, args.jobs, save=not args.no_save, log=lambda s: print(s, flush=True))
    print(summary.report(), flush=True)
    return 1 if summary.unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
