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

Each class is a `DeviceProfile`: what the forms of ../forms/ can build
for it and the measured costs `auto` compares them by (`costs`,
cost.py; registry.choose gets the profile as `req.choices.device`).  The numbers are
measurements (bench/README.md); a class whose numbers equal `cpu`'s emits
`cpu`'s bytes.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from ..choices import Device
from .cost import FIELDS, Costs


@dataclass(frozen=True)
class DeviceProfile:
    """What the form choice reads of a device class.

    costs: the measured cost of each unit of work (cost.py): registry.choose
        picks the variant of least costs.total among the forms the profile
        builds;
    matmul_forms: whether the profile builds the matmul forms (im2col,
        col2im): without, auto never considers them;
    peel_waste: a static dim is peeled when zero padding would waste more
        than this fraction of its multiply-adds (the `pieces` variant of
        generic and im2col; their other variants, compact and padded,
        compete with it by cost);
    channels_last: whether the profile builds the channels-last named
        convolutions (channels_last.py) of depthwise kernels;
    channels_last_dense: the same for dense stride-1 scatters
        (`conv_2d_nhwc_hwcf` over the flipped weight);
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
    weight_spatial_first: whether a weight kernel's linalg.generic writes
        its accumulator with the kernel's spatial dims first, [k..., g, ca,
        cb], transposed back to [g, ca, cb, k...] by one linalg.transpose
        that IREE fuses into the same dispatch: IREE's rocm configuration
        of the channels-first op pads a 3-wide kernel dim to 16 and, in
        bf16 and f16 on 8x8 channels, asks 139264 bytes of shared memory
        (limit 65536; test/gpu/repro/rocm_lowp_wgrad_smem.mlir); with the
        kernel dims first it takes MFMA_F32_16x16x16_BF16 and builds.  Both
        layouts built on the other shapes tried (rocm and cuda, f32, bf16,
        f16), with the same mma kind and dispatches (bench/README.md, GPU
        builds);
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
        the weight as dense blocks, one copy op per phase combination
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
        operation to mask");
    packed_tiles: the linalg.mmt4d tiles (packed.py) of the packed variant
        of the matmul forms, which IREE compiles to its CPU microkernels:
        offered to `auto` only by a profile that measured its cost
        (`costs.packed`) and its results on the CPU it was calibrated on
        (calibrated.py, `--cost-profile`); () in the class profiles, whose
        output is CPU-neutral (`--matmul-tiles` forces tiles instead)."""

    device: Device
    matmul_forms: bool = True
    peel_waste: float = 0.05
    channels_last: bool = True
    scatter_phases: bool = False
    interleave_phases: bool = False
    image_first: bool = False
    tap_weight_first: bool = False
    weight_spatial_first: bool = False
    dynamic_taps: bool = True
    dense_taps: bool = False
    bias_two_step: bool = False
    gather_max_pool: bool = False
    symmetric_pad: bool = False
    channels_last_dense: bool = True
    costs: Costs = Costs()
    packed_tiles: tuple = ()


AVX512_COSTS = Costs(
    generic=0.08082, generic_weight=0.3431, generic_depthwise=0.4073, matmul=0.01691, matmul_result=0.0, matmul_op=3633.0, named=0.007548, named_depthwise=0.01678, named_weight=0.05139, copy_byte=0.1203, dispatch=130.5, named_strided=0.007548,
    build=1200.0, peel_build=4000.0,
)
AVX2_COSTS = Costs(
    generic=0.08365, generic_weight=0.3084, generic_depthwise=0.3832, matmul=0.02344, matmul_result=0.0, matmul_op=3641.0, named=0.06871, named_depthwise=0.01371, named_weight=0.1352, copy_byte=0.1085, dispatch=126.4, named_strided=0.06871,
    build=1200.0, peel_build=4000.0,
)
"""The costs of the two x86 classes (ns per multiply-add, result element,
byte, matmul and dispatch; cost.py), fitted by bench/costfit.py on every
kernel of bench/results/forms.avx512.json, forms.avx2.json,
forms-peel.avx512.json and forms-peel.avx2.json (bench/forms.py: each
kernel of bench/layers.json and of the convolutions of the test/models
models alone, f32, every form and peel policy, IREE targeting this AVX-512
host and znver2, best of 15 on a busy machine; 338 distinct timed
candidates of 146 kernels per class): non-negative least squares on the
relative error, with a constant per kernel run (the module call, ~16 us,
the same for every form: left out here), |predicted / measured - 1|
median 0.25 (AVX-512), 0.23 (AVX2).  Validated by leaving each model
family out (bench/README.md, "Cost model"; results/costfit.txt): the pick
within 10% of the best measured form for 136 of 146 held-out kernels per
class.  What they say: a matmul multiply-add is 4.8x (AVX-512) and 3.6x
(AVX2) cheaper than a channels-first linalg.generic one (20x and 13x for a
weight kernel), but each matmul costs 3.6 us (its result elements then
nothing more); the channels-last dense convolution is 2.2x cheaper per
multiply-add than the matmul on AVX-512 and 2.9x dearer on AVX2 (the
former channels_last_dense = False of avx2); a copied byte 0.11-0.12 ns; a
dispatch 0.13 us.  named_strided is named's (not told apart by that fit;
convopt-calibrate fits it on the host).  build: IREE's build CPU time per dispatch, 0.12 s
(median over the models of bench/README.md's final runs: (convopt's build -
the raw import's) / (convopt's dispatches - the raw import's),
0.08-0.15 s), amortized over 10^5 runs between forms (a policy,
bench/costfit.py BUILD_RUNS) and over 3*10^4 runs between the variants of
one form (peel_build, bench/costfit.py PEEL_BUILD_RUNS: measured, see
cost.Costs)."""

CPU_COSTS = Costs(**{f: math.sqrt(getattr(AVX512_COSTS, f) * getattr(AVX2_COSTS, f)) for f in (*FIELDS, "build", "peel_build")})
"""`cpu`, any x86-64 CPU: the geometric mean of the two classes' costs,
each unit weighted alike on both (where the classes disagree, e.g. the
dense channels-last scatter, the form whose time ratio is larger on one
class wins: conv_2d_nhwc_hwcf 9.4x faster than col2im on AVX-512 for
resnet-3x3-s1, 2.96x slower on AVX2)."""

GPU_COSTS = Costs(generic=1.0, generic_weight=1.0, generic_depthwise=1.0)
"""`gpu`: not measured; only linalg.generic builds there, whose variants
(pieces, compact) emit the same IR on this profile (padded, by phases)."""

PROFILES: dict[Device, DeviceProfile] = {
    Device.CPU: DeviceProfile(Device.CPU, costs=CPU_COSTS),
    Device.AVX2: DeviceProfile(Device.AVX2, costs=AVX2_COSTS),
    Device.AVX512: DeviceProfile(Device.AVX512, costs=AVX512_COSTS),
    # GPU: the forms IREE's rocm, cuda and vulkan-spirv pipelines build
    # (bench/README.md, GPU builds): linalg.generic (no im2col copies, no
    # channels-last transposes), one op per gather or weight kernel (padded:
    # peeling built too, at 2.6x the build time on convnext), the scatter by
    # output phases.
    Device.GPU: DeviceProfile(
        Device.GPU, matmul_forms=False, peel_waste=1.0, channels_last=False, channels_last_dense=False,
        scatter_phases=True, interleave_phases=True, image_first=True, dynamic_taps=False, dense_taps=True, bias_two_step=True,
        symmetric_pad=True, tap_weight_first=True, weight_spatial_first=True, gather_max_pool=True, costs=GPU_COSTS,
    ),
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
