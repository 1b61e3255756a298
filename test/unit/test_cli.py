"""The `convopt` command line, run as a subprocess."""

from __future__ import annotations

import importlib
import os
import re
import stat
import threading

import pytest
from unit_helpers import INPUTS, convopt, ok, torch_mlir_opt

import convopt as convopt_pkg
from convopt.lowering.forms import registry as forms
from convopt.passes import REGISTRY

TWO_FUNCS = "func.func @a() {\n  return\n}\n// -----\nfunc.func @b(%x: f32) -> f32 {\n  return %x : f32\n}\n"
SMALL = INPUTS / "conv_transpose.mlir"
CLEANUP = "--pass-pipeline=builtin.module(func.func(convopt-cleanup))"


@pytest.fixture
def two_funcs(tmp_path):
    path = tmp_path / "two.mlir"
    path.write_text(TWO_FUNCS)
    return path


def no_traceback(proc) -> str:
    stderr = proc.stderr.decode()
    assert "Traceback" not in stderr
    return stderr


# --- input and output -----------------------------------------------------------------

def test_stdin_to_stdout():
    from_file = ok(convopt(SMALL))
    assert ok(convopt(stdin=SMALL.read_bytes())) == from_file
    assert ok(convopt("-", stdin=SMALL.read_bytes())) == from_file


def test_output_file_equals_stdout(tmp_path):
    out = tmp_path / "out.mlir"
    proc = convopt(SMALL, "-o", out)
    assert ok(proc) == b""
    assert out.read_bytes() == ok(convopt(SMALL))


def test_output_is_replaced_atomically(tmp_path):
    out = tmp_path / "out.mlir"
    out.write_text("old\n")
    link = tmp_path / "link.mlir"
    os.link(out, link)  # a second name for the old file
    ok(convopt(SMALL, "-o", out))
    # a new file was renamed over the old name; the old inode is untouched
    assert out.stat().st_ino != link.stat().st_ino
    assert link.read_text() == "old\n"
    assert out.read_bytes() == ok(convopt(SMALL))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.mlir", "out.mlir"]


def test_output_file_mode(tmp_path):
    out = tmp_path / "new.mlir"
    ok(convopt(SMALL, "-o", out))
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~umask  # as for any file a tool creates
    out.chmod(0o640)
    ok(convopt(SMALL, "-o", out))
    assert stat.S_IMODE(out.stat().st_mode) == 0o640  # an existing file keeps its mode


def test_output_to_a_fifo_writes_through(tmp_path):
    # like `-o /dev/null`: a special file is written to, never renamed over
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    proc = convopt(SMALL, "-o", fifo)
    reader.join(timeout=10)  # a daemon: if nothing was written, it must not keep pytest alive
    assert proc.returncode == 0, proc.stderr.decode()
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert received == [ok(convopt(SMALL))]


def test_single_dash_output(tmp_path):
    out = tmp_path / "out.mlir"
    ok(convopt(SMALL, "-o", out))
    assert out.read_bytes() == ok(convopt(SMALL))


# --- --split-input-file ----------------------------------------------------------------

def test_split_input_file_joins_chunks(two_funcs):
    out = ok(convopt("--split-input-file", two_funcs)).decode()
    chunks = out.split("// -----\n")
    assert len(chunks) == 2
    assert "@a()" in chunks[0] and "@b(" in chunks[1]
    assert all(c.startswith("module {\n") and c.endswith("}\n\n") for c in chunks)
    # byte for byte what torch-mlir-opt prints
    assert out.encode() == ok(torch_mlir_opt("-split-input-file", two_funcs))


def test_single_dash_split_input_file(two_funcs):
    assert ok(convopt("-split-input-file", two_funcs)) == ok(convopt("--split-input-file", two_funcs))


def test_without_split_the_marker_is_a_comment(two_funcs):
    out = ok(convopt(two_funcs)).decode()
    assert "// -----" not in out and "@a()" in out and "@b(" in out


A = "func.func @a() {\n  return\n}\n"


