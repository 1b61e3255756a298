"""What a lowering asks of the kernel emitters (`KernelRequest`), the
choices it can force (the form, `Peel`, `MatmulTiles`, the device class;
together `KernelChoices`) and what it gets back (`KernelStats`).  The forms
are not an enum: they are the registry of ../forms/registry.py, which
anyone can add to.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...ir.core import Value
from ...ir.types import FloatType
from ..choices import Peel
from .device import PROFILES, Device, DeviceProfile
from .emit import Ix
from .packed import TileTable
from .relation import Kind, Rel
from .roles import Layout


@dataclass(frozen=True)
class KernelChoices:
    """The options a lowering emits its kernels with: the form (the name of
    a registered form, forms/registry.py, or "auto": the registry's choice
    on the device profile) and peel policy (auto: the device profile's
    choice), the packed-matmul tiles (() = none) and the profile of the
    device class."""

    peel: Peel = Peel.AUTO
    form: str = "auto"
    tiles: TileTable = ()
    device: DeviceProfile = PROFILES[Device.CPU]


DEFAULT_CHOICES = KernelChoices()

@dataclass(frozen=True)
class KernelRequest:
    """One kernel to emit: `kind` over ins (tensors in `layouts`), the sum in
    `out_layout` with spatial sizes out_spatial and element type acc_type.
    roles maps n/g/ca/cb to sizes; roles of static size 1 get no loop.
    choices: the options it is emitted with.  image_padding: per spatial
    dim the padding the forward convolution gives input 1 (the image B of
    a weight kernel: x, not for a transposed convolution), empty when it
    pads none (tiles._pad_inputs, profile symmetric_pad)."""

    kind: Kind
    ins: tuple[Value, Value]
    layouts: tuple[Layout, Layout]
    out_layout: Layout
    rels: Sequence[Rel]
    roles: dict[str, Ix]
    out_spatial: Sequence[Ix]
    acc_type: FloatType
    choices: KernelChoices = DEFAULT_CHOICES
    image_padding: Sequence[int] = ()


@dataclass
class KernelStats:
    """What one kernel emitted: its form (or named op), ops that multiply,
    and their multiply-adds (static shapes)."""

    form: str = ""
    executed: int = 0
    ops: int = 0

    def add(self, executed: int) -> None:
        """One more op that multiplies, executing `executed` multiply-adds."""
        self.ops += 1
        self.executed += executed


def accumulator_type(dtype: FloatType) -> FloatType:
    """f16 and bf16 accumulate in f32; f32 and f64 in themselves."""
    return FloatType("f32") if dtype.name in ("f16", "bf16") else dtype
