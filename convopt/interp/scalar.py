"""Elementwise semantics of arith and math ops, on numpy values.

Each function takes the op and its operands as numpy arrays (or scalars) of
the operand types, broadcast against each other, and returns the result;
the caller converts it to the result type.  The same functions run the ops
of a function body (on scalars or on elementwise tensors) and the bodies of
`linalg.generic` (on whole gathered arrays at once, see body.py).

Floats compute in their own type: numpy rounds float16/32/64 results per
op; ml_dtypes' bfloat16 (and float8) compute in float32 and are rounded
back to their type, which gives the correctly rounded result for + - * /.
Integers wrap at their width; signless integers are signed unless the op
says unsigned (divui, cmpi ult, shrui, extui, uitofp, index_castui).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ..dialects import affine, arith, cf
from ..dialects.arith import CMPF_PREDICATES, CMPI_PREDICATES
from ..ir.attributes import AffineMapAttr, IntegerAttr
from ..ir.core import Operation
from .core import InterpError, Interpreter, attr, handler
from .values import constant_value, np_dtype, unsigned

Scalar = Callable[..., object]
SCALAR: dict[str, Scalar] = {}
"""Op name -> fn(op, *operands) for every elementwise op."""


def _float(fn: Callable) -> Scalar:
    """A float op: computed in the operands' dtype, or in float32 for the
    ml_dtypes formats (bfloat16, float8) and rounded back."""

    def run(op: Operation, *xs):
        arrays = [np.asarray(x) for x in xs]
        dtype = arrays[0].dtype
        if dtype.kind != "f":
            return fn(*[a.astype(np.float32) for a in arrays]).astype(dtype)
        return fn(*arrays)

    return run


def _int(fn: Callable, is_unsigned: bool = False) -> Scalar:
    """An integer op at the operands' width (i1 as 0/1 in uint8), signed
    unless is_unsigned; the result in the operands' dtype."""

    def run(op: Operation, *xs):
        arrays = [np.asarray(x) for x in xs]
        dtype = arrays[0].dtype
        work = np.dtype(np.uint8) if dtype == np.bool_ else unsigned(dtype) if is_unsigned else dtype
        result = np.asarray(fn(*[a.astype(work) for a in arrays]))
        if dtype == np.bool_:
            return (result & 1).astype(np.bool_)
        return result.astype(work).astype(dtype)

    return run


def _nonzero(b: np.ndarray) -> None:
    if np.any(b == 0):
        raise ZeroDivisionError


def _divsi(a, b):
    _nonzero(b)
    q = np.floor_divide(a, b)
    return q + ((a - q * b != 0) & ((a < 0) != (b < 0)))


def _ceildivsi(a, b):
    _nonzero(b)
    q = np.floor_divide(a, b)
    return q + (a - q * b != 0)


def _floordivsi(a, b):
    _nonzero(b)
    return np.floor_divide(a, b)


def _remsi(a, b):
    _nonzero(b)
    return a - _divsi(a, b) * b


def _divui(a, b):
    _nonzero(b)
    return np.floor_divide(a, b)


def _remui(a, b):
    _nonzero(b)
    return np.remainder(a, b)


def _round_half_away(x):
    return np.copysign(np.floor(np.abs(x) + 0.5), x)


_erf = np.frompyfunc(math.erf, 1, 1)

SCALAR.update({
    arith.ADDF: _float(np.add),
    arith.SUBF: _float(np.subtract),
    arith.MULF: _float(np.multiply),
    arith.DIVF: _float(np.divide),
    arith.REMF: _float(np.fmod),
    arith.NEGF: _float(np.negative),
    arith.MAXIMUMF: _float(np.maximum),
    arith.MINIMUMF: _float(np.minimum),
    arith.MAXNUMF: _float(np.fmax),
    arith.MINNUMF: _float(np.fmin),
    arith.ABSF: _float(np.abs),
    arith.SQRT: _float(np.sqrt),
    arith.RSQRT: _float(lambda x: 1 / np.sqrt(x)),
    arith.EXP: _float(np.exp),
    arith.EXP2: _float(np.exp2),
    arith.LOG: _float(np.log),
    arith.LOG2: _float(np.log2),
    arith.TANH: _float(np.tanh),
    arith.SIN: _float(np.sin),
    arith.COS: _float(np.cos),
    arith.CEIL: _float(np.ceil),
    arith.FLOOR: _float(np.floor),
    arith.ROUND: _float(_round_half_away),
    arith.ROUNDEVEN: _float(np.rint),
    arith.TRUNC: _float(np.trunc),
    arith.POWF: _float(np.power),
    arith.FPOWI: _float(lambda x, n: np.power(x, n.astype(x.dtype))),
    arith.FMA: _float(lambda a, b, c: a * b + c),
    arith.ERF: _float(lambda x: np.asarray(_erf(x), dtype=x.dtype)),
    arith.ADDI: _int(np.add),
    arith.SUBI: _int(np.subtract),
    arith.MULI: _int(np.multiply),
    arith.DIVSI: _int(_divsi),
    arith.CEILDIVSI: _int(_ceildivsi),
    arith.FLOORDIVSI: _int(_floordivsi),
    arith.REMSI: _int(_remsi),
    arith.DIVUI: _int(_divui, True),
    arith.REMUI: _int(_remui, True),
    arith.MAXSI: _int(np.maximum),
    arith.MINSI: _int(np.minimum),
    arith.MAXUI: _int(np.maximum, True),
    arith.MINUI: _int(np.minimum, True),
    arith.ANDI: _int(np.bitwise_and),
    arith.ORI: _int(np.bitwise_or),
    arith.XORI: _int(np.bitwise_xor),
    arith.SHLI: _int(np.left_shift),
    arith.SHRSI: _int(np.right_shift),
    arith.SHRUI: _int(np.right_shift, True),
    arith.ABSI: _int(np.abs),
})


