"""linalg ops: `linalg.generic` with any indexing maps, fill/copy/transpose/
broadcast, and the named matmuls and convolutions (generalized to maps).

A `linalg.generic` is evaluated in one of three ways, the first that applies:

1. **vectorised**: the output maps are projected permutations of the
   parallel dims, and each yielded value is `reduce(out, e)` (addf, mulf,
   maximumf, ... with `out` used nowhere else), or there is no reduction dim.
   The body runs once over the whole iteration domain on gathered views
   (see body.py), and `e` is reduced over the reduction dims with numpy; a
   `mulf` feeding an `addf` reduction in f32/f64 is one `np.einsum`.  f16
   and bf16 reductions are folded in loop order, rounding each step to the
   element type, as the IR says.
2. **per reduction point**: the output maps are as above but the body is
   anything else: the body runs once per point of the reduction dims (in
   loop order), vectorised over the parallel dims.
3. **per point**: any other output maps: a plain loop over the domain.

Every index an operand map produces is checked to be in bounds.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Optional

import numpy as np

from ..dialects import arith, linalg
from ..ir.affine import AffineConst, AffineDim, AffineMap
from ..ir.attributes import AffineMapAttr, ArrayAttr, DenseArrayAttr, OpaqueAttr, StringAttr
from ..ir.core import Block, Operation, Value
from .body import Body, Labeled, align, broadcast, eval_expr, gather, loop_indices
from .core import InterpError, Interpreter, attr, handler
from .scalar import SCALAR
from .values import int_list

REDUCERS = {
    arith.ADDF: np.add, arith.MULF: np.multiply, arith.MAXIMUMF: np.maximum, arith.MINIMUMF: np.minimum,
    arith.MAXNUMF: np.fmax, arith.MINNUMF: np.fmin,
    arith.ADDI: np.add, arith.MULI: np.multiply, arith.MAXSI: np.maximum, arith.MINSI: np.minimum,
    arith.ANDI: np.bitwise_and, arith.ORI: np.bitwise_or, arith.XORI: np.bitwise_xor,
}
"""Body ops that, as `out = op(out, e)`, are a numpy reduction of e."""


# --- structure of an op ----------------------------------------------------------------------

def num_inputs(op: Operation) -> int:
    seg = op.properties.get("operandSegmentSizes") if op.properties else None
    if isinstance(seg, DenseArrayAttr) and len(seg.values) == 2:
        return int(seg.values[0])
    return len(op.operands) - len(op.results)


def _outputs(op: Operation, args: list) -> tuple[list, list]:
    n_in = num_inputs(op)
    if len(args) - n_in != len(op.results):
        raise InterpError(f"'{op.name}' has {len(args) - n_in} outputs but {len(op.results)} results: only ops on tensors can be run", op)
    return args[:n_in], args[n_in:]


def _maps(op: Operation) -> list[AffineMap]:
    maps = attr(op, "indexing_maps")
    if not isinstance(maps, ArrayAttr) or not all(isinstance(m, AffineMapAttr) for m in maps.elements):
        raise InterpError(f"'{op.name}' has no indexing_maps", op)
    return [m.map for m in maps.elements]  # type: ignore[attr-defined]


def _iterators(op: Operation, n_loops: int) -> list[str]:
    its = attr(op, "iterator_types")
    if not isinstance(its, ArrayAttr):
        raise InterpError(f"'{op.name}' has no iterator_types", op)
    out = []
    for it in its.elements:
        text = it.value if isinstance(it, StringAttr) else str(it) if isinstance(it, OpaqueAttr) else ""
        kind = "reduction" if "reduction" in text else "parallel" if "parallel" in text else None
        if kind is None:
            raise InterpError(f"unknown iterator type '{it}'", op)
        out.append(kind)
    if len(out) != n_loops:
        raise InterpError(f"'{op.name}' has {len(out)} iterator types for {n_loops} loops", op)
    return out


def loop_extents(op: Operation, maps: Sequence[AffineMap], operands: Sequence[np.ndarray]) -> dict[int, int]:
    """The extent of every loop dim, from the operand dims its map reads bare;
    they must agree, and every loop dim must be read bare somewhere."""
    if len(maps) != len(operands):
        raise InterpError(f"'{op.name}' has {len(maps)} indexing maps for {len(operands)} operands", op)
    n_loops = maps[0].num_dims if maps else 0
    extents: dict[int, tuple[int, int]] = {}
    for j, (m, v) in enumerate(zip(maps, operands)):
        shape = np.shape(v)
        if m.num_dims != n_loops or len(m.results) != len(shape):
            raise InterpError(f"'{op.name}': indexing map #{j} '{m}' does not fit operand #{j} of shape {shape}", op)
        if m.num_symbols:
            raise InterpError(f"'{op.name}': indexing map #{j} has symbols", op)
        for axis, r in enumerate(m.results):
            if isinstance(r, AffineDim):
                size = int(shape[axis])
                if r.pos in extents and extents[r.pos][0] != size:
                    first, k = extents[r.pos]
                    raise InterpError(f"'{op.name}': loop d{r.pos} has extent {first} from operand #{k} but {size} from operand #{j}", op)
                extents.setdefault(r.pos, (size, j))
    missing = [f"d{i}" for i in range(n_loops) if i not in extents]
    if missing:
        raise InterpError(f"'{op.name}': the extent of {', '.join(missing)} is not given by any operand dim", op)
    return {i: extents[i][0] for i in range(n_loops)}


def _writes_each_point_once(m: AffineMap, parallel: Sequence[int]) -> bool:
    """m's results are distinct parallel dims (every one) and constants."""
    dims = [r.pos for r in m.results if isinstance(r, AffineDim)]
    return all(isinstance(r, (AffineDim, AffineConst)) for r in m.results) and len(dims) == len(set(dims)) and set(dims) == set(parallel)


