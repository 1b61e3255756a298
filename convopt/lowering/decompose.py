"""convopt-decompose-conv-bwd: legality filtering and the decomposition of
`torch.aten.convolution_backward` into ordinary torch ops."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..ir.core import Operation
from ..passes import Pass, PassContext
from .conv_spec import CONV_BWD, read_conv_backward
from .legality import TARGETS, describe, target_rejects


def decompose(op: Operation) -> None:
    raise NotImplementedError


@dataclass(frozen=True)
class DecomposeConvBwd(Pass):
    NAME = "convopt-decompose-conv-bwd"
    SUMMARY = "Decompose torch.aten.convolution_backward that the backend does not take into aten.convolution and aten.sum.dim_IntList"
    ANCHOR = "func.func"

    legal_ops: tuple[str, ...] = field(default=(), metadata={"doc": "op names the backend takes as they are (e.g. aten.convolution_backward)"})
    target: Optional[str] = field(default=None, metadata={"doc": "capability profile deciding legality per op: linalg|rocmlir"})

    def __post_init__(self) -> None:
        if self.target is not None and self.target not in TARGETS:
            raise ValueError(f"target must be one of {', '.join(TARGETS)}, not '{self.target}'")

    def legal_kinds(self) -> tuple[str, ...]:
        if self.legal_ops:
            return self.legal_ops
        return ("aten.convolution_backward",) if self.target is not None else ()

    def run(self, op: Operation, ctx: PassContext) -> None:
        kinds = {k.removeprefix("torch.") for k in self.legal_kinds()}
        for target in [o for o in op.walk() if o.name == CONV_BWD]:
            spec = read_conv_backward(target).spec
            if "aten.convolution_backward" not in kinds:
                ctx.diagnostics.remark(f"decomposed: aten.convolution_backward is not a backend-legal op ({describe(spec)})", target)
                decompose(target)
                continue
            why = target_rejects(self.target or "linalg", spec)
            if why is not None:
                ctx.diagnostics.remark(f"decomposed: {why}", target)
                decompose(target)
            else:
                ctx.diagnostics.remark(f"lowered directly: {describe(spec)} is legal for target {self.target or 'linalg'}", target)
