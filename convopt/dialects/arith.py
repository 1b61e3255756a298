"""arith (and math): constants, comparisons, select, the same-type
arithmetic families and the casts."""

from __future__ import annotations

from typing import Optional

from ..ir.attributes import Attribute, DenseAttr, DenseResourceAttr, FloatAttr, IntegerAttr, format_float
from ..ir.core import Operation, Value
from ..ir.types import FloatType, IndexType, IntegerType, RankedTensorType, Type, i1, i64
from .base import BuilderAPI, OpDef, OpSyntaxAPI, PrinterAPI, ResolverAPI, cast_op, fail, family, fits_i64, rest

CMPI_PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
CMPF_PREDICATES = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"]

# --- the op names (constants for everyone else; no other module spells them) ------------------

CONSTANT = "arith.constant"
CMPI = "arith.cmpi"
CMPF = "arith.cmpf"
SELECT = "arith.select"
ADDF = "arith.addf"
SUBF = "arith.subf"
MULF = "arith.mulf"
DIVF = "arith.divf"
REMF = "arith.remf"
MAXIMUMF = "arith.maximumf"
MINIMUMF = "arith.minimumf"
MAXNUMF = "arith.maxnumf"
MINNUMF = "arith.minnumf"
NEGF = "arith.negf"
ADDI = "arith.addi"
SUBI = "arith.subi"
MULI = "arith.muli"
DIVSI = "arith.divsi"
DIVUI = "arith.divui"
CEILDIVSI = "arith.ceildivsi"
FLOORDIVSI = "arith.floordivsi"
REMSI = "arith.remsi"
REMUI = "arith.remui"
MAXSI = "arith.maxsi"
MINSI = "arith.minsi"
MAXUI = "arith.maxui"
MINUI = "arith.minui"
ANDI = "arith.andi"
ORI = "arith.ori"
XORI = "arith.xori"
SHLI = "arith.shli"
SHRSI = "arith.shrsi"
SHRUI = "arith.shrui"
SQRT = "math.sqrt"
RSQRT = "math.rsqrt"
EXP = "math.exp"
EXP2 = "math.exp2"
LOG = "math.log"
LOG2 = "math.log2"
TANH = "math.tanh"
ABSF = "math.absf"
ABSI = "math.absi"
FMA = "math.fma"
CEIL = "math.ceil"
FLOOR = "math.floor"
ROUND = "math.round"
ROUNDEVEN = "math.roundeven"
TRUNC = "math.trunc"
ERF = "math.erf"
SIN = "math.sin"
COS = "math.cos"
POWF = "math.powf"
FPOWI = "math.fpowi"
EXTF = "arith.extf"
TRUNCF = "arith.truncf"
EXTSI = "arith.extsi"
EXTUI = "arith.extui"
TRUNCI = "arith.trunci"
SITOFP = "arith.sitofp"
UITOFP = "arith.uitofp"
FPTOSI = "arith.fptosi"
FPTOUI = "arith.fptoui"
INDEX_CAST = "arith.index_cast"
INDEX_CASTUI = "arith.index_castui"
BITCAST = "arith.bitcast"

FLOAT_OPS = (ADDF, SUBF, MULF, DIVF, REMF, MAXIMUMF, MINIMUMF, MAXNUMF, MINNUMF, NEGF)
INT_OPS = (ADDI, SUBI, MULI, DIVSI, DIVUI, CEILDIVSI, FLOORDIVSI, REMSI, REMUI, MAXSI, MINSI, MAXUI, MINUI, ANDI, ORI, XORI, SHLI, SHRSI, SHRUI)
MATH_OPS = (SQRT, RSQRT, EXP, EXP2, LOG, LOG2, TANH, ABSF, ABSI, FMA, CEIL, FLOOR, ROUND, ROUNDEVEN, TRUNC, ERF, SIN, COS, POWF)
CASTS = (EXTF, TRUNCF, EXTSI, EXTUI, TRUNCI, SITOFP, UITOFP, FPTOSI, FPTOUI, INDEX_CAST, INDEX_CASTUI, BITCAST)


# --- arith.constant ----------------------------------------------------------------------

def _typed_value(attr: object) -> str:
    if isinstance(attr, IntegerAttr):
        t = attr.type
        if isinstance(t, IntegerType) and t.width == 1 and not t.signedness:
            return "true" if attr.value else "false"
        return f"{attr.value} : {t}"
    if isinstance(attr, FloatAttr):
        return f"{format_float(attr.value, attr.type)} : {attr.type}"
    return str(attr)


def _print_constant(p: PrinterAPI, op: Operation) -> str:
    value = op.attributes["value"]
    return f"arith.constant{p.attr_dict(rest(op, 'value'))} {p.attr(value) if isinstance(value, DenseAttr) else _typed_value(value)}"


_TYPED_VALUES = (IntegerAttr, FloatAttr, DenseAttr, DenseResourceAttr)


