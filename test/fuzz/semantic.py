"""Semantic fuzzing of `torch.aten.convolution_backward` configurations.

    python test/fuzz/semantic.py --count 2000 --seed 1            # valid + broken, both paths
    python test/fuzz/semantic.py --count 200 --iree 4             # and 4 configs per path through IREE

Valid configurations (random ranks 1-3, sizes, strides, paddings also
larger than dilation*(kernel-1), dilations, groups and depthwise,
transposed with output_padding, output masks, bias_sizes list/none,
f16/bf16/f32/f64, dynamic batch/spatial/channel/kernel sizes, sometimes a
forced conv form) are lowered on both paths

    direct      convopt.lower(text)                       (--lower-conv-bwd)
    decomposed  convopt.lower(text, backend_legal_ops=[]) (--lower-conv-bwd --backend-legal-ops=)

and the lowered function is run by the numeric check (by default the
reference interpreter, convopt/interp; `NUMERIC_CHECK` is pluggable) and
compared with PyTorch's convolution_backward (harness.reference: float64 on
the values rounded to the dtype) at harness.TOLERANCE.  `--iree N` also
sends N configurations per path through IREE (harness.check).

Broken variants (inconsistent shapes, output_padding >= max(stride,
dilation), output_padding on a regular convolution, bias_sizes that do not
match, wrong result types, groups not dividing the channels, zero or
negative stride/dilation/groups, negative padding, wrong list lengths,
mixed dtypes, empty outputs, ...) are given to PyTorch itself (does
`torch.ops.aten.convolution_backward` raise on those tensors?) and to
convopt:

    PyTorch rejects, convopt rejects (located)    rejected    good
    PyTorch rejects, convopt lowers               wrong       bug: IR for an invalid op
    PyTorch accepts, convopt rejects              unsupported fine only for what SPEC section 4 lists
                                                              (inconsistent shapes, groups not dividing the
                                                              channels, integer types, mixed element types;
                                                              also what PyTorch accepts only under a partial
                                                              output_mask);
                                                  spec_gap    what SPEC is silent on (reported, not a
                                                              failure; none now); else over_rejected: a bug
    PyTorch accepts, convopt lowers               numerically checked against PyTorch on those tensors

A wrong declared result type has no PyTorch counterpart; it must be rejected.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import signal
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Optional

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "test" / "e2e"))
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import harness  # noqa: E402

PATHS = {"direct": {}, "decomposed": {"backend_legal_ops": []}}
TIME_BOUND = 30.0  # per configuration and path (lowering + interpretation)
LOCATED = re.compile(r"^(?P<name>.+?):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$")

# Kinds of broken variant whose rejection SPEC section 4 allows even where
# PyTorch accepts the tensors: "inconsistent shapes" (grad_output's sizes do
# not follow from the input and weight; PyTorch does not check every one of
# them, e.g. a wrong grad_output size when only grad_bias is asked for, or a
# batch mismatch), "groups that do not divide the channels".
# And mixed element types (SPEC section 4: a located error, although
# PyTorch's CPU kernels take f32 grad_output and input with an f16 or bf16
# weight, every result f32, and bf16 ones with an f32 weight).
SPEC_UNSUPPORTED = {"go_spatial", "go_channels", "go_batch", "groups_not_dividing", "int_dtype", "go_rank", "dtype_mismatch"}

# PyTorch reads only what the asked-for gradients need (grad_bias: only
# grad_output; grad_weight: not the weight's values or dtype), so it accepts
# calls whose other operands are inconsistent (wrong sizes, mixed element
# types, an empty kernel) under a partial output_mask.  A call PyTorch
# accepts only under its mask (it rejects the same call with every result
# asked for) counts as "inconsistent shapes" too: status unsupported, kind
# "<kind> (mask)".
FULL_MASK = (True, True, True)

# Rejected by convopt although PyTorch accepts the call with every result
# asked for, and SPEC section 4 does not list it: reported (status
# spec_gap), not counted as a failure, until SPEC decides.  None now: SPEC
# decided mixed element types (rejected, SPEC_UNSUPPORTED) and empty
# tensors (lowered: PyTorch's empty batch or input channels are numerically
# checked, the size-0 dims it rejects must be rejected).
SPEC_GAP: set[str] = set()


# --- a convolution_backward call --------------------------------------------------------------------

@dataclass(frozen=True)
class Call:
    """One convolution_backward call as the IR spells it: the three tensor
    shapes and dtypes, the constant arguments, the declared result types."""

    name: str
    go: tuple[int, ...]
    x: tuple[int, ...]
    w: tuple[int, ...]
    dtypes: tuple[str, str, str]  # grad_output, input, weight
    bias_sizes: Optional[tuple[int, ...]]
    stride: tuple[int, ...]
    padding: tuple[int, ...]
    dilation: tuple[int, ...]
    transposed: bool
    output_padding: tuple[int, ...]
    groups: int
    mask: tuple[bool, bool, bool]
    dyn_go: tuple[bool, ...] = ()
    dyn_x: tuple[bool, ...] = ()
    dyn_w: tuple[bool, ...] = ()
    result_types: Optional[tuple[str, str, str]] = None  # override of the declared result types
    conv_form: str = "auto"
    seed: int = 0

    @staticmethod
    def from_config(cfg: harness.Config) -> Call:
        nd = cfg.rank
        dyn_b, dyn_s, dyn_c, dyn_k = ("batch" in cfg.dynamic, "spatial" in cfg.dynamic, "channels" in cfg.dynamic, "kernel" in cfg.dynamic)
        act = (dyn_b, dyn_c) + (dyn_s,) * nd
        return Call(
            cfg.name, (cfg.batch, cfg.cout, *cfg.output_spatial()), (cfg.batch, cfg.cin, *cfg.spatial), cfg.weight_shape(), (cfg.dtype,) * 3,
            (cfg.cout,) if cfg.bias_sizes else None, cfg.stride, cfg.padding, cfg.dilation, cfg.transposed, cfg.out_padding, cfg.groups, cfg.mask,
            act, act, (dyn_c, dyn_c) + (dyn_k,) * nd, seed=cfg.seed,
        )

    def _vt(self, shape: Sequence[int], dtype: str, dyn: Sequence[bool]) -> str:
        dyn = tuple(dyn) + (False,) * (len(shape) - len(dyn))
        return "!torch.vtensor<[" + ",".join("?" if d else str(s) for s, d in zip(shape, dyn)) + f"],{dtype}>"

    def types(self) -> tuple[str, str, str, str]:
        go_t = self._vt(self.go, self.dtypes[0], self.dyn_go)
        x_t = self._vt(self.x, self.dtypes[1], self.dyn_x)
        w_t = self._vt(self.w, self.dtypes[2], self.dyn_w)
        cout = self.go[1] if len(self.go) > 1 else 1
        b_t = self._vt((cout,), self.dtypes[0], self.dyn_go[1:2])
        return go_t, x_t, w_t, b_t

    def declared_results(self) -> tuple[str, str, str]:
        if self.result_types is not None:
            return self.result_types
        go_t, x_t, w_t, b_t = self.types()
        return tuple(t if m else "!torch.none" for t, m in zip((x_t, w_t, b_t), self.mask))  # type: ignore[return-value]

    def ir(self) -> str:
        """The torch-dialect function, written as harness.torch_ir writes it
        (the same bytes for a valid configuration)."""
        go_t, x_t, w_t, _ = self.types()
        lines: list[str] = []
        ints: dict[int, str] = {}

        def const_int(v: int) -> str:
            if v not in ints:
                ints[v] = f"%int{v}".replace("-", "m")
                lines.append(f"  {ints[v]} = torch.constant.int {v}")
            return ints[v]

        def int_list(vals) -> str:
            name = f"%l{len(lines)}"
            elems = [const_int(v) for v in vals]
            lines.append(f"  {name} = torch.prim.ListConstruct {', '.join(elems)} : ({', '.join(['!torch.int'] * len(elems))}) -> !torch.list<int>")
            return name

        if self.bias_sizes is not None:
            bias = int_list(self.bias_sizes)
        else:
            bias = "%none"
            lines.append("  %none = torch.constant.none")
        stride, padding, dilation, outpad = int_list(self.stride), int_list(self.padding), int_list(self.dilation), int_list(self.output_padding)
        lines.append(f"  %transposed = torch.constant.bool {'true' if self.transposed else 'false'}")
        groups = const_int(self.groups)
        lines.append("  %t = torch.constant.bool true")
        lines.append("  %f = torch.constant.bool false")
        mask = ", ".join("%t" if m else "%f" for m in self.mask)
        lines.append(f"  %mask = torch.prim.ListConstruct {mask} : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>")
        result_types = list(self.declared_results())
        operand_types = [go_t, x_t, w_t, "!torch.list<int>" if self.bias_sizes is not None else "!torch.none"] + ["!torch.list<int>"] * 3 + [
            "!torch.bool", "!torch.list<int>", "!torch.int", "!torch.list<bool>"]
        lines.append(
            f"  %r:3 = torch.aten.convolution_backward %go, %x, %w, {bias}, {stride}, {padding}, {dilation}, %transposed, {outpad}, {groups}, %mask : "
            f"{', '.join(operand_types)} -> {', '.join(result_types)}"
        )
        returned = [(f"%r#{i}", result_types[i]) for i in range(3) if self.mask[i]]
        if returned:
            lines.append(f"  return {', '.join(v for v, _ in returned)} : {', '.join(t for _, t in returned)}")
            results = f" -> ({', '.join(t for _, t in returned)})"
        else:
            lines.append("  return")
            results = ""
        sig = f"func.func @main(%go: {go_t}, %x: {x_t}, %w: {w_t}){results} {{"
        return sig + "\n" + "\n".join(lines) + "\n}\n"

    # --- PyTorch ---

    def tensors(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The inputs, rounded to their dtypes (as float64)."""
        rng = np.random.default_rng(self.seed)
        arrays = [rng.standard_normal(s) for s in (self.go, self.x, self.w)]
        return tuple(harness.round_to(a, d) if d in harness.TORCH_DTYPES else a for a, d in zip(arrays, self.dtypes))  # type: ignore[return-value]

    def torch_verdict(self) -> Optional[str]:
        """None when PyTorch accepts this call on tensors of these shapes and
        dtypes, else its error's first line.  A call with an empty tensor
        runs in a forked child: PyTorch aborts the process on some of them
        (std::bad_optional_access for an empty batch in a 3-D f16
        convolution_backward)."""
        if 0 in self.go + self.x + self.w:
            return _isolated(self._torch_verdict)
        return self._torch_verdict()

    def _torch_verdict(self) -> Optional[str]:
        import torch

        tries = [self.dtypes]
        if len(set(self.dtypes)) == 1 and self.dtypes[0] != "f64" and self.dtypes[0] in harness.TORCH_DTYPES:
            # PyTorch's mkldnn kernels (f32, bf16) skip checks that its native
            # ones (f64) and the forward convolution make, e.g. dilation 0 in
            # a transposed convolution: what PyTorch rejects in either is invalid
            tries.append(("f64",) * 3)
        for dtypes in tries:
            try:
                ts = [torch.zeros(s, dtype=_torch_dtype(d)) for s, d in zip((self.go, self.x, self.w), dtypes)]
                torch.ops.aten.convolution_backward(*ts, *self._torch_args())
            except Exception as e:  # noqa: BLE001 - PyTorch's verdict, whatever it raises
                return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]
        return None

    def reference(self) -> list[np.ndarray]:
        """PyTorch's requested results, in float64 on the rounded inputs."""
        import torch

        go, x, w = (torch.from_numpy(np.asarray(a, dtype=np.float64)) for a in self.tensors())
        results = torch.ops.aten.convolution_backward(go, x, w, *self._torch_args())
        return [r.numpy() for r, m in zip(results, self.mask) if m]

    def _torch_args(self) -> list:
        bias = self.bias_sizes
        if bias is None and 0 in self.x and self.mask[2] and len(self.go) > 1:
            # PyTorch aborts (std::bad_optional_access) when asked for the
            # grad_bias of an empty input without bias_sizes; with them it
            # returns zeros of [grad_output channels], the declared result
            bias = (self.go[1],)
        return [list(bias) if bias is not None else None, list(self.stride), list(self.padding), list(self.dilation),
                self.transposed, list(self.output_padding), self.groups, list(self.mask)]

    def device_inputs(self) -> list[np.ndarray]:
        return [harness.to_device(a, d) for a, d in zip(self.tensors(), self.dtypes)]


