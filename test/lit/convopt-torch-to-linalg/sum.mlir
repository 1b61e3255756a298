// convopt-torch-to-linalg lowers aten.sum.dim_IntList to one reduction
// linalg.generic (f16 summed in f32, truncated once); keepdim gives the
// reduced dims back as size-1 dims with one tensor.expand_shape.
// RUN: %convopt --pass-pipeline='builtin.module(func.func(convopt-torch-to-linalg, convopt-cleanup), convopt-finalize-boundary)' %s | FileCheck %s
// RUN: %convopt --pass-pipeline='builtin.module(func.func(convopt-torch-to-linalg, convopt-cleanup), convopt-finalize-boundary)' %s | %mlir-verify

// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG:   #[[KEPT:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
// CHECK-LABEL: func.func @sum_keepdim(
// CHECK-SAME:      %[[X:.*]]: tensor<2x3x4x5xf16>) -> tensor<1x3x1x5xf16>
// CHECK:       %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<3x5xf32>)
// CHECK:       %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[KEPT]]], iterator_types = ["reduction", "parallel", "reduction", "parallel"]} ins(%[[X]] : tensor<2x3x4x5xf16>) outs(%[[ACC]] : tensor<3x5xf32>)
// CHECK:         arith.extf %{{.*}} : f16 to f32
// CHECK:         arith.addf
// CHECK:       %[[NARROW:.*]] = linalg.generic
// CHECK:         arith.truncf %{{.*}} : f32 to f16
// CHECK:       %[[OUT:.*]] = tensor.expand_shape %[[NARROW]] {{\[}}[0, 1], [2, 3]] output_shape [1, 3, 1, 5] : tensor<3x5xf16> into tensor<1x3x1x5xf16>
// CHECK:       return %[[OUT]] : tensor<1x3x1x5xf16>
func.func @sum_keepdim(%arg0: !torch.vtensor<[2,3,4,5],f16>) -> !torch.vtensor<[1,3,1,5],f16> {
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %true = torch.constant.bool true
  %none = torch.constant.none
  %0 = torch.prim.ListConstruct %int0, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.sum.dim_IntList %arg0, %0, %true, %none : !torch.vtensor<[2,3,4,5],f16>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[1,3,1,5],f16>
  return %1 : !torch.vtensor<[1,3,1,5],f16>
}
