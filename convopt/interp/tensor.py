"""tensor ops: empty, dim, cast, extract/insert(_slice), pad, expand/collapse_shape,
splat, generate, from_elements, concat.

Slices, pads and reshapes read their mixed static/dynamic lists the way
convopt's IR holds them: a static array attribute (`static_offsets`, ...) in
which DYNAMIC_INDEX marks an entry given by the next dynamic operand.
Every slice is checked to lie inside its tensor.  `tensor.empty` is filled
with NaN (floats) or a sentinel so that reading it shows in the results.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..dialects import tensor, tm_tensor
from ..ir.attributes import DYNAMIC_INDEX, ArrayAttr, DenseArrayAttr, IntegerAttr
from ..ir.core import Operation
from .body import Body, Labeled, broadcast, loop_indices
from .core import InterpError, Interpreter, attr, handler
from .values import is_float_dtype, np_dtype, shape_of


def _static(op: Operation, name: str) -> list[int]:
    a = attr(op, name)
    if not isinstance(a, DenseArrayAttr):
        raise InterpError(f"'{op.name}' has no '{name}'", op)
    return [int(v) for v in a.values]


def mixed(op: Operation, names: Sequence[str], dynamic: Sequence[Any]) -> list[list[int]]:
    """Each static list of `names` with its DYNAMIC_INDEX entries replaced,
    in order, by the dynamic operands."""
    it = iter(dynamic)
    out = []
    for name in names:
        values = []
        for v in _static(op, name):
            if v == DYNAMIC_INDEX:
                try:
                    values.append(int(next(it)))
                except StopIteration:
                    raise InterpError(f"'{op.name}': fewer dynamic operands than dynamic entries in '{name}'", op) from None
            else:
                values.append(v)
        out.append(values)
    if next(it, None) is not None:
        raise InterpError(f"'{op.name}': more dynamic operands than dynamic entries", op)
    return out


def result_shape(op: Operation, dynamic: Sequence[Any]) -> list[int]:
    """The result type's shape with its `?` dims taken from `dynamic`."""
    shape = shape_of(op.results[0].type)
    if sum(s is None for s in shape) != len(dynamic):
        raise InterpError(f"'{op.name}' has {len(dynamic)} dynamic sizes for type '{op.results[0].type}'", op)
    it = iter(dynamic)
    sizes = [int(next(it)) if s is None else s for s in shape]
    if any(s < 0 for s in sizes):
        raise InterpError(f"'{op.name}': negative size in {sizes}", op)
    return sizes


def poison(shape: Sequence[int], dtype: np.dtype) -> np.ndarray:
    """An uninitialized tensor: NaN, or the most negative integer."""
    if is_float_dtype(dtype):
        return np.full(shape, np.nan, dtype=np.float32).astype(dtype)
    if dtype == np.bool_:
        return np.zeros(shape, dtype)
    return np.full(shape, np.iinfo(dtype).min, dtype)


@handler(tensor.EMPTY)
def _empty(interp: Interpreter, op: Operation, args: list) -> list:
    return [poison(result_shape(op, args), np_dtype(op.results[0].type))]


@handler(tensor.DIM)
def _dim(interp: Interpreter, op: Operation, args: list) -> list:
    t, i = args
    if not 0 <= int(i) < np.ndim(t):
        raise InterpError(f"'{op.name}': dim {int(i)} of a rank-{np.ndim(t)} tensor", op)
    return [np.int64(np.shape(t)[int(i)])]


@handler(tensor.CAST)
def _cast(interp: Interpreter, op: Operation, args: list) -> list:
    return [args[0]]  # the result type's static dims are checked by the interpreter


# --- slices ---------------------------------------------------------------------------------------

def _slices(op: Operation, shape: Sequence[int], offsets: list[int], sizes: list[int], strides: list[int], what: str) -> tuple[slice, ...]:
    if not len(offsets) == len(sizes) == len(strides) == len(shape):
        raise InterpError(f"'{op.name}': {len(offsets)}/{len(sizes)}/{len(strides)} offsets/sizes/strides for a rank-{len(shape)} {what}", op)
    out = []
    for i, (o, n, st, dim) in enumerate(zip(offsets, sizes, strides, shape)):
        if n < 0 or st < 1:
            raise InterpError(f"'{op.name}': size {n} with stride {st} in dim {i}", op)
        if n and (o < 0 or o + (n - 1) * st >= dim):
            raise InterpError(f"'{op.name}': slice [{o}, {o + (n - 1) * st}] (offset {o}, size {n}, stride {st}) is outside dim {i} of size {dim} of the {what}", op)
        out.append(slice(o, o + (n - 1) * st + 1 if n else o, st))
    return tuple(out)


