"""The torch ops that IREE's torch input takes as they are and convopt
leaves in place (`convopt --lower-conv-bwd --lower-forward-convs`), with
PyTorch's semantics, so that convopt-run runs the IREE route's module too:
constants and lists as Python values, tensors as numpy arrays in their
declared element type (each result is converted to its type afterwards).
The set is what the training steps of test/models use, without the pooling
and indexing ops (max_pool2d_with_indices and its backward, index.Tensor,
cat)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ..ir.attributes import FloatAttr, IntegerAttr, StringAttr
from ..ir.core import Operation
from .core import InterpError, Interpreter, attr, handler
from .values import constant_value

_erf = np.vectorize(math.erf, otypes=[np.float64])


def _constant(interp: Interpreter, op: Operation, args: list) -> list:
    value = attr(op, "value")
    if op.name == "torch.constant.none":
        return [None]
    if op.name == "torch.constant.bool":
        return [bool(value.value)]  # type: ignore[union-attr]
    if isinstance(value, IntegerAttr):
        return [int(value.value)]
    if isinstance(value, FloatAttr):
        return [float(value.value)]
    if isinstance(value, StringAttr):
        return [value.value]
    raise InterpError(f"'{op.name}' without a value", op)


handler("torch.constant.int", "torch.constant.float", "torch.constant.bool", "torch.constant.none", "torch.constant.str", "torch.constant.device")(_constant)


@handler("torch.vtensor.literal")
def _literal(interp: Interpreter, op: Operation, args: list) -> list:
    value = attr(op, "value")
    assert value is not None
    return [constant_value(value, op.results[0].type, interp.resources)]


@handler("torch.prim.ListConstruct")
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
    "torch.aten.add.Tensor": lambda a, b, alpha: a + alpha * b,
    "torch.aten.sub.Tensor": lambda a, b, alpha: a - alpha * b,
    "torch.aten.mul.Tensor": lambda a, b: a * b,
    "torch.aten.add.Scalar": lambda a, s, alpha: a + alpha * s,
    "torch.aten.mul.Scalar": lambda a, s: a * s,
    "torch.aten.div.Scalar": lambda a, s: a / s,
    "torch.aten.le.Scalar": lambda a, s: a <= s,
    "torch.aten.ge.Scalar": lambda a, s: a >= s,
    "torch.aten.bitwise_or.Tensor": lambda a, b: np.bitwise_or(a, b),
    "torch.aten.where.self": lambda c, a, b: np.where(c, a, b),
    "torch.aten.scalar_tensor": lambda s, dtype, layout, device, pin: np.asarray(s),
    "torch.aten.clone": lambda a, memory_format: np.array(a),
    "torch.aten.relu": lambda a: np.maximum(a, 0),
    "torch.aten.rsqrt": lambda a: 1 / np.sqrt(a),
    "torch.aten.exp": np.exp,
    "torch.aten.neg": np.negative,
    "torch.aten.erf": lambda a: _erf(a).astype(a.dtype),
    "torch.aten.gelu": _gelu,
    "torch.aten.hardtanh": lambda a, lo, hi: np.clip(a, lo, hi),
    "torch.aten.unsqueeze": lambda a, dim: np.expand_dims(a, dim),
    "torch.prims.squeeze": lambda a, dims: np.squeeze(a, axis=tuple(dims)),
    "torch.aten.view": lambda a, sizes: np.reshape(a, sizes),
    "torch.aten.expand": _expand,
    "torch.aten.mean.dim": lambda a, dims, keepdim, dtype: np.mean(a, axis=tuple(dims) if dims else None, keepdims=keepdim),
    "torch.aten.mm": np.matmul,
    "torch.aten.size.int": lambda a, dim: int(np.shape(a)[dim]),
    "torch.aten.mul.int": lambda a, b: a * b,
    "torch.aten.div.int": lambda a, b: a / b,
    "torch.aten.div.float": lambda a, b: a / b,
    "torch.aten.sub.float": lambda a, b: a - b,
}


@handler(*_OPS)
def _torch_op(interp: Interpreter, op: Operation, args: list) -> list:
    return [_OPS[op.name](*args)]


@handler("torch.aten.var_mean.correction")
def _var_mean_op(interp: Interpreter, op: Operation, args: list) -> list:
    return list(_var_mean(*args))
