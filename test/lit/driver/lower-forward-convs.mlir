// --lower-forward-convs: the graph's own aten.convolution goes through
// convopt's forms too (convopt-torch-to-linalg after the kernel passes, with
// the same kernel options: here im2col); without it the forward convolution
// is left to the backend (it stays a torch op).  Usage: --lower-conv-bwd only.
// RUN: %convopt %s --lower-conv-bwd --lower-forward-convs --conv-form=im2col | FileCheck %s
// RUN: %convopt %s --lower-conv-bwd --lower-forward-convs --conv-form=im2col | %mlir-verify
// RUN: %convopt %s --lower-conv-bwd --lower-forward-convs --conv-form=im2col --stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: %convopt %s --lower-conv-bwd | FileCheck %s --check-prefix=KEPT
// RUN: not %convopt %s --decompose-conv-bwd --lower-forward-convs 2>&1 | FileCheck %s --check-prefix=USAGE

// CHECK-LABEL: func.func @step(
// CHECK-SAME:      %arg0: tensor<2x4x8x8xf32>, %arg1: tensor<6x4x3x3xf32>, %arg2: tensor<2x6x8x8xf32>)
// CHECK-NOT:     torch.
// CHECK:         linalg.matmul
// CHECK-NOT:     torch.
// CHECK:         return

// STATS-DAG: lower-forward-convs.mlir:37:{{[0-9]+}}: torch.aten.convolution_backward grad_input: form=im2col
// STATS-DAG: lower-forward-convs.mlir:37:{{[0-9]+}}: torch.aten.convolution_backward grad_weight: form=im2col
// STATS-DAG: lower-forward-convs.mlir:35:{{[0-9]+}}: torch.aten.convolution (gather): form=im2col

// KEPT: torch.aten.convolution {{.*}} -> !torch.vtensor<[2,6,8,8],f32>
// KEPT-NOT: torch.aten.convolution_backward

// USAGE: error: --lower-forward-convs applies to --lower-conv-bwd

func.func @step(%x: !torch.vtensor<[2,4,8,8],f32>, %w: !torch.vtensor<[6,4,3,3],f32>, %go: !torch.vtensor<[2,6,8,8],f32>) -> (!torch.vtensor<[2,6,8,8],f32>, !torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[6,4,3,3],f32>) {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %ones = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %zeros = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %y = torch.aten.convolution %x, %w, %none, %ones, %ones, %ones, %false, %zeros, %int1 : !torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[6,4,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[2,6,8,8],f32>
  %mask = torch.prim.ListConstruct %true, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %gi, %gw, %gb = torch.aten.convolution_backward %go, %x, %w, %none, %ones, %ones, %ones, %false, %zeros, %int1, %mask : !torch.vtensor<[2,6,8,8],f32>, !torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[6,4,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[6,4,3,3],f32>, !torch.none
  return %y, %gi, %gw : !torch.vtensor<[2,6,8,8],f32>, !torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[6,4,3,3],f32>
}
