"""Reading and checking a `torch.aten.convolution_backward` (or
`torch.aten.convolution`) op: constant parameters, shapes, element type.

Everything the lowerings need is validated here first, so that an op either
lowers correctly or gets a located `unsupported: ...` / shape error; a
lowering never meets a configuration it cannot handle.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Optional

from ...diagnostics import ConvoptError, Diagnostic, position_of
from ...dialects import torch, torch_c
from ...dialects.func import FUNC
from ...ir.attributes import IntegerAttr
from ...ir.builder import Builder
from ...ir.core import Operation, Value
from ...ir.types import FloatType, Type, ValueTensorType, vtensor
from ..kernel.emit import Emitter

SUPPORTED_DTYPES = ("f16", "bf16", "f32", "f64")
PYTORCH_MIXED = {("f32", "f16"), ("f32", "bf16"), ("bf16", "f32")}
"""(input, weight) element types that PyTorch's CPU kernels take mixed."""

CONV_BWD = torch.CONVOLUTION_BACKWARD
CONV = torch.CONVOLUTION


def unsupported(op: Operation, why: str) -> ConvoptError:
    return ConvoptError(Diagnostic("error", f"unsupported: {why}", position_of(op)))


def invalid(op: Operation, why: str) -> ConvoptError:
    return ConvoptError(Diagnostic("error", f"'{op.name}' op {why}", position_of(op)))


def constant_int(v: Value) -> Optional[int]:
    op = v.owner
    if op is not None and op.name == torch.CONSTANT_INT:
        attr = op.attributes.get("value")
        return attr.value if isinstance(attr, IntegerAttr) else None
    return None


def constant_bool(v: Value) -> Optional[bool]:
    op = v.owner
    if op is not None and op.name == torch.CONSTANT_BOOL:
        attr = op.attributes.get("value")
        return bool(attr.value) if isinstance(attr, IntegerAttr) else None
    return None


def is_none(v: Value) -> bool:
    return v.owner is not None and v.owner.name == torch.CONSTANT_NONE


def constant_list(v: Value, element=constant_int) -> Optional[list]:
    op = v.owner
    if op is None or op.name != torch.LIST_CONSTRUCT:
        return None
    items = [element(x) for x in op.operands]
    return None if any(i is None for i in items) else items


