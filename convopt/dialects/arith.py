"""arith (and math): constants, comparisons, select, the same-type
arithmetic families and the casts."""

from __future__ import annotations

from typing import Optional

from ..ir.attributes import DenseAttr, DenseResourceAttr, FloatAttr, IntegerAttr, format_float
from ..ir.core import Operation
from ..ir.types import IndexType, IntegerType, RankedTensorType, Type, i1, i64
from .base import OpDef, OpSyntaxAPI, PrinterAPI, ResolverAPI, cast_op, fail, family, rest

CMPI_PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
CMPF_PREDICATES = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"]

_ARITH_FLOAT = "addf subf mulf divf remf maximumf minimumf maxnumf minnumf negf".split()
_ARITH_INT = "addi subi muli divsi divui ceildivsi floordivsi remsi remui maxsi minsi maxui minui andi ori xori shli shrsi shrui".split()
_MATH = "sqrt rsqrt exp exp2 log log2 tanh absf absi fma ceil floor round erf sin cos powf".split()
_CASTS = "extf truncf extsi extui trunci sitofp uitofp fptosi fptoui index_cast index_castui bitcast".split()


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
    return f"arith.constant{p.attr_dict(rest(op, 'value'))} {_typed_value(op.attributes['value'])}"


_TYPED_VALUES = (IntegerAttr, FloatAttr, DenseAttr, DenseResourceAttr)


def _verify_constant(op: Operation) -> None:
    value = op.attributes.get("value")
    if not isinstance(value, _TYPED_VALUES) or value.type != op.results[0].type:
        raise fail(op, "value type must match the result type")


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
    return CMPI_PREDICATES if op_name == "arith.cmpi" else CMPF_PREDICATES


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


_SAME_TYPE = dict(
    results=1, print=_print_same_type, colon_types=_same_types, verify=_verify_same_type,
    pure=True, functional_types=False, rejects_properties=False,
)

OPS: dict[str, OpDef] = {
    "arith.constant": OpDef(
        "arith.constant", operands=0, results=1, attrs=("value",), print=_print_constant, parse=_parse_constant,
        verify=_verify_constant, result_name=_constant_name, pure=True,
    ),
    **family(
        ["arith.cmpi", "arith.cmpf"], operands=2, results=1, attrs=("predicate",), print=_print_cmp, fits=_fits_cmp,
        parse=_parse_cmp, verify=_verify_cmp, pure=True,
    ),
    "arith.select": OpDef(
        "arith.select", operands=3, results=1, print=_print_select, colon_types=_select_types, verify=_verify_select, pure=True,
    ),
    **family([f"arith.{n}" for n in _ARITH_FLOAT + _ARITH_INT] + [f"math.{n}" for n in _MATH], **_SAME_TYPE),  # type: ignore[arg-type]
    **{f"arith.{n}": cast_op(f"arith.{n}", pure=True) for n in _CASTS},
}


def default(name: str) -> Optional[OpDef]:
    """Any other arith or math op: free of side effects, printed generically."""
    return OpDef(name, pure=True)


