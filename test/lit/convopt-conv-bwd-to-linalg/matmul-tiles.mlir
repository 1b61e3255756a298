// --matmul-tiles: large static bf16/f32 matmuls as linalg.pack + linalg.mmt4d
// + linalg.unpack (IREE's data-tiled form, CPU-specific tiles); off by
// default.  The stem-like grad_weight [16, 1024] x [1024, 147] (bf16, 2.4M
// MACs) is computed swapped, C^T = B^T A^T, so that 147 takes the 8-row
// tile (152 rows, not 160): the im2col columns pack as the mmt4d's LHS
// (padded with zero), grad_output as its RHS (16 divides), and the unpack
// transposes back.
// RUN: %convopt --lower-conv-bwd --matmul-tiles=avx512 %s | FileCheck %s
// RUN: %convopt --lower-conv-bwd --matmul-tiles=avx512 %s | %mlir-verify
// RUN: %convopt --lower-conv-bwd --backend-legal-ops= --matmul-tiles=avx512 %s | FileCheck %s --check-prefix=DECOMPOSED
// RUN: %convopt --lower-conv-bwd %s | FileCheck %s --check-prefix=DEFAULT
// RUN: %convopt --lower-conv-bwd --matmul-tiles=none %s | FileCheck %s --check-prefix=DEFAULT
// For an AVX-512 device the same tiles; for an AVX2 one they are refused: IREE
// 3.13 computes wrong results for mmt4d tiles of 16 columns on a CPU without
// AVX-512 (test/fuzz/packed_sweep.py); for a GPU they make no sense.
// RUN: %convopt --lower-conv-bwd --matmul-tiles=avx512 --device=avx512 %s | FileCheck %s
// RUN: not %convopt --lower-conv-bwd --matmul-tiles=avx512 --device=avx2 %s 2>&1 | FileCheck %s --check-prefix=AVX2
// RUN: not %convopt --lower-conv-bwd --matmul-tiles=avx512 --device=gpu %s 2>&1 | FileCheck %s --check-prefix=GPU
// AVX2: convopt: error: --matmul-tiles: IREE 3.13 computes wrong results for mmt4d tiles of 16 columns on a CPU without AVX-512 (--device=avx2); use --matmul-tiles=none
// GPU: convopt: error: --matmul-tiles are CPU tiles

// CHECK-LABEL: func.func @main(
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : bf16
// CHECK:         %[[COLS:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2, 3, 4]] : tensor<32x32x3x7x7xbf16> into tensor<1024x147xbf16>
// CHECK:         %[[GO:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : tensor<16x32x32xbf16> into tensor<16x1024xbf16>
// CHECK:         %[[A4:.*]] = "linalg.pack"(%[[COLS]], %{{.*}}, %[[ZERO]]) <{inner_dims_pos = array<i64: 1, 0>, operandSegmentSizes = array<i32: 1, 1, 1, 0>, outer_dims_perm = array<i64: 1, 0>, static_inner_tiles = array<i64: 8, 2>}> : (tensor<1024x147xbf16>, tensor<19x512x8x2xbf16>, bf16) -> tensor<19x512x8x2xbf16>
// CHECK:         %[[B4:.*]] = "linalg.pack"(%[[GO]], %{{.*}}) <{inner_dims_pos = array<i64: 0, 1>, operandSegmentSizes = array<i32: 1, 1, 0, 0>, outer_dims_perm = array<i64: 0, 1>, static_inner_tiles = array<i64: 16, 2>}> : (tensor<16x1024xbf16>, tensor<1x512x16x2xbf16>) -> tensor<1x512x16x2xbf16>
// CHECK:         %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<19x1x8x16xf32>)
// CHECK:         %[[C4:.*]] = linalg.mmt4d ins(%[[A4]], %[[B4]] : tensor<19x512x8x2xbf16>, tensor<1x512x16x2xbf16>) outs(%[[ACC]] : tensor<19x1x8x16xf32>) -> tensor<19x1x8x16xf32>
// CHECK:         %[[C:.*]] = "linalg.unpack"(%[[C4]], %{{.*}}) <{inner_dims_pos = array<i64: 1, 0>, outer_dims_perm = array<i64: 1, 0>, static_inner_tiles = array<i64: 8, 16>}> : (tensor<19x1x8x16xf32>, tensor<16x147xf32>) -> tensor<16x147xf32>
// CHECK:         tensor.expand_shape %[[C]] {{\[\[}}0], [1, 2, 3]] output_shape [16, 3, 7, 7] : tensor<16x147xf32> into tensor<16x3x7x7xf32>
// CHECK-NOT:     linalg.matmul

// DECOMPOSED-LABEL: func.func @main(
// DECOMPOSED:         linalg.pack
// DECOMPOSED:         linalg.mmt4d
// DECOMPOSED:         linalg.unpack

// DEFAULT-LABEL: func.func @main(
// DEFAULT-NOT:   linalg.pack
// DEFAULT-NOT:   linalg.mmt4d
// DEFAULT:       linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x1024xbf16>, tensor<1024x147xbf16>) outs(%{{.*}} : tensor<16x147xf32>)
// DEFAULT-NOT:   linalg.unpack
func.func @main(%go: !torch.vtensor<[1,16,32,32],bf16>, %x: !torch.vtensor<[1,3,64,64],bf16>, %w: !torch.vtensor<[16,3,7,7],bf16>) -> (!torch.vtensor<[16,3,7,7],bf16>) {
  %int16 = torch.constant.int 16
  %l0 = torch.prim.ListConstruct %int16 : (!torch.int) -> !torch.list<int>
  %int2 = torch.constant.int 2
  %l2 = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %int3 = torch.constant.int 3
  %l4 = torch.prim.ListConstruct %int3, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l6 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l8 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %f, %t, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l6, %transposed, %l8, %int1, %mask : !torch.vtensor<[1,16,32,32],bf16>, !torch.vtensor<[1,3,64,64],bf16>, !torch.vtensor<[16,3,7,7],bf16>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.none, !torch.vtensor<[16,3,7,7],bf16>, !torch.none
  return %r#1 : !torch.vtensor<[16,3,7,7],bf16>
}

