// A depthwise kernel of 5x5 and more has a `compact` variant in the generic
// form (generic_form.compact): one op per gradient over zero-padded operands
// (grad_input one gather over the flipped weight, one output phase at stride
// 1; grad_weight one reduction), against `pieces` (one op per tap, peeled
// pieces, each a dispatch and an insert); the cost model picks (cost.py).
// ConvNeXt's 7x7 depthwise on 8x8 ran as fast either way, with 449 -> 67
// IREE dispatches for its step (bench/README.md).
//   small7: 7x7, padding 3 on 8x8, 8 channels, batch 2: 2*8*44*44 = 30976
//           useful multiply-adds per gradient (44 of the 8*7 position x tap
//           pairs per dim are in bounds: efficiency (44/56)^2 = 0.617) ->
//           grad_input compact (and a flipped copy of the 8x7x7 weight),
//           grad_weight the channels-last depthwise convolution over the
//           same padded window (priced since 2026-12-05: convnext's 7x7
//           weight kernels ran fastest so, docs/decisions.md
//           channels_last_kernels); with 4
//           channels (15488, under cost.FITTED_MIN_MACS) it would stay
//           exact (cost.within_fit: no variant under 0.9 efficiency there);
//   dw3:    3x3 on 8x8: no compact variant, 9 taps stay exact;
//   large7: 7x7, padding 3 on 16x16, 16 channels: 2*16*100*100 = 320000
//           -> both gradients the channels-last named convolutions over the
//           padded window (efficiency 0.797; grad_input's flipped weight is
//           under 1% of the multiply-adds; 0.27x the time of the compact op).
// RUN: %convopt --lower-conv-bwd --stats %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: %convopt --lower-conv-bwd %s | FileCheck %s
// RUN: %convopt --lower-conv-bwd %s | %mlir-verify
// RUN: %convopt --lower-conv-bwd --device=gpu --stats %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPU

// STATS: grad_input: form=generic ops=1 executed_macs=50176 useful_macs=30976 efficiency=0.617
// STATS: grad_weight: form=linalg.depthwise_conv_2d_nhwc_hwc ops=1 executed_macs=50176 useful_macs=30976 efficiency=0.617
// STATS: grad_input: form=generic ops=9 {{.*}} efficiency=1.000
// STATS: grad_weight: form=generic ops=9 {{.*}} efficiency=1.000
// STATS: grad_input: form=linalg.depthwise_conv_2d_nhwc_hwc ops=1 executed_macs=401408 useful_macs=320000 efficiency=0.797
// STATS: grad_weight: form=linalg.depthwise_conv_2d_nhwc_hwc ops=1 executed_macs=401408 useful_macs=320000 efficiency=0.797
// GPU:   grad_input: form=generic ops=1

// CHECK-LABEL: func.func @small7(
// CHECK:         %[[GOP:.*]] = tensor.pad %arg0 low[0, 0, 3, 3] high[0, 0, 3, 3]
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[GOP]], %{{.*}} : tensor<2x8x14x14xf32>, tensor<8x7x7xf32>)
// CHECK:         linalg.depthwise_conv_2d_nhwc_hwc
// CHECK-LABEL: func.func @dw3(

func.func @small7(%go: !torch.vtensor<[2,8,8,8],f32>, %x: !torch.vtensor<[2,8,8,8],f32>, %w: !torch.vtensor<[8,1,7,7],f32>) -> (!torch.vtensor<[2,8,8,8],f32>, !torch.vtensor<[8,1,7,7],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %p = torch.constant.int 3
  %groups = torch.constant.int 8
  %none = torch.constant.none
  %ones = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %pad = torch.prim.ListConstruct %p, %p : (!torch.int, !torch.int) -> !torch.list<int>
  %zeros = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %true, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %ones, %pad, %ones, %false, %zeros, %groups, %mask : !torch.vtensor<[2,8,8,8],f32>, !torch.vtensor<[2,8,8,8],f32>, !torch.vtensor<[8,1,7,7],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,8,8,8],f32>, !torch.vtensor<[8,1,7,7],f32>, !torch.none
  return %r#0, %r#1 : !torch.vtensor<[2,8,8,8],f32>, !torch.vtensor<[8,1,7,7],f32>
}

func.func @dw3(%go: !torch.vtensor<[2,4,8,8],f32>, %x: !torch.vtensor<[2,4,8,8],f32>, %w: !torch.vtensor<[4,1,3,3],f32>) -> (!torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[4,1,3,3],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %p = torch.constant.int 1
  %groups = torch.constant.int 4
  %none = torch.constant.none
  %ones = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %pad = torch.prim.ListConstruct %p, %p : (!torch.int, !torch.int) -> !torch.list<int>
  %zeros = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %true, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %ones, %pad, %ones, %false, %zeros, %groups, %mask : !torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[4,1,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[4,1,3,3],f32>, !torch.none
  return %r#0, %r#1 : !torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[4,1,3,3],f32>
}

func.func @large7(%go: !torch.vtensor<[2,16,16,16],f32>, %x: !torch.vtensor<[2,16,16,16],f32>, %w: !torch.vtensor<[16,1,7,7],f32>) -> (!torch.vtensor<[2,16,16,16],f32>, !torch.vtensor<[16,1,7,7],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %p = torch.constant.int 3
  %groups = torch.constant.int 16
  %none = torch.constant.none
  %ones = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %pad = torch.prim.ListConstruct %p, %p : (!torch.int, !torch.int) -> !torch.list<int>
  %zeros = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %true, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %ones, %pad, %ones, %false, %zeros, %groups, %mask : !torch.vtensor<[2,16,16,16],f32>, !torch.vtensor<[2,16,16,16],f32>, !torch.vtensor<[16,1,7,7],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,16,16,16],f32>, !torch.vtensor<[16,1,7,7],f32>, !torch.none
  return %r#0, %r#1 : !torch.vtensor<[2,16,16,16],f32>, !torch.vtensor<[16,1,7,7],f32>
}
