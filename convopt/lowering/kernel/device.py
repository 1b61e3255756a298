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

Each class is a `DeviceProfile`: the thresholds the forms of ../forms/
read when `auto` chooses among them (registry.py; each form's `auto`
check gets the profile as `req.choices.device`).  The numbers are
measurements (bench/README.md); a class whose numbers equal `cpu`'s emits
`cpu`'s bytes.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from .relation import Choice


class Device(Choice):
    """The device classes of `--device` (see the module docstring)."""

    CPU = "cpu"
    AVX2 = "avx2"
    AVX512 = "avx512"
    GPU = "gpu"
    HOST = "host"


@dataclass(frozen=True)
class DeviceProfile:
    """What the form choice reads of a device class.

    matmul_forms: whether auto picks the matmul forms (im2col, col2im) at
        all; without, every kernel not channels-last is linalg.generic;
    im2col_min_macs: below this many multiply-adds a kernel stays
        linalg.generic instead of the matmul forms: too small for them to pay
        for their copies (measured, bench/README.md);
    peel_waste: a static dim is peeled when zero padding would waste more
        than this fraction of its multiply-adds;
    channels_last: whether depthwise and dense stride-1 kernels take the
        channels-last named convolutions (channels_last.py) under `auto`;
    scatter_phases: whether a scatter is cut by output phases (one dense
        gather per phase b mod S over the flipped weight, disjoint: each
        writes its own strided slice) instead of one op per tap adding into
        a shared accumulator.  IREE's GPU pipelines cannot distribute the
        in-place per-tap updates (bench/README.md, GPU builds);
    image_first: whether a weight kernel's linalg.generic takes the input
        read at S*s + D*k - P (B, "the image") as its first operand, as
        linalg's convolution interface orders them: IREE's GPU pipelines
        then see a convolution; with B second they take it for a reduction
        and fail to pack its innermost reduced dim ("failed to pack
        reduction dimensions for partial reduction");
    dynamic_taps: whether a gather or weight kernel cuts a dynamic spatial
        dim by taps (exact at any size, one op per tap into one
        accumulator) rather than padded (one op over the zero-padded
        operand, which GPU codegen can bufferize);
    flip_per_piece: whether the phase pieces of a scatter read their taps
        of the weight as a dense flipped copy each (W cut at stride T, then
        flipped) rather than a strided slice of one flipped copy: IREE's
        rocm IGEMM path fails on a strided filter slice in f16
        ('memref.collapse_shape' address spaces);
    bias_two_step: whether grad_bias with a dynamic size sums the spatial
        dims, then the batch (two reductions of contiguous dims) rather than
        all of them at once around the channel dim: IREE's vulkan-spirv cannot vectorize the
        latter with a dynamic size ("'vector.mask' op expects only one
        operation to mask")."""

    device: Device
    matmul_forms: bool = True
    im2col_min_macs: int = 1 << 20
    peel_waste: float = 0.05
    channels_last: bool = True
    scatter_phases: bool = False
    image_first: bool = False
    dynamic_taps: bool = True
    flip_per_piece: bool = False
    bias_two_step: bool = False


PROFILES: dict[Device, DeviceProfile] = {
    Device.CPU: DeviceProfile(Device.CPU),
    Device.AVX2: DeviceProfile(Device.AVX2),
    Device.AVX512: DeviceProfile(Device.AVX512),
    # GPU: the forms IREE's rocm, cuda and vulkan-spirv pipelines build
    # (bench/README.md, GPU builds): linalg.generic (no im2col copies, no
    # channels-last transposes), one op per gather or weight kernel (padded:
    # peeling built too, at 2.6x the build time on convnext), the scatter by
    # output phases.
    Device.GPU: DeviceProfile(
        Device.GPU, matmul_forms=False, peel_waste=1.0, channels_last=False,
        scatter_phases=True, image_first=True, dynamic_taps=False, flip_per_piece=True, bias_two_step=True,
    ),
}

DEVICES = tuple(d.value for d in Device)


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
