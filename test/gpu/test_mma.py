"""The matrix-core measure of bench/mma.py: parsing a configuration dump
(iree-compile --iree-hal-dump-executable-configurations-to) and counting
executed multiply-adds, on a small hand-written dump and on one IREE writes
for a tiny module (configurations only: about a second, no GPU)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import gpu_compile
import pytest

from bench import mma

# A contraction on the matrix cores (2x128x64 outputs, 64 reduced: 1M
# multiply-adds) with a fused elementwise multiply (no reduction: not a
# multiply-add), the shape of IREE's dumps.
MATMUL = """hal.executable public @main$async_dispatch_0 {
  hal.executable.variant public @rocm_hsaco_fb target(<"rocm", "rocm-hsaco-fb", {}>) {
    builtin.module {
      func.func @main$async_dispatch_0_matmul_like_2x128x64x64_f32() {
        %10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%6, %7 : tensor<2x64x64xf32>, tensor<128x64xf32>) outs(%9 : tensor<2x128x64xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{mma_kind = #iree_gpu.mma_layout<MFMA_F32_16x16x4_F32>}>} {
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %11 = arith.mulf %in, %in_0 : f32
          %12 = arith.addf %out, %11 : f32
          linalg.yield %12 : f32
        } -> tensor<2x128x64xf32>
        %13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%10 : tensor<2x128x64xf32>) outs(%8 : tensor<2x128x64xf32>) {
        ^bb0(%in: f32, %out: f32):
          %14 = arith.mulf %in, %in : f32
          linalg.yield %14 : f32
        } -> tensor<2x128x64xf32>
        return
      }
    }
  }
}
"""

# A 3x3 convolution-shaped generic with aliased maps and a compound index
# (oh + kh), on the SIMT lanes: 2*8*6*6 outputs x 4*3*3 = 20736.
CONV = """#map = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>
#map1 = affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>
#map2 = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>
hal.executable public @main$async_dispatch_1 {
  hal.executable.variant public @rocm_hsaco_fb target(<"rocm", "rocm-hsaco-fb", {}>) {
    builtin.module {
      func.func @main$async_dispatch_1_conv() {
        %3 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%0, %1 : tensor<2x4x8x8xf32>, tensor<8x4x3x3xf32>) outs(%2 : tensor<2x8x6x6xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{workgroup = [1, 8, 6, 6, 0, 0, 0]}>} {
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %4 = arith.mulf %in, %in_0 : f32
          %5 = arith.addf %out, %4 : f32
          linalg.yield %5 : f32
        } -> tensor<2x8x6x6xf32>
        return
      }
    }
  }
}
"""

# A sum over a dynamic batch: a reduction that does not multiply.
SUM = """hal.executable public @main$async_dispatch_2 {
  builtin.module {
    func.func @f() {
      %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%0 : tensor<?x8xf32>) outs(%1 : tensor<8xf32>) {
      ^bb0(%in: f32, %out: f32):
        %4 = arith.addf %in, %out : f32
        linalg.yield %4 : f32
      } -> tensor<8xf32>
      return
    }
  }
}
"""

# A gather (max-pool backward's form): a reduction whose body multiplies
# only indices -- not a multiply-add.
GATHER = """hal.executable public @main$async_dispatch_3 {
  builtin.module {
    func.func @f() {
      %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%0 : tensor<4xf32>) outs(%1 : tensor<64xf32>) {
      ^bb0(%in: f32, %out: f32):
        %4 = linalg.index 0 : index
        %5 = arith.muli %4, %c32 : index
        %6 = tensor.extract %2[%5] : tensor<4096xf32>
        %7 = arith.addf %out, %6 : f32
        linalg.yield %7 : f32
      } -> tensor<64xf32>
      return
    }
  }
}
"""

FLOW = """
    %1 = flow.dispatch @main$async_dispatch_0::@main$async_dispatch_0_matmul_like_2x128x64x64_f32(%0) : (tensor<2x64x64xf32>) -> tensor<2x128x64xf32>
    %2 = flow.dispatch @main$async_dispatch_1::@main$async_dispatch_1_conv(%0) : (tensor<2x4x8x8xf32>) -> tensor<2x8x6x6xf32>
    %3 = flow.dispatch @main$async_dispatch_1::@main$async_dispatch_1_conv(%0) : (tensor<2x4x8x8xf32>) -> tensor<2x8x6x6xf32>
"""


def test_domain_and_multiplies() -> None:
    ops = mma.generics(MATMUL)
    assert [(op["size"], op["multiplies"], op["reduces"]) for op in ops] == [(2 * 128 * 64 * 64, True, True), (2 * 128 * 64, True, False)]
    (conv,) = mma.generics(CONV)
    assert conv["size"] == 2 * 8 * 6 * 6 * 4 * 3 * 3
    (s,) = mma.generics(SUM)
    assert s["size"] is None and not s["multiplies"]
    (g,) = mma.generics(GATHER)
    assert g["size"] == 256 and g["reduces"] and not g["multiplies"]


def test_measure(tmp_path: Path) -> None:
    for i, text in enumerate((MATMUL, CONV, SUM)):
        (tmp_path / f"configured_module_{i}.mlir").write_text(text)
    m = mma.measure(tmp_path, FLOW)
    conv = 2 * 8 * 6 * 6 * 4 * 3 * 3
    assert m["dispatches"] == 3 and m["multiplying"] == 2 and m["mma_dispatches"] == 1
    assert m["macs"] == 2 * 128 * 64 * 64 + 2 * conv  # the conv runs at two call sites
    assert m["mma_macs"] == 2 * 128 * 64 * 64
    assert m["dynamic"] == []


MODULE = """func.func @main(%a: tensor<64x128xf32>, %b: tensor<128x96xf32>, %x: tensor<1x8x10x10xf32>, %w: tensor<16x8x3x3xf32>) -> (tensor<64x96xf32>, tensor<1x16x8x8xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x96xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x96xf32>) outs(%f : tensor<64x96xf32>) -> tensor<64x96xf32>
  %e2 = tensor.empty() : tensor<1x16x8x8xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x8x10x10xf32>, tensor<16x8x3x3xf32>) outs(%f2 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %m, %c : tensor<64x96xf32>, tensor<1x16x8x8xf32>
}
"""


@pytest.mark.parametrize("target", ["rocm"])
def test_iree_dump(tmp_path: Path, target: str) -> None:
    """IREE's own dump of a matmul and a convolution (named ops, generalized
    by iree-opt): the multiply-adds are exact and the matmul is on MFMA."""
    src = tmp_path / "in.mlir"
    src.write_text(MODULE)
    flow = tmp_path / "flow.mlir"
    iree = gpu_compile.iree_compile()
    subprocess.run([iree, str(src), *mma.TARGETS[target], "--compile-to=flow", "-o", str(flow)], check=True)
    cfg = tmp_path / "cfg"
    subprocess.run(
        [iree, str(flow), *mma.TARGETS[target], "--compile-from=flow", "--compile-to=executable-configurations", f"--iree-hal-dump-executable-configurations-to={cfg}", "-o", str(tmp_path / "out.mlir")],
        check=True,
    )
    m = mma.measure(cfg, flow.read_text())
    assert m["macs"] == 64 * 96 * 128 + 16 * 8 * 8 * 8 * 3 * 3
    assert m["mma_macs"] >= 64 * 96 * 128
    assert m["dynamic"] == []