@pytest.mark.parametrize(
    "text",
    [
        A + "// -----\n",  # a trailing marker line: an empty last chunk
        A + "// -----\n// -----\n" + A,  # an empty chunk in the middle
        A + "// -----\n\n// only a comment\n",  # chunks of blank lines and comments are empty too
        A + "// -----\n" + A + "// -----\n// -----\n",
        A + "// -----",  # mlir-opt's "near miss": a marker ending the file without a newline does not split
    ],
    ids=["trailing", "middle", "comment", "several", "no-newline"],
)
def test_split_empty_chunks_like_torch_mlir_opt(tmp_path, text):
    path = tmp_path / "chunks.mlir"
    path.write_text(text)
    out = ok(convopt("--split-input-file", path))
    assert out == ok(torch_mlir_opt("--split-input-file", path))
    assert b"module {\n}\n" in out or text.endswith("// -----")


def test_split_empty_chunks_run_the_passes(tmp_path):
    path = tmp_path / "chunks.mlir"
    path.write_text(A + "// -----\n")
    proc = convopt("--split-input-file", "--lower-conv-bwd", "--print-ir-after-all", path)
    assert ok(proc).endswith(b"// -----\nmodule {\n}\n\n")
    assert no_traceback(proc).endswith("// -----// IR Dump After convopt-finalize-boundary ('builtin.module' operation) //----- //\nmodule {\n}\n\n")


@pytest.mark.parametrize("text", ["", "// nothing\n", "  \n\t// a comment\n\n"], ids=["empty", "comment", "blank"])
@pytest.mark.parametrize("args", [(), ("--lower-conv-bwd",), ("--decompose-conv-bwd",)], ids=["roundtrip", "lower", "decompose"])
def test_a_file_without_ops_is_an_empty_module_like_torch_mlir_opt(tmp_path, text, args):
    path = tmp_path / "empty.mlir"
    path.write_text(text)
    out = ok(convopt(*args, "empty.mlir", cwd=tmp_path))
    assert out == b"module {\n}\n\n"
    assert out == ok(torch_mlir_opt(path))


def test_split_chunks_keep_line_numbers(tmp_path):
    path = tmp_path / "bad.mlir"
    path.write_text("func.func @a() {\n  return\n}\n// -----\nfunc.func @b() {\n  return %x : f32\n}\n")
    proc = convopt("--split-input-file", "bad.mlir", cwd=tmp_path)
    assert proc.returncode == 1
    assert no_traceback(proc).startswith("bad.mlir:6:10: error: use of undeclared SSA value name '%x'")


def test_split_debuginfo_locations_use_original_lines(two_funcs):
    out = ok(convopt("--split-input-file", "--mlir-print-debuginfo", two_funcs.name, cwd=two_funcs.parent)).decode()
    assert 'return loc("two.mlir":2:3)' in out
    assert 'return %arg0 : f32 loc("two.mlir":6:3)' in out


# --- --verify-diagnostics ------------------------------------------------------------------

EXPECTING = "func.func @f() -> f32 {\n  // expected-error @+1 {{use of undeclared SSA value name '%x'}}\n  return %x : f32\n}\n"


@pytest.mark.parametrize("flag", ["--verify-diagnostics", "-verify-diagnostics"])
def test_verify_diagnostics_match(tmp_path, flag):
    path = tmp_path / "e.mlir"
    path.write_text(EXPECTING)
    proc = convopt(flag, path)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stderr == b""


def test_verify_diagnostics_mismatch(tmp_path):
    path = tmp_path / "e.mlir"
    path.write_text(EXPECTING.replace("@+1", "@+2"))
    proc = convopt("-verify-diagnostics", "e.mlir", cwd=tmp_path)
    stderr = no_traceback(proc)
    assert proc.returncode == 1
    assert "unexpected error: use of undeclared SSA value name '%x'" in stderr
    assert "was not produced" in stderr


def test_verify_diagnostics_without_expectations_fails_on_error(tmp_path):
    path = tmp_path / "e.mlir"
    path.write_text(EXPECTING.replace("expected-error", "no-expectation"))
    assert convopt("-verify-diagnostics", path).returncode == 1


# --- passes and pipelines --------------------------------------------------------------------

