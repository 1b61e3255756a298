// Direct lowering of a strided convolution_backward: grad_input is one op per
// kernel tap; the taps of one phase of the output (odd or even positions)
// add up in a dense tensor, which is written into grad_input with stride 2
// at the end (no zero insertion into grad_output, no flipped copy of the
// weight, no tensor.extract); grad_weight reads the input through a strided map.
// RUN: %convopt --lower-conv-bwd %s | FileCheck %s
// RUN: %convopt --lower-conv-bwd %s | %mlir-verify

// CHECK-DAG: #[[TAP_GO:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[TAP_W:.*]] = affine_map<(d0, d1, d2) -> (d2, d0, 0)>
// CHECK-DAG: #[[TAP_OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[GW_X:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d2 + d3 * 2)>
// CHECK-LABEL: func.func @conv_bwd_1d_stride2(
// CHECK-SAME:      %[[GO:.*]]: tensor<1x4x8xf32>, %[[X:.*]]: tensor<1x2x16xf32>, %[[W:.*]]: tensor<4x2x3xf32>) -> (tensor<1x2x16xf32>, tensor<4x2x3xf32>)
// CHECK-NOT:   tensor.extract %
// CHECK:       %[[GO2:.*]] = tensor.collapse_shape %[[GO]] {{\[}}[0, 1], [2]] : tensor<1x4x8xf32> into tensor<4x8xf32>
// Tap 0 reaches the odd positions 1, 3, ..., 13 from grad_output[1:8] ...
// CHECK:       %[[A0:.*]] = tensor.extract_slice %[[GO2]][0, 1] [4, 7] [1, 1]
// CHECK:       %[[W0:.*]] = tensor.extract_slice %[[W]][0, 0, 0] [4, 2, 1] [1, 1, 1]
// CHECK:       %[[ODD:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x8xf32>)
// CHECK:       %[[O0:.*]] = tensor.extract_slice %[[ODD]][0, 0] [2, 7] [1, 1]
// CHECK:       %[[T0:.*]] = linalg.generic {indexing_maps = [#[[TAP_GO]], #[[TAP_W]], #[[TAP_OUT]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[A0]], %[[W0]] : tensor<4x7xf32>, tensor<4x2x1xf32>) outs(%[[O0]] : tensor<2x7xf32>)
// CHECK:       %[[ODD0:.*]] = tensor.insert_slice %[[T0]] into %[[ODD]][0, 0] [2, 7] [1, 1]
// ... tap 1 alone reaches the even positions 0, 2, ..., 14 ...
// CHECK:       %[[W1:.*]] = tensor.extract_slice %[[W]][0, 0, 1] [4, 2, 1] [1, 1, 1]
// CHECK:       %[[EVEN:.*]] = linalg.generic {{.*}} ins(%[[GO2]], %[[W1]] : tensor<4x8xf32>, tensor<4x2x1xf32>) outs(%{{.*}} : tensor<2x8xf32>)
// ... and tap 2 adds the odd positions 1, 3, ..., 15.
// CHECK:       %[[W2:.*]] = tensor.extract_slice %[[W]][0, 0, 2] [4, 2, 1] [1, 1, 1]
// CHECK:       %[[ODD1:.*]] = linalg.generic {{.*}} ins(%[[GO2]], %[[W2]] : tensor<4x8xf32>, tensor<4x2x1xf32>) outs(%[[ODD0]] : tensor<2x8xf32>)
// The phases interleave into grad_input.
// CHECK:       %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x16xf32>)
// CHECK:       %[[I1:.*]] = tensor.insert_slice %[[ODD1]] into %[[Z]][0, 1] [2, 8] [1, 2]
// CHECK:       %[[GI:.*]] = tensor.insert_slice %[[EVEN]] into %[[I1]][0, 0] [2, 8] [1, 2]
// CHECK:       %[[GI4:.*]] = tensor.expand_shape %[[GI]] {{\[}}[0, 1], [2]] output_shape [1, 2, 16]
// grad_weight[f, c, k] = sum_s go[f, s] * x[c, 2*s + k - 1], x zero-padded by one on the left.
// CHECK:       %[[XP:.*]] = tensor.pad %{{.*}} low[0, 1] high[0, 0]
// CHECK:       %[[GW:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[GW_X]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[GO2]], %[[XP]] : tensor<4x8xf32>, tensor<2x17xf32>)
// CHECK:       return %[[GI4]], %[[GW]] : tensor<1x2x16xf32>, tensor<4x2x3xf32>
func.func @conv_bwd_1d_stride2(%go: !torch.vtensor<[1,4,8],f32>, %x: !torch.vtensor<[1,2,16],f32>, %w: !torch.vtensor<[4,2,3],f32>) -> (!torch.vtensor<[1,2,16],f32>, !torch.vtensor<[4,2,3],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %stride = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %pad = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %dil = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %outpad = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %true, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %stride, %pad, %dil, %false, %outpad, %int1, %mask : !torch.vtensor<[1,4,8],f32>, !torch.vtensor<[1,2,16],f32>, !torch.vtensor<[4,2,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,2,16],f32>, !torch.vtensor<[4,2,3],f32>, !torch.none
  return %r#0, %r#1 : !torch.vtensor<[1,2,16],f32>, !torch.vtensor<[4,2,3],f32>
}
