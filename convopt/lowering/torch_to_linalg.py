"""convopt-torch-to-linalg: lower the torch ops the decomposition emits."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ir.core import Operation
from ..passes import Pass, PassContext


@dataclass(frozen=True)
class TorchToLinalg(Pass):
    NAME = "convopt-torch-to-linalg"
    SUMMARY = "Lower aten.convolution, aten.sum.dim_IntList and the shape ops of the decomposition to linalg"
    ANCHOR = "func.func"

    conv_form: str = field(default="auto", metadata={"doc": "shape of the emitted convolutions: auto|generic|named|im2col"})

    def run(self, op: Operation, ctx: PassContext) -> None:
        pass