def _isolated(fn: Callable[[], Optional[str]]) -> Optional[str]:
    """fn() in a forked child; a child that dies gives 'PyTorch aborted'."""
    import json

    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(r)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)  # PyTorch's "terminate called after ..." is the verdict, not output
        try:
            os.write(w, json.dumps([fn()]).encode())
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    if not data:
        return f"PyTorch aborted (wait status {status})"
    return json.loads(data)[0]


def _torch_dtype(d: str):
    import torch

    if d in harness.TORCH_DTYPES:
        return getattr(torch, harness.TORCH_DTYPES[d])
    return {"si64": torch.int64, "si32": torch.int32, "i1": torch.bool}[d]


# --- random valid configurations ------------------------------------------------------------------------

DYNAMIC_KINDS = ("batch", "spatial", "channels", "kernel")
MAX_WORK = 60_000  # multiply-adds per gradient: keeps the interpreter fast


def random_config(rng: random.Random, index: int) -> harness.Config:
    """A valid configuration over every axis of SPEC section 4."""
    while True:
        nd = rng.choice([1, 1, 2, 2, 2, 3])
        kmax = {1: 7, 2: 5, 3: 3}[nd]
        kernel = tuple(rng.choice([1, 2, 3, 3, rng.randint(1, kmax)]) for _ in range(nd))
        stride = tuple(rng.choice([1, 1, 2, 2, 3, 4]) for _ in range(nd))
        dilation = tuple(rng.choice([1, 1, 1, 2, 3]) for _ in range(nd))
        # padding up to dilation*(kernel-1)+3: also "over-padding"
        padding = tuple(rng.randint(0, dilation[i] * (kernel[i] - 1) + rng.choice([0, 1, 3])) for i in range(nd))
        smax = {1: 20, 2: 11, 3: 6}[nd]
        spatial = tuple(rng.randint(1, smax) for _ in range(nd))
        groups = rng.choice([1, 1, 1, 2, 3, 4])
        cin, cout = groups * rng.choice([1, 1, 2, 3]), groups * rng.choice([1, 2, 3])
        if rng.random() < 0.15:  # depthwise, with a channel multiplier
            groups = rng.choice([2, 3, 4])
            cin, cout = groups, groups * rng.choice([1, 1, 2])
        transposed = rng.random() < 0.35
        output_padding = tuple(rng.randint(0, max(stride[i], dilation[i]) - 1) if transposed and rng.random() < 0.6 else 0 for i in range(nd))
        mask = rng.choice([(True, True, True)] * 3 + [m for m in _masks() if any(m)])
        dtype = rng.choice(["f32", "f32", "f32", "f16", "bf16", "f64"])
        dynamic = tuple(k for k in DYNAMIC_KINDS if rng.random() < 0.25)
        cfg = harness.Config(
            name=f"sem_{index}", batch=rng.choice([1, 1, 2, 3]), cin=cin, cout=cout, spatial=spatial, kernel=kernel, stride=stride, padding=padding,
            dilation=dilation, groups=groups, transposed=transposed, output_padding=output_padding if any(output_padding) or rng.random() < 0.5 else (),
            mask=mask, dtype=dtype, dynamic=dynamic, bias_sizes=rng.random() < 0.75, seed=index,
        )
        if cfg.valid() and _work(cfg) <= MAX_WORK:
            return cfg


