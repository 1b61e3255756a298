"""builtin.module, and scf.yield (convopt reads scf only as a terminator)."""

from __future__ import annotations

from typing import Optional

from ..ir.attributes import StringAttr, symbol_name
from ..ir.core import Operation
from .base import OpDef, OpSyntaxAPI, PrinterAPI, ResolverAPI, fail, rest
from .func import print_terminator

MODULE = "builtin.module"
SCF_YIELD = "scf.yield"


def _print_module(p: PrinterAPI, op: Operation) -> str:
    text = "module"
    sym = op.attributes.get("sym_name")
    if isinstance(sym, StringAttr):
        text += " @" + symbol_name(sym.value)
    others = rest(op, "sym_name")
    if others:
        text += " attributes" + p.attr_dict(others)
    return text + " " + p.region(op.regions[0], print_entry_args=False)


def _verify_module(op: Operation) -> None:
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        raise fail(op, "expects one region with one block")


def _parse_module(r: ResolverAPI, syn: OpSyntaxAPI) -> Operation:
    return Operation(MODULE, [], [], syn.attributes, r.regions(syn, True))


OPS = {
    MODULE: OpDef(
        MODULE, operands=0, results=0, print=_print_module, fits=lambda op: len(op.regions) == 1,
        parse=_parse_module, verify=_verify_module, isolated=True, optional_attrs=("sym_name", "sym_visibility"),
    ),
    SCF_YIELD: OpDef(SCF_YIELD, print=print_terminator, terminator=True, functional_types=False),
}


def default(name: str) -> Optional[OpDef]:
    return None