def test_print_ir_after_all(two_funcs):
    proc = convopt(CLEANUP, "--print-ir-after-all", "--split-input-file", two_funcs)
    stderr = no_traceback(proc)
    assert proc.returncode == 0
    assert "// -----// IR Dump After convopt-cleanup ('func.func' operation: @a) //----- //\nfunc.func @a() {\n  return\n}\n" in stderr
    assert "('func.func' operation: @b)" in stderr


def test_list_passes():
    for target in REGISTRY.values():  # every registered pass exists
        module, _, cls = target.partition(":")
        assert hasattr(importlib.import_module(module), cls), target
    proc = convopt("--list-passes")
    out = ok(proc).decode()
    no_traceback(proc)
    for name in REGISTRY:
        assert f"  {name} [" in out
    assert "torch-boundary=" in out  # options are listed under their pass
    # the descriptions start in one column, for passes and options alike
    columns = {re.match(r"^ +\S+(?: \[\S+\])? +", line).end() for line in out.splitlines()[1:] if " " in line.strip()}
    assert len(columns) == 1, columns
    assert "legal-ops=<unset>" in out


@pytest.mark.parametrize(
    "pipeline, message",
    [
        ("builtin.module(func.func(convopt-no-such-pass))", "'convopt-no-such-pass' does not refer to a registered pass; registered passes: convopt-cleanup"),
        ("builtin.module(convopt-finalize-boundary{bogus=1})", "no such option 'bogus' for pass 'convopt-finalize-boundary'; valid options: torch-boundary"),
        ("builtin.module(convopt-finalize-boundary{torch-boundary=maybe})", "expects true or false, got 'maybe'"),
        ("builtin.module(func.func(convopt-cleanup{))", "missing '}' in options of pass 'convopt-cleanup'"),
        ("builtin.module(func.func(convopt-cleanup)", "missing ')'"),
        ("builtin.module(func.func(convopt-cleanup)))", "unexpected ')' in pass pipeline"),
        ("builtin.module(tensor.pad(convopt-cleanup))", "can only nest passes under"),
        ("builtin.module(func.func(convopt-conv-bwd-to-linalg{peel=sometimes}))", "peel must be one of auto, always, never, not 'sometimes'"),
        ("builtin.module(func.func(convopt-torch-to-linalg{conv-form=winograd}))", f"conv-form must be one of {', '.join(forms.names())}, not 'winograd'"),
        ("builtin.module(func.func(convopt-decompose-conv-bwd{lower=true peel=no}))", "invalid options for pass 'convopt-decompose-conv-bwd': peel must be one of"),
        ("builtin.module(func.func(convopt-conv-bwd-to-linalg{matmul-tiles=sse}))", "invalid options for pass 'convopt-conv-bwd-to-linalg': matmul-tiles must be one of none, avx512, host, not 'sse'"),
    ],
)
def test_bad_pass_pipeline(tmp_path, pipeline, message):
    out = tmp_path / "out.mlir"
    proc = convopt(f"--pass-pipeline={pipeline}", SMALL, "-o", out)
    stderr = no_traceback(proc)
    assert proc.returncode == 1
    assert stderr.startswith("convopt: error: ")
    assert message in stderr
    assert not out.exists()


def test_cleanup_pipeline_runs(tmp_path):
    path = tmp_path / "dead.mlir"
    path.write_text("func.func @f() -> f32 {\n  %0 = arith.constant 1.0 : f32\n  %1 = arith.constant 1.0 : f32\n  %2 = arith.constant 2.0 : f32\n  %3 = arith.addf %0, %1 : f32\n  return %3 : f32\n}\n")
    out = ok(convopt(CLEANUP, path)).decode()
    assert out.count("arith.constant") == 1 and "2.000000e+00" not in out
    assert "arith.addf %cst, %cst : f32" in out


@pytest.mark.parametrize("option", ["--target=rocmlir", "--matmul-tiles=avx512", "--matmul-tiles=none", "--device=gpu"])
def test_pass_option_needs_a_pass(tmp_path, option):
    proc = convopt(option, SMALL)
    assert proc.returncode == 2
    assert no_traceback(proc) == ("convopt: error: --backend-legal-ops, --target, --conv-form, --matmul-tiles, --device, --cost-profile, --opt-level and --torch-boundary "
                                  "apply to --lower-conv-bwd or --decompose-conv-bwd\n")


