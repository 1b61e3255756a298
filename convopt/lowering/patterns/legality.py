"""Which convolution_backward ops a backend takes as they are.

A target profile decides per op; `--backend-legal-ops` names the op kinds the
backend accepts at all (torch-mlir's `backend-legal-ops`).  An op is lowered
directly when its kind is legal *and* the profile accepts this instance;
otherwise it is decomposed into ordinary convolutions first.

    linalg   every convolution_backward is legal
    rocmlir  MIGraphX's rule for sending convolution_backwards to rocMLIR:
             element type f32, f16 or bf16, and either 2-D (any groups) or
             1-D/3-D with groups == 1
"""

from __future__ import annotations

from typing import Optional

from ...dialects.torch import CONVOLUTION_BACKWARD
from ..choices import TARGETS
from .conv_spec import ConvSpec

CONV_BWD_KIND = CONVOLUTION_BACKWARD.removeprefix("torch.")
"""`aten.convolution_backward`: the op kind as backend-legal-ops names it."""

DEFAULT_LEGAL_OPS = (CONV_BWD_KIND,)


def target_rejects(target: str, spec: ConvSpec) -> Optional[str]:
    """Why `target` does not take this convolution_backward (None: it does)."""
    if target == "linalg":
        return None
    if target == "rocmlir":
        if spec.dtype.name not in ("f32", "f16", "bf16"):
            return f"element type {spec.dtype} is not legal for target rocmlir"
        if spec.rank != 2 and spec.groups != 1:
            return f"{spec.rank}-D with groups={spec.groups} is not legal for target rocmlir"
        return None
    raise ValueError(f"unknown target '{target}' (known: {', '.join(TARGETS)})")


def legal_op_problem(kind: str) -> Optional[str]:
    """Why `kind` (`aten.convolution_backward`, or with its `torch.` prefix)
    names no torch op, with the nearest one; None when it names one."""
    from ...dialects import nearest, unknown_op_message

    name = kind if kind.startswith("torch.") else "torch." + kind
    if unknown_op_message(name) is None:
        return None
    near = next((n for n in (f"torch.aten.{kind}",) if unknown_op_message(n) is None), None) or nearest(name)
    suggestion = f"; did you mean '{near.removeprefix('torch.')}'?" if near else ""
    return f"'{kind}' is not a torch op{suggestion}"


def describe(spec: ConvSpec) -> str:
    kind = "transposed " if spec.transposed else ""
    return f"{spec.rank}-D {kind}{spec.dtype} groups={spec.groups}"
