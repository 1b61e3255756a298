"""IR verification: run after parsing and after every pass.

Generic checks on every op: each operand is defined before its use and
visible there (dominance; `func.func` and `builtin.module` are isolated from
above).  Per-op checks (arity, types that must agree, `linalg.generic`'s
maps and block, static extents that must fit) are the `VERIFIERS` table.
Failures raise a located error.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Optional

from .diagnostics import ConvoptError, Diagnostic, position_of
from .ir.affine import AffineDim, AffineExpr, AffineMap
from .ir.attributes import AffineMapAttr, ArrayAttr, DenseArrayAttr, DenseAttr, DenseResourceAttr, FloatAttr, IntegerAttr, StringAttr, TypeAttr
from .ir.core import Operation, Value
from .ir.types import FunctionType, IndexType, RankedTensorType, Type, ValueTensorType, builtin_tensor_type
from .ops import CAST_OPS, DYNAMIC_INDEX, SAME_TYPE_OPS, has_extra_properties

ISOLATED = frozenset({"func.func", "builtin.module"})


class VerifyError(ConvoptError):
    pass


def _fail(op: Operation, message: str) -> VerifyError:
    return VerifyError(Diagnostic("error", f"'{op.name}' op {message}", position_of(op)))


def verify(module: Operation) -> None:
    """Raise a located error for the first problem found."""
    _verify_op(module, set())


def _verify_op(op: Operation, visible: set[int]) -> None:
    """Check op, then its regions; `visible` holds the ids of the values
    defined before op in the enclosing regions (not copied: regions add their
    values and take them out again)."""
    check = VERIFIERS.get(op.name)
    if check is not None and has_extra_properties(op):
        raise _fail(op, "unsupported: generic form with properties '<{...}>'; write this op in its custom form")
    if check is not None:
        check(op)
    elif op.name in SAME_TYPE_OPS:
        _same_type(op)
    elif op.name in CAST_OPS:
        _arity(op, 1, 1)
    if not op.regions:
        return
    scope = set() if op.name in ISOLATED else visible
    for region in op.regions:
        for block in region.blocks:
            added = [id(a) for a in block.args]
            scope.update(added)
            for inner in block.ops:
                for i, v in enumerate(inner.operands):
                    if id(v) not in scope:
                        raise _dominance_error(inner, i, v)
                _verify_op(inner, scope)
                for r in inner.results:
                    scope.add(id(r))
                    added.append(id(r))
            scope.difference_update(added)


def _dominance_error(op: Operation, index: int, value: Value) -> VerifyError:
    diag = Diagnostic("error", f"operand #{index} does not dominate this use", position_of(op))
    where = position_of(value)
    if where is not None:
        diag.notes.append(Diagnostic("note", "operand defined here", where))
    return VerifyError(diag)


# --- helpers ---------------------------------------------------------------------------

def _arity(op: Operation, operands: Optional[int], results: Optional[int]) -> None:
    if operands is not None and len(op.operands) != operands:
        raise _fail(op, f"expected {operands} operands, but found {len(op.operands)}")
    if results is not None and len(op.results) != results:
        raise _fail(op, f"expected {results} results, but found {len(op.results)}")


def _same_type(op: Operation) -> None:
    _arity(op, None, 1)
    t = op.results[0].type
    for v in op.operands:
        if v.type != t:
            raise _fail(op, f"requires the same type for all operands and results, found '{v.type}' and '{t}'")


def _ranked(op: Operation, t: Type, what: str) -> RankedTensorType:
    if not isinstance(t, RankedTensorType):
        raise _fail(op, f"expects {what} to be a ranked tensor, found '{t}'")
    return t


def _static(values: object) -> list[int]:
    assert isinstance(values, DenseArrayAttr)
    return list(values.values)


# --- builtin / func ------------------------------------------------------------------------

def _module(op: Operation) -> None:
    _arity(op, 0, 0)
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        raise _fail(op, "expects one region with one block")


def _func(op: Operation) -> None:
    fn = op.attributes.get("function_type")
    if not isinstance(fn, TypeAttr) or not isinstance(fn.type, FunctionType):
        raise _fail(op, "requires a 'function_type' attribute of function type")
    if not isinstance(op.attributes.get("sym_name"), StringAttr):
        raise _fail(op, "requires a 'sym_name' string attribute")
    if not op.regions or not op.regions[0].blocks:
        return
    entry = op.regions[0].blocks[0]
    if [a.type for a in entry.args] != list(fn.type.inputs):
        raise _fail(op, "entry block argument types do not match the function signature")
    for block in op.regions[0].blocks:
        if not block.ops or block.ops[-1].name != "func.return":
            raise _fail(op, "expects its body to end with 'func.return'")


def _return(op: Operation) -> None:
    parent = op.parent_op
    if parent is None or parent.name != "func.func":
        raise _fail(op, "expects parent op 'func.func'")
    fn = parent.attributes["function_type"]
    assert isinstance(fn, TypeAttr) and isinstance(fn.type, FunctionType)
    results = fn.type.results
    if len(op.operands) != len(results):
        raise _fail(op, f"has {len(op.operands)} operands, but enclosing function (@{_sym(parent)}) returns {len(results)}")
    for i, (v, t) in enumerate(zip(op.operands, results)):
        if v.type != t:
            raise _fail(op, f"type of return operand {i} ('{v.type}') doesn't match function result type ('{t}') in function @{_sym(parent)}")


def _sym(op: Operation) -> str:
    name = op.attributes.get("sym_name")
    return name.value if isinstance(name, StringAttr) else "?"


# --- arith ----------------------------------------------------------------------------------

def _constant(op: Operation) -> None:
    _arity(op, 0, 1)
    value = op.attributes.get("value")
    if not isinstance(value, (IntegerAttr, FloatAttr, DenseAttr, DenseResourceAttr)) or value.type != op.results[0].type:
        raise _fail(op, "value type must match the result type")


def _cmp(op: Operation) -> None:
    _arity(op, 2, 1)
    if op.operands[0].type != op.operands[1].type:
        raise _fail(op, "requires both operands to have the same type")


def _select(op: Operation) -> None:
    _arity(op, 3, 1)
    if not (op.operands[1].type == op.operands[2].type == op.results[0].type):
        raise _fail(op, "requires the true and false values and the result to have the same type")


# --- tensor ----------------------------------------------------------------------------------

def _empty(op: Operation) -> None:
    _arity(op, None, 1)
    t = _ranked(op, op.results[0].type, "the result")
    dynamic = sum(1 for d in t.shape if d is None)
    if len(op.operands) != dynamic:
        raise _fail(op, f"incorrect number of dynamic sizes, has {len(op.operands)}, expected {dynamic}")
    for v in op.operands:
        if not isinstance(v.type, IndexType):
            raise _fail(op, "expects index operands")


def _dim(op: Operation) -> None:
    _arity(op, 2, 1)
    _ranked(op, op.operands[0].type, "its source")


def _slice_shape(op: Operation, source: RankedTensorType, result: RankedTensorType) -> None:
    offsets = _static(op.attributes.get("static_offsets"))
    sizes = _static(op.attributes.get("static_sizes"))
    strides = _static(op.attributes.get("static_strides"))
    if not (len(offsets) == len(sizes) == len(strides) == source.rank):
        raise _fail(op, f"expected {source.rank} offset, size and stride values")
    if result.rank != source.rank:
        raise _fail(op, "rank-reducing slices are not supported by convopt")
    for i, (o, sz, st, dim) in enumerate(zip(offsets, sizes, strides, source.shape)):
        rdim = result.shape[i]
        if sz != DYNAMIC_INDEX and rdim is not None and sz != rdim:
            raise _fail(op, f"expected type to be '{RankedTensorType(tuple(None if s == DYNAMIC_INDEX else s for s in sizes), result.element_type)}' or a rank-reduced version. (size mismatch)")
        if DYNAMIC_INDEX not in (o, sz, st) and dim is not None and sz > 0 and o + (sz - 1) * st >= dim:
            raise _fail(op, f"slice along dimension {i} runs out of bounds: offset {o}, size {sz}, stride {st} in a dimension of size {dim}")


def _extract_slice(op: Operation) -> None:
    _arity(op, None, 1)
    _slice_shape(op, _ranked(op, op.operands[0].type, "its source"), _ranked(op, op.results[0].type, "its result"))


def _insert_slice(op: Operation) -> None:
    _arity(op, None, 1)
    dest = _ranked(op, op.operands[1].type, "its destination")
    if op.results[0].type != dest:
        raise _fail(op, "expects the result type to match the destination type")
    _slice_shape(op, dest, _ranked(op, op.operands[0].type, "its source"))


def _pad(op: Operation) -> None:
    _arity(op, None, 1)
    src = _ranked(op, op.operands[0].type, "its source")
    res = _ranked(op, op.results[0].type, "its result")
    low, high = _static(op.attributes.get("static_low")), _static(op.attributes.get("static_high"))
    if not (len(low) == len(high) == src.rank == res.rank):
        raise _fail(op, "expects low and high padding for every dimension")
    for i, (lo, hi, s, r) in enumerate(zip(low, high, src.shape, res.shape)):
        if DYNAMIC_INDEX in (lo, hi) or s is None or r is None:
            continue
        if s + lo + hi != r:
            raise _fail(op, f"specified type '{res}' does not match the inferred type along dimension {i}")
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        raise _fail(op, "expects a region with one block")


def _reshape(op: Operation) -> None:
    src = _ranked(op, op.operands[0].type, "its source")
    res = _ranked(op, op.results[0].type, "its result")
    reassoc = op.attributes.get("reassociation")
    if not isinstance(reassoc, ArrayAttr):
        raise _fail(op, "requires a 'reassociation' attribute")
    groups = [[e.value for e in g.elements] for g in reassoc.elements]  # type: ignore[attr-defined]
    collapsed, expanded = (res, src) if op.name == "tensor.collapse_shape" else (src, res)
    if len(groups) != collapsed.rank or sorted(i for g in groups for i in g) != list(range(expanded.rank)):
        raise _fail(op, "reassociation does not match the ranks of the source and result")
    for g, size in zip(groups, collapsed.shape):
        dims = [expanded.shape[i] for i in g]
        if size is not None and None not in dims:
            prod = 1
            for x in dims:
                prod *= x  # type: ignore[operator]
            if prod != size:
                raise _fail(op, f"expected dimension of size {size} to be the product of {dims}")


def _extract(op: Operation) -> None:
    t = _ranked(op, op.operands[0].type, "its source")
    if len(op.operands) != 1 + t.rank:
        raise _fail(op, f"expects {t.rank} indices")


# --- linalg ----------------------------------------------------------------------------------

def _segments(op: Operation) -> tuple[int, int]:
    seg = (op.properties or {}).get("operandSegmentSizes")
    if not isinstance(seg, DenseArrayAttr) or len(seg.values) != 2 or sum(seg.values) != len(op.operands):
        raise _fail(op, "requires 'operandSegmentSizes' matching its ins and outs")
    return seg.values[0], seg.values[1]


def _element(t: Type) -> Type:
    return t.element_type if isinstance(t, RankedTensorType) else t


def _generic(op: Operation) -> None:
    n_in, n_out = _segments(op)
    maps_attr = op.attributes.get("indexing_maps")
    iters = op.attributes.get("iterator_types")
    if not isinstance(maps_attr, ArrayAttr) or not isinstance(iters, ArrayAttr):
        raise _fail(op, "requires 'indexing_maps' and 'iterator_types'")
    maps = [m.map for m in maps_attr.elements if isinstance(m, AffineMapAttr)]
    if len(maps) != len(op.operands):
        raise _fail(op, f"expected the number of indexing_map ({len(maps)}) to be equal to the number of input/output operands ({len(op.operands)})")
    n_loops = len(iters.elements)
    for it in iters.elements:
        if not (isinstance(it, StringAttr) and it.value in ("parallel", "reduction")):
            raise _fail(op, f"expected iterator_types to be \"parallel\" or \"reduction\" strings, found {it}")
    for i, (m, v) in enumerate(zip(maps, op.operands)):
        rank = v.type.rank if isinstance(v.type, RankedTensorType) else 0
        if m.num_dims != n_loops:
            raise _fail(op, f"expected indexing_map #{i} to have {n_loops} dim(s) to match the number of loops")
        if len(m.results) != rank:
            raise _fail(op, f"expected operand rank ({rank}) to match the result rank of indexing_map #{i} ({len(m.results)})")
    outs = op.operands[n_in:]
    if [r.type for r in op.results] != [v.type for v in outs if isinstance(v.type, RankedTensorType)]:
        raise _fail(op, "expected the result types to match the types of the outs operands")
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        raise _fail(op, "expects a region with one block")
    block = op.regions[0].blocks[0]
    if [a.type for a in block.args] != [_element(v.type) for v in op.operands]:
        raise _fail(op, "expected the block arguments to be the element types of the operands")
    if not block.ops or block.ops[-1].name != "linalg.yield":
        raise _fail(op, "expects its body to end with 'linalg.yield'")
    if [v.type for v in block.ops[-1].operands] != [_element(v.type) for v in outs]:
        raise _fail(op, "expected 'linalg.yield' to yield the element types of the outs operands")
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
                    raise _fail(op, f"inferred loop range for d{r.pos} is inconsistent: {ranges[r.pos]} vs {size}")
                if not known[r.pos] or ranges[r.pos] is None:
                    ranges[r.pos] = size
                known[r.pos] = True
    for i, k in enumerate(known):
        if not k:
            raise _fail(op, f"loop d{i} does not appear alone in any indexing map, so its range cannot be inferred")
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
                raise _fail(op, f"operand #{index} is accessed out of bounds along dimension {dim}: indices [{lo}, {hi}] in a dimension of size {size}")


@functools.lru_cache(maxsize=4096)
def _linear(expr: AffineExpr):
    """expr.linear(), once per distinct expression (maps repeat a lot)."""
    return expr.linear()


def _named_structured(op: Operation) -> None:
    n_in, n_out = _segments(op)
    outs = op.operands[n_in:]
    if [r.type for r in op.results] != [v.type for v in outs if isinstance(v.type, RankedTensorType)]:
        raise _fail(op, "expected the result types to match the types of the outs operands")


def _yield(op: Operation) -> None:
    parent = op.parent_op
    if parent is None or not parent.name.startswith("linalg."):
        raise _fail(op, "expects a linalg op as parent")


# --- torch_c ------------------------------------------------------------------------------------

def _to_builtin(op: Operation) -> None:
    _arity(op, 1, 1)
    src, res = op.operands[0].type, op.results[0].type
    if isinstance(src, ValueTensorType) and src.shape is not None and src.dtype is not None and builtin_tensor_type(src) != res:
        raise _fail(op, f"result type '{res}' does not match operand type '{src}'")


def _from_builtin(op: Operation) -> None:
    _arity(op, 1, 1)
    src, res = op.operands[0].type, op.results[0].type
    if isinstance(res, ValueTensorType) and res.shape is not None and res.dtype is not None and builtin_tensor_type(res) != src:
        raise _fail(op, f"operand type '{src}' does not match result type '{res}'")


VERIFIERS: dict[str, Callable[[Operation], None]] = {
    "builtin.module": _module,
    "func.func": _func,
    "func.return": _return,
    "arith.constant": _constant,
    "arith.cmpi": _cmp,
    "arith.cmpf": _cmp,
    "arith.select": _select,
    "tensor.empty": _empty,
    "tensor.dim": _dim,
    "tensor.extract_slice": _extract_slice,
    "tensor.insert_slice": _insert_slice,
    "tensor.pad": _pad,
    "tensor.expand_shape": _reshape,
    "tensor.collapse_shape": _reshape,
    "tensor.extract": _extract,
    "linalg.generic": _generic,
    "linalg.yield": _yield,
    "linalg.fill": _named_structured,
    "linalg.matmul": _named_structured,
    "linalg.batch_matmul": _named_structured,
    "linalg.transpose": _named_structured,
    "torch_c.to_builtin_tensor": _to_builtin,
    "torch_c.from_builtin_tensor": _from_builtin,
    "torch.prim.ListConstruct": lambda op: _arity(op, None, 1),
}
