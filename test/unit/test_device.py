"""The device class (`--device`, convopt/lowering/kernel/device.py): parsing the
CPU flags for `host`, the option on the passes, the CLI and the API."""

from __future__ import annotations

from dataclasses import fields

import pytest

import convopt
from convopt.lowering.kernel.device import PROFILES, Builds, Device, host_device, read_host_device
from convopt.lowering.kernel.relation import Kind, Rel, Strategy
from convopt.lowering.kernel.request import Emission, KernelChoices, KernelRequest, Peel
from convopt.lowering.kernel.tiles import decide
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


def test_gpu_profile_picks_generic_forms():
    # A dense 3x3 layer big enough for im2col on the CPU classes stays
    # linalg.generic on the GPU, also with a dynamic batch (which counts as
    # large for the matmul-form threshold).
    from convopt.lowering.forms import registry
    from convopt.lowering.kernel.relation import Kind, Rel
    from convopt.lowering.kernel.request import KernelChoices, sized

    def chosen(kind: Kind, roles: dict, device: Device, form: str = "auto") -> str:
        choices = KernelChoices(form=form, device=PROFILES[device])
        req = sized(kind, roles, rels, choices)
        return registry.choose(req).form.name

    rels = [Rel(S=1, D=1, P=1, K=3, Ns=56, Nb=56)] * 2
    for n in (8, None):
        roles = {"n": n, "g": 1, "ca": 64, "cb": 64}
        for kind in (Kind.WEIGHT, Kind.SCATTER):
            assert chosen(kind, roles, Device.CPU) in ("im2col", "named")  # named: channels-last grad_input (static batch)
            assert chosen(kind, roles, Device.GPU) == "generic"
            assert chosen(kind, roles, Device.GPU, "im2col") == "im2col"  # forced stays forced


def test_gpu_output_differs_only_in_the_gpu_forms():
    import os

    text = open(os.path.join(os.path.dirname(__file__), "..", "lit", "convopt-conv-bwd-to-linalg", "device-gpu.mlir")).read()
    cpu, gpu = convopt.lower(text), convopt.lower(text, device="gpu")
    assert cpu == convopt.lower(text, device="cpu") and gpu != cpu
    # 9 taps inserted into the output on the CPU; on the GPU 4 phases interleaved by one op, no insert
    assert cpu.count("tensor.insert_slice") > gpu.count("tensor.insert_slice") == 0


def test_gpu_profile_alone_takes_the_build_time_forms():
    # What IREE's GPU pipelines cannot build is the GPU profile's only: the
    # CPU classes build everything and keep their bytes (test/snapshot.py).
    for device, prof in PROFILES.items():
        assert all(getattr(prof.builds, f.name) == (device != Device.GPU) for f in fields(Builds)), device


def test_the_emission_follows_what_the_target_builds():
    rels = [Rel(S=2, D=1, P=1, K=3, Ns=4, Nb=8)] * 2
    roles = {"n": 2, "g": 1, "ca": 4, "cb": 4}

    def decided(device: Device, kind: Kind = Kind.SCATTER, peel: Peel = Peel.AUTO) -> Emission:
        req = KernelRequest(kind, (None, None), ((), ()), (), rels, roles, [8, 8], None, KernelChoices(peel=peel, device=PROFILES[device]))  # type: ignore[arg-type]
        return decide(req).emission

    cpu, gpu = decided(Device.CPU), decided(Device.GPU)
    assert cpu.strategies == (Strategy.TAPS,) * 2 and gpu.strategies == (Strategy.PHASES,) * 2  # GPU: no in-place per-tap updates
    assert not any((cpu.interleave_phases, cpu.dense_taps, cpu.image_first, cpu.weight_spatial_first, cpu.tap_weight_first, cpu.symmetric_pad))
    assert all((gpu.interleave_phases, gpu.dense_taps, gpu.image_first, gpu.weight_spatial_first, gpu.tap_weight_first, gpu.symmetric_pad))
    # the gather's border pieces: peeled where padding wastes more than the costs' peel_waste (CPU), never on the GPU (1.0)
    assert decided(Device.CPU, Kind.GATHER).strategies == (Strategy.PEELED,) * 2
    assert decided(Device.GPU, Kind.GATHER).strategies == (Strategy.PADDED,) * 2
    assert decided(Device.CPU, Kind.GATHER, Peel.NEVER).strategies == (Strategy.PADDED,) * 2


def test_interleave_takes_static_strided_phases_only():
    from convopt.lowering.kernel.phases import interleavable
    from convopt.lowering.kernel.relation import Span

    phases = [[Span(0, 5, 2)], [Span(1, 4, 2)]]  # b = 2q and 2q + 1 of 9 positions
    assert interleavable([9], phases)
    assert not interleavable([9], [[Span(0, 9, 1)]])  # unstrided: one piece, the output itself
    assert not interleavable([object()], phases)  # type: ignore[list-item]  # a dynamic output size
    assert not interleavable([9], [[Span(2, 4, 2)]])  # offset past the stride: not one phase from q = 0
