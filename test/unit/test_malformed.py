"""Malformed input through the command line: `convopt bad.mlir -o out.mlir`
exits 1 with a located `FILE:LINE:COL: error:` first line on stderr, never a
Python traceback, and writes no output file (an existing one is left as it
was)."""

from __future__ import annotations

import re

import pytest
from unit_helpers import convopt

F32 = "!torch.vtensor<[2],f32>"


def nested_regions(depth: int) -> str:
    body = '"scf.execute_region"() ({ ' * depth + '"scf.yield"() : () -> () ' + "}) : () -> () " * depth
    return "func.func @deep() {\n  " + body + "\n  return\n}\n"


# (id, input bytes, expected line, text the message must contain)
CASES = [
    ("truncated_op", b"func.func @f() {\n  %0 = arith.constant 1.0 :\n", 2, "unexpected end of input"),
    ("unknown_token", b"func.func @f() {\n  %0 = arith.constant 1.0 : f32 `\n  return\n}\n", 2, "unexpected character '`'"),
    ("undefined_ssa_value", b"func.func @f() -> f32 {\n  return %x : f32\n}\n", 2, "use of undeclared SSA value name '%x'"),
    (
        "redefinition",
        b"func.func @f() {\n  %0 = arith.constant 1.0 : f32\n  %0 = arith.constant 2.0 : f32\n  return\n}\n",
        3,
        "redefinition of SSA value '%0'",
    ),
    (
        "type_mismatch_def_use",
        f"func.func @f(%a: {F32}) {{\n  %0 = torch.aten.relu %a : !torch.vtensor<[3],f32> -> !torch.vtensor<[3],f32>\n  return\n}}\n".encode(),
        2,
        "expects different type than prior uses",
    ),
    ("bad_attribute", b"func.func @f() attributes {x = dense<[1, 2> : tensor<2xi32>} {\n  return\n}\n", 1, "unexpected '>'"),
    ("integer_out_of_range", b"func.func @f() {\n  %0 = arith.constant 300 : i8\n  return\n}\n", 2, "out of range"),
    ("wrong_result_count", b"func.func @f() {\n  %0, %1 = arith.constant 1.0 : f32\n  return\n}\n", 2, "defines 1 results but was provided 2"),
    ("unterminated_region", b"func.func @f() {\n  %0 = arith.constant 1.0 : f32\n", 2, "unexpected end of input"),
    ("unbalanced_brackets", f"func.func @f(%a: {F32}) -> !torch.vtensor<[2],f32 {{\n  return %a : {F32}\n}}\n".encode(), 1, "unexpected"),
    ("non_utf8_bytes", b'func.func @f() {\n  %0 = torch.constant.str "a\xff\xfe"\n  return\n}\n', 2, "invalid UTF-8 byte 0xFF"),
    ("bad_affine_map", b"#map = affine_map<(d0) -> (d1)>\nfunc.func @f() {\n  return\n}\n", 1, "undeclared identifier 'd1'"),
    ("non_affine_map", b"#map = affine_map<(d0, d1) -> (d0 * d1)>\nfunc.func @f() {\n  return\n}\n", 1, "non-affine expression"),
    ("unknown_custom_op", b"func.func @f(%a: f32) -> f32 {\n  %0 = foo.bar %a, %a : f32\n  return %0 : f32\n}\n", 2, "dialect 'foo' not found for op 'foo.bar'"),
    ("bad_string_escape", b'func.func @f() {\n  %0 = torch.constant.str "bad \\q escape"\n  return\n}\n', 2, "unknown escape"),
    ("undefined_alias", b"func.func @f() attributes {m = #nope} {\n  return\n}\n", 1, "undefined symbol alias id 'nope'"),
    ("use_before_def", b"func.func @f() -> f32 {\n  %0 = arith.addf %1, %1 : f32\n  %1 = arith.constant 1.0 : f32\n  return %0 : f32\n}\n", 2, "does not dominate"),
    ("verifier_return_type", b"func.func @f(%a: f32) -> f64 {\n  return %a : f32\n}\n", 2, "doesn't match function result type"),
    (
        "verifier_slice_out_of_bounds",
        b"func.func @f(%a: tensor<4xf32>) -> tensor<3xf32> {\n"
        b"  %0 = tensor.extract_slice %a[2] [3] [1] : tensor<4xf32> to tensor<3xf32>\n"
        b"  return %0 : tensor<3xf32>\n}\n",
        2,
        "runs out of bounds",
    ),
    # MLIR's generic form with properties reads (test_print_generic); what it
    # leaves out or gives the wrong type is an error, not a crash.
    (
        "generic_form_missing_property",
        b"func.func @f(%a: tensor<4xf32>) -> tensor<3xf32> {\n"
        b'  %0 = "tensor.extract_slice"(%a) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>,'
        b" static_sizes = array<i64: 3>, static_strides = array<i64: 1>}> : (tensor<4xf32>) -> tensor<3xf32>\n"
        b"  return %0 : tensor<3xf32>\n}\n",
        2,
        "requires attribute 'static_offsets'",
    ),
    (
        "generic_form_pad_property_type",
        b"func.func @f(%a: tensor<4xf32>, %c: f32) -> tensor<6xf32> {\n"
        b'  %0 = "tensor.pad"(%a) <{operandSegmentSizes = array<i32: 1, 0, 0>, static_low = array<i32: 1>, static_high = array<i64: 1>}> ({\n'
        b"  ^bb0(%i: index):\n"
        b'    "tensor.yield"(%c) : (f32) -> ()\n'
        b"  }) : (tensor<4xf32>) -> tensor<6xf32>\n"
        b"  return %0 : tensor<6xf32>\n}\n",
        2,
        "attribute 'static_low' failed to satisfy constraint: i64 dense array attribute",
    ),
    ("deeply_nested_regions", nested_regions(2000).encode(), 1, "nests too deeply"),
    ("deeply_nested_attribute", b"module attributes {t.x = " + b"[" * 100000 + b"]" * 100000 + b"} {\n}\n", 1, "nests too deeply"),
]