def scatter(acc: np.ndarray, m: AffineMap, indices, value: Labeled, extents: dict[int, int], op: Operation, what: str) -> None:
    """acc[m(point)] = value for every point (in place)."""
    index, dims = align([eval_expr(r, indices) for r in m.results])
    if not set(value.dims) <= set(dims):
        raise InterpError(f"internal error: {what} is written along dims it is not indexed by", op)
    for axis, (ix, size) in enumerate(zip(index, acc.shape)):
        if ix.size and (int(ix.min()) < 0 or int(ix.max()) >= size):
            raise InterpError(f"{what}: index out of bounds for dim {axis} of size {size}", op)
    if not dims:
        acc[tuple(int(i) for i in index)] = value.arr
    else:
        acc[tuple(index)] = broadcast(value, dims, extents)


# --- linalg.generic ---------------------------------------------------------------------------------

class Reduction:
    """A yielded value `op(out, e)` whose `out` (the output's block arg) has
    no other use: e reduced over the reduction dims, then combined with out.
    `product` is set when e is a mulf used only here (an einsum in f32/f64)."""

    def __init__(self, op: Operation, e: Value, product: Optional[Operation]):
        self.op, self.e, self.product = op, e, product


def _reductions(block: Block, n_in: int, dtypes: Sequence[np.dtype]) -> Optional[dict[int, Reduction]]:
    """The Reduction of each output, or None if some yielded value is not one."""
    plan: dict[int, Reduction] = {}
    yielded = block.ops[-1].operands
    for j, (out, y, dtype) in enumerate(zip(block.args[n_in:], yielded, dtypes)):
        op = y.owner
        if op is None or op.parent is not block or op.name not in REDUCERS or len(op.operands) != 2 or dtype == np.bool_:
            return None
        a, b = op.operands
        if len(out.uses) != 1 or len(y.uses) != 1 or (a is out) == (b is out):
            return None
        e = b if a is out else a
        mul = e.owner
        fusable = op.name == arith.ADDF and mul is not None and mul.name == arith.MULF and mul.parent is block and len(e.uses) == 1 and dtype in _EINSUM
        plan[j] = Reduction(op, e, mul if fusable else None)
    return plan


_EINSUM = (np.dtype(np.float32), np.dtype(np.float64))


