"""The Python API (`convopt.lower`, `convopt.decompose`, `convopt.ConvoptError`):
the command line's bytes and diagnostics, module input, option handling,
and `torch_mlir_stages` (also without the torch_mlir package)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from unit_helpers import INPUTS, REPO, convopt, ok

import convopt as api
from convopt.diagnostics import Diagnostic
from convopt.lowering.forms import registry as forms
from convopt.torch_mlir_stages import MISSING, NOT_A_RAW_IMPORT

SMALL = INPUTS / "conv_transpose.mlir"
DYNAMIC = INPUTS / "dynamic_batch.mlir"
RESNET = INPUTS / "resnet_basic_block.mlir"
BAD = "func.func @f() -> f32 {\n  return %x : f32\n}\n"
BAD_LINES = ["bad.mlir:2:10: error: use of undeclared SSA value name '%x'", "  return %x : f32", "         ^"]


def torch_mlir_module(text: str):
    """`text` parsed by torch-mlir, as the FX importer hands a module over."""
    from torch_mlir import ir
    from torch_mlir.dialects import torch as torch_dialect

    context = ir.Context()
    torch_dialect.register_dialect(context)
    return ir.Module.parse(text, context)


# --- the command line's bytes ------------------------------------------------------------

@pytest.mark.parametrize(
    "kwargs, flags",
    [
        ({}, []),
        ({"target": "rocmlir"}, ["--target=rocmlir"]),
        ({"backend_legal_ops": []}, ["--backend-legal-ops="]),
        ({"backend_legal_ops": ["aten.convolution_backward"]}, ["--backend-legal-ops=aten.convolution_backward"]),
        ({"conv_form": "generic"}, ["--conv-form=generic"]),
        ({"matmul_tiles": "avx512"}, ["--matmul-tiles=avx512"]),
        ({"torch_boundary": True}, ["--torch-boundary"]),
    ],
)
@pytest.mark.parametrize("path", [SMALL, DYNAMIC], ids=lambda p: p.name)
def test_lower_prints_the_cli_bytes(path, kwargs, flags):
    assert api.lower(path.read_text(), **kwargs).encode() == ok(convopt("--lower-conv-bwd", *flags, path))


@pytest.mark.parametrize(
    "kwargs, flags",
    [({}, []), ({"target": "rocmlir"}, ["--target=rocmlir"]), ({"backend_legal_ops": "aten.convolution_backward"}, ["--backend-legal-ops=aten.convolution_backward"])],
)
def test_decompose_prints_the_cli_bytes(kwargs, flags):
    assert api.decompose(SMALL.read_text(), **kwargs).encode() == ok(convopt("--decompose-conv-bwd", *flags, SMALL))


def test_bytes_input_equals_text_input():
    assert api.lower(SMALL.read_bytes()) == api.lower(SMALL.read_text())


# --- errors ------------------------------------------------------------------------------

def test_error_has_the_cli_lines(tmp_path):
    with pytest.raises(api.ConvoptError) as info:
        api.lower(BAD, name="bad.mlir")
    e = info.value
    assert e.diagnostics == BAD_LINES
    assert str(e) == "\n".join(BAD_LINES)
    assert isinstance(e.diagnostic, Diagnostic) and e.diagnostic.message == "use of undeclared SSA value name '%x'"
    (tmp_path / "bad.mlir").write_text(BAD)
    proc = convopt("--lower-conv-bwd", "bad.mlir", cwd=tmp_path)
    assert proc.returncode == 1 and proc.stdout == b""
    assert proc.stderr.decode().splitlines() == e.diagnostics


def test_error_of_a_lowering_has_the_cli_lines(tmp_path):
    text = DYNAMIC.read_text().replace("!torch.vtensor<[8,4,3,3],f32>", "!torch.vtensor<[8,4,3,3],si64>")
    (tmp_path / "int.mlir").write_text(text)
    proc = convopt("--lower-conv-bwd", "int.mlir", cwd=tmp_path)
    assert proc.returncode == 1
    with pytest.raises(api.ConvoptError) as info:
        api.lower(text, name="int.mlir")
    assert info.value.diagnostics == proc.stderr.decode().splitlines()
    assert info.value.diagnostics[0].startswith("int.mlir:")


def test_empty_input_is_an_empty_module():
    assert api.lower("") == api.lower("// no ops\n") == "module {\n}\n\n"


def test_default_name():
    with pytest.raises(api.ConvoptError) as info:
        api.lower("func.func @f() {\n  %0 = arith.addff\n}\n")
    assert info.value.diagnostics[0] == (
        "<input>:2:8: error: unregistered operation 'arith.addff' found in dialect ('arith') that does not allow unknown operations; did you mean 'arith.addf'?"
    )


def test_invalid_utf8_is_a_located_error():
    with pytest.raises(api.ConvoptError) as info:
        api.lower(b'func.func @f() {\n  %0 = torch.constant.str "\xff"\n  return\n}\n', name="u.mlir")
    assert info.value.diagnostics[0] == "u.mlir:2:28: error: invalid UTF-8 byte 0xFF in input"


def test_an_internal_error_is_still_one_diagnostic():
    # ConvoptError raised inside convopt keeps its single-diagnostic form
    e = api.ConvoptError(Diagnostic("error", "boom"))
    assert str(e) == "boom" and e.diagnostics == ["<unknown>:0:0: error: boom"]
    with pytest.raises(ValueError):
        api.ConvoptError()


# --- options -----------------------------------------------------------------------------

def test_backend_legal_ops_decide_direct_or_decomposed():
    text = SMALL.read_text()
    kept = api.decompose(text, backend_legal_ops=["aten.convolution_backward"])
    assert "torch.aten.convolution_backward" in kept and "torch.aten.convolution " not in kept
    decomposed = api.decompose(text)
    assert "torch.aten.convolution_backward" not in decomposed and "torch.aten.convolution " in decomposed
    assert api.decompose(text, backend_legal_ops="aten.convolution_backward, ") == kept  # a string is the CLI's list
    assert api.decompose(text, target="linalg") == kept  # linalg takes every op
    # lowering: the target's list (direct) versus none (through the decomposition)
    assert api.lower(text, backend_legal_ops=[]) != api.lower(text)
    assert api.lower(text, backend_legal_ops=("aten.convolution_backward",)) == api.lower(text)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: api.lower(BAD, target="gpu"), "target must be one of linalg, rocmlir, not 'gpu'"),
        (lambda: api.lower(BAD, conv_form="fft"), f"conv_form must be one of {', '.join(forms.names())}, not 'fft'"),
        (lambda: api.lower(BAD, matmul_tiles="amx"), "matmul_tiles must be one of none, avx512, host, not 'amx'"),
        (lambda: api.decompose(BAD, backend_legal_ops=["aten.conv lution"]), "'aten.conv lution' is not a torch op name"),
        (lambda: api.lower(BAD, backend_legal_ops=["a}b"]), "'a}b' is not a torch op name"),
    ],
)
def test_bad_options_raise_value_error(call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()


def test_other_inputs_are_a_type_error():
    with pytest.raises(TypeError, match="expected module text"):
        api.lower(42)


# --- torch_mlir modules ------------------------------------------------------------------

def test_torch_mlir_module_input():
    module = torch_mlir_module(DYNAMIC.read_text())
    before = str(module)
    assert api.lower(module) == api.lower(before)
    assert api.lower(module.operation) == api.lower(before)
    assert str(module) == before  # not modified


def test_torch_mlir_stages_equal_the_cli():
    text = RESNET.read_text()
    out = api.lower(text, torch_mlir_stages=True)
    assert out.encode() == ok(convopt("--lower-conv-bwd", "--torch-mlir-stages", RESNET))
    assert "torch." not in out and "linalg.generic" in out
    module = torch_mlir_module(text)
    before = str(module)
    assert api.lower(module, torch_mlir_stages=True) == out
    assert str(module) == before  # torch-mlir's passes ran on a copy


def test_torch_mlir_stages_on_symbolic_shapes():
    out = api.lower(DYNAMIC.read_text(), torch_mlir_stages=True)
    assert "torch" not in out and "tensor<?x4x8x8xf32>" in out


def test_torch_mlir_stages_errors_are_diagnostics(tmp_path):
    # convopt's own output given to --torch-mlir-stages: torch-mlir's frontend
    # refuses its arith op; the errors are located in the input, convopt's
    # saying what to do first (before torch-mlir's dump of the function)
    lowered = api.lower(RESNET.read_text())
    with pytest.raises(api.ConvoptError) as info:
        api.lower(lowered, torch_mlir_stages=True, name="lowered.mlir")
    lines = info.value.diagnostics
    line, col = next((i, t.index("arith.constant") + 1) for i, t in enumerate(lowered.splitlines(), 1) if "arith.constant" in t)
    assert lines[0] == f"lowered.mlir:{line}:{col}: error: " + NOT_A_RAW_IMPORT.format(op="arith.constant")
    assert lines[3] == f"lowered.mlir:{line}:{col}: error: found an op that was marked as backend illegal"
    (tmp_path / "lowered.mlir").write_text(lowered)
    proc = convopt("--lower-conv-bwd", "--torch-mlir-stages", "lowered.mlir", "-o", "out.mlir", cwd=tmp_path)
    assert proc.returncode == 1 and not (tmp_path / "out.mlir").exists()
    assert proc.stderr.decode().splitlines() == lines


def test_the_hint_comes_first_with_any_frontend_error():
    # fully lowered: torch-mlir first refuses the builtin function types
    with pytest.raises(api.ConvoptError) as info:
        api.lower(api.lower(SMALL.read_text()), torch_mlir_stages=True, name="lowered.mlir")
    lines = info.value.diagnostics
    assert NOT_A_RAW_IMPORT.format(op="arith.constant") in lines[0]
    assert re.match(r"lowered\.mlir:\d+:3: error: unsupported by backend contract: type 'tensor<", lines[3]), lines[3]  # the line: where the form choice puts it
    assert sum(NOT_A_RAW_IMPORT.format(op="arith.constant") in t for t in lines) == 1


def test_a_raw_import_gets_no_note():
    text = RESNET.read_text().replace("torch.aten.relu %", "torch.aten.no_such_op %", 1)
    with pytest.raises(api.ConvoptError) as info:
        api.lower(text, torch_mlir_stages=True, name="raw.mlir")
    assert info.value.diagnostics[0].startswith("raw.mlir:")
    assert not any("raw FX import" in t for t in info.value.diagnostics)


def test_torch_mlir_parse_errors_are_located():
    # torch-mlir's parser and message, convopt's rendering
    with pytest.raises(api.ConvoptError) as info:
        api.lower(BAD, torch_mlir_stages=True, name="bad.mlir")
    assert info.value.diagnostics == ["bad.mlir:2:10: error: use of undeclared SSA value name", "  return %x : f32", "         ^"]


def test_convopt_errors_between_the_stages_point_into_the_input():
    text = DYNAMIC.read_text().replace("!torch.vtensor<[8,4,3,3],f32>", "!torch.vtensor<[8,4,3,3],f64>")
    line, col = next((i, t.index("torch.aten.convolution_backward") + 1) for i, t in enumerate(text.splitlines(), 1) if "torch.aten.convolution_backward" in t)
    with pytest.raises(api.ConvoptError) as info:
        api.lower(text, torch_mlir_stages=True, name="mixed.mlir")
    lines = info.value.diagnostics
    assert lines[0] == f"mixed.mlir:{line}:{col}: error: 'torch.aten.convolution_backward' op expects input and weight of the same element type, got f32 and f64"
    assert lines[1] == text.splitlines()[line - 1]


# --- without torch_mlir, and import cost -------------------------------------------------

def test_torch_mlir_stages_without_torch_mlir(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch_mlir", None)  # `import torch_mlir` raises ModuleNotFoundError
    with pytest.raises(api.ConvoptError) as info:
        api.lower(SMALL.read_text(), torch_mlir_stages=True)
    assert info.value.diagnostics == [f"convopt: error: {MISSING}"]
    assert api.lower(SMALL.read_text())  # everything else works without it


def test_cli_without_torch_mlir(tmp_path):
    hide = "import sys; sys.modules['torch_mlir'] = None; from convopt.cli import entry; sys.argv[0] = 'convopt'; entry()"
    out = tmp_path / "out.mlir"
    proc = subprocess.run([sys.executable, "-c", hide, "--lower-conv-bwd", "--torch-mlir-stages", str(SMALL), "-o", str(out)], capture_output=True, cwd=REPO, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr.decode() == "convopt: error: --torch-mlir-stages needs the torch_mlir package (pip install 'convopt[torch-mlir]')\n"
    assert not out.exists()
    proc = subprocess.run([sys.executable, "-c", hide, "--lower-conv-bwd", str(SMALL)], capture_output=True, cwd=REPO, timeout=120)
    assert proc.returncode == 0 and proc.stdout == ok(convopt("--lower-conv-bwd", SMALL))


def test_import_convopt_is_cheap():
    code = "import sys, convopt; print(sorted(m.split('.')[0] for m in sys.modules if m.split('.')[0] in ('convopt', 'click', 'lark', 'numpy', 'torch', 'torch_mlir')))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert proc.stdout.strip() == "['convopt']", proc.stderr
    code = "import sys, convopt; convopt.lower; print(sorted({m.split('.')[0] for m in sys.modules} & {'click', 'numpy', 'torch', 'torch_mlir'}))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert proc.stdout.strip() == "[]", proc.stderr


def test_api_names():
    assert {"lower", "decompose", "ConvoptError"} <= set(dir(api))
    with pytest.raises(AttributeError):
        api.no_such_name  # noqa: B018


def test_the_driver_entry_points_the_e2e_harness_uses():
    # test/e2e/harness.py builds pipelines with convopt.cli.flags_pipeline
    # and runs convopt.driver.process on one buffer
    from convopt import cli
    from convopt.diagnostics import DiagnosticEngine, SourceFile
    from convopt.driver import Options, process

    engine = DiagnosticEngine()
    pipeline = cli.flags_pipeline(["--lower-conv-bwd"])
    assert process(SourceFile("<e2e>", SMALL.read_text()), Options(pipeline=pipeline), engine) == api.lower(SMALL.read_text())
    assert engine.diagnostics == []
