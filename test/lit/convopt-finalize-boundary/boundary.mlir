// The function boundary: builtin types when everything lowers; torch types
// and torch_c casts when a torch op remains or with --torch-boundary.
// RUN: %convopt --lower-conv-bwd --split-input-file %s | FileCheck %s
// RUN: %convopt --lower-conv-bwd --split-input-file %s | %mlir-verify --split-input-file
// RUN: %convopt --lower-conv-bwd --torch-boundary --split-input-file %s | FileCheck %s --check-prefix=TORCH
// RUN: %convopt --lower-conv-bwd --torch-boundary --split-input-file %s | %mlir-verify --split-input-file

// Everything lowers: builtin signature, no torch op, no cast, no dead constant.
// CHECK-LABEL: func.func @all_lowered(
// CHECK-SAME:      %arg0: tensor<1x2x4xf32>, %arg1: tensor<1x2x4xf32>, %arg2: tensor<2x2x1xf32>) -> tensor<2x2x1xf32>
// CHECK-NOT:   torch
// CHECK:       return
// TORCH-LABEL: func.func @all_lowered(
// TORCH-SAME:      %arg0: !torch.vtensor<[1,2,4],f32>, %arg1: !torch.vtensor<[1,2,4],f32>, %arg2: !torch.vtensor<[2,2,1],f32>) -> !torch.vtensor<[2,2,1],f32>
// TORCH-DAG:   torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[1,2,4],f32> -> tensor<1x2x4xf32>
// TORCH-DAG:   torch_c.to_builtin_tensor %arg1 : !torch.vtensor<[1,2,4],f32> -> tensor<1x2x4xf32>
// TORCH-NOT:   torch.constant
// TORCH:       %[[R:.*]] = torch_c.from_builtin_tensor %{{.*}} : tensor<2x2x1xf32> -> !torch.vtensor<[2,2,1],f32>
// TORCH:       return %[[R]] : !torch.vtensor<[2,2,1],f32>
func.func @all_lowered(%go: !torch.vtensor<[1,2,4],f32>, %x: !torch.vtensor<[1,2,4],f32>, %w: !torch.vtensor<[2,2,1],f32>) -> !torch.vtensor<[2,2,1],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %zeros = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %ones = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %false, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %ones, %zeros, %ones, %false, %zeros, %int1, %mask : !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[2,2,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.none, !torch.vtensor<[2,2,1],f32>, !torch.none
  return %r#1 : !torch.vtensor<[2,2,1],f32>
}

// -----

// A torch op that convopt does not lower stays, so the function keeps torch
// types and the lowered gradient comes back through torch_c.
// CHECK-LABEL: func.func @mixed(
// CHECK-SAME:      %arg0: !torch.vtensor<[1,2,4],f32>, %arg1: !torch.vtensor<[1,2,4],f32>, %arg2: !torch.vtensor<[2,2,1],f32>) -> !torch.vtensor<[2,2,1],f32>
// CHECK:       %[[G:.*]] = torch_c.from_builtin_tensor %{{.*}} : tensor<2x2x1xf32> -> !torch.vtensor<[2,2,1],f32>
// CHECK:       %[[S:.*]] = torch.aten.mul.Scalar %[[G]], %{{.*}} : !torch.vtensor<[2,2,1],f32>, !torch.float -> !torch.vtensor<[2,2,1],f32>
// CHECK:       return %[[S]]
// CHECK-NOT:   torch.aten.convolution_backward
func.func @mixed(%go: !torch.vtensor<[1,2,4],f32>, %x: !torch.vtensor<[1,2,4],f32>, %w: !torch.vtensor<[2,2,1],f32>) -> !torch.vtensor<[2,2,1],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %zeros = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %ones = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %false, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %ones, %zeros, %ones, %false, %zeros, %int1, %mask : !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[2,2,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.none, !torch.vtensor<[2,2,1],f32>, !torch.none
  %half = torch.constant.float 5.000000e-01
  %s = torch.aten.mul.Scalar %r#1, %half : !torch.vtensor<[2,2,1],f32>, !torch.float -> !torch.vtensor<[2,2,1],f32>
  return %s : !torch.vtensor<[2,2,1],f32>
}