def _verify_constant(op: Operation) -> None:
    """The value's type is the result's; an index value fits i64 (a
    lowering's computed one may not: base.fits_i64's located error)."""
    value = op.attributes.get("value")
    if not isinstance(value, _TYPED_VALUES) or value.type != op.results[0].type:
        raise fail(op, "value type must match the result type")
    if isinstance(value, IntegerAttr) and isinstance(value.type, IndexType):
        fits_i64(op, "index constant", (value.value,))


def _parse_constant(r: ResolverAPI, syn: OpSyntaxAPI) -> Operation:
    value = syn.attributes["value"]
    if not isinstance(value, _TYPED_VALUES):
        raise r.fail("'arith.constant' needs a typed value (e.g. `0 : index`, `1.0 : f32`, `dense<...> : tensor<...>`)", syn.token)
    return Operation(syn.name, [], [value.type], {"value": value})


def _constant_name(op: Operation) -> str:
    value = op.attributes.get("value")
    if isinstance(value, IntegerAttr):
        t = value.type
        if isinstance(t, IndexType):
            return f"c{value.value}"
        if isinstance(t, IntegerType) and t.width == 1 and not t.signedness:
            return "true" if value.value else "false"
        return f"c{value.value}_{t}"
    return "cst"


# --- arith.cmpi / arith.cmpf ------------------------------------------------------------

def _predicates(op_name: str) -> list[str]:
    return CMPI_PREDICATES if op_name == CMPI else CMPF_PREDICATES


def _fits_cmp(op: Operation) -> bool:
    pred = op.attributes["predicate"]
    return isinstance(pred, IntegerAttr) and 0 <= pred.value < len(_predicates(op.name))


def _print_cmp(p: PrinterAPI, op: Operation) -> str:
    pred = op.attributes["predicate"]
    assert isinstance(pred, IntegerAttr)
    return f"{op.name} {_predicates(op.name)[pred.value]}, {p.values(op.operands)}{p.attr_dict(rest(op, 'predicate'))} : {op.operands[0].type}"


def _verify_cmp(op: Operation) -> None:
    if op.operands[0].type != op.operands[1].type:
        raise fail(op, "requires both operands to have the same type")


def _parse_cmp(r: ResolverAPI, syn: OpSyntaxAPI) -> Operation:
    table = _predicates(syn.name)
    pred = syn.extra["predicate"]
    if pred not in table:
        raise r.fail(f"invalid predicate '{pred}' for '{syn.name}'", syn.token)
    ops = r.operands(syn, syn.operands, list(syn.operand_types))
    t = syn.operand_types[0]
    result: Type = RankedTensorType(t.shape, i1) if isinstance(t, RankedTensorType) else i1
    attrs = {"predicate": IntegerAttr(table.index(pred), i64), **syn.attributes}
    return Operation(syn.name, ops, [result], attrs)


# --- arith.select ------------------------------------------------------------------------

def _print_select(p: PrinterAPI, op: Operation) -> str:
    cond = op.operands[0].type
    types = str(op.results[0].type) if isinstance(cond, IntegerType) else f"{cond}, {op.results[0].type}"
    return f"arith.select {p.values(op.operands)}{p.attr_dict(op.attributes)} : {types}"


def _verify_select(op: Operation) -> None:
    if not (op.operands[1].type == op.operands[2].type == op.results[0].type):
        raise fail(op, "requires the true and false values and the result to have the same type")


def _select_types(r: ResolverAPI, syn: OpSyntaxAPI, lhs: list[Type]) -> tuple[list[Type], list[Type]]:
    """`: T` (an i1 condition) or `: C, T`."""
    if len(lhs) == 1:
        return [i1, lhs[0], lhs[0]], [lhs[0]]
    return [lhs[0], lhs[1], lhs[1]], [lhs[1]]


# --- same-type arithmetic: `op %a, %b : T` ------------------------------------------------------

def _print_same_type(p: PrinterAPI, op: Operation) -> str:
    return f"{op.name} {p.values(op.operands)}{p.attr_dict(op.attributes)} : {op.results[0].type}"


def _verify_same_type(op: Operation) -> None:
    t = op.results[0].type
    for v in op.operands:
        if v.type != t:
            raise fail(op, f"requires the same type for all operands and results, found '{v.type}' and '{t}'")


def _same_types(r: ResolverAPI, syn: OpSyntaxAPI, lhs: list[Type]) -> tuple[list[Type], list[Type]]:
    if len(lhs) != 1:
        raise r.fail(f"'{syn.name}' expects a single type after ':'", syn.token)
    return [lhs[0]] * len(syn.operands), [lhs[0]]


# --- math.fpowi: `math.fpowi %x, %n : F, I` (a float to an integer power) --------------------------

def _print_fpowi(p: PrinterAPI, op: Operation) -> str:
    return f"{op.name} {p.values(op.operands)}{p.attr_dict(op.attributes)} : {p.types(v.type for v in op.operands)}"