# --- comparisons and select ---------------------------------------------------------------------

def _predicate(op: Operation, table: list[str]) -> str:
    p = attr(op, "predicate")
    if not isinstance(p, IntegerAttr) or not 0 <= p.value < len(table):
        raise InterpError(f"'{op.name}' has no valid predicate", op)
    return table[p.value]


_RELATIONS = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}


def _cmpi(op: Operation, a, b):
    pred = _predicate(op, CMPI_PREDICATES)
    a, b = np.asarray(a), np.asarray(b)
    if pred[0] == "u":
        a, b = a.astype(unsigned(a.dtype)), b.astype(unsigned(b.dtype))
    return _RELATIONS[pred[1:] if pred[0] in "su" else pred](a, b)


_CMPF_RELATIONS = {"eq": np.equal, "gt": np.greater, "ge": np.greater_equal, "lt": np.less, "le": np.less_equal, "ne": np.not_equal}


def _cmpf(op: Operation, a, b):
    pred = _predicate(op, CMPF_PREDICATES)
    a, b = np.asarray(a).astype(np.float64), np.asarray(b).astype(np.float64)  # exact for every float type
    unordered = np.isnan(a) | np.isnan(b)
    if pred in ("false", "true"):
        return np.full(np.broadcast(a, b).shape, pred == "true")
    if pred == "ord":
        return ~unordered
    if pred == "uno":
        return unordered
    rel = _CMPF_RELATIONS[pred[1:]](a, b)
    return (rel & ~unordered) if pred[0] == "o" else (rel | unordered)


def _select(op: Operation, c, a, b):
    return np.where(np.asarray(c, dtype=np.bool_), a, b)


SCALAR.update({arith.CMPI: _cmpi, arith.CMPF: _cmpf, arith.SELECT: _select})


# --- casts ----------------------------------------------------------------------------------------

def _result_dtype(op: Operation) -> np.dtype:
    return np_dtype(op.results[0].type)


def _convert(op: Operation, x):
    """extf, truncf, sitofp, fptosi, extsi, trunci, index_cast: a numpy conversion
    (an i1 extended as signed is 0 or -1)."""
    x = np.asarray(x)
    if x.dtype == np.bool_ and op.name in (arith.EXTSI, arith.SITOFP, arith.INDEX_CAST):
        x = -x.astype(np.int8)
    return x.astype(_result_dtype(op))


def _convert_unsigned(op: Operation, x):
    """extui, uitofp, index_castui: the operand read as unsigned."""
    x = np.asarray(x)
    return x.astype(unsigned(x.dtype)).astype(_result_dtype(op))


def _fptoi(op: Operation, x):
    x = np.asarray(x)
    return np.trunc(x.astype(np.float64)).astype(_result_dtype(op))


def _bitcast(op: Operation, x):
    x = np.ascontiguousarray(x)
    return x.view(_result_dtype(op))


SCALAR.update({name: _convert for name in (arith.EXTF, arith.TRUNCF, arith.SITOFP, arith.EXTSI, arith.TRUNCI, arith.INDEX_CAST)})
SCALAR.update({name: _convert_unsigned for name in (arith.EXTUI, arith.UITOFP, arith.INDEX_CASTUI)})
SCALAR.update({arith.FPTOSI: _fptoi, arith.FPTOUI: _fptoi, arith.BITCAST: _bitcast})


def evaluate(op: Operation, args: list):
    """Run one elementwise op; a division by zero is an error at the op."""
    try:
        return SCALAR[op.name](op, *args)
    except ZeroDivisionError:
        raise InterpError(f"'{op.name}': division by zero", op) from None


@handler(*SCALAR)
def _elementwise(interp: Interpreter, op: Operation, args: list) -> list:
    return [evaluate(op, args)]


def check_assert(op: Operation, condition: object) -> None:
    """cf.assert: a located error with its message where the condition is
    false (anywhere, for a condition computed per loop point)."""
    if not np.all(np.asarray(condition)):
        raise InterpError(f"'{op.name}' failed: {getattr(op.attributes.get('msg'), 'value', '')}", op)


@handler(cf.ASSERT)
def _assert(interp: Interpreter, op: Operation, args: list) -> list:
    check_assert(op, args[0])
    return []


@handler(affine.APPLY)
def _affine_apply(interp: Interpreter, op: Operation, args: list) -> list:
    m = attr(op, "map")
    assert isinstance(m, AffineMapAttr)
    n = m.map.num_dims
    return [np.int64(m.map.eval([int(a) for a in args[:n]], [int(a) for a in args[n:]])[0])]


@handler(arith.CONSTANT)
def _constant(interp: Interpreter, op: Operation, args: list) -> list:
    value = attr(op, "value")
    assert value is not None
    return [constant_value(value, op.results[0].type, interp.resources)]
