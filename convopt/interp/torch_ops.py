"""The torch ops that IREE's torch input takes as they are and convopt
leaves in place (`convopt --lower-conv-bwd --lower-forward-convs`), with
PyTorch's semantics, so that convopt-run runs the IREE route's module too:
constants and lists as Python values, tensors as numpy arrays in their
declared element type (each result is converted to its type afterwards).
The set is what the training steps of test/models use."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np

from ..dialects import torch
from ..ir.attributes import FloatAttr, IntegerAttr, StringAttr
from ..ir.core import Operation
from .core import InterpError, Interpreter, attr, handler
from .values import constant_value

_erf = np.vectorize(math.erf, otypes=[np.float64])


def _constant(interp: Interpreter, op: Operation, args: list) -> list:
    value = attr(op, "value")
    if op.name == torch.CONSTANT_NONE:
        return [None]
    if op.name == torch.CONSTANT_BOOL:
        return [bool(value.value)]  # type: ignore[union-attr]
    if isinstance(value, IntegerAttr):
        return [int(value.value)]
    if isinstance(value, FloatAttr):
        return [float(value.value)]
    if isinstance(value, StringAttr):
        return [value.value]
    raise InterpError(f"'{op.name}' without a value", op)


handler(torch.CONSTANT_INT, torch.CONSTANT_FLOAT, torch.CONSTANT_BOOL, torch.CONSTANT_NONE, torch.CONSTANT_STR, torch.CONSTANT_DEVICE)(_constant)


@handler(torch.LITERAL)
def _literal(interp: Interpreter, op: Operation, args: list) -> list:
    value = attr(op, "value")
    assert value is not None
    return [constant_value(value, op.results[0].type, interp.resources)]


@handler(torch.LIST_CONSTRUCT)
def _list(interp: Interpreter, op: Operation, args: list) -> list:
    return [list(args)]


def _var_mean(x: np.ndarray, dims: list | None, correction: float | None, keepdim: bool) -> tuple:
    axes = tuple(range(x.ndim)) if not dims else tuple(d % x.ndim for d in dims)
    mean = np.mean(x, axis=axes, keepdims=True)
    n = math.prod(x.shape[a] for a in axes)
    var = np.sum((x - mean) ** 2, axis=axes, keepdims=keepdim) / max(n - (1 if correction is None else correction), 0)
    return var, mean if keepdim else np.squeeze(mean, axis=axes)


def _expand(x: np.ndarray, sizes: list, implicit: bool) -> np.ndarray:
    shape = list(sizes)
    for i in range(1, x.ndim + 1):
        if shape[-i] == -1:
            shape[-i] = x.shape[-i]
    return np.broadcast_to(x, shape)


def _gelu(x: np.ndarray, approximate: str) -> np.ndarray:
    if approximate == "tanh":
        return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))
    return (0.5 * x * (1 + _erf(x / math.sqrt(2)))).astype(x.dtype)


_OPS: dict[str, Callable] = {
    torch.ADD_TENSOR: lambda a, b, alpha: a + alpha * b,
    torch.SUB_TENSOR: lambda a, b, alpha: a - alpha * b,
    torch.MUL_TENSOR: lambda a, b: a * b,
    torch.ADD_SCALAR: lambda a, s, alpha: a + alpha * s,
    torch.MUL_SCALAR: lambda a, s: a * s,
    torch.DIV_SCALAR: lambda a, s: a / s,
    torch.LE_SCALAR: lambda a, s: a <= s,
    torch.GE_SCALAR: lambda a, s: a >= s,
    torch.BITWISE_OR: lambda a, b: np.bitwise_or(a, b),
    torch.WHERE_SELF: lambda c, a, b: np.where(c, a, b),
    torch.SCALAR_TENSOR: lambda s, dtype, layout, device, pin: np.asarray(s),
    torch.CLONE: lambda a, memory_format: np.array(a),
    torch.RELU: lambda a: np.maximum(a, 0),
    torch.TANH: np.tanh,
    torch.SIGMOID: lambda a: 0.5 * (1 + np.tanh(0.5 * a)),  # 1 / (1 + exp(-a)) without exp's overflow
    torch.FULL_LIKE: lambda a, value, dtype, layout, device, pin, memory_format: np.full_like(a, value),
    torch.EMPTY_LIKE: lambda a, dtype, layout, device, pin, memory_format: np.zeros_like(a),  # any contents will do: zeros
    torch.NUM_TO_TENSOR: np.asarray,
    torch.RSQRT: lambda a: 1 / np.sqrt(a),
    torch.EXP: np.exp,
    torch.NEG: np.negative,
    torch.ERF: lambda a: _erf(a).astype(a.dtype),
    torch.GELU: _gelu,
    torch.HARDTANH: lambda a, lo, hi: np.clip(a, lo, hi),
    torch.UNSQUEEZE: lambda a, dim: np.expand_dims(a, dim),
    torch.PRIMS_SQUEEZE: lambda a, dims: np.squeeze(a, axis=tuple(dims)),
    torch.VIEW: lambda a, sizes: np.reshape(a, sizes),
    torch.EXPAND: _expand,
    torch.MEAN_DIM: lambda a, dims, keepdim, dtype: np.mean(a, axis=tuple(dims) if dims else None, keepdims=keepdim),
    torch.MM: np.matmul,
    torch.SIZE_INT: lambda a, dim: int(np.shape(a)[dim]),
    torch.MUL_INT: lambda a, b: a * b,
    torch.DIV_INT: lambda a, b: a / b,
    torch.DIV_FLOAT: lambda a, b: a / b,
    torch.SUB_FLOAT: lambda a, b: a - b,
    torch.CAT: lambda tensors, dim: np.concatenate(tensors, axis=dim),
    torch.INDEX_TENSOR: lambda a, indices: a[tuple(slice(None) if i is None else i for i in indices)],
}


@handler(*_OPS)
def _torch_op(interp: Interpreter, op: Operation, args: list) -> list:
    return [_OPS[op.name](*args)]


@handler(torch.VAR_MEAN_CORRECTION)
def _var_mean_op(interp: Interpreter, op: Operation, args: list) -> list:
    return list(_var_mean(*args))


def _pool_geometry(size: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> int:
    """PyTorch's output size of a pooling window along one dim."""
    span = size + 2 * p - d * (k - 1) - 1
    out = (-(-span // s) if ceil_mode else span // s) + 1
    if ceil_mode and (out - 1) * s >= size + p:  # the last window must start inside the input or its left padding
        out -= 1
    return out


def _windows(x: np.ndarray, kernel: list, stride: list, padding: list, dilation: list, ceil_mode: bool, fill: float):
    """The pooling windows over x's last len(kernel) dims, one tap at a time:
    (output spatial shape, [(tap offsets, x padded with fill and sliced at
    that tap: one value per output position)])."""
    k = len(kernel)
    stride = stride or kernel
    dims = [(x.shape[x.ndim - k + i], kernel[i], stride[i], padding[i], dilation[i]) for i in range(k)]
    out = [_pool_geometry(n, kk, s, p, d, ceil_mode) for n, kk, s, p, d in dims]
    pad = [(p, max(0, (o - 1) * s + d * (kk - 1) + 1 - n - p)) for (n, kk, s, p, d), o in zip(dims, out)]
    xp = np.pad(x, [(0, 0)] * (x.ndim - k) + pad, constant_values=fill)
    taps = []
    for tap in itertools.product(*(range(kk) for kk in kernel)):
        at = [t * d for t, (_, _, _, _, d) in zip(tap, dims)]
        window: tuple = (Ellipsis, *(slice(a, a + s * (o - 1) + 1, s) for a, (_, _, s, _, _), o in zip(at, dims, out)))
        taps.append((at, xp[window]))
    return out, stride, taps


def _max_pool(x: np.ndarray, kernel: list, stride: list, padding: list, dilation: list, ceil_mode: bool) -> list:
    """(max over each window, the flat index (d * H + h) * W + w of the first
    maximum in the window's row-major order, NaN counting as the maximum)."""
    k = len(kernel)
    spatial = x.shape[x.ndim - k:]
    out, stride, taps = _windows(x, kernel, stride, padding, dilation, ceil_mode, -np.inf)
    best = np.full((*x.shape[: x.ndim - k], *out), -np.inf, x.dtype)
    where = np.zeros(best.shape, np.int64)
    starts = np.meshgrid(*(np.arange(o) * s - p for o, s, p in zip(out, stride, padding)), indexing="ij")
    for at, cand in taps:
        take = (cand > best) | (np.isnan(cand) & ~np.isnan(best))
        best = np.where(take, cand, best)
        where = np.where(take, np.ravel_multi_index(tuple(g + a for g, a in zip(starts, at)), spatial, mode="wrap"), where)
    return [best, where]


@handler(torch.MAX_POOL2D, torch.MAX_POOL3D)
def _max_pool_op(interp: Interpreter, op: Operation, args: list) -> list:
    return _max_pool(*args)


@handler(torch.MAX_POOL2D_BACKWARD, torch.MAX_POOL3D_WITH_INDICES_BACKWARD)
def _max_pool_backward(interp: Interpreter, op: Operation, args: list) -> list:
    """grad_input[flat spatial index] += grad_output at the positions the forward's indices name."""
    grad_out, x, kernel, *_, indices = args
    k = len(kernel)
    planes = int(np.prod(x.shape[: x.ndim - k], dtype=np.int64))
    grad = np.zeros((planes, int(np.prod(x.shape[x.ndim - k:], dtype=np.int64))), grad_out.dtype)
    np.add.at(grad, (np.arange(planes)[:, None], np.asarray(indices).reshape(planes, -1)), grad_out.reshape(planes, -1))
    return [grad.reshape(x.shape)]


@handler(torch.AVG_POOL1D, torch.AVG_POOL2D, torch.AVG_POOL3D)
def _avg_pool(interp: Interpreter, op: Operation, args: list) -> list:
    """The window sums over zero padding divided by divisor_override, or by
    the window's size clipped to the padded input (count_include_pad) or to
    the input; separable per dim."""
    x, kernel, stride, padding, ceil_mode, count_include_pad, *rest = args
    divisor_override = rest[0] if rest else None
    k = len(kernel)
    out, stride, taps = _windows(x, kernel, stride, padding, [1] * k, ceil_mode, 0.0)
    total = sum((cand for _, cand in taps), np.zeros((*x.shape[: x.ndim - k], *out), x.dtype))
    if divisor_override:
        return [total / divisor_override]
    divisor = np.ones((), np.int64)
    for n, kk, s, p, o in zip(x.shape[x.ndim - k:], kernel, stride, padding, out):
        start = np.arange(o) * s - p
        end = np.minimum(start + kk, n + p)
        size = end - start if count_include_pad else np.minimum(end, n) - np.maximum(start, 0)
        divisor = np.multiply.outer(divisor, size)
    return [total / divisor.astype(x.dtype)]


@handler(torch.SPLIT_WITH_SIZES)
def _split(interp: Interpreter, op: Operation, args: list) -> list:
    x, sizes, dim = args
    return [np.split(x, np.cumsum(sizes)[:-1], axis=dim)]


@handler(torch.LIST_UNPACK)
def _list_unpack(interp: Interpreter, op: Operation, args: list) -> list:
    (items,) = args
    if len(items) != len(op.results):
        raise InterpError(f"'{op.name}' of a list of {len(items)} into {len(op.results)} results", op)
    return list(items)