def test_bad_matmul_tiles_is_a_usage_error():
    proc = convopt("--lower-conv-bwd", "--matmul-tiles=amx", SMALL)
    assert proc.returncode == 2 and "Invalid value for '--matmul-tiles'" in no_traceback(proc)


def test_bad_device_is_a_usage_error():
    proc = convopt("--lower-conv-bwd", "--device=tpu", SMALL)
    assert proc.returncode == 2 and "Invalid value for '--device'" in no_traceback(proc)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--torch-mlir-stages"], "--torch-mlir-stages applies to --lower-conv-bwd"),
        (["--decompose-conv-bwd", "--torch-mlir-stages"], "--torch-mlir-stages applies to --lower-conv-bwd"),
        (["--lower-conv-bwd", "--torch-mlir-stages", "--mlir-print-debuginfo"], "--mlir-print-debuginfo cannot be combined with --torch-mlir-stages"),
    ],
)
def test_torch_mlir_stages_usage_errors(args, message):
    proc = convopt(*args, SMALL)
    assert proc.returncode == 2 and proc.stdout == b""
    assert no_traceback(proc).startswith(f"convopt: error: {message}")


def test_torch_mlir_stages_single_dash():
    assert ok(convopt("-lower-conv-bwd", "-torch-mlir-stages", SMALL)) == ok(convopt("--lower-conv-bwd", "--torch-mlir-stages", SMALL))


def test_unknown_option_is_a_usage_error():
    proc = convopt("--no-such-option", SMALL)
    assert proc.returncode == 2
    assert "No such option" in no_traceback(proc)


# --- --version, --help ---------------------------------------------------------------------

def test_version():
    assert ok(convopt("--version")).decode() == f"convopt, version {convopt_pkg.__version__}\n"


def test_help_lists_options():
    out = ok(convopt("--help")).decode()
    for option in ("-o, --output", "--lower-conv-bwd", "--pass-pipeline", "--split-input-file", "--verify-diagnostics", "--mlir-print-debuginfo", "--list-passes", "--torch-mlir-stages", "--version"):
        assert option in out


def _many_functions(tmp_path, count: int = 12):
    """A module of `count` convolution_backward functions of different
    configurations (the e2e harness's IR), for the function-by-function path."""
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
    import harness

    cfgs = harness.named_matrix()[:count]
    text = "module {\n" + "".join(harness.torch_ir(c).replace("@main", f"@f{i}") for i, c in enumerate(cfgs)) + "}\n"
    path = tmp_path / "many.mlir"
    path.write_text(text)
    return path


def _whole_module(path, decomposed: bool = False) -> bytes:
    """The output of processing the module as a whole (driver Options threads=None)."""
    from convopt.cli import flags_pipeline
    from convopt.driver import Options, run_text

    pipeline = flags_pipeline(["--lower-conv-bwd", *(["--backend-legal-ops="] if decomposed else [])])
    return run_text(path.read_text(), Options(pipeline=pipeline, threads=None), str(path)).encode()


@pytest.mark.parametrize("threads", ["1", "2", "0"])
def test_threads_give_the_same_bytes(tmp_path, threads):
    path = _many_functions(tmp_path)
    serial = _whole_module(path)
    assert b"func.func @f11" in serial and b"convolution_backward" not in serial
    assert ok(convopt("--lower-conv-bwd", "--threads", threads, str(path))) == serial
    assert ok(convopt("-lower-conv-bwd", f"-threads={threads}", "--backend-legal-ops=", str(path))) == _whole_module(path, decomposed=True)


def test_one_function_at_a_time_is_the_default(tmp_path, monkeypatch):
    """Without --threads the functions of a large module go one by one in this process."""
    import convopt.parallel as parallel

    seen = []
    real = parallel.run_parallel
    monkeypatch.setattr(parallel, "run_parallel", lambda *a, **k: seen.append(a[2]) or real(*a, **k))
    from convopt.cli import flags_pipeline
    from convopt.driver import Options, run_text

    path = _many_functions(tmp_path)
    out = run_text(path.read_text(), Options(pipeline=flags_pipeline(["--lower-conv-bwd"])), str(path))
    assert seen == [1] and out.encode() == _whole_module(path)


