"""The class of machine the emitted IR is built for (`--device`), and what
each class makes the form choice do.

A device class is an input, never a guess: the output for a class is the
same on every machine convopt runs on, except for `host`, which reads this
machine's /proc/cpuinfo once and stands for the class found there.

    cpu     any x86-64 CPU (the default): forms that are not slow on AVX2 or AVX-512
    avx2    an x86-64 CPU with AVX2 and FMA, no AVX-512 (e.g. AMD EPYC Zen 2/3)
    avx512  an x86-64 CPU with AVX-512F
    gpu     IREE's GPU backends (rocm, cuda, vulkan-spirv)
    host    this machine's CPU class (avx512, avx2 or cpu from its flags)

Each class is a `DeviceProfile`: what its target builds (`Builds`) and
the measured costs `auto` compares the forms by (`costs`, cost.py;
registry.choose gets the profile as `req.choices.device`).  The
measurements behind them are in docs/decisions.md; a class whose numbers
equal `cpu`'s emits `cpu`'s bytes.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from ..choices import Device
from .cost import FIELDS, Costs


@dataclass(frozen=True)
class Builds:
    """What IREE's pipelines for a device class build: facts about its
    compiler, measured (docs/decisions.md, by field name), never choices.
    tiles.decide turns them, once per kernel, into the Emission its
    emitters follow.

    matmul_forms: the matmul forms (im2col, col2im);
    channels_last: the channels-last named convolutions of depthwise
        kernels (channels_last.py); channels_last_dense: of dense ones;
    tap_updates: in-place per-tap updates of a shared accumulator (without:
        a scatter is cut by output phases, each writing its own slice);
    strided_inserts: a strided tensor.insert_slice in place (without: a
        slow_memcpy dispatch each, so phases are interleaved by one op);
    dynamic_pieces: one op per tap of a dynamic spatial dim (without: one
        op over the zero-padded operand);
    strided_filter: a strided or offset window of the filter (without: the
        taps of each phase copied dense, kernel/taps.py);
    image_second: a weight kernel's linalg.generic with the image B as its
        second operand (without: B first, as linalg's convolutions order
        them);
    channels_first_weight: a weight kernel accumulating [g, ca, cb, k...]
        (without: [k..., g, ca, cb], transposed back);
    quick_tap_products: a single-tap phase of a strided scatter with A as
        its first operand, in the build time of one with the weight first
        (without: the weight first);
    own_pads: a pad of an operand the forward convolution pads otherwise,
        at no dispatch of its own (without: the image padded as the forward
        pads it, P at both ends);
    dynamic_all_reduce: one reduction of every dim but the channels at a
        dynamic size (without: grad_bias in two steps);
    max_pool_scatter: its own scatter of aten.max_pool2d_with_indices_backward
        (without: convopt-torch-to-linalg lowers it as a gather)."""

    matmul_forms: bool = True
    channels_last: bool = True
    channels_last_dense: bool = True
    tap_updates: bool = True
    strided_inserts: bool = True
    dynamic_pieces: bool = True
    strided_filter: bool = True
    image_second: bool = True
    channels_first_weight: bool = True
    quick_tap_products: bool = True
    own_pads: bool = True
    dynamic_all_reduce: bool = True
    max_pool_scatter: bool = True


GPU_BUILDS = Builds(
    matmul_forms=False, channels_last=False, channels_last_dense=False, tap_updates=False, strided_inserts=False, dynamic_pieces=False,
    strided_filter=False, image_second=False, channels_first_weight=False, quick_tap_products=False, own_pads=False,
    dynamic_all_reduce=False, max_pool_scatter=False,
)
"""IREE's rocm, cuda and vulkan-spirv pipelines (docs/decisions.md, GPU
builds): linalg.generic only, padded, the scatter by output phases."""


@dataclass(frozen=True)
class DeviceProfile:
    """What the form choice reads of a device class: what it builds
    (`builds`) and the measured cost of each unit of work (`costs`,
    cost.py: registry.choose picks the variant of least costs.total among
    the forms it builds).

    packed_tiles: the linalg.mmt4d tiles (packed.py) of the packed variant
        of the matmul forms, offered to `auto` only by a profile that
        measured its cost (`costs.packed`) on the CPU it was calibrated on
        (calibrated.py, `--cost-profile`); () in the class profiles, whose
        output is CPU-neutral (`--matmul-tiles` forces tiles instead)."""

    device: Device
    builds: Builds = Builds()
    costs: Costs = Costs()
    packed_tiles: tuple = ()


AVX512_COSTS = Costs(
    generic=0.08067, generic_weight=0.3426, generic_depthwise=0.4125, matmul=0.01764, matmul_result=0.0, matmul_op=4413.0, named=0.007846, named_depthwise=0.02391, named_weight=0.06061, copy_byte=0.1008, dispatch=138.2, named_strided=0.007846,
    build=1200.0, peel_build=4000.0,
)
AVX2_COSTS = Costs(
    generic=0.08366, generic_weight=0.3083, generic_depthwise=0.3912, matmul=0.02394, matmul_result=0.0, matmul_op=4370.0, named=0.06951, named_depthwise=0.01943, named_weight=0.1519, copy_byte=0.09282, dispatch=116.5, named_strided=0.06951,
    build=1200.0, peel_build=4000.0,
)
"""The costs of the two x86 classes (ns per multiply-add, result element,
byte, matmul and dispatch; cost.py), fitted by bench/costfit.py on every
kernel of bench/results/forms*.avx512.json and forms*.avx2.json
(docs/decisions.md, class_costs); build and peel_build: IREE's build CPU
time per dispatch amortized over 10^5 and 3*10^4 runs (build, peel_build)."""

CPU_COSTS = Costs(**{f: math.sqrt(getattr(AVX512_COSTS, f) * getattr(AVX2_COSTS, f)) for f in (*FIELDS, "build", "peel_build")})
"""`cpu`, any x86-64 CPU: the geometric mean of the two classes' costs,
each unit weighted alike on both."""

GPU_COSTS = Costs(generic=1.0, generic_weight=1.0, generic_depthwise=1.0, peel_waste=1.0)
"""`gpu`: not measured; only linalg.generic builds there, whose variants
(pieces, compact) emit the same IR there (padded, by phases: peel_waste 1)."""

PROFILES: dict[Device, DeviceProfile] = {
    Device.CPU: DeviceProfile(Device.CPU, costs=CPU_COSTS),
    Device.AVX2: DeviceProfile(Device.AVX2, costs=AVX2_COSTS),
    Device.AVX512: DeviceProfile(Device.AVX512, costs=AVX512_COSTS),
    Device.GPU: DeviceProfile(Device.GPU, builds=GPU_BUILDS, costs=GPU_COSTS),
}

def cpu_flags(cpuinfo: str) -> frozenset[str]:
    """The CPU flags of a /proc/cpuinfo text (its first `flags` line)."""
    for line in cpuinfo.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() == "flags":
            return frozenset(value.split())
    return frozenset()


@functools.cache
def read_host_flags(path: str = "/proc/cpuinfo") -> frozenset[str]:
    """cpu_flags of this machine, read once; none where there is no cpuinfo."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return cpu_flags(f.read())
    except OSError:
        return frozenset()


def host_device(cpuinfo: str) -> Device:
    """The CPU class of a /proc/cpuinfo text (its first `flags` line):
    avx512 with avx512f, avx2 with avx2 and fma, else cpu."""
    return flags_device(cpu_flags(cpuinfo))


def flags_device(flags: frozenset[str]) -> Device:
    """The CPU class of a set of CPU flags."""
    if "avx512f" in flags:
        return Device.AVX512
    if {"avx2", "fma"} <= flags:
        return Device.AVX2
    return Device.CPU


def read_host_device(path: str = "/proc/cpuinfo") -> Device:
    """host_device of this machine; cpu where there is no cpuinfo."""
    return flags_device(read_host_flags(path))


def profile(device: Device) -> DeviceProfile:
    """The profile of a device class (host resolved to this machine's)."""
    return PROFILES[read_host_device() if device == Device.HOST else device]
