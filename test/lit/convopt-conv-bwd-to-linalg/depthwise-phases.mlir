// A strided depthwise grad_input in the channels-last form (stride 2, 3x3,
// padding 1): one stride-1 depthwise convolution per combination of output
// phases b mod 2 over its taps of the flipped weight (1x1, 1x2, 2x1, 2x2:
// a unit-tap dim as a 1-D convolution, folded into the batch or, its taps
// broadcast, into the channels), A zero-padded once, one op interleaving the
// four phases; no per-tap op, no insert.
// RUN: %convopt --lower-conv-bwd %s | FileCheck %s
// RUN: %convopt --lower-conv-bwd %s | %mlir-verify

// CHECK-LABEL: func.func @dw_phases(
// CHECK:         %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 1, 1, 0]
// CHECK:         %[[P11:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x8x8x8xf32>, tensor<1x1x8xf32>)
// CHECK:         %[[ROWS:.*]] = tensor.collapse_shape %[[PAD]] {{\[\[}}0, 1], [2], [3]] : tensor<4x9x9x8xf32> into tensor<36x9x8xf32>
// CHECK:         linalg.depthwise_conv_1d_nwc_wc {{.*}} ins(%[[ROWS]], %{{.*}} : tensor<36x9x8xf32>, tensor<2x8xf32>)
// CHECK:         %[[COLS:.*]] = tensor.collapse_shape %[[PAD]] {{\[\[}}0], [1], [2, 3]] : tensor<4x9x9x8xf32> into tensor<4x9x72xf32>
// CHECK:         linalg.depthwise_conv_1d_nwc_wc {{.*}} ins(%[[COLS]], %{{.*}} : tensor<4x9x72xf32>, tensor<2x72xf32>)
// CHECK:         %[[P22:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%[[PAD]], %{{.*}} : tensor<4x9x9x8xf32>, tensor<2x2x8xf32>)
// CHECK:         %[[MIX:.*]] = linalg.generic {{.*}} ins(%[[P11]], %{{.*}}, %{{.*}}, %[[P22]] : {{.*}}) outs(%{{.*}} : tensor<4x8x2x8x2x8xf32>)
// CHECK-COUNT-3:   arith.select
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %[[MIX]] {{\[\[}}0], [1, 2], [3, 4], [5]] : tensor<4x8x2x8x2x8xf32> into tensor<4x16x16x8xf32>
// CHECK:         %[[OUT:.*]] = linalg.transpose ins(%[[FLAT]] : tensor<4x16x16x8xf32>) {{.*}} permutation = [0, 3, 1, 2]
// CHECK-NOT:     tensor.insert_slice
// CHECK:         return %[[OUT]]
func.func @dw_phases(%go: !torch.vtensor<[4,8,8,8],f32>, %x: !torch.vtensor<[4,8,16,16],f32>, %w: !torch.vtensor<[8,1,3,3],f32>) -> !torch.vtensor<[4,8,16,16],f32> {
  %int8 = torch.constant.int 8
  %l0 = torch.prim.ListConstruct %int8 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %s = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %dl = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %op = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %true, %false, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %0:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %s, %p, %dl, %false, %op, %int8, %mask : !torch.vtensor<[4,8,8,8],f32>, !torch.vtensor<[4,8,16,16],f32>, !torch.vtensor<[8,1,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[4,8,16,16],f32>, !torch.none, !torch.none
  return %0#0 : !torch.vtensor<[4,8,16,16],f32>
}
