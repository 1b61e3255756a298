"""The reference interpreter (convopt/interp), and the lowering checked with it.

1. Op semantics on tiny hand-written functions (against numpy / PyTorch /
   Python loops), including the errors.
2. convolution_backward configurations of the e2e matrix (test/e2e/harness.py)
   lowered by convopt on the direct and decomposed paths and with forced
   conv forms, interpreted, and compared with PyTorch at the e2e tolerances:
   every kernel, form and piece without a compiler.
3. Brute force over the relation math of convopt/lowering/kernel/relation.py: tap
   ranges, and the pieces of each kernel and strategy covering exactly the
   valid (s, k) pairs (dynamic sizes through the IR they emit, interpreted).
4. `convopt-run`, the command line of the interpreter.
"""

from __future__ import annotations

import functools
import itertools
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from convopt.interp import InterpError, Interpreter, run_text
from convopt.interp import cli as interp_cli

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
import harness  # noqa: E402


def run1(text: str, *args, entry: str = "main") -> list:
    return run_text(text, entry, list(args), name="t.mlir")


def fn(sig: str, results: str, body: str, returned: str) -> str:
    """func.func @main(sig) -> (results) { body; return returned : results }"""
    return f"func.func @main({sig}) -> ({results}) {{\n{body}\n  return {returned} : {results}\n}}\n"


def generic(ins: list[tuple[str, str]], outs: list[tuple[str, str]], maps: list[str], iterators: list[str], body: str, result: str = "%r") -> str:
    """A `linalg.generic` assigning `result`; body uses %a0.. (inputs) and %o0.. (outputs)."""
    names = [f"%a{i}" for i in range(len(ins))] + [f"%o{i}" for i in range(len(outs))]
    elems = [t[len("tensor<"):-1].split("x")[-1] for _, t in ins + outs]
    block_args = ", ".join(f"{n}: {e}" for n, e in zip(names, elems))
    ins_text = f"ins({', '.join(v for v, _ in ins)} : {', '.join(t for _, t in ins)}) " if ins else ""
    outs_text = f"outs({', '.join(v for v, _ in outs)} : {', '.join(t for _, t in outs)})"
    res_types = ", ".join(t for _, t in outs)
    maps_text = ", ".join(f"affine_map<{m}>" for m in maps)
    its = ", ".join(f'"{i}"' for i in iterators)
    return (f"  {result} = linalg.generic {{indexing_maps = [{maps_text}], iterator_types = [{its}]}} {ins_text}{outs_text} {{\n"
            f"  ^bb0({block_args}):\n{body}\n  }} -> {res_types}")


# === 1. op semantics ==================================================================================

def test_float_arith_on_scalars_and_tensors():
    body = """  %s = arith.addf %a, %b : tensor<4xf32>
  %d = arith.subf %s, %b : tensor<4xf32>
  %m = arith.mulf %d, %b : tensor<4xf32>
  %q = arith.divf %m, %b : tensor<4xf32>
  %n = arith.negf %q : tensor<4xf32>
  %mx = arith.maximumf %n, %b : tensor<4xf32>
  %mn = arith.minimumf %n, %b : tensor<4xf32>"""
    text = fn("%a: tensor<4xf32>, %b: tensor<4xf32>", "tensor<4xf32>, tensor<4xf32>, tensor<4xf32>", body, "%n, %mx, %mn")
    a = np.array([1.5, -2.0, 3.0, np.nan], np.float32)
    b = np.array([2.0, 4.0, -1.0, 1.0], np.float32)
    n, mx, mn = run1(text, a, b)
    np.testing.assert_array_equal(n, -a)
    np.testing.assert_array_equal(mx, np.array([2.0, 4.0, -1.0, np.nan], np.float32))  # maximumf propagates NaN
    np.testing.assert_array_equal(mn, np.array([-1.5, 2.0, -3.0, np.nan], np.float32))
    assert n.dtype == np.float32


def test_f16_rounds_each_op_but_extf_does_not():
    body = """  %s = arith.addf %a, %b : f16
  %x = arith.extf %a : f16 to f32
  %y = arith.extf %b : f16 to f32
  %t = arith.addf %x, %y : f32
  %back = arith.truncf %t : f32 to f16"""
    text = fn("%a: f16, %b: f16", "f16, f32, f16", body, "%s, %t, %back")
    s, t, back = run1(text, np.float16(1.0), np.float16(2.0**-11))
    assert s == np.float16(1.0) and s.dtype == np.float16  # 1 + 2^-11 rounds to 1 in f16
    assert t == np.float32(1.0 + 2.0**-11) and t.dtype == np.float32
    assert back == np.float16(1.0)


def test_bf16_arithmetic_rounds_to_bf16():
    import ml_dtypes

    text = fn("%a: bf16, %b: bf16", "bf16", "  %s = arith.mulf %a, %b : bf16", "%s")
    (s,) = run1(text, ml_dtypes.bfloat16(1.0078125), ml_dtypes.bfloat16(1.0078125))  # 1 + 2^-7
    assert s.dtype == ml_dtypes.bfloat16 and float(s) == 1.015625  # 1 + 2^-6 (2^-14 rounded away)


CMPF = {"oeq": (False, True, False), "une": (True, False, True), "olt": (True, False, False), "ult": (True, False, True),
        "oge": (False, True, False), "uge": (False, True, True), "ord": (True, True, False), "uno": (False, False, True)}


@pytest.mark.parametrize("pred", sorted(CMPF))
def test_cmpf_ordered_and_unordered(pred):
    text = fn("%a: tensor<3xf32>, %b: tensor<3xf32>", "tensor<3xi1>", f"  %c = arith.cmpf {pred}, %a, %b : tensor<3xf32>", "%c")
    (c,) = run1(text, np.array([1.0, 2.0, np.nan], np.float32), np.array([2.0, 2.0, 1.0], np.float32))
    assert c.dtype == np.bool_ and tuple(bool(x) for x in c) == CMPF[pred]


def test_cmpi_signed_unsigned_and_select():
    body = """  %lt = arith.cmpi slt, %a, %b : i32
  %ult = arith.cmpi ult, %a, %b : i32
  %s = arith.select %lt, %a, %b : i32"""
    text = fn("%a: i32, %b: i32", "i1, i1, i32", body, "%lt, %ult, %s")
    lt, ult, s = run1(text, -1, 1)
    assert bool(lt) and not bool(ult) and s == -1  # -1 is 0xFFFFFFFF unsigned


