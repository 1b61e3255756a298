"""Evaluating a region body (of `linalg.generic`, `tensor.pad`,
`tensor.generate`) for many loop points at once.

A value in the body is a `Labeled` array: its axes stand for loop dims
(sorted), and it is constant along every other loop dim.  A block argument
read through `(d0, d4, d2, d3)` is a view with axes (0, 2, 3, 4); the
product of two values has the union of their axes.  So the body runs once,
with numpy, over the whole iteration domain (or the part of it not fixed by
an enclosing loop), and values never grow beyond the dims they depend on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from ..dialects import arith, cf, linalg, tensor, tm_tensor
from ..ir.affine import AffineBinary, AffineConst, AffineDim, AffineExpr, AffineMap
from ..ir.attributes import IntegerAttr
from ..ir.core import Block, Operation, Value
from .core import InterpError, attr
from .scalar import SCALAR, check_assert, evaluate
from .values import constant_value, np_dtype


@dataclass
class Labeled:
    """arr's axes are the loop dims `dims` (sorted); its shape is their extents."""

    arr: np.ndarray
    dims: tuple[int, ...] = ()


def scalar(x: Any) -> Labeled:
    return Labeled(np.asarray(x), ())


def align(values: Sequence[Labeled]) -> tuple[list[np.ndarray], tuple[int, ...]]:
    """The arrays reshaped (no copy) so that they broadcast over the union of
    their dims; returns them and that union."""
    union = tuple(sorted(set().union(*[v.dims for v in values])))
    out = []
    for v in values:
        if v.dims == union:
            out.append(v.arr)
            continue
        shape = [1] * len(union)
        for axis, dim in enumerate(v.dims):
            shape[union.index(dim)] = v.arr.shape[axis]
        out.append(v.arr.reshape(shape))
    return out, union


def broadcast(v: Labeled, dims: Sequence[int], extents: dict[int, int]) -> np.ndarray:
    """v as a full (read-only) array over `dims` (sorted; a superset of v.dims)."""
    shape = [1] * len(dims)
    for axis, dim in enumerate(v.dims):
        shape[list(dims).index(dim)] = v.arr.shape[axis]
    return np.broadcast_to(v.arr.reshape(shape), [extents[d] for d in dims])


# --- index expressions ---------------------------------------------------------------------------

Indices = dict[int, Labeled]
"""The value of every loop dim: arange over its extent (a vectorised dim,
labeled by itself) or one int (a dim fixed by an enclosing loop)."""


def loop_indices(extents: dict[int, int], fixed: Optional[dict[int, int]] = None) -> Indices:
    fixed = fixed or {}
    return {d: scalar(np.int64(fixed[d])) if d in fixed else Labeled(np.arange(n, dtype=np.int64), (d,)) for d, n in extents.items()}


def eval_expr(e: AffineExpr, indices: Indices) -> Labeled:
    """An affine expression over loop dims, as a labeled int64 array."""
    if isinstance(e, AffineDim):
        return indices[e.pos]
    if isinstance(e, AffineConst):
        return scalar(np.int64(e.value))
    if isinstance(e, AffineBinary):
        (a, b), dims = align([eval_expr(e.lhs, indices), eval_expr(e.rhs, indices)])
        if e.kind == "add":
            r = a + b
        elif e.kind == "mul":
            r = a * b
        elif e.kind == "floordiv":
            r = np.floor_divide(a, b)
        elif e.kind == "ceildiv":
            r = -np.floor_divide(-a, b)
        else:
            r = np.mod(a, b)
        return Labeled(np.asarray(r), dims)
    raise InterpError(f"affine expression '{e}' uses symbols, which the interpreter does not bind")


def take(arr: np.ndarray, index: Sequence[Labeled], at: Operation, what: str) -> Labeled:
    """arr[index...] for labeled int index arrays (one per dim of arr),
    checked to be in bounds; labeled by the union of their dims."""
    if len(index) != arr.ndim:
        raise InterpError(f"{what}: {len(index)} indices for a rank-{arr.ndim} tensor", at)
    arrays, dims = align(index)
    for axis, (ix, size) in enumerate(zip(arrays, arr.shape)):
        if ix.size and (int(ix.min()) < 0 or int(ix.max()) >= size):
            raise InterpError(f"{what}: index {int(ix.min()) if int(ix.min()) < 0 else int(ix.max())} out of bounds for dim {axis} of size {size}", at)
    if not dims:
        return scalar(arr[tuple(int(i) for i in arrays)])
    return Labeled(arr[tuple(arrays)], dims)


