"""End-to-end checks of average-pooling backward: torch-dialect IR for an
`aten.avg_pool{2,3}d_backward` configuration -> convopt --lower-pool-bwd
-> IREE (llvm-cpu) -> run -> compare with PyTorch (the conv harness's
compile, tolerance and rounding helpers).  1-D pooling is PyTorch's
avg_pool1d: avg_pool2d over an inserted unit dim, which is how its
backward reaches torch-mlir (rank-1 rows are emitted so).
"""

from __future__ import annotations

import os
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
        from convopt.lowering.patterns.pool_bwd import pool_output_size

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


def torch_ir(cfg: PoolConfig) -> str:
    """The torch-dialect function, as the FX importer writes it."""
    spatial, kernel, stride, padding = cfg.params()
    lead = cfg.lead()
    dyn = (("batch" in cfg.dynamic,) if cfg.batched else ()) + (False,) + ("spatial" in cfg.dynamic,) * cfg.rank
    x_t = harness._vt((*lead, *spatial), cfg.dtype, dyn)
    y_t = harness._vt((*lead, *cfg.output_spatial()), cfg.dtype, dyn)
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
    from convopt.diagnostics import DiagnosticEngine, SourceFile
    from convopt.driver import Options, process
    from convopt.pipelines import default_pipeline

    opt = {a.split("=", 1)[0]: a.split("=", 1)[1] for a in args if "=" in a}
    pipeline = default_pipeline("--lower-conv-bwd" in args, False, None, None, False, opt.get("--conv-form"), opt.get("--matmul-tiles"), opt.get("--device"), pool=True)
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


FAST = {"2d_k2s2", "2d_k3s1p1_exclude", "2d_k3s2p1_ceil", "2d_divisor", "1d_k3s2p1", "3d_k3s2p1_ceil_exclude", "2d_unbatched",
        "2d_dynamic_spatial_ceil_exclude", "2d_k2s2_bf16", "2d_k3s2p1_ceil_exclude_f16"}
"""The slice `make test` runs; CONVOPT_E2E_FORMS=all (make test-full) runs every row."""


def selected() -> list[PoolConfig]:
    everything = os.environ.get("CONVOPT_E2E_FORMS") == "all"
    return [c for c in matrix() if everything or c.name in FAST]
