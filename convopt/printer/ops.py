"""Custom-form printers, one per op name (or family), with MLIR's generic
form as the fallback for anything else or anything malformed."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..ir.attributes import (
    ArrayAttr,
    DenseArrayAttr,
    DictAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    TypeAttr,
    format_float,
    symbol_name,
)
from ..ir.core import Operation
from ..ir.types import FunctionType, IntegerType
from ..ops import (
    CAST_OPS,
    CMPF_PREDICATES,
    CMPI_PREDICATES,
    DYNAMIC_INDEX,
    LINALG_LEADING_ATTRS,
    LINALG_TRAILING_ATTRS,
    SAME_TYPE_OPS,
    TERMINATOR_OPS,
    has_extra_properties,
)
from .names import is_structured

if TYPE_CHECKING:  # pragma: no cover
    from . import Printer

OpPrinter = Callable[["Printer", Operation], str]


def print_op(p: Printer, op: Operation) -> str:
    printer = _printer_for(op)
    if printer is not None and not has_extra_properties(op):
        try:
            return printer(p, op)
        except (IndexError, KeyError, AttributeError, TypeError, AssertionError):
            pass  # malformed for its custom form: print it generically
    return print_generic(p, op)


def _printer_for(op: Operation):
    printer = PRINTERS.get(op.name)
    if printer is not None:
        return printer
    if op.name in SAME_TYPE_OPS:
        return _same_type
    if op.name in CAST_OPS:
        return _cast
    if is_structured(op):
        return _structured
    if op.name.startswith(("torch.", "torch_c.")) and not op.regions:
        return _torch_default
    return None


def print_generic(p: Printer, op: Operation) -> str:
    text = '"' + op.name + '"(' + p.values(op.operands) + ")"
    if op.properties:
        text += " <" + p.attr_dict(op.properties, leading_space=False) + ">"
    if op.regions:
        text += " (" + ", ".join(p.region(r, print_entry_args=True, print_empty_block=True) for r in op.regions) + ")"
    text += p.attr_dict(op.attributes)
    fn = FunctionType(tuple(v.type for v in op.operands), tuple(r.type for r in op.results))
    return text + f" : {fn}"


def _name(op: Operation) -> str:
    """Ops of the func dialect drop their prefix inside func.func."""
    if op.name.startswith("func.") and op.parent_op is not None and op.parent_op.name == "func.func":
        return op.name[len("func.") :]
    return op.name


def _operands_and_types(p: Printer, op: Operation) -> tuple[str, str]:
    return p.values(op.operands), p.types(v.type for v in op.operands)


# --- builtin and func ----------------------------------------------------------------

def _module(p: Printer, op: Operation) -> str:
    text = "module"
    sym = op.attributes.get("sym_name")
    if isinstance(sym, StringAttr):
        text += " @" + symbol_name(sym.value)
    rest = {k: v for k, v in op.attributes.items() if k != "sym_name"}
    if rest:
        text += " attributes" + p.attr_dict(rest)
    return text + " " + p.region(op.regions[0], print_entry_args=False)


_FUNC_ELIDED = ("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs")


def _func(p: Printer, op: Operation) -> str:
    fn = op.attributes["function_type"]
    assert isinstance(fn, TypeAttr) and isinstance(fn.type, FunctionType)
    ftype = fn.type
    name = op.attributes["sym_name"]
    assert isinstance(name, StringAttr)
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
    rest = {k: v for k, v in op.attributes.items() if k not in _FUNC_ELIDED}
    if rest:
        text += " attributes" + p.attr_dict(rest)
    if body is not None:
        text += " " + p.region(body, print_entry_args=False)
    return text


def _dict_list(attr: object, n: int) -> list[dict]:
    if not isinstance(attr, ArrayAttr):
        return [{} for _ in range(n)]
    return [dict(d.entries) if isinstance(d, DictAttr) else {} for d in attr.elements]


def _terminator(p: Printer, op: Operation) -> str:
    text = _name(op)
    if op.operands:
        values, types = _operands_and_types(p, op)
        text += f" {values}{p.attr_dict(op.attributes)} : {types}"
    else:
        text += p.attr_dict(op.attributes)
    return text


# --- arith, math ------------------------------------------------------------------------

def _typed_value(attr: object) -> str:
    if isinstance(attr, IntegerAttr):
        t = attr.type
        if isinstance(t, IntegerType) and t.width == 1 and not t.signedness:
            return "true" if attr.value else "false"
        return f"{attr.value} : {t}"
    if isinstance(attr, FloatAttr):
        return f"{format_float(attr.value, attr.type)} : {attr.type}"
    return str(attr)


def _arith_constant(p: Printer, op: Operation) -> str:
    rest = {k: v for k, v in op.attributes.items() if k != "value"}
    return f"arith.constant{p.attr_dict(rest)} {_typed_value(op.attributes['value'])}"


def _same_type(p: Printer, op: Operation) -> str:
    assert len(op.results) == 1
    return f"{op.name} {p.values(op.operands)}{p.attr_dict(op.attributes)} : {op.results[0].type}"


def _cast(p: Printer, op: Operation) -> str:
    assert len(op.operands) == 1 and len(op.results) == 1
    return f"{op.name} {p.value(op.operands[0])}{p.attr_dict(op.attributes)} : {op.operands[0].type} to {op.results[0].type}"


def _cmp(p: Printer, op: Operation) -> str:
    table = CMPI_PREDICATES if op.name == "arith.cmpi" else CMPF_PREDICATES
    pred = op.attributes["predicate"]
    assert isinstance(pred, IntegerAttr)
    rest = {k: v for k, v in op.attributes.items() if k != "predicate"}
    return f"{op.name} {table[pred.value]}, {p.values(op.operands)}{p.attr_dict(rest)} : {op.operands[0].type}"


def _select(p: Printer, op: Operation) -> str:
    cond = op.operands[0].type
    types = str(op.results[0].type) if isinstance(cond, IntegerType) else f"{cond}, {op.results[0].type}"
    return f"arith.select {p.values(op.operands)}{p.attr_dict(op.attributes)} : {types}"


# --- tensor ---------------------------------------------------------------------------------

def _mixed(p: Printer, static: object, dynamic: list) -> str:
    assert isinstance(static, DenseArrayAttr)
    it = iter(dynamic)
    items = [p.value(next(it)) if v == DYNAMIC_INDEX else str(v) for v in static.values]
    return "[" + ", ".join(items) + "]"


def _segments(op: Operation) -> list[list]:
    sizes = op.properties["operandSegmentSizes"].values  # type: ignore[index,union-attr]
    out, i = [], 0
    for n in sizes:
        out.append(list(op.operands[i : i + n]))
        i += n
    return out


_SLICE_ATTRS = ("static_offsets", "static_sizes", "static_strides")


def _extract_slice(p: Printer, op: Operation) -> str:
    src, offs, sizes, strides = _segments(op)
    lists = " ".join(_mixed(p, op.attributes[k], d) for k, d in zip(_SLICE_ATTRS, (offs, sizes, strides)))
    rest = {k: v for k, v in op.attributes.items() if k not in _SLICE_ATTRS}
    return f"tensor.extract_slice {p.value(src[0])}{lists}{p.attr_dict(rest)} : {src[0].type} to {op.results[0].type}"


def _insert_slice(p: Printer, op: Operation) -> str:
    src, dest, offs, sizes, strides = _segments(op)
    lists = " ".join(_mixed(p, op.attributes[k], d) for k, d in zip(_SLICE_ATTRS, (offs, sizes, strides)))
    rest = {k: v for k, v in op.attributes.items() if k not in _SLICE_ATTRS}
    return f"tensor.insert_slice {p.value(src[0])} into {p.value(dest[0])}{lists}{p.attr_dict(rest)} : {src[0].type} into {dest[0].type}"


def _pad(p: Printer, op: Operation) -> str:
    src, low, high = _segments(op)
    nofold = " nofold" if "nofold" in op.attributes else ""
    rest = {k: v for k, v in op.attributes.items() if k not in ("static_low", "static_high", "nofold")}
    region = p.region(op.regions[0])
    return (
        f"tensor.pad {p.value(src[0])}{nofold} low{_mixed(p, op.attributes['static_low'], low)} "
        f"high{_mixed(p, op.attributes['static_high'], high)} {region}{p.attr_dict(rest)} : {src[0].type} to {op.results[0].type}"
    )


def _reassociation(attr: object) -> str:
    assert isinstance(attr, ArrayAttr)
    groups = []
    for g in attr.elements:
        assert isinstance(g, ArrayAttr)
        groups.append("[" + ", ".join(str(i.value) for i in g.elements) + "]")  # type: ignore[attr-defined]
    return "[" + ", ".join(groups) + "]"


def _expand_shape(p: Printer, op: Operation) -> str:
    src = op.operands[0]
    shape = _mixed(p, op.attributes["static_output_shape"], list(op.operands[1:]))
    rest = {k: v for k, v in op.attributes.items() if k not in ("reassociation", "static_output_shape")}
    return f"tensor.expand_shape {p.value(src)} {_reassociation(op.attributes['reassociation'])} output_shape {shape}{p.attr_dict(rest)} : {src.type} into {op.results[0].type}"


def _collapse_shape(p: Printer, op: Operation) -> str:
    src = op.operands[0]
    rest = {k: v for k, v in op.attributes.items() if k != "reassociation"}
    return f"tensor.collapse_shape {p.value(src)} {_reassociation(op.attributes['reassociation'])}{p.attr_dict(rest)} : {src.type} into {op.results[0].type}"


def _empty(p: Printer, op: Operation) -> str:
    return f"tensor.empty({p.values(op.operands)}){p.attr_dict(op.attributes)} : {op.results[0].type}"


def _dim(p: Printer, op: Operation) -> str:
    assert len(op.operands) == 2
    return f"tensor.dim {p.values(op.operands)}{p.attr_dict(op.attributes)} : {op.operands[0].type}"


def _extract(p: Printer, op: Operation) -> str:
    return f"tensor.extract {p.value(op.operands[0])}[{p.values(op.operands[1:])}]{p.attr_dict(op.attributes)} : {op.operands[0].type}"


# --- linalg ------------------------------------------------------------------------------------

def _structured(p: Printer, op: Operation) -> str:
    n_in, n_out = op.properties["operandSegmentSizes"].values  # type: ignore[index,union-attr]
    assert n_in + n_out == len(op.operands)
    trailing_names = LINALG_TRAILING_ATTRS.get(op.name, ())
    if op.name == "linalg.generic":
        leading = {k: v for k, v in op.attributes.items() if k in LINALG_LEADING_ATTRS}
        extra = {k: v for k, v in op.attributes.items() if k not in LINALG_LEADING_ATTRS}
    else:
        leading = {k: v for k, v in op.attributes.items() if k not in trailing_names}
        extra = {}
    text = op.name + p.attr_dict(leading)
    ins, outs = op.operands[:n_in], op.operands[n_in:]
    if ins:
        text += f" ins({p.values(ins)} : {p.types(v.type for v in ins)})"
    text += f" outs({p.values(outs)} : {p.types(v.type for v in outs)})"
    for name in trailing_names:
        if name in op.attributes:
            value = op.attributes[name]
            items = value.values if isinstance(value, DenseArrayAttr) else [e.value for e in value.elements]  # type: ignore[attr-defined]
            text += f" {name} = [" + ", ".join(str(v) for v in items) + "] "
    if extra:
        text += " attrs = " + p.attr_dict(extra, leading_space=False)
    if op.name == "linalg.generic" and op.regions:
        text += " " + p.region(op.regions[0])
    if op.results and op.name not in LINALG_TRAILING_ATTRS:
        text += " -> " + p.types(r.type for r in op.results)
    return text


def _linalg_index(p: Printer, op: Operation) -> str:
    dim = op.attributes["dim"]
    assert isinstance(dim, IntegerAttr)
    rest = {k: v for k, v in op.attributes.items() if k != "dim"}
    return f"linalg.index {dim.value}{p.attr_dict(rest)} : {op.results[0].type}"


# --- torch ---------------------------------------------------------------------------------------

FUNCTIONAL_TYPE_OPS = frozenset({"torch.prim.ListConstruct", "torch.prim.TupleConstruct"})


def _torch_default(p: Printer, op: Operation) -> str:
    """torch-mlir's default form: `op %a, %b {attrs} : A, B -> R`."""
    text = op.name
    if op.name in FUNCTIONAL_TYPE_OPS:
        fn = FunctionType(tuple(v.type for v in op.operands), tuple(r.type for r in op.results))
        return f"{text} {p.values(op.operands)}{p.attr_dict(op.attributes)} : {fn}"
    if op.operands:
        text += " " + p.values(op.operands)
    text += p.attr_dict(op.attributes)
    if not op.operands and not op.results:
        return text  # no types to print (a `:` with nothing after it would not parse)
    text += " : "
    if op.operands:
        text += p.types(v.type for v in op.operands)
    if op.operands and op.results:
        text += " -> "
    if op.results:
        text += p.types(r.type for r in op.results)
    return text