def reduce_into(name: str, acc: Labeled, e: Labeled | tuple[Labeled, Labeled], red: Sequence[int], extents: dict[int, int], dtype: np.dtype) -> Labeled:
    """acc `name` e over every point of the reduction dims red (sorted),
    e being a labeled value or a pair whose product (mulf) it is.  f32/f64
    and integers reduce with numpy (floats in numpy's summation order);
    16-bit floats fold in loop order, each step rounded to dtype."""
    combine = SCALAR[name]
    if isinstance(e, tuple):
        a, b = e
        if dtype in _EINSUM and name == arith.ADDF:
            labels = sorted((set(a.dims) | set(b.dims)) - set(red))
            summed = np.einsum(a.arr, list(a.dims), b.arr, list(b.dims), labels, optimize=a.arr.size * b.arr.size > 1 << 16)
            absent = [extents[r] for r in red if r not in a.dims and r not in b.dims]
            if absent:
                summed = summed * math.prod(absent)
            e = Labeled(np.asarray(summed, dtype=dtype), tuple(labels))
            (x, y), dims = align([acc, e])
            return Labeled(np.asarray(combine(None, x, y)).astype(dtype), dims)
        (x, y), dims = align([a, b])
        e = Labeled(np.asarray(SCALAR[arith.MULI if dtype.kind in "iu" else arith.MULF](None, x, y)).astype(dtype), dims)
    full = tuple(sorted(set(e.dims) | set(red)))
    arr = broadcast(e, full, extents)
    axes = tuple(full.index(r) for r in red)
    keep = tuple(x for x in full if x not in red)
    if dtype in _EINSUM or dtype.kind in "iu":
        reduced = Labeled(np.asarray(REDUCERS[name].reduce(arr, axis=axes)).astype(dtype), keep)
        (x, y), dims = align([acc, reduced])
        return Labeled(np.asarray(combine(None, x, y)).astype(dtype), dims)
    steps = np.moveaxis(arr, axes, tuple(range(-len(axes), 0))).reshape([extents[k] for k in keep] + [-1])
    for i in range(steps.shape[-1]):
        (x, y), dims = align([acc, Labeled(steps[..., i], keep)])
        acc = Labeled(np.asarray(combine(None, x, y)).astype(dtype), dims)
    return acc


@handler(linalg.GENERIC)
def _generic(interp: Interpreter, op: Operation, args: list) -> list:
    ins, outs = _outputs(op, args)
    maps = _maps(op)
    extents = loop_extents(op, maps, args)
    iterators = _iterators(op, len(extents))
    if any(n == 0 for n in extents.values()):
        return [o.copy() for o in outs]
    if not op.regions or len(op.regions[0].blocks) != 1:
        raise InterpError(f"'{op.name}' needs a body of one block", op)
    block = op.regions[0].blocks[0]
    body = Body(block, lambda v: interp.outer_value(v, op))
    parallel = [i for i, t in enumerate(iterators) if t == "parallel"]
    reduction = [i for i, t in enumerate(iterators) if t == "reduction"]
    out_maps = maps[len(ins):]
    if all(_writes_each_point_once(m, parallel) for m in out_maps):
        plan = _reductions(block, len(ins), [o.dtype for o in outs]) if reduction else {}
        if plan is not None:
            return _vectorised(op, body, ins, outs, maps, extents, reduction, plan)
        return _looped(op, body, ins, outs, maps, extents, reduction)
    return _looped(op, body, ins, outs, maps, extents, list(extents))


def _vectorised(op: Operation, body: Body, ins: list, outs: list, maps: list[AffineMap], extents: dict[int, int], reduction: list[int], plan: dict[int, Reduction]) -> list:
    indices = loop_indices(extents)
    operands = [gather(v, m, indices, op, f"operand #{j} of '{op.name}'") for j, (v, m) in enumerate(zip(ins + outs, maps))]
    skipped = {id(r.op) for r in plan.values()} | {id(r.product) for r in plan.values() if r.product is not None}
    env = body.run(operands, indices, skip=lambda o: id(o) in skipped)
    yielded = None if plan else body.yielded(env)
    results = []
    for j, (out, m) in enumerate(zip(outs, maps[len(ins):])):
        if plan:
            r = plan[j]
            acc = operands[len(ins) + j]
            e = (body.value(env, r.product.operands[0]), body.value(env, r.product.operands[1])) if r.product is not None else body.value(env, r.e)
            value = reduce_into(r.op.name, acc, e, reduction, extents, out.dtype)
        else:
            assert yielded is not None
            value = yielded[j]
        new = out.copy()
        scatter(new, m, indices, value, extents, op, f"output #{j} of '{op.name}'")
        results.append(new)
    return results


