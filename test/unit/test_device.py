"""The device class (`--device`, convopt/lowering/kernel/device.py): parsing the
CPU flags for `host`, the option on the passes, the CLI and the API."""

from __future__ import annotations

import pytest

import convopt
from convopt.lowering.kernel.device import PROFILES, Device, host_device, read_host_device
from convopt.lowering.patterns.options import KernelPass
from convopt.passes import PipelineError, make_pass

CPUINFO = "processor\t: 0\nflags\t\t: {flags}\n\nprocessor\t: 1\nflags\t\t: fpu avx512f\n"


@pytest.mark.parametrize(
    ("flags", "expected"),
    [("fpu sse2 avx avx2 fma avx512f avx512bw", Device.AVX512), ("fpu sse2 avx avx2 fma", Device.AVX2), ("fpu sse2 avx avx2", Device.CPU), ("fpu sse2", Device.CPU)],
)
def test_host_device_follows_the_first_flags_line(flags, expected):
    assert host_device(CPUINFO.format(flags=flags)) == expected


def test_host_device_without_cpuinfo(tmp_path):
    assert host_device("") == Device.CPU
    assert read_host_device(str(tmp_path / "no-such-cpuinfo")) == Device.CPU


def test_pass_option_resolves_the_profile():
    assert KernelPass().choices.device == PROFILES[Device.CPU]
    assert KernelPass(device="gpu").choices.device == PROFILES[Device.GPU]
    assert make_pass("convopt-conv-bwd-to-linalg", {"device": "avx2"}).choices.device.device == Device.AVX2
    with pytest.raises(PipelineError, match="device must be one of cpu, avx2, avx512, gpu, host, not .tpu."):
        make_pass("convopt-torch-to-linalg", {"device": "tpu"})


def test_api_checks_the_device():
    with pytest.raises(ValueError, match="device must be one of"):
        convopt.lower("module {\n}\n", device="tpu")
    assert convopt.lower("module {\n}\n", device="gpu") == convopt.lower("module {\n}\n")
