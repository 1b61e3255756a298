// The channels-last forms (channels_last.py), chosen by --conv-form=auto
// for static shapes: a depthwise convolution (both gradients) and the
// stride-1 grad_input of a dense one become linalg's channels-last named
// convolutions, with transposes at the boundary.  grad_input reads a copy
// of the weight flipped along its kernel dims (K... values per channel
// pair, far below 1% of the multiply-adds); the flip's tensor.extract is
// in that copy, no convolution body gathers, and no map has a negative
// coefficient.
// RUN: %convopt --lower-conv-bwd --split-input-file %s | FileCheck %s
// RUN: %convopt --lower-conv-bwd --split-input-file %s | %mlir-verify --split-input-file

// Dense, stride 1: grad_input is conv_2d_nhwc_hwcf over the channels-last
// grad_output padded by K-1-P, with the flipped weight as [k..., f, c];
// grad_weight (590K multiply-adds, above the CPU classes' 2^14) is im2col + one matmul.
// CHECK-NOT:   - d{{[0-9]}}
// CHECK-LABEL: func.func @dense(
// CHECK:       %[[GOT:.*]] = linalg.transpose ins(%arg0 : tensor<2x16x16x16xf32>) outs(%{{.*}} : tensor<2x16x16x16xf32>) permutation = [0, 2, 3, 1]
// CHECK:       %[[FLIP:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<16x8x3x3xf32>)
// CHECK:         tensor.extract %arg2
// CHECK:       %[[WT:.*]] = linalg.transpose ins(%[[FLIP]] : tensor<16x8x3x3xf32>) outs(%{{.*}} : tensor<3x3x16x8xf32>) permutation = [2, 3, 0, 1]
// CHECK:       %[[PAD:.*]] = tensor.pad %[[GOT]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:       %[[GI:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%[[PAD]], %[[WT]] : tensor<2x18x18x16xf32>, tensor<3x3x16x8xf32>) outs(%{{.*}} : tensor<2x16x16x8xf32>)
// CHECK-NOT:     tensor.extract
// CHECK:       %[[GIN:.*]] = linalg.transpose ins(%[[GI]] : tensor<2x16x16x8xf32>) outs(%{{.*}} : tensor<2x8x16x16xf32>) permutation = [0, 3, 1, 2]
// CHECK:       %[[MM:.*]] = linalg.matmul
// CHECK:       %[[GW:.*]] = tensor.expand_shape %[[MM]]
// CHECK:       return %[[GIN]], %[[GW]]
func.func @dense(%go: !torch.vtensor<[2,16,16,16],f32>, %x: !torch.vtensor<[2,8,16,16],f32>, %w: !torch.vtensor<[16,8,3,3],f32>) -> (!torch.vtensor<[2,8,16,16],f32>, !torch.vtensor<[16,8,3,3],f32>) {
  %int16 = torch.constant.int 16
  %l0 = torch.prim.ListConstruct %int16 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l2 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l4 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l6 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[2,16,16,16],f32>, !torch.vtensor<[2,8,16,16],f32>, !torch.vtensor<[16,8,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,8,16,16],f32>, !torch.vtensor<[16,8,3,3],f32>, !torch.none
  return %r#0, %r#1 : !torch.vtensor<[2,8,16,16],f32>, !torch.vtensor<[16,8,3,3],f32>
}

// -----

// Depthwise: grad_input as depthwise_conv_2d_nhwc_hwc over the flipped
// weight; grad_weight as one depthwise convolution with the batch folded
// into the channels ([1, h, w, n*c], grad_output as its kernel), then the
// sum over n.
// CHECK-NOT:   - d{{[0-9]}}
// CHECK-LABEL: func.func @dw(
// CHECK:       %[[GI:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<2x18x18x16xf32>, tensor<3x3x16xf32>) outs(%{{.*}} : tensor<2x16x16x16xf32>)
// CHECK:       %[[GIN:.*]] = linalg.transpose ins(%[[GI]] : tensor<2x16x16x16xf32>) outs(%{{.*}} : tensor<2x16x16x16xf32>) permutation = [0, 3, 1, 2]
// CHECK:       %[[K:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : tensor<16x16x2x16xf32> into tensor<16x16x32xf32>
// CHECK:       %[[P:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%{{.*}}, %[[K]] : tensor<1x18x18x32xf32>, tensor<16x16x32xf32>) outs(%{{.*}} : tensor<1x3x3x32xf32>)
// CHECK:       %[[PN:.*]] = tensor.expand_shape %[[P]] {{\[}}[0], [1], [2], [3, 4]] output_shape [1, 3, 3, 2, 16]
// CHECK:       %[[GW:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "parallel", "reduction", "parallel"]} ins(%[[PN]] : tensor<1x3x3x2x16xf32>) outs(%{{.*}} : tensor<16x3x3xf32>)
// CHECK:       %[[GWE:.*]] = tensor.expand_shape %[[GW]] {{\[}}[0, 1], [2], [3]] output_shape [16, 1, 3, 3]
// CHECK:       return %[[GIN]], %[[GWE]]
func.func @dw(%go: !torch.vtensor<[2,16,16,16],f32>, %x: !torch.vtensor<[2,16,16,16],f32>, %w: !torch.vtensor<[16,1,3,3],f32>) -> (!torch.vtensor<[2,16,16,16],f32>, !torch.vtensor<[16,1,3,3],f32>) {
  %int16 = torch.constant.int 16
  %l0 = torch.prim.ListConstruct %int16 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l2 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l4 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l6 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l5, %transposed, %l6, %int16, %mask : !torch.vtensor<[2,16,16,16],f32>, !torch.vtensor<[2,16,16,16],f32>, !torch.vtensor<[16,1,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,16,16,16],f32>, !torch.vtensor<[16,1,3,3],f32>, !torch.none
  return %r#0, %r#1 : !torch.vtensor<[2,16,16,16],f32>, !torch.vtensor<[16,1,3,3],f32>
}

// -----

// Dense, stride 1, but 12 output channels (Cin): over 8 and not a multiple
// of 8, IREE's conv_2d_nhwc_hwcf ran 4.5-9.5x slower than im2col
// (channels_last.DENSE_LANES), so auto takes col2im: one matmul.
// CHECK-LABEL: func.func @dense_ragged(
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf
// CHECK:         linalg.matmul
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf
// CHECK:         return
func.func @dense_ragged(%go: !torch.vtensor<[2,16,16,16],f32>, %x: !torch.vtensor<[2,12,16,16],f32>, %w: !torch.vtensor<[16,12,3,3],f32>) -> !torch.vtensor<[2,12,16,16],f32> {
  %int16 = torch.constant.int 16
  %l0 = torch.prim.ListConstruct %int16 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l2 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l6 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %f, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l2, %l2, %transposed, %l6, %int1, %mask : !torch.vtensor<[2,16,16,16],f32>, !torch.vtensor<[2,12,16,16],f32>, !torch.vtensor<[16,12,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,12,16,16],f32>, !torch.none, !torch.none
  return %r#0 : !torch.vtensor<[2,12,16,16],f32>
}