def _masks() -> list[tuple[bool, bool, bool]]:
    return [(a, b, c) for a in (False, True) for b in (False, True) for c in (False, True)]


def _work(cfg: harness.Config) -> int:
    out = math.prod(cfg.output_spatial())
    small = out if not cfg.transposed else math.prod(cfg.spatial)
    return cfg.batch * cfg.cin * cfg.cout // cfg.groups * small * math.prod(cfg.kernel)


# --- broken variants -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Breaking:
    """What a breaker (BREAKERS) starts from: the valid configuration, its
    call, the rng that draws how to break it, and the spatial dim i to break."""

    rng: random.Random
    cfg: harness.Config
    call: Call
    i: int

    @property
    def nd(self) -> int:
        return self.cfg.rank

    def bump(self, shape: tuple[int, ...], pos: int, delta: Optional[int] = None) -> tuple[int, ...]:
        """shape with shape[pos] moved by delta (drawn if None), kept at least 1 (else grown by 1)."""
        d = delta if delta is not None else self.rng.choice([-1, 1, 2])
        s = list(shape)
        s[pos] = max(1, s[pos] + d) if s[pos] + d >= 1 else s[pos] + 1
        return tuple(s)

    def remade(self, cfg: harness.Config) -> Call:
        """The call of another configuration, under this call's name."""
        return replace(Call.from_config(cfg), name=self.call.name)

    def asking(self, j: int) -> Call:
        """The call with result j asked for too."""
        return replace(self.call, mask=tuple(m or k == j for k, m in enumerate(self.call.mask)))