_SLICE_LISTS = tensor.SLICE_ATTRS


@handler(tensor.EXTRACT_SLICE)
def _extract_slice(interp: Interpreter, op: Operation, args: list) -> list:
    src = args[0]
    offsets, sizes, strides = mixed(op, _SLICE_LISTS, args[1:])
    part = src[_slices(op, np.shape(src), offsets, sizes, strides, "source")]
    shape = shape_of(op.results[0].type)
    if len(shape) != len(sizes):  # rank-reducing: unit dims dropped (the element order stays)
        kept = iter(n for n in sizes if n != 1)
        part = part.reshape([1 if s == 1 else next(kept, 1) for s in shape])
    return [part]




@handler(tensor.INSERT_SLICE)
def _insert_slice(interp: Interpreter, op: Operation, args: list) -> list:
    src, dest = args[0], args[1]
    offsets, sizes, strides = mixed(op, _SLICE_LISTS, args[2:])
    slices = _slices(op, np.shape(dest), offsets, sizes, strides, "destination")
    if math.prod(np.shape(src)) != math.prod(sizes) or (np.ndim(src) == len(sizes) and list(np.shape(src)) != sizes):
        raise InterpError(f"'{op.name}': source of shape {list(np.shape(src))} into a slice of sizes {sizes}", op)
    out = np.array(dest)
    out[slices] = np.reshape(src, sizes)
    return [out]


@handler(tensor.EXTRACT)
def _extract(interp: Interpreter, op: Operation, args: list) -> list:
    t, index = args[0], [int(i) for i in args[1:]]
    _check_index(op, np.shape(t), index)
    return [t[tuple(index)]]


@handler(tensor.INSERT)
def _insert(interp: Interpreter, op: Operation, args: list) -> list:
    value, dest, index = args[0], args[1], [int(i) for i in args[2:]]
    _check_index(op, np.shape(dest), index)
    out = np.array(dest)
    out[tuple(index)] = value
    return [out]


def _check_index(op: Operation, shape: Sequence[int], index: list[int]) -> None:
    if len(index) != len(shape) or any(not 0 <= i < n for i, n in zip(index, shape)):
        raise InterpError(f"'{op.name}': index {index} out of bounds for shape {list(shape)}", op)


# --- pad and generate -----------------------------------------------------------------------------

def _region_values(interp: Interpreter, op: Operation, shape: Sequence[int], dtype: np.dtype) -> np.ndarray:
    """The value the region yields at every index of `shape` (the block
    args are the indices), as a full array."""
    if not op.regions or len(op.regions[0].blocks) != 1:
        raise InterpError(f"'{op.name}' needs a region of one block", op)
    block = op.regions[0].blocks[0]
    body = Body(block, lambda v: interp.outer_value(v, op))
    extents = dict(enumerate(shape))
    indices = loop_indices(extents)
    env = body.run([indices[i] for i in range(len(block.args))], indices)
    values = body.yielded(env)
    if len(values) != 1:
        raise InterpError(f"'{op.name}' must yield one value", op)
    v = values[0]
    return np.array(broadcast(Labeled(np.asarray(v.arr).astype(dtype), v.dims), tuple(range(len(shape))), extents))


@handler(tensor.PAD)
def _pad(interp: Interpreter, op: Operation, args: list) -> list:
    src = args[0]
    low, high = mixed(op, ("static_low", "static_high"), args[1:])
    if len(low) != np.ndim(src) or len(high) != np.ndim(src) or any(x < 0 for x in low + high):
        raise InterpError(f"'{op.name}': low {low} / high {high} for a rank-{np.ndim(src)} source (negative pads are not supported)", op)
    shape = [lo + n + hi for lo, n, hi in zip(low, np.shape(src), high)]
    out = _region_values(interp, op, shape, src.dtype)
    out[tuple(slice(lo, lo + n) for lo, n in zip(low, np.shape(src)))] = src
    return [out]


@handler(tensor.GENERATE)
def _generate(interp: Interpreter, op: Operation, args: list) -> list:
    shape = result_shape(op, args)
    return [_region_values(interp, op, shape, np_dtype(op.results[0].type))]


