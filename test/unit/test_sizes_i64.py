"""Sizes at the edges of i64 (issue 41, fuzz-text #2682 and #1835).

A torch shape's `-1` is torch-mlir's unknown size (printed `?`), any other
negative size a located error as torch-mlir's; every static size, product
and offset convopt computes fits i64 or is a located `unsupported:` error
(conv_spec.check_i64 up front, the tensor ops' verifiers behind it); and
`registry.cheapest` never sees an empty set.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from unit_helpers import torch_mlir_opt

import convopt
from convopt.lowering.forms import registry
from convopt.lowering.kernel.cost import Work
from convopt.lowering.patterns import conv_spec

REPO = Path(__file__).resolve().parents[2]
I64_MAX = 2**63 - 1


def vt(shape, dtype: str = "f32") -> str:
    return "!torch.vtensor<[" + ",".join(map(str, shape)) + "]," + dtype + ">"


def conv_bwd(go, x, w, stride: int = 1, padding: int = 0, dilation: int = 1) -> str:
    """One 2-D convolution_backward (grad_input and grad_weight); the op is on line 15."""
    lists = "\n".join(f"  %l{n} = torch.prim.ListConstruct %{n}, %{n} : (!torch.int, !torch.int) -> !torch.list<int>" for n in "spdo")
    return f"""func.func @main(%go: {vt(go)}, %x: {vt(x)}, %w: {vt(w)}) -> ({vt(x)}, {vt(w)}) {{
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %s = torch.constant.int {stride}
  %p = torch.constant.int {padding}
  %d = torch.constant.int {dilation}
  %o = torch.constant.int 0
{lists}
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %ls, %lp, %ld, %f, %lo, %int1, %mask : {vt(go)}, {vt(x)}, {vt(w)}, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> {vt(x)}, {vt(w)}, !torch.none
  return %r#0, %r#1 : {vt(x)}, {vt(w)}
}}
"""


def pool_bwd(op: str, go, x) -> str:
    """avg_pool2d_backward or max_pool3d_with_indices_backward (the one
    max-pool backward convopt lowers) with kernel and stride 2, padding 0
    (dilation 1), on shapes of rank 4 or 5; the op is on line 11."""
    nd = len(x) - 2
    ints = ", ".join(["!torch.int"] * nd)
    lst = lambda v: f"torch.prim.ListConstruct {', '.join([v] * nd)} : ({ints}) -> !torch.list<int>"  # noqa: E731
    if op == "avg":
        name, args, types = f"torch.aten.avg_pool{nd}d_backward", "%go, %x, %k, %k, %z, %f, %t, %none", "!torch.bool, !torch.bool, !torch.none"
    else:
        name, args, types = f"torch.aten.max_pool{nd}d_with_indices_backward", "%go, %x, %k, %k, %z, %one, %f, %idx", f"!torch.list<int>, !torch.bool, {vt(go, 'si64')}"
    return f"""func.func @main(%go: {vt(go)}, %x: {vt(x)}, %idx: {vt(go, 'si64')}) -> {vt(x)} {{
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %k = {lst("%int2")}
  %z = {lst("%int0")}
  %one = {lst("%int1")}
  %r = {name} {args} : {vt(go)}, {vt(x)}, !torch.list<int>, !torch.list<int>, !torch.list<int>, {types} -> {vt(x)}
  return %r : {vt(x)}
}}
"""


POOLS = {"avg": ([2, 4, 2, 2], [2, 4, 4, 4]), "max": ([2, 4, 1, 2, 2], [2, 4, 2, 4, 4])}
"""(grad_output, input) shapes of each pool_bwd text that lowers."""


def error(text: str, **kw) -> str:
    with pytest.raises(convopt.ConvoptError) as e:
        convopt.lower(text, name="in.mlir", **kw)
    return e.value.diagnostics[0]


# --- -1 is an unknown size ----------------------------------------------------------------------

MINUS_ONE = """func.func @f(%arg0: !torch.vtensor<[-1,4],f32>) -> !torch.vtensor<[-1, 4],f32> {
  %0 = torch.aten.relu %arg0 : !torch.vtensor<[-1,4],f32> -> !torch.vtensor<[?,4],f32>
  return %0 : !torch.vtensor<[?,4],f32>
}
"""


def test_minus_one_prints_as_torch_mlir_prints_it():
    """`[-1,4]` is `[?,4]`: convopt's round trip is torch-mlir-opt's, byte for byte."""
    from convopt.driver import Options, run_text

    ours = run_text(MINUS_ONE, Options(), "in.mlir")
    assert "-1" not in ours and "!torch.vtensor<[?,4],f32>" in ours
    tm = torch_mlir_opt(stdin=MINUS_ONE.encode())
    assert tm.returncode == 0, tm.stderr
    assert ours == tm.stdout.decode()


@pytest.mark.parametrize("spelling", ["!torch.vtensor<[-2,4],f32>", "!torch.vtensor<[ -2 , 4 ],f32>", "!torch.tensor<[-2,4],f32>"])
def test_other_negative_sizes_are_torch_mlirs_error(spelling):
    text = f"func.func @f(%arg0: {spelling}) {{\n  return\n}}\n"
    tm = torch_mlir_opt(stdin=text.encode())
    expected = tm.stderr.decode().splitlines()[0].replace("<stdin>", "in.mlir")
    assert expected.endswith("error: invalid size -2 for !torch.tensor type")
    with pytest.raises(convopt.ConvoptError) as e:
        convopt.lower(text, name="in.mlir")
    assert e.value.diagnostics[0] == expected


def test_fuzz_2682_dynamic_batch_written_minus_one():
    """dynamic_batch.mlir with its batch written -1 (fuzz-text seed 1 #2682):
    every form's work was negative and registry.cheapest died on an empty
    min(); now it lowers as the `?` file does."""
    text = (REPO / "test" / "inputs" / "dynamic_batch.mlir").read_text()
    minus = text.replace("[?,4,8,8]", "[-1,4,8,8]")
    assert minus != text
    assert convopt.lower(minus, target="rocmlir") == convopt.lower(text, target="rocmlir")


# --- i64 ----------------------------------------------------------------------------------------

def test_fuzz_1835_batch_of_i64_max_is_located():
    """A batch of 2^63-1 (fuzz-text seed 1 #1835) made a collapse_shape of
    2^63-1 * 32 rows, printed and not parseable; now a located error."""
    text = conv_bwd([I64_MAX, 4, 2, 2], [I64_MAX, 4, 2, 2], [4, 4, 1, 1])
    for kw in ({}, {"backend_legal_ops": []}, {"conv_form": "im2col"}):
        assert error(text, **kw) == f"in.mlir:15:10: error: unsupported: a tensor of {I64_MAX * 16} elements ('{vt([I64_MAX, 4, 2, 2])}'), over i64 (2^63-1)"


def test_the_verifier_catches_what_the_checks_miss(monkeypatch):
    """Behind conv_spec.check_i64, the tensor ops' verifiers: with the check
    off, the collapse_shape's merged size is the located error, at the op
    it was lowered from."""
    monkeypatch.setattr(conv_spec, "check_i64", lambda *a: None)
    text = conv_bwd([I64_MAX, 4, 2, 2], [I64_MAX, 4, 2, 2], [4, 4, 1, 1])
    message = error(text, conv_form="im2col")
    assert message.startswith("in.mlir:15:10: error: unsupported: static size ") and "over i64 (2^63-1)" in message, message


def test_offsets_over_i64_are_located():
    """Padding and dilation near 2^62: the window's offsets do not fit i64."""
    text = conv_bwd([1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 3, 3], padding=2**62, dilation=2**62)
    assert "error: unsupported: sizes and offsets up to" in error(text)


@pytest.mark.parametrize("op", sorted(POOLS))
def test_pooling_sizes_over_i64_are_located(op):
    big = 2**62
    go, x = ([big, *shape[1:]] for shape in POOLS[op])
    assert error(pool_bwd(op, go, x), pool_bwd=True) == f"in.mlir:11:8: error: unsupported: a tensor of {big * 64 * (2 if op == 'max' else 1)} elements ('{vt(x)}'), over i64 (2^63-1)"


@pytest.mark.parametrize("op", sorted(POOLS))
def test_pooling_within_i64_lowers(op):
    """The same texts with a small batch lower (the checks reject only sizes over i64)."""
    out = convopt.lower(pool_bwd(op, *POOLS[op]), pool_bwd=True)
    assert "linalg." in out and "_pool" not in out


def test_index_constant_over_i64_is_mlirs_error():
    text = "func.func @f() -> index {\n  %0 = arith.constant 9223372036854775808 : index\n  return %0 : index\n}\n"
    assert error(text).startswith("in.mlir:2:23: error: integer constant out of range for attribute")


# --- registry.cheapest never sees an empty set --------------------------------------------------

def test_no_variant_competes_is_a_located_error():
    """A form whose only variant's work is negative (what a static -1 made
    of every form): `cheapest` offers nothing; the kernel gets a located
    error, not `min() arg is an empty sequence`."""
    negative = registry.FormDef(
        name="negative", kinds=registry.form("generic").kinds, fits=lambda req: True, candidate=lambda req: False,
        variants=lambda req: [registry.Variant("negative", req, Work(generic=-1.0))], emit=registry.form("generic").emit, priority=900,
    )
    registry.register(negative)
    try:
        text = conv_bwd([2, 4, 2, 2], [2, 4, 2, 2], [4, 4, 1, 1])
        message = error(text, conv_form="negative")
        assert message.startswith("in.mlir:15:10: error: unsupported: no form can lower this ") and "negative" in message, message
    finally:
        registry.unregister("negative")


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
