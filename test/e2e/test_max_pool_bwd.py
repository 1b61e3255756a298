"""End to end: `aten.max_pool3d_with_indices_backward` through convopt
--lower-pool-bwd, IREE (llvm-cpu) and PyTorch.  The indices are those of
PyTorch's own forward (F.max_pool3d(..., return_indices=True)) on random
inputs; the rows cover windows that tile the input (one op), overlapping
windows (col2im), padding, dilation, ceil_mode, a remainder the windows
do not reach, unbatched input, dynamic batch and spatial sizes, and every
element type.  make test compiles the FAST rows with IREE (--e2e-forms=all,
make test-full and CI: every row); the interpreter runs every row (no IREE)."""

from __future__ import annotations

from dataclasses import dataclass

import harness
import numpy as np
import pytest


@dataclass(frozen=True)
class MaxPoolConfig:
    name: str
    spatial: tuple[int, int, int] = (4, 6, 6)
    kernel: tuple[int, int, int] = (2, 2, 2)
    stride: tuple[int, int, int] = ()  # type: ignore[assignment]  # () = kernel
    padding: tuple[int, int, int] = (0, 0, 0)
    dilation: tuple[int, int, int] = (1, 1, 1)
    ceil_mode: bool = False
    batched: bool = True
    dtype: str = "f32"
    dynamic: tuple[str, ...] = ()  # "batch", "spatial"

    def lead(self) -> tuple[int, ...]:
        return (2, 3) if self.batched else (3,)

    def forward(self, x):
        import torch.nn.functional as F

        return F.max_pool3d(x, self.kernel, self.stride or self.kernel, self.padding, self.dilation, self.ceil_mode, return_indices=True)


ROWS = [
    MaxPoolConfig("k2s2"),
    MaxPoolConfig("k122_c3d", spatial=(8, 8, 8), kernel=(1, 2, 2)),
    MaxPoolConfig("k2s2_remainder", spatial=(5, 7, 9)),
    MaxPoolConfig("k2s2_ceil", spatial=(5, 7, 9), ceil_mode=True),
    MaxPoolConfig("k3s2p1", spatial=(5, 8, 8), kernel=(3, 3, 3), stride=(2, 2, 2), padding=(1, 1, 1)),
    MaxPoolConfig("k3s2p1_ceil", spatial=(6, 7, 8), kernel=(3, 3, 3), stride=(2, 2, 2), padding=(1, 1, 1), ceil_mode=True),
    MaxPoolConfig("k2s1", kernel=(2, 2, 2), stride=(1, 1, 1)),
    MaxPoolConfig("k2s2p1", kernel=(2, 2, 2), padding=(1, 1, 1)),
    MaxPoolConfig("k2s2_dilation2", spatial=(5, 8, 8), dilation=(2, 2, 2)),
    MaxPoolConfig("k2s2_unbatched", batched=False),
    MaxPoolConfig("k3s2p1_dynamic_batch", spatial=(5, 8, 8), kernel=(3, 3, 3), stride=(2, 2, 2), padding=(1, 1, 1), dynamic=("batch",)),
    MaxPoolConfig("k2s2_dynamic_spatial", spatial=(5, 7, 9), dynamic=("batch", "spatial")),
    MaxPoolConfig("k3s2p1_dynamic_spatial", spatial=(5, 8, 8), kernel=(3, 3, 3), stride=(2, 2, 2), padding=(1, 1, 1), dynamic=("spatial",)),
    MaxPoolConfig("k2s2_bf16", dtype="bf16"),
    MaxPoolConfig("k3s2p1_f16", spatial=(5, 8, 8), kernel=(3, 3, 3), stride=(2, 2, 2), padding=(1, 1, 1), dtype="f16"),
    MaxPoolConfig("k2s2_f64", dtype="f64"),
]


FAST = {"k122_c3d", "k3s2p1_ceil", "k2s2_dilation2", "k2s2_dynamic_spatial", "k2s2_bf16"}
"""The rows make test compiles with IREE: one per mechanism (the tiled op, col2im
with padding and ceil_mode, dilation, dynamic sizes, a narrow type)."""
IREE_ROWS = [pytest.param(r, id=r.name, marks=() if r.name in FAST else pytest.mark.sweep("e2e-forms")) for r in ROWS]


