"""The options of the passes that emit kernels (peel, conv-form, matmul-tiles)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..passes import Pass
from ..rewrite import RewritePattern
from .packed import AVX512_TILES, TileTable, read_host_tiles
from .request import Form, MatmulTiles, Peel

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
    is resolved to its tile table here, once per pass (`tiles`)."""

    peel: str = field(default="auto", metadata={"doc": f"split borders off instead of zero padding: {'|'.join(PEELS)}"})
    conv_form: str = field(default="auto", metadata={"doc": f"shape of the emitted convolutions: {'|'.join(FORMS)}"})
    matmul_tiles: str = field(default="none", metadata={"doc": (
        f"large static bf16/f32 matmuls as linalg.pack+mmt4d+unpack with CPU-specific tiles: {'|'.join(MATMUL_TILES)} "
        "(none: plain linalg.matmul; avx512: 16x16x2 bf16, 16x16x1 f32; host: those /proc/cpuinfo's avx512_bf16/avx512f enable)"
    )})

    def __post_init__(self) -> None:
        if self.peel not in PEELS:
            raise ValueError(f"peel must be one of {', '.join(PEELS)}, not '{self.peel}'")
        if self.conv_form not in FORMS:
            raise ValueError(f"conv-form must be one of {', '.join(FORMS)}, not '{self.conv_form}'")
        if self.matmul_tiles not in MATMUL_TILES:
            raise ValueError(f"matmul-tiles must be one of {', '.join(MATMUL_TILES)}, not '{self.matmul_tiles}'")
        object.__setattr__(self, "_tiles", tile_table(MatmulTiles(self.matmul_tiles)))

    @property
    def peel_policy(self) -> Peel:
        return Peel(self.peel)

    @property
    def form(self) -> Form:
        return Form(self.conv_form)

    @property
    def tiles(self) -> TileTable:
        """The matmul-tiles table, resolved at construction."""
        return self._tiles  # type: ignore[attr-defined, no-any-return]


@dataclass(frozen=True)
class KernelPattern(RewritePattern):
    """A pattern whose rewrite emits kernels: the pass options it emits them
    with, and where it appends its --stats lines (None: no stats)."""

    peel: Peel = Peel.AUTO
    form: Form = Form.AUTO
    stats: Optional[list[str]] = None
    tiles: TileTable = ()
