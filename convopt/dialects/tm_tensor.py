"""tm_tensor: torch-mlir's ops beyond linalg that its linalg stage emits;
convopt reads and prints tm_tensor.scatter (index_put, scatter and the
backward of gather and of cross-entropy lower to it) and its yield."""

from __future__ import annotations

from typing import Optional

from ..ir.attributes import DenseArrayAttr, IntegerAttr
from ..ir.core import Operation
from ..ir.types import RankedTensorType
from .base import OpDef, PrinterAPI, fail, rest, segment_sizes
from .func import print_terminator, terminator_types

SCATTER = "tm_tensor.scatter"
YIELD = "tm_tensor.yield"


def _print_scatter(p: PrinterAPI, op: Operation) -> str:
    ins, outs = op.operands[:2], op.operands[2:]
    unique = "true" if op.attributes["unique_indices"].value else "false"  # type: ignore[attr-defined]
    text = f"{op.name}{p.attr_dict(rest(op, 'unique_indices'))} unique_indices({unique})"
    text += f" ins({p.values(ins)} : {p.types(v.type for v in ins)}) outs({p.values(outs)} : {p.types(v.type for v in outs)}) "
    return text + p.region(op.regions[0]) + (f" -> {p.types(r.type for r in op.results)}" if op.results else "")


def _fits_scatter(op: Operation) -> bool:
    return segment_sizes(op) == (2, 1) and isinstance(op.attributes.get("unique_indices"), IntegerAttr) and len(op.regions) == 1


def _verify_scatter(op: Operation) -> None:
    """updates [N, slice...], indices [N, K] (integers), original of rank
    K + len(slice); dimension_map: K distinct dims of original."""
    if segment_sizes(op) != (2, 1) or len(op.results) > 1 or len(op.regions) != 1:
        raise fail(op, "expects ins(updates, indices), outs(original), one region and at most one result")
    updates, indices, original = (v.type for v in op.operands)
    if not all(isinstance(t, RankedTensorType) for t in (updates, indices, original)):
        raise fail(op, "expects ranked tensors")
    assert isinstance(updates, RankedTensorType) and isinstance(indices, RankedTensorType) and isinstance(original, RankedTensorType)
    dims = op.attributes.get("dimension_map")
    depth = indices.shape[-1] if indices.rank == 2 else None
    if not isinstance(dims, DenseArrayAttr) or depth is None or len(dims.values) != depth or len(set(dims.values)) != depth:
        raise fail(op, "expects indices of shape [N, K] and a dimension_map of K distinct dims")
    if not all(0 <= d < original.rank for d in dims.values) or updates.rank != 1 + original.rank - depth:
        raise fail(op, f"expects updates of rank {1 + original.rank - depth} (the batch and the dims dimension_map does not name)")
    if op.results and op.results[0].type != original:
        raise fail(op, "expects the result to have the type of the original")


OPS = {
    SCATTER: OpDef(SCATTER, segments=("ins", "outs"), attrs=("unique_indices", "dimension_map"), print=_print_scatter, fits=_fits_scatter, verify=_verify_scatter),
    YIELD: OpDef(YIELD, print=print_terminator, colon_types=terminator_types, terminator=True, functional_types=False),
}


def default(name: str) -> Optional[OpDef]:
    """Another tm_tensor op (sort, scan, topk, attention): unmodelled, printed generically."""
    return None