def _looped(op: Operation, body: Body, ins: list, outs: list, maps: list[AffineMap], extents: dict[int, int], fixed: list[int]) -> list:
    """Run the body once per point of the `fixed` dims (in loop order),
    vectorised over the others."""
    accs = [o.copy() for o in outs]
    n_in = len(ins)
    for point in itertools.product(*[range(extents[i]) for i in fixed]):
        indices = loop_indices(extents, dict(zip(fixed, point)))
        operands = [gather(v, m, indices, op, f"operand #{j} of '{op.name}'") for j, (v, m) in enumerate(zip(ins + accs, maps))]
        yielded = [Labeled(np.array(y.arr), y.dims) for y in body.yielded(body.run(operands, indices))]
        for j, (acc, m, y) in enumerate(zip(accs, maps[n_in:], yielded)):
            scatter(acc, m, indices, y, extents, op, f"output #{j} of '{op.name}'")
    return accs


# --- named ops ------------------------------------------------------------------------------------

@handler(linalg.FILL)
def _fill(interp: Interpreter, op: Operation, args: list) -> list:
    ins, outs = _outputs(op, args)
    return [np.full(np.shape(o), np.asarray(ins[0]).astype(o.dtype)) for o in outs]


@handler(linalg.COPY)
def _copy(interp: Interpreter, op: Operation, args: list) -> list:
    ins, outs = _outputs(op, args)
    _same_shape(op, np.shape(ins[0]), np.shape(outs[0]))
    return [np.array(ins[0]).astype(outs[0].dtype)]


def _same_shape(op: Operation, got: tuple, want: tuple) -> None:
    if tuple(got) != tuple(want):
        raise InterpError(f"'{op.name}' computes shape {got} into an output of shape {want}", op)


@handler(linalg.TRANSPOSE)
def _transpose(interp: Interpreter, op: Operation, args: list) -> list:
    ins, outs = _outputs(op, args)
    perm = int_list(attr(op, "permutation"))
    if sorted(perm) != list(range(np.ndim(ins[0]))):
        raise InterpError(f"'{op.name}': {perm} is not a permutation of the input's dims", op)
    result = np.transpose(ins[0], perm)
    _same_shape(op, result.shape, np.shape(outs[0]))
    return [np.array(result)]


@handler(linalg.BROADCAST)
def _broadcast(interp: Interpreter, op: Operation, args: list) -> list:
    ins, outs = _outputs(op, args)
    added = int_list(attr(op, "dimensions"))
    shape = np.shape(outs[0])
    kept = [i for i in range(len(shape)) if i not in added]
    _same_shape(op, tuple(shape[i] for i in kept), np.shape(ins[0]))
    return [np.array(np.broadcast_to(np.expand_dims(ins[0], added), shape))]


def _named_reduce(op: Operation, args: list, inputs: int, combine: str, supported: Callable[[np.dtype], bool]) -> list:
    """out = combine(out, the first `inputs` inputs (in the output's element
    type) over the reduction dims): the shared rule of the named
    contractions and poolings."""
    ins, outs = _outputs(op, args)
    maps = linalg.indexing_maps(op)
    assert maps is not None
    if len(ins) != 2 or len(outs) != 1:
        raise InterpError(f"'{op.name}' expects two inputs and one output", op)
    extents = loop_extents(op, maps, args)
    out = outs[0]
    dtype = out.dtype
    if not supported(dtype):
        raise InterpError(f"'{op.name}' on {'i1' if dtype == np.bool_ else dtype} is not supported", op)
    out_dims = {r.pos for r in maps[2].results if isinstance(r, AffineDim)}
    reduction = [i for i in sorted(extents) if i not in out_dims]
    if any(n == 0 for n in extents.values()):
        return [out.copy()]
    indices = loop_indices(extents)
    read = tuple(gather(np.asarray(v).astype(dtype), m, indices, op, f"input #{j} of '{op.name}'") for j, (v, m) in enumerate(zip(ins[:inputs], maps)))
    acc = gather(out, maps[2], indices, op, f"output of '{op.name}'")
    value = reduce_into(combine, acc, (read[0], read[1]) if inputs > 1 else read[0], reduction, extents, dtype)
    new = out.copy()
    scatter(new, maps[2], indices, value, extents, op, f"output of '{op.name}'")
    return [new]


