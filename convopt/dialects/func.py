"""func.func and func.return."""

from __future__ import annotations

from typing import Optional

from ..ir.attributes import ArrayAttr, Attribute, DictAttr, StringAttr, TypeAttr, symbol_name
from ..ir.core import Operation
from ..ir.types import FunctionType, Type
from .base import OpDef, OpSyntaxAPI, PrinterAPI, ResolverAPI, fail, rest

FUNC = "func.func"
RETURN = "func.return"
CALL = "func.call"


def short_name(op: Operation) -> str:
    """Ops of the func dialect drop their prefix inside func.func."""
    if op.name.startswith("func.") and op.parent_op is not None and op.parent_op.name == FUNC:
        return op.name[len("func.") :]
    return op.name


def print_terminator(p: PrinterAPI, op: Operation) -> str:
    """`return %a, %b : A, B` (func.return, linalg.yield, tensor.yield, scf.yield)."""
    text = short_name(op)
    if op.operands:
        text += f" {p.values(op.operands)}{p.attr_dict(op.attributes)} : {p.types(v.type for v in op.operands)}"
    else:
        text += p.attr_dict(op.attributes)
    return text


def terminator_types(r: ResolverAPI, syn: OpSyntaxAPI, lhs: list[Type]) -> tuple[list[Type], list[Type]]:
    """`op %a, %b : A, B` (or one type for all): no results."""
    return r.spread(syn, lhs, len(syn.operands)), []


# --- func.func -----------------------------------------------------------------------

_FUNC_ELIDED = ("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs")


def _function_type(op: Operation) -> Optional[FunctionType]:
    fn = op.attributes.get("function_type")
    return fn.type if isinstance(fn, TypeAttr) and isinstance(fn.type, FunctionType) else None


def _dict_list(attr: object, n: int) -> list[dict]:
    if not isinstance(attr, ArrayAttr):
        return [{} for _ in range(n)]
    return [dict(d.entries) if isinstance(d, DictAttr) else {} for d in attr.elements]


def _fits_func(op: Operation) -> bool:
    ftype = _function_type(op)
    if ftype is None or not isinstance(op.attributes.get("sym_name"), StringAttr):
        return False
    for key, n in (("arg_attrs", len(ftype.inputs)), ("res_attrs", len(ftype.results))):
        attr = op.attributes.get(key)
        if isinstance(attr, ArrayAttr) and len(attr.elements) < n:
            return False
    body = op.regions[0] if op.regions and op.regions[0].blocks else None
    return body is None or len(body.blocks[0].args) >= len(ftype.inputs)


def _print_func(p: PrinterAPI, op: Operation) -> str:
    ftype = _function_type(op)
    name = op.attributes["sym_name"]
    assert ftype is not None and isinstance(name, StringAttr)
    text = "func.func "
    vis = op.attributes.get("sym_visibility")
    if isinstance(vis, StringAttr):
        text += vis.value + " "
    text += "@" + symbol_name(name.value) + "("
    arg_attrs = _dict_list(op.attributes.get("arg_attrs"), len(ftype.inputs))
    res_attrs = _dict_list(op.attributes.get("res_attrs"), len(ftype.results))
    args = []
    body = op.regions[0] if op.regions and op.regions[0].blocks else None
    for i, t in enumerate(ftype.inputs):
        extra = p.attr_dict(arg_attrs[i]) if arg_attrs[i] else ""
        if body is not None:
            arg = body.blocks[0].args[i]
            args.append(f"{p.value(arg)}: {t}{extra}{p.loc(arg.loc, arg.pos)}")
        else:
            args.append(f"{t}{extra}")
    text += ", ".join(args) + ")"
    if ftype.results:
        if any(res_attrs) or len(ftype.results) != 1 or isinstance(ftype.results[0], FunctionType):
            parts = [f"{t}{p.attr_dict(res_attrs[i]) if res_attrs[i] else ''}" for i, t in enumerate(ftype.results)]
            text += " -> (" + ", ".join(parts) + ")"
        else:
            text += f" -> {ftype.results[0]}"
    others = rest(op, *_FUNC_ELIDED)
    if others:
        text += " attributes" + p.attr_dict(others)
    if body is not None:
        text += " " + p.region(body, print_entry_args=False)
    return text


def _verify_func(op: Operation) -> None:
    ftype = _function_type(op)
    if ftype is None:
        raise fail(op, "requires a 'function_type' attribute of function type")
    if not isinstance(op.attributes.get("sym_name"), StringAttr):
        raise fail(op, "requires a 'sym_name' string attribute")
    if not op.regions or not op.regions[0].blocks:
        return
    entry = op.regions[0].blocks[0]
    if [a.type for a in entry.args] != list(ftype.inputs):
        raise fail(op, "entry block argument types do not match the function signature")
    for block in op.regions[0].blocks:
        if not block.ops or block.ops[-1].name != RETURN:
            raise fail(op, "expects its body to end with 'func.return'")


def _parse_func(r: ResolverAPI, syn: OpSyntaxAPI) -> Operation:
    x = syn.extra
    args = x["args"]
    arg_types = [a[1] for a in args]
    results = x["results"]
    attrs: dict[str, Attribute] = {"sym_name": StringAttr(x["sym_name"])}
    attrs["function_type"] = TypeAttr(FunctionType(tuple(arg_types), tuple(res[0] for res in results)))
    if x["visibility"] is not None:
        attrs["sym_visibility"] = StringAttr(x["visibility"])
    if any(a[2] for a in args):
        attrs["arg_attrs"] = ArrayAttr(tuple(DictAttr(tuple((a[2] or {}).items())) for a in args))
    if any(res[1] for res in results):
        attrs["res_attrs"] = ArrayAttr(tuple(DictAttr(tuple((res[1] or {}).items())) for res in results))
    attrs.update(x["attrs"])
    regions = []
    if syn.regions:
        if any(a[0] is None for a in args):
            raise r.fail("expected SSA identifier for the arguments of a function with a body", syn.token)
        entry = [(a[0], a[1], a[3]) for a in args]
        regions = [r.build_region(syn.regions[0], True, entry)]
    return Operation(FUNC, [], [], attrs, regions)


# --- func.return -----------------------------------------------------------------------

def _sym(op: Operation) -> str:
    name = op.attributes.get("sym_name")
    return name.value if isinstance(name, StringAttr) else "?"


def _verify_return(op: Operation) -> None:
    parent = op.parent_op
    if parent is None or parent.name != FUNC:
        raise fail(op, "expects parent op 'func.func'")
    ftype = _function_type(parent)
    assert ftype is not None
    results = ftype.results
    if len(op.operands) != len(results):
        raise fail(op, f"has {len(op.operands)} operands, but enclosing function (@{_sym(parent)}) returns {len(results)}")
    for i, (v, t) in enumerate(zip(op.operands, results)):
        if v.type != t:
            raise fail(op, f"type of return operand {i} ('{v.type}') doesn't match function result type ('{t}') in function @{_sym(parent)}")


OPS = {
    FUNC: OpDef(
        FUNC, print=_print_func, fits=_fits_func, parse=_parse_func, verify=_verify_func, isolated=True,
        optional_attrs=("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs", "no_inline"),
    ),
    RETURN: OpDef(
        RETURN, print=print_terminator, colon_types=terminator_types, verify=_verify_return, terminator=True, functional_types=False,
    ),
}


def default(name: str) -> Optional[OpDef]:
    return None
