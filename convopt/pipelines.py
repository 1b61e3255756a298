"""The pass pipelines behind `--lower-conv-bwd`, `--decompose-conv-bwd` and
`--lower-pool-bwd`, shared by the command line and the Python API (no click,
nothing heavy): one record of options in, the pipeline text out.

    default_pipeline(PipelineOptions(lower_conv_bwd=True))
    == "builtin.module(func.func(convopt-drop-symbolic-shapes, convopt-decompose-conv-bwd{target=linalg lower=true}, "
       "convopt-conv-bwd-to-linalg, convopt-cleanup), convopt-finalize-boundary)"
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from .lowering.choices import Target
from .pass_options import BoundaryOptions, DecomposeOptions, KernelOptions, Options, leaves, option, option_name, pipeline_options

DECOMPOSE = "convopt-decompose-conv-bwd"
CONV_BWD = "convopt-conv-bwd-to-linalg"
FORWARD = "convopt-torch-to-linalg"
POOL = "convopt-pool-bwd-to-linalg"
BOUNDARY = "convopt-finalize-boundary"
HEAD, TAIL = "convopt-drop-symbolic-shapes", "convopt-cleanup"


@dataclass(frozen=True)
class PipelineOptions(Options):
    """What a default pipeline is built from: the flags that pick its passes,
    and the options of those passes (their records)."""

    lower_conv_bwd: bool = option(
        False, "lower every convolution_backward to linalg", keyword=None,
        help="Lower every torch.aten.convolution_backward to linalg: directly where the target accepts it, else decomposed first.")
    decompose_conv_bwd: bool = option(
        False, "only decompose convolution_backward", keyword=None,
        help="Only decompose convolution_backward into aten.convolution and aten.sum (torch in, torch out).")
    lower_forward_convs: bool = option(
        False, "also lower the graph's own aten.convolution ops (and the sums and shape ops convopt-torch-to-linalg takes) through convopt's forms",
        keyword="forward_convs",
        help="With --lower-conv-bwd, also lower the graph's own aten.convolution ops (and the aten.sum and shape ops convopt-torch-to-linalg takes) "
        "through convopt's forms.")
    lower_pool_bwd: bool = option(
        False, "also lower the pooling backward ops (avg_pool1d/2d/3d_backward and the max-pool family) through the same kernels",
        keyword="pool_bwd",
        help="Lower the window ops torch-mlir and IREE do not lower for every argument: avg_pool1d/2d/3d_backward (the scatter of a depthwise "
        "convolution), max_pool3d_with_indices_backward (by its indices) and the max-pool forward ops (values and indices); alone or with --lower-conv-bwd.")
    decompose: DecomposeOptions = field(default_factory=DecomposeOptions)
    kernel: KernelOptions = field(default_factory=KernelOptions)
    boundary: BoundaryOptions = field(default_factory=BoundaryOptions)


def default_pipeline(o: PipelineOptions) -> str:
    """The pipeline text of `--lower-conv-bwd` (lower_conv_bwd) or
    `--decompose-conv-bwd` (decompose_conv_bwd and not lower_conv_bwd), each
    pass with its options that are not their defaults.  Lowering, the
    decomposition's target defaults to linalg and it lowers what it creates
    (lower=true) with the kernel options, which every kernel pass gets.
    lower_forward_convs adds convopt-torch-to-linalg after them: the graph's
    own aten.convolution ops (and the sums and shape ops that pass lowers)
    go through convopt's forms instead of the backend's lowering.
    lower_pool_bwd adds convopt-pool-bwd-to-linalg after the conv-bwd
    lowering, or, without lower and decompose, runs it alone (between the
    symbolic-shape drop and cleanup).  A cost-profile is a path without
    spaces or braces: pipeline text cannot quote them."""
    if o.decompose_conv_bwd and not o.lower_conv_bwd:
        return f"builtin.module(func.func({_text(DECOMPOSE, o.decompose)}, {TAIL}))"
    kernels = [POOL] if o.lower_pool_bwd else []
    kernels += [FORWARD] if o.lower_forward_convs else []
    # The symbolic-shape annotations go first: nothing below reads them, and
    # left in place they keep a lowered function's torch boundary alive and
    # stop torch-mlir's linalg stage (it cannot legalize torch.symbolic_int).
    passes = [HEAD]
    if o.lower_conv_bwd:
        decompose = dataclasses.replace(o.decompose, target=o.decompose.target or Target.LINALG, lower=True)
        passes += [_text(DECOMPOSE, decompose, o.kernel), _text(CONV_BWD, o.kernel)]
    passes += [_text(name, o.kernel) for name in kernels] + [TAIL]
    return f"builtin.module(func.func({', '.join(passes)}), {_text(BOUNDARY, o.boundary)})"


def _text(name: str, *records: Options) -> str:
    """A pass with the options of its records that are not their defaults."""
    options = [text for r in records for text in pipeline_options(r)]
    return name + ("{" + " ".join(options) + "}" if options else "")


FLAGS = {option_name(leaf.field.name): "--" + leaf.flag for leaf in leaves(PipelineOptions) if len(leaf.path) > 1 and leaf.flag}
"""The pass options default_pipeline sets -> the command-line flags that set them."""

_OPTION = re.compile(r"(?<![\w-])(" + "|".join(FLAGS) + r")(?=[=: ])")
_PASS_PREFIX = re.compile(r"^invalid options for pass '[\w-]+': ")


def in_flag_terms(message: str) -> str:
    """A pass-option error of a default pipeline in the words of the flags
    that made it: `invalid options for pass 'convopt-decompose-conv-bwd':
    matmul-tiles=avx512 ...` -> `--matmul-tiles=avx512 ...`."""
    return _OPTION.sub(lambda m: FLAGS[m.group(1)], _PASS_PREFIX.sub("", message))