LOCATED = re.compile(r"^bad\.mlir:(\d+):(\d+): error: (.*)$")


def check_failure(proc, line: int, message: str) -> None:
    stderr = proc.stderr.decode("utf-8", errors="replace")
    assert proc.returncode == 1, stderr
    assert "Traceback" not in stderr
    assert "internal error" not in stderr
    first = stderr.splitlines()[0] if stderr else ""
    m = LOCATED.match(first)
    assert m, f"first line of stderr is not a located error: {first!r}"
    assert int(m.group(1)) == line, first
    assert int(m.group(2)) >= 1
    assert message in m.group(3), first
    assert proc.stdout == b""


def test_at_least_fifteen_cases():
    assert len({c[0] for c in CASES}) == len(CASES) >= 15


@pytest.mark.parametrize("name, data, line, message", CASES, ids=[c[0] for c in CASES])
def test_malformed_input_creates_no_output(tmp_path, name, data, line, message):
    (tmp_path / "bad.mlir").write_bytes(data)
    proc = convopt("bad.mlir", "-o", "out.mlir", cwd=tmp_path)
    check_failure(proc, line, message)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.mlir"]  # no output, no temp file


@pytest.mark.parametrize("name, data, line, message", CASES, ids=[c[0] for c in CASES])
def test_malformed_input_leaves_existing_output_alone(tmp_path, name, data, line, message):
    (tmp_path / "bad.mlir").write_bytes(data)
    out = tmp_path / "out.mlir"
    out.write_bytes(b"previous contents\n")
    proc = convopt("bad.mlir", "-o", "out.mlir", cwd=tmp_path)
    check_failure(proc, line, message)
    assert out.read_bytes() == b"previous contents\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.mlir", "out.mlir"]


def test_caret_points_at_the_error(tmp_path):
    (tmp_path / "bad.mlir").write_bytes(next(c[1] for c in CASES if c[0] == "undefined_ssa_value"))
    lines = convopt("bad.mlir", cwd=tmp_path).stderr.decode().splitlines()
    assert lines[0].startswith("bad.mlir:2:10: error:")
    assert lines[1] == "  return %x : f32"
    assert lines[2] == " " * 9 + "^"


def test_missing_input_file(tmp_path):
    # No line or column to point at: the error names the file instead.
    proc = convopt("missing.mlir", "-o", "out.mlir", cwd=tmp_path)
    stderr = proc.stderr.decode()
    assert proc.returncode == 1
    assert stderr.startswith("convopt: error: could not open input file 'missing.mlir'")
    assert "Traceback" not in stderr
    assert list(tmp_path.iterdir()) == []


def test_unwritable_output_is_an_error(tmp_path):
    (tmp_path / "ok.mlir").write_text("func.func @f() {\n  return\n}\n")
    proc = convopt("ok.mlir", "-o", "no/such/dir/out.mlir", cwd=tmp_path)
    assert proc.returncode == 1
    assert "convopt: error: could not write output file" in proc.stderr.decode()
    assert "Traceback" not in proc.stderr.decode()