def _torch_constant(p: Printer, op: Operation) -> str:
    value = op.attributes.get("value")
    rest = {k: v for k, v in op.attributes.items() if k != "value"}
    if value is None:
        return op.name + p.attr_dict(rest)
    if isinstance(value, FloatAttr):
        literal = format_float(value.value, value.type)
    elif isinstance(value, IntegerAttr) and op.name.endswith(".bool"):
        literal = "true" if value.value else "false"
    elif isinstance(value, IntegerAttr):
        literal = str(value.value)
    else:
        literal = str(value)
    return f"{op.name} {literal}{p.attr_dict(rest)}"


def _vtensor_literal(p: Printer, op: Operation) -> str:
    rest = {k: v for k, v in op.attributes.items() if k != "value"}
    return f"torch.vtensor.literal({p.attr(op.attributes['value'])}){p.attr_dict(rest)} : {op.results[0].type}"


def _symbolic_int(p: Printer, op: Operation) -> str:
    name = op.attributes["symbol_name"]
    rest = {k: v for k, v in op.attributes.items() if k != "symbol_name"}
    return f"torch.symbolic_int {name}{p.attr_dict(rest)} : {op.results[0].type}"


def _bind_symbolic_shape(p: Printer, op: Operation) -> str:
    shape = op.attributes["shape_expressions"]
    rest = {k: v for k, v in op.attributes.items() if k != "shape_expressions"}
    return f"torch.bind_symbolic_shape {p.value(op.operands[0])}, [{p.values(op.operands[1:])}], {shape}{p.attr_dict(rest)} : {op.operands[0].type}"


