"""The pass pipelines behind `--lower-conv-bwd` and `--decompose-conv-bwd`,
shared by the command line and the Python API (no click, nothing heavy).

    default_pipeline(lower=True, decompose=False, target=None, legal_ops=None, torch_boundary=False, conv_form=None, matmul_tiles=None)
    == "builtin.module(func.func(convopt-drop-symbolic-shapes, convopt-decompose-conv-bwd{target=linalg lower=true}, "
       "convopt-conv-bwd-to-linalg, convopt-cleanup), convopt-finalize-boundary)"
"""

from __future__ import annotations

import re
from typing import Optional

FLAGS = {"legal-ops": "--backend-legal-ops", "target": "--target", "conv-form": "--conv-form", "matmul-tiles": "--matmul-tiles", "device": "--device", "cost-profile": "--cost-profile", "opt-level": "--opt-level"}
"""The pass options default_pipeline sets -> the command-line flags that set them."""

OPT_LEVELS = ("O0", "O1", "O2", "O3")
"""`--opt-level`'s choices, as iree-compile spells them (their build weights:
lowering/patterns/options.BUILD_WEIGHTS)."""

_OPTION = re.compile(r"(?<![\w-])(" + "|".join(FLAGS) + r")(?=[=: ])")
_PASS_PREFIX = re.compile(r"^invalid options for pass '[\w-]+': ")


def in_flag_terms(message: str) -> str:
    """A pass-option error of a default pipeline in the words of the flags
    that made it: `invalid options for pass 'convopt-decompose-conv-bwd':
    matmul-tiles=avx512 ...` -> `--matmul-tiles=avx512 ...`."""
    return _OPTION.sub(lambda m: FLAGS[m.group(1)], _PASS_PREFIX.sub("", message))


def default_pipeline(
    lower: bool, decompose: bool, target: Optional[str], legal_ops: Optional[str], torch_boundary: bool, conv_form: Optional[str], matmul_tiles: Optional[str] = None,
    device: Optional[str] = None, forward_convs: bool = False, pool: bool = False, cost_profile: Optional[str] = None,
    peel: Optional[str] = None, opt_level: Optional[str] = None,
) -> str:
    """The pipeline text of `--lower-conv-bwd` (lower) or `--decompose-conv-bwd`
    (decompose and not lower).  `legal_ops` is the comma-separated op list of
    `--backend-legal-ops` (None: the target's; "": none).  conv_form and
    matmul_tiles and device (None, "none" or "cpu": the pass default) go to both
    kernel passes.  forward_convs (`--lower-forward-convs`) adds
    convopt-torch-to-linalg with the same kernel options after them: the
    graph's own aten.convolution ops (and the sums and shape ops that pass
    lowers) go through convopt's forms instead of the backend's lowering.
    pool (`--lower-pool-bwd`) adds convopt-pool-bwd-to-linalg with the same
    kernel options after the conv-bwd lowering, or, without lower and
    decompose, runs it alone (between the symbolic-shape drop and cleanup).
    cost_profile (`--cost-profile`): a convopt-calibrate file every kernel
    pass chooses forms by (a path without spaces or braces: pipeline text
    cannot quote them).  peel (None or "auto": the pass default) and
    opt_level (`--opt-level`; None or "O2": the default) too."""
    pool_only = pool and not lower and not decompose
    opts = []
    if target is not None:
        opts.append(f"target={target}")
    if legal_ops is not None:
        opts.append(f"legal-ops={legal_ops}")
    decompose_pass = "convopt-decompose-conv-bwd" + ("{" + " ".join(opts) + "}" if opts else "")
    if decompose and not lower:
        return f"builtin.module(func.func({decompose_pass}, convopt-cleanup))"
    if target is None:
        opts.append("target=linalg")
    opts.append("lower=true")
    kernel_opts = ([f"conv-form={conv_form}"] if conv_form else []) + ([f"matmul-tiles={matmul_tiles}"] if matmul_tiles not in (None, "none") else [])
    kernel_opts += [f"device={device}"] if device not in (None, "cpu") else []
    kernel_opts += [f"cost-profile={cost_profile}"] if cost_profile else []
    kernel_opts += [f"peel={peel}"] if peel not in (None, "auto") else []
    kernel_opts += [f"opt-level={opt_level}"] if opt_level not in (None, "O2") else []
    opts += kernel_opts
    form = "{" + " ".join(kernel_opts) + "}" if kernel_opts else ""
    boundary = "convopt-finalize-boundary{torch-boundary=true}" if torch_boundary else "convopt-finalize-boundary"
    # The symbolic-shape annotations go first: nothing below reads them, and
    # left in place they keep a lowered function's torch boundary alive and
    # stop torch-mlir's linalg stage (it cannot legalize torch.symbolic_int).
    forward = f"convopt-torch-to-linalg{form}, " if forward_convs else ""
    pools = f"convopt-pool-bwd-to-linalg{form}, " if pool else ""
    if pool_only:
        return f"builtin.module(func.func(convopt-drop-symbolic-shapes, {pools}convopt-cleanup), {boundary})"
    return (
        f"builtin.module(func.func(convopt-drop-symbolic-shapes, convopt-decompose-conv-bwd{{{' '.join(opts)}}}, "
        f"convopt-conv-bwd-to-linalg{form}, {pools}{forward}convopt-cleanup), {boundary})"
    )