def _outpad_ge(b: Breaking) -> Call:
    """output_padding >= max(stride, dilation) on a transposed convolution; grad_output sized for it."""
    cfg = b.cfg
    output_padding = tuple(max(s, d) + b.rng.choice([0, 0, 1]) if j == b.i else 0 for j, (s, d) in enumerate(zip(cfg.stride, cfg.dilation)))
    return b.remade(replace(cfg, transposed=True, output_padding=output_padding))


def _outpad_nontransposed(b: Breaking) -> Call:
    r = replace(b.cfg, transposed=False, output_padding=())
    if not r.valid():
        r = replace(r, padding=tuple(d * (k - 1) for d, k in zip(r.dilation, r.kernel)))
    op = [0] * b.nd
    op[b.i] = b.rng.choice([1, 1, 2])
    return replace(b.remade(r), output_padding=tuple(op))


def _bias_sizes(b: Breaking) -> Call:
    cout = b.call.go[1]
    return replace(b.call, bias_sizes=b.rng.choice([(cout + 1,), (cout, 1), (), (max(1, cout - 1),), (0,)]))


def _result_type(b: Breaking) -> Call:
    """A wrong size in grad_input's or grad_weight's declared type."""
    j = b.rng.choice([0, 1])
    wrong = list(b.call.x if j == 0 else b.call.w)
    wrong[b.rng.randrange(len(wrong))] += 1
    call = b.asking(j)
    res = list(call.declared_results())
    res[j] = call._vt(wrong, call.dtypes[0], ())
    return replace(call, result_types=tuple(res))


def _result_dtype(b: Breaking) -> Call:
    j = b.rng.choice([0, 1, 2])
    call = b.asking(j)
    res = list(call.declared_results())
    other = b.rng.choice([d for d in ("f16", "bf16", "f32", "f64", "si64") if d != call.dtypes[0]])
    res[j] = res[j].rsplit(",", 1)[0] + f",{other}>"
    return replace(call, result_types=tuple(res))


def _bias_result_type(b: Breaking) -> Call:
    call = replace(b.call, mask=(b.call.mask[0], b.call.mask[1], True))
    res = list(call.declared_results())
    cout, dtype = call.go[1], call.dtypes[0]
    res[2] = b.rng.choice([f"!torch.vtensor<[{cout + 1}],{dtype}>", f"!torch.vtensor<[{cout},1],{dtype}>", f"!torch.vtensor<[],{dtype}>", call.types()[1]])
    return replace(call, result_types=tuple(res))


def _list_length(b: Breaking) -> Call:
    which = b.rng.choice(["stride", "padding", "dilation", "output_padding"])
    vals = getattr(b.call, which)
    vals = vals + (vals[0],) if b.rng.random() < 0.5 or b.nd == 1 else vals[:-1]
    if b.nd == 2 and len(vals) == 1:
        vals = vals + (vals[0], vals[0])
    return replace(b.call, **{which: vals})


def _list_length_one(b: Breaking) -> Call:
    """One value for every dim: PyTorch expands it."""
    which = b.rng.choice(["stride", "padding", "dilation"])
    r = replace(b.cfg, **{which: (getattr(b.cfg, which)[0],) * b.nd})
    r = replace(r, output_padding=tuple(min(o, max(s, d) - 1) for o, s, d in zip(r.out_padding, r.stride, r.dilation)))
    if not r.valid():
        return b.remade(b.cfg)
    return replace(b.remade(r), **{which: (getattr(r, which)[0],)})


def _dtype_mismatch(b: Breaking) -> Call:
    j = b.rng.randrange(3)
    other = b.rng.choice([d for d in ("f16", "bf16", "f32", "f64") if d != b.call.dtypes[j]])
    return replace(b.call, dtypes=tuple(other if k == j else d for k, d in enumerate(b.call.dtypes)))


