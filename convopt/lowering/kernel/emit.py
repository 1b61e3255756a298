"""Emitting func/arith/tensor/linalg ops from the lowerings.

Sizes and offsets are `Ix`: a Python int when known statically, an `index`
SSA value otherwise.  Index arithmetic folds when every input is static, so
the same lowering code emits fully static IR for static shapes and
`tensor.dim` / `arith` index computations for dynamic ones.  Constants are
created once per function, at the top of its entry block.
"""

from __future__ import annotations

import builtins
import functools
from collections.abc import Callable, Sequence
from typing import Optional, Union

from ...dialects import arith, linalg, tensor, torch_c
from ...ir.affine import AffineMap, d
from ...ir.attributes import Attribute, DenseArrayAttr, FloatAttr, IntegerAttr
from ...ir.builder import Builder
from ...ir.core import Block, Operation, Value
from ...ir.types import FloatType, RankedTensorType, Type, ValueTensorType, builtin_tensor_type, i64, index, ranked

Ix = Union[int, Value]


def static(x: Ix) -> int:
    """x, a size the caller has checked is static (forms and outputs that
    take static shapes only)."""
    assert isinstance(x, int), "expected a static size"
    return x


def ceildiv(a: int, b: int) -> int:
    return -((-a) // b)


class IndexArith:
    """Index arithmetic on static sizes: every operation folds.  Alone it
    is what the cost model cuts dims with (cost.FOLD: no function to emit
    into, a dynamic size is an error); Emitter emits the arith ops where
    an operand is an SSA value."""

    def _binary(self, name: str, a: Ix, b: Ix, fold: Callable[[int, int], int]) -> Ix:
        assert isinstance(a, int) and isinstance(b, int), "IndexArith folds static sizes only"
        return fold(a, b)

    def add(self, a: Ix, b: Ix) -> Ix:
        if b == 0:
            return a
        if a == 0:
            return b
        return self._binary(arith.ADDI, a, b, lambda x, y: x + y)

    def sub(self, a: Ix, b: Ix) -> Ix:
        if b == 0:
            return a
        return self._binary(arith.SUBI, a, b, lambda x, y: x - y)

    def mul(self, a: Ix, b: Ix) -> Ix:
        if b == 1:
            return a
        if a == 1:
            return b
        return self._binary(arith.MULI, a, b, lambda x, y: x * y)

    def floordiv(self, a: Ix, b: int) -> Ix:
        if b == 1:
            return a
        return self._binary(arith.FLOORDIVSI, a, b, lambda x, y: x // y)

    def ceildiv(self, a: Ix, b: int) -> Ix:
        if b == 1:
            return a
        return self._binary(arith.CEILDIVSI, a, b, ceildiv)

    def max(self, a: Ix, b: Ix) -> Ix:
        return self._binary(arith.MAXSI, a, b, max)

    def min(self, a: Ix, b: Ix) -> Ix:
        return self._binary(arith.MINSI, a, b, min)

    def affine(self, terms: Sequence[tuple[int, Ix]], const: int = 0) -> Ix:
        """sum(c * x) + const, folded."""
        acc: Ix = const
        for c, x in terms:
            acc = self.add(acc, self.mul(x, c)) if c else acc
        return acc


class Emitter(IndexArith):
    """Creates ops before the op being lowered (constants at function entry)."""

    def __init__(self, builder: Builder, func: Operation):
        self.b = builder
        self.func = func
        self._constants: dict[tuple, Value] = {}
        # Sizes of the tensors this emitter made or measured, by value id, so
        # that dynamic sizes are computed once and whole slices are recognised.
        self._sizes: dict[int, tuple[Value, list[Ix]]] = {}
        self._entry: Block = func.regions[0].blocks[0]
        for op in self._entry.ops:  # reuse constants the function already has
            if op.name == arith.CONSTANT:
                self._constants.setdefault((op.attributes["value"], op.results[0].type), op.results[0])

    # -- constants -------------------------------------------------------------------
    def constant(self, attr: Attribute, type: Type) -> Value:
        key = (attr, type)
        value = self._constants.get(key)
        if value is None:
            index_ = 0
            while index_ < len(self._entry.ops) and self._entry.ops[index_].name == arith.CONSTANT:
                index_ += 1
            value = arith.constant(Builder(self._entry, index_, self.b.pos, self.b.loc), attr, type)
            if self.b.block is self._entry and self.b.index >= index_:
                self.b.index += 1
            self._constants[key] = value
        return value

    def index(self, v: Ix) -> Value:
        return v if isinstance(v, Value) else self.constant(IntegerAttr(v, index), index)

    def float(self, v: float, t: Type) -> Value:
        return self.constant(FloatAttr(v, t), t)

    # -- index arithmetic (folds when static, IndexArith's) -------------------------------
    def _binary(self, name: str, a: Ix, b: Ix, fold: Callable[[int, int], int]) -> Ix:
        if isinstance(a, int) and isinstance(b, int):
            return fold(a, b)
        return arith.same_type(self.b, name, self.index(a), self.index(b))

    # -- shapes -------------------------------------------------------------------------
    def remember(self, v: Value, sizes: Sequence[Ix]) -> Value:
        self._sizes[id(v)] = (v, list(sizes))
        return v

    def _known(self, t: Value) -> Optional[list[Ix]]:
        entry = self._sizes.get(id(t))
        return entry[1] if entry is not None and entry[0] is t else None

    def dim(self, t: Value, i: int) -> Ix:
        ty = t.type
        assert isinstance(ty, RankedTensorType)
        if ty.shape[i] is not None:
            return ty.shape[i]  # type: ignore[return-value]
        known = self._known(t)
        if known is None:
            known = list(ty.shape)  # type: ignore[arg-type]
            self.remember(t, known)
        if known[i] is None:
            known[i] = tensor.dim(self.b, t, self.index(i))
        return known[i]

    def shape(self, t: Value) -> list[Ix]:
        ty = t.type
        assert isinstance(ty, RankedTensorType)
        if None not in ty.shape:
            return list(ty.shape)  # type: ignore[arg-type]
        return [self.dim(t, i) for i in range(ty.rank)]

    def refine(self, t: Value, sizes: Sequence[Optional[int]]) -> Value:
        """t with the leading dims whose size is given (not None) made static
        by a `tensor.cast` (no-op when t already has them)."""
        ty = ranked(t.type)
        shape = list(ty.shape)
        for i, size in enumerate(sizes):
            if size is not None and shape[i] is None:
                shape[i] = size
        if shape == list(ty.shape):
            return t
        return tensor.cast(self.b, t, RankedTensorType(tuple(shape), ty.element_type))

    @staticmethod
    def tensor_type(shape: Sequence[Ix], element: Type) -> RankedTensorType:
        return _tensor_type(tuple([s if isinstance(s, int) else None for s in shape]), element)

    # -- tensor ops -------------------------------------------------------------------------
    def empty(self, shape: Sequence[Ix], element: Type) -> Value:
        dynamic = [s for s in shape if isinstance(s, Value)]
        return self.remember(tensor.empty(self.b, self.tensor_type(shape, element), dynamic), shape)

    def fill(self, value: Value, dest: Value) -> Value:
        return self.structured(linalg.FILL, [value], [dest])[0]

    def zeros(self, shape: Sequence[Ix], element: Type) -> Value:
        return self.fill(self.float(0.0, element), self.empty(shape, element))

    def is_whole(self, t: Value, offsets: Sequence[Ix], sizes: Sequence[Ix], strides: Sequence[int]) -> bool:
        for o, s, st, dim in zip(offsets, sizes, strides, self.shape_no_emit(t)):
            if not (o == 0 and st == 1 and _same(s, dim)):
                return False
        return True

    def shape_no_emit(self, t: Value) -> list[Optional[Ix]]:
        ty = t.type
        assert isinstance(ty, RankedTensorType)
        known = self._known(t)
        if known is None:
            return list(ty.shape)
        return [d if d is not None else known[i] for i, d in enumerate(ty.shape)]

    def extract_slice(self, src: Value, offsets: Sequence[Ix], sizes: Sequence[Ix], strides: Sequence[int]) -> Value:
        if self.is_whole(src, offsets, sizes, strides):
            return src
        ty = src.type
        assert isinstance(ty, RankedTensorType)
        return self.remember(tensor.extract_slice(self.b, src, offsets, sizes, strides, self.tensor_type(sizes, ty.element_type)), sizes)

    def insert_slice(self, src: Value, dest: Value, offsets: Sequence[Ix], sizes: Sequence[Ix], strides: Sequence[int]) -> Value:
        if self.is_whole(dest, offsets, sizes, strides):
            return src
        return self._same_sizes(dest, tensor.insert_slice(self.b, src, dest, offsets, sizes, strides))

    def pad(self, src: Value, low: Sequence[Ix], high: Sequence[Ix], fill: builtins.float = 0.0) -> Value:
        """Pad src with `fill` (zeros by default; no-op when every pad is 0)."""
        if all(x == 0 for x in list(low) + list(high)):
            return src
        ty = src.type
        assert isinstance(ty, RankedTensorType)
        shape = [self.add(self.add(lo, d), hi) for lo, d, hi in zip(low, self.shape(src), high)]
        value = self.float(fill, ty.element_type)
        return self.remember(tensor.pad(self.b, src, low, high, self.tensor_type(shape, ty.element_type), value), shape)

    def expand(self, src: Value, groups: Sequence[Sequence[int]], shape: Sequence[Ix]) -> Value:
        ty = src.type
        assert isinstance(ty, RankedTensorType)
        return self.remember(tensor.expand_shape(self.b, src, groups, shape, self.tensor_type(shape, ty.element_type)), shape)

    def collapse(self, src: Value, groups: Sequence[Sequence[int]]) -> Value:
        ty = src.type
        assert isinstance(ty, RankedTensorType)
        shape: list[Optional[int]] = []
        for g in groups:
            dims = [ty.shape[i] for i in g]
            if any(d is None for d in dims):
                shape.append(None)
            else:
                prod = 1
                for d in dims:
                    prod *= d  # type: ignore[operator]
                shape.append(prod)
        return tensor.collapse_shape(self.b, src, groups, RankedTensorType(tuple(shape), ty.element_type))

    def _same_sizes(self, like: Value, v: Value) -> Value:
        known = self._known(like)
        return self.remember(v, known) if known is not None else v

    # -- linalg ---------------------------------------------------------------------------------
    def structured(self, name: str, ins: Sequence[Value], outs: Sequence[Value], attributes: Optional[dict[str, Attribute]] = None) -> list[Value]:
        """A linalg named op (fill, matmul, conv_*, transpose, ...)."""
        op = linalg.named(self.b, name, ins, outs, attributes)
        return [self._same_sizes(o, r) for o, r in zip(outs, op.results)]

    def generic(
        self,
        ins: Sequence[Value],
        outs: Sequence[Value],
        maps: Sequence[AffineMap],
        iterators: Sequence[str],
        body: Callable[[Builder, list[Value]], list[Value]],
    ) -> list[Value]:
        """`linalg.generic`; body(builder, block args) returns the yielded values."""
        block = Block([_element(v.type) for v in [*ins, *outs]])
        inner = Builder(block, pos=self.b.pos, loc=self.b.loc)
        linalg.yield_(inner, body(inner, list(block.args)))
        op = linalg.generic(self.b, ins, outs, maps, iterators, block)
        return [self._same_sizes(o, r) for o, r in zip(outs, op.results)]

    def transpose(self, v: Value, perm: Sequence[int]) -> Value:
        """`linalg.transpose`: dim j of the result is dim perm[j] of v."""
        shape = self.shape(v)
        out = self.empty([shape[p] for p in perm], ranked(v.type).element_type)
        return self.structured(linalg.TRANSPOSE, [v], [out], {"permutation": DenseArrayAttr(i64, tuple(perm))})[0]

    def reduce_sum(self, src: Value, reduced: Sequence[int], acc_type: FloatType) -> Value:
        """out[kept dims...] = sum over the `reduced` dims of src, in acc_type."""
        rank = ranked(src.type).rank
        kept = [i for i in range(rank) if i not in reduced]
        shape = self.shape(src)
        out = self.zeros([shape[i] for i in kept], acc_type)
        maps = [AffineMap.identity(rank), AffineMap.from_exprs(rank, [d(i) for i in kept])]
        iterators = ["reduction" if i in reduced else "parallel" for i in range(rank)]
        return self.generic([src], [out], maps, iterators, lambda b, a: [add_extended(b, a[1], a[0], acc_type)])[0]

    def reverse(self, src: Value, dims: Sequence[int]) -> Value:
        """out[..., i, ...] = src[..., size - 1 - i, ...] along `dims`: a copy
        that reads src with tensor.extract at the flipped position."""
        ty = ranked(src.type)
        last = {i: self.index(self.sub(self.dim(src, i), 1)) for i in dims}
        out = self.empty(self.shape(src), ty.element_type)

        def body(b: Builder, args: list[Value]) -> list[Value]:
            at = [linalg.index(b, i) for i in range(ty.rank)]
            at = [arith.same_type(b, arith.SUBI, last[i], x) if i in last else x for i, x in enumerate(at)]
            return [tensor.extract(b, src, at)]

        return self.generic([], [out], [AffineMap.identity(ty.rank)], ["parallel"] * ty.rank, body)[0]

    def convert_elements(self, src: Value, element: Type) -> Value:
        """Elementwise arith.truncf / arith.extf of a tensor into a new one."""
        ty = src.type
        assert isinstance(ty, RankedTensorType) and isinstance(element, FloatType)
        if ty.element_type == element:
            return src
        out = self.empty(self.shape(src), element)
        src_t = ty.element_type
        assert isinstance(src_t, FloatType)
        cast = arith.cast_name(src_t, element)
        ident = AffineMap.identity(ty.rank)
        return self.generic([src], [out], [ident, ident], ["parallel"] * ty.rank, lambda b, a: [arith.convert(b, cast, a[0], element)])[0]

    # -- torch boundary ----------------------------------------------------------------------------
    def to_builtin(self, v: Value) -> Value:
        t = v.type
        if isinstance(t, RankedTensorType):
            return v
        assert isinstance(t, ValueTensorType)
        return torch_c.to_builtin(self.b, v, builtin_tensor_type(t))

    def from_builtin(self, v: Value, t: ValueTensorType) -> Value:
        """v as the torch tensor t, through a `tensor.cast` to t's builtin
        type first when v's static shape differs."""
        target = builtin_tensor_type(t)
        if v.type != target:
            v = tensor.cast(self.b, v, target)
        return torch_c.from_builtin(self.b, v, t)


def unit_groups(keep: Sequence[bool]) -> tuple[list[list[int]], list[int]]:
    """Reassociation groups that fold the dims whose `keep` is False (unit
    dims) into a kept neighbour: each group ends at a kept dim and holds the
    unit dims just before it.  Returns the groups and the unit dims after the
    last kept one, for the caller to place."""
    groups: list[list[int]] = []
    pending: list[int] = []
    for i, k in enumerate(keep):
        pending.append(i)
        if k:
            groups.append(pending)
            pending = []
    return groups, pending


def extend(b: Builder, x: Value, t: Type) -> Value:
    """x as t: `arith.extf` when x is narrower (f16/bf16 into f32)."""
    return x if x.type == t else arith.convert(b, arith.EXTF, x, t)


def add_extended(b: Builder, acc: Value, x: Value, t: Type) -> Value:
    """acc + x, with x extended to acc's type t first."""
    return arith.same_type(b, arith.ADDF, acc, extend(b, x, t))


# Attributes are immutable values: the lowerings make the same few many
# times, so they are made once and shared (shared objects also keep their
# hashes, which the verifier, cleanup and the printer's aliases look up).

@functools.lru_cache(maxsize=4096)
def _tensor_type(shape: tuple[Optional[int], ...], element: Type) -> RankedTensorType:
    """Shared tensor types keep their hash and printed text."""
    return RankedTensorType(shape, element)


def _element(t: Type) -> Type:
    return t.element_type if isinstance(t, RankedTensorType) else t


def _same(a: Ix, b: Optional[Ix]) -> bool:
    if b is None:
        return False
    if isinstance(a, int) or isinstance(b, int):
        return a == b
    return a is b