def case(cfg: MaxPoolConfig) -> tuple[str, list[np.ndarray], np.ndarray]:
    """(torch IR, arguments [grad_output, input, indices], PyTorch's grad_input in float64)."""
    import torch

    gen = torch.Generator().manual_seed(0)
    x = torch.from_numpy(harness.round_to(torch.randn(*cfg.lead(), *cfg.spatial, generator=gen, dtype=torch.float64).numpy(), cfg.dtype))
    y, idx = cfg.forward(x)
    go = torch.from_numpy(harness.round_to(torch.randn(y.shape, generator=gen, dtype=torch.float64).numpy(), cfg.dtype))
    stride = cfg.stride or cfg.kernel
    ref = torch.ops.aten.max_pool3d_with_indices_backward(go, x, list(cfg.kernel), list(stride), list(cfg.padding), list(cfg.dilation), cfg.ceil_mode, idx)
    text = torch_ir(cfg, tuple(x.shape), tuple(y.shape))
    return text, [go.numpy(), x.numpy(), idx.numpy()], ref.numpy()


def torch_ir(cfg: MaxPoolConfig, x_shape: tuple[int, ...], y_shape: tuple[int, ...]) -> str:
    """The function `main(grad_output, input, indices)` of the op on these
    shapes (y_shape: grad_output's and the indices')."""
    lead_dyn = (("batch" in cfg.dynamic,) if cfg.batched else ()) + (False,)
    dyn = lead_dyn + ("spatial" in cfg.dynamic,) * 3
    x_t, y_t = harness._vt(x_shape, cfg.dtype, dyn), harness._vt(y_shape, cfg.dtype, dyn)
    i_t = harness._vt(y_shape, "si64", dyn)
    lines = []

    def int_list(name: str, vals) -> str:
        for i, v in enumerate(vals):
            lines.append(f"  %{name}{i} = torch.constant.int {v}")
        lines.append(f"  %{name} = torch.prim.ListConstruct {', '.join(f'%{name}{i}' for i in range(len(vals)))} : "
                     f"({', '.join(['!torch.int'] * len(vals))}) -> !torch.list<int>")
        return f"%{name}"

    k, s, p, d = int_list("k", cfg.kernel), int_list("s", cfg.stride), int_list("p", cfg.padding), int_list("d", cfg.dilation)
    lines.append(f"  %ceil = torch.constant.bool {str(cfg.ceil_mode).lower()}")
    lines.append(f"  %r = torch.aten.max_pool3d_with_indices_backward %go, %x, {k}, {s}, {p}, {d}, %ceil, %idx : {y_t}, {x_t}, "
                 f"!torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, {i_t} -> {x_t}")
    lines.append(f"  return %r : {x_t}")
    return f"func.func @main(%go: {y_t}, %x: {x_t}, %idx: {i_t}) -> {x_t} {{\n" + "\n".join(lines) + "\n}\n"


def lowered(text: str) -> str:
    from convopt import lower

    return lower(text, pool_bwd=True)


def compare(cfg: MaxPoolConfig, got: np.ndarray, expected: np.ndarray) -> None:
    assert got.shape == expected.shape, f"{cfg.name}: shape {got.shape} != {expected.shape}"
    err = float(np.max(np.abs(got.astype(np.float64) - expected))) / max(1.0, float(np.max(np.abs(expected))))
    assert err <= harness.TOLERANCE[cfg.dtype], f"{cfg.name}: relative error {err:.3g} > {harness.TOLERANCE[cfg.dtype]}"


@pytest.mark.parametrize("cfg", IREE_ROWS)
def test_max_pool3d_backward_iree(cfg: MaxPoolConfig) -> None:
    text, (go, x, idx), expected = case(cfg)
    out = lowered(text)
    assert "max_pool3d_with_indices_backward" not in out
    harness.torch_mlir_verify(out)
    args = [harness.to_device(go, cfg.dtype), harness.to_device(x, cfg.dtype), idx]
    got = harness.compile_and_run(out, args, f64=cfg.dtype == "f64")[0]
    compare(cfg, np.asarray(got, dtype=np.float64), expected)


@pytest.mark.parametrize("cfg", ROWS, ids=lambda c: c.name)
def test_max_pool3d_backward_interpreter(cfg: MaxPoolConfig) -> None:
    from convopt.interp import run_text

    text, (go, x, idx), expected = case(cfg)
    (got,) = run_text(lowered(text), "main", [harness.to_device(go, cfg.dtype), harness.to_device(x, cfg.dtype), idx])
    compare(cfg, np.asarray(got, dtype=np.float64), expected)