def _empty_output(b: Breaking) -> Call:
    """An input too small for the kernel: the forward output would be empty."""
    call, cfg, i = b.call, b.cfg, b.i
    k = max(2, cfg.kernel[i])
    w = _set(call.w, 2 + i, k)
    if cfg.transposed:
        w = (call.go[1], call.x[1] // call.groups, *w[2:])
    return replace(call, transposed=False, output_padding=(0,) * b.nd, w=w, x=_set(call.x, 2 + i, 1), go=_set(call.go, 2 + i, 0),
                   padding=_set(call.padding, i, 0), dilation=_set(call.dilation, i, 1))


def _zero_size(b: Breaking) -> Call:
    """An empty batch, input or output channels, spatial size (static)."""
    which = b.rng.choice(["batch", "cin", "cout", "spatial", "batch_spatial"])
    call = b.call
    if which in ("spatial", "batch_spatial"):
        call = _zero_spatial(call, b.i)
    if which in ("batch", "batch_spatial"):
        return replace(call, go=_set(call.go, 0, 0), x=_set(call.x, 0, 0))
    if which == "cin":
        return replace(call, x=_set(call.x, 1, 0), w=_set(call.w, 0 if call.transposed else 1, 0))
    if which == "cout":
        return replace(call, go=_set(call.go, 1, 0), w=_set(call.w, 1 if call.transposed else 0, 0), bias_sizes=(0,) if call.bias_sizes is not None else None)
    return call


def _zero_spatial(call: Call, i: int) -> Call:
    """The input's spatial dim i empty; grad_output's size follows (0 if negative):
    transposed  -s - 2p + d(k-1) + output_padding + 1
    regular     (2p - d(k-1) - 1) // s + 1"""
    k, s, p, d = call.w[2 + i], call.stride[i], call.padding[i], call.dilation[i]
    out = -s - 2 * p + d * (k - 1) + call.output_padding[i] + 1 if call.transposed else (2 * p - d * (k - 1) - 1) // s + 1
    return replace(call, x=_set(call.x, 2 + i, 0), go=_set(call.go, 2 + i, max(out, 0)))


BREAKERS: dict[str, Callable[[Breaking], Call]] = {
    "go_spatial": lambda b: replace(b.call, go=b.bump(b.call.go, 2 + b.i)),
    "go_channels": lambda b: replace(b.call, go=b.bump(b.call.go, 1, b.rng.choice([1, 2]))),
    "go_batch": lambda b: replace(b.call, go=b.bump(b.call.go, 0, 1)),
    "go_rank": lambda b: replace(b.call, go=b.call.go + (1,) if b.rng.random() < 0.5 else b.call.go[:-1]),
    "x_channels": lambda b: replace(b.call, x=b.bump(b.call.x, 1, b.rng.choice([1, 2]))),
    "w_rank": lambda b: replace(b.call, w=b.call.w + (1,) if b.rng.random() < 0.5 else b.call.w[:-1]),
    "outpad_ge": _outpad_ge,
    "outpad_nontransposed": _outpad_nontransposed,
    "bias_sizes": _bias_sizes,
    "result_type": _result_type,
    "result_dtype": _result_dtype,
    "bias_result_type": _bias_result_type,
    "groups_not_dividing": lambda b: replace(b.call, groups=b.call.groups + b.rng.choice([1, 2])),
    "stride_nonpositive": lambda b: replace(b.call, stride=_set(b.call.stride, b.i, b.rng.choice([0, -1, -2]))),
    "dilation_nonpositive": lambda b: replace(b.call, dilation=_set(b.call.dilation, b.i, b.rng.choice([0, -1]))),
    "groups_nonpositive": lambda b: replace(b.call, groups=b.rng.choice([0, -1, -b.call.groups])),
    "padding_negative": lambda b: replace(b.call, padding=_set(b.call.padding, b.i, b.rng.choice([-1, -2]))),
    "list_length": _list_length,
    "list_length_one": _list_length_one,
    "dtype_mismatch": _dtype_mismatch,
    "empty_output": _empty_output,
    "mask_none": lambda b: replace(b.call, mask=(False, False, False)),
    "int_dtype": lambda b: replace(b.call, dtypes=("si64",) * 3),
    "kernel_zero": lambda b: replace(b.call, w=_set(b.call.w, 2 + b.i, 0)),
    "outpad_negative": lambda b: replace(b.call, output_padding=_set(b.call.output_padding, b.i, -1)),
    "zero_size": _zero_size,
}
"""Broken kind -> how to break a valid call that way."""
BROKEN_KINDS = tuple(BREAKERS)
"""What rng.choice draws from: a seed's variants follow BREAKERS' order."""


def broken_variant(rng: random.Random, index: int, kind: Optional[str] = None) -> tuple[str, Call]:
    """A variant of a random valid configuration (static shapes, so that
    convopt can see what is wrong) broken in one way (BREAKERS)."""
    cfg = random_config(rng, index)
    cfg = replace(cfg, dynamic=(), output_padding=cfg.out_padding)
    call = replace(Call.from_config(cfg), name=f"broken_{index}")
    kind = kind or rng.choice(BROKEN_KINDS)
    return kind, BREAKERS[kind](Breaking(rng, cfg, call, rng.randrange(cfg.rank)))


def _set(t: tuple[int, ...], i: int, v: int) -> tuple[int, ...]:
    s = list(t)
    s[i] = v
    return tuple(s)


def torch_verdicts(call: Call, kind: str) -> tuple[Optional[str], bool]:
    """(PyTorch's verdict on call, whether it accepts only because of the output_mask)."""
    verdict = None if kind in ("result_type", "result_dtype", "bias_result_type") else call.torch_verdict()
    masked = verdict is None and call.mask != FULL_MASK and replace(call, mask=FULL_MASK).torch_verdict() is not None
    return verdict, masked


# --- checking ---------------------------------------------------------------------------------------------

NumericCheck = Callable[[str, list[np.ndarray]], list[np.ndarray]]


def interp_check(text: str, args: list[np.ndarray]) -> list[np.ndarray]:
    """The reference interpreter: the lowered function's results on args."""
    from convopt.interp import run_text

    return run_text(text, "main", args, name="lowered.mlir")


NUMERIC_CHECK: NumericCheck = interp_check
"""The numeric check in use (a test may plug in another)."""


@dataclass
class Outcome:
    status: str  # ok, rejected, unsupported, wrong, over_rejected, traceback, unlocated, hang
    detail: str = ""
    error: float = 0.0
    elapsed: float = 0.0


class Timeout(BaseException):
    pass


def _alarm(signum, frame):  # pragma: no cover
    raise Timeout()


def _with_bound(fn, bound: float):
    import threading

    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        return fn()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, bound)
    try:
        return fn()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _located(lines: list[str]) -> Optional[str]:
    if not lines:
        return "no diagnostic"
    joined = "\n".join(lines)
    if "internal error" in joined:
        return joined[:2000]
    m = LOCATED.match(lines[0])
    if not m or m.group("name") != "conv.mlir" or int(m.group("line")) < 1 or int(m.group("col")) < 1:
        return "not a located error: " + lines[0][:300]
    return None