def test_threads_fall_back_on_a_diagnostic(tmp_path):
    """A function with an error: the module is processed as a whole, so the
    diagnostic is the serial one."""
    path = _many_functions(tmp_path)
    path.write_text(path.read_text().replace("torch.constant.int 2\n", "torch.constant.int 0\n", 1))
    serial = convopt("--lower-conv-bwd", "--verify-each", str(path))  # --verify-each: the whole module
    threaded = convopt("--lower-conv-bwd", "--threads", "2", str(path))
    assert serial.returncode == threaded.returncode == 1
    assert threaded.stderr == serial.stderr and b"error:" in serial.stderr


def test_verify_each_gives_the_same_bytes(tmp_path):
    path = _many_functions(tmp_path, 4)
    assert ok(convopt("--lower-conv-bwd", "--verify-each", str(path))) == ok(convopt("--lower-conv-bwd", str(path)))


# --- --mlir-timing, --mlir-print-ir-before/after ----------------------------------------------------

TIMING_ROW = re.compile(r"^  +(-?[0-9]+\.[0-9]{4}) \( *(-?[0-9]+\.[0-9])%\)  ( *)(\S.*)$")


def timing_rows(stderr: str) -> list[tuple[float, int, str]]:
    """(seconds, nesting depth, name) of each row of a --mlir-timing report,
    after checking mlir-opt's header lines."""
    lines = stderr.split("\n")
    top = lines.index("===" + "-" * 73 + "===")
    assert lines[top + 1] == " " * 25 + "... Execution time report ..." and lines[top + 2] == lines[top]
    assert re.fullmatch(r"  Total Execution Time: [0-9]+\.[0-9]{4} seconds", lines[top + 3]) and lines[top + 4] == ""
    assert lines[top + 5] == "  ----Wall Time----  ----Name----"
    rows = []
    for line in lines[top + 6 :]:
        m = TIMING_ROW.match(line)
        if m is None:
            break
        rows.append((float(m.group(1)), len(m.group(3)) // 2, m.group(4)))
    assert rows[-1][2] == "Total" and rows[-2][2] == "Rest" and f"{rows[-1][0]:.4f}" in lines[top + 3]
    return rows


@pytest.mark.parametrize("flag", ["--mlir-timing", "-mlir-timing", "--timing", "-timing"])
def test_mlir_timing_report(flag):
    plain = convopt("--lower-conv-bwd", SMALL)
    proc = convopt("--lower-conv-bwd", flag, SMALL)
    assert ok(proc) == ok(plain)  # stdout untouched
    stderr = no_traceback(proc)
    assert stderr.startswith("===-") and stderr.endswith("\n")
    rows = timing_rows(stderr)
    names = [(depth, name) for _, depth, name in rows]
    top = [name for depth, name in names if depth == 0]
    assert top == ["Pipeline parser", "Parser", "Verifier", "'func.func' Pipeline", "convopt-finalize-boundary", "Output", "Rest", "Total"]
    nested = [name for depth, name in names if depth == 1]
    assert nested == ["convopt-drop-symbolic-shapes", "Verifier", "convopt-decompose-conv-bwd", "convopt-conv-bwd-to-linalg", "convopt-cleanup"]
    # the top rows and Rest add up to Total (to the printed 4 digits); a pipeline holds its passes
    total = rows[-1][0]
    assert abs(sum(t for t, depth, _ in rows[:-1] if depth == 0) - total) <= 0.0001 * len(rows)
    pipeline = next(t for t, _, name in rows if name == "'func.func' Pipeline")
    assert sum(t for t, depth, _ in rows if depth == 1) <= pipeline + 0.0001 * len(rows)
    assert "  Route: the module as a whole (fell back: 1 function, fewer than 8)\n" in stderr


def test_mlir_timing_without_passes_and_on_failure(tmp_path):
    rows = timing_rows(no_traceback(convopt("--mlir-timing", SMALL)))
    assert [name for _, _, name in rows] == ["Parser", "Verifier", "Output", "Rest", "Total"]
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f() {\n  %0 = arith.addf\n}\n")
    proc = convopt("--mlir-timing", bad)
    stderr = no_traceback(proc)
    assert proc.returncode == 1 and "bad.mlir:2:" in stderr and "Parser" in [name for _, _, name in timing_rows(stderr)]


def test_mlir_timing_names_the_route(tmp_path):
    """Function by function (the default for a large module), in worker
    processes (their rows are added up), and the fall-back, with its reason."""
    path = _many_functions(tmp_path, 8)
    serial = ok(convopt("--lower-conv-bwd", path))
    for threads, route in (("1", "function by function (one function at a time in this process)"), ("2", "function by function (2 processes)")):
        proc = convopt("--lower-conv-bwd", "--mlir-timing", "--threads", threads, path)
        assert ok(proc) == serial
        stderr = no_traceback(proc)
        assert f"  Route: {route}\n" in stderr
        rows = timing_rows(stderr)
        assert [name for _, d, name in rows if d == 1] == ["convopt-drop-symbolic-shapes", "Verifier", "convopt-decompose-conv-bwd", "convopt-conv-bwd-to-linalg", "convopt-cleanup"]
        assert next(t for t, _, name in rows if name == "convopt-conv-bwd-to-linalg") > 0
    proc = convopt("--lower-conv-bwd", "--mlir-timing", "--stats", path)
    assert "  Route: the module as a whole (--stats needs the module as a whole)\n" in no_traceback(proc)
    text = path.read_text()
    line = text.count("\n", 0, text.rindex("func.func", 0, text.index("torch.constant.int 2\n"))) + 1  # the first line of the function broken here
    path.write_text(text.replace("torch.constant.int 2\n", "torch.constant.int 0\n", 1))
    proc = convopt("--lower-conv-bwd", "--mlir-timing", path)
    assert proc.returncode == 1 and f"  Route: the module as a whole (fell back: the function at line {line} has an error)\n" in no_traceback(proc)


def test_remarks_say_why_threads_were_not_used(tmp_path):
    """--threads asked for worker processes; with --remarks the module goes
    as a whole, and a remark at its first line says so and why."""
    path = _many_functions(tmp_path, 8)
    proc = convopt("--lower-conv-bwd", "--remarks", "--threads", "2", path)
    assert ok(proc) == ok(convopt("--lower-conv-bwd", path))
    stderr = no_traceback(proc)
    assert stderr.startswith(f"{path}:1:1: remark: processed as a whole module, not function by function in 2 processes: --remarks needs the module as a whole\n")
    assert "processed as a whole" not in no_traceback(convopt("--lower-conv-bwd", "--remarks", path))  # --threads=1, the default: no remark
    few = tmp_path / "few.mlir"
    few.write_text(SMALL.read_text())
    assert f"{few}:1:1: remark: processed as a whole module, not function by function in one process per CPU: 1 function, fewer than 8\n" in no_traceback(
        convopt("--lower-conv-bwd", "--remarks", "--threads=0", few)
    )


def test_print_ir_before_and_after_a_pass(two_funcs):
    proc = convopt("--lower-conv-bwd", "--mlir-print-ir-before=convopt-conv-bwd-to-linalg", "-mlir-print-ir-after=convopt-conv-bwd-to-linalg,convopt-finalize-boundary", SMALL)
    assert ok(proc) == ok(convopt("--lower-conv-bwd", SMALL))
    stderr = no_traceback(proc)
    headers = [line for line in stderr.split("\n") if "IR Dump" in line]
    assert headers == [
        "// -----// IR Dump Before convopt-conv-bwd-to-linalg ('func.func' operation: @main) //----- //",
        "// -----// IR Dump After convopt-conv-bwd-to-linalg ('func.func' operation: @main) //----- //",
        "// -----// IR Dump After convopt-finalize-boundary ('builtin.module' operation) //----- //",
    ]
    before, after, boundary = stderr.split("// -----// IR Dump")[1:]
    assert "torch.aten.convolution_backward" in before and "linalg." not in before
    assert "torch.aten.convolution_backward" not in after and "linalg.generic" in after
    assert boundary.split("\n", 1)[1] == ok(proc).decode()  # the last pass's output is the module printed
    # repeatable; a pass that is not in the pipeline prints nothing; with --print-ir-after-all each pass once
    proc = convopt(CLEANUP, "--mlir-print-ir-before", "convopt-cleanup", "--mlir-print-ir-before=convopt-decompose-conv-bwd", "--mlir-print-ir-after=convopt-cleanup", "--print-ir-after-all", two_funcs)
    headers = [line for line in no_traceback(proc).split("\n") if "IR Dump" in line]
    assert headers == [
        "// -----// IR Dump Before convopt-cleanup ('func.func' operation: @a) //----- //",
        "// -----// IR Dump After convopt-cleanup ('func.func' operation: @a) //----- //",
        "// -----// IR Dump Before convopt-cleanup ('func.func' operation: @b) //----- //",
        "// -----// IR Dump After convopt-cleanup ('func.func' operation: @b) //----- //",
    ]


@pytest.mark.parametrize("flag", ["--mlir-print-ir-after=convopt-cleanup,nope", "-mlir-print-ir-before=canonicalize"])
def test_print_ir_of_an_unknown_pass_is_an_error_as_in_a_pipeline(flag):
    """Exit code 1, as an unknown pass of --pass-pipeline."""
    proc = convopt("--lower-conv-bwd", flag, SMALL)
    stderr = no_traceback(proc)
    name = flag.split("=", 1)[0].lstrip("-")
    bad = flag.rsplit("=", 1)[1].split(",")[-1]
    assert proc.returncode == 1 and proc.stdout == b""
    assert convopt("--pass-pipeline=builtin.module(nope)", SMALL).returncode == 1
    assert stderr == f"convopt: error: --{name}: '{bad}' is not a registered pass; registered passes: {', '.join(sorted(REGISTRY))}\n"


def test_help_lists_the_timing_and_dump_options():
    out = ok(convopt("--help")).decode()
    for option in ("--mlir-timing, --timing", "--mlir-print-ir-before PASS", "--mlir-print-ir-after PASS"):
        assert option in out


def test_the_pipeline_is_parsed_once(tmp_path, monkeypatch):
    """Once per invocation: not again per function on the function-by-function
    route, nor per chunk of --split-input-file."""
    import convopt.passes as passes
    from convopt.cli import flags_pipeline
    from convopt.driver import Options, run_text

    calls = []
    real = passes.parse_pipeline
    monkeypatch.setattr(passes, "parse_pipeline", lambda text: calls.append(text) or real(text))
    path = _many_functions(tmp_path, 8)
    pipeline = flags_pipeline(["--lower-conv-bwd"])
    text = path.read_text()
    out = run_text(text, Options(pipeline=pipeline), str(path))
    assert calls == [pipeline]
    assert out.encode() == _whole_module(path)
    calls.clear()
    run_text(text + "// -----\n" + text, Options(pipeline=pipeline, split_input_file=True), str(path))
    assert calls == [pipeline]


def test_timing_through_the_api_goes_to_the_log(tmp_path):
    from convopt.driver import Options, run_text

    logged: list[str] = []
    out = run_text(SMALL.read_text(), Options(pipeline="builtin.module(func.func(convopt-cleanup))", timing=True), "small.mlir", logged.append)
    assert out == ok(convopt(CLEANUP, SMALL)).decode()
    report = "".join(logged)
    rows = [(depth, name) for _, depth, name in timing_rows(report)]
    assert rows == [(0, "Parser"), (0, "Verifier"), (0, "'func.func' Pipeline"), (1, "convopt-cleanup"), (1, "Verifier"), (0, "Output"), (0, "Rest"), (0, "Total")]
    assert report.endswith("  Route: the module as a whole (fell back: 1 function, fewer than 8)\n")


@pytest.mark.parametrize(
    "ops, message",
    [
        ("convolution_backward", "'convolution_backward' is not a torch op; did you mean 'aten.convolution_backward'?"),
        ("aten.convolution_backwrd", "'aten.convolution_backwrd' is not a torch op; did you mean 'aten.convolution_backward'?"),
        ("aten.convolution_backward,aten.reluu", "'aten.reluu' is not a torch op; did you mean 'aten.relu'?"),
    ],
)
def test_backend_legal_ops_must_name_torch_ops(ops, message):
    for mode in ("--lower-conv-bwd", "--decompose-conv-bwd"):
        proc = convopt(mode, f"--backend-legal-ops={ops}", SMALL)
        assert proc.returncode == 1 and proc.stdout == b""
        assert no_traceback(proc) == f"convopt: error: --backend-legal-ops: {message}\n"
    proc = convopt(f"--pass-pipeline=builtin.module(func.func(convopt-decompose-conv-bwd{{legal-ops={ops}}}))", SMALL)
    assert no_traceback(proc) == f"convopt: error: invalid options for pass 'convopt-decompose-conv-bwd': legal-ops: {message}\n"


@pytest.mark.parametrize("ops", ["aten.convolution_backward", "torch.aten.convolution_backward", "aten.convolution_backward,aten.convolution", ""])
def test_backend_legal_ops_take_torch_op_names(ops):
    ok(convopt("--lower-conv-bwd", f"--backend-legal-ops={ops}", SMALL))


def test_flag_conflicts_name_the_flags():
    proc = convopt("--lower-conv-bwd", "--matmul-tiles=avx512", "--device=gpu", SMALL)
    assert proc.returncode == 1
    assert no_traceback(proc).startswith("convopt: error: --matmul-tiles are CPU tiles (linalg.mmt4d for IREE's CPU microkernels): use --matmul-tiles=none with --device=gpu\n")


def test_help_shows_the_input_as_optional():
    assert ok(convopt("--help")).decode().startswith("Usage: convopt [OPTIONS] [INPUT]\n")


def test_dump_pass_pipeline_spells_out_every_option_and_reparses(tmp_path):
    proc = convopt("--lower-conv-bwd", "--device=avx512", "--dump-pass-pipeline", SMALL)
    lines = no_traceback(proc).splitlines()
    assert lines[0] == "Pass Manager with 5 passes:"
    assert "convopt-decompose-conv-bwd{peel=auto conv-form=auto matmul-tiles=none device=avx512 cost-profile= opt-level=O2 target=linalg lower=true}" in lines[1]
    assert ok(proc) == ok(convopt(f"--pass-pipeline={lines[1]}", SMALL))
    assert no_traceback(convopt("--dump-pass-pipeline", SMALL)).startswith("Pass Manager with 0 passes:\nbuiltin.module()\n")


def test_elide_elementsattrs_like_torch_mlir_opt(tmp_path):
    """The elided attributes are torch-mlir-opt's (the output otherwise
    keeps convopt's float spelling); the function-by-function route agrees."""
    text = "".join(
        f"func.func @f{i}() -> (tensor<3xf32>, tensor<2xf32>, tensor<4xf32>) {{\n"
        f"  %0 = arith.constant dense<[1.0, 2.0, {i}.0]> : tensor<3xf32>\n"
        "  %1 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
        "  %2 = arith.constant dense<7.0> : tensor<4xf32>\n"
        "  return %0, %1, %2 : tensor<3xf32>, tensor<2xf32>, tensor<4xf32>\n}\n"
        for i in range(40)
    )
    path = tmp_path / "dense.mlir"
    path.write_text(text)
    ours = ok(convopt("--mlir-elide-elementsattrs-if-larger=2", path)).decode()
    theirs = ok(torch_mlir_opt("--mlir-elide-elementsattrs-if-larger=2", path)).decode()
    elided = [line for line in theirs.splitlines() if "__elided__" in line]
    assert len(elided) == 40 and elided == [line for line in ours.splitlines() if "__elided__" in line]
    assert ok(convopt("--lower-conv-bwd", "--threads=2", "--mlir-elide-elementsattrs-if-larger=2", path)).decode() == ours
    assert convopt("--mlir-elide-elementsattrs-if-larger=-1", path).returncode == 2
