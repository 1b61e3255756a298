"""The options of the passes that emit kernels (peel, conv-form, matmul-tiles, device)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ...passes import Pass
from ...rewrite import RewritePattern
from ..kernel.device import DEVICES, Device, profile
from ..kernel.packed import AVX512_TILES, TileTable, read_host_tiles
from ..kernel.request import DEFAULT_CHOICES, Form, KernelChoices, MatmulTiles, Peel

ERASE_DEAD = False
"""Whether the kernel passes erase the pure ops their rewrites leave unused
(rewrite.apply_patterns).  Off: they leave them to convopt-cleanup, as they
always did, so that the IR after each pass (`--print-ir-after-all`, pipelines
without cleanup) is unchanged; the default pipelines print the same either way."""

FORMS = tuple(f.value for f in Form)
PEELS = tuple(p.value for p in Peel)
MATMUL_TILES = tuple(t.value for t in MatmulTiles)


def tile_table(choice: MatmulTiles) -> TileTable:
    """The concrete tiles of a --matmul-tiles choice (host: read once)."""
    if choice == MatmulTiles.AVX512:
        return AVX512_TILES
    if choice == MatmulTiles.HOST:
        return read_host_tiles()
    return ()


@dataclass(frozen=True)
class KernelPass(Pass):
    """A pass that emits kernels, with their options; a value no kernel
    strategy knows is a ValueError (a pipeline diagnostic).  matmul-tiles
    is resolved to its tile table and device to its profile here, once per
    pass (`choices`)."""

    peel: str = field(default="auto", metadata={"doc": f"split borders off instead of zero padding: {'|'.join(PEELS)}"})
    conv_form: str = field(default="auto", metadata={"doc": f"shape of the emitted convolutions: {'|'.join(FORMS)}"})
    matmul_tiles: str = field(default="none", metadata={"doc": (
        f"large static bf16/f32 matmuls as linalg.pack+mmt4d+unpack with CPU-specific tiles: {'|'.join(MATMUL_TILES)} "
        "(none: plain linalg.matmul; avx512: 16x16x2 bf16, 16x16x1 f32; host: those /proc/cpuinfo's avx512_bf16/avx512f enable)"
    )})
    device: str = field(default="cpu", metadata={"doc": (
        f"the class of machine the IR is built for, which decides the forms auto picks: {'|'.join(DEVICES)} "
        "(cpu: any x86-64 CPU; host: this machine's CPU class from /proc/cpuinfo)"
    )})

    def __post_init__(self) -> None:
        if self.peel not in PEELS:
            raise ValueError(f"peel must be one of {', '.join(PEELS)}, not '{self.peel}'")
        if self.conv_form not in FORMS:
            raise ValueError(f"conv-form must be one of {', '.join(FORMS)}, not '{self.conv_form}'")
        if self.matmul_tiles not in MATMUL_TILES:
            raise ValueError(f"matmul-tiles must be one of {', '.join(MATMUL_TILES)}, not '{self.matmul_tiles}'")
        if self.device not in DEVICES:
            raise ValueError(f"device must be one of {', '.join(DEVICES)}, not '{self.device}'")
        choices = KernelChoices(Peel(self.peel), Form(self.conv_form), tile_table(MatmulTiles(self.matmul_tiles)), profile(Device(self.device)))
        object.__setattr__(self, "_choices", choices)

    @property
    def choices(self) -> KernelChoices:
        """The options resolved at construction."""
        return self._choices  # type: ignore[attr-defined, no-any-return]

    @property
    def tiles(self) -> TileTable:
        """The matmul-tiles table, resolved at construction."""
        return self.choices.tiles


@dataclass(frozen=True)
class KernelPattern(RewritePattern):
    """A pattern whose rewrite emits kernels: the pass options it emits them
    with, and where it appends its --stats lines (None: no stats)."""

    choices: KernelChoices = DEFAULT_CHOICES
    stats: Optional[list[str]] = None