@handler(tensor.SPLAT)
def _splat(interp: Interpreter, op: Operation, args: list) -> list:
    shape = result_shape(op, args[1:])
    return [np.full(shape, args[0], dtype=np_dtype(op.results[0].type))]


@handler(tensor.FROM_ELEMENTS)
def _from_elements(interp: Interpreter, op: Operation, args: list) -> list:
    shape = result_shape(op, [])
    return [np.array(args, dtype=np_dtype(op.results[0].type)).reshape(shape)]


@handler(tensor.CONCAT)
def _concat(interp: Interpreter, op: Operation, args: list) -> list:
    dim = attr(op, "dim")
    if not isinstance(dim, IntegerAttr):
        raise InterpError(f"'{op.name}' has no dim", op)
    return [np.concatenate(args, axis=dim.value)]


# --- reshapes ---------------------------------------------------------------------------------------

def reassociation(op: Operation) -> list[list[int]]:
    groups = attr(op, "reassociation")
    if not isinstance(groups, ArrayAttr):
        raise InterpError(f"'{op.name}' has no reassociation", op)
    return [[int(e.value) for e in g.elements] for g in groups.elements]  # type: ignore[attr-defined]


def _check_groups(op: Operation, groups: list[list[int]], big: Sequence[int], small: Sequence[int]) -> None:
    flat = [i for g in groups for i in g]
    if flat != list(range(len(big))) or len(groups) != len(small):
        raise InterpError(f"'{op.name}': reassociation {groups} does not fit shapes {list(big)} and {list(small)}", op)
    for g, n in zip(groups, small):
        if math.prod(big[i] for i in g) != n:
            raise InterpError(f"'{op.name}': dims {[big[i] for i in g]} (group {g}) do not multiply to {n}", op)


@handler(tensor.EXPAND_SHAPE)
def _expand_shape(interp: Interpreter, op: Operation, args: list) -> list:
    src = args[0]
    groups = reassociation(op)
    if attr(op, "static_output_shape") is not None:
        (shape,) = mixed(op, ("static_output_shape",), args[1:])
    else:  # the older form: one dynamic dim per group, inferred
        shape = [s if s is not None else -1 for s in shape_of(op.results[0].type)]
        for g, n in zip(groups, np.shape(src)):
            known = math.prod(shape[i] for i in g if shape[i] != -1)
            for i in g:
                if shape[i] == -1:
                    shape[i] = n // known if known else 0
    _check_groups(op, groups, shape, np.shape(src))
    return [np.reshape(src, shape)]


@handler(tensor.COLLAPSE_SHAPE)
def _collapse_shape(interp: Interpreter, op: Operation, args: list) -> list:
    src = args[0]
    groups = reassociation(op)
    shape = [math.prod(np.shape(src)[i] for i in g) for g in groups]
    _check_groups(op, groups, np.shape(src), shape)
    return [np.reshape(src, shape)]


# --- tm_tensor.scatter ------------------------------------------------------------------------------

@handler(tm_tensor.SCATTER)
def _scatter(interp: Interpreter, op: Operation, args: list) -> list:
    """original[idx_i at dimension_map, slice] = body(updates[i, slice],
    original[...]) for each update i in order (a later update of the same
    element sees the earlier ones, as the sequential semantics say)."""
    updates, indices, original = (np.asarray(a) for a in args)
    dims = attr(op, "dimension_map")
    assert isinstance(dims, DenseArrayAttr)
    out = original.copy()
    rest = [d for d in range(out.ndim) if d not in dims.values]
    if updates.shape[1:] != tuple(out.shape[d] for d in rest):
        raise InterpError(f"'{op.name}': updates of shape {updates.shape} for slices of shape {[out.shape[d] for d in rest]}", op)
    body = Body(op.regions[0].blocks[0], lambda v: interp.outer_value(v, op))
    labels = tuple(range(len(rest)))
    for i in range(updates.shape[0]):
        where: list[Any] = [slice(None)] * out.ndim
        for k, d in enumerate(dims.values):
            j = int(indices[i, k])
            if not 0 <= j < out.shape[d]:
                raise InterpError(f"'{op.name}': index {j} of update #{i} out of bounds for dim {d} of size {out.shape[d]}", op)
            where[d] = j
        target = tuple(where)
        env = body.run([Labeled(np.asarray(updates[i]), labels), Labeled(np.asarray(out[target]), labels)], {})
        out[target] = body.yielded(env)[0].arr
    return [out]
