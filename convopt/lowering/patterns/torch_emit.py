"""Creating torch-dialect ops with their result types (the shape functions
of the few aten ops the decomposition emits)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Union

from ...ir.attributes import IntegerAttr
from ...ir.builder import Builder
from ...ir.core import Operation, Value
from ...ir.types import (
    TORCH_BOOL,
    TORCH_BOOL_LIST,
    TORCH_INT,
    TORCH_INT_LIST,
    TORCH_NONE,
    Dim,
    ValueTensorType,
    i1,
    i64,
)
from .conv_spec import conv_output_size

IntLike = Union[int, Value]  # a Python int, or a !torch.int value


def _shape(v: Value) -> tuple[Dim, ...]:
    t = v.type
    assert isinstance(t, ValueTensorType) and t.shape is not None
    return t.shape


def _like(v: Value, shape: Sequence[Dim]) -> ValueTensorType:
    t = v.type
    assert isinstance(t, ValueTensorType)
    return ValueTensorType(tuple(shape), t.dtype)


class TorchEmitter:
    """Creates torch ops before an op; remembers them (in order) in `created`."""

    def __init__(self, builder: Builder):
        self.b = _Recorder(builder)
        self._ints: dict[int, Value] = {}
        self._bools: dict[bool, Value] = {}

    @property
    def created(self) -> list[Operation]:
        return self.b.created

    # -- scalars and lists ----------------------------------------------------------
    def const_int(self, v: IntLike) -> Value:
        if isinstance(v, Value):
            return v
        if v not in self._ints:
            self._ints[v] = self.b.value("torch.constant.int", [], TORCH_INT, {"value": IntegerAttr(v, i64)})
        return self._ints[v]

    def const_bool(self, v: bool) -> Value:
        if v not in self._bools:
            self._bools[v] = self.b.value("torch.constant.bool", [], TORCH_BOOL, {"value": IntegerAttr(int(v), i1)})
        return self._bools[v]

    def none(self) -> Value:
        return self.b.value("torch.constant.none", [], TORCH_NONE)

    def int_list(self, values: Sequence[IntLike]) -> Value:
        return self.b.value("torch.prim.ListConstruct", [self.const_int(v) for v in values], TORCH_INT_LIST)

    def bool_list(self, values: Sequence[bool]) -> Value:
        return self.b.value("torch.prim.ListConstruct", [self.const_bool(v) for v in values], TORCH_BOOL_LIST)

    # -- tensor ops ---------------------------------------------------------------------
    def size(self, t: Value, dim: int) -> IntLike:
        """A static size as int, a dynamic one as `torch.aten.size.int`."""
        static = _shape(t)[dim]
        if static is not None:
            return static
        return self.b.value("torch.aten.size.int", [t, self.const_int(dim)], TORCH_INT)

    def permute(self, t: Value, perm: Sequence[int]) -> Value:
        if list(perm) == list(range(len(perm))):
            return t
        shape = _shape(t)
        return self.b.value("torch.aten.permute", [t, self.int_list(list(perm))], _like(t, [shape[p] for p in perm]))

    def unflatten(self, t: Value, dim: int, sizes: Sequence[int]) -> Value:
        """Split dim into `sizes` (constants; one of them may be -1, the size
        that makes the product that of dim)."""
        if len(sizes) == 1:
            return t
        shape = list(_shape(t))
        whole, known = shape[dim], -math.prod(sizes)
        split: list[Dim] = [s if s != -1 else (whole // known if whole is not None else None) for s in sizes]
        result = shape[:dim] + split + shape[dim + 1 :]
        return self.b.value("torch.aten.unflatten.int", [t, self.const_int(dim), self.int_list(list(sizes))], _like(t, result))

    def flatten(self, t: Value, start: int, end: int) -> Value:
        if start == end:
            return t
        shape = list(_shape(t))
        dims = shape[start : end + 1]
        merged: Dim = None
        if all(d is not None for d in dims):
            merged = 1
            for d in dims:
                merged *= d  # type: ignore[operator]
        result = shape[:start] + [merged] + shape[end + 1 :]
        return self.b.value("torch.aten.flatten.using_ints", [t, self.const_int(start), self.const_int(end)], _like(t, result))

    def slice(self, t: Value, dim: int, start: int, end: IntLike) -> Value:
        """t[..., start:end, ...] along dim (step 1)."""
        shape = list(_shape(t))
        current = shape[dim]
        if start == 0 and isinstance(end, int) and current is not None and end >= current:
            return t
        size: Dim = None
        if isinstance(end, int):
            size = (end if current is None else min(end, current)) - start
        shape[dim] = size
        return self.b.value("torch.aten.slice.Tensor", [t, self.const_int(dim), self.const_int(start), self.const_int(end), self.const_int(1)], _like(t, shape))

    def convolution(
        self,
        x: Value,
        w: Value,
        stride: Sequence[int],
        padding: Sequence[int],
        dilation: Sequence[int],
        transposed: bool,
        output_padding: Sequence[int],
        groups: int,
    ) -> Value:
        """aten.convolution without bias; result shape by PyTorch's formula."""
        xs, ws = _shape(x), _shape(w)
        out_channels: Dim = (ws[1] * groups if ws[1] is not None else None) if transposed else ws[0]
        spatial: list[Dim] = []
        for i in range(len(xs) - 2):
            n, k = xs[2 + i], ws[2 + i]
            if n is None or k is None:
                spatial.append(None)
            else:
                spatial.append(conv_output_size(n, k, stride[i], padding[i], dilation[i], transposed, output_padding[i]))
        operands = [
            x,
            w,
            self.none(),
            self.int_list(list(stride)),
            self.int_list(list(padding)),
            self.int_list(list(dilation)),
            self.const_bool(transposed),
            self.int_list(list(output_padding)),
            self.const_int(groups),
        ]
        return self.b.value("torch.aten.convolution", operands, _like(x, [xs[0], out_channels, *spatial]))

    def sum(self, t: Value, dims: Sequence[int]) -> Value:
        shape = _shape(t)
        keep = [s for i, s in enumerate(shape) if i not in dims]
        return self.b.value("torch.aten.sum.dim_IntList", [t, self.int_list(list(dims)), self.const_bool(False), self.none()], _like(t, keep))

    def static_info_cast(self, t: Value, target: ValueTensorType) -> Value:
        if t.type == target:
            return t
        return self.b.value("torch.tensor_static_info_cast", [t], target)


class _Recorder:
    """A builder that keeps the ops it creates."""

    def __init__(self, builder: Builder):
        self.builder = builder
        self.created: list[Operation] = []

    def value(self, name: str, operands: Sequence[Value], result_type, attributes=None) -> Value:
        op = self.builder.create(name, operands, [result_type], attributes)
        self.created.append(op)
        return op.results[0]
