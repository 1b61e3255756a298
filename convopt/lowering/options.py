"""The options of the passes that emit kernels (peel, conv-form)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..passes import Pass
from ..rewrite import RewritePattern
from .request import Form, Peel

ERASE_DEAD = False
"""Whether the kernel passes erase the pure ops their rewrites leave unused
(rewrite.apply_patterns).  Off: they leave them to convopt-cleanup, as they
always did, so that the IR after each pass (`--print-ir-after-all`, pipelines
without cleanup) is unchanged; the default pipelines print the same either way."""

FORMS = tuple(f.value for f in Form)
PEELS = tuple(p.value for p in Peel)


@dataclass(frozen=True)
class KernelPass(Pass):
    """A pass that emits kernels, with their two options; a value no kernel
    strategy knows is a ValueError (a pipeline diagnostic)."""

    peel: str = field(default="auto", metadata={"doc": f"split borders off instead of zero padding: {'|'.join(PEELS)}"})
    conv_form: str = field(default="auto", metadata={"doc": f"shape of the emitted convolutions: {'|'.join(FORMS)}"})

    def __post_init__(self) -> None:
        if self.peel not in PEELS:
            raise ValueError(f"peel must be one of {', '.join(PEELS)}, not '{self.peel}'")
        if self.conv_form not in FORMS:
            raise ValueError(f"conv-form must be one of {', '.join(FORMS)}, not '{self.conv_form}'")

    @property
    def peel_policy(self) -> Peel:
        return Peel(self.peel)

    @property
    def form(self) -> Form:
        return Form(self.conv_form)


@dataclass(frozen=True)
class KernelPattern(RewritePattern):
    """A pattern whose rewrite emits kernels: the pass options it emits them
    with, and where it appends its --stats lines (None: no stats)."""

    peel: Peel = Peel.AUTO
    form: Form = Form.AUTO
    stats: Optional[list[str]] = None
