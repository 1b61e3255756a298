"""The passes that emit kernels: their options (pass_options.KernelOptions:
peel, conv-form, matmul-tiles, device, cost-profile, opt-level) resolved to
the kernel choices they emit with."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Optional

from ...ir.core import Operation
from ...ir.types import ranked
from ...pass_options import KernelOptions
from ...passes import Pass, PassContext
from ...rewrite import RewritePattern
from ..choices import Device, MatmulTiles, OptLevel
from ..kernel import calibrated
from ..kernel.device import DeviceProfile, profile, read_host_flags
from ..kernel.packed import AVX512_TILES, TileTable, miscompiled_tiles, read_host_tiles
from ..kernel.request import DEFAULT_CHOICES, KernelChoices

ERASE_DEAD = False
"""Whether the kernel passes erase the pure ops their rewrites leave unused
(rewrite.apply_patterns).  Off: they leave them to convopt-cleanup, as they
always did, so that the IR after each pass (`--print-ir-after-all`, pipelines
without cleanup) is unchanged; the default pipelines print the same either way."""

def tile_table(choice: MatmulTiles) -> TileTable:
    """The concrete tiles of a --matmul-tiles choice (host: read once)."""
    if choice == MatmulTiles.AVX512:
        return AVX512_TILES
    if choice == MatmulTiles.HOST:
        return read_host_tiles()
    return ()


def tile_hazards(choices: KernelChoices) -> TileTable:
    """The tiles of choices that IREE 3.13 is known to miscompile for its
    device: for the avx2 class (and gpu, which has no use for CPU tiles) a
    ValueError; for the generic cpu class, those wrong on this machine's CPU
    (warned at each op: warning_miscompiled_tiles)."""
    device = choices.device.device
    if not choices.tiles:
        return ()
    if device == Device.GPU:
        raise ValueError("matmul-tiles are CPU tiles (linalg.mmt4d for IREE's CPU microkernels): use matmul-tiles=none with device=gpu")
    if device == Device.AVX512:
        return ()
    flags = frozenset({"avx2", "fma"}) if device == Device.AVX2 else read_host_flags()
    wrong = miscompiled_tiles(choices.tiles, flags)
    if wrong and device == Device.AVX2:
        raise ValueError(
            "matmul-tiles: IREE 3.13 computes wrong results for mmt4d tiles of 16 columns on a CPU without AVX-512 "
            "(device=avx2); use matmul-tiles=none (test/fuzz/crashes/README.md)")
    return wrong


BUILD_WEIGHTS = {OptLevel.O0: 100.0, OptLevel.O1: 100.0, OptLevel.O2: 1.0, OptLevel.O3: 0.01}
"""Per `--opt-level` (choices.OptLevel), how much a dispatch's build
time weighs against run time in the form choice (cost.Costs.build and
peel_build, times this).  O2, the default, amortizes a dispatch's 0.12 s
of build over 10^5 runs (30,000 between a form's variants); O0 and O1
over 100x fewer (fewer, larger ops: faster builds for short runs); O3
over 100x more (run time alone)."""


def device_profile(device: Device, cost_profile: str = "", opt_level: OptLevel = OptLevel.O2) -> DeviceProfile:
    """The profile kernels are chosen by: the cost profile file's
    (calibrated.apply) where one is given, `host`'s cached calibration
    where there is one, else the device class's; its build costs weighed
    by opt_level (BUILD_WEIGHTS)."""
    if cost_profile:
        chosen = calibrated.apply(calibrated.load(cost_profile), device)
    else:
        chosen = calibrated.host_profile() if device == Device.HOST else profile(device)
    weight = BUILD_WEIGHTS[opt_level]
    if weight == 1.0:
        return chosen
    costs = chosen.costs
    return dataclasses.replace(chosen, costs=dataclasses.replace(costs, build=costs.build * weight, peel_build=costs.peel_build * weight))


@dataclass(frozen=True)
class KernelPass(Pass, KernelOptions):
    """A pass that emits kernels, with their options (pass_options.KernelOptions);
    matmul-tiles is resolved to its tile table and device to its profile
    here, once per pass (`choices`)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        choices = KernelChoices(self.peel, self.conv_form, tile_table(self.matmul_tiles),
                                device_profile(self.device, self.cost_profile, self.opt_level))
        object.__setattr__(self, "_choices", choices)
        object.__setattr__(self, "_hazards", tile_hazards(choices))

    def packed_ops(self, op: Operation) -> list[Operation]:
        """The linalg.mmt4d ops under op in program order, where tiles may be
        miscompiled (else none: nothing to warn about)."""
        return [o for o in op.walk() if o.name == "linalg.mmt4d"] if self._hazards else []  # type: ignore[attr-defined]

    @contextlib.contextmanager
    def warning_miscompiled_tiles(self, op: Operation, ctx: PassContext) -> Iterator[None]:
        """Around the pass's rewrite of op: a located warning at each
        linalg.mmt4d the rewrite creates whose tiles IREE 3.13 compiles to
        wrong results for this machine's CPU (the device class `cpu` says
        nothing of the target CPU: the machine convopt runs on is the
        evidence; packed.MAX_N0_WITHOUT_AVX512)."""
        before = set(self.packed_ops(op))
        yield
        hazards: TileTable = self._hazards  # type: ignore[attr-defined]
        # in program order: a set's order follows the ops' addresses, which
        # made the order of the warnings change from run to run
        for mm in (o for o in self.packed_ops(op) if o not in before):
            n0 = ranked(mm.operands[1].type).shape[2]
            for t in hazards:
                if t.element == str(ranked(mm.operands[0].type).element_type) and t.n0 == n0:
                    ctx.diagnostics.warning(
                        f"--matmul-tiles={self.matmul_tiles}: IREE 3.13 computes wrong results for {t.element} mmt4d tiles of {t.n0} columns "
                        "when it compiles for a CPU without AVX-512, and this machine has no avx512f; compile for an AVX-512 CPU "
                        "(--device=avx512 says so) or use --matmul-tiles=none (test/fuzz/crashes/README.md)", mm)

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