@dataclass(frozen=True)
class ConvSpec:
    """One convolution, in PyTorch's terms.

    Regular:    y[n, f, o] = sum_{c, k} x[n, c, S*o + D*k - P] * w[f, c, k]
    Transposed: y[n, f, S*i + D*k - P] += x[n, c, i] * w[c, f, k]
    (per spatial dim, channels grouped by `groups`).
    """

    rank: int  # spatial dims
    stride: tuple[int, ...]
    padding: tuple[int, ...]
    dilation: tuple[int, ...]
    output_padding: tuple[int, ...]
    transposed: bool
    groups: int
    kernel: tuple[Optional[int], ...]  # None: dynamic (aten.convolution only)
    in_channels: Optional[int]
    out_channels: Optional[int]
    dtype: FloatType

    @property
    def spatial(self) -> range:
        return range(self.rank)

    def group_channels(self) -> tuple[Optional[int], Optional[int]]:
        """(Ca, Cb): channels per group of the strided side A (the output of a
        regular convolution, the input of a transposed one) and of the other
        side B; the weight is [G*Ca, Cb, k...]."""
        cin, cout, g = self.in_channels, self.out_channels, self.groups
        a, b = (cin, cout) if self.transposed else (cout, cin)
        return (a // g if a is not None else None, b // g if b is not None else None)


def _shaped(op: Operation, v: Value, what: str) -> ValueTensorType:
    t = v.type
    if not isinstance(t, ValueTensorType) or t.shape is None or t.dtype is None:
        raise unsupported(op, f"{what} must be a !torch.vtensor with known rank and dtype, got '{t}'")
    return t


def _dtype(op: Operation, t: ValueTensorType) -> FloatType:
    dtype: Type = t.dtype  # type: ignore[assignment]
    if not isinstance(dtype, FloatType) or dtype.name not in SUPPORTED_DTYPES:
        raise unsupported(op, f"element type {dtype} (f16, bf16, f32 and f64 are supported)")
    return dtype


def _int_list(op: Operation, v: Value, name: str, rank: int) -> tuple[int, ...]:
    values = constant_list(v)
    if values is None:
        raise unsupported(op, f"non-constant {name} list (expected torch.prim.ListConstruct of torch.constant.int)")
    if len(values) == 1 and rank > 1:
        values = values * rank
    if len(values) != rank:
        raise invalid(op, f"expects {rank} {name} values for {rank} spatial dims, got {len(values)}")
    return tuple(values)


def read_conv(op: Operation, args: Any) -> ConvSpec:
    """Shared reading of the convolution parameters of both ops, from their
    operands by name (`torch.args(op)`: input, weight, stride, padding,
    dilation, transposed, output_padding, groups).  Any size
    may be dynamic (`?`, the weight's kernel and channels too); stride,
    padding, dilation, output_padding, groups and `transposed` must be
    constants.  A channel count the weight leaves dynamic is taken from the
    input where that is static."""
    xt = _shaped(op, args.input, "the input")
    wt = _shaped(op, args.weight, "the weight")
    dtype = _dtype(op, xt)
    if wt.dtype != dtype:
        if (str(xt.dtype), str(wt.dtype)) in PYTORCH_MIXED:
            raise unsupported(op, f"mixed element types (input {xt.dtype}, weight {wt.dtype}; PyTorch computes them in {xt.dtype}, convopt takes one element type)")
        raise invalid(op, f"expects input and weight of the same element type, got {xt.dtype} and {wt.dtype}")
    nd = len(xt.shape) - 2  # type: ignore[arg-type]
    if nd not in (1, 2, 3):
        raise unsupported(op, f"tensors of rank {nd + 2} (1, 2 or 3 spatial dims, ranks 3-5, are supported)")
    if len(wt.shape) != nd + 2:  # type: ignore[arg-type]
        raise invalid(op, f"expects input and weight of the same rank, got {nd + 2} and {len(wt.shape)}")  # type: ignore[arg-type]
    transposed = constant_bool(args.transposed)
    if transposed is None:
        raise unsupported(op, "non-constant 'transposed' flag")
    groups = constant_int(args.groups)
    if groups is None:
        raise unsupported(op, "non-constant 'groups'")
    s = _int_list(op, args.stride, "stride", nd)
    p = _int_list(op, args.padding, "padding", nd)
    d = _int_list(op, args.dilation, "dilation", nd)
    op_pad = _int_list(op, args.output_padding, "output_padding", nd)
    if any(v < 1 for v in s) or any(v < 1 for v in d):
        raise invalid(op, f"expects stride and dilation >= 1, got stride {list(s)} and dilation {list(d)}")
    if any(v < 0 for v in p) or any(v < 0 for v in op_pad):
        raise invalid(op, "expects non-negative padding and output_padding")
    if groups < 1:
        raise invalid(op, f"expects groups >= 1, got {groups}")
    w_shape: tuple[Optional[int], ...] = wt.shape  # type: ignore[assignment]
    kernel = w_shape[2:]
    times = lambda a: a * groups if a is not None else None  # noqa: E731
    if transposed:
        in_channels, out_channels = w_shape[0], times(w_shape[1])
        for i in range(nd):
            if op_pad[i] >= max(s[i], d[i]):
                raise invalid(op, f"expects output_padding smaller than stride or dilation, got {op_pad[i]} in dim {i}")
    else:
        in_channels, out_channels = times(w_shape[1]), w_shape[0]
        if any(op_pad):
            raise invalid(op, "expects zero output_padding for a non-transposed convolution (PyTorch rejects it)")
    x_channels = xt.shape[1]  # type: ignore[index]
    if x_channels is not None and in_channels is not None and x_channels != in_channels:
        raise invalid(op, f"expects the input to have {in_channels} channels (weight {list(w_shape)}, groups {groups}), got {x_channels}")
    if in_channels is None:
        in_channels = x_channels
    if (in_channels or 0) % groups or (out_channels or 0) % groups:
        raise invalid(op, f"expects groups ({groups}) to divide the input ({in_channels}) and output ({out_channels}) channels")
    if any(k is not None and k < 1 for k in kernel) and not (op.name == CONV_BWD and is_empty(xt)):
        raise invalid(op, "expects a non-empty kernel")
    return ConvSpec(nd, s, p, d, op_pad, transposed, groups, kernel, in_channels, out_channels, dtype)


def conv_output_size(n: int, k: int, s: int, p: int, d: int, transposed: bool, output_padding: int = 0) -> int:
    """PyTorch's output size of a convolution along one dim of input size n:

        regular:    (n + 2*p - d*(k - 1) - 1) // s + 1
        transposed: (n - 1)*s - 2*p + d*(k - 1) + output_padding + 1
    """
    if transposed:
        return (n - 1) * s - 2 * p + d * (k - 1) + output_padding + 1
    return (n + 2 * p - d * (k - 1) - 1) // s + 1


def output_size(spec: ConvSpec, i: int, in_size: int) -> int:
    """The forward output size along spatial dim i for input size in_size."""
    k = spec.kernel[i]
    assert k is not None
    return conv_output_size(in_size, k, spec.stride[i], spec.padding[i], spec.dilation[i], spec.transposed, spec.output_padding[i])


def wanted_results(op: Operation, cb: ConvBackward) -> list[bool]:
    """Which of op's three results to compute: those output_mask asks for,
    and unrequested ones that are still used as tensors."""
    return [cb.mask[i] or (op.results[i].has_uses() and isinstance(op.results[i].type, ValueTensorType)) for i in range(3)]


def check_output_shape(op: Operation, spec: ConvSpec, x: ValueTensorType, y: ValueTensorType, what: str) -> None:
    """Static sizes of y (forward output / grad_output) must follow from x."""
    assert x.shape is not None and y.shape is not None
    if len(y.shape) != spec.rank + 2:
        raise invalid(op, f"expects {what} of rank {spec.rank + 2}, got '{y}'")
    if y.shape[1] is not None and spec.out_channels is not None and y.shape[1] != spec.out_channels:
        raise invalid(op, f"expects {what} to have {spec.out_channels} channels, got {y.shape[1]}")
    if x.shape[0] is not None and y.shape[0] is not None and x.shape[0] != y.shape[0]:
        raise invalid(op, f"expects {what} and the input to have the same batch size, got {y.shape[0]} and {x.shape[0]}")
    for i in spec.spatial:
        xi, yi = x.shape[2 + i], y.shape[2 + i]
        if xi is None or yi is None or spec.kernel[i] is None:
            continue
        expected = output_size(spec, i, xi)
        if spec.transposed and is_empty(x):  # PyTorch computes nothing: any size <= 0 is an empty one
            expected = max(expected, 0)
        elif expected < 1:
            raise invalid(op, f"has an empty output along spatial dim {i} (input size {xi}, kernel {spec.kernel[i]}, padding {spec.padding[i]}, dilation {spec.dilation[i]})")
        if yi != expected:
            raise invalid(op, f"expects {what} size {expected} along spatial dim {i} (input {xi}), got {yi}")


MAX_KERNEL_TAPS = 1 << 14
MAX_SPATIAL_SIZE = 1 << 22
I64_MAX = 2**63 - 1
"""MLIR's sizes, offsets and index constants are i64."""


def window_extent(stride: int, dilation: int, kernel: Optional[int], padding: int, sizes: tuple[Optional[int], ...]) -> int:
    """A bound on every static size and offset a window lowering computes
    along one spatial dim (the relation b = S*s + D*k - P between a side of
    size na and one of size nb, padded by P, output_padding included):

        (S + 1) * (na + nb) + D * K + 2 * P      (a dynamic size or kernel counts as 1)
    """
    na_nb = sum(max(n or 1, 1) for n in sizes)
    return (stride + 1) * na_nb + dilation * max(kernel or 1, 1) + 2 * padding


def check_i64(op: Operation, tensors: tuple[ValueTensorType, ...], extents: list[int]) -> None:
    """Static sizes convopt computes must fit i64 (I64_MAX): each tensor's
    elements (the product of its non-zero static sizes, a bound on any size
    a collapse_shape merges from its dims) and each spatial dim's
    `window_extent`; else a located `unsupported:` error."""
    for t in tensors:
        n = math.prod(s for s in t.shape or () if s)
        if n > I64_MAX:
            raise unsupported(op, f"a tensor of {n} elements ('{t}'), over i64 (2^63-1)")
    for i, e in enumerate(extents):
        if e > I64_MAX:
            raise unsupported(op, f"sizes and offsets up to {e} along spatial dim {i}, over i64 (2^63-1)")


def is_empty(t: ValueTensorType) -> bool:
    """A static size 0: no elements, whatever the dynamic sizes are."""
    return 0 in (t.shape or ())


def check_empty(op: Operation, spec: ConvSpec, x: ValueTensorType, w: ValueTensorType, y: ValueTensorType) -> None:
    """The static size-0 dims PyTorch takes (empty.py lowers them): the
    input's batch or channels, a spatial size of an input whose batch or
    channels is 0 too, and then any size of the weight but its first and of
    grad_output.  The weight needs at least `groups` rows; with an input
    that is not empty, nothing may be empty."""
    if w.shape[0] == 0:  # type: ignore[index]
        raise invalid(op, f"expects a weight of at least {spec.groups} along dim 0 (groups {spec.groups}), got '{w}'")
    batch_channels = (x.shape or ())[:2]
    if is_empty(x):
        if 0 not in batch_channels and None not in batch_channels:
            raise invalid(op, f"expects a size-0 batch or channel dim with a size-0 spatial dim (PyTorch takes no other empty input), got '{x}'")
        return
    for what, t in (("the weight", w), ("grad_output", y)):
        if is_empty(t):
            if None in (x.shape or ()):
                raise unsupported(op, f"a size-0 dim in {what} ('{t}') with an input whose sizes are not all static ('{x}')")
            raise invalid(op, f"expects {what} to have no size-0 dim when the input has none, got '{t}'")


def check_conv_i64(op: Operation, spec: ConvSpec, x: ValueTensorType, w: ValueTensorType, y: ValueTensorType) -> None:
    """check_i64 of a convolution's input, weight and output (or
    grad_output), per spatial dim over the sizes of x and y, padding
    P + output_padding."""
    xs, ys = ([*(t.shape or ())[2:], *[None] * spec.rank][: spec.rank] for t in (x, y))
    extents = [window_extent(spec.stride[i], spec.dilation[i], spec.kernel[i], spec.padding[i] + spec.output_padding[i], (xs[i], ys[i])) for i in spec.spatial]
    check_i64(op, (x, w, y), extents)


def check_sizes(op: Operation, spec: ConvSpec, x: ValueTensorType, w: ValueTensorType, y: ValueTensorType) -> None:
    """Size-0 dims PyTorch rejects (check_empty), and sizes whose lowering
    would not finish: the work grows with the kernel's taps (the scatter has
    an op per tap) and, on the decomposed path, with the spatial sizes (the
    weight gradient's kernel), or that do not fit i64 (check_i64)."""
    check_empty(op, spec, x, w, y)
    taps = math.prod(k for k in spec.kernel if k is not None)
    if taps > MAX_KERNEL_TAPS:
        raise unsupported(op, f"a kernel of {taps} taps (at most {MAX_KERNEL_TAPS})")
    for t in (x, y):
        for i, size in enumerate((t.shape or ())[2:]):
            if size is not None and size > MAX_SPATIAL_SIZE:
                raise unsupported(op, f"spatial size {size} along dim {i} (at most {MAX_SPATIAL_SIZE})")
    check_conv_i64(op, spec, x, w, y)


@dataclass(frozen=True)
class ConvBackward:
    """A validated convolution_backward: operands, spec, which results."""

    spec: ConvSpec
    grad_output: Value
    input: Value
    weight: Value
    mask: tuple[bool, bool, bool]

    @property
    def empty(self) -> bool:
        """The input has a static size 0 (empty.py: no arithmetic)."""
        return is_empty(vtensor(self.input.type))


def read_conv_backward(op: Operation) -> ConvBackward:
    if len(op.operands) != 11 or len(op.results) != 3:
        raise invalid(op, f"expects 11 operands and 3 results, got {len(op.operands)} and {len(op.results)}")
    args = torch.args(op)
    go, x, w, bias_sizes, mask_v = args.grad_output, args.input, args.weight, args.bias_sizes, args.output_mask
    spec = read_conv(op, args)
    got = _shaped(op, go, "grad_output")
    if got.dtype != spec.dtype:
        raise invalid(op, f"expects grad_output of element type {spec.dtype}, got {got.dtype}")
    check_output_shape(op, spec, _shaped(op, x, "the input"), got, "grad_output")
    check_sizes(op, spec, _shaped(op, x, "the input"), _shaped(op, w, "the weight"), got)
    if spec.out_channels is None and got.shape[1] is not None:  # type: ignore[index]
        if got.shape[1] % spec.groups:  # type: ignore[index]
            raise invalid(op, f"expects groups ({spec.groups}) to divide the grad_output channels ({got.shape[1]})")  # type: ignore[index]
        spec = replace(spec, out_channels=got.shape[1])  # type: ignore[index]
    mask = constant_list(mask_v, constant_bool)
    if mask is None or len(mask) != 3:
        raise unsupported(op, "non-constant output_mask (expected a list of three torch.constant.bool)")
    if not is_none(bias_sizes):
        sizes = constant_list(bias_sizes)
        if sizes is None:
            raise unsupported(op, "non-constant bias_sizes")
    for index, (result, like) in enumerate(zip(op.results[:2], (x, w))):
        if isinstance(result.type, ValueTensorType) and result.type != like.type:
            raise invalid(op, f"expects result #{index} of type '{like.type}', got '{result.type}'")
    bias_t = op.results[2].type
    if isinstance(bias_t, ValueTensorType):  # grad_bias: [grad_output channels] of the element type
        channels = spec.out_channels
        shape = bias_t.shape
        if shape is None or len(shape) != 1 or bias_t.dtype != spec.dtype or None not in (shape[0], channels) and shape[0] != channels:
            raise invalid(op, f"expects result #2 of type '!torch.vtensor<[{'?' if channels is None else channels}],{spec.dtype}>', got '{bias_t}'")
    return ConvBackward(spec, go, x, w, tuple(mask))  # type: ignore[arg-type]


def constant_ints(op: Operation, v: Value, name: str, rank: int, empty_is: Optional[tuple[int, ...]] = None) -> tuple[int, ...]:
    """A constant list of 1 or `rank` ints (one is repeated; empty: empty_is)."""
    values = constant_list(v)
    if values is None:
        raise unsupported(op, f"non-constant {name} list (expected torch.prim.ListConstruct of torch.constant.int)")
    if not values and empty_is is not None:
        return empty_is
    if len(values) == 1:
        values = values * rank
    if len(values) != rank:
        raise invalid(op, f"expects 1 or {rank} {name} values, got {len(values)}")
    return tuple(values)


def emitter_before(op: Operation) -> Emitter:
    """An Emitter building before op, in its function."""
    func = op.ancestor(FUNC)
    assert func is not None
    return Emitter(Builder.before(op), func)


def builtin_operand(em: Emitter, v: Value) -> Value:
    """A torch operand as a builtin tensor (the operand of its from_builtin cast, if it has one)."""
    op = v.owner
    if op is not None and op.name == torch_c.FROM_BUILTIN_TENSOR:
        return op.operands[0]
    t = v.type
    if not isinstance(t, ValueTensorType) or t.shape is None or t.dtype is None:
        raise unsupported(op or v.uses[0][0], f"operand of unknown shape or dtype '{t}'")  # type: ignore[arg-type]
    return em.to_builtin(v)


def torch_result(em: Emitter, value: Value, result: Value) -> Value:
    """value cast to the torch type of `result`, which it replaces."""
    t = result.type
    assert isinstance(t, ValueTensorType)
    return em.from_builtin(value, t)
