"""Printing one op: its definition's custom form when the op has the
structure the definition declares (`OpDef.fits_custom_form`), MLIR's generic
form otherwise (ops convopt does not model, generic forms with properties,
ops whose operands, attributes or segments do not fit the custom form)."""

from __future__ import annotations

from ..dialects import lookup
from ..dialects.base import PrinterAPI
from ..ir.core import Operation
from ..ir.types import FunctionType


def print_op(p: PrinterAPI, op: Operation) -> str:
    d = lookup(op.name)
    if d is not None and d.print is not None and d.fits_custom_form(op):
        return d.print(p, op)
    return print_generic(p, op)


def print_generic(p: PrinterAPI, op: Operation) -> str:
    text = '"' + op.name + '"(' + p.values(op.operands) + ")"
    if op.properties:
        text += " <" + p.attr_dict(op.properties, leading_space=False) + ">"
    if op.regions:
        text += " (" + ", ".join(p.region(r, print_entry_args=True, print_empty_block=True) for r in op.regions) + ")"
    text += p.attr_dict(op.attributes)
    fn = FunctionType(tuple(v.type for v in op.operands), tuple(r.type for r in op.results))
    return text + f" : {fn}"
