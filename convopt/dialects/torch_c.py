"""torch_c: the casts between !torch.vtensor and builtin tensors."""

from __future__ import annotations

from ..ir.core import Operation, Value
from ..ir.types import Type, ValueTensorType, builtin_tensor_type
from .base import BuilderAPI, OpDef, fail
from .torch import uniform

TO_BUILTIN_TENSOR = "torch_c.to_builtin_tensor"
FROM_BUILTIN_TENSOR = "torch_c.from_builtin_tensor"


def _verify_to_builtin(op: Operation) -> None:
    src, res = op.operands[0].type, op.results[0].type
    if isinstance(src, ValueTensorType) and src.shape is not None and src.dtype is not None and builtin_tensor_type(src) != res:
        raise fail(op, f"result type '{res}' does not match operand type '{src}'")


def _verify_from_builtin(op: Operation) -> None:
    src, res = op.operands[0].type, op.results[0].type
    if isinstance(res, ValueTensorType) and res.shape is not None and res.dtype is not None and builtin_tensor_type(res) != src:
        raise fail(op, f"operand type '{src}' does not match result type '{res}'")


OPS = {
    TO_BUILTIN_TENSOR: uniform(TO_BUILTIN_TENSOR, operands=1, results=1, verify=_verify_to_builtin, pure=True),
    FROM_BUILTIN_TENSOR: uniform(FROM_BUILTIN_TENSOR, operands=1, results=1, verify=_verify_from_builtin, pure=True),
}


def default(name: str) -> OpDef:
    """Every other torch_c op, in the uniform form."""
    return uniform(name, pure=True, registered=False)


def to_builtin(b: BuilderAPI, v: Value, type: Type) -> Value:
    """The !torch.vtensor v as the builtin tensor `type`."""
    return b.create(TO_BUILTIN_TENSOR, [v], [type]).results[0]


def from_builtin(b: BuilderAPI, v: Value, type: ValueTensorType) -> Value:
    """The builtin tensor v as the !torch.vtensor `type`."""
    return b.create(FROM_BUILTIN_TENSOR, [v], [type]).results[0]