def lower_call(call: Call, path: str) -> str:
    import convopt

    kw: dict[str, Any] = dict(PATHS[path])
    if call.conv_form != "auto":
        kw["conv_form"] = call.conv_form
    return convopt.lower(call.ir(), name="conv.mlir", **kw)


def compare(call: Call, got: list, expected: list[np.ndarray]) -> tuple[Optional[str], float]:
    """Why got differs from expected (None: it matches), and the largest relative error."""
    if len(got) != len(expected):
        return f"{len(got)} results, expected {len(expected)}", math.inf
    dtype = call.dtypes[1]
    worst = 0.0
    for i, (g, e) in enumerate(zip(got, expected)):
        g = np.asarray(g)
        if g.shape != e.shape:
            return f"result {i} has shape {g.shape}, expected {e.shape}", math.inf
        if g.dtype != harness.to_device(np.zeros(1), dtype).dtype:
            return f"result {i} is {g.dtype}, expected {dtype}", math.inf
        scale = max(1.0, float(np.max(np.abs(e)))) if e.size else 1.0
        err = float(np.max(np.abs(g.astype(np.float64) - e))) / scale if e.size else 0.0
        if not np.isfinite(err):
            err = math.inf
        worst = max(worst, err)
        if err > harness.TOLERANCE[dtype]:
            return f"result {i}: relative error {err:.3g} > {harness.TOLERANCE[dtype]}", err
    return None, worst


def check_call(call: Call, path: str, expect_valid: Optional[bool] = None, kind: str = "valid", check: Optional[NumericCheck] = None,
               verdict: Any = "compute") -> Outcome:
    """Lower call on path and judge the outcome.  expect_valid: True for a
    valid configuration; otherwise PyTorch's verdict decides (`verdict`
    computed once per call by the caller, or here)."""
    from convopt.diagnostics import ConvoptError

    start = time.perf_counter()
    masked_accept = False
    if expect_valid is None:
        if verdict == "compute":
            verdict = torch_verdicts(call, kind)
        verdict, masked_accept = verdict
        if kind in ("result_type", "result_dtype", "bias_result_type"):
            verdict = verdict or "a declared result type that the op does not produce"
        torch_accepts = verdict is None
    else:
        torch_accepts = expect_valid
    try:
        lowered = _with_bound(lambda: lower_call(call, path), TIME_BOUND)
    except ConvoptError as e:
        why = _located(e.diagnostics)
        if why is not None:
            return Outcome("traceback" if "internal error" in why else "unlocated", why, elapsed=time.perf_counter() - start)
        if not torch_accepts:
            return Outcome("rejected", e.diagnostics[0], elapsed=time.perf_counter() - start)
        if kind in SPEC_UNSUPPORTED:
            return Outcome("unsupported", e.diagnostics[0], elapsed=time.perf_counter() - start)
        if masked_accept:
            return Outcome("unsupported", "PyTorch accepts only under this output_mask; convopt: " + e.diagnostics[0],
                           elapsed=time.perf_counter() - start)
        if kind in SPEC_GAP:
            return Outcome("spec_gap", "PyTorch accepts; convopt: " + e.diagnostics[0], elapsed=time.perf_counter() - start)
        return Outcome("over_rejected", "PyTorch accepts; convopt: " + e.diagnostics[0], elapsed=time.perf_counter() - start)
    except Timeout:
        return Outcome("hang", f"lowering took over {TIME_BOUND} s", elapsed=time.perf_counter() - start)
    except Exception:
        return Outcome("traceback", traceback.format_exc(limit=25), elapsed=time.perf_counter() - start)
    if not torch_accepts:
        return Outcome("wrong", f"PyTorch rejects ({verdict}); convopt lowered it", elapsed=time.perf_counter() - start)
    if "torch.aten.convolution_backward" in lowered:
        return Outcome("wrong", "a convolution_backward is left in the output", elapsed=time.perf_counter() - start)
    check = check or NUMERIC_CHECK
    try:
        expected = call.reference()
        got = _with_bound(lambda: check(lowered, call.device_inputs()), TIME_BOUND)
    except Timeout:
        return Outcome("hang", f"interpreting took over {TIME_BOUND} s", elapsed=time.perf_counter() - start)
    except Exception:
        return Outcome("wrong", "the numeric check raised on convopt's output:\n" + traceback.format_exc(limit=15), elapsed=time.perf_counter() - start)
    why, err = compare(call, got, expected)
    if why is not None:
        return Outcome("wrong", why, err, time.perf_counter() - start)
    return Outcome("ok", "", err, time.perf_counter() - start)