def gather(arr: np.ndarray, m: AffineMap, indices: Indices, at: Operation, what: str) -> Labeled:
    """The operand values each loop point reads through map m.  Maps whose
    results are distinct dims or constants give a view (no copy)."""
    if len(m.results) != arr.ndim:
        raise InterpError(f"{what}: map '{m}' has {len(m.results)} results for a rank-{arr.ndim} operand", at)
    basic: list[Any] = []
    labels: list[int] = []
    for axis, r in enumerate(m.results):
        if isinstance(r, AffineDim) and indices[r.pos].dims:
            if r.pos in labels:  # a diagonal: (d0, d0)
                return take(arr, [eval_expr(r, indices) for r in m.results], at, what)
            n = indices[r.pos].arr.shape[0]
            if n > arr.shape[axis]:
                raise InterpError(f"{what}: loop d{r.pos} runs to {n - 1}, out of bounds for dim {axis} of size {arr.shape[axis]}", at)
            basic.append(slice(0, n))
            labels.append(r.pos)
        elif isinstance(r, (AffineDim, AffineConst)):
            v = int(eval_expr(r, indices).arr)
            if not 0 <= v < arr.shape[axis]:
                raise InterpError(f"{what}: index {v} out of bounds for dim {axis} of size {arr.shape[axis]}", at)
            basic.append(v)
        else:
            return take(arr, [eval_expr(r, indices) for r in m.results], at, what)
    view = np.asarray(arr[tuple(basic)])
    order = sorted(range(len(labels)), key=lambda i: labels[i])
    return Labeled(np.transpose(view, order) if order != list(range(len(order))) else view, tuple(sorted(labels)))


# --- running a body --------------------------------------------------------------------------------

Lookup = Callable[[Value], Any]


class Body:
    """The block of a region, evaluated on labeled values.  Values defined
    outside the region are read through `outer`; `linalg.index` reads the
    loop indices given to `run`."""

    def __init__(self, block: Block, outer: Lookup):
        self.block = block
        self.outer = outer
        self.terminator = block.ops[-1] if block.ops else None
        if self.terminator is None or self.terminator.name not in (linalg.YIELD, tensor.YIELD, tm_tensor.YIELD):
            raise InterpError("region does not end with a yield", block.parent_op)

    def value(self, env: dict[int, Labeled], v: Value) -> Labeled:
        found = env.get(id(v))
        if found is not None:
            return found
        return scalar(self.outer(v))

    def run(self, args: Sequence[Labeled], indices: Indices, skip: Callable[[Operation], bool] = lambda op: False) -> dict[int, Labeled]:
        """The values of the body for block args `args` (by value id); ops
        for which skip(op) is true are not evaluated (the caller computes
        them its own way)."""
        env: dict[int, Labeled] = {}
        for a, v in zip(self.block.args, args):
            env[id(a)] = v
        for op in self.block.ops[:-1]:
            if not skip(op):
                self.eval_op(op, env, indices)
        return env

    def yielded(self, env: dict[int, Labeled]) -> list[Labeled]:
        assert self.terminator is not None
        return [self.value(env, v) for v in self.terminator.operands]

    def eval_op(self, op: Operation, env: dict[int, Any], indices: Indices) -> None:
        name = op.name
        if name in SCALAR:
            values = [self.value(env, v) for v in op.operands]
            arrays, dims = align(values)
            result = np.asarray(evaluate(op, arrays)).astype(np_dtype(op.results[0].type), copy=False)
            shape = np.broadcast_shapes(*[a.shape for a in arrays])
            env[id(op.results[0])] = Labeled(result if result.shape == shape else np.broadcast_to(result, shape), dims)
        elif name == arith.CONSTANT:
            value = attr(op, "value")
            assert value is not None
            env[id(op.results[0])] = scalar(constant_value(value, op.results[0].type))
        elif name == linalg.INDEX:
            dim = attr(op, "dim")
            if not isinstance(dim, IntegerAttr) or dim.value not in indices:
                raise InterpError(f"'{op.name}' of a dim the op does not have ({dim})", op)
            env[id(op.results[0])] = indices[dim.value]
        elif name == cf.ASSERT:
            check_assert(op, self.value(env, op.operands[0]).arr)
        elif name == tensor.EXTRACT:
            src = self.value(env, op.operands[0])
            if src.dims:
                raise InterpError(f"'{op.name}' from a tensor computed per loop point is not supported", op)
            env[id(op.results[0])] = take(src.arr, [self.value(env, v) for v in op.operands[1:]], op, f"'{op.name}'")
        else:
            raise InterpError(f"the interpreter does not support '{name}' in a region body", op)