def _torch_operator(p: Printer, op: Operation) -> str:
    name = op.attributes["name"]
    rest = {k: v for k, v in op.attributes.items() if k != "name"}
    fn = FunctionType(tuple(v.type for v in op.operands), tuple(r.type for r in op.results))
    text = f"torch.operator {name}({p.values(op.operands)}){p.attr_dict(rest)} : {fn}"
    if op.regions:
        text += " (" + ", ".join(p.region(r) for r in op.regions) + ")"
    return text


PRINTERS: dict[str, OpPrinter] = {
    "builtin.module": _module,
    "func.func": _func,
    "arith.constant": _arith_constant,
    "arith.cmpi": _cmp,
    "arith.cmpf": _cmp,
    "arith.select": _select,
    "tensor.extract_slice": _extract_slice,
    "tensor.insert_slice": _insert_slice,
    "tensor.pad": _pad,
    "tensor.expand_shape": _expand_shape,
    "tensor.collapse_shape": _collapse_shape,
    "tensor.empty": _empty,
    "tensor.dim": _dim,
    "tensor.extract": _extract,
    "linalg.index": _linalg_index,
    "torch.vtensor.literal": _vtensor_literal,
    "torch.symbolic_int": _symbolic_int,
    "torch.bind_symbolic_shape": _bind_symbolic_shape,
    "torch.operator": _torch_operator,
    **{name: _terminator for name in TERMINATOR_OPS},
    **{f"torch.constant.{k}": _torch_constant for k in ("int", "float", "bool", "none", "str", "device")},
}

