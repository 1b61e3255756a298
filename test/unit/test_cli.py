"""The `convopt` command line, run as a subprocess."""

from __future__ import annotations

import importlib.util
import os
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


def test_a_whole_empty_file_is_still_an_error(tmp_path):
    path = tmp_path / "empty.mlir"
    path.write_text("// nothing\n")
    proc = convopt("empty.mlir", cwd=tmp_path)
    assert proc.returncode == 1
    assert no_traceback(proc).startswith("empty.mlir:1:1: error: empty input")


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
    missing = [t for t in REGISTRY.values() if importlib.util.find_spec(t.split(":")[0]) is None]
    if missing:
        pytest.skip(f"pass modules not written yet: {', '.join(missing)}")
    proc = convopt("--list-passes")
    out = ok(proc).decode()
    no_traceback(proc)
    for name in REGISTRY:
        assert f"  {name}  [" in out
    assert "torch-boundary=" in out  # options are listed under their pass


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
    assert "convopt: error: --target, --backend-legal-ops, --torch-boundary, --conv-form, --matmul-tiles and --device apply to" in no_traceback(proc)


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
    from convopt.driver import Options, run_text
    from convopt.pipelines import default_pipeline

    pipeline = default_pipeline(True, False, None, "" if decomposed else None, False, None)
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
    from convopt.driver import Options, run_text
    from convopt.pipelines import default_pipeline

    path = _many_functions(tmp_path)
    out = run_text(path.read_text(), Options(pipeline=default_pipeline(True, False, None, None, False, None)), str(path))
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