# --- campaign ---------------------------------------------------------------------------------------------

SEMANTIC_FAILURES = ("wrong", "over_rejected", "traceback", "unlocated", "hang")


@dataclass
class SemanticSummary:
    seed: int
    valid: dict = field(default_factory=lambda: {p: Counter() for p in PATHS})
    broken: dict = field(default_factory=lambda: {p: Counter() for p in PATHS})
    broken_kinds: Counter = field(default_factory=Counter)
    failures: list = field(default_factory=list)
    over_rejections: list = field(default_factory=list)
    unsupported: Counter = field(default_factory=Counter)
    gap_examples: list = field(default_factory=list)
    iree: Counter = field(default_factory=Counter)
    known: list = field(default_factory=list)  # IREE failures that are known bugs (IREE_KNOWN_BUGS)
    max_error: dict = field(default_factory=dict)
    max_time: float = 0.0
    elapsed: float = 0.0
    configs: int = 0

    @property
    def failed(self) -> int:
        return sum(c[s] for d in (self.valid, self.broken) for c in d.values() for s in SEMANTIC_FAILURES) + self.iree["failed"]

    def report(self) -> str:
        lines = [f"semantic seed {self.seed}: {self.configs} configurations in {self.elapsed:.1f} s "
                 f"({self.configs / self.elapsed if self.elapsed else 0:.1f}/s); slowest {self.max_time:.2f} s"]
        for p in PATHS:
            v, b = self.valid[p], self.broken[p]
            lines.append(f"  {p:10} valid: " + "  ".join(f"{k} {v[k]}" for k in sorted(v)) + "   broken: " + "  ".join(f"{k} {b[k]}" for k in sorted(b)))
        if self.max_error:
            lines.append("  worst relative error / tolerance: " + "  ".join(f"{d} {e:.2g}/{harness.TOLERANCE[d]}" for d, e in sorted(self.max_error.items())))
        lines.append("  broken kinds: " + ", ".join(f"{k} {n}" for k, n in sorted(self.broken_kinds.items())))
        gaps = sum(self.broken[p]["spec_gap"] for p in PATHS)
        if gaps:
            lines.append(f"  SPEC gap (PyTorch accepts, convopt rejects, SPEC section 4 silent; not counted as failures): {gaps} runs: "
                         + "; ".join(sorted(set(self.gap_examples))[:4]))
        if self.unsupported:
            lines.append("  rejected where PyTorch accepts (SPEC section 4 lists these): " + ", ".join(f"{k} {n}" for k, n in sorted(self.unsupported.items())))
        if self.iree:
            lines.append("  IREE sample: " + "  ".join(f"{k} {n}" for k, n in sorted(self.iree.items())))
        for k in self.known[:10]:
            lines.append(f"  KNOWN {k}")
        for f in self.failures[:40]:
            lines.append(f"  FAIL {f}")
        return "\n".join(lines)


def run_semantic(seed: int, count: int, broken_ratio: float = 0.3, iree: int = 0, start: int = 0, log=None, check: Optional[NumericCheck] = None) -> SemanticSummary:
    """count valid configurations (both paths each) and about
    broken_ratio*count broken variants (both paths each)."""
    import torch

    torch.set_num_threads(1)  # PyTorch's thread pool costs more than these convolutions on a loaded 2-core box
    summary = SemanticSummary(seed)
    t0 = time.perf_counter()
    last = time.monotonic()
    iree_left = {p: iree for p in PATHS}
    for n in range(start, start + count):
        rng = random.Random(f"convopt-semantic:{seed}:{n}")
        cfg = random_config(rng, n)
        call = Call.from_config(cfg)
        if rng.random() < 0.2:
            from convopt.lowering.forms import registry as forms

            call = replace(call, conv_form=rng.choice(list(forms.BUILTIN)))
        summary.configs += 1
        for p in PATHS:
            o = check_call(call, p, expect_valid=True, check=check)
            summary.valid[p][o.status] += 1
            summary.max_time = max(summary.max_time, o.elapsed)
            if o.status == "ok":
                summary.max_error[cfg.dtype] = max(summary.max_error.get(cfg.dtype, 0.0), o.error)
            else:
                summary.failures.append(f"valid {p} {_describe(cfg)} form={call.conv_form}: {o.status}: {o.detail[:1500]}")
            if o.status == "ok" and iree_left[p] > 0 and rng.random() < 0.5:
                iree_left[p] -= 1
                summary.iree[_iree(cfg, p, summary)] += 1
        if rng.random() < broken_ratio:
            kind, bcall = broken_variant(rng, n)
            summary.broken_kinds[kind] += 1
            verdict = torch_verdicts(bcall, kind)
            for p in PATHS:
                o = check_call(bcall, p, kind=kind, check=check, verdict=verdict)
                summary.broken[p][o.status] += 1
                summary.max_time = max(summary.max_time, o.elapsed)
                if o.status == "spec_gap":
                    summary.gap_examples.append(f"{kind} {bcall.dtypes} mask={bcall.mask}")
                if o.status == "unsupported":
                    summary.unsupported[kind + (" (mask)" if verdict[1] else "")] += 1
                if o.status in SEMANTIC_FAILURES:
                    summary.failures.append(f"broken[{kind}] {p} #{n} {_describe_call(bcall)}: {o.status}: {o.detail[:1500]}")
        if log is not None and time.monotonic() - last > 30:
            last = time.monotonic()
            log(f"  ... {n + 1 - start}/{count} configurations, {summary.failed} failures, {time.perf_counter() - t0:.0f} s")
    summary.elapsed = time.perf_counter() - t0
    return summary


