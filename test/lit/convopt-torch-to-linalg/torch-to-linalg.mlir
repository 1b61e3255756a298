// convopt-torch-to-linalg lowers what the decomposition emits: convolutions
// (a slice that is the only user of a convolution is folded into it: the
// 4th tap of the grad_weight convolution is never computed), permutes,
// and leaves no torch op behind.
// RUN: %convopt --pass-pipeline='builtin.module(func.func(convopt-torch-to-linalg, convopt-cleanup), convopt-finalize-boundary)' %s | FileCheck %s
// RUN: %convopt --pass-pipeline='builtin.module(func.func(convopt-torch-to-linalg, convopt-cleanup), convopt-finalize-boundary)' %s | %mlir-verify

// CHECK-DAG:   #[[STRIDED:.*]] = affine_map<(d0, d1, d2, d3) -> (d2, d1 * 2 + d3)>
// CHECK-DAG:   #[[DILATED:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2 + d3 * 2)>
// CHECK-LABEL: func.func @transposed_outpad_decomposed(
// CHECK-SAME:      %arg0: tensor<1x3x8xf32>, %arg1: tensor<1x2x4xf32>, %arg2: tensor<2x3x3xf32>) -> (tensor<1x2x4xf32>, tensor<2x3x3xf32>)
// CHECK-NOT:   torch.
// CHECK-NOT:   tensor<3x2x4xf32>
// CHECK:       linalg.generic {indexing_maps = [#[[STRIDED]],
// CHECK:       %[[XT:.*]] = linalg.transpose ins(%arg0 : tensor<1x3x8xf32>) outs(%{{.*}} : tensor<3x1x8xf32>) permutation = [1, 0, 2]
// CHECK:       %[[GT:.*]] = linalg.transpose ins(%arg1 : tensor<1x2x4xf32>) outs(%{{.*}} : tensor<2x1x4xf32>) permutation = [1, 0, 2]
// CHECK:       linalg.generic {indexing_maps = [#[[DILATED]],
// CHECK:       tensor.empty() : tensor<2x3x3xf32>
// CHECK:       %[[GW:.*]] = linalg.transpose ins(%{{.*}} : tensor<3x2x3xf32>) outs(%{{.*}} : tensor<2x3x3xf32>) permutation = [1, 0, 2]
// CHECK:       return %{{.*}}, %[[GW]] : tensor<1x2x4xf32>, tensor<2x3x3xf32>
func.func @transposed_outpad_decomposed(%arg0: !torch.vtensor<[1,3,8],f32>, %arg1: !torch.vtensor<[1,2,4],f32>, %arg2: !torch.vtensor<[2,3,3],f32>) -> (!torch.vtensor<[1,2,4],f32>, !torch.vtensor<[2,3,3],f32>) {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %0 = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %1 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %2 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %int0 = torch.constant.int 0
  %3 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %4 = torch.aten.convolution %arg0, %arg2, %none, %0, %1, %2, %false, %3, %int1 : !torch.vtensor<[1,3,8],f32>, !torch.vtensor<[2,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,2,4],f32>
  %5 = torch.prim.ListConstruct %int1, %int0, %int2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %6 = torch.aten.permute %arg0, %5 : !torch.vtensor<[1,3,8],f32>, !torch.list<int> -> !torch.vtensor<[3,1,8],f32>
  %7 = torch.prim.ListConstruct %int1, %int0, %int2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %8 = torch.aten.permute %arg1, %7 : !torch.vtensor<[1,2,4],f32>, !torch.list<int> -> !torch.vtensor<[2,1,4],f32>
  %none_0 = torch.constant.none
  %9 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %10 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %11 = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %12 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %13 = torch.aten.convolution %6, %8, %none_0, %9, %10, %11, %false, %12, %int1 : !torch.vtensor<[3,1,8],f32>, !torch.vtensor<[2,1,4],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[3,2,4],f32>
  %int3 = torch.constant.int 3
  %14 = torch.aten.slice.Tensor %13, %int2, %int0, %int3, %int1 : !torch.vtensor<[3,2,4],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[3,2,3],f32>
  %15 = torch.prim.ListConstruct %int1, %int0, %int2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %16 = torch.aten.permute %14, %15 : !torch.vtensor<[3,2,3],f32>, !torch.list<int> -> !torch.vtensor<[2,3,3],f32>
  return %4, %16 : !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[2,3,3],f32>
}
