"""cf: cf.assert, which torch-mlir's linalg stage emits for the run-time
checks of dynamic shapes (`cf.assert %ok, "message"`)."""

from __future__ import annotations

from typing import Optional

from ..ir.attributes import StringAttr
from ..ir.core import Operation
from ..ir.types import IntegerType
from .base import OpDef, OpSyntaxAPI, PrinterAPI, ResolverAPI, fail, rest

ASSERT = "cf.assert"


def _print_assert(p: PrinterAPI, op: Operation) -> str:
    return f"cf.assert {p.value(op.operands[0])}, {op.attributes['msg']}{p.attr_dict(rest(op, 'msg'))}"


def _parse_assert(r: ResolverAPI, syn: OpSyntaxAPI) -> Operation:
    return Operation(syn.name, r.operands(syn, syn.operands, list(syn.operand_types)), [], syn.attributes)


def _verify_assert(op: Operation) -> None:
    t = op.operands[0].type
    if not (isinstance(t, IntegerType) and t.width == 1):
        raise fail(op, f"expects an i1 condition, found '{t}'")


OPS = {
    ASSERT: OpDef(
        ASSERT, operands=1, results=0, attrs=("msg",), print=_print_assert, fits=lambda op: isinstance(op.attributes.get("msg"), StringAttr),
        parse=_parse_assert, verify=_verify_assert, rejects_properties=False,
    ),
}


def default(name: str) -> Optional[OpDef]:
    """Another cf op (a branch): unmodelled, printed generically."""
    return None