@pytest.mark.parametrize("a,b", [(7, 2), (-7, 2), (7, -2), (-7, -2), (6, 3), (-6, 3), (0, 5)])
def test_integer_division_family(a, b):
    body = """  %fd = arith.floordivsi %a, %b : index
  %cd = arith.ceildivsi %a, %b : index
  %d = arith.divsi %a, %b : index
  %r = arith.remsi %a, %b : index
  %mx = arith.maxsi %a, %b : index
  %mn = arith.minsi %a, %b : index"""
    text = fn("%a: index, %b: index", "index, index, index, index, index, index", body, "%fd, %cd, %d, %r, %mx, %mn")
    got = [int(v) for v in run1(text, a, b)]
    trunc = int(a / b)
    assert got == [a // b, -((-a) // b), trunc, a - trunc * b, max(a, b), min(a, b)]


def test_integer_wraps_and_casts():
    body = """  %s = arith.addi %a, %a : i32
  %i = arith.index_cast %a : i32 to index
  %f = arith.sitofp %a : i32 to f32
  %t = arith.fptosi %x : f32 to i32
  %u = arith.extui %small : i8 to i32
  %e = arith.extsi %small : i8 to i32"""
    text = fn("%a: i32, %x: f32, %small: i8", "i32, index, f32, i32, i32, i32", body, "%s, %i, %f, %t, %u, %e")
    s, i, f, t, u, e = run1(text, 2**31 - 1, np.float32(-2.75), -1)
    assert s == -2 and s.dtype == np.int32
    assert i == 2**31 - 1 and i.dtype == np.int64
    assert f == np.float32(2**31 - 1)
    assert t == -2  # toward zero
    assert u == 255 and e == -1


def test_division_by_zero_is_a_located_error():
    text = fn("%a: index, %b: index", "index", "  %d = arith.floordivsi %a, %b : index", "%d")
    with pytest.raises(InterpError) as err:
        run1(text, 1, 0)
    assert "t.mlir:2:8: error: 'arith.floordivsi': division by zero" in str(err.value)


def test_constants_splat_nested_hex_and_blob():
    body = """  %s = arith.constant dense<1.500000e+00> : tensor<2x2xf32>
  %n = arith.constant dense<[[1.0, -2.0], [0x7F800000, 3.0]]> : tensor<2x2xf32>
  %h = arith.constant dense<"0x0000803F00000040"> : tensor<2xf32>
  %i = arith.constant dense<[1, -2, 3]> : tensor<3xi64>
  %b = arith.constant true
  %x = arith.constant 2.500000e-01 : f64"""
    text = fn("", "tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xf32>, tensor<3xi64>, i1, f64", body, "%s, %n, %h, %i, %b, %x")
    s, n, h, i, b, x = run1(text)
    np.testing.assert_array_equal(s, np.full((2, 2), 1.5, np.float32))
    np.testing.assert_array_equal(n, np.array([[1.0, -2.0], [np.inf, 3.0]], np.float32))
    np.testing.assert_array_equal(h, np.array([1.0, 2.0], np.float32))
    np.testing.assert_array_equal(i, np.array([1, -2, 3], np.int64))
    assert bool(b) is True and x == 0.25 and x.dtype == np.float64


def test_unsigned_bitwise_and_i1_ops():
    body = """  %du = arith.divui %a, %b : i8
  %ru = arith.remui %a, %b : i8
  %sr = arith.shrui %a, %c2 : i8
  %ss = arith.shrsi %a, %c2 : i8
  %x = arith.xori %a, %b : i8
  %t = arith.addi %p, %p : i1
  %o = arith.ori %p, %q : i1"""
    text = fn("%a: i8, %b: i8, %c2: i8, %p: i1, %q: i1", "i8, i8, i8, i8, i8, i1, i1", body, "%du, %ru, %sr, %ss, %x, %t, %o")
    du, ru, sr, ss, x, t, o = run1(text, -6, 7, 2, True, False)  # -6 is 250 unsigned
    assert (int(du), int(ru), int(sr), int(ss), int(x)) == (250 // 7, 250 % 7, 250 >> 2, -2, -6 ^ 7)
    assert not bool(t) and bool(o)  # i1 addition wraps: 1 + 1 = 0


def test_math_ops():
    body = """  %s = math.sqrt %a : tensor<3xf32>
  %e = math.exp %a : tensor<3xf32>
  %r = math.round %b : tensor<3xf32>
  %f = math.erf %b : tensor<3xf32>"""
    text = fn("%a: tensor<3xf32>, %b: tensor<3xf32>", "tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>", body, "%s, %e, %r, %f")
    a, b = np.array([1.0, 4.0, 2.0], np.float32), np.array([0.5, -2.5, 1.4], np.float32)
    sq, ex, ro, er = run1(text, a, b)
    np.testing.assert_allclose(sq, np.sqrt(a), rtol=1e-7)
    np.testing.assert_allclose(ex, np.exp(a), rtol=1e-6)
    np.testing.assert_array_equal(ro, [1.0, -3.0, 1.0])  # half away from zero
    import math

    np.testing.assert_allclose(er, [math.erf(v) for v in b], rtol=1e-6)


# --- tensor ---------------------------------------------------------------------------------------

def test_extract_slice_strided_dynamic_and_insert_slice():
    body = """  %c1 = arith.constant 1 : index
  %s = tensor.extract_slice %t[%c1, 0] [2, %n] [2, 3] : tensor<5x7xf32> to tensor<2x?xf32>
  %z = arith.constant dense<0.000000e+00> : tensor<5x7xf32>
  %i = tensor.insert_slice %s into %z[0, %c1] [2, %n] [3, 2] : tensor<2x?xf32> into tensor<5x7xf32>"""
    text = fn("%t: tensor<5x7xf32>, %n: index", "tensor<2x?xf32>, tensor<5x7xf32>", body, "%s, %i")
    t = np.arange(35, dtype=np.float32).reshape(5, 7)
    s, i = run1(text, t, 3)
    np.testing.assert_array_equal(s, t[1:4:2, 0:7:3])
    expected = np.zeros((5, 7), np.float32)
    expected[0:4:3, 1:6:2] = t[1:4:2, 0:7:3]
    np.testing.assert_array_equal(i, expected)


def test_slice_out_of_bounds_is_an_error():
    text = fn("%t: tensor<5xf32>, %o: index", "tensor<3xf32>", "  %s = tensor.extract_slice %t[%o] [3] [2] : tensor<5xf32> to tensor<3xf32>", "%s")
    np.testing.assert_array_equal(run1(text, np.arange(5, dtype=np.float32), 0)[0], [0, 2, 4])
    with pytest.raises(InterpError, match=r"slice \[1, 5\] .* outside dim 0 of size 5"):
        run1(text, np.arange(5, dtype=np.float32), 1)


def test_pad_with_constant_and_with_index_dependent_value():
    body = """  %cst = arith.constant -1.000000e+00 : f32
  %p = tensor.pad %t low[1, %lo] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<2x3xf32> to tensor<3x?xf32>
  %q = tensor.pad %t low[0, 1] high[1, 0] {
  ^bb0(%i: index, %j: index):
    %s = arith.addi %i, %j : index
    %si = arith.index_cast %s : index to i64
    %f = arith.sitofp %si : i64 to f32
    tensor.yield %f : f32
  } : tensor<2x3xf32> to tensor<3x4xf32>"""
    text = fn("%t: tensor<2x3xf32>, %lo: index", "tensor<3x?xf32>, tensor<3x4xf32>", body, "%p, %q")
    t = np.arange(1, 7, dtype=np.float32).reshape(2, 3) * 10
    p, q = run1(text, t, 2)
    np.testing.assert_array_equal(p, np.pad(t, [(1, 0), (2, 2)], constant_values=-1))
    expected = np.add.outer(np.arange(3), np.arange(4)).astype(np.float32)
    expected[0:2, 1:4] = t
    np.testing.assert_array_equal(q, expected)


def test_expand_collapse_cast_dim():
    body = """  %c0 = arith.constant 0 : index
  %e = tensor.expand_shape %t [[0, 1], [2]] output_shape [%n, 3, 4] : tensor<?x4xf32> into tensor<?x3x4xf32>
  %c = tensor.collapse_shape %e [[0], [1, 2]] : tensor<?x3x4xf32> into tensor<?x12xf32>
  %s = tensor.cast %c : tensor<?x12xf32> to tensor<2x12xf32>
  %d = tensor.dim %t, %c0 : tensor<?x4xf32>"""
    text = fn("%t: tensor<?x4xf32>, %n: index", "tensor<2x12xf32>, index", body, "%s, %d")
    t = np.arange(24, dtype=np.float32).reshape(6, 4)
    s, d = run1(text, t, 2)
    np.testing.assert_array_equal(s, t.reshape(2, 12))
    assert d == 6
    with pytest.raises(InterpError, match="do not multiply to"):
        run1(text, t, 3)  # 3 x 3 != 6
    with pytest.raises(InterpError, match=r"has shape 3x12, which does not match its type 'tensor<2x12xf32>'"):
        run1(text, np.zeros((9, 4), np.float32), 3)  # the cast's static shape is checked


def test_empty_reads_as_nan_and_extract_insert_splat_generic_forms():
    body = """  %e = tensor.empty() : tensor<2xf32>
  %c1 = arith.constant 1 : index
  %x = tensor.extract %t[%c1] : tensor<3xf32>
  %sp = "tensor.splat"(%x) : (f32) -> tensor<2xf32>
  %in = "tensor.insert"(%x, %e, %c1) : (f32, tensor<2xf32>, index) -> tensor<2xf32>
  %fe = "tensor.from_elements"(%x, %x, %x) : (f32, f32, f32) -> tensor<3xf32>"""
    text = fn("%t: tensor<3xf32>", "tensor<2xf32>, tensor<2xf32>, tensor<3xf32>", body, "%sp, %in, %fe")
    sp, ins, fe = run1(text, np.array([1.0, 2.0, 3.0], np.float32))
    np.testing.assert_array_equal(sp, [2.0, 2.0])
    assert np.isnan(ins[0]) and ins[1] == 2.0  # an uninitialized element reads as NaN
    np.testing.assert_array_equal(fe, [2.0, 2.0, 2.0])


def test_generate_and_concat_generic_forms():
    body = """  %g = "tensor.generate"(%n) ({
  ^bb0(%i: index):
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %sq = arith.mulf %f, %f : f32
    tensor.yield %sq : f32
  }) : (index) -> tensor<?xf32>
  %c = "tensor.concat"(%g, %g) {dim = 0 : i64} : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>"""
    text = fn("%n: index", "tensor<?xf32>", body, "%c")
    np.testing.assert_array_equal(run1(text, 3)[0], [0, 1, 4, 0, 1, 4])


# --- linalg ---------------------------------------------------------------------------------------

def test_generic_elementwise_with_broadcast_and_index():
    body = """    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %s = arith.addf %a0, %a1 : f32
    %t = arith.mulf %s, %f : f32
    linalg.yield %t : f32"""
    g = generic([("%x", "tensor<2x3xf32>"), ("%b", "tensor<3xf32>")], [("%e", "tensor<2x3xf32>")],
                ["(d0, d1) -> (d0, d1)", "(d0, d1) -> (d1)", "(d0, d1) -> (d0, d1)"], ["parallel", "parallel"], body)
    text = fn("%x: tensor<2x3xf32>, %b: tensor<3xf32>", "tensor<2x3xf32>", "  %e = tensor.empty() : tensor<2x3xf32>\n" + g, "%r")
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.array([10, 20, 30], np.float32)
    np.testing.assert_array_equal(run1(text, x, b)[0], (x + b) * np.arange(3))


MAC = "    %m = arith.mulf %a0, %a1 : f32\n    %s = arith.addf %o0, %m : f32\n    linalg.yield %s : f32"


def test_generic_matmul_is_an_einsum():
    g = generic([("%x", "tensor<3x4xf32>"), ("%y", "tensor<4x5xf32>")], [("%z", "tensor<3x5xf32>")],
                ["(d0, d1, d2) -> (d0, d2)", "(d0, d1, d2) -> (d2, d1)", "(d0, d1, d2) -> (d0, d1)"], ["parallel", "parallel", "reduction"], MAC)
    text = fn("%x: tensor<3x4xf32>, %y: tensor<4x5xf32>, %z: tensor<3x5xf32>", "tensor<3x5xf32>", g, "%r")
    rng = np.random.default_rng(0)
    x, y, z = (rng.standard_normal(s).astype(np.float32) for s in [(3, 4), (4, 5), (3, 5)])
    np.testing.assert_allclose(run1(text, x, y, z)[0], z + x @ y, rtol=1e-6)


def test_size_zero_tensors():
    """Empty tensors (convolutions with an empty batch or no channels): a
    matmul over an empty reduction keeps its init, one with an empty output
    dim gives an empty result, and fill / transpose / empty of a size-0
    shape are empty arrays of that shape."""
    mm = generic([("%x", "tensor<3x0xf32>"), ("%y", "tensor<0x5xf32>")], [("%z", "tensor<3x5xf32>")],
                 ["(d0, d1, d2) -> (d0, d2)", "(d0, d1, d2) -> (d2, d1)", "(d0, d1, d2) -> (d0, d1)"], ["parallel", "parallel", "reduction"], MAC)
    out0 = generic([("%y", "tensor<0x5xf32>"), ("%v", "tensor<5x2xf32>")], [("%e0", "tensor<0x2xf32>")],
                   ["(d0, d1, d2) -> (d0, d2)", "(d0, d1, d2) -> (d2, d1)", "(d0, d1, d2) -> (d0, d1)"], ["parallel", "parallel", "reduction"], MAC, result="%r0")
    body = ("  %e0 = tensor.empty() : tensor<0x2xf32>\n" + mm + "\n" + out0 + "\n  %c = arith.constant 1.5 : f32\n"
            "  %e1 = tensor.empty() : tensor<2x0xf32>\n"
            "  %f = linalg.fill ins(%c : f32) outs(%e1 : tensor<2x0xf32>) -> tensor<2x0xf32>\n"
            "  %e2 = tensor.empty() : tensor<0x2xf32>\n"
            "  %t = linalg.transpose ins(%f : tensor<2x0xf32>) outs(%e2 : tensor<0x2xf32>) permutation = [1, 0]")
    text = fn("%x: tensor<3x0xf32>, %y: tensor<0x5xf32>, %z: tensor<3x5xf32>, %v: tensor<5x2xf32>", "tensor<3x5xf32>, tensor<0x2xf32>, tensor<2x0xf32>, tensor<0x2xf32>",
              body, "%r, %r0, %f, %t")
    z = np.arange(15, dtype=np.float32).reshape(3, 5)
    r, r0, f, t = run1(text, np.zeros((3, 0), np.float32), np.zeros((0, 5), np.float32), z, np.ones((5, 2), np.float32))
    np.testing.assert_array_equal(r, z)
    assert r0.shape == (0, 2) and f.shape == (2, 0) and t.shape == (0, 2)
    assert {a.dtype for a in (r, r0, f, t)} == {np.dtype(np.float32)}


def test_generic_strided_dilated_conv_map_with_constant_results():
    # out[n, f, o] += x[n, c, 2*o + 3*k] * w[f, c, k, 0]
    g = generic([("%x", "tensor<2x3x13xf32>"), ("%w", "tensor<4x3x2x1xf32>")], [("%z", "tensor<2x4x4xf32>")],
                ["(d0, d1, d2, d3, d4) -> (d0, d3, d2 * 2 + d4 * 3)", "(d0, d1, d2, d3, d4) -> (d1, d3, d4, 0)", "(d0, d1, d2, d3, d4) -> (d0, d1, d2)"],
                ["parallel", "parallel", "parallel", "reduction", "reduction"], MAC)
    text = fn("%x: tensor<2x3x13xf32>, %w: tensor<4x3x2x1xf32>, %z: tensor<2x4x4xf32>", "tensor<2x4x4xf32>", g, "%r")
    rng = np.random.default_rng(1)
    x, w = rng.standard_normal((2, 3, 13)).astype(np.float32), rng.standard_normal((4, 3, 2, 1)).astype(np.float32)
    expected = np.zeros((2, 4, 4))
    for n, f, o, c, k in itertools.product(range(2), range(4), range(4), range(3), range(2)):
        expected[n, f, o] += x[n, c, 2 * o + 3 * k] * w[f, c, k, 0]
    np.testing.assert_allclose(run1(text, x, w, np.zeros((2, 4, 4), np.float32))[0], expected, rtol=1e-5, atol=1e-6)


def test_generic_reading_out_of_bounds_is_an_error():
    # x[2*d0 + d1] with d0 < 3 (from the output) and d1 < 2 (from w) reads x[5]
    # (x is dynamic, so that the verifier cannot see it)
    g = generic([("%x", "tensor<?xf32>"), ("%w", "tensor<2xf32>")], [("%z", "tensor<3xf32>")],
                ["(d0, d1) -> (d0 * 2 + d1)", "(d0, d1) -> (d1)", "(d0, d1) -> (d0)"], ["parallel", "reduction"],
                "    %s = arith.addf %o0, %a0 : f32\n    linalg.yield %s : f32")
    text = fn("%x: tensor<?xf32>, %w: tensor<2xf32>, %z: tensor<3xf32>", "tensor<3xf32>", g, "%r")
    with pytest.raises(InterpError, match="operand #0 of 'linalg.generic': index 5 out of bounds for dim 0 of size 5"):
        run1(text, np.zeros(5, np.float32), np.zeros(2, np.float32), np.zeros(3, np.float32))


def test_generic_sequential_body_runs_per_reduction_point():
    # out = out * 0.5 + in: not a plain reduction; folded in loop order
    body = "    %c = arith.constant 5.000000e-01 : f32\n    %m = arith.mulf %o0, %c : f32\n    %s = arith.addf %m, %a0 : f32\n    linalg.yield %s : f32"
    g = generic([("%x", "tensor<3x4xf32>")], [("%z", "tensor<3xf32>")], ["(d0, d1) -> (d0, d1)", "(d0, d1) -> (d0)"], ["parallel", "reduction"], body)
    text = fn("%x: tensor<3x4xf32>, %z: tensor<3xf32>", "tensor<3xf32>", g, "%r")
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    expected = np.ones(3, np.float32)
    for j in range(4):
        expected = expected * 0.5 + x[:, j]
    np.testing.assert_array_equal(run1(text, x, np.ones(3, np.float32))[0], expected)


def test_generic_with_a_non_permutation_output_map_runs_per_point():
    g = generic([("%x", "tensor<3xf32>")], [("%z", "tensor<3x3xf32>")], ["(d0) -> (d0)", "(d0) -> (d0, d0)"], ["parallel"], "    linalg.yield %a0 : f32")
    text = fn("%x: tensor<3xf32>, %z: tensor<3x3xf32>", "tensor<3x3xf32>", g, "%r")
    x = np.array([1, 2, 3], np.float32)
    np.testing.assert_array_equal(run1(text, x, np.zeros((3, 3), np.float32))[0], np.diag(x))


def test_f16_reduction_folds_in_loop_order_rounding_each_step():
    body = "    %s = arith.addf %o0, %a0 : f16\n    linalg.yield %s : f16"
    g = generic([("%x", "tensor<1000xf16>")], [("%z", "tensor<f16>")], ["(d0) -> (d0)", "(d0) -> ()"], ["reduction"], body)
    text = fn("%x: tensor<1000xf16>, %z: tensor<f16>", "tensor<f16>", g, "%r")
    x = np.random.default_rng(0).random(1000).astype(np.float16)
    acc = np.float16(0)
    for v in x:
        acc = np.float16(acc + v)
    got = run1(text, x, np.zeros((), np.float16))[0]
    assert got == acc and abs(float(acc) - float(x.astype(np.float64).sum())) > 2  # bit-exact f16, far from the exact sum


def test_generic_max_reduction_and_two_outputs():
    body = "    %m = arith.maximumf %o0, %a0 : f32\n    %s = arith.addf %a0, %o1 : f32\n    linalg.yield %m, %s : f32, f32"
    g = generic([("%x", "tensor<2x5xf32>")], [("%m0", "tensor<2xf32>"), ("%s0", "tensor<2xf32>")], ["(d0, d1) -> (d0, d1)", "(d0, d1) -> (d0)", "(d0, d1) -> (d0)"],
                ["parallel", "reduction"], body, result="%r:2")
    text = fn("%x: tensor<2x5xf32>, %m0: tensor<2xf32>, %s0: tensor<2xf32>", "tensor<2xf32>, tensor<2xf32>", g, "%r#0, %r#1")
    x = np.random.default_rng(3).standard_normal((2, 5)).astype(np.float32)
    m, s = run1(text, x, np.full(2, -np.inf, np.float32), np.zeros(2, np.float32))
    np.testing.assert_array_equal(m, x.max(axis=1))
    np.testing.assert_allclose(s, x.sum(axis=1), rtol=1e-6)


def test_fill_transpose_broadcast_matmul_batch_matmul():
    body = """  %cst = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %t = linalg.transpose ins(%a : tensor<3x4xf32>) outs(%e : tensor<4x3xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<3x2x4xf32>
  %b = linalg.broadcast ins(%a : tensor<3x4xf32>) outs(%e2 : tensor<3x2x4xf32>) dimensions = [1]
  %e3 = tensor.empty() : tensor<3x3xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e3 : tensor<3x3xf32>) -> tensor<3x3xf32>
  %mm = linalg.matmul ins(%a, %t : tensor<3x4xf32>, tensor<4x3xf32>) outs(%z : tensor<3x3xf32>) -> tensor<3x3xf32>
  %e4 = tensor.empty() : tensor<3x2x2xf32>
  %z4 = linalg.fill ins(%cst : f32) outs(%e4 : tensor<3x2x2xf32>) -> tensor<3x2x2xf32>
  %bt = tensor.empty() : tensor<3x4x2xf32>
  %btt = linalg.transpose ins(%b : tensor<3x2x4xf32>) outs(%bt : tensor<3x4x2xf32>) permutation = [0, 2, 1]
  %bmm = linalg.batch_matmul ins(%b, %btt : tensor<3x2x4xf32>, tensor<3x4x2xf32>) outs(%z4 : tensor<3x2x2xf32>) -> tensor<3x2x2xf32>"""
    text = fn("%a: tensor<3x4xf32>", "tensor<4x3xf32>, tensor<3x2x4xf32>, tensor<3x3xf32>, tensor<3x2x2xf32>", body, "%t, %b, %mm, %bmm")
    a = np.random.default_rng(4).standard_normal((3, 4)).astype(np.float32)
    t, b, mm, bmm = run1(text, a)
    np.testing.assert_array_equal(t, a.T)
    np.testing.assert_array_equal(b, np.broadcast_to(a[:, None, :], (3, 2, 4)))
    np.testing.assert_allclose(mm, a @ a.T, rtol=1e-5)
    bb = np.broadcast_to(a[:, None, :], (3, 2, 4))
    np.testing.assert_allclose(bmm, bb @ bb.transpose(0, 2, 1), rtol=1e-5)


NAMED_CONVS = [
    # (name, input shape, weight shape, output shape, strides, dilations, groups)
    ("linalg.conv_1d_ncw_fcw", (2, 3, 11), (4, 3, 3), (2, 4, 4), [2], [2], 1),
    ("linalg.conv_2d_nchw_fchw", (2, 3, 8, 9), (4, 3, 3, 2), (2, 4, 3, 3), [2, 2], [1, 3], 1),
    ("linalg.conv_3d_ncdhw_fcdhw", (1, 2, 5, 6, 5), (3, 2, 2, 3, 2), (1, 3, 4, 2, 4), [1, 2, 1], [1, 1, 1], 1),
    ("linalg.depthwise_conv_2d_nchw_chw", (2, 3, 7, 7), (3, 3, 3), (2, 3, 3, 3), [2, 2], [1, 1], 3),
    ("linalg.conv_2d_ngchw_gfchw", (2, 2, 3, 6, 6), (2, 4, 3, 2, 2), (2, 2, 4, 5, 5), [1, 1], [1, 1], 2),
]


@pytest.mark.parametrize("name,x_shape,w_shape,out_shape,strides,dilations,groups", NAMED_CONVS, ids=[c[0] for c in NAMED_CONVS])
def test_named_convolutions_match_torch(name, x_shape, w_shape, out_shape, strides, dilations, groups):
    import torch

    def t(shape):
        return f"tensor<{'x'.join(map(str, shape))}xf32>"

    def dense(v):
        return f"dense<[{', '.join(map(str, v))}]> : tensor<{len(v)}xi64>"

    body = (f"  %r = {name} {{dilations = {dense(dilations)}, strides = {dense(strides)}}} ins(%x, %w : {t(x_shape)}, {t(w_shape)}) "
            f"outs(%z : {t(out_shape)}) -> {t(out_shape)}")
    text = fn(f"%x: {t(x_shape)}, %w: {t(w_shape)}, %z: {t(out_shape)}", t(out_shape), body, "%r")
    rng = np.random.default_rng(5)
    x, w, z = (rng.standard_normal(s).astype(np.float32) for s in (x_shape, w_shape, out_shape))
    conv = {3: torch.nn.functional.conv1d, 4: torch.nn.functional.conv2d, 5: torch.nn.functional.conv3d}
    if name.startswith("linalg.depthwise"):
        ref = conv[len(x_shape)](torch.from_numpy(x), torch.from_numpy(w[:, None]), stride=strides, dilation=dilations, groups=groups)
    elif groups > 1:  # ngchw: fold the groups into the channels
        xs, ws = x.reshape(x_shape[0], -1, *x_shape[3:]), w.reshape(-1, *w_shape[2:])
        ref = conv[len(x_shape) - 1](torch.from_numpy(xs), torch.from_numpy(ws), stride=strides, dilation=dilations, groups=groups).reshape(out_shape)
    else:
        ref = conv[len(x_shape)](torch.from_numpy(x), torch.from_numpy(w), stride=strides, dilation=dilations)
    np.testing.assert_allclose(run1(text, x, w, z)[0], z + ref.numpy(), rtol=1e-4, atol=1e-5)


def test_call_torch_boundary_and_vtensor_arguments():
    text = """func.func @main(%x: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  %b = torch_c.to_builtin_tensor %x : !torch.vtensor<[2],f32> -> tensor<2xf32>
  %d = "func.call"(%b) {callee = @double} : (tensor<2xf32>) -> tensor<2xf32>
  %r = torch_c.from_builtin_tensor %d : tensor<2xf32> -> !torch.vtensor<[2],f32>
  return %r : !torch.vtensor<[2],f32>
}
func.func @double(%a: tensor<2xf32>) -> tensor<2xf32> {
  %s = arith.addf %a, %a : tensor<2xf32>
  return %s : tensor<2xf32>
}
"""
    np.testing.assert_array_equal(run1(text, np.array([1.0, 2.5]))[0], [2.0, 5.0])
    np.testing.assert_array_equal(run1(text, np.array([1.0, 2.0], np.float32), entry="double")[0], [2.0, 4.0])


def test_unknown_op_and_bad_arguments_are_located_errors():
    text = fn("%a: tensor<2xf32>", "tensor<2xf32>", '  %r = "math.cbrt"(%a) : (tensor<2xf32>) -> tensor<2xf32>', "%r")
    with pytest.raises(InterpError) as err:
        run1(text, np.zeros(2, np.float32))
    assert "t.mlir:2:8: error: the interpreter does not support 'math.cbrt'" in str(err.value)
    with pytest.raises(InterpError, match="takes 1 arguments, got 2"):
        run1(text, np.zeros(2), np.zeros(2))
    with pytest.raises(InterpError, match="argument #0 of '@main' has shape 3"):
        run1(text, np.zeros(3))
    with pytest.raises(InterpError, match=r"no function named '@nope' \(functions: @main\)"):
        run1(text, np.zeros(2), entry="nope")


def test_interpreter_is_not_imported_by_the_command_line():
    code = "import sys, convopt.cli, convopt.driver; assert 'convopt.interp' not in sys.modules and 'numpy' not in sys.modules, sorted(sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True)


# === 2. convolution_backward through convopt, interpreted, against PyTorch ===========================

PATHS = {
    "direct": ("--lower-conv-bwd",),
    "decomposed": ("--lower-conv-bwd", "--backend-legal-ops="),
    "im2col": ("--lower-conv-bwd", "--conv-form=im2col"),
    "im2col-decomposed": ("--lower-conv-bwd", "--backend-legal-ops=", "--conv-form=im2col"),
    "named": ("--lower-conv-bwd", "--conv-form=named"),
    "named-decomposed": ("--lower-conv-bwd", "--backend-legal-ops=", "--conv-form=named"),
    "generic": ("--lower-conv-bwd", "--conv-form=generic"),
    "taps": ("--lower-conv-bwd", "--conv-form=taps"),
    # the --device=gpu forms on every row, both paths (IREE llvm-cpu runs a
    # slice of them, test/e2e/test_gpu_forms.py)
    "gpu": ("--lower-conv-bwd", "--device=gpu"),
    "gpu-decomposed": ("--lower-conv-bwd", "--backend-legal-ops=", "--device=gpu"),
}

SLOW = {"3d_basic", "3d_groups2", "3d_f16", "2d_transposed_overpadding"}
"""Rows whose lowered IR is large (50-90 kB of text; parsing it takes most
of the time): left out of the fast tier; the IREE e2e suite runs them (and
they passed here on every path when this tier was written)."""

FORM_ROWS = harness.FORM_ROWS


GENERIC_ROWS = {"2d_basic", "2d_groups2_stride2", "2d_transposed_groups2"}
"""`--conv-form=generic` is what auto picks for these small shapes: a few rows."""


def _runs_on(cfg: harness.Config, path: str) -> bool:
    if path in ("direct", "decomposed", "gpu", "gpu-decomposed"):
        return True
    if path == "generic":
        return cfg.name in GENERIC_ROWS
    if path == "named":  # on the direct path only a transposed grad_input is a gather
        return cfg.name in FORM_ROWS and cfg.transposed
    return cfg.name in FORM_ROWS


def _cases() -> list:
    return [pytest.param(cfg, path, id=f"{cfg.name}-{path}") for cfg in harness.named_matrix() if cfg.name not in SLOW for path in PATHS if _runs_on(cfg, path)]


@functools.cache
def expected_and_inputs(cfg: harness.Config) -> tuple[list, list]:
    """PyTorch's results (the requested ones) and the inputs on the device,
    once per configuration.  PyTorch runs on one thread: on a loaded 2-core
    machine its thread pool costs 40 times the convolutions."""
    import torch

    go, x, w = (harness.round_to(a, cfg.dtype) for a in harness.inputs(cfg))
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        ref = harness.reference(cfg, go, x, w)
    finally:
        torch.set_num_threads(threads)
    return [r for r, m in zip(ref, cfg.mask) if m], [harness.to_device(a, cfg.dtype) for a in (go, x, w)]


def check_conv_bwd(cfg: harness.Config, args: tuple[str, ...]) -> None:
    expected, device = expected_and_inputs(cfg)
    lowered = harness.lower(harness.torch_ir(cfg), args)
    got = run_text(lowered, "main", device, name=cfg.name)
    assert len(got) == len(expected)
    for i, (g, e) in enumerate(zip(got, expected)):
        assert g.shape == e.shape, f"{cfg.name}: result {i} shape {g.shape} != {e.shape}"
        assert g.dtype == device[0].dtype, f"{cfg.name}: result {i} is {g.dtype}, not {cfg.dtype}"
        scale = max(1.0, float(np.max(np.abs(e)))) if e.size else 1.0
        err = float(np.max(np.abs(g.astype(np.float64) - e))) / scale if e.size else 0.0
        assert err <= harness.TOLERANCE[cfg.dtype], f"{cfg.name}: result {i} relative error {err:.3g} > {harness.TOLERANCE[cfg.dtype]}"


@pytest.mark.parametrize("cfg,path", _cases())
def test_conv_bwd_lowering_matches_torch(cfg: harness.Config, path: str):
    check_conv_bwd(cfg, PATHS[path])


@pytest.mark.parametrize("cfg", harness.random_matrix(8, seed=97), ids=lambda c: c.name)
def test_conv_bwd_random_configurations(cfg: harness.Config):
    check_conv_bwd(cfg, PATHS["direct"])
    check_conv_bwd(cfg, PATHS["decomposed"])


def test_a_wrong_lowering_is_caught(monkeypatch):
    """The tier can fail: the same lowering with one slice offset off by one."""
    cfg = harness.C("2d_small_stride2", stride=2, spatial=6, cin=2, cout=2)
    lower = harness.lower

    def off_by_one(text: str, args: tuple[str, ...] = ("--lower-conv-bwd",)) -> str:
        good = lower(text, args)
        bad = re.sub(r"(tensor\.extract_slice %\w+\[0, 0, )([1-9])", lambda m: m.group(1) + str(int(m.group(2)) - 1), good, count=1)
        assert bad != good
        return bad

    monkeypatch.setattr(harness, "lower", off_by_one)
    with pytest.raises(AssertionError, match="relative error"):
        check_conv_bwd(cfg, PATHS["direct"])


# === 3. the relation math of kernels.py =================================================================

def _emitter(func=None):
    from convopt.ir.builder import Builder
    from convopt.ir.core import Block, Operation, Region
    from convopt.lowering.kernel.emit import Emitter

    if func is None:
        func = Operation("func.func", regions=[Region([Block()])])
    return Emitter(Builder(func.regions[0].blocks[0]), func)


def random_rels(count: int, seed: int) -> list:
    from convopt.lowering.kernel.relation import Rel

    rng = random.Random(seed)
    rels = []
    for _ in range(count):
        S, D, K = rng.randint(1, 4), rng.randint(1, 3), rng.randint(1, 6)
        P = rng.randint(0, D * (K - 1) + 3)
        rels.append(Rel(S=S, D=D, P=P, K=K, Ns=rng.randint(1, 9), Nb=rng.randint(1, 14)))
    return rels


RELS = random_rels(400, seed=11)


def valid_pairs(r) -> set[tuple[int, int]]:
    return {(s, k) for s in range(r.Ns) for k in range(r.K) if 0 <= r.S * s + r.D * k - r.P < r.Nb}


def PIECES(kind: str):
    """The piece builder of one kernel kind (convopt.lowering.kernel.relation)."""
    from convopt.lowering.kernel import relation

    return {"gather": relation.gather_pieces, "scatter": relation.scatter_pieces, "weight": relation.weight_pieces}[kind]


def test_tap_range_and_valid_s_brute_force():
    from convopt.lowering.kernel.relation import tap_range, valid_s

    em = _emitter()
    for r in RELS:
        for k in range(r.K):
            ss = [s for s in range(r.Ns) if 0 <= r.S * s + r.D * k - r.P < r.Nb]
            assert list(valid_s(r, k)) == ss, r
            assert tap_range(em, r, k) == ((ss[0], len(ss)) if ss else None), (r, k)
        assert r.useful() == len(valid_pairs(r))
    assert not em.func.regions[0].blocks[0].ops, "static relations must emit no IR"


ROLES = {"gather": "out b w", "scatter": "b s w", "weight": "w s b", "phases": "b s flipped"}
"""What each kernel's output positions and its two inputs' positions are:
s, b, the kernel tap w = k, or the flipped weight's m = K-1-k."""


def executed(kind: str, r, pieces) -> list[tuple[int, int, int]]:
    """(s, k, b) of every multiply-add the pieces of `kind` execute, checking
    that each index lies inside its slice and the relation b = S*s + D*k - P."""
    out = []
    for p in pieces:
        for o, red in itertools.product(range(p.out.size), range(p.red)):
            pos = {}
            for role, (span, a) in zip(ROLES[kind].split(), [(p.out, None), *[(a.span, a) for a in p.ins]]):
                idx = o if a is None else a.c_out * o + a.c_red * red + a.const
                assert 0 <= idx < span.size, (kind, r, p)
                pos[role] = span.offset + span.stride * idx
            if kind == "gather":
                pos["s"] = pos["out"]
            k = pos["w"] if "w" in pos else r.K - 1 - pos["flipped"]
            assert pos["b"] == r.S * pos["s"] + r.D * k - r.P, (kind, r, p)
            out.append((pos["s"], k, pos["b"]))
    return out


def spans_inside(kind: str, r, pieces, padded: bool) -> None:
    """Each piece's output span lies in its output, and (unless padded, or
    when the access says it is inside) each input slice in its operand; an
    empty input slice may start at the end.  (An empty output span of a
    phase piece can start past the end -- phase phi >= Nb, only known at run
    time -- which writes nothing.)"""
    size = {"s": r.Ns, "b": r.Nb, "w": r.K, "flipped": r.K, "out": r.Ns}
    roles = ROLES[kind].split()
    spans = [(p.out, size[roles[0]], False) for p in pieces]
    spans += [(a.span, size[role], True) for p in pieces for a, role in zip(p.ins, roles[1:]) if not padded or getattr(a, "inside", False)]
    for span, n, is_input in spans:
        last = span.offset + span.stride * (span.size - 1)
        assert 0 <= span.offset and (last < n if span.size else span.offset <= n or not is_input), (kind, r, span)


STRATEGIES = [("gather", "padded"), ("gather", "peeled"), ("gather", "taps"), ("weight", "padded"), ("weight", "peeled"), ("weight", "taps"), ("scatter", "taps")]


@pytest.mark.parametrize("kind,strategy", STRATEGIES, ids=[f"{k}-{s}" for k, s in STRATEGIES])
def test_pieces_cover_exactly_the_valid_pairs(kind, strategy):

    em = _emitter()
    for r in RELS:
        pieces = PIECES(kind)(em, r, strategy)
        triples = executed(kind, r, pieces)
        counts = Counter((s, k) for s, k, _ in triples)
        valid = valid_pairs(r)
        assert all(0 <= s < r.Ns and 0 <= k < r.K for s, k in counts), (r, strategy)
        assert max(counts.values(), default=1) == 1, f"{kind}/{strategy}: a pair twice for {r}"
        if strategy == "padded":
            assert valid <= set(counts), (r, strategy)
            assert all(not 0 <= b < r.Nb for s, k, b in triples if (s, k) not in valid), (r, strategy)
        else:
            assert set(counts) == valid, f"{kind}/{strategy}: {sorted(set(counts) ^ valid)} for {r}"
        spans_inside(kind, r, pieces, strategy == "padded")
    assert not em.func.regions[0].blocks[0].ops, "static relations must emit no IR"


def _dynamic_pieces(kind: str, strategy: str, S: int, D: int, P: int, K):
    """Pieces of `kind` ("phases": phase_pieces) for a relation whose Ns and
    Nb (and K if None) are function arguments: the module of a function
    returning the index values the pieces hold, and the pieces."""
    from convopt.ir.attributes import StringAttr, TypeAttr
    from convopt.ir.core import Block, Operation, Region, new_module
    from convopt.ir.types import FunctionType, index
    from convopt.lowering.kernel.relation import Rel, phase_pieces

    block = Block([index] * (3 if K is None else 2))
    func = Operation("func.func", attributes={"sym_name": StringAttr("f")}, regions=[Region([block])])
    em = _emitter(func)
    r = Rel(S=S, D=D, P=P, K=block.args[2] if K is None else K, Ns=block.args[0], Nb=block.args[1])
    pieces = phase_pieces(em, r) if kind == "phases" else PIECES(kind)(em, r, strategy)
    values = [x for p in pieces for x in (p.out.offset, p.out.size, p.red, *[v for a in p.ins for v in (a.span.offset, a.span.size)])]
    em.b.create("func.return", [em.index(v) for v in values])
    func.attributes["function_type"] = TypeAttr(FunctionType(tuple(a.type for a in block.args), (index,) * len(values)))
    module = new_module()
    module.regions[0].blocks[0].append(func)
    return module, pieces


def _evaluated(pieces, values):
    """The pieces with their index values replaced by `values` (in order)."""
    from dataclasses import replace

    it = iter(int(v) for v in values)
    out = []
    for p in pieces:
        span = replace(p.out, offset=next(it), size=next(it))
        red = next(it)
        ins = tuple(replace(a, span=replace(a.span, offset=next(it), size=next(it))) for a in p.ins)
        out.append(replace(p, out=span, red=red, ins=ins))
    return out


DYNAMIC = [("gather", "taps"), ("gather", "padded"), ("weight", "taps"), ("weight", "padded"), ("scatter", "taps")]


@pytest.mark.parametrize("kind,strategy", DYNAMIC, ids=[f"{k}-{s}" for k, s in DYNAMIC])
def test_dynamic_pieces_emit_the_same_pieces(kind, strategy):
    """With Ns and Nb unknown the pieces hold index IR; run it (with the
    interpreter) for concrete sizes: the pieces must cover the valid pairs
    as the static ones do."""
    from convopt.lowering.kernel.relation import Rel

    rng = random.Random(5)
    for _ in range(12):
        S, D, K = rng.randint(1, 3), rng.randint(1, 3), rng.randint(1, 4)
        P = rng.randint(0, D * (K - 1) + 2)
        module, pieces = _dynamic_pieces(kind, strategy, S, D, P, K)
        interp = Interpreter(module)
        for ns, nb in [(rng.randint(1, 8), rng.randint(1, 12)) for _ in range(6)]:
            r = Rel(S=S, D=D, P=P, K=K, Ns=ns, Nb=nb)
            got = [p for p in _evaluated(pieces, interp.call("f", [ns, nb])) if p.out.size and p.red]
            counts = Counter((s, k) for s, k, _ in executed(kind, r, got))
            assert max(counts.values(), default=1) == 1, (r, strategy)
            if strategy == "padded":
                assert valid_pairs(r) <= set(counts), (r, strategy)
            else:
                assert set(counts) == valid_pairs(r), (r, strategy)
                static = [p for p in PIECES(kind)(_emitter(), r, strategy) if p.out.size and p.red]
                assert got == static, (r, strategy)
            spans_inside(kind, r, got, strategy == "padded")


def test_phase_pieces_cover_exactly_the_valid_pairs():
    """The scatter for a dynamic kernel size (phase_pieces: one dense gather
    per output phase over the flipped weight): each valid pair once; the
    extra pairs read grad_output outside (zero padding); the weight slice is
    always inside."""
    from convopt.lowering.kernel.relation import phase_pieces

    em = _emitter()
    for r in RELS:
        pieces = phase_pieces(em, r)
        triples = executed("phases", r, pieces)
        counts = Counter((s, k) for s, k, _ in triples)
        assert max(counts.values(), default=1) == 1, r
        assert valid_pairs(r) <= set(counts), r
        assert all(0 <= k < r.K and 0 <= b < r.Nb for s, k, b in triples), r
        assert all(not 0 <= s < r.Ns for s, k, b in triples if (s, k) not in valid_pairs(r)), r
        spans_inside("phases", r, pieces, padded=True)
    assert not em.func.regions[0].blocks[0].ops, "static relations must emit no IR"


def test_dynamic_phase_pieces_match_the_static_ones():
    """K, Ns and Nb as function arguments: the emitted index IR, run by the
    interpreter, gives the static pieces (empty ones aside)."""
    from convopt.lowering.kernel.relation import Rel, phase_pieces, reaching_taps

    rng = random.Random(9)
    for _ in range(25):
        S, D = rng.randint(1, 4), rng.randint(1, 3)
        P = rng.randint(0, 6)
        module, pieces = _dynamic_pieces("phases", "", S, D, P, None)
        interp = Interpreter(module)
        for _ in range(5):
            K = rng.randint(1, 5)
            ns, nb = rng.randint(1, 8), rng.randint(1, 12)
            r = Rel(S=S, D=D, P=P, K=K, Ns=ns, Nb=nb)
            got = _evaluated(pieces, interp.call("f", [ns, nb, K]))
            spans_inside("phases", r, got, padded=True)  # the empty pieces too
            got = [p for p in got if p.out.size and p.red]
            trimmed = [t for t in (reaching_taps(p, ns) for p in got) if t is not None]  # what static sizes allow
            assert trimmed == [p for p in phase_pieces(_emitter(), r) if p.out.size and p.red], r
            assert set(valid_pairs(r)) <= {(s, k) for s, k, _ in executed("phases", r, got)}, r


# === 4. convopt-run ===========================================================================================

SMALL = fn("%a: tensor<2x3xf32>, %b: tensor<2x3xf32>", "tensor<2x3xf32>, tensor<2xf32>",
           "  %s = arith.addf %a, %b : tensor<2x3xf32>\n  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>", "%s, %c")


def test_cli_runs_on_npy_and_writes_npz(tmp_path, capsys):
    src = tmp_path / "f.mlir"
    src.write_text(SMALL)
    a, b = np.ones((2, 3), np.float32), np.arange(6, dtype=np.float32).reshape(2, 3)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    assert interp_cli.main([str(src), str(tmp_path / "a.npy"), str(tmp_path / "b.npy"), "-o", str(tmp_path / "out.npz")]) == 0
    out = np.load(tmp_path / "out.npz")
    np.testing.assert_array_equal(out["out0"], a + b)
    np.testing.assert_array_equal(out["out1"], [1.0, 2.0])
    # options may come before the input files, as in any command line
    assert interp_cli.main([str(src), "--entry", "main", "-o", str(tmp_path / "o2.npz"), str(tmp_path / "a.npy"), str(tmp_path / "b.npy")]) == 0
    np.testing.assert_array_equal(np.load(tmp_path / "o2.npz")["out0"], a + b)
    np.savez(tmp_path / "in.npz", b=b, a=a)  # by the arguments' names (%a, %b): the order in the file does not matter
    assert interp_cli.main([str(src), "--inputs", str(tmp_path / "in.npz")]) == 0
    printed = capsys.readouterr().out
    assert "result #0: tensor<2x3xf32>  shape (2, 3) dtype float32  min 1 max 6" in printed and "[[1. 2. 3.]" in printed
    np.savez(tmp_path / "pos.npz", arg1=b, arg0=a)
    assert interp_cli.main([str(src), "--inputs", str(tmp_path / "pos.npz"), "-o", str(tmp_path / "o.npz")]) == 0
    np.testing.assert_array_equal(np.load(tmp_path / "o.npz")["out0"], a + b)
    np.savez(tmp_path / "bad.npz", x=a, y=b)
    assert interp_cli.main([str(src), "--inputs", str(tmp_path / "bad.npz")]) == 1
    assert "holds x, y; expected the arrays a, b" in capsys.readouterr().err


def test_cli_errors_are_diagnostics(tmp_path, capsys):
    src = tmp_path / "f.mlir"
    src.write_text(SMALL)
    np.save(tmp_path / "a.npy", np.ones((2, 4), np.float32))
    assert interp_cli.main([str(src), str(tmp_path / "a.npy"), str(tmp_path / "a.npy")]) == 1
    err = capsys.readouterr().err
    assert "error: argument #0 of '@main' has shape 2x4" in err and "Traceback" not in err
    assert interp_cli.main([str(src), "--entry", "other"]) == 1
    assert "no function named '@other'" in capsys.readouterr().err


def test_cli_random_inputs_as_a_module():
    proc = subprocess.run([sys.executable, "-m", "convopt.interp.cli", "-", "--random", "3"], input=SMALL, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "result #1: tensor<2xf32>" in proc.stdout


def test_cli_takes_the_arguments_of_a_reference_file_and_compares(tmp_path, capsys):
    """A PyTorch-side reference file (arg0.., out0..): the args are taken, the
    others named as ignored; --compare checks the results with the e2e
    tolerances, relative to max(1, max|ref|)."""
    src = tmp_path / "f.mlir"
    src.write_text(SMALL)
    a, b = np.ones((2, 3), np.float32), np.arange(6, dtype=np.float32).reshape(2, 3)
    ref = tmp_path / "ref.npz"
    np.savez(ref, arg0=a, arg1=b, out0=a + b, out1=np.array([1.0, 2.0], np.float32))
    assert interp_cli.main([str(src), "--inputs", str(ref), "--compare", str(ref)]) == 0
    captured = capsys.readouterr()
    assert f"{ref}: took arg0, arg1; ignored out0, out1" in captured.err
    assert captured.out == f"convopt-run: 2 results match {ref} (out0 0, out1 0; tolerance per element type: f32 0.0001, f64 1e-09, f16 0.02, bf16 0.05)\n"
    # within f32's 1e-4 of max(1, max|out0|) = 6: passes; just over: fails, naming the result and the error
    near, far = tmp_path / "near.npz", tmp_path / "far.npz"
    np.savez(near, out0=a + b + np.float32(5e-4), out1=np.array([1.0, 2.0], np.float32))
    np.savez(far, out0=a + b, out1=np.array([1.0, 2.0 + 4e-4], np.float32))  # 4e-4 / max(1, 2.0004) = 2e-4
    assert interp_cli.main([str(src), "--inputs", str(ref), "--compare", str(near)]) == 0
    assert "out0 8.3" in capsys.readouterr().out  # (6 + 5e-4 in f32 - 6) / 6
    assert interp_cli.main([str(src), "--inputs", str(ref), "--compare", str(far)]) == 1
    err = capsys.readouterr().err
    assert f"convopt-run: error: result #1 differs from {far}'s out1: max error 0.0002 (relative to max(1, max|out1|)) > 0.0001 for f32" in err


def test_cli_compare_refuses_what_it_cannot_check(tmp_path, capsys):
    src = tmp_path / "f.mlir"
    src.write_text(SMALL)
    a = np.ones((2, 3), np.float32)
    np.savez(tmp_path / "in.npz", a=a, b=a)
    cases = {
        "missing.npz": ({"out0": a * 2}, "has no array out1 for result #1 (it holds out0)"),
        "shape.npz": ({"out0": a.T * 2, "out1": np.ones(2, np.float32)}, "result #0 has shape (2, 3), "),
        "extra.npz": ({"out0": a * 2, "out1": np.array([1.0, 2.0], np.float32), "out2": a}, "has out2, but the function returns 2 results"),
        "nan.npz": ({"out0": a * 2, "out1": np.array([1.0, np.nan], np.float32)}, "max error inf"),
    }
    for name, (arrays, message) in cases.items():
        np.savez(tmp_path / name, **arrays)
        assert interp_cli.main([str(src), "--inputs", str(tmp_path / "in.npz"), "--compare", str(tmp_path / name)]) == 1, name
        assert message in capsys.readouterr().err, name


def test_cli_compare_tolerances_are_the_e2e_ones():
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
    import harness

    assert interp_cli.TOLERANCE == harness.TOLERANCE


def test_cli_output_is_what_compare_reads_and_tolerances_are_options(tmp_path, capsys):
    src = tmp_path / "f.mlir"
    src.write_text(SMALL)
    out = tmp_path / "r.npz"
    assert interp_cli.main([str(src), "--random", "1", "-o", str(out)]) == 0
    assert sorted(np.load(out).files) == ["out0", "out1"]
    assert interp_cli.main([str(src), "--random", "1", "--compare", str(out), "--rtol", "0"]) == 0
    assert capsys.readouterr().out.endswith("(out0 0, out1 0; --rtol 0)\n")
    ref = np.load(out)
    shifted = tmp_path / "shifted.npz"
    np.savez(shifted, out0=ref["out0"] + 0.01, out1=ref["out1"])
    assert interp_cli.main([str(src), "--random", "1", "--compare", str(shifted)]) == 1  # 0.01 / max(1, ...) > f32's 1e-4
    assert "> 0.0001 for f32" in capsys.readouterr().err
    assert interp_cli.main([str(src), "--random", "1", "--compare", str(shifted), "--rtol", "0.02"]) == 0
    assert interp_cli.main([str(src), "--random", "1", "--compare", str(shifted), "--rtol", "0", "--atol", "0.011"]) == 0
    assert interp_cli.main([str(src), "--random", "1", "--compare", str(shifted), "--rtol", "0", "--atol", "0.009"]) == 1
    assert "> 0 for --rtol (+ --atol 0.009)" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        interp_cli.main([str(src), "--random", "1", "--rtol", "0.1"])
    assert "--rtol and --atol apply to --compare" in capsys.readouterr().err


def test_cli_errors_are_located_and_name_the_next_step(tmp_path, capsys):
    src = tmp_path / "f.mlir"
    src.write_text(SMALL)
    assert interp_cli.main([str(tmp_path / "nope.mlir")]) == 1
    assert capsys.readouterr().err == f"convopt-run: error: could not read '{tmp_path / 'nope.mlir'}': No such file or directory\n"
    assert interp_cli.main([str(src), str(tmp_path / "a.npy"), str(tmp_path / "b.npy")]) == 1
    assert "could not read" in capsys.readouterr().err
    assert interp_cli.main([str(src), "--entry", "nope"]) == 1
    assert capsys.readouterr().err.startswith(f"{src}:1:1: error: no function named '@nope' (functions: @main)\n")
    assert interp_cli.main([str(src), "--random", "0", "-o", str(tmp_path / "no" / "r.npz")]) == 1
    assert capsys.readouterr().err == f"convopt-run: error: could not write '{tmp_path / 'no' / 'r.npz'}': No such file or directory\n"
    raw = tmp_path / "raw.mlir"
    raw.write_text("func.func @main(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {\n"
                   "  %0 = torch.aten.silu %a : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>\n  return %0 : !torch.vtensor<[2],f32>\n}\n")
    assert interp_cli.main([str(raw), "--random", "0"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{raw}:2:8: error: the interpreter does not support 'torch.aten.silu'\n")
    assert f"{raw}:2:8: note: convopt-run runs lowered IR: on a raw torch import run `convopt --lower-conv-bwd --torch-mlir-stages`" in err
    assert "Errno" not in err and "Traceback" not in err


def test_fpowi_and_a_generic_with_several_results():
    """What torch-mlir's linalg stage emits for a squared error and an argmax."""
    text = fn("%x: tensor<2x3xf32>", "tensor<2xf32>, tensor<2xi64>", """  %c2 = arith.constant 2 : i64
  %m0 = arith.constant dense<0xFF800000> : tensor<2xf32>
  %i0 = arith.constant dense<0> : tensor<2xi64>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<2x3xf32>) outs(%m0, %i0 : tensor<2xf32>, tensor<2xi64>) {
  ^bb0(%in: f32, %out: f32, %out_0: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %sq = math.fpowi %in, %c2 : f32, i64
    %gt = arith.cmpf ogt, %sq, %out : f32
    %m = arith.select %gt, %sq, %out : f32
    %i = arith.select %gt, %ji, %out_0 : i64
    linalg.yield %m, %i : f32, i64
  } -> (tensor<2xf32>, tensor<2xi64>)""", "%r#0, %r#1")
    x = np.array([[1.0, -3.0, 2.0], [0.5, 0.25, -0.75]], np.float32)
    squares, where = run1(text, x)
    np.testing.assert_array_equal(squares, [9.0, 0.5625])
    assert squares.dtype == np.float32
    np.testing.assert_array_equal(where, [1, 2])


def test_concat_and_assert_in_their_custom_forms():
    text = fn("%a: tensor<2x1xf32>, %b: tensor<2x2xf32>, %n: index", "tensor<2x3xf32>", """  %c1 = arith.constant 1 : index
  %d = tensor.dim %b, %c1 : tensor<2x2xf32>
  %ok = arith.cmpi eq, %d, %n : index
  cf.assert %ok, "mismatching sizes"
  %c = tensor.concat dim(1) %a, %b : (tensor<2x1xf32>, tensor<2x2xf32>) -> tensor<2x3xf32>""", "%c")
    a, b = np.array([[1.0], [2.0]], np.float32), np.array([[3.0, 4.0], [5.0, 6.0]], np.float32)
    np.testing.assert_array_equal(run1(text, a, b, 2)[0], [[1.0, 3.0, 4.0], [2.0, 5.0, 6.0]])
    with pytest.raises(InterpError) as err:
        run1(text, a, b, 3)
    assert "t.mlir:5:3: error: 'cf.assert' failed: mismatching sizes" in str(err.value)


def test_assert_in_a_region_body_checks_every_point():
    text = fn("%x: tensor<3xi64>", "tensor<3xi64>", """  %c0 = arith.constant 0 : i64
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<3xi64>) outs(%x : tensor<3xi64>) {
  ^bb0(%in: i64, %out: i64):
    %ok = arith.cmpi sge, %in, %c0 : i64
    cf.assert %ok, "index must be larger or equal to 0"
    linalg.yield %in : i64
  } -> tensor<3xi64>""", "%r")
    np.testing.assert_array_equal(run1(text, np.array([0, 1, 2]))[0], [0, 1, 2])
    with pytest.raises(InterpError, match="'cf.assert' failed: index must be larger or equal to 0"):
        run1(text, np.array([0, -1, 2]))


def test_affine_apply():
    text = fn("%n: index", "index", "  %0 = affine.apply affine_map<()[s0] -> (s0 * 64)>()[%n]\n  %1 = affine.apply affine_map<(d0)[s0] -> (d0 + s0 floordiv 2)>(%0)[%n]", "%1")
    assert int(run1(text, 3)[0]) == 3 * 64 + 1


def test_dense_resource_constants_read_the_files_blobs():
    text = fn("", "tensor<3xi32>, tensor<2xf32>", "  %a = arith.constant dense_resource<ints> : tensor<3xi32>\n  %b = arith.constant dense_resource<floats> : tensor<2xf32>", "%a, %b")
    text += '\n{-#\n  dialect_resources: {\n    builtin: {\n      ints: "0x04000000010000000200000003000000",\n      floats: "0x040000000000803f00000040"\n    }\n  }\n#-}\n'
    a, b = run1(text)
    np.testing.assert_array_equal(a, [1, 2, 3])
    assert a.dtype == np.int32
    np.testing.assert_array_equal(b, [1.0, 2.0])
    with pytest.raises(InterpError, match="dense_resource<ints> : tensor<3xi32>' is not supported"):
        run1(text.split("{-#")[0])  # without its blob


def test_tm_tensor_scatter_applies_updates_in_order():
    """An accumulating scatter with a repeated index (unique_indices(false)):
    both updates land; a slice per update where dimension_map names fewer dims."""
    text = fn("%u: tensor<3xf32>, %i: tensor<3x2xi64>, %o: tensor<2x3xf32>", "tensor<2x3xf32>", """  %r = tm_tensor.scatter {dimension_map = array<i64: 0, 1>} unique_indices(false) ins(%u, %i : tensor<3xf32>, tensor<3x2xi64>) outs(%o : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tm_tensor.yield %s : f32
  } -> tensor<2x3xf32>""", "%r")
    out = run1(text, np.array([1.0, 2.0, 4.0], np.float32), np.array([[0, 1], [1, 2], [0, 1]]), np.ones((2, 3), np.float32))[0]
    np.testing.assert_array_equal(out, [[1.0, 6.0, 1.0], [1.0, 1.0, 3.0]])
    rows = fn("%u: tensor<1x3xf32>, %i: tensor<1x1xi64>, %o: tensor<2x3xf32>", "tensor<2x3xf32>", """  %r = tm_tensor.scatter {dimension_map = array<i64: 0>} unique_indices(true) ins(%u, %i : tensor<1x3xf32>, tensor<1x1xi64>) outs(%o : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    tm_tensor.yield %a : f32
  } -> tensor<2x3xf32>""", "%r")
    out = run1(rows, np.array([[7.0, 8.0, 9.0]], np.float32), np.array([[1]]), np.zeros((2, 3), np.float32))[0]
    np.testing.assert_array_equal(out, [[0.0, 0.0, 0.0], [7.0, 8.0, 9.0]])
    with pytest.raises(InterpError, match="index 2 of update #0 out of bounds for dim 0 of size 2"):
        run1(rows, np.array([[7.0, 8.0, 9.0]], np.float32), np.array([[2]]), np.zeros((2, 3), np.float32))


@pytest.mark.parametrize("kind, reduce", [("max", np.max), ("sum", np.sum)])
def test_pooling_named_ops(kind, reduce):
    """O[n, c, oh, ow] = kind(O, I[n, c, 2*oh + kh, 2*ow + kw]) over a 3x3 window."""
    text = fn("%x: tensor<2x3x7x7xf32>, %o: tensor<2x3x3x3xf32>", "tensor<2x3x3x3xf32>", f"""  %k = tensor.empty() : tensor<3x3xf32>
  %r = linalg.pooling_nchw_{kind} {{dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}} ins(%x, %k : tensor<2x3x7x7xf32>, tensor<3x3xf32>) outs(%o : tensor<2x3x3x3xf32>) -> tensor<2x3x3x3xf32>""", "%r")
    x = np.random.default_rng(0).standard_normal((2, 3, 7, 7)).astype(np.float32)
    init = np.full((2, 3, 3, 3), -np.inf if kind == "max" else 0.5, np.float32)
    want = np.empty_like(init)
    for i in range(3):
        for j in range(3):
            want[:, :, i, j] = reduce(x[:, :, 2 * i : 2 * i + 3, 2 * j : 2 * j + 3], axis=(2, 3))
    want = np.maximum(want, init) if kind == "max" else want + init
    np.testing.assert_allclose(run1(text, x, init)[0], want, rtol=1e-6)


def test_the_torch_ops_the_iree_route_keeps():
    """A batch norm and relu in torch ops, as the IREE recipe leaves them."""
    V = "!torch.vtensor<[2,3],f32>"
    text = f"""func.func @main(%x: {V}, %w: !torch.vtensor<[3],f32>) -> ({V}, !torch.vtensor<[3],f32>) {{
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %true = torch.constant.bool true
  %none = torch.constant.none
  %eps = torch.constant.float 1.000000e-05
  %dims = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %var, %mean = torch.aten.var_mean.correction %x, %dims, %int0, %true : {V}, !torch.list<int>, !torch.int, !torch.bool -> !torch.vtensor<[1,3],f32>, !torch.vtensor<[1,3],f32>
  %0 = torch.aten.add.Scalar %var, %eps, %int1 : !torch.vtensor<[1,3],f32>, !torch.float, !torch.int -> !torch.vtensor<[1,3],f32>
  %1 = torch.aten.rsqrt %0 : !torch.vtensor<[1,3],f32> -> !torch.vtensor<[1,3],f32>
  %2 = torch.aten.sub.Tensor %x, %mean, %int1 : {V}, !torch.vtensor<[1,3],f32>, !torch.int -> {V}
  %3 = torch.aten.mul.Tensor %2, %1 : {V}, !torch.vtensor<[1,3],f32> -> {V}
  %4 = torch.aten.unsqueeze %w, %int0 : !torch.vtensor<[3],f32>, !torch.int -> !torch.vtensor<[1,3],f32>
  %5 = torch.aten.mul.Tensor %3, %4 : {V}, !torch.vtensor<[1,3],f32> -> {V}
  %6 = torch.aten.relu %5 : {V} -> {V}
  %7 = torch.prims.squeeze %1, %dims : !torch.vtensor<[1,3],f32>, !torch.list<int> -> !torch.vtensor<[3],f32>
  return %6, %7 : {V}, !torch.vtensor<[3],f32>
}}
"""
    x = np.array([[1.0, -2.0, 3.0], [3.0, 2.0, -1.0]], np.float32)
    w = np.array([1.0, -1.0, 2.0], np.float32)
    y, inv = run1(text, x, w)
    var, mean = x.var(axis=0), x.mean(axis=0)
    np.testing.assert_allclose(inv, 1 / np.sqrt(var + 1e-5), rtol=1e-6)
    np.testing.assert_allclose(y, np.maximum((x - mean) / np.sqrt(var + 1e-5) * w, 0), rtol=1e-5)
    assert y.dtype == np.float32


@pytest.mark.parametrize("padding, ceil_mode", [(0, False), (1, False), (0, True), (1, True)])
def test_max_pool2d_with_indices_and_backward_are_pytorchs(padding, ceil_mode):
    import torch

    V = "!torch.vtensor"
    x = np.random.default_rng(1).standard_normal((2, 3, 7, 8)).astype(np.float32)
    x[0, 0, 0, :2] = 5.0  # a tie: the first maximum's index
    tx = torch.tensor(x, requires_grad=True)
    y, idx = torch.nn.functional.max_pool2d(tx, 3, 2, padding, 1, ceil_mode=ceil_mode, return_indices=True)
    g = torch.randn(y.shape, generator=torch.Generator().manual_seed(0))
    y.backward(g)
    text = f"""func.func @main(%x: {V}<[2,3,7,8],f32>, %g: {V}<[{','.join(map(str, y.shape))}],f32>) -> ({V}<[{','.join(map(str, y.shape))}],f32>, {V}<[{','.join(map(str, y.shape))}],si64>, {V}<[2,3,7,8],f32>) {{
  %k = torch.constant.int 3
  %s = torch.constant.int 2
  %p = torch.constant.int {padding}
  %d = torch.constant.int 1
  %ceil = torch.constant.bool {str(ceil_mode).lower()}
  %kk = torch.prim.ListConstruct %k, %k : (!torch.int, !torch.int) -> !torch.list<int>
  %ss = torch.prim.ListConstruct %s, %s : (!torch.int, !torch.int) -> !torch.list<int>
  %pp = torch.prim.ListConstruct %p, %p : (!torch.int, !torch.int) -> !torch.list<int>
  %dd = torch.prim.ListConstruct %d, %d : (!torch.int, !torch.int) -> !torch.list<int>
  %y, %i = torch.aten.max_pool2d_with_indices %x, %kk, %ss, %pp, %dd, %ceil : {V}<[2,3,7,8],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> {V}<[{','.join(map(str, y.shape))}],f32>, {V}<[{','.join(map(str, y.shape))}],si64>
  %gx = torch.aten.max_pool2d_with_indices_backward %g, %x, %kk, %ss, %pp, %dd, %ceil, %i : {V}<[{','.join(map(str, y.shape))}],f32>, {V}<[2,3,7,8],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, {V}<[{','.join(map(str, y.shape))}],si64> -> {V}<[2,3,7,8],f32>
  return %y, %i, %gx : {V}<[{','.join(map(str, y.shape))}],f32>, {V}<[{','.join(map(str, y.shape))}],si64>, {V}<[2,3,7,8],f32>
}}
"""
    got_y, got_i, got_g = run1(text, x, g.numpy())
    assert got_y.shape == tuple(y.shape)
    np.testing.assert_array_equal(got_y, y.detach().numpy())
    np.testing.assert_array_equal(got_i, idx.numpy())
    np.testing.assert_allclose(got_g, tx.grad.numpy(), rtol=1e-6)


def test_cat_and_index_tensor():
    V = "!torch.vtensor"
    text = f"""func.func @main(%a: {V}<[2,1],f32>, %b: {V}<[2,2],f32>, %i: {V}<[3],si64>, %j: {V}<[3],si64>) -> ({V}<[2,3],f32>, {V}<[3],f32>) {{
  %int1 = torch.constant.int 1
  %l = torch.prim.ListConstruct %a, %b : ({V}<[2,1],f32>, {V}<[2,2],f32>) -> !torch.list<vtensor>
  %c = torch.aten.cat %l, %int1 : !torch.list<vtensor>, !torch.int -> {V}<[2,3],f32>
  %ix = torch.prim.ListConstruct %i, %j : ({V}<[3],si64>, {V}<[3],si64>) -> !torch.list<optional<vtensor>>
  %e = torch.aten.index.Tensor %c, %ix : {V}<[2,3],f32>, !torch.list<optional<vtensor>> -> {V}<[3],f32>
  return %c, %e : {V}<[2,3],f32>, {V}<[3],f32>
}}
"""
    c, e = run1(text, np.array([[1.0], [2.0]], np.float32), np.array([[3.0, 4.0], [5.0, 6.0]], np.float32), np.array([1, 0, 1]), np.array([2, 0, 0]))
    np.testing.assert_array_equal(c, [[1.0, 3.0, 4.0], [2.0, 5.0, 6.0]])
    np.testing.assert_array_equal(e, [6.0, 1.0, 2.0])


def _vt(shape, dtype: str = "f32") -> str:
    return f"!torch.vtensor<[{','.join(map(str, shape))}],{dtype}>"


def _int_list(name: str, values) -> str:
    """`%name = torch.prim.ListConstruct` of int constants."""
    consts = "".join(f"  %{name}_{i} = torch.constant.int {v}\n" for i, v in enumerate(values))
    operands = ", ".join(f"%{name}_{i}" for i in range(len(values)))
    return consts + f"  %{name} = torch.prim.ListConstruct {operands} : ({', '.join(['!torch.int'] * len(values))}) -> !torch.list<int>\n"


@pytest.mark.parametrize("k, stride, padding, ceil_mode, count_include_pad, divisor", [
    ([3], [2], [1], False, True, None),
    ([2, 3], [2, 2], [1, 1], True, False, None),
    ([3, 3], [2, 1], [1, 0], True, True, None),
    ([3, 2], [1, 2], [0, 1], False, True, 5),
    ([2, 3, 3], [2, 2, 1], [1, 1, 0], True, False, None),
    ([2, 2, 2], [1, 2, 2], [0, 1, 1], False, True, None),
])
def test_avg_pool_is_pytorchs(k, stride, padding, ceil_mode, count_include_pad, divisor):
    """aten.avg_pool1d/2d/3d: every window's sum over the zero padding,
    divided by the window size clipped to the padded input or to the input
    (count_include_pad), or by divisor_override; ceil_mode's extra windows."""
    import torch

    n = len(k)
    shape = (2, 3, 5, 7, 6)[: 2 + n]
    x = np.random.default_rng(n).standard_normal(shape).astype(np.float32)
    pool = {1: torch.nn.functional.avg_pool1d, 2: torch.nn.functional.avg_pool2d, 3: torch.nn.functional.avg_pool3d}[n]
    extra = {} if n == 1 else {"divisor_override": divisor}
    want = pool(torch.tensor(x), k, stride, padding, ceil_mode, count_include_pad, **extra).numpy()
    div = "" if n == 1 else (", %div" if divisor else ", %none")
    div_type = "" if n == 1 else ", !torch.int" if divisor else ", !torch.none"
    body = (_int_list("k", k) + _int_list("s", stride) + _int_list("p", padding)
            + f"  %ceil = torch.constant.bool {str(ceil_mode).lower()}\n  %cip = torch.constant.bool {str(count_include_pad).lower()}\n"
            + f"  %none = torch.constant.none\n  %div = torch.constant.int {divisor or 1}\n"
            + f"  %y = torch.aten.avg_pool{n}d %x, %k, %s, %p, %ceil, %cip{div} : {_vt(shape)}, !torch.list<int>, !torch.list<int>, "
            + f"!torch.list<int>, !torch.bool, !torch.bool{div_type} -> {_vt(want.shape)}\n")
    text = f"func.func @main(%x: {_vt(shape)}) -> {_vt(want.shape)} {{\n{body}  return %y : {_vt(want.shape)}\n}}\n"
    np.testing.assert_allclose(run1(text, x)[0], want, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("padding, ceil_mode", [(0, False), (1, True)])
def test_max_pool3d_with_indices_and_backward_are_pytorchs(padding, ceil_mode):
    """Indices flat over (d, h, w) as PyTorch numbers them; the backward
    scatters through them."""
    import torch

    x = np.random.default_rng(2).standard_normal((2, 2, 5, 6, 7)).astype(np.float32)
    x[0, 0, 0, 0, :2] = 5.0  # a tie: the first maximum's index
    tx = torch.tensor(x, requires_grad=True)
    y, idx = torch.nn.functional.max_pool3d(tx, (2, 3, 3), (1, 2, 2), padding, 1, ceil_mode=ceil_mode, return_indices=True)
    g = torch.randn(y.shape, generator=torch.Generator().manual_seed(0))
    y.backward(g)
    Y, I, X = _vt(y.shape), _vt(y.shape, "si64"), _vt(x.shape)
    L = "!torch.list<int>"
    body = (_int_list("k", [2, 3, 3]) + _int_list("s", [1, 2, 2]) + _int_list("p", [padding] * 3) + _int_list("d", [1, 1, 1])
            + f"  %ceil = torch.constant.bool {str(ceil_mode).lower()}\n"
            + f"  %y, %i = torch.aten.max_pool3d_with_indices %x, %k, %s, %p, %d, %ceil : {X}, {L}, {L}, {L}, {L}, !torch.bool -> {Y}, {I}\n"
            + f"  %gx = torch.aten.max_pool3d_with_indices_backward %g, %x, %k, %s, %p, %d, %ceil, %i : {Y}, {X}, {L}, {L}, {L}, {L}, !torch.bool, {I} -> {X}\n")
    text = f"func.func @main(%x: {X}, %g: {Y}) -> ({Y}, {I}, {X}) {{\n{body}  return %y, %i, %gx : {Y}, {I}, {X}\n}}\n"
    got_y, got_i, got_g = run1(text, x, g.numpy())
    np.testing.assert_array_equal(got_y, y.detach().numpy())
    np.testing.assert_array_equal(got_i, idx.numpy())
    np.testing.assert_allclose(got_g, tx.grad.numpy(), rtol=1e-6)


def test_split_unpack_and_elementwise_torch_ops():
    """split_with_sizes then prim.ListUnpack (shufflenet's channel split),
    tanh, sigmoid, full_like, empty_like's shape and NumToTensor."""
    A, B, C = _vt([2, 1]), _vt([2, 3]), _vt([2, 4])
    text = f"""func.func @main(%x: {C}) -> ({A}, {B}, {A}, {A}, {A}, {A}, !torch.vtensor<[],f32>) {{
  %int1 = torch.constant.int 1
  %int3 = torch.constant.int 3
  %f = torch.constant.float 2.500000e+00
  %none = torch.constant.none
  %sizes = torch.prim.ListConstruct %int1, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %parts = torch.aten.split_with_sizes %x, %sizes, %int1 : {C}, !torch.list<int>, !torch.int -> !torch.list<vtensor>
  %a, %b = torch.prim.ListUnpack %parts : !torch.list<vtensor> -> {A}, {B}
  %t = torch.aten.tanh %a : {A} -> {A}
  %s = torch.aten.sigmoid %a : {A} -> {A}
  %full = torch.aten.full_like %a, %f, %none, %none, %none, %none, %none : {A}, !torch.float, !torch.none, !torch.none, !torch.none, !torch.none, !torch.none -> {A}
  %e = torch.aten.empty_like %a, %none, %none, %none, %none, %none : {A}, !torch.none, !torch.none, !torch.none, !torch.none, !torch.none -> {A}
  %n = torch.prim.NumToTensor.Scalar %f : !torch.float -> !torch.vtensor<[],f32>
  return %a, %b, %t, %s, %full, %e, %n : {A}, {B}, {A}, {A}, {A}, {A}, !torch.vtensor<[],f32>
}}
"""
    x = np.array([[-90.0, 1.0, 2.0, 3.0], [0.5, 4.0, 5.0, 6.0]], np.float32)
    a, b, t, s, full, e, n = run1(text, x)
    np.testing.assert_array_equal(a, x[:, :1])
    np.testing.assert_array_equal(b, x[:, 1:])
    np.testing.assert_allclose(t, np.tanh(x[:, :1]), rtol=1e-6)
    np.testing.assert_allclose(s, 1 / (1 + np.exp(-x[:, :1].astype(np.float64))), rtol=1e-6, atol=1e-30)
    np.testing.assert_array_equal(full, np.full((2, 1), 2.5, np.float32))
    assert e.shape == (2, 1) and e.dtype == np.float32
    assert n.shape == () and n == 2.5


PHASE_ROWS = [
    harness.C("dw_phases_3x3_s2", batch=4, cin=3, cout=3, groups=3, spatial=(16, 16), kernel=(3, 3), stride=(2, 2), padding=(1, 1), mask=(True, False, False)),
    harness.C("dw_phases_5x5_s2_odd", batch=4, cin=2, cout=2, groups=2, spatial=(15, 17), kernel=(5, 5), stride=(2, 2), padding=(2, 2), mask=(True, False, False)),
    harness.C("dw_phases_mixed_dilated", batch=4, cin=2, cout=2, groups=2, spatial=(14, 13), kernel=(3, 3), stride=(2, 1), padding=(1, 2), dilation=(1, 2), mask=(True, False, False)),
    harness.C("dw_phases_s3_k4", batch=4, cin=2, cout=2, groups=2, spatial=(19, 16), kernel=(4, 4), stride=(3, 3), padding=(2, 0), mask=(True, False, False)),
    harness.C("dw_phases_1d", nd=1, batch=4, cin=3, cout=3, groups=3, spatial=(80,), kernel=(3,), stride=(2,), padding=(1,), mask=(True, False, False)),
    harness.C("dw_phases_bf16", batch=4, cin=3, cout=3, groups=3, spatial=(16, 16), kernel=(3, 3), stride=(2, 2), padding=(1, 1), mask=(True, False, False), dtype="bf16"),
]
"""Strided depthwise grad_inputs large enough for the channels-last form
(the flip under 1% of the multiply-adds): phases with 2x2, 2x1, 1x2 and 1x1
taps (a unit-tap dim as a 1-D convolution over the batch or the channels),
output sizes not a multiple of the stride, a stride-1 dilated dim beside a
strided one, stride 3, 1-D, bf16."""


@pytest.mark.parametrize("cfg", PHASE_ROWS, ids=lambda c: c.name)
def test_depthwise_scatter_by_phases_matches_torch(cfg: harness.Config):
    """channels_last._scatter_phases: one depthwise convolution per
    combination of output phases, interleaved by one op (no insert)."""
    lowered = harness.lower(harness.torch_ir(cfg), PATHS["named"])
    assert "linalg.depthwise_conv" in lowered and "tensor.insert_slice" not in lowered, lowered
    check_conv_bwd(cfg, PATHS["named"])
