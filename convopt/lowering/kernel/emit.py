"""Emitting func/arith/tensor/linalg ops from the lowerings.

Sizes and offsets are `Ix`: a Python int when known statically, an `index`
SSA value otherwise.  Index arithmetic folds when every input is static, so
the same lowering code emits fully static IR for static shapes and
`tensor.dim` / `arith` index computations for dynamic ones.  Constants are
created once per function, at the top of its entry block.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Optional, Union

from ...ir.affine import AffineMap, d
from ...ir.attributes import (
    AffineMapAttr,
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
)
from ...ir.builder import Builder
from ...ir.core import Block, Operation, Region, Value
from ...ir.types import FloatType, RankedTensorType, Type, ValueTensorType, builtin_tensor_type, i32, i64, index, ranked
from ...ops import DYNAMIC_INDEX

Ix = Union[int, Value]


def ceildiv(a: int, b: int) -> int:
    return -((-a) // b)


class Emitter:
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
            if op.name == "arith.constant":
                self._constants.setdefault((op.attributes["value"], op.results[0].type), op.results[0])

    # -- constants -------------------------------------------------------------------
    def constant(self, attr: Attribute, type: Type) -> Value:
        key = (attr, type)
        value = self._constants.get(key)
        if value is None:
            op = Operation("arith.constant", [], [type], {"value": attr}, pos=self.b.pos, loc=self.b.loc)
            index_ = 0
            while index_ < len(self._entry.ops) and self._entry.ops[index_].name == "arith.constant":
                index_ += 1
            self._entry.insert(index_, op)
            if self.b.block is self._entry and self.b.index >= index_:
                self.b.index += 1
            value = op.results[0]
            self._constants[key] = value
        return value

    def index(self, v: Ix) -> Value:
        return v if isinstance(v, Value) else self.constant(IntegerAttr(v, index), index)

    def float(self, v: float, t: Type) -> Value:
        return self.constant(FloatAttr(v, t), t)

    # -- index arithmetic (folds when static) -------------------------------------------
    def _binary(self, name: str, a: Ix, b: Ix, fold: Callable[[int, int], int]) -> Ix:
        if isinstance(a, int) and isinstance(b, int):
            return fold(a, b)
        return self.b.value(name, [self.index(a), self.index(b)], index)

    def add(self, a: Ix, b: Ix) -> Ix:
        if b == 0:
            return a
        if a == 0:
            return b
        return self._binary("arith.addi", a, b, lambda x, y: x + y)

    def sub(self, a: Ix, b: Ix) -> Ix:
        if b == 0:
            return a
        return self._binary("arith.subi", a, b, lambda x, y: x - y)

    def mul(self, a: Ix, b: Ix) -> Ix:
        if b == 1:
            return a
        if a == 1:
            return b
        return self._binary("arith.muli", a, b, lambda x, y: x * y)

    def floordiv(self, a: Ix, b: int) -> Ix:
        if b == 1:
            return a
        return self._binary("arith.floordivsi", a, b, lambda x, y: x // y)

    def ceildiv(self, a: Ix, b: int) -> Ix:
        if b == 1:
            return a
        return self._binary("arith.ceildivsi", a, b, ceildiv)

    def max(self, a: Ix, b: Ix) -> Ix:
        return self._binary("arith.maxsi", a, b, max)

    def min(self, a: Ix, b: Ix) -> Ix:
        return self._binary("arith.minsi", a, b, min)

    def affine(self, terms: Sequence[tuple[int, Ix]], const: int = 0) -> Ix:
        """sum(c * x) + const, folded."""
        acc: Ix = const
        for c, x in terms:
            acc = self.add(acc, self.mul(x, c)) if c else acc
        return acc

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
            known[i] = self.b.value("tensor.dim", [t, self.index(i)], index)
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
        return self.b.value("tensor.cast", [t], RankedTensorType(tuple(shape), ty.element_type))

    @staticmethod
    def tensor_type(shape: Sequence[Ix], element: Type) -> RankedTensorType:
        return _tensor_type(tuple([s if isinstance(s, int) else None for s in shape]), element)

    # -- tensor ops -------------------------------------------------------------------------
    def empty(self, shape: Sequence[Ix], element: Type) -> Value:
        dynamic = [s for s in shape if isinstance(s, Value)]
        return self.remember(self.b.value("tensor.empty", dynamic, self.tensor_type(shape, element)), shape)

    def fill(self, value: Value, dest: Value) -> Value:
        return self.structured("linalg.fill", [value], [dest])[0]

    def zeros(self, shape: Sequence[Ix], element: Type) -> Value:
        return self.fill(self.float(0.0, element), self.empty(shape, element))

    @staticmethod
    def _mixed(items: Sequence[Ix]) -> tuple[DenseArrayAttr, list[Value]]:
        dynamic = [x for x in items if isinstance(x, Value)]
        if not dynamic:
            return _i64_array(tuple(items)), dynamic
        return DenseArrayAttr(i64, tuple(DYNAMIC_INDEX if isinstance(x, Value) else x for x in items)), dynamic

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
        attrs, dynamic = self._slice_attrs(offsets, sizes, strides)
        op = self.b.create("tensor.extract_slice", [src, *dynamic[0], *dynamic[1], *dynamic[2]], [self.tensor_type(sizes, ty.element_type)], attrs)
        op.properties = _segments(1, len(dynamic[0]), len(dynamic[1]), len(dynamic[2]))
        return self.remember(op.results[0], sizes)

    def insert_slice(self, src: Value, dest: Value, offsets: Sequence[Ix], sizes: Sequence[Ix], strides: Sequence[int]) -> Value:
        if self.is_whole(dest, offsets, sizes, strides):
            return src
        attrs, dynamic = self._slice_attrs(offsets, sizes, strides)
        op = self.b.create("tensor.insert_slice", [src, dest, *dynamic[0], *dynamic[1], *dynamic[2]], [dest.type], attrs)
        op.properties = _segments(1, 1, len(dynamic[0]), len(dynamic[1]), len(dynamic[2]))
        return self._same_sizes(dest, op.results[0])

    def _slice_attrs(self, offsets: Sequence[Ix], sizes: Sequence[Ix], strides: Sequence[int]) -> tuple[dict[str, Attribute], list[list[Value]]]:
        o, od = self._mixed(offsets)
        s, sd = self._mixed(sizes)
        st, std = self._mixed(list(strides))
        return {"static_offsets": o, "static_sizes": s, "static_strides": st}, [od, sd, std]

    def pad(self, src: Value, low: Sequence[Ix], high: Sequence[Ix]) -> Value:
        """Zero-pad src (no-op when every pad is 0)."""
        if all(x == 0 for x in list(low) + list(high)):
            return src
        ty = src.type
        assert isinstance(ty, RankedTensorType)
        shape = [self.add(self.add(lo, d), hi) for lo, d, hi in zip(low, self.shape(src), high)]
        lo_attr, lo_dyn = self._mixed(low)
        hi_attr, hi_dyn = self._mixed(high)
        body = Block([index] * ty.rank)
        Builder(body).create("tensor.yield", [self.float(0.0, ty.element_type)])
        op = self.b.create("tensor.pad", [src, *lo_dyn, *hi_dyn], [self.tensor_type(shape, ty.element_type)], {"static_low": lo_attr, "static_high": hi_attr}, [Region([body])])
        op.properties = _segments(1, len(lo_dyn), len(hi_dyn))
        return self.remember(op.results[0], shape)

    def expand(self, src: Value, groups: Sequence[Sequence[int]], shape: Sequence[Ix]) -> Value:
        ty = src.type
        assert isinstance(ty, RankedTensorType)
        static_, dynamic = self._mixed(shape)
        attrs = {"reassociation": _reassociation(groups), "static_output_shape": static_}
        result = self.b.value("tensor.expand_shape", [src, *dynamic], self.tensor_type(shape, ty.element_type), attrs)
        return self.remember(result, shape)

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
        return self.b.value("tensor.collapse_shape", [src], RankedTensorType(tuple(shape), ty.element_type), {"reassociation": _reassociation(groups)})

    def _same_sizes(self, like: Value, v: Value) -> Value:
        known = self._known(like)
        return self.remember(v, known) if known is not None else v

    # -- linalg ---------------------------------------------------------------------------------
    def structured(self, name: str, ins: Sequence[Value], outs: Sequence[Value], attributes: Optional[dict[str, Attribute]] = None) -> list[Value]:
        """A linalg named op (fill, matmul, conv_*, transpose, ...)."""
        op = self.b.create(name, [*ins, *outs], [v.type for v in outs], attributes or {})
        op.properties = _segments(len(ins), len(outs))
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
        inner.create("linalg.yield", body(inner, list(block.args)))
        attrs = {"indexing_maps": _maps_attr(tuple(maps)), "iterator_types": _iterators_attr(tuple(iterators))}
        op = self.b.create("linalg.generic", [*ins, *outs], [v.type for v in outs], attrs, [Region([block])])
        op.properties = _segments(len(ins), len(outs))
        return [self._same_sizes(o, r) for o, r in zip(outs, op.results)]

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
            at = [b.value("linalg.index", [], index, {"dim": IntegerAttr(i, i64)}) for i in range(ty.rank)]
            at = [b.value("arith.subi", [last[i], x], index) if i in last else x for i, x in enumerate(at)]
            return [b.value("tensor.extract", [src, *at], ty.element_type)]

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
        cast = "arith.truncf" if src_t.width > element.width else "arith.extf"
        ident = AffineMap.identity(ty.rank)
        return self.generic([src], [out], [ident, ident], ["parallel"] * ty.rank, lambda b, a: [b.value(cast, [a[0]], element)])[0]

    # -- torch boundary ----------------------------------------------------------------------------
    def to_builtin(self, v: Value) -> Value:
        t = v.type
        if isinstance(t, RankedTensorType):
            return v
        assert isinstance(t, ValueTensorType)
        return self.b.value("torch_c.to_builtin_tensor", [v], builtin_tensor_type(t))

    def from_builtin(self, v: Value, t: ValueTensorType) -> Value:
        """v as the torch tensor t, through a `tensor.cast` to t's builtin
        type first when v's static shape differs."""
        target = builtin_tensor_type(t)
        if v.type != target:
            v = self.b.value("tensor.cast", [v], target)
        return self.b.value("torch_c.from_builtin_tensor", [v], t)


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
    return x if x.type == t else b.value("arith.extf", [x], t)


