"""--mlir-print-op-generic: every op in MLIR's generic form, named linalg ops
with the bodies their names imply, inherent attributes in `<{...}>`.  The
check is MLIR's own: iree-opt reads the generic text back to the module it
reads from convopt's custom-form text (its prints of the two are equal),
torch-mlir-opt parses it, and convopt reads it back to the same IR (its
generic print of it is the same text)."""

from __future__ import annotations

import re

import pytest
from unit_helpers import REPO, ok, run_tool, tool, torch_mlir_opt

from convopt.diagnostics import SourceFile
from convopt.parser import parse
from convopt.printer import print_module

CASES = [
    (["--lower-conv-bwd", "--conv-form=named", "--backend-legal-ops="], "test/inputs/conv1d_conv3d.mlir"),
    (["--lower-conv-bwd", "--torch-boundary"], "test/inputs/dynamic_batch.mlir"),
    (["--lower-conv-bwd", "--matmul-tiles=avx512", "--split-input-file"], "test/lit/convopt-conv-bwd-to-linalg/matmul-tiles.mlir"),
    (["--lower-pool-bwd", "--split-input-file"], "test/lit/convopt-pool-bwd-to-linalg/pool.mlir"),
    ([], "test/lit/roundtrip/linalg-stage-output.mlir"),
    (["--lower-conv-bwd", "--lower-pool-bwd", "--lower-forward-convs"], "test/models/densenet_small.mlir"),
]

OP_LINE = re.compile(r'^\s*(?:%[^=]+= )?([a-z_]+\.[a-z_0-9.]+|module|func\.func|return)\b')
"""A line that starts an op in a custom form (unquoted name)."""


def convopt_text(*args: str) -> str:
    return ok(run_tool([tool("convopt"), *args])).decode()


def iree_opt(text: str) -> str:
    return ok(run_tool([tool("iree-opt"), "-"], stdin=text.encode())).decode()


@pytest.mark.parametrize(("args", "path"), CASES, ids=[p.rsplit("/", 1)[1] for _, p in CASES])
def test_iree_opt_reads_the_generic_form_back_to_the_same_module(args: list[str], path: str) -> None:
    split = "--split-input-file" in args
    custom = convopt_text(*args, str(REPO / path))
    generic = convopt_text(*args, "--mlir-print-op-generic", str(REPO / path))
    chunks = list(zip(custom.split("// -----"), generic.split("// -----"))) if split else [(custom, generic)]
    for c, g in chunks:
        assert "linalg." in c or "func.func" in c
        assert not [line for line in g.splitlines() if OP_LINE.match(line)], "an op printed in a custom form"
        assert iree_opt(g) == iree_opt(c)
        ok(torch_mlir_opt("-", stdin=g.encode()))
        # convopt reads its generic print back to the same IR
        assert convopt_text_stdin(g, "--mlir-print-op-generic").strip() == g.strip()


def convopt_text_stdin(text: str, *args: str) -> str:
    return ok(run_tool([tool("convopt"), *args, "-"], stdin=text.encode())).decode()


NAMED = """func.func @f(%a: tensor<4x8xbf16>, %b: tensor<8x16xbf16>, %c: tensor<4x16xf32>, %x: tensor<2x3x9xi8>, %o: tensor<2x3x7xi32>, %t: tensor<16x4xf32>) -> (tensor<4x16xf32>, tensor<2x3x7xi32>, tensor<16x4xf32>) {
  %m = linalg.matmul ins(%a, %b : tensor<4x8xbf16>, tensor<8x16xbf16>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  %k = tensor.empty() : tensor<3xi8>
  %p = linalg.pooling_ncw_sum {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%x, %k : tensor<2x3x9xi8>, tensor<3xi8>) outs(%o : tensor<2x3x7xi32>) -> tensor<2x3x7xi32>
  %tr = linalg.transpose ins(%m : tensor<4x16xf32>) outs(%t : tensor<16x4xf32>) permutation = [1, 0]
  return %m, %p, %tr : tensor<4x16xf32>, tensor<2x3x7xi32>, tensor<16x4xf32>
}
"""


def test_named_ops_spell_out_their_bodies() -> None:
    """The body of a bf16 matmul into f32 extends both inputs, multiplies and
    adds to the output; an i8 sum pool into i32 extends and adds; transpose
    yields its input, its permutation an i64 array, without operand segments."""
    generic = print_module(parse(SourceFile('t.mlir', NAMED)).module, generic=True)
    matmul = generic[generic.index('"linalg.matmul"'):]
    assert re.search(r'<\{operandSegmentSizes = array<i32: 2, 1>, indexing_maps = \[#map, #map1, #map2\]\}> \(\{\n'
                     r'\s+\^bb0\(%arg6: bf16, %arg7: bf16, %arg8: f32\):\n'
                     r'\s+%(\d+) = "arith.extf"\(%arg6\) : \(bf16\) -> f32\n'
                     r'\s+%(\d+) = "arith.extf"\(%arg7\) : \(bf16\) -> f32\n'
                     r'\s+%(\d+) = "arith.mulf"\(%\1, %\2\) : \(f32, f32\) -> f32\n'
                     r'\s+%(\d+) = "arith.addf"\(%arg8, %\3\) : \(f32, f32\) -> f32\n'
                     r'\s+"linalg.yield"\(%\4\) : \(f32\) -> \(\)\n', matmul), matmul
    pool = generic[generic.index('"linalg.pooling_ncw_sum"'):]
    assert re.search(r'"arith.extsi"\(%arg6\) : \(i8\) -> i32\n\s+%(\d+) = "arith.addi"\(%arg8, %\d+\)', pool), pool
    transpose = generic[generic.index('"linalg.transpose"'):]
    assert transpose.startswith('"linalg.transpose"(%0, %arg5) <{permutation = array<i64: 1, 0>}> ({\n'), transpose
    assert "#map = affine_map<(d0, d1, d2) -> (d0, d2)>" in generic
    assert iree_opt(generic) == iree_opt(NAMED)


def test_mlir_generic_output_reads_as_convopt_custom_form() -> None:
    """iree-opt's own generic print of named ops (memoized maps, default
    matmul maps, bodies with fastmath and overflow properties) reads back to
    convopt's custom-form IR: the same text as convopt's print of the input.
    (Outside named-op bodies, MLIR's default-valued properties such as
    `fastmath = #arith.fastmath<none>` stay attributes in convopt.)"""
    for chunk in [NAMED]:
        custom = convopt_text_stdin(chunk)
        mlir_generic = ok(run_tool([tool("iree-opt"), "--mlir-print-op-generic", "-"], stdin=custom.encode())).decode()
        assert convopt_text_stdin(mlir_generic) == convopt_text_stdin(iree_opt(custom))


def test_a_named_op_with_another_body_is_an_error() -> None:
    generic = print_module(parse(SourceFile('t.mlir', NAMED)).module, generic=True).replace('"arith.mulf"', '"arith.addf"', 1)
    proc = run_tool([tool("convopt"), "-"], stdin=generic.encode())
    assert proc.returncode == 1
    assert b"'linalg.matmul' op has a body other than the one its name implies; write it as a 'linalg.generic'" in proc.stderr
