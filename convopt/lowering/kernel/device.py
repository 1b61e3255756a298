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
    im2col_peel_min_macs: the im2col form (gathers and weight kernels)
        cuts a kernel of fewer multiply-adds into at most
        matmul_forms.SMALL_MAX_PIECES peeled pieces (else none): each
        piece's own im2col copy, matmul and result copy cost more than the
        padding they save;
    compact_max_macs: a depthwise kernel of 5x5 and more with fewer useful
        multiply-adds is one op over zero-padded operands, a scatter one
        gather per output phase (generic_form.compact_if_small), instead of
        peeled pieces and one op per tap: IREE builds one dispatch, not 50-100;
    channels_last: whether depthwise kernels take the channels-last named
        convolutions (channels_last.py) under `auto`;
    channels_last_dense: the same for dense stride-1 scatters
        (`conv_2d_nhwc_hwcf` over the flipped weight);
    col2im_min_channels: a scatter takes col2im only with Ca * Cb (per
        group) at least this;
    pointwise_col2im_min_macs: a 1x1 scatter takes col2im only from this
        many multiply-adds;
    scatter_phases: whether a scatter is cut by output phases (one dense
        gather per phase b mod S over the flipped weight, disjoint: each
        writes its own strided slice) instead of one op per tap adding into
        a shared accumulator.  IREE's GPU pipelines cannot distribute the
        in-place per-tap updates (bench/README.md, GPU builds);
    interleave_phases: whether the phases of such a scatter (static
        spatial sizes) keep a dense tensor each, read back into the output by
        one linalg.generic (out[S*q + phi] = P_phi[q], kernel/phases.py),
        rather than one strided tensor.insert_slice per phase: IREE makes
        each strided insert a slow_memcpy dispatch, and fuses the one
        generic into the gradient's consumer;
    image_first: whether a weight kernel's linalg.generic takes the input
        read at S*s + D*k - P (B, "the image") as its first operand, as
        linalg's convolution interface orders them: IREE's GPU pipelines
        then see a convolution; with B second they take it for a reduction
        and fail to pack its innermost reduced dim ("failed to pack
        reduction dimensions for partial reduction");
    tap_weight_first: whether a phase of a strided scatter with one tap per
        dim (a contraction over channels, no spatial reduction) takes the
        weight as its first operand: IREE's vulkan-spirv then builds it as
        a reduction (0.22 s for 2x32x10x32) instead of a vectorized matmul
        whose unrolled code takes 0.8-0.95 s to compile (CPU seconds,
        bench/README.md GPU builds);
    dynamic_taps: whether a gather or weight kernel cuts a dynamic spatial
        dim by taps (exact at any size, one op per tap into one
        accumulator) rather than padded (one op over the zero-padded
        operand, which GPU codegen can bufferize);
    dense_taps: whether the phase pieces of a scatter read their taps of
        the weight as dense blocks, all copied by one op into one flat tensor
        (kernel/taps.py), rather than strided slices of one flipped copy:
        IREE's rocm IGEMM path fails on a strided or offset filter window
        ('memref.collapse_shape' address spaces);
    symmetric_pad: whether a weight kernel whose image B needs the
        forward convolution's low padding P pads it by P at the high end
        too (zeros it does not read), as the forward does: IREE then pads
        the image once for both (one slow_memcpy dispatch fewer);
    gather_max_pool: whether convopt-torch-to-linalg (--lower-forward-convs)
        lowers aten.max_pool2d_with_indices_backward as one gathering
        linalg.generic (patterns/max_pool.py) rather than leaving it to the
        backend: IREE's own scatter fails on its GPU backends at
        --iree-opt-level=O3, the gather builds
        (test/gpu/repro/maxpool_bwd_o3.mlir);
    bias_two_step: whether grad_bias with a dynamic size sums the spatial
        dims, then the batch (two reductions of contiguous dims) rather than
        all of them at once around the channel dim: IREE's vulkan-spirv cannot vectorize the
        latter with a dynamic size ("'vector.mask' op expects only one
        operation to mask")."""

    device: Device
    matmul_forms: bool = True
    im2col_min_macs: int = 1 << 20
    peel_waste: float = 0.05
    im2col_peel_min_macs: int = 0
    compact_max_macs: int = 0
    channels_last: bool = True
    scatter_phases: bool = False
    interleave_phases: bool = False
    image_first: bool = False
    tap_weight_first: bool = False
    dynamic_taps: bool = True
    dense_taps: bool = False
    bias_two_step: bool = False
    gather_max_pool: bool = False
    symmetric_pad: bool = False
    channels_last_dense: bool = True
    col2im_min_channels: int = 4
    pointwise_col2im_min_macs: int = 0


CPU_MEASURED = {"im2col_min_macs": 1 << 14, "col2im_min_channels": 32, "pointwise_col2im_min_macs": 1 << 18, "im2col_peel_min_macs": 1 << 20, "compact_max_macs": 1 << 18}
"""The thresholds measured on both x86 classes (bench/forms.py,
bench/results/forms.avx512.json and forms.avx2.json: each kernel of
bench/layers.json and of the test/models convolutions alone, f32, every
form, IREE targeting this AVX-512 host and znver2; times in ms, best of 15
interleaved rounds on a machine 80-90% busy with others' work):

  im2col_min_macs 2^20 -> 2^14: the matmul forms were as fast or faster
      than linalg.generic on every kernel from 16K multiply-adds up, on both
      classes: audio's grad_weight at 977K 0.092 against 0.76 (8.3x, AVX2
      8.7x), at 485K 6.3x / 6.0x, at 204K 3.2x / 2.7x, its grad_input at
      117K 1.6x / 1.35x, at 37K 1.2x / 1.1x, at 16K 1.0-1.1x (call
      overhead); ConvNeXt's stem grad_weight at 98K 3.0x / 2.9x.
  pointwise_col2im_min_macs 2^18: 1x1 grad_inputs below it ran 1.2-1.5x
      slower as col2im than as generic on 4 of 9 kernels (mobilenet's
      65K-197K, resnet18's 65K downsample; AVX2 1.2-1.5x), equal on the rest;
      at 1M (resnext's conv1) col2im is 1.5x / 1.2x faster; wider scatters
      win as col2im from 16K (0.32-0.93 of generic's time).
  col2im_min_channels 4 -> 32: resnext-g32's grad_input (Ca * Cb = 16 per
      group, 6.9M multiply-adds) ran 2.4x (AVX-512) and 2.8x (AVX2) faster
      as generic taps than as col2im; its grad_weight (the weight kernel)
      stays im2col (1.85x / 8.5x faster than generic).
  im2col_peel_min_macs 2^20 (with matmul_forms.SMALL_MAX_PIECES = 3), from
      a second run (bench/forms.py --models video_block,resnet18,...,
      machine quiet but for other benchmarks; im2col peel=auto / never,
      AVX-512 host / znver2): ResNet-18's weight kernels cut into 4 or 9
      pieces ran faster unpeeled, 409K multiply-adds 1.79x / 1.34x,
      496K 1.17 / 1.12, 819K 1.66 / 1.36, 991K 1.35 / 1.29 (their padded
      MAC efficiency 0.44-0.84); video_block's cut into 3 (its depth dim
      only) ran faster peeled: 328K 1.13 / 1.05, 5.4M 1.21 / 1.23.  On the
      e2e matrix (338 cases x paths) the MAC efficiency geomean goes from
      0.949 to 0.93 (the session bound is 0.9).
  compact_max_macs 2^18 (small depthwise kernels of 5x5 and more as one
      padded op per gradient): ConvNeXt's 7x7 depthwise on 8x8 (62K
      multiply-adds) as one op per gradient instead of 49 tap ops
      (grad_input) and 98 peeled pieces (grad_weight) ran the same alone
      (0.046-0.068 ms either way, within noise); the model's step 449 -> 67
      IREE dispatches (the raw import: 56).  Its padded windows execute
      1/0.62 of the useful multiply-adds; small e2e cases may now be as
      inefficient as zero padding (the tests' per-case bound for kernels
      under these thresholds), the matrix geomean stays above 0.9."""

PROFILES: dict[Device, DeviceProfile] = {
    # not slow on either class: where the classes disagree (channels-last
    # dense scatters) the form whose worst ratio to the fastest is smaller
    Device.CPU: DeviceProfile(Device.CPU, **CPU_MEASURED),  # type: ignore[arg-type]
    # dense stride-1 grad_input as col2im: conv_2d_nhwc_hwcf compiled for
    # AVX2 ran 2.96x (resnet-3x3-s1), 1.58x (resnet50-3x3-64) and 6.1x
    # (deeplab-dilated) slower than col2im
    Device.AVX2: DeviceProfile(Device.AVX2, **CPU_MEASURED, channels_last_dense=False),  # type: ignore[arg-type]
    # conv_2d_nhwc_hwcf on AVX-512: 9.4x, 3.9x, 2.8x faster than col2im on the same three
    Device.AVX512: DeviceProfile(Device.AVX512, **CPU_MEASURED),  # type: ignore[arg-type]
    # GPU: the forms IREE's rocm, cuda and vulkan-spirv pipelines build
    # (bench/README.md, GPU builds): linalg.generic (no im2col copies, no
    # channels-last transposes), one op per gather or weight kernel (padded:
    # peeling built too, at 2.6x the build time on convnext), the scatter by
    # output phases.
    Device.GPU: DeviceProfile(
        Device.GPU, matmul_forms=False, peel_waste=1.0, channels_last=False, channels_last_dense=False,
        scatter_phases=True, interleave_phases=True, image_first=True, dynamic_taps=False, dense_taps=True, bias_two_step=True,
        symmetric_pad=True, tap_weight_first=True, gather_max_pool=True,
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