def _fpowi_types(r: ResolverAPI, syn: OpSyntaxAPI, lhs: list[Type]) -> tuple[list[Type], list[Type]]:
    if len(lhs) != 2:
        raise r.fail(f"'{syn.name}' expects the types of its base and exponent after ':'", syn.token)
    return lhs, [lhs[0]]


def _verify_fpowi(op: Operation) -> None:
    if op.results[0].type != op.operands[0].type:
        raise fail(op, f"requires the result type to be the base's, found '{op.results[0].type}' and '{op.operands[0].type}'")


_SAME_TYPE = dict(
    results=1, print=_print_same_type, colon_types=_same_types, verify=_verify_same_type,
    pure=True, functional_types=False, rejects_properties=False, optional_attrs=("fastmath", "overflowFlags"),
)

OPS: dict[str, OpDef] = {
    CONSTANT: OpDef(
        CONSTANT, operands=0, results=1, attrs=("value",), print=_print_constant, parse=_parse_constant,
        verify=_verify_constant, result_name=_constant_name, pure=True,
    ),
    **family(
        [CMPI, CMPF], operands=2, results=1, attrs=("predicate",), print=_print_cmp, fits=_fits_cmp,
        parse=_parse_cmp, verify=_verify_cmp, pure=True, optional_attrs=("fastmath",),
    ),
    SELECT: OpDef(
        SELECT, operands=3, results=1, print=_print_select, colon_types=_select_types, verify=_verify_select, pure=True,
    ),
    **family(FLOAT_OPS + INT_OPS + MATH_OPS, **_SAME_TYPE),  # type: ignore[arg-type]
    FPOWI: OpDef(
        FPOWI, operands=2, results=1, print=_print_fpowi, colon_types=_fpowi_types, verify=_verify_fpowi,
        pure=True, functional_types=False, rejects_properties=False, optional_attrs=("fastmath",),
    ),
    **{n: cast_op(n, pure=True, optional_attrs=("fastmath", "roundingmode")) for n in CASTS},
}


def default(name: str) -> Optional[OpDef]:
    """Any other arith or math op: free of side effects, printed generically
    (and built by no one)."""
    return OpDef(name, pure=True, registered=False)




# --- builders -------------------------------------------------------------------------------------

def constant(b: BuilderAPI, value: Attribute, type: Type) -> Value:
    """`arith.constant value : type`."""
    return b.create(CONSTANT, [], [type], {"value": value}).results[0]


def same_type(b: BuilderAPI, name: str, *operands: Value) -> Value:
    """`name %a, %b : T`, one of the same-type ops (ADDF, SUBI, MAXSI, EXP ...):
    operands and result all of the first operand's type."""
    assert name in _SAME_TYPE_NAMES, f"{name} is not a same-type arith/math op"
    return b.create(name, operands, [operands[0].type]).results[0]


def cmpi(b: BuilderAPI, predicate: str, x: Value, y: Value) -> Value:
    """`arith.cmpi predicate, %x, %y : T` (predicate one of CMPI_PREDICATES): an i1."""
    return b.create(CMPI, [x, y], [i1], {"predicate": IntegerAttr(CMPI_PREDICATES.index(predicate), i64)}).results[0]


def cmpf(b: BuilderAPI, predicate: str, x: Value, y: Value) -> Value:
    """`arith.cmpf predicate, %x, %y : T` (predicate one of CMPF_PREDICATES): an i1."""
    return b.create(CMPF, [x, y], [i1], {"predicate": IntegerAttr(CMPF_PREDICATES.index(predicate), i64)}).results[0]


def select(b: BuilderAPI, cond: Value, x: Value, y: Value) -> Value:
    """`arith.select %cond, %x, %y : T`: x where cond, else y."""
    return b.create(SELECT, [cond, x, y], [x.type]).results[0]


def cast_name(src: Type, dst: Type) -> str:
    """The signed cast (linalg's) from scalar type src to another, dst:
    extf / truncf, extsi / trunci, sitofp, fptosi."""
    if isinstance(src, FloatType) and isinstance(dst, FloatType):
        return EXTF if src.width < dst.width else TRUNCF
    if isinstance(src, IntegerType) and isinstance(dst, IntegerType):
        return EXTSI if src.width < dst.width else TRUNCI
    if isinstance(src, IntegerType) and isinstance(dst, FloatType):
        return SITOFP
    if isinstance(src, FloatType) and isinstance(dst, IntegerType):
        return FPTOSI
    raise ValueError(f"no cast from {src} to {dst}")


def convert(b: BuilderAPI, name: str, x: Value, type: Type) -> Value:
    """`name %x : A to B`, one of CASTS (EXTF, TRUNCF, INDEX_CAST ...)."""
    assert name in CASTS, f"{name} is not an arith cast"
    return b.create(name, [x], [type]).results[0]


_SAME_TYPE_NAMES = frozenset(FLOAT_OPS + INT_OPS + MATH_OPS)
