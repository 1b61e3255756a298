"""convopt-drop-symbolic-shapes: erase the shape annotations of symbolic imports.

torch-mlir's FX importer, on a graph exported with dynamic dims, records what
it knows about each dynamic size:

    %0 = torch.symbolic_int "s33" {min_val = 1, max_val = 1024} : !torch.int
    torch.bind_symbolic_shape %arg0, [%0], affine_map<()[s0] -> (s0, 4, 8, 8)> : !torch.vtensor<[?,4,8,8],f32>

These ops compute nothing: a `bind_symbolic_shape` only annotates a tensor
and a `symbolic_int` only feeds the annotations.  torch-mlir's
`torch-backend-to-linalg-on-tensors-backend-pipeline` cannot legalize
`torch.symbolic_int`, and the annotations keep a function's torch boundary
alive after everything else is lowered.  The pass erases every
`torch.bind_symbolic_shape`, then every `torch.symbolic_int` left without
uses (one that something else still reads stays).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..dialects.func import FUNC
from ..dialects.torch import BIND_SYMBOLIC_SHAPE, SYMBOLIC_INT
from ..ir.core import Operation
from . import Pass, PassContext


def drop_symbolic_shapes(root: Operation) -> None:
    """Erase the `bind_symbolic_shape` ops under root, then the unused
    `symbolic_int` ops."""
    ops = list(root.walk())  # a snapshot: erasing while walking skips ops
    for op in ops:
        if op.name == BIND_SYMBOLIC_SHAPE:
            op.erase()
    for op in ops:
        if op.name == SYMBOLIC_INT and not any(r.uses for r in op.results):
            op.erase()


@dataclass(frozen=True)
class DropSymbolicShapes(Pass):
    NAME = "convopt-drop-symbolic-shapes"
    SUMMARY = "Erase torch.bind_symbolic_shape ops and the torch.symbolic_int ops only they used"
    ANCHOR = FUNC

    def run(self, op: Operation, ctx: PassContext) -> None:
        drop_symbolic_shapes(op)
