"""A convolution_backward whose input is empty: PyTorch's results, no arithmetic.

PyTorch takes a static size 0 in the input's batch or channels (and then in
any spatial size of the input, the weight's kernel and grad_output; the
checks are conv_spec.check_empty) and computes nothing (its `Empty`
backend):

    grad_input  = zeros_like(input)                # empty: the input has a size-0 dim
    grad_weight = zeros_like(weight)               # zeros, or empty with the weight
    grad_bias   = zeros([grad_output channels])    # zeros, also where grad_output is not empty

The direct path emits a `tensor.empty` for a result with a size-0 dim and a
`linalg.fill` of zeros for the others; the decomposed path emits
`torch.aten.zeros` per result, which convopt-torch-to-linalg lowers the
same way (torch_to_linalg.lower_zeros).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from ...dialects import torch
from ...ir.core import Value
from ...ir.types import FloatType, Type, ValueTensorType, vtensor
from ..kernel.emit import Emitter, Ix
from .conv_spec import ConvBackward
from .torch_emit import IntLike, TorchEmitter

TORCH_SCALAR_TYPES = {"f16": 5, "f32": 6, "f64": 7, "bf16": 15}
"""torch's ScalarType codes, the `dtype` operand of `torch.aten.zeros`."""


def zeros_or_empty(em: Emitter, shape: Sequence[Ix], element: Type) -> Value:
    """A tensor of zeros; just the `tensor.empty` when a static size is 0."""
    if any(isinstance(s, int) and s == 0 for s in shape):
        return em.empty(shape, element)
    return em.zeros(shape, element)


def _sizes(em: Emitter, v: Value) -> list[Ix]:
    """The sizes of a torch tensor; `tensor.dim` of its builtin form for
    the dynamic ones."""
    shape = vtensor(v.type).shape or ()
    if None not in shape:
        return list(shape)  # type: ignore[arg-type]
    return em.shape(em.to_builtin(v))


def lower_empty(em: Emitter, cb: ConvBackward, wanted: Sequence[bool]) -> list[Optional[Value]]:
    """The builtin results of a convolution_backward with an empty input."""
    dtype = cb.spec.dtype
    values: list[Optional[Value]] = [None, None, None]
    if wanted[0]:
        values[0] = em.empty(_sizes(em, cb.input), dtype)
    if wanted[1]:
        values[1] = zeros_or_empty(em, _sizes(em, cb.weight), dtype)
    if wanted[2]:
        channels = cb.spec.out_channels
        values[2] = zeros_or_empty(em, [channels if channels is not None else _sizes(em, cb.grad_output)[1]], dtype)
    return values


def decompose_empty(t: TorchEmitter, cb: ConvBackward, wanted: Sequence[bool]) -> list[Optional[Value]]:
    """The same as `torch.aten.zeros` ops (sizes: constants or
    `torch.aten.size.int`)."""
    dtype = cb.spec.dtype
    values: list[Optional[Value]] = [None, None, None]
    none = t.none()
    zeros = lambda sizes, shape: aten_zeros(t, sizes, ValueTensorType(tuple(shape), dtype), none)  # noqa: E731
    for i, like in enumerate((cb.input, cb.weight)):
        if wanted[i]:
            shape = vtensor(like.type).shape or ()
            values[i] = zeros([t.size(like, d) for d in range(len(shape))], shape)
    if wanted[2]:
        channels = cb.spec.out_channels
        values[2] = zeros([channels if channels is not None else t.size(cb.grad_output, 1)], [channels])
    return values


def aten_zeros(t: TorchEmitter, sizes: Sequence[IntLike], result: ValueTensorType, none: Value) -> Value:
    """`torch.aten.zeros %sizes, %dtype, %none, %none, %none` (layout,
    device and pin_memory unset)."""
    assert isinstance(result.dtype, FloatType)
    dtype = t.const_int(TORCH_SCALAR_TYPES[result.dtype.name])
    return t.b.value(torch.ZEROS, [t.int_list(sizes), dtype, none, none, none], result)
