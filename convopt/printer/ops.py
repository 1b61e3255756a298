"""Printing one op: its definition's custom form when the op has the
structure the definition declares (`OpDef.fits_custom_form`), MLIR's generic
form otherwise (ops convopt does not model, generic forms with properties,
ops whose operands, attributes or segments do not fit the custom form).
With --mlir-print-op-generic every op prints in the generic form, spelled out
as MLIR spells it (`print_generic_form`)."""

from __future__ import annotations

from typing import Optional

from ..dialects import lookup
from ..dialects.base import PrinterAPI, Spelled
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


def print_generic_form(p: PrinterAPI, op: Operation, spelled: Optional[Spelled]) -> str:
    """MLIR's generic form as mlir-opt --mlir-print-op-generic prints it: the
    inherent attributes (the definition's) in `<{...}>`, and what the custom
    form implies (`spelled`: a named linalg op's body and maps) written out."""
    d = lookup(op.name)
    props = dict(op.properties or {})
    attrs = dict(op.attributes)
    if d is not None and d.inherent:
        for name in [k for k in op.attributes if k in d.inherent]:
            props[name] = attrs.pop(name)
    regions = op.regions
    if spelled is not None:
        for name in spelled.dropped:
            props.pop(name, None)
        props.update(spelled.properties)
        attrs.update(spelled.attributes)
        regions = regions or list(spelled.regions)
    text = '"' + op.name + '"(' + p.values(op.operands) + ")"
    if props:
        text += " <" + p.attr_dict(props, leading_space=False) + ">"
    if regions:
        text += " (" + ", ".join(p.region(r, print_entry_args=True, print_empty_block=True) for r in regions) + ")"
    text += p.attr_dict(attrs)
    fn = FunctionType(tuple(v.type for v in op.operands), tuple(r.type for r in op.results))
    return text + f" : {fn}"