def _named_contraction(interp: Interpreter, op: Operation, args: list) -> list:
    """out += cast(lhs) * cast(rhs) over the reduction dims, with the inputs
    converted to the output's element type first (linalg's named-op rule)."""
    out_type = np.asarray(args[-1]).dtype
    combine = arith.ADDF if out_type.kind not in "iu" else arith.ADDI
    return _named_reduce(op, args, 2, combine, lambda dtype: dtype != np.bool_)


handler(*linalg.MATMULS, *sorted(linalg.CONVS))(_named_contraction)

_POOL_COMBINE = {"max": arith.MAXIMUMF, "min": arith.MINIMUMF, "sum": arith.ADDF}


@handler(*linalg.POOLINGS)
def _named_pooling(interp: Interpreter, op: Operation, args: list) -> list:
    """out = max|min|sum(out, input over the window), in the output's
    element type (the window operand gives only the window's extents)."""
    return _named_reduce(op, args, 1, _POOL_COMBINE[linalg.POOLINGS[op.name][1]], lambda dtype: dtype.kind == "f")


# --- linalg.pack, linalg.unpack ------------------------------------------------------------------

def _pack_layout(op: Operation, rank: int) -> tuple[list[int], list[int], list[int]]:
    """(inner_dims_pos, static inner tiles, outer_dims_perm) of a pack or unpack."""
    inner = int_list(attr(op, "inner_dims_pos"))
    tiles = int_list(attr(op, "static_inner_tiles"))
    perm_attr = attr(op, "outer_dims_perm")
    perm = int_list(perm_attr) if perm_attr is not None else []
    perm = perm or list(range(rank))
    if len(tiles) != len(inner) or any(t <= 0 for t in tiles) or sorted(perm) != list(range(rank)) or len(set(inner)) != len(inner):
        raise InterpError(f"'{op.name}': unsupported tiling (static tiles, permutations only)", op)
    return inner, tiles, perm


def _split_axes(shape: Sequence[int], inner: list[int], tiles: list[int]) -> tuple[list[int], list[int], list[int]]:
    """The shape with every tiled dim split into (outer, tile), and the axes
    of the outers (per dim) and of the tiles (in inner order) in it."""
    split: list[int] = []
    outer_axis: list[int] = []
    tile_axis = {}
    for i, size in enumerate(shape):
        outer_axis.append(len(split))
        if i in inner:
            t = tiles[inner.index(i)]
            split += [size // t, t]
            tile_axis[i] = len(split) - 1
        else:
            split.append(size)
    return split, outer_axis, [tile_axis[i] for i in inner]


@handler(linalg.PACK)
def _pack(interp: Interpreter, op: Operation, args: list) -> list:
    src, dest = np.asarray(args[0]), args[1]
    seg = op.properties.get("operandSegmentSizes") if op.properties else None
    has_pad = isinstance(seg, DenseArrayAttr) and len(seg.values) == 4 and seg.values[2] == 1
    inner, tiles, perm = _pack_layout(op, src.ndim)
    padded = list(src.shape)
    for i, t in zip(inner, tiles):
        padded[i] = -(-padded[i] // t) * t
    if padded != list(src.shape):
        if not has_pad:
            raise InterpError(f"'{op.name}': the tiles do not divide the source and there is no padding_value", op)
        src = np.pad(src, [(0, p - s) for p, s in zip(padded, src.shape)], constant_values=np.asarray(args[2]).item())
    split, outer_axis, tile_axis = _split_axes(padded, inner, tiles)
    result = np.transpose(src.reshape(split), [outer_axis[p] for p in perm] + tile_axis)
    _same_shape(op, result.shape, np.shape(dest))
    return [np.array(result).astype(np.asarray(dest).dtype)]


@handler(linalg.UNPACK)
def _unpack(interp: Interpreter, op: Operation, args: list) -> list:
    src, dest = np.asarray(args[0]), args[1]
    shape = list(np.shape(dest))
    inner, tiles, perm = _pack_layout(op, len(shape))
    padded = list(shape)
    for i, t in zip(inner, tiles):
        padded[i] = -(-padded[i] // t) * t
    split, outer_axis, tile_axis = _split_axes(padded, inner, tiles)
    order = [outer_axis[p] for p in perm] + tile_axis  # axis of split each src dim is
    _same_shape(op, src.shape, tuple(split[a] for a in order))
    result = np.transpose(src, np.argsort(order)).reshape(padded)[tuple(slice(0, s) for s in shape)]
    return [np.array(result).astype(np.asarray(dest).dtype)]
