// A torch size written -1 is unknown, as torch-mlir reads it (and prints it:
// `?`): dynamic_batch.mlir's batch as -1 (fuzz-text seed 1 #2682) was a
// static -1, every form's work negative, and registry.cheapest died on an
// empty min().  It lowers as `?` does.
// RUN: %convopt %s | FileCheck %s --check-prefix=ROUND
// RUN: %convopt --lower-conv-bwd --target=rocmlir %s | FileCheck %s
// RUN: %convopt --lower-conv-bwd --target=rocmlir %s | %mlir-verify

// ROUND: func.func @main(%arg0: !torch.vtensor<[?,4,8,8],f32>, %arg1: !torch.vtensor<[8,4,3,3],f32>, %arg2: !torch.vtensor<[8],f32>, %arg3: !torch.vtensor<[?,8,8,8],f32>) -> (!torch.vtensor<[?,4,8,8],f32>, !torch.vtensor<[8,4,3,3],f32>, !torch.vtensor<[8],f32>)
// ROUND-NOT: -1
// CHECK: func.func @main(%arg0: tensor<?x4x8x8xf32>, %arg1: tensor<8x4x3x3xf32>, %arg2: tensor<8xf32>, %arg3: tensor<?x8x8x8xf32>) -> (tensor<?x4x8x8xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>)
// CHECK-NOT: torch.aten.convolution_backward
func.func @main(%arg0: !torch.vtensor<[-1,4,8,8],f32>, %arg1: !torch.vtensor<[8,4,3,3],f32>, %arg2: !torch.vtensor<[8],f32>, %arg3: !torch.vtensor<[-1,8,8,8],f32>) -> (!torch.vtensor<[-1,4,8,8],f32>, !torch.vtensor<[8,4,3,3],f32>, !torch.vtensor<[8],f32>) {
  %int8 = torch.constant.int 8
  %1 = torch.prim.ListConstruct %int8 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %int1_0 = torch.constant.int 1
  %2 = torch.prim.ListConstruct %int1, %int1_0 : (!torch.int, !torch.int) -> !torch.list<int>
  %int1_1 = torch.constant.int 1
  %int1_2 = torch.constant.int 1
  %3 = torch.prim.ListConstruct %int1_1, %int1_2 : (!torch.int, !torch.int) -> !torch.list<int>
  %int1_3 = torch.constant.int 1
  %int1_4 = torch.constant.int 1
  %4 = torch.prim.ListConstruct %int1_3, %int1_4 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %int0 = torch.constant.int 0
  %int0_5 = torch.constant.int 0
  %5 = torch.prim.ListConstruct %int0, %int0_5 : (!torch.int, !torch.int) -> !torch.list<int>
  %int1_6 = torch.constant.int 1
  %true = torch.constant.bool true
  %true_7 = torch.constant.bool true
  %true_8 = torch.constant.bool true
  %6 = torch.prim.ListConstruct %true, %true_7, %true_8 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %result0, %result1, %result2 = torch.aten.convolution_backward %arg3, %arg0, %arg1, %1, %2, %3, %4, %false, %5, %int1_6, %6 : !torch.vtensor<[-1,8,8,8],f32>, !torch.vtensor<[-1,4,8,8],f32>, !torch.vtensor<[8,4,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[-1,4,8,8],f32>, !torch.vtensor<[8,4,3,3],f32>, !torch.vtensor<[8],f32>
  return %result0, %result1, %result2 : !torch.vtensor<[-1,4,8,8],f32>, !torch.vtensor<[8,4,3,3],f32>, !torch.vtensor<[8],f32>
}