def add_extended(b: Builder, acc: Value, x: Value, t: Type) -> Value:
    """acc + x, with x extended to acc's type t first."""
    return b.value("arith.addf", [acc, extend(b, x, t)], t)


# Attributes are immutable values: the lowerings make the same few many
# times, so they are made once and shared (shared objects also keep their
# hashes, which the verifier, cleanup and the printer's aliases look up).

@functools.lru_cache(maxsize=4096)
def _tensor_type(shape: tuple[Optional[int], ...], element: Type) -> RankedTensorType:
    """Shared tensor types keep their hash and printed text."""
    return RankedTensorType(shape, element)


@functools.lru_cache(maxsize=4096)
def _i64_array(values: tuple[int, ...]) -> DenseArrayAttr:
    return DenseArrayAttr(i64, values)


def _segments(*sizes: int) -> dict[str, Attribute]:
    """The properties of an op with operand segments of these sizes."""
    return {"operandSegmentSizes": _segment_sizes(sizes)}


@functools.lru_cache(maxsize=256)
def _segment_sizes(sizes: tuple[int, ...]) -> DenseArrayAttr:
    return DenseArrayAttr(i32, sizes)


@functools.lru_cache(maxsize=4096)
def _maps_attr(maps: tuple[AffineMap, ...]) -> ArrayAttr:
    return ArrayAttr(tuple(AffineMapAttr(m) for m in maps))


@functools.lru_cache(maxsize=256)
def _iterators_attr(iterators: tuple[str, ...]) -> ArrayAttr:
    return ArrayAttr(tuple(StringAttr(i) for i in iterators))


def _element(t: Type) -> Type:
    return t.element_type if isinstance(t, RankedTensorType) else t


def _reassociation(groups: Sequence[Sequence[int]]) -> ArrayAttr:
    return _reassociation_attr(tuple(tuple(g) for g in groups))


@functools.lru_cache(maxsize=1024)
def _reassociation_attr(groups: tuple[tuple[int, ...], ...]) -> ArrayAttr:
    return ArrayAttr(tuple(ArrayAttr(tuple(IntegerAttr(i, i64) for i in g)) for g in groups))


def _same(a: Ix, b: Optional[Ix]) -> bool:
    if b is None:
        return False
    if isinstance(a, int) or isinstance(b, int):
        return a == b
    return a is b
