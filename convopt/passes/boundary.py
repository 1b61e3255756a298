"""convopt-finalize-boundary: builtin types at the function boundary.

Lowerings bridge torch and builtin tensors with `torch_c.to_builtin_tensor`
and `torch_c.from_builtin_tensor`, as torch-mlir's convert-torch-to-linalg
does.  When nothing of the torch dialect is left in a function, this pass
gives the function builtin argument and result types and drops the casts:

    func.func @f(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>
      %0 = torch_c.to_builtin_tensor %a ...        =>   func.func @f(%a: tensor<2xf32>) -> tensor<2xf32>
      ...                                                  ...
      %9 = torch_c.from_builtin_tensor %8 ...             return %8
      return %9

Functions that keep a torch op, that are called from elsewhere, or that run
with `torch-boundary=true` keep their torch signature and the casts.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..dialects import builtin, torch_c
from ..dialects.func import FUNC, RETURN
from ..ir.attributes import StringAttr, SymbolRefAttr, TypeAttr
from ..ir.core import Operation, changed
from ..ir.types import FunctionType, RankedTensorType, ValueTensorType, builtin_tensor_type
from ..pass_options import BoundaryOptions
from . import Pass, PassContext
from .cleanup import erase_dead

TO_BUILTIN = torch_c.TO_BUILTIN_TENSOR
FROM_BUILTIN = torch_c.FROM_BUILTIN_TENSOR


def _convertible(t: object) -> bool:
    return isinstance(t, RankedTensorType) or (isinstance(t, ValueTensorType) and t.shape is not None and t.dtype is not None)


def _builtin(t):
    return builtin_tensor_type(t) if isinstance(t, ValueTensorType) else t


def referenced_symbols(module: Operation) -> set[str]:
    """The symbols some op of the module refers to (a call's callee, ...)."""
    names = set()
    for op in module.walk():
        for value in op.attributes.values():
            if isinstance(value, SymbolRefAttr):
                names.add(value.root)
    return names


def lower_boundary(func: Operation, referenced: set[str]) -> bool:
    """Give func builtin types at its boundary if nothing torch is left and no
    other op refers to it (its callers would need new types too)."""
    if not func.regions or not func.regions[0].blocks:
        return False
    body = func.regions[0]
    for op in func.walk():
        if op is func or op.name in (TO_BUILTIN, FROM_BUILTIN, RETURN):
            continue
        if op.name.startswith(("torch.", "torch_c.")):
            return False
    fn = func.attributes["function_type"]
    assert isinstance(fn, TypeAttr) and isinstance(fn.type, FunctionType)
    name = func.attributes.get("sym_name")
    if not all(_convertible(t) for t in fn.type.inputs + fn.type.results) or (isinstance(name, StringAttr) and name.value in referenced):
        return False
    entry = body.blocks[0]
    for arg in entry.args:
        if any(user.name != TO_BUILTIN for user in arg.users()):
            return False
    returns = [b.ops[-1] for b in body.blocks if b.ops and b.ops[-1].name == RETURN]
    for ret in returns:
        for v in ret.operands:
            if isinstance(v.type, ValueTensorType) and not (v.owner is not None and v.owner.name == FROM_BUILTIN) and v not in entry.args:
                return False
    # Rewrite: arguments first, then returned values.
    for arg in entry.args:
        new_type = _builtin(arg.type)
        for user in arg.users():
            user.results[0].replace_all_uses_with(arg)
            user.erase()
        arg.type = new_type
    for ret in returns:
        for i, v in enumerate(ret.operands):
            if v.owner is not None and v.owner.name == FROM_BUILTIN:
                ret.set_operand(i, v.owner.operands[0])
    func.attributes["function_type"] = TypeAttr(FunctionType(tuple(a.type for a in entry.args), tuple(_builtin(t) for t in fn.type.results)))
    changed(func)  # its signature, so also its returns
    for block in body.blocks:
        erase_dead(block)
    return True


@dataclass(frozen=True)
class FinalizeBoundary(Pass, BoundaryOptions):
    NAME = "convopt-finalize-boundary"
    SUMMARY = "Give fully lowered functions builtin tensor types at their boundary and drop torch_c casts"
    ANCHOR = builtin.MODULE

    def run(self, op: Operation, ctx: PassContext) -> None:
        referenced = referenced_symbols(op)
        for func in [o for o in op.regions[0].blocks[0].ops if o.name == FUNC]:
            for block in func.regions[0].blocks if func.regions else []:
                erase_dead(block)
            if not self.torch_boundary:
                lower_boundary(func, referenced)
