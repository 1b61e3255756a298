"""End-to-end checks of average-pooling backward: torch-dialect IR for an
`aten.avg_pool{2,3}d_backward` configuration -> convopt --lower-pool-bwd
-> IREE (llvm-cpu) -> run -> compare with PyTorch (the conv harness's
compile, tolerance and rounding helpers).  1-D pooling is PyTorch's
avg_pool1d: avg_pool2d over an inserted unit dim, which is how its
backward reaches torch-mlir (rank-1 rows are emitted so).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import harness
import numpy as np


@dataclass(frozen=True)
class PoolConfig:
    """One avg_pool backward call, in PyTorch's terms (stride () = kernel)."""

    name: str
    spatial: tuple[int, ...]
    kernel: tuple[int, ...]
    stride: tuple[int, ...] = ()
    padding: tuple[int, ...] = ()
    ceil_mode: bool = False
    count_include_pad: bool = True
    divisor_override: Optional[int] = None
    batch: int = 2
    channels: int = 3
    batched: bool = True  # False: PyTorch's unbatched [C, spatial...]
    dtype: str = "f32"
    dynamic: tuple[str, ...] = ()  # "batch", "spatial"
    seed: int = 0

    @property
    def rank(self) -> int:
        """Spatial dims of the op: 1-D pooling is 2-D over a unit dim."""
        return max(2, len(self.spatial))

    def params(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """(spatial, kernel, stride, padding) of the op (1-D: with the unit dim first)."""
        lift = (lambda t, one: (one, *t)) if len(self.spatial) == 1 else (lambda t, one: t)
        stride = self.stride or self.kernel
        padding = self.padding or (0,) * len(self.spatial)
        return lift(self.spatial, 1), lift(self.kernel, 1), lift(stride, 1), lift(padding, 0)

    def output_spatial(self) -> tuple[int, ...]:
        from convopt.lowering.kernel.relation import pool_output_size

        spatial, kernel, stride, padding = self.params()
        return tuple(pool_output_size(n, k, s, p, self.ceil_mode) for n, k, s, p in zip(spatial, kernel, stride, padding))

    def lead(self) -> tuple[int, ...]:
        return (self.batch, self.channels) if self.batched else (self.channels,)


def P(name: str, nd: int = 2, **kw) -> PoolConfig:
    """A row; int kernel/stride/padding/spatial apply to every dim."""
    for key in ("spatial", "kernel", "stride", "padding"):
        if isinstance(kw.get(key), int):
            kw[key] = (kw[key],) * nd
    kw.setdefault("spatial", (8,) * nd)
    kw.setdefault("kernel", (2,) * nd)
    return PoolConfig(name=name, **kw)


def torch_ir(cfg: PoolConfig, go_spatial: Optional[tuple[int, ...]] = None) -> str:
    """The torch-dialect function, as the FX importer writes it (go_spatial:
    grad_output's spatial sizes, by default the output's)."""
    spatial, kernel, stride, padding = cfg.params()
    lead = cfg.lead()
    dyn = (("batch" in cfg.dynamic,) if cfg.batched else ()) + (False,) + ("spatial" in cfg.dynamic,) * cfg.rank
    x_t = harness._vt((*lead, *spatial), cfg.dtype, dyn)
    y_t = harness._vt((*lead, *(go_spatial or cfg.output_spatial())), cfg.dtype, dyn)
    lines = []

    def int_list(name: str, vals: tuple[int, ...]) -> str:
        elems = []
        for i, v in enumerate(vals):
            lines.append(f"  %{name}{i} = torch.constant.int {v}")
            elems.append(f"%{name}{i}")
        lines.append(f"  %{name} = torch.prim.ListConstruct {', '.join(elems)} : ({', '.join(['!torch.int'] * len(elems))}) -> !torch.list<int>")
        return f"%{name}"

    k, s, p = int_list("k", kernel), int_list("s", stride if cfg.stride else ()), int_list("p", padding)
    lines.append(f"  %ceil = torch.constant.bool {str(cfg.ceil_mode).lower()}")
    lines.append(f"  %include = torch.constant.bool {str(cfg.count_include_pad).lower()}")
    if cfg.divisor_override is None:
        lines.append("  %div = torch.constant.none")
        div_t = "!torch.none"
    else:
        lines.append(f"  %div = torch.constant.int {cfg.divisor_override}")
        div_t = "!torch.int"
    op = f"torch.aten.avg_pool{cfg.rank}d_backward"
    lines.append(
        f"  %r = {op} %go, %x, {k}, {s}, {p}, %ceil, %include, %div : {y_t}, {x_t}, !torch.list<int>, !torch.list<int>, "
        f"!torch.list<int>, !torch.bool, !torch.bool, {div_t} -> {x_t}"
    )
    lines.append(f"  return %r : {x_t}")
    return f"func.func @main(%go: {y_t}, %x: {x_t}) -> {x_t} {{\n" + "\n".join(lines) + "\n}\n"


def inputs(cfg: PoolConfig) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(cfg.seed)
    spatial = cfg.params()[0]
    go = rng.standard_normal((*cfg.lead(), *cfg.output_spatial()))
    x = rng.standard_normal((*cfg.lead(), *spatial))
    return harness.round_to(go, cfg.dtype), harness.round_to(x, cfg.dtype)


def reference(cfg: PoolConfig, go: np.ndarray, x: np.ndarray) -> np.ndarray:
    """PyTorch's avg_pool backward in float64 on the values the compiled
    code sees (its 2-D op for 1-D rows, as autograd calls it)."""
    import torch

    _, kernel, stride, padding = cfg.params()
    fn = torch.ops.aten.avg_pool2d_backward if cfg.rank == 2 else torch.ops.aten.avg_pool3d_backward
    t = lambda a: torch.from_numpy(np.asarray(a, dtype=np.float64))  # noqa: E731
    return fn(t(go), t(x), list(kernel), list(stride) if cfg.stride else [], list(padding), cfg.ceil_mode, cfg.count_include_pad, cfg.divisor_override).numpy()  # type: ignore[no-any-return]


def check(cfg: PoolConfig, args: tuple[str, ...] = ("--lower-pool-bwd",)) -> float:
    """Lower, verify with torch-mlir-opt, compile, run and compare; returns
    the relative error (AssertionError above the dtype's tolerance)."""
    go, x = inputs(cfg)
    lowered = lower(torch_ir(cfg), args)
    harness.torch_mlir_verify(lowered)
    got = harness.compile_and_run(lowered, [harness.to_device(go, cfg.dtype), harness.to_device(x, cfg.dtype)], f64=cfg.dtype == "f64")[0]
    return compare(cfg, got, reference(cfg, go, x))


def compare(cfg: PoolConfig, got: np.ndarray, expected: np.ndarray) -> float:
    assert got.shape == expected.shape, f"{cfg.name}: shape {got.shape} != {expected.shape}"
    err = float(np.max(np.abs(got - expected))) / max(1.0, float(np.max(np.abs(expected))))
    assert err <= harness.TOLERANCE[cfg.dtype], f"{cfg.name}: relative error {err:.3g} > {harness.TOLERANCE[cfg.dtype]}"
    return err


def lower(text: str, args: tuple[str, ...] = ("--lower-pool-bwd",)) -> str:
    """convopt in-process with --lower-pool-bwd and the kernel options of args."""
    from convopt.cli import flags_pipeline
    from convopt.diagnostics import DiagnosticEngine, SourceFile
    from convopt.driver import Options, process

    pipeline = flags_pipeline(("--lower-pool-bwd", *args))
    engine = DiagnosticEngine()
    out = process(SourceFile("<e2e>", text), Options(pipeline=pipeline), engine)
    if out is None:
        raise RuntimeError("convopt failed:\n" + "\n".join(d.render() for d in engine.diagnostics))
    return out


def matrix() -> list[PoolConfig]:
    """The configuration space: 1-3 dims, windows equal to / larger than /
    smaller than the stride, padding, ceil_mode with padding at the border,
    count_include_pad false, divisor_override, unbatched, dynamic batch and
    spatial sizes, every dtype."""
    rows = [
        P("2d_k2s2"),  # DenseNet's transition
        P("2d_k3s1p1", kernel=3, stride=1, padding=1),  # Inception's pool branch
        P("2d_k3s1p1_exclude", kernel=3, stride=1, padding=1, count_include_pad=False),
        P("2d_k3s2p1", kernel=3, stride=2, padding=1, spatial=9),  # window larger than the stride
        P("2d_k3s2p1_ceil", kernel=3, stride=2, padding=1, spatial=8, ceil_mode=True),
        P("2d_k3s2p1_ceil_exclude", kernel=3, stride=2, padding=1, spatial=8, ceil_mode=True, count_include_pad=False),
        P("2d_k2s2_ceil_odd", kernel=2, stride=2, spatial=7, ceil_mode=True),
        P("2d_k3s2_ceil_nopad_exclude", kernel=3, stride=2, spatial=8, ceil_mode=True, count_include_pad=False),
        P("2d_k3s3_ceil", kernel=3, stride=3, spatial=(8, 7), ceil_mode=True, padding=(1, 0)),
        P("2d_divisor", kernel=3, stride=2, padding=1, spatial=9, divisor_override=5),
        P("2d_divisor_ceil", kernel=3, stride=2, padding=1, spatial=8, ceil_mode=True, divisor_override=2),
        P("2d_k2s1", kernel=2, stride=1, spatial=6),  # overlapping windows
        P("2d_k1s2", kernel=1, stride=2, spatial=7),  # windows that skip positions
        P("2d_asym", kernel=(3, 1), stride=(2, 1), padding=(1, 0), spatial=(9, 5)),
        P("2d_k7_global", kernel=7, spatial=7),  # global average pooling
        P("2d_unbatched", kernel=3, stride=2, padding=1, spatial=7, batched=False),
        P("1d_k3s2p1", nd=1, kernel=3, stride=2, padding=1, spatial=11),
        # iree-compile failed on the filled weight's tap slices ("write affecting operations on global resources ...")
        P("1d_k5s1p2_exclude_c8", nd=1, kernel=5, stride=1, padding=2, spatial=18, count_include_pad=False, batch=2, channels=8),
        P("1d_k4s3_ceil_exclude", nd=1, kernel=4, stride=3, padding=2, spatial=10, ceil_mode=True, count_include_pad=False),
        P("3d_k2s2", nd=3, spatial=6),
        P("3d_k3s2p1_ceil_exclude", nd=3, kernel=3, stride=2, padding=1, spatial=(6, 5, 4), ceil_mode=True, count_include_pad=False),
        P("3d_divisor", nd=3, kernel=(1, 2, 2), stride=(1, 2, 2), spatial=(3, 6, 6), divisor_override=3),
        P("2d_dynamic_batch", kernel=2, stride=2, dynamic=("batch",)),
        P("2d_dynamic_batch_k3s1p1", kernel=3, stride=1, padding=1, dynamic=("batch",)),
        P("2d_dynamic_spatial_ceil_exclude", kernel=3, stride=2, padding=1, spatial=8, ceil_mode=True, count_include_pad=False, dynamic=("batch", "spatial")),
        P("2d_dynamic_spatial", kernel=2, stride=2, spatial=8, dynamic=("spatial",)),
        P("3d_dynamic", nd=3, kernel=2, stride=2, spatial=4, dynamic=("batch", "spatial")),
    ]
    for dtype in ("f16", "bf16", "f64"):
        rows += [
            P(f"2d_k2s2_{dtype}", dtype=dtype),
            P(f"2d_k3s2p1_ceil_exclude_{dtype}", kernel=3, stride=2, padding=1, spatial=8, ceil_mode=True, count_include_pad=False, dtype=dtype),
        ]
    return rows


FAST = {"2d_k2s2", "1d_k5s1p2_exclude_c8", "2d_k3s1p1_exclude", "2d_k3s2p1_ceil", "2d_divisor", "1d_k3s2p1", "3d_k3s2p1_ceil_exclude", "2d_unbatched",
        "2d_dynamic_spatial_ceil_exclude", "2d_k2s2_bf16", "2d_k3s2p1_ceil_exclude_f16"}
"""The slice `make test` runs (on the default forms); the "e2e-forms" sweep
(--e2e-forms=all, make test-full) runs every row."""


# --- max pooling's forward (convopt-pool-bwd-to-linalg: max_pool_fwd.py, forms/pool_max.py) -----

@dataclass(frozen=True)
class MaxPoolFwdConfig:
    """One max-pool forward call, in PyTorch's terms (stride () = kernel);
    `values` in {"random", "ties" (a few distinct values: equal maxima),
    "nan" (ties and some NaNs), "-inf" (ties and some -inf)}."""

    name: str
    spatial: tuple[int, ...]
    kernel: tuple[int, ...]
    stride: tuple[int, ...] = ()
    padding: tuple[int, ...] = ()
    dilation: tuple[int, ...] = ()
    ceil_mode: bool = False
    with_indices: bool = True
    batch: int = 2
    channels: int = 3
    batched: bool = True
    dtype: str = "f32"
    dynamic: tuple[str, ...] = ()  # "batch", "channels", "spatial"
    values: str = "random"
    seed: int = 0

    @property
    def rank(self) -> int:
        return len(self.spatial)

    def params(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """(stride, padding, dilation) with their defaults."""
        return self.stride or self.kernel, self.padding or (0,) * self.rank, self.dilation or (1,) * self.rank

    def output_spatial(self) -> tuple[int, ...]:
        from convopt.lowering.kernel.relation import pool_output_size

        stride, padding, dilation = self.params()
        return tuple(pool_output_size(n, k, s, p, self.ceil_mode, dl) for n, k, s, p, dl in zip(self.spatial, self.kernel, stride, padding, dilation))

    def lead(self) -> tuple[int, ...]:
        return (self.batch, self.channels) if self.batched else (self.channels,)

    def op_name(self) -> str:
        return f"torch.aten.max_pool{self.rank}d" + ("_with_indices" if self.with_indices else "")


def M(name: str, nd: int = 2, **kw) -> MaxPoolFwdConfig:
    """A max-pool forward row; int kernel/stride/padding/dilation/spatial apply to every dim."""
    for key in ("spatial", "kernel", "stride", "padding", "dilation"):
        if isinstance(kw.get(key), int):
            kw[key] = (kw[key],) * nd
    kw.setdefault("spatial", (8,) * nd)
    kw.setdefault("kernel", (2,) * nd)
    return MaxPoolFwdConfig(name=name, **kw)


def max_pool_ir(cfg: MaxPoolFwdConfig, result_shape: Optional[tuple[int, ...]] = None) -> str:
    """The torch-dialect function of the forward op (results: values, and
    indices with_indices); result_shape overrides the declared output shape."""
    stride, padding, dilation = cfg.params()
    lead = cfg.lead()
    dyn = (("batch" in cfg.dynamic,) if cfg.batched else ()) + ("channels" in cfg.dynamic,) + ("spatial" in cfg.dynamic,) * cfg.rank
    x_t = harness._vt((*lead, *cfg.spatial), cfg.dtype, dyn)
    out = result_shape or (*lead, *cfg.output_spatial())
    y_t, i_t = harness._vt(out, cfg.dtype, dyn), harness._vt(out, "si64", dyn)
    lines = []

    def int_list(name: str, vals: tuple[int, ...]) -> str:
        for i, v in enumerate(vals):
            lines.append(f"  %{name}{i} = torch.constant.int {v}")
        lines.append(f"  %{name} = torch.prim.ListConstruct {', '.join(f'%{name}{i}' for i in range(len(vals)))} : "
                     f"({', '.join(['!torch.int'] * len(vals))}) -> !torch.list<int>")
        return f"%{name}"

    k, s, p, d = int_list("k", cfg.kernel), int_list("s", stride), int_list("p", padding), int_list("d", dilation)
    lines.append(f"  %ceil = torch.constant.bool {str(cfg.ceil_mode).lower()}")
    operands = f"%x, {k}, {s}, {p}, {d}, %ceil : {x_t}, " + ", ".join(["!torch.list<int>"] * 4) + ", !torch.bool"
    results = [y_t, i_t] if cfg.with_indices else [y_t]
    names = "%r0, %r1" if cfg.with_indices else "%r0"
    lines.append(f"  {names} = {cfg.op_name()} {operands} -> {', '.join(results)}")
    lines.append(f"  return {names} : {', '.join(results)}")
    return f"func.func @main(%x: {x_t}) -> ({', '.join(results)}) {{\n" + "\n".join(lines) + "\n}\n"


def max_pool_input(cfg: MaxPoolFwdConfig) -> np.ndarray:
    """The input, rounded to the dtype (as float64)."""
    rng = np.random.default_rng(cfg.seed)
    shape = (*cfg.lead(), *cfg.spatial)
    x = rng.standard_normal(shape) if cfg.values == "random" else rng.integers(-2, 3, shape).astype(np.float64)
    special = {"nan": np.nan, "-inf": -np.inf}.get(cfg.values)
    if special is not None:
        x[rng.random(shape) < 0.3] = special
    return harness.round_to(x, cfg.dtype)


def max_pool_reference(cfg: MaxPoolFwdConfig, x: np.ndarray) -> list[np.ndarray]:
    """PyTorch's values (in the dtype, as float64) and indices."""
    import torch

    stride, padding, dilation = cfg.params()
    fn = {1: torch.ops.aten.max_pool1d_with_indices, 2: torch.ops.aten.max_pool2d_with_indices, 3: torch.ops.aten.max_pool3d_with_indices}[cfg.rank]
    t = torch.from_numpy(np.asarray(harness.to_device(x, cfg.dtype), dtype=np.float32 if cfg.dtype == "bf16" else None))
    if cfg.dtype == "bf16":
        t = t.to(torch.bfloat16)
    values, indices = fn(t, list(cfg.kernel), list(stride), list(padding), list(dilation), cfg.ceil_mode)
    out = [values.to(torch.float64).numpy(), indices.numpy()]
    return out if cfg.with_indices else out[:1]


def compare_max_pool(cfg: MaxPoolFwdConfig, got: list, expected: list[np.ndarray]) -> None:
    """Exact equality of values (NaN where PyTorch has NaN) and indices."""
    assert len(got) == len(expected), f"{cfg.name}: {len(got)} results, expected {len(expected)}"
    for what, g, e in zip(("values", "indices"), got, expected):
        g = np.asarray(g).astype(np.float64)
        assert g.shape == e.shape, f"{cfg.name}: {what} of shape {g.shape}, expected {e.shape}"
        bad = ~((g == e) | (np.isnan(g) & np.isnan(e)))
        assert not bad.any(), f"{cfg.name}: {int(bad.sum())} {what} differ, first at {np.argwhere(bad)[0].tolist()}: {g[bad][0]} != {e[bad][0]}"


def check_max_pool(cfg: MaxPoolFwdConfig, args: tuple[str, ...] = ("--lower-pool-bwd",)) -> None:
    """Lower, verify with torch-mlir-opt, compile with IREE (llvm-cpu), run, compare exactly."""
    x = max_pool_input(cfg)
    lowered = lower(max_pool_ir(cfg), args)
    assert "torch.aten.max_pool" not in lowered, lowered
    harness.torch_mlir_verify(lowered)
    got = harness.compile_and_run(lowered, [harness.to_device(x, cfg.dtype)], f64=cfg.dtype == "f64")
    compare_max_pool(cfg, got, max_pool_reference(cfg, x))


def max_pool_matrix() -> list[MaxPoolFwdConfig]:
    """The forward rows: torch-mlir's invalid shapes (an output of one
    window that stops short of the input's end; ceil_mode), 1-3 dims,
    dilation, padding, ceil_mode, ties, NaN and -inf, values alone,
    unbatched, dynamic sizes, every dtype."""
    return [
        M("2d_k3s2_out1", spatial=4, kernel=3, stride=2, batch=2, channels=8),  # torch-mlir: invalid IR
        M("2d_k4s2_out1", spatial=5, kernel=4, stride=2),  # torch-mlir: invalid IR
        M("2d_ceil_13x5_k5s3", spatial=(13, 5), kernel=5, stride=3, ceil_mode=True, batch=2, channels=3),  # torch-mlir: invalid IR
        M("2d_k3s2p1", spatial=9, kernel=3, stride=2, padding=1),  # ResNet's stem pool
        M("2d_k3s2p1_ceil", spatial=8, kernel=3, stride=2, padding=1, ceil_mode=True),
        M("2d_k2s2_ties", kernel=2, values="ties"),
        M("2d_k3s1p1_nan", kernel=3, stride=1, padding=1, spatial=6, values="nan"),
        M("2d_k3s2p1_neginf", kernel=3, stride=2, padding=1, spatial=7, values="-inf"),
        M("2d_dilation2", spatial=9, kernel=3, stride=1, dilation=2, padding=1),
        M("2d_values_only", spatial=9, kernel=3, stride=2, padding=1, with_indices=False),
        M("2d_values_only_nan", spatial=6, kernel=2, stride=1, with_indices=False, values="nan"),
        M("2d_unbatched", spatial=7, kernel=3, stride=2, padding=1, batched=False),
        M("1d_k3s2p1", nd=1, spatial=11, kernel=3, stride=2, padding=1),
        M("1d_k4s3_ceil_dil2", nd=1, spatial=14, kernel=4, stride=3, padding=2, dilation=2, ceil_mode=True),
        M("1d_values_only", nd=1, spatial=10, kernel=3, stride=1, with_indices=False),
        M("1d_empty_window_dil2p1", nd=1, spatial=1, kernel=2, stride=1, padding=1, dilation=2),  # no tap inside: PyTorch's initial index
        M("3d_empty_window_dil2p1", nd=3, spatial=(1, 3, 3), kernel=(2, 1, 3), stride=(1, 2, 1), padding=(1, 0, 0), dilation=(2, 1, 1)),
        M("3d_k2s2", nd=3, spatial=(4, 6, 5)),
        M("3d_k3s2p1_ceil", nd=3, spatial=(5, 6, 7), kernel=3, stride=2, padding=1, ceil_mode=True),
        M("3d_values_only_dil", nd=3, spatial=(5, 6, 6), kernel=2, stride=1, dilation=(1, 2, 2), with_indices=False),
        M("2d_dynamic_batch", spatial=8, kernel=3, stride=2, padding=1, dynamic=("batch",)),
        M("2d_dynamic_spatial_ceil", spatial=(8, 7), kernel=3, stride=2, padding=1, ceil_mode=True, dynamic=("batch", "channels", "spatial")),
        M("3d_dynamic", nd=3, spatial=(4, 5, 6), kernel=2, stride=2, ceil_mode=True, dynamic=("spatial",)),
        M("2d_f16", spatial=9, kernel=3, stride=2, padding=1, dtype="f16", values="ties"),
        M("2d_bf16", spatial=9, kernel=3, stride=2, padding=1, dtype="bf16", values="ties"),
        M("2d_f64", spatial=9, kernel=3, stride=2, padding=1, dtype="f64"),
    ]
