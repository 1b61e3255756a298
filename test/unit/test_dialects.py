"""The op definitions (convopt/dialects): registry, per-op hooks, and the
printer's rule that an op prints in its custom form only when it fits its
definition (otherwise generically, and the text reads back the same)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from convopt.diagnostics import SourceFile
from convopt.dialects import _MODULES, is_pure, lookup
from convopt.parser import parse
from convopt.printer import print_module
from convopt.verifier import verify

DIALECTS = Path(__file__).resolve().parents[2] / "convopt" / "dialects"


def roundtrip(text: str) -> str:
    module = parse(SourceFile("t.mlir", text)).module
    verify(module)
    return print_module(module)


@pytest.mark.parametrize("module", sorted(set(_MODULES.values())))
def test_definitions_are_registered_under_their_names(module):
    dialect = importlib.import_module(f"convopt.dialects.{module}")
    for name, d in dialect.OPS.items():
        assert d.name == name
        assert _MODULES[name.partition(".")[0]] == module, name
        assert lookup(name) is d


def test_lookup():
    assert lookup("linalg.conv_2d_nchw_fchw").segments == ("inputs", "outputs")  # every structured op
    assert lookup("torch.aten.convolution_backward").print is not None  # torch's uniform form
    assert lookup("foo.bar") is None and lookup("scf.for") is None
    assert lookup("tensor.empty") is lookup("tensor.empty")


@pytest.mark.parametrize(
    "name, pure",
    [
        ("arith.addf", True), ("arith.anything", True), ("math.exp", True), ("tensor.empty", True), ("tensor.yield", False),
        ("linalg.generic", True), ("linalg.yield", False), ("torch.constant.int", True), ("torch.constant.foo", True),
        ("torch.prim.ListConstruct", True), ("torch.aten.size.int", True), ("torch.aten.relu", False), ("torch_c.to_builtin_tensor", True),
        ("func.return", False), ("func.func", False), ("builtin.module", False), ("scf.yield", False), ("t.op", False),
    ],
)
def test_purity(name, pure):
    assert is_pure(name) is pure


def test_terminators_and_isolation():
    assert {n for n in ("func.return", "linalg.yield", "tensor.yield", "scf.yield") if lookup(n).terminator} == {"func.return", "linalg.yield", "tensor.yield", "scf.yield"}
    assert lookup("func.func").isolated and lookup("builtin.module").isolated and not lookup("linalg.generic").isolated


FN = "func.func @f(%a: i32, %b: i32) -> i1 {{\n  {op}\n  return %0 : i1\n}}\n"


@pytest.mark.parametrize("predicate, custom", [(2, True), (9, True), (10, False), (42, False)])
def test_op_that_does_not_fit_its_definition_prints_generically(predicate, custom):
    text = FN.format(op=f'%0 = "arith.cmpi"(%a, %b) {{predicate = {predicate} : i64}} : (i32, i32) -> i1')
    out = roundtrip(text)
    assert ("arith.cmpi " in out) is custom
    assert ('"arith.cmpi"' in out) is not custom
    assert roundtrip(out) == out


def test_slice_without_segment_sizes_prints_generically():
    text = (
        "func.func @f(%a: tensor<4xf32>) -> tensor<3xf32> {\n"
        '  %0 = "tensor.extract_slice"(%a) {static_offsets = array<i64: 0>, static_sizes = array<i64: 3>, static_strides = array<i64: 1>}'
        " : (tensor<4xf32>) -> tensor<3xf32>\n  return %0 : tensor<3xf32>\n}\n"
    )
    out = roundtrip(text)
    assert '"tensor.extract_slice"(%arg0)' in out
    assert roundtrip(out) == out


def test_structured_op_with_wrong_segment_count_prints_generically():
    text = (
        "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
        '  %0 = "linalg.exp"(%a, %a) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n'
        "  return %0 : tensor<4xf32>\n}\n"
    )
    out = roundtrip(text)
    assert '"linalg.exp"(%arg0, %arg0) <{operandSegmentSizes = array<i32: 1, 0, 1>}>' in out
    assert roundtrip(out) == out


def test_custom_forms_round_trip():
    text = (
        "func.func @f(%arg0: tensor<?x8xf32>, %arg1: index) -> tensor<?x8xf32> {\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %dim = tensor.dim %arg0, %c0 : tensor<?x8xf32>\n"
        "  %0 = tensor.empty(%dim) : tensor<?x8xf32>\n"
        "  %extracted_slice = tensor.extract_slice %0[%arg1, 0] [%dim, 8] [1, 1] : tensor<?x8xf32> to tensor<?x8xf32>\n"
        "  return %extracted_slice : tensor<?x8xf32>\n}\n"
    )
    assert roundtrip(text) == "module {\n" + "".join("  " + line + "\n" for line in text.splitlines()) + "}\n\n"


def _runtime_imports(path: Path) -> set[str]:
    """Modules imported outside `if TYPE_CHECKING:` blocks."""
    tree = ast.parse(path.read_text())
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and getattr(child.test, "id", None) == "TYPE_CHECKING":
                continue
            if isinstance(child, ast.ImportFrom) and child.level:
                found.add("." * child.level + (child.module or ""))
            visit(child)

    visit(tree)
    return found


@pytest.mark.parametrize("path", sorted(DIALECTS.glob("*.py")), ids=lambda p: p.name)
def test_definitions_depend_only_on_the_ir(path):
    """No cycle: the parser, printer and verifier import the definitions,
    never the other way round (their types are TYPE_CHECKING-only)."""
    for module in _runtime_imports(path):
        assert not module.startswith(("..parser", "..printer", "..verifier", "..ops", "..passes", "..lowering")), (path.name, module)


# --- definitions that build, name and describe their ops -------------------------------------------

MATMULL = (
    "func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %c: tensor<4x5xf32>) -> tensor<4x5xf32> {\n"
    "  %0 = linalg.matmull ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>\n"
    "  return %0 : tensor<4x5xf32>\n}\n"
)


def test_unregistered_linalg_op_is_refused_and_prints_generically():
    """A misspelt linalg op (`matmull`) is refused where it is written; a
    linalg op MLIR has and convopt does not model (`linalg.softmax`) parses,
    does not verify, and printed unverified it takes the generic form."""
    from convopt.diagnostics import ConvoptError
    from convopt.dialects import VerifyError

    with pytest.raises(ConvoptError, match="unregistered operation 'linalg.matmull' found in dialect \\('linalg'\\).*did you mean 'linalg.matmul'"):
        parse(SourceFile("t.mlir", MATMULL))
    module = parse(SourceFile("t.mlir", MATMULL.replace("matmull", "softmax"))).module
    with pytest.raises(VerifyError, match="unsupported: convopt does not model the 'linalg.softmax' op"):
        verify(module)
    assert '"linalg.softmax"(%arg0, %arg1, %arg2) <{operandSegmentSizes = array<i32: 2, 1>}>' in print_module(module)
    assert roundtrip(MATMULL.replace("matmull", "matmul")).count("linalg.matmul ins(") == 1


def test_named_op_maps_live_in_the_definition():
    """C[m, n] += A[m, k] * B[k, n]; O[n, f, oh, ow] += I[n, c, 2*oh + kh, 2*ow + kw] * W[f, c, kh, kw]."""
    from convopt.dialects import linalg
    from convopt.ir.attributes import DenseAttr
    from convopt.ir.core import Operation
    from convopt.ir.types import VectorType, i64

    mm = Operation(linalg.MATMUL)
    assert [str(m) for m in linalg.indexing_maps(mm)] == ["(d0, d1, d2) -> (d0, d2)", "(d0, d1, d2) -> (d2, d1)", "(d0, d1, d2) -> (d0, d1)"]
    conv = Operation(linalg.conv_name(2, "_nchw_fchw"), attributes={"strides": DenseAttr("2", VectorType((2,), i64))})
    maps = [str(m) for m in linalg.indexing_maps(conv)]
    assert maps == [
        "(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 * 2 + d5, d3 * 2 + d6)",
        "(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)",
        "(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)",
    ]
    assert linalg.indexing_maps(Operation(linalg.FILL)) is None
    with pytest.raises(AssertionError, match="no linalg convolution"):
        linalg.conv_name(2, "_nchw_fchwx")


def test_builders_name_operands_and_segments():
    """tensor.extract_slice(b, src, offsets, sizes, strides, type): mixed
    static/dynamic lists, segments derived; accessors read them by name."""
    from convopt.dialects import OpDef, lookup, tensor, torch
    from convopt.ir import Block, Builder
    from convopt.ir.attributes import DYNAMIC_INDEX
    from convopt.ir.types import RankedTensorType, f32, index

    block = Block([RankedTensorType((None, 8), f32), index])
    src, i = block.args
    b = Builder.at_end(block)
    part = tensor.extract_slice(b, src, [i, 0], [2, 8], [1, 1], RankedTensorType((2, 8), f32))
    op = part.owner
    assert op.name == tensor.EXTRACT_SLICE and op.properties["operandSegmentSizes"].values == (1, 1, 0, 0)
    assert op.attributes["static_offsets"].values == (DYNAMIC_INDEX, 0)
    d: OpDef = lookup(tensor.EXTRACT_SLICE)
    assert d.group(op, "source") == [src] and d.group(op, "offsets") == [i] and d.group(op, "sizes") == []
    assert d.fits_custom_form(op)  # printed `tensor.extract_slice %src[%i, 0] [2, 8] [1, 1]`
    sl = lookup(torch.SLICE_TENSOR)
    assert sl.operand_names == ("self", "dim", "start", "end", "step")

