"""What a lowering asks of the kernel emitters (`KernelRequest`), the
choices it can force (the form, `Peel`, `MatmulTiles`, the device class;
together `KernelChoices`) and what it gets back (`KernelStats`).  The forms
are not an enum: they are the registry of ../forms/registry.py, which
anyone can add to.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Optional

from ...ir.core import Value
from ...ir.types import FloatType, RankedTensorType
from ..choices import Peel
from .device import PROFILES, Device, DeviceProfile
from .emit import Ix
from .packed import TileTable
from .relation import Kind, Rel, Strategy
from .roles import A_LAYOUT, B_LAYOUT, W_LAYOUT, Layout


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


class Col2im(enum.Enum):
    """How the scatter of the matmul forms sums its taps into the output
    (forms/matmul_forms.py): WINDOW, one elementwise op per output phase
    over shifted slices of the zero-padded columns (col2im_window); TAPS,
    each tap added over exactly the positions it reaches (col2im_taps)."""

    WINDOW = "window"
    TAPS = "taps"


@dataclass(frozen=True)
class Emission:
    """How a variant's IR is shaped: decided once per kernel with its
    variant (tiles.decide, from the profile's Builds and costs) and
    followed by the emitters, which decide nothing.

    strategies: how each spatial dim is cut (relation.Strategy; () until
        decided);
    interleave_phases: a strided scatter cut by phases keeps a dense
        tensor per phase, read back by one linalg.generic (phases.py),
        rather than a strided insert per phase;
    dense_taps: its phases read their weight taps as dense copied blocks
        (taps.py) rather than strided slices of one flipped copy;
    image_first: a weight kernel's linalg.generic takes the image B first;
    weight_spatial_first: a weight tile accumulates [k..., lead...],
        transposed back;
    tap_weight_first: a single-tap phase of a strided scatter takes the
        weight first;
    symmetric_pad: a weight kernel's image B, padded low by the forward
        convolution's P, is padded by P at the high end too;
    col2im: how a scatter in the matmul forms sums its taps (Col2im;
        tiles.choose_col2im);
    scatter_matmul: a dense scatter in the channels-last form is im2col
        and one packed matmul rather than the named convolution
        (tiles.scatter_matmul);
    channels_last: the named form's variant is channels-last convolutions
        (forms/channels_last.py), not a channels-first named gather
        (forms/named.py); set by that form's variants."""

    strategies: tuple[Strategy, ...] = ()
    interleave_phases: bool = False
    dense_taps: bool = False
    image_first: bool = False
    weight_spatial_first: bool = False
    tap_weight_first: bool = False
    symmetric_pad: bool = False
    col2im: Col2im = Col2im.TAPS
    scatter_matmul: bool = False
    channels_last: bool = False


@dataclass(frozen=True)
class KernelRequest:
    """One kernel to emit: `kind` over ins (tensors in `layouts`), the sum in
    `out_layout` with spatial sizes out_spatial and element type acc_type.
    roles maps n/g/ca/cb to sizes; roles of static size 1 get no loop.
    choices: the options it is emitted with.  image_padding: per spatial
    dim the padding the forward convolution gives input 1 (the image B of
    a weight kernel: x, not for a transposed convolution), empty when it
    pads none (tiles._pad_inputs, Emission.symmetric_pad).  emission: how
    the chosen variant is emitted (tiles.decide; registry.choose decides
    it)."""

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
    emission: Emission = Emission()


def sized(kind: Kind, roles: dict[str, int], rels: Sequence[Rel], choices: KernelChoices = DEFAULT_CHOICES, dtype: str = "f32") -> KernelRequest:
    """A request of sizes alone, its inputs Values that belong to no IR (a
    dry run or the cost model reads them; tests, bench): per kind the
    operands the lowering gives it (roles.KERNELS), of element type dtype, with
    grad_output A [N, G*Ca, Ns...], image B [N, G*Cb, Nb...] and weight W
    [G*Ca, Cb, K...]; a size that is not an int is dynamic."""
    def dim(*sizes: object) -> Optional[int]:
        out = 1
        for x in sizes:
            if not isinstance(x, int):
                return None
            out *= x
        return out

    n, g, ca, cb = (roles[r] for r in ("n", "g", "ca", "cb"))
    shapes = {"A": (dim(n), dim(g, ca), *(dim(r.Ns) for r in rels)), "B": (dim(n), dim(g, cb), *(dim(r.Nb) for r in rels)),
              "W": (dim(g, ca), dim(cb), *(dim(r.K) for r in rels))}
    layouts = {"A": A_LAYOUT, "B": B_LAYOUT, "W": W_LAYOUT}
    ins, out = {Kind.WEIGHT: (("A", "B"), "W"), Kind.GATHER: (("B", "W"), "A"), Kind.SCATTER: (("A", "W"), "B")}[kind]
    element = FloatType(dtype)
    a, b = (Value(RankedTensorType(shapes[x], element)) for x in ins)
    spatial = [{"A": r.Ns, "B": r.Nb, "W": r.K}[out] for r in rels]
    return KernelRequest(kind, (a, b), (layouts[ins[0]], layouts[ins[1]]), layouts[out], rels, dict(roles), spatial, accumulator_type(element), choices)  # type: ignore[arg-type]


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
