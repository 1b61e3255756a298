// The im2col form's variants compete by the cost model (convopt/lowering/
// kernel/cost.py, matmul_forms.im2col_work): `pieces` (peeled: exact, but
// each piece is an im2col copy, a matmul (3.6 us each, fitted) and an
// insert into the result) or `padded` (one matmul over the zero-padded
// image).  ResNet-18's 4- and 9-piece weight kernels ran 1.1-4x faster
// padded (bench/forms.py, bench/results/costfit.txt); the fitted costs pick
// padded for all three kernels here:
//   small9: 3x3, padding 1 on 4x4, 16 channels: 2*16*16*10*10 = 51200 useful
//           multiply-adds; one padded im2col matmul (MAC efficiency 100/144);
//   small3: 3x1, padding (1, 0): padded (efficiency 0.833) rather than 3 pieces
//           (video_block's 3-piece kernels ran 1.05-1.23x faster peeled: a
//           measured miss of the model, bench/README.md "Cost model");
//   large9: 3x3, padding 1 on 8x8, 128 channels: 2*128*128*22*22 = 15.9M,
//           padded (efficiency 0.84; the 9 pieces' inserts copy the
//           128x128x3x3 result).
// The GPU profile (no matmul forms) and forced peel=always keep their forms.
// RUN: %convopt --lower-conv-bwd --stats %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: %convopt --lower-conv-bwd %s | FileCheck %s
// RUN: %convopt --lower-conv-bwd %s | %mlir-verify
// RUN: %convopt --pass-pipeline='builtin.module(func.func(convopt-decompose-conv-bwd{target=linalg lower=true peel=always},convopt-conv-bwd-to-linalg{peel=always},convopt-cleanup),convopt-finalize-boundary)' --stats %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALWAYS

// STATS: grad_weight: form=im2col ops=1 executed_macs=73728 useful_macs=51200 efficiency=0.694
// STATS: grad_weight: form=im2col ops=1 executed_macs=24576 useful_macs=20480 efficiency=0.833
// STATS: grad_weight: form=im2col ops=1 executed_macs=18874368 useful_macs=15859712 efficiency=0.840
// ALWAYS: grad_weight: form=im2col ops=9 {{.*}} efficiency=1.000

// CHECK-LABEL: func.func @small9(
// CHECK:         tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:         linalg.matmul
// CHECK-NOT:     linalg.matmul
// CHECK-LABEL: func.func @small3(
// CHECK:         linalg.matmul
// CHECK-NOT:     linalg.matmul
// CHECK-LABEL: func.func @large9(
// CHECK:         linalg.matmul
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
