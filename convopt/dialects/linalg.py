"""linalg: the structured ops (`linalg.generic` and the named ops, printed
`op {attrs} ins(...) outs(...) -> T`), linalg.yield and linalg.index."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Optional

from ..ir.affine import AffineDim, AffineExpr, AffineMap
from ..ir.attributes import AffineMapAttr, ArrayAttr, DenseArrayAttr, IntegerAttr, StringAttr
from ..ir.core import Operation
from ..ir.types import RankedTensorType, Type
from .base import OpDef, OpSyntaxAPI, PrinterAPI, ResolverAPI, fail, rest, segment_sizes
from .func import print_terminator, terminator_types

LEADING_ATTRS = ("indexing_maps", "iterator_types", "doc", "library_call")
"""linalg.generic attributes printed in its leading dictionary; the rest go in
`attrs = {...}`."""

TRAILING_ATTRS = {"linalg.transpose": ("permutation",), "linalg.broadcast": ("dimensions",)}
"""Named ops whose attributes are written after outs(...)."""

BLOCK_ARG_NAMES = ("in", "out")


def is_structured(op: Operation) -> bool:
    return op.name.startswith("linalg.") and op.properties is not None and "operandSegmentSizes" in op.properties


# --- the structured form ----------------------------------------------------------------------

def _fits_structured(op: Operation) -> bool:
    """The attributes written after outs(...) are integer lists (the two
    segments are checked by OpDef.fits_custom_form)."""
    for name in TRAILING_ATTRS.get(op.name, ()):
        value = op.attributes.get(name)
        if value is not None and not isinstance(value, DenseArrayAttr):
            if not (isinstance(value, ArrayAttr) and all(isinstance(e, IntegerAttr) for e in value.elements)):
                return False
    return True


def _print_structured(p: PrinterAPI, op: Operation) -> str:
    n_in, _ = segment_sizes(op)  # type: ignore[misc]
    trailing_names = TRAILING_ATTRS.get(op.name, ())
    if op.name == "linalg.generic":
        leading = {k: v for k, v in op.attributes.items() if k in LEADING_ATTRS}
        extra = rest(op, *LEADING_ATTRS)
    else:
        leading = rest(op, *trailing_names)
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
    if op.results and op.name not in TRAILING_ATTRS:
        text += " -> " + p.types(r.type for r in op.results)
    return text


def _block_arg_names(op: Operation, n: int) -> Optional[list[str]]:
    """`%in` for the inputs' elements, `%out` for the outputs'."""
    sizes = segment_sizes(op)
    if not is_structured(op) or sizes is None:
        return None
    return [BLOCK_ARG_NAMES[0] if i < sizes[0] else BLOCK_ARG_NAMES[1] for i in range(n)]


# --- verification -------------------------------------------------------------------------------

def _ins_outs(op: Operation) -> tuple[int, int]:
    sizes = segment_sizes(op)
    if sizes is None or len(sizes) != 2 or sum(sizes) != len(op.operands):
        raise fail(op, "requires 'operandSegmentSizes' matching its ins and outs")
    return sizes[0], sizes[1]


def _element(t: Type) -> Type:
    return t.element_type if isinstance(t, RankedTensorType) else t


def _verify_named(op: Operation) -> None:
    n_in, _ = _ins_outs(op)
    outs = op.operands[n_in:]
    if [r.type for r in op.results] != [v.type for v in outs if isinstance(v.type, RankedTensorType)]:
        raise fail(op, "expected the result types to match the types of the outs operands")


_GENERIC_OK: dict[tuple, bool] = {}
"""The structures of `linalg.generic` ops verified already: the checks read
nothing else, and lowered IR repeats a few structures many times."""


def _verify_generic(op: Operation) -> None:
    block = op.regions[0].blocks[0] if len(op.regions) == 1 and len(op.regions[0].blocks) == 1 else None
    yielded = block.ops[-1] if block is not None and block.ops else None
    try:
        key: Optional[tuple] = (
            op.attributes.get("indexing_maps"), op.attributes.get("iterator_types"), segment_sizes(op),
            tuple(v.type for v in op._operands), tuple(r.type for r in op.results),
            None if block is None else tuple(a.type for a in block.args),
            None if yielded is None else (yielded.name, tuple(v.type for v in yielded._operands)),
        )
        if key in _GENERIC_OK:
            return
    except TypeError:  # an unhashable attribute
        key = None
    _check_generic(op)
    if key is not None:
        if len(_GENERIC_OK) > 4096:
            _GENERIC_OK.clear()
        _GENERIC_OK[key] = True


def _check_generic(op: Operation) -> None:
    n_in, _ = _ins_outs(op)
    maps_attr = op.attributes.get("indexing_maps")
    iters = op.attributes.get("iterator_types")
    if not isinstance(maps_attr, ArrayAttr) or not isinstance(iters, ArrayAttr):
        raise fail(op, "requires 'indexing_maps' and 'iterator_types'")
    maps = [m.map for m in maps_attr.elements if isinstance(m, AffineMapAttr)]
    if len(maps) != len(op.operands):
        raise fail(op, f"expected the number of indexing_map ({len(maps)}) to be equal to the number of input/output operands ({len(op.operands)})")
    n_loops = len(iters.elements)
    for it in iters.elements:
        if not (isinstance(it, StringAttr) and it.value in ("parallel", "reduction")):
            raise fail(op, f"expected iterator_types to be \"parallel\" or \"reduction\" strings, found {it}")
    for i, (m, v) in enumerate(zip(maps, op.operands)):
        rank = v.type.rank if isinstance(v.type, RankedTensorType) else 0
        if m.num_dims != n_loops:
            raise fail(op, f"expected indexing_map #{i} to have {n_loops} dim(s) to match the number of loops")
        if len(m.results) != rank:
            raise fail(op, f"expected operand rank ({rank}) to match the result rank of indexing_map #{i} ({len(m.results)})")
    outs = op.operands[n_in:]
    if [r.type for r in op.results] != [v.type for v in outs if isinstance(v.type, RankedTensorType)]:
        raise fail(op, "expected the result types to match the types of the outs operands")
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        raise fail(op, "expects a region with one block")
    block = op.regions[0].blocks[0]
    if [a.type for a in block.args] != [_element(v.type) for v in op.operands]:
        raise fail(op, "expected the block arguments to be the element types of the operands")
    if not block.ops or block.ops[-1].name != "linalg.yield":
        raise fail(op, "expects its body to end with 'linalg.yield'")
    if [v.type for v in block.ops[-1].operands] != [_element(v.type) for v in outs]:
        raise fail(op, "expected 'linalg.yield' to yield the element types of the outs operands")
    _check_loop_ranges(op, maps, n_loops)


def _check_loop_ranges(op: Operation, maps: list[AffineMap], n_loops: int) -> None:
    """Every loop must appear bare in some map (so its range is known), and
    with static shapes every access must stay inside its operand."""
    ranges: list[Optional[int]] = [None] * n_loops
    known = [False] * n_loops
    for m, v in zip(maps, op.operands):
        shape = v.type.shape if isinstance(v.type, RankedTensorType) else ()
        for r, size in zip(m.results, shape):
            if isinstance(r, AffineDim):
                if known[r.pos] and ranges[r.pos] is not None and size is not None and ranges[r.pos] != size:
                    raise fail(op, f"inferred loop range for d{r.pos} is inconsistent: {ranges[r.pos]} vs {size}")
                if not known[r.pos] or ranges[r.pos] is None:
                    ranges[r.pos] = size
                known[r.pos] = True
    for i, k in enumerate(known):
        if not k:
            raise fail(op, f"loop d{i} does not appear alone in any indexing map, so its range cannot be inferred")
    for index, (m, v) in enumerate(zip(maps, op.operands)):
        shape = v.type.shape if isinstance(v.type, RankedTensorType) else ()
        for dim, (r, size) in enumerate(zip(m.results, shape)):
            lin = _linear(r)
            if lin is None or size is None:
                continue
            coeffs, const = lin
            lo = hi = const
            static = True
            for (kind, pos), c in coeffs.items():
                extent = ranges[pos] if kind == "d" else None
                if not extent:  # symbolic, dynamic, or an empty loop
                    static = False
                    break
                if c > 0:
                    hi += c * (extent - 1)
                else:
                    lo += c * (extent - 1)
            if static and (lo < 0 or hi >= size):
                raise fail(op, f"operand #{index} is accessed out of bounds along dimension {dim}: indices [{lo}, {hi}] in a dimension of size {size}")


@functools.lru_cache(maxsize=4096)
def _linear(expr: AffineExpr):
    """expr.linear(), once per distinct expression (maps repeat a lot)."""
    return expr.linear()


# --- linalg.yield, linalg.index -------------------------------------------------------------------

def _verify_yield(op: Operation) -> None:
    parent = op.parent_op
    if parent is None or not parent.name.startswith("linalg."):
        raise fail(op, "expects a linalg op as parent")


def _print_index(p: PrinterAPI, op: Operation) -> str:
    dim = op.attributes["dim"]
    assert isinstance(dim, IntegerAttr)
    return f"linalg.index {dim.value}{p.attr_dict(rest(op, 'dim'))} : {op.results[0].type}"


def _parse_index(r: ResolverAPI, syn: OpSyntaxAPI) -> Operation:
    return Operation(syn.name, [], syn.result_types or [], syn.attributes)


def structured(name: str, verify: Optional[Callable[[Operation], None]] = None, hint: Optional[str] = None) -> OpDef:
    """A structured op: ins and outs as operand segments."""
    return OpDef(
        name, segments=("inputs", "outputs"), print=_print_structured, fits=_fits_structured, verify=verify,
        result_name=(lambda op: hint) if hint else None, block_arg_names=_block_arg_names, pure=True,
    )


OPS: dict[str, OpDef] = {
    "linalg.generic": structured("linalg.generic", _verify_generic),
    **{n: structured(n, _verify_named) for n in ("linalg.fill", "linalg.matmul", "linalg.batch_matmul", "linalg.mmt4d")},
    "linalg.transpose": structured("linalg.transpose", _verify_named, "transposed"),
    "linalg.broadcast": structured("linalg.broadcast", hint="broadcasted"),
    "linalg.yield": OpDef("linalg.yield", print=print_terminator, colon_types=terminator_types, verify=_verify_yield, terminator=True, functional_types=False),
    "linalg.index": OpDef(
        "linalg.index", attrs=("dim",), print=_print_index, fits=lambda op: isinstance(op.attributes["dim"], IntegerAttr) and len(op.results) >= 1,
        parse=_parse_index, pure=True,
    ),
}


def default(name: str) -> OpDef:
    """Every other named structured op (convolutions, elementwise, ...)."""
    return structured(name)
