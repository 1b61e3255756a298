// With the gpu device class, convopt-torch-to-linalg lowers
// aten.max_pool2d_with_indices_backward (static, dilation 1, no ceil_mode)
// to one gathering linalg.generic over the input positions and the
// ceil(K/S) x ceil(K/S) windows that cover each (IREE's own scatter fails
// its GPU builds at --iree-opt-level=O3: test/gpu/repro/maxpool_bwd_o3.mlir).
// The CPU classes leave it to the backend, as does the gpu class for a
// ceil_mode pool.
// RUN: %convopt --pass-pipeline='builtin.module(func.func(convopt-torch-to-linalg{device=gpu}, convopt-cleanup), convopt-finalize-boundary)' %s | FileCheck %s
// RUN: %convopt --pass-pipeline='builtin.module(func.func(convopt-torch-to-linalg{device=gpu}, convopt-cleanup), convopt-finalize-boundary)' %s | %mlir-verify
// RUN: %convopt --pass-pipeline='builtin.module(func.func(convopt-torch-to-linalg, convopt-cleanup), convopt-finalize-boundary)' %s | FileCheck %s --check-prefix=CPU

// CHECK-DAG:   #[[WIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @stem(
// CHECK-SAME:      %[[G:.*]]: tensor<2x4x8x8xf32>, %{{.*}}: tensor<2x4x16x16xf32>, %[[I:.*]]: tensor<2x4x8x8xi64>) -> tensor<2x4x16x16xf32>
// CHECK:       %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x4x16x16xf32>)
// CHECK:       %[[WINDOWS:.*]] = tensor.empty() : tensor<2x2xf32>
// CHECK:       linalg.generic {indexing_maps = [#[[WIN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[WINDOWS]] : tensor<2x2xf32>) outs(%[[ZERO]] : tensor<2x4x16x16xf32>)
// CHECK:         tensor.extract %[[G]][
// CHECK:         tensor.extract %[[I]][
// CHECK:         arith.cmpi eq, %{{.*}}, %{{.*}} : i64
// CHECK:         arith.select
// CHECK:         arith.addf
// CHECK-LABEL: func.func @ceil_mode(
// CHECK:       torch.aten.max_pool2d_with_indices_backward
// CPU-LABEL:   func.func @stem(
// CPU:         torch.aten.max_pool2d_with_indices_backward
// CPU-NOT:     linalg.generic
func.func @stem(%g: !torch.vtensor<[2,4,8,8],f32>, %x: !torch.vtensor<[2,4,16,16],f32>, %idx: !torch.vtensor<[2,4,8,8],si64>) -> !torch.vtensor<[2,4,16,16],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %false = torch.constant.bool false
  %k = torch.prim.ListConstruct %int3, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %r = torch.aten.max_pool2d_with_indices_backward %g, %x, %k, %s, %p, %d, %false, %idx : !torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[2,4,16,16],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.vtensor<[2,4,8,8],si64> -> !torch.vtensor<[2,4,16,16],f32>
  return %r : !torch.vtensor<[2,4,16,16],f32>
}

func.func @ceil_mode(%g: !torch.vtensor<[2,4,9,9],f32>, %x: !torch.vtensor<[2,4,16,16],f32>, %idx: !torch.vtensor<[2,4,9,9],si64>) -> !torch.vtensor<[2,4,16,16],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %true = torch.constant.bool true
  %k = torch.prim.ListConstruct %int3, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %r = torch.aten.max_pool2d_with_indices_backward %g, %x, %k, %s, %p, %d, %true, %idx : !torch.vtensor<[2,4,9,9],f32>, !torch.vtensor<[2,4,16,16],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.vtensor<[2,4,9,9],si64> -> !torch.vtensor<[2,4,16,16],f32>
  return %r : !torch.vtensor<[2,4,16,16],f32>
}
