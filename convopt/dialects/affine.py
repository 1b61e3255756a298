"""affine: affine.apply, which torch-mlir's linalg stage emits for sizes
computed from dynamic ones (`affine.apply #map()[%n]`)."""

from __future__ import annotations

from typing import Optional

from ..ir.attributes import AffineMapAttr
from ..ir.core import Operation
from ..ir.types import IndexType, index
from .base import OpDef, OpSyntaxAPI, PrinterAPI, ResolverAPI, fail, rest

APPLY = "affine.apply"


def _map(op: Operation) -> AffineMapAttr:
    m = op.attributes.get("map")
    assert isinstance(m, AffineMapAttr)
    return m


def _print_apply(p: PrinterAPI, op: Operation) -> str:
    m = _map(op)
    n = m.map.num_dims
    syms = op.operands[n:]
    return f"affine.apply {p.attr(m)}({p.values(op.operands[:n])})" + (f"[{p.values(syms)}]" if syms else "") + p.attr_dict(rest(op, "map"))


def _parse_apply(r: ResolverAPI, syn: OpSyntaxAPI) -> Operation:
    m = syn.attributes.get("map")
    if not isinstance(m, AffineMapAttr):
        raise r.fail("'affine.apply' expects an affine map", syn.token)
    if (syn.extra["num_dims"], len(syn.operands) - syn.extra["num_dims"]) != (m.map.num_dims, m.map.num_symbols):
        raise r.fail(f"'affine.apply' of a map of {m.map.num_dims} dims and {m.map.num_symbols} symbols needs as many operands in (...)[...]", syn.token)
    return Operation(syn.name, r.operands(syn, syn.operands, list(syn.operand_types)), [index], syn.attributes)


def _verify_apply(op: Operation) -> None:
    m = op.attributes.get("map")
    if not isinstance(m, AffineMapAttr) or len(m.map.results) != 1:
        raise fail(op, "expects an affine map of one result")
    if len(op.operands) != m.map.num_dims + m.map.num_symbols:
        raise fail(op, f"expects {m.map.num_dims + m.map.num_symbols} operands, one per dim and symbol of its map")
    if not all(isinstance(v.type, IndexType) for v in (*op.operands, *op.results)):
        raise fail(op, "expects index operands and result")


OPS = {
    APPLY: OpDef(
        APPLY, results=1, attrs=("map",), print=_print_apply, fits=lambda op: isinstance(op.attributes.get("map"), AffineMapAttr),
        parse=_parse_apply, verify=_verify_apply, pure=True, rejects_properties=False,
    ),
}


def default(name: str) -> Optional[OpDef]:
    """Another affine op (loops, loads): unmodelled, printed generically."""
    return None
