"""Known ops only, as torch-mlir-opt: the op names of every dialect convopt
reads come from `convopt/dialects/op_names.py`, generated from the installed
torch-mlir; a name its dialect does not have is a located error with the
nearest known name, and so is an op of a dialect convopt does not know
unless --allow-unregistered-dialect."""

from __future__ import annotations

import importlib

import pytest
from unit_helpers import convopt, ok

from convopt.diagnostics import ConvoptError, SourceFile
from convopt.dialects import _MODULES, unknown_op_message
from convopt.dialects.op_names import NAMES, TORCH_MLIR_VERSION
from convopt.parser import parse

ALL = sorted(f"{d}.{n}" for d, ops in NAMES.items() for n in ops)
KNOWN = set(ALL)


def test_the_table_is_torch_mlirs_set():
    """Fails when the installed torch-mlir registers other op names than the
    table lists: regenerate it with `python -m convopt.dialects.generate_op_names`."""
    from convopt.dialects.generate_op_names import collect, render

    version, names = collect()
    assert version == TORCH_MLIR_VERSION
    for dialect in sorted(set(names) | set(NAMES)):
        ours, theirs = set(NAMES.get(dialect, ())), set(names.get(dialect, ()))
        assert ours == theirs, f"{dialect}: only in the table {sorted(ours - theirs)[:10]}, only in torch-mlir {sorted(theirs - ours)[:10]}"
    with open(importlib.import_module("convopt.dialects.op_names").__file__) as f:
        assert f.read() == render(version, names)


def test_every_dialect_convopt_reads_is_in_the_table():
    assert set(_MODULES) <= set(NAMES)


def test_every_op_convopt_defines_is_a_registered_name():
    for module in sorted(set(_MODULES.values())):
        ops = importlib.import_module(f"convopt.dialects.{module}").OPS
        assert set(ops) <= KNOWN, sorted(set(ops) - KNOWN)


def misspellings(name: str) -> list[str]:
    """A few edits of the op part of name (dropped, doubled, swapped,
    replaced letters) that are not themselves known names."""
    dialect, _, op = name.partition(".")
    i = len(op) // 2
    edits = [op[:i] + op[i + 1 :], op[:i] + op[i] + op[i:], op + "s", op[:i] + ("x" if op[i] != "x" else "y") + op[i + 1 :]]
    if len(op) > 2:
        edits.append(op[: i - 1] + op[i] + op[i - 1] + op[i + 1 :])
    return [f"{dialect}.{e}" for e in edits if e and f"{dialect}.{e}" not in KNOWN]


def test_no_misspelling_is_accepted_in_any_dialect():
    """Every known name, misspelled: an error naming the op, with a
    suggestion that is a known name (0 silent acceptances)."""
    count = 0
    for i, name in enumerate(ALL):
        for bad in misspellings(name)[i % 3 :: 3] or misspellings(name)[:1]:
            message = unknown_op_message(bad)
            assert message is not None, bad
            assert f"'{bad}'" in message and "; did you mean '" in message, message
            suggested = message.split("did you mean '")[1].split("'")[0]
            assert suggested in KNOWN
            count += 1
    assert count > len(ALL)


@pytest.mark.parametrize("dialect", sorted(NAMES))
def test_a_misspelled_op_is_located_in_the_generic_and_custom_forms(dialect):
    name = f"{dialect}.{NAMES[dialect][len(NAMES[dialect]) // 2]}"
    bad = misspellings(name)[0]
    for text in (f'func.func @f() {{\n  "{bad}"() : () -> ()\n  return\n}}\n', f"func.func @f() {{\n  {bad}\n  return\n}}\n"):
        with pytest.raises(ConvoptError) as e:
            parse(SourceFile("t.mlir", text))
        assert e.value.diagnostics[0] == f"t.mlir:2:3: error: {unknown_op_message(bad)}"


@pytest.mark.parametrize(
    "bad, suggestion",
    [("toch.aten.relu", "torch.aten.relu"), ("tensr.empty", "tensor.empty"), ("lnalg.fill", "linalg.fill"), ("torch-c.to_i1", None)],
)
def test_a_misspelled_dialect_is_refused_with_the_op_under_the_nearest_dialect(bad, suggestion):
    message = unknown_op_message(bad)
    assert message is not None and message.startswith(f"dialect '{bad.partition('.')[0]}' not found for op '{bad}'")
    if suggestion:
        assert f"did you mean '{suggestion}'?" in message
    assert unknown_op_message(bad, allow_unregistered_dialect=True) is None


def test_the_allow_flag_does_not_let_unknown_ops_of_known_dialects_through():
    assert unknown_op_message("torch.aten.reluu", allow_unregistered_dialect=True) is not None
    assert unknown_op_message("torch.aten.relu") is None


TORCH = "!torch.vtensor<[2],f32>"


@pytest.mark.parametrize("args", [(), ("--lower-conv-bwd", "--remarks", "--stats"), ("--decompose-conv-bwd",), ("--lower-conv-bwd", "--threads=2")])
def test_the_issue_example_fails_with_exit_1_and_no_output_file(tmp_path, args):
    path = tmp_path / "in.mlir"
    path.write_text(f"func.func @f(%a: {TORCH}) -> {TORCH} {{\n  %0 = torch.aten.reluu %a : {TORCH} -> {TORCH}\n  return %0 : {TORCH}\n}}\n")
    proc = convopt(*args, "in.mlir", "-o", "out.mlir", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr.decode().startswith("in.mlir:2:8: error: unregistered operation 'torch.aten.reluu' found in dialect ('torch')")
    assert "did you mean 'torch.aten.relu'?" in proc.stderr.decode() and "Traceback" not in proc.stderr.decode()
    assert not (tmp_path / "out.mlir").exists()


def test_allow_unregistered_dialect_keeps_foreign_ops_function_by_function(tmp_path):
    """The flag reaches the function-by-function route too (same bytes as
    the module as a whole)."""
    funcs = "".join(f'func.func @f{i}(%a: tensor<2xf32>) {{\n  "my.sink"(%a) : (tensor<2xf32>) -> ()\n  return\n}}\n' for i in range(40))
    path = tmp_path / "in.mlir"
    path.write_text(funcs)
    whole = ok(convopt("--lower-conv-bwd", "--allow-unregistered-dialect", "--threads=1", "--verify-each", "in.mlir", cwd=tmp_path))
    assert ok(convopt("--lower-conv-bwd", "--allow-unregistered-dialect", "--threads=2", "in.mlir", cwd=tmp_path)) == whole
    assert whole.count(b'"my.sink"(%arg0) : (tensor<2xf32>) -> ()') == 40
    assert convopt("--lower-conv-bwd", "--threads=2", "in.mlir", cwd=tmp_path).returncode == 1


def test_no_misspelled_legal_op_is_accepted():
    """--backend-legal-ops names: every torch op name misspelled (a sample of
    the aten ops, and the dropped `aten.` prefix) is refused with a suggestion."""
    from convopt.lowering.patterns.legality import legal_op_problem

    aten = [n for n in NAMES["torch"] if n.startswith("aten.")]
    for name in aten[:: max(1, len(aten) // 150)]:
        assert legal_op_problem(name) is None
        for bad in misspellings(f"torch.{name}")[:2]:
            kind = bad.removeprefix("torch.")
            problem = legal_op_problem(kind)
            assert problem is not None and problem.startswith(f"'{kind}' is not a torch op; did you mean '"), (kind, problem)
        short = name.removeprefix("aten.")
        if f"torch.{short}" not in KNOWN:
            assert legal_op_problem(short) == f"'{short}' is not a torch op; did you mean '{name}'?"
