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

Each class is a `DeviceProfile`: the thresholds the form choice of
kernels.py reads.  The numbers are measurements (bench/README.md); a class
whose numbers equal `cpu`'s emits `cpu`'s bytes.
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

    im2col_min_macs: below this many multiply-adds a kernel stays
        linalg.generic instead of the matmul forms: too small for them to pay
        for their copies (measured, bench/README.md);
    peel_waste: a static dim is peeled when zero padding would waste more
        than this fraction of its multiply-adds;
    channels_last: whether depthwise and dense stride-1 kernels take the
        channels-last named convolutions (channels_last.py) under `auto`."""

    device: Device
    im2col_min_macs: int = 1 << 20
    peel_waste: float = 0.05
    channels_last: bool = True


PROFILES: dict[Device, DeviceProfile] = {
    Device.CPU: DeviceProfile(Device.CPU),
    Device.AVX2: DeviceProfile(Device.AVX2),
    Device.AVX512: DeviceProfile(Device.AVX512),
    Device.GPU: DeviceProfile(Device.GPU),
}

DEVICES = tuple(d.value for d in Device)


def host_device(cpuinfo: str) -> Device:
    """The CPU class of a /proc/cpuinfo text (its first `flags` line):
    avx512 with avx512f, avx2 with avx2 and fma, else cpu."""
    flags: set[str] = set()
    for line in cpuinfo.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() == "flags":
            flags = set(value.split())
            break
    if "avx512f" in flags:
        return Device.AVX512
    if {"avx2", "fma"} <= flags:
        return Device.AVX2
    return Device.CPU


@functools.cache
def read_host_device(path: str = "/proc/cpuinfo") -> Device:
    """host_device of this machine, read once; cpu where there is no cpuinfo."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return host_device(f.read())
    except OSError:
        return Device.CPU


def profile(device: Device) -> DeviceProfile:
    """The profile of a device class (host resolved to this machine's)."""
    return PROFILES[read_host_device() if device == Device.HOST else device]