IREE_KNOWN_BUGS = {
    # valid IR (torch-mlir-opt verifies it, the interpreter computes PyTorch's
    # numbers) that iree-compile 3.13 rejects: see test/fuzz/crashes/README.md
    "repro-iree-dynamic-batch-scatter.mlir": "write affecting operations on global resources are restricted to workgroup distributed contexts",
}


def _iree(cfg: harness.Config, path: str, summary: SemanticSummary) -> str:
    """"ok", "failed", or "known_bug" (an IREE_KNOWN_BUGS failure on a config
    with dynamic sizes: reported, not counted as a failure)."""
    args = ("--lower-conv-bwd",) if path == "direct" else ("--lower-conv-bwd", "--backend-legal-ops=")
    try:
        harness.check(cfg, args)
        return "ok"
    except Exception as e:  # noqa: BLE001
        known = [name for name, text in IREE_KNOWN_BUGS.items() if cfg.dynamic and text in str(e)]
        if known:
            summary.known.append(f"IREE {path} {_describe(cfg)}: known bug {known[0]}")
            return "known_bug"
        summary.failures.append(f"IREE {path} {_describe(cfg)}: {type(e).__name__}: {str(e)[:1500]}")
        return "failed"


def _describe(cfg: harness.Config) -> str:
    return (f"{cfg.name}: N={cfg.batch} Cin={cfg.cin} Cout={cfg.cout} spatial={cfg.spatial} k={cfg.kernel} s={cfg.stride} p={cfg.padding} "
            f"d={cfg.dilation} g={cfg.groups} tr={cfg.transposed} op={cfg.out_padding} mask={cfg.mask} {cfg.dtype} dyn={cfg.dynamic} bias={cfg.bias_sizes}")


def _describe_call(c: Call) -> str:
    return (f"go={c.go} x={c.x} w={c.w} {c.dtypes} bias={c.bias_sizes} s={c.stride} p={c.padding} d={c.dilation} tr={c.transposed} "
            f"op={c.output_padding} g={c.groups} mask={c.mask} results={c.result_types}")


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=200, help="valid configurations (each on both paths)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--broken", type=float, default=0.3, help="broken variants per valid configuration")
    ap.add_argument("--iree", type=int, default=0, help="configurations per path also checked through IREE")
    ap.add_argument("--time-limit", type=float, default=0, help="stop after this many seconds (0: none); reports what ran")
    ap.add_argument("--ir", type=int, metavar="INDEX", help="print the IR of valid configuration INDEX and exit")
    args = ap.parse_args(argv)
    if args.ir is not None:
        sys.stdout.write(Call.from_config(random_config(random.Random(f"convopt-semantic:{args.seed}:{args.ir}"), args.ir)).ir())
        return 0
    if args.time_limit:
        total = SemanticSummary(args.seed)
        t0 = time.perf_counter()
        done = 0
        while done < args.count and time.perf_counter() - t0 < args.time_limit:
            step = min(50, args.count - done)
            s = run_semantic(args.seed, step, args.broken, args.iree if done == 0 else 0, args.start + done, log=lambda m: print(m, flush=True))
            _merge(total, s)
            done += step
        total.elapsed = time.perf_counter() - t0
        summary = total
    else:
        summary = run_semantic(args.seed, args.count, args.broken, args.iree, args.start, log=lambda m: print(m, flush=True))
    print(summary.report(), flush=True)
    return 1 if summary.failed else 0


def _merge(total: SemanticSummary, s: SemanticSummary) -> None:
    for p in PATHS:
        total.valid[p].update(s.valid[p])
        total.broken[p].update(s.broken[p])
    total.broken_kinds.update(s.broken_kinds)
    total.unsupported.update(s.unsupported)
    total.iree.update(s.iree)
    total.failures += s.failures
    total.gap_examples += s.gap_examples
    for d, e in s.max_error.items():
        total.max_error[d] = max(total.max_error.get(d, 0.0), e)
    total.max_time = max(total.max_time, s.max_time)
    total.configs += s.configs


if __name__ == "__main__":
    sys.exit(main())
