// The im2col form peels a small kernel (under the CPU profiles'
// im2col_peel_min_macs, 2^20 multiply-adds) only into at most 3 pieces
// (matmul_forms.unpeeled_if_small): each piece is an im2col copy and a
// matmul of its own, and ResNet-18's 4- and 9-piece weight kernels ran
// 1.1-1.8x faster zero-padded (bench/forms.py; kernel/device.py).
//   small9: 3x3, padding 1 on 4x4, 16 channels: 2*16*16*10*10 = 51200 useful
//           multiply-adds; 9 pieces if peeled -> one padded im2col matmul
//           (MAC efficiency 100/144);
//   small3: 3x1, padding (1, 0): 3 pieces -> stays peeled (exact);
//   large9: 3x3, padding 1 on 8x8, 128 channels: 2*128*128*22*22 = 15.9M
//           -> peeled into 9 (exact).
// The GPU profile (no matmul forms) and forced peel=always keep their forms.
// RUN: %convopt --lower-conv-bwd --stats %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: %convopt --lower-conv-bwd %s | FileCheck %s
// RUN: %convopt --lower-conv-bwd %s | %mlir-verify
// RUN: %convopt --pass-pipeline='builtin.module(func.func(convopt-decompose-conv-bwd{target=linalg lower=true peel=always},convopt-conv-bwd-to-linalg{peel=always},convopt-cleanup),convopt-finalize-boundary)' --stats %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALWAYS

// STATS: grad_weight: form=im2col ops=1 executed_macs=73728 useful_macs=51200 efficiency=0.694
// STATS: grad_weight: form=im2col ops=3 executed_macs={{[0-9]+}} useful_macs=[[U3:[0-9]+]] efficiency=1.000
// STATS: grad_weight: form=im2col ops=9 executed_macs=[[U9:[0-9]+]] useful_macs=[[U9]] efficiency=1.000
// ALWAYS: grad_weight: form=im2col ops=9 {{.*}} efficiency=1.000

// CHECK-LABEL: func.func @small9(
// CHECK:         tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:         linalg.matmul
// CHECK-NOT:     linalg.matmul
// CHECK-LABEL: func.func @small3(
// CHECK-COUNT-3: linalg.matmul
// CHECK-NOT:     linalg.matmul
// CHECK-LABEL: func.func @large9(
// CHECK-COUNT-9: linalg.matmul
// CHECK-NOT:     linalg.matmul

func.func @small9(%go: !torch.vtensor<[2,16,4,4],f32>, %x: !torch.vtensor<[2,16,4,4],f32>, %w: !torch.vtensor<[16,16,3,3],f32>) -> !torch.vtensor<[16,16,3,3],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %ph = torch.constant.int 1
  %pw = torch.constant.int 1
  %none = torch.constant.none
  %ones = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %pad = torch.prim.ListConstruct %ph, %pw : (!torch.int, !torch.int) -> !torch.list<int>
  %zeros = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %false, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %ones, %pad, %ones, %false, %zeros, %int1, %mask : !torch.vtensor<[2,16,4,4],f32>, !torch.vtensor<[2,16,4,4],f32>, !torch.vtensor<[16,16,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.none, !torch.vtensor<[16,16,3,3],f32>, !torch.none
  return %r#1 : !torch.vtensor<[16,16,3,3],f32>
}

func.func @small3(%go: !torch.vtensor<[2,16,4,4],f32>, %x: !torch.vtensor<[2,16,4,4],f32>, %w: !torch.vtensor<[16,16,3,1],f32>) -> !torch.vtensor<[16,16,3,1],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %ph = torch.constant.int 1
  %pw = torch.constant.int 0
  %none = torch.constant.none
  %ones = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %pad = torch.prim.ListConstruct %ph, %pw : (!torch.int, !torch.int) -> !torch.list<int>
  %zeros = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %false, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %ones, %pad, %ones, %false, %zeros, %int1, %mask : !torch.vtensor<[2,16,4,4],f32>, !torch.vtensor<[2,16,4,4],f32>, !torch.vtensor<[16,16,3,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.none, !torch.vtensor<[16,16,3,1],f32>, !torch.none
  return %r#1 : !torch.vtensor<[16,16,3,1],f32>
}

func.func @large9(%go: !torch.vtensor<[2,128,8,8],f32>, %x: !torch.vtensor<[2,128,8,8],f32>, %w: !torch.vtensor<[128,128,3,3],f32>) -> !torch.vtensor<[128,128,3,3],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %ph = torch.constant.int 1
  %pw = torch.constant.int 1
  %none = torch.constant.none
  %ones = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %pad = torch.prim.ListConstruct %ph, %pw : (!torch.int, !torch.int) -> !torch.list<int>
  %zeros = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %false, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %ones, %pad, %ones, %false, %zeros, %int1, %mask : !torch.vtensor<[2,128,8,8],f32>, !torch.vtensor<[2,128,8,8],f32>, !torch.vtensor<[128,128,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.none, !torch.vtensor<[128,128,3,3],f32>, !torch.none
  return %r#1 : !torch.vtensor<[128,128,3,3],f32>
}
