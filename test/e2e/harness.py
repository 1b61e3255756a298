"""End-to-end numeric checks: torch-dialect IR for a convolution_backward
configuration -> convopt -> IREE (llvm-cpu) -> run -> compare with PyTorch.

Also counts the multiply-adds the emitted IR executes (iteration-domain size
of every linalg op whose body multiplies, evaluated with the concrete input
sizes) and the useful ones (pairs of in-bounds operands, counted by brute
force), for the MAC-efficiency bound.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

IREE_TARGET_CPU = os.environ.get("CONVOPT_IREE_TARGET_CPU", "host")
"""The CPU IREE compiles for (`--iree-llvmcpu-target-cpu`): this machine by
default.  `CONVOPT_IREE_TARGET_CPU=znver2` (or haswell) runs the suite as on
an AVX2-only machine: AVX2 code runs on an AVX-512 host too."""

# The CPU flags of the IREE target CPUs the suite is run for (those that
# decide convopt's choices and IREE's known bugs); "host" reads this machine's.
TARGET_CPU_FLAGS = {
    "haswell": {"avx2", "fma"},
    "znver2": {"avx2", "fma"},
    "znver3": {"avx2", "fma"},
    "x86-64-v3": {"avx2", "fma"},
    "skylake-avx512": {"avx2", "fma", "avx512f"},
    "icelake-server": {"avx2", "fma", "avx512f"},
    "znver4": {"avx2", "fma", "avx512f", "avx512_bf16"},
    "sapphirerapids": {"avx2", "fma", "avx512f", "avx512_bf16"},
}


def target_cpu_flags() -> frozenset[str]:
    """The CPU flags of IREE_TARGET_CPU (none known for an unlisted CPU)."""
    if IREE_TARGET_CPU == "host":
        from convopt.lowering.kernel.device import read_host_flags

        return read_host_flags()
    return frozenset(TARGET_CPU_FLAGS.get(IREE_TARGET_CPU, ()))


TOLERANCE = {"f32": 1e-4, "f64": 1e-9, "f16": 2e-2, "bf16": 5e-2}
TORCH_DTYPES = {"f32": "float32", "f64": "float64", "f16": "float16", "bf16": "bfloat16"}


@dataclass(frozen=True)
class Config:
    """One aten.convolution_backward call, in PyTorch's terms."""

    name: str
    batch: int
    cin: int
    cout: int
    spatial: tuple[int, ...]
    kernel: tuple[int, ...]
    stride: tuple[int, ...]
    padding: tuple[int, ...]
    dilation: tuple[int, ...]
    groups: int = 1
    transposed: bool = False
    output_padding: tuple[int, ...] = ()
    mask: tuple[bool, bool, bool] = (True, True, True)
    dtype: str = "f32"
    dynamic: tuple[str, ...] = ()  # any of "batch", "spatial", "channels" (all tensors'), "kernel" (the weight's)
    bias_sizes: bool = True  # bias_sizes as a list (else none)
    seed: int = 0

    @property
    def rank(self) -> int:
        return len(self.spatial)

    @property
    def out_padding(self) -> tuple[int, ...]:
        return self.output_padding or (0,) * self.rank

    def weight_shape(self) -> tuple[int, ...]:
        if self.transposed:
            return (self.cin, self.cout // self.groups, *self.kernel)
        return (self.cout, self.cin // self.groups, *self.kernel)

    def output_spatial(self) -> tuple[int, ...]:
        out = []
        for i in range(self.rank):
            s, p, d, k, n = self.stride[i], self.padding[i], self.dilation[i], self.kernel[i], self.spatial[i]
            if self.transposed:
                out.append((n - 1) * s - 2 * p + d * (k - 1) + self.out_padding[i] + 1)
            else:
                out.append((n + 2 * p - d * (k - 1) - 1) // s + 1)
        return tuple(out)

    @property
    def empty(self) -> bool:
        """A size-0 dim somewhere: PyTorch computes nothing (zeros / empty results)."""
        return 0 in (self.batch, self.cin, self.cout, *self.spatial, *self.kernel)

    def valid(self) -> bool:
        return all(o >= 1 for o in self.output_spatial()) and self.cin % self.groups == 0 and self.cout % self.groups == 0


def _vt(shape: tuple, dtype: str, dynamic: tuple[bool, ...]) -> str:
    dims = ",".join("?" if dyn else str(s) for s, dyn in zip(shape, dynamic))
    return f"!torch.vtensor<[{dims}],{dtype}>"


def torch_ir(cfg: Config) -> str:
    """The torch-dialect function for cfg, as the FX importer writes it."""
    nd = cfg.rank
    x_shape = (cfg.batch, cfg.cin, *cfg.spatial)
    y_shape = (cfg.batch, cfg.cout, *cfg.output_spatial())
    dyn_b = "batch" in cfg.dynamic
    dyn_s = "spatial" in cfg.dynamic
    dyn_c = "channels" in cfg.dynamic
    dyn = (dyn_b, dyn_c) + (dyn_s,) * nd
    x_t = _vt(x_shape, cfg.dtype, dyn)
    y_t = _vt(y_shape, cfg.dtype, dyn)
    w_t = _vt(cfg.weight_shape(), cfg.dtype, (dyn_c, dyn_c) + ("kernel" in cfg.dynamic,) * nd)
    b_t = _vt((cfg.cout,), cfg.dtype, (dyn_c,))
    lines = []
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

    if cfg.bias_sizes:
        bias = int_list([cfg.cout])
    else:
        bias = "%none"
        lines.append("  %none = torch.constant.none")
    stride, padding, dilation, outpad = int_list(cfg.stride), int_list(cfg.padding), int_list(cfg.dilation), int_list(cfg.out_padding)
    lines.append(f"  %transposed = torch.constant.bool {'true' if cfg.transposed else 'false'}")
    groups = const_int(cfg.groups)
    lines.append("  %t = torch.constant.bool true")
    lines.append("  %f = torch.constant.bool false")
    mask = ", ".join("%t" if m else "%f" for m in cfg.mask)
    lines.append(f"  %mask = torch.prim.ListConstruct {mask} : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>")
    result_types = [x_t if cfg.mask[0] else "!torch.none", w_t if cfg.mask[1] else "!torch.none", b_t if cfg.mask[2] else "!torch.none"]
    operand_types = [y_t, x_t, w_t, "!torch.list<int>" if cfg.bias_sizes else "!torch.none"] + ["!torch.list<int>"] * 3 + ["!torch.bool", "!torch.list<int>", "!torch.int", "!torch.list<bool>"]
    lines.append(
        f"  %r:3 = torch.aten.convolution_backward %go, %x, %w, {bias}, {stride}, {padding}, {dilation}, %transposed, {outpad}, {groups}, %mask : "
        f"{', '.join(operand_types)} -> {', '.join(result_types)}"
    )
    returned = [(f"%r#{i}", result_types[i]) for i in range(3) if cfg.mask[i]]
    lines.append(f"  return {', '.join(v for v, _ in returned)} : {', '.join(t for _, t in returned)}")
    sig = f"func.func @main(%go: {y_t}, %x: {x_t}, %w: {w_t}) -> ({', '.join(t for _, t in returned)}) {{"
    return sig + "\n" + "\n".join(lines) + "\n}\n"


# --- reference ------------------------------------------------------------------------------

def inputs(cfg: Config) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(cfg.seed)
    x = rng.standard_normal((cfg.batch, cfg.cin, *cfg.spatial))
    w = rng.standard_normal(cfg.weight_shape())
    go = rng.standard_normal((cfg.batch, cfg.cout, *cfg.output_spatial()))
    return go, x, w


def reference(cfg: Config, go: np.ndarray, x: np.ndarray, w: np.ndarray) -> list[Optional[np.ndarray]]:
    """torch.ops.aten.convolution_backward in float64 on the values the
    compiled code sees (already rounded to cfg.dtype)."""
    import torch

    t = lambda a: torch.from_numpy(np.asarray(a, dtype=np.float64))  # noqa: E731
    results = torch.ops.aten.convolution_backward(
        t(go), t(x), t(w), [cfg.cout] if cfg.bias_sizes else None, list(cfg.stride), list(cfg.padding), list(cfg.dilation),
        cfg.transposed, list(cfg.out_padding), cfg.groups, list(cfg.mask),
    )
    return [r.numpy() if r is not None else None for r in results]


def round_to(a: np.ndarray, dtype: str) -> np.ndarray:
    """Values as the device holds them in dtype (as float64)."""
    return to_device(a, dtype).astype(np.float64)


def to_device(a: np.ndarray, dtype: str) -> np.ndarray:
    if dtype == "bf16":
        import ml_dtypes

        return np.asarray(a, dtype=np.float32).astype(ml_dtypes.bfloat16)
    return np.asarray(a, dtype={"f32": np.float32, "f64": np.float64, "f16": np.float16}[dtype])


# --- convopt and IREE ------------------------------------------------------------------------

def lower(text: str, args: tuple[str, ...] = ("--lower-conv-bwd",)) -> str:
    """Run convopt in-process (same code path as the CLI) and return its output."""
    from convopt.diagnostics import DiagnosticEngine, SourceFile
    from convopt.driver import Options, process

    opts = _options(args)
    engine = DiagnosticEngine()
    out = process(SourceFile("<e2e>", text), Options(pipeline=opts), engine)
    if out is None:
        raise RuntimeError("convopt failed:\n" + "\n".join(d.render() for d in engine.diagnostics))
    return out


def _options(args: tuple[str, ...]) -> str:
    """The pipeline of convopt's flags args (a flag read as nothing would time the default under its name: an error)."""
    from convopt.cli import flags_pipeline

    return flags_pipeline(args)


COMPILE_CACHE = os.environ.get("CONVOPT_E2E_CACHE")
"""A folder shared by the processes of one test session (conftest.py sets
it up empty at the session's start): a module whose text and flags were
compiled before is not compiled again, and a text torch-mlir-opt verified
is not verified again.  The rocmlir path's IR is always the direct or the
decomposed path's (174 of 174 configurations), and a forced form often
emits what auto emits: the same text gives the same module, so the check
of its numbers stays a real one.  Unset (a script importing the harness):
no cache."""


def _cached(kind: str, key_parts: list[str], make) -> bytes:
    """make() once per session for the same key (other workers wait on a lock)."""
    if not COMPILE_CACHE:
        return make()  # type: ignore[no-any-return]
    import fcntl
    import hashlib

    key = hashlib.sha256("\0".join([kind, *key_parts]).encode()).hexdigest()[:32]
    path = os.path.join(COMPILE_CACHE, f"{key}.{kind}")
    os.makedirs(COMPILE_CACHE, exist_ok=True)
    with open(path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(path):
            with open(path, "rb") as f:
                return f.read()
        data = make()
        with open(f"{path}.{os.getpid()}.partial", "wb") as f:
            f.write(data)
        os.replace(f"{path}.{os.getpid()}.partial", path)
        return data  # type: ignore[no-any-return]


def compile_vmfb(text: str, flags: list[str]) -> bytes:
    """iree-compile for llvm-cpu (once per text and flags in a session)."""
    import iree.compiler as ireec

    return _cached("vmfb", [*flags, text], lambda: ireec.compile_str(text, target_backends=["llvm-cpu"], extra_args=flags))


def compile_and_run(text: str, args: list[np.ndarray], f64: bool = False) -> list[np.ndarray]:
    import iree.runtime as ireert

    flags = [f"--iree-llvmcpu-target-cpu={IREE_TARGET_CPU}"]
    if f64:
        flags.append("--iree-input-demote-f64-to-f32=false")
    vmfb = compile_vmfb(text, flags)
    config = ireert.Config("local-sync")
    ctx = ireert.SystemContext(config=config)
    ctx.add_vm_module(ireert.VmModule.copy_buffer(ctx.instance, vmfb))
    result = ctx.modules.module["main"](*args)
    if not isinstance(result, (tuple, list)):
        result = [result]
    return [np.asarray(r.to_host()).astype(np.float64) for r in result]


# --- MAC counting ----------------------------------------------------------------------------

def executed_macs(text: str, arg_shapes: list[tuple[int, ...]]) -> int:
    """Sum of iteration-domain sizes of the linalg ops whose body multiplies,
    with dynamic sizes evaluated for the given function argument shapes."""
    from convopt.diagnostics import SourceFile
    from convopt.parser import parse

    module = parse(SourceFile("<macs>", text)).module
    block = next(op for op in module.walk() if op.name == "func.func").regions[0].blocks[0]
    sizes = _Sizes(block.args, arg_shapes)
    total = 0
    for op in block.ops:
        sizes.visit(op)
        if op.name.startswith("linalg.") and _multiplies(op):
            total += _domain(op, sizes.shape_of)
    return total


_INDEX_ARITH: dict[str, Callable[[int, int], int]] = {
    "arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b, "arith.muli": lambda a, b: a * b,
    "arith.floordivsi": lambda a, b: a // b, "arith.ceildivsi": lambda a, b: -((-a) // b), "arith.maxsi": max, "arith.minsi": min,
    "arith.divsi": lambda a, b: int(a / b),
}
"""The integer ops whose values _Sizes evaluates."""
_SAME_SHAPE = ("tensor.insert_slice", "tensor.cast", "torch_c.to_builtin_tensor", "torch_c.from_builtin_tensor")
"""Ops (and every linalg op) whose result has the shape of an operand (_Sizes.same_shape)."""


class _Sizes:
    """The shapes of the tensors and the values of the integers of one
    function, op by op, from its argument shapes: index arithmetic, tensor.dim,
    and the shapes tensor ops give their results."""

    def __init__(self, args, arg_shapes: list[tuple[int, ...]]) -> None:
        self.shapes: dict[int, tuple[int, ...]] = {id(arg): shape for arg, shape in zip(args, arg_shapes)}
        self.ints: dict[int, int] = {}

    def shape_of(self, v) -> tuple[int, ...]:
        from convopt.ir.types import RankedTensorType

        if id(v) in self.shapes:
            return self.shapes[id(v)]
        t = v.type
        assert isinstance(t, RankedTensorType) and None not in t.shape, f"unknown shape of {t}"
        return tuple(t.shape)  # type: ignore[arg-type]

    def mixed(self, static, dynamic) -> list[int]:
        """Static sizes with each DYNAMIC_INDEX taken from the next dynamic operand."""
        from convopt.ir.attributes import DYNAMIC_INDEX

        it = iter(dynamic)
        return [self.ints[id(next(it))] if s == DYNAMIC_INDEX else s for s in static.values]

    def visit(self, op) -> None:
        rule = _SIZE_RULES.get(op.name) or (_Sizes.same_shape if op.name.startswith("linalg.") else None)
        if rule is not None:
            rule(self, op)

    def constant(self, op) -> None:
        from convopt.ir.attributes import IntegerAttr

        if isinstance(op.attributes["value"], IntegerAttr):
            self.ints[id(op.results[0])] = op.attributes["value"].value

    def arith(self, op) -> None:
        self.ints[id(op.results[0])] = _INDEX_ARITH[op.name](self.ints[id(op.operands[0])], self.ints[id(op.operands[1])])

    def dim(self, op) -> None:
        self.ints[id(op.results[0])] = self.shape_of(op.operands[0])[self.ints[id(op.operands[1])]]

    def empty(self, op) -> None:
        it = iter(op.operands)
        self.shapes[id(op.results[0])] = tuple(self.ints[id(next(it))] if s is None else s for s in op.results[0].type.shape)

    def extract_slice(self, op) -> None:
        seg = op.properties["operandSegmentSizes"].values
        dyn = list(op.operands[1:])
        self.shapes[id(op.results[0])] = tuple(self.mixed(op.attributes["static_sizes"], dyn[seg[1] : seg[1] + seg[2]]))

    def pad(self, op) -> None:
        seg = op.properties["operandSegmentSizes"].values
        dyn = list(op.operands[1:])
        low = self.mixed(op.attributes["static_low"], dyn[: seg[1]])
        high = self.mixed(op.attributes["static_high"], dyn[seg[1] :])
        self.shapes[id(op.results[0])] = tuple(lo + s + hi for lo, s, hi in zip(low, self.shape_of(op.operands[0]), high))

    def expand_shape(self, op) -> None:
        self.shapes[id(op.results[0])] = tuple(self.mixed(op.attributes["static_output_shape"], op.operands[1:]))

    def collapse_shape(self, op) -> None:
        src = self.shape_of(op.operands[0])
        groups = [[e.value for e in g.elements] for g in op.attributes["reassociation"].elements]
        self.shapes[id(op.results[0])] = tuple(math.prod(src[i] for i in g) for g in groups)

    def same_shape(self, op) -> None:
        """The result has the shape of the source (insert_slice: the destination; linalg: the init), where known."""
        if not op.results:
            return
        name = op.name
        src = op.operands[1] if name == "tensor.insert_slice" else op.operands[-1] if name.startswith("linalg.") else op.operands[0]
        try:
            self.shapes[id(op.results[0])] = self.shape_of(src)
        except AssertionError:
            pass


_SIZE_RULES: dict[str, Callable[[_Sizes, Any], None]] = {
    "arith.constant": _Sizes.constant,
    **{name: _Sizes.arith for name in _INDEX_ARITH},
    "tensor.dim": _Sizes.dim,
    "tensor.empty": _Sizes.empty,
    "tensor.extract_slice": _Sizes.extract_slice,
    "tensor.pad": _Sizes.pad,
    "tensor.expand_shape": _Sizes.expand_shape,
    "tensor.collapse_shape": _Sizes.collapse_shape,
    **{name: _Sizes.same_shape for name in _SAME_SHAPE},
}
"""Op name -> how _Sizes reads its result's shape or value (linalg ops: same_shape)."""


def _multiplies(op) -> bool:
    if op.name == "linalg.generic":
        return any(o.name in ("arith.mulf", "arith.muli") for o in op.walk())
    from convopt.dialects import linalg

    return linalg.is_contraction(op.name)


def _domain(op, shape_of) -> int:
    """Iteration-domain size, from the dims that appear bare in the maps
    (named ops are generalized first by convopt's own tables)."""
    from convopt.dialects import linalg
    from convopt.ir.affine import AffineDim, AffineMap

    maps = linalg.indexing_maps(op) or [AffineMap.identity(len(shape_of(v))) for v in op.operands]
    extents: dict[int, int] = {}
    for m, v in zip(maps, op.operands):
        for r, size in zip(m.results, shape_of(v)):
            if isinstance(r, AffineDim):
                extents[r.pos] = size
    return math.prod(extents.values())


def padded_macs(cfg: Config) -> int:
    """An upper bound of the multiply-adds of every requested gradient as
    one op over zero-padded operands: per spatial dim, the larger side's
    positions times every tap (a gather or weight kernel over the padded
    operand loops over one side's positions and the taps)."""
    per_dim = 1
    for i in range(cfg.rank):
        per_dim *= max(cfg.spatial[i], cfg.output_spatial()[i]) * cfg.kernel[i]
    channels = cfg.batch * cfg.cin * cfg.cout // cfg.groups
    return channels * per_dim * (int(cfg.mask[0]) + int(cfg.mask[1]))


def useful_macs(cfg: Config) -> int:
    """Multiply-adds with both operands in bounds, per requested gradient
    (grad_input and grad_weight; grad_bias multiplies nothing)."""
    per_dim = 1
    for i in range(cfg.rank):
        s, p, dl, k = cfg.stride[i], cfg.padding[i], cfg.dilation[i], cfg.kernel[i]
        small, big = (cfg.spatial[i], cfg.output_spatial()[i]) if cfg.transposed else (cfg.output_spatial()[i], cfg.spatial[i])
        per_dim *= sum(1 for o in range(small) for kk in range(k) if 0 <= s * o + dl * kk - p < big)
    channels = cfg.batch * cfg.cin * cfg.cout // cfg.groups
    return channels * per_dim * (int(cfg.mask[0]) + int(cfg.mask[1]))


@dataclass
class Outcome:
    cfg: Config
    errors: list[float] = field(default_factory=list)
    executed: int = 0
    useful: int = 0

    @property
    def efficiency(self) -> float:
        return self.useful / self.executed if self.executed else 1.0


def check(cfg: Config, args: tuple[str, ...] = ("--lower-conv-bwd",)) -> Outcome:
    """Lower, verify with torch-mlir-opt, compile, run and compare cfg;
    raises AssertionError on a numeric mismatch.  Returns the errors and MAC counts."""
    go, x, w = (round_to(a, cfg.dtype) for a in inputs(cfg))
    ref = reference(cfg, go, x, w)
    lowered = lower(torch_ir(cfg), args)
    torch_mlir_verify(lowered)
    got = compile_and_run(lowered, [to_device(go, cfg.dtype), to_device(x, cfg.dtype), to_device(w, cfg.dtype)], f64=cfg.dtype == "f64")
    expected = [r for r, m in zip(ref, cfg.mask) if m]
    outcome = Outcome(cfg)
    for i, (g, e) in enumerate(zip(got, expected)):
        assert g.shape == e.shape, f"{cfg.name}: result {i} shape {g.shape} != {e.shape}"
        scale = max(1.0, float(np.max(np.abs(e))) if e.size else 1.0)
        err = float(np.max(np.abs(g - e))) / scale if e.size else 0.0
        outcome.errors.append(err)
        assert err <= TOLERANCE[cfg.dtype], f"{cfg.name}: result {i} relative error {err:.3g} > {TOLERANCE[cfg.dtype]}"
    outcome.executed = executed_macs(lowered, [go.shape, x.shape, w.shape])
    outcome.useful = useful_macs(cfg)
    return outcome


# --- the configuration matrix -------------------------------------------------------------------

def C(name: str, nd: int = 2, **kw) -> Config:
    base = dict(batch=2, cin=4, cout=6, spatial=(7,) * nd, kernel=(3,) * nd, stride=(1,) * nd, padding=(1,) * nd, dilation=(1,) * nd)
    base.update(kw)
    for key in ("spatial", "kernel", "stride", "padding", "dilation", "output_padding"):
        if key in base and isinstance(base[key], int):
            base[key] = (base[key],) * nd
    return Config(name=name, **base)  # type: ignore[arg-type]


EVERYTHING = ("batch", "spatial", "channels", "kernel")


def named_matrix() -> list[Config]:
    """A row for every item of SPEC section 4."""
    return [*_geometry_rows(), *_group_and_transposed_rows(), *_mask_and_dtype_rows(), *_dynamic_rows(), *_batch_and_empty_rows()]


def _geometry_rows() -> list[Config]:
    """Ranks 1-3, strides, dilations, paddings (also over-padding), kernel shapes."""
    return [
        C("2d_basic"),
        C("1d_basic", 1, spatial=11),
        C("3d_basic", 3, spatial=5, cin=2, cout=3),
        C("3d_depth_split", 3, spatial=(3, 16, 16), cin=4, cout=8),  # grad_input as 2-D convolutions per depth tap (channels_last._depth_split)
        C("2d_stride2", stride=2, spatial=8),
        C("2d_stride3_uneven", stride=3, spatial=10),
        C("2d_stride_mixed", stride=(2, 3), spatial=(9, 10)),
        C("2d_dilation2", dilation=2, padding=2, spatial=9),
        C("2d_stride2_dilation2", stride=2, dilation=2, padding=1, spatial=11),
        C("2d_stride3_dilation2", stride=3, dilation=2, padding=2, spatial=12),
        C("2d_overpadding", padding=4, spatial=5),
        C("2d_overpadding_stride2", padding=3, stride=2, spatial=6),
        C("2d_no_padding", padding=0),
        C("2d_kernel1", kernel=1, padding=0),
        C("2d_kernel1_stride2", kernel=1, padding=0, stride=2, spatial=8),
        C("2d_one_nonunit_kernel_dim", kernel=(1, 3), padding=(0, 1)),
        C("2d_asym_kernel", kernel=(2, 5), padding=(1, 2), spatial=(6, 9)),
        C("2d_kernel_larger_than_stride_gap", kernel=2, stride=4, padding=0, spatial=13),
    ]


def _group_and_transposed_rows() -> list[Config]:
    """Groups, depthwise, and transposed convolutions with output_padding."""
    return [
        C("2d_groups2", groups=2, cin=4, cout=6),
        C("2d_groups2_stride2", groups=2, cin=4, cout=6, stride=2, padding=1, spatial=8),
        C("2d_depthwise", groups=4, cin=4, cout=4),
        C("2d_depthwise_multiplier", groups=4, cin=4, cout=8, stride=2, spatial=9),
        C("1d_groups3", 1, groups=3, cin=6, cout=9, spatial=10),
        C("3d_groups2", 3, groups=2, cin=4, cout=2, spatial=5),
        C("2d_transposed", transposed=True, spatial=5),
        C("2d_transposed_stride2_outpad1", transposed=True, stride=2, output_padding=1, spatial=5),
        C("2d_transposed_stride3_outpad2", transposed=True, stride=3, output_padding=(2, 1), spatial=4),
        C("2d_transposed_dilation_outpad", transposed=True, stride=1, dilation=3, output_padding=2, padding=0, spatial=4),
        C("2d_transposed_groups2", transposed=True, groups=2, cin=4, cout=6, stride=2, output_padding=1, spatial=4),
        C("1d_transposed", 1, transposed=True, stride=2, spatial=7),
        C("3d_transposed", 3, transposed=True, stride=2, cin=2, cout=3, spatial=3, output_padding=1),
        C("2d_transposed_overpadding", transposed=True, padding=3, kernel=5, spatial=6),
    ]


def _mask_and_dtype_rows() -> list[Config]:
    """Partial output masks, bias_sizes none, f16/bf16/f64."""
    return [
        C("2d_mask_input_only", mask=(True, False, False)),
        C("2d_mask_weight_only", mask=(False, True, False)),
        C("2d_mask_bias_only", mask=(False, False, True)),
        C("2d_mask_input_bias", mask=(True, False, True), stride=2, spatial=8),
        C("2d_bias_sizes_none", bias_sizes=False),
        C("2d_f16", dtype="f16", stride=2, spatial=8),
        C("2d_bf16", dtype="bf16", groups=2, cin=4, cout=4),
        C("2d_f64", dtype="f64", stride=2, dilation=2, spatial=9),
        C("3d_f16", 3, dtype="f16", cin=2, cout=2, spatial=4),
    ]


def _dynamic_rows() -> list[Config]:
    """Dynamic batch, spatial, channel and kernel sizes."""
    return [
        C("2d_dynamic_batch", dynamic=("batch",)),
        C("2d_dynamic_spatial", dynamic=("spatial",), stride=2, spatial=9),
        C("2d_dynamic_all", dynamic=("batch", "spatial"), groups=2, cin=4, cout=6),
        C("1d_dynamic_transposed", 1, dynamic=("batch", "spatial"), transposed=True, stride=2, output_padding=1, spatial=6),
        # every size dynamic, the weight's too (as torch-mlir's e2e tests declare it)
        C("1d_dynamic_everything", 1, dynamic=EVERYTHING, stride=2, spatial=11),
        C("2d_dynamic_everything", dynamic=EVERYTHING, stride=2, spatial=9),
        C("3d_dynamic_everything", 3, dynamic=EVERYTHING, stride=(1, 2, 1), cin=2, cout=3, spatial=5),
        C("2d_dynamic_everything_groups2", dynamic=EVERYTHING, groups=2, cin=4, cout=6, stride=2, spatial=8),
        C("2d_dynamic_everything_depthwise", dynamic=EVERYTHING, groups=4, cin=4, cout=4),
        C("2d_dynamic_everything_transposed", dynamic=EVERYTHING, transposed=True, stride=2, output_padding=1, spatial=5),
        C("1d_dynamic_everything_transposed_groups3", 1, dynamic=EVERYTHING, transposed=True, groups=3, cin=6, cout=3, stride=3, output_padding=2, spatial=5),
        C("2d_dynamic_everything_mask_input", dynamic=EVERYTHING, mask=(True, False, False), stride=3, dilation=2, padding=2, spatial=12),
        C("2d_dynamic_everything_mask_weight_bias", dynamic=EVERYTHING, mask=(False, True, True), stride=2, dilation=2, spatial=11),
        C("2d_dynamic_everything_kernel1_stride2", dynamic=EVERYTHING, kernel=1, padding=0, stride=2, spatial=8),
        C("2d_dynamic_everything_overpadding", dynamic=EVERYTHING, padding=(4, 0), kernel=(3, 2), spatial=5),
        C("2d_dynamic_everything_f16", dynamic=EVERYTHING, dtype="f16", stride=(2, 1), spatial=8),
        C("2d_dynamic_kernel", dynamic=("kernel",), stride=2, dilation=(1, 2), padding=(1, 2), spatial=9),
        C("2d_dynamic_channels", dynamic=("channels",), groups=2, cin=4, cout=6, stride=2, spatial=8),
    ]


def _batch_and_empty_rows() -> list[Config]:
    """Other batch sizes, and static size-0 dims."""
    return [
        C("2d_batch1", batch=1),
        C("2d_batch3", batch=3, stride=2, spatial=8),
        # static size 0: what PyTorch takes (an empty batch or input channels,
        # then also an empty spatial size or kernel): grad_input empty,
        # grad_weight and grad_bias zeros (grad_bias even with a non-empty
        # grad_output); no multiply-adds
        C("2d_batch0", batch=0, stride=2, spatial=8),
        C("1d_cin0", 1, cin=0, spatial=9),
        C("2d_cin0_groups2", cin=0, cout=6, groups=2, stride=2, spatial=8),
        C("2d_transposed_batch0", transposed=True, batch=0, stride=2, output_padding=1, spatial=5),
        C("3d_batch0_groups2_bf16", 3, batch=0, groups=2, cin=2, cout=4, spatial=4, dtype="bf16"),
        C("2d_batch0_spatial0", batch=0, spatial=(0, 5), kernel=1, padding=1),
        C("1d_transposed_batch0_spatial0", 1, transposed=True, batch=0, spatial=0, padding=1),  # grad_output [0, 6, 0]
        C("1d_cin0_spatial0", 1, cin=0, spatial=0, kernel=1, padding=2),
        C("2d_batch0_kernel0", batch=0, kernel=(0, 3)),
        C("2d_batch0_mask_input_bias_f16", batch=0, mask=(True, False, True), dtype="f16"),
        C("2d_batch0_dynamic_spatial", batch=0, dynamic=("spatial",), stride=2, spatial=9),
        C("2d_cin0_dynamic_kernel", cin=0, dynamic=("kernel", "batch"), spatial=6),
    ]


FORM_ROWS = {
    "2d_basic", "1d_basic", "2d_stride2", "2d_stride3_dilation2", "2d_overpadding_stride2", "2d_kernel1_stride2",
    "2d_one_nonunit_kernel_dim", "2d_groups2_stride2", "2d_depthwise", "2d_depthwise_multiplier", "1d_groups3",
    "2d_transposed_stride2_outpad1", "2d_transposed_groups2", "3d_transposed", "2d_mask_weight_only", "2d_f16", "2d_bf16", "2d_f64",
    "2d_dynamic_all", "1d_dynamic_transposed", "3d_dynamic_everything", "2d_dynamic_everything_groups2",
}
"""The named rows the forced forms run on: one per feature (the interpreter
tier on every form; the IREE tier in make test)."""


def random_matrix(count: int, seed: int = 1234) -> list[Config]:
    """Seeded random configurations over every axis."""
    rng = random.Random(seed)
    out: list[Config] = []
    while len(out) < count:
        nd = rng.choice([1, 1, 2, 2, 2, 3])
        kernel = tuple(rng.choice([1, 2, 3, 3, 4, 5]) for _ in range(nd))
        stride = tuple(rng.choice([1, 1, 2, 3]) for _ in range(nd))
        dilation = tuple(rng.choice([1, 1, 2, 3]) for _ in range(nd))
        padding = tuple(rng.randint(0, dilation[i] * (kernel[i] - 1) + 1) for i in range(nd))
        spatial = tuple(rng.randint(3, 9 if nd == 3 else 14) for _ in range(nd))
        groups = rng.choice([1, 1, 1, 2, 3])
        per = rng.choice([1, 2])
        cin, cout = groups * per, groups * rng.choice([1, 2])
        if rng.random() < 0.15:  # depthwise
            groups, cin, cout = cin, cin, cin * rng.choice([1, 2])
        transposed = rng.random() < 0.3
        output_padding = tuple(rng.randint(0, max(stride[i], dilation[i]) - 1) if transposed else 0 for i in range(nd))
        mask = rng.choice([(True, True, True), (True, True, False), (True, False, False), (False, True, False), (True, False, True)])
        dtype = rng.choice(["f32", "f32", "f32", "f16", "bf16", "f64"])
        dynamic = rng.choice([(), (), (), ("batch",), ("spatial",), ("batch", "spatial")])
        cfg = Config(
            name=f"random_{len(out)}", batch=rng.choice([1, 2, 3]), cin=cin, cout=cout, spatial=spatial, kernel=kernel, stride=stride,
            padding=padding, dilation=dilation, groups=groups, transposed=transposed, output_padding=output_padding, mask=mask, dtype=dtype,
            dynamic=dynamic, bias_sizes=rng.random() < 0.8, seed=len(out),
        )
        if cfg.valid() and math.prod(cfg.output_spatial()) * cfg.batch * cfg.cout < 4000:
            out.append(cfg)
    return out


RANDOM_ROWS = 110
"""The seeded random rows of the suite (make test runs the first
--e2e-random of them: test/conftest.py)."""


def all_configs() -> list[Config]:
    return named_matrix() + random_matrix(RANDOM_ROWS)



def torch_mlir_verify(text: str) -> None:
    """torch-mlir-opt must parse and verify convopt's output as it is
    (once per text in a session: a failure raises, so only a pass is kept)."""
    _cached("verified", [text], lambda: run_torch_mlir_opt(text, "-o", os.devnull).encode())


def torch_mlir_lower(text: str) -> str:
    """torch-mlir's own backend pipeline (torch -> linalg on tensors)."""
    return run_torch_mlir_opt(text, "--torch-backend-to-linalg-on-tensors-backend-pipeline")


def run_torch_mlir_opt(text: str, *args: str) -> str:
    import shutil
    import subprocess
    import sys

    tool = shutil.which("torch-mlir-opt", path=os.path.dirname(sys.executable)) or "torch-mlir-opt"
    proc = subprocess.run([tool, *args], input=text, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"torch-mlir-opt {' '.join(args)} failed:\n" + proc.stderr[-2000:])
    return proc.stdout


def check_through_torch_mlir(cfg: Config) -> Outcome:
    """convopt's decomposition, lowered by torch-mlir's backend pipeline,
    compiled with IREE: the decomposition is right independently of
    convopt's own linalg lowering."""
    go, x, w = (round_to(a, cfg.dtype) for a in inputs(cfg))
    ref = reference(cfg, go, x, w)
    decomposed = lower(torch_ir(cfg), ("--decompose-conv-bwd",))
    got = compile_and_run(torch_mlir_lower(decomposed), [to_device(go, cfg.dtype), to_device(x, cfg.dtype), to_device(w, cfg.dtype)], f64=cfg.dtype == "f64")
    outcome = Outcome(cfg)
    for i, (g, e) in enumerate(zip(got, [r for r, m in zip(ref, cfg.mask) if m])):
        scale = max(1.0, float(np.max(np.abs(e))) if e.size else 1.0)
        err = float(np.max(np.abs(g - e))) / scale if e.size else 0.0
        outcome.errors.append(err)
        assert err <= TOLERANCE[cfg.dtype], f"{cfg.name} via torch-mlir: result {i} relative error {err:.3g}"
    return outcome
