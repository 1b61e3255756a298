// The dense 3-D stride-1 grad_input as 2-D channels-last convolutions, one
// per batch element and depth tap (channels_last._depth_split), each over
// exactly the depth positions its tap reaches: the middle tap covers all 8
// and is the accumulator's init; the edge taps cover 7 (input depth 0..6 for
// output 1..7, and 1..7 for output 0..6), are computed alone and added into
// their slice.  No depth padding (only H and W are padded).
// RUN: %convopt --lower-conv-bwd %s | FileCheck %s
// RUN: %convopt --lower-conv-bwd --stats %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: %convopt --lower-conv-bwd %s | %mlir-verify

// STATS: grad_input: form=linalg.conv_2d_nhwc_hwcf ops=6 executed_macs=51904512 useful_macs=47669248 efficiency=0.918

// CHECK-LABEL: func.func @main(
// CHECK-NOT:   linalg.conv_3d
// CHECK:       %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1, 0] high[0, 0, 1, 1, 0]
// CHECK:       tensor.extract_slice %[[PAD]][0, 0, 0, 0, 0] [1, 8, 18, 18, 32]
// CHECK:       %[[MID:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<8x16x16x16xf32>
// CHECK:       tensor.extract_slice %[[PAD]][0, 0, 0, 0, 0] [1, 7, 18, 18, 32]
// CHECK:       %[[LOW:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<7x16x16x16xf32>
// CHECK:       %[[AT1:.*]] = tensor.extract_slice %[[MID]][1, 0, 0, 0] [7, 16, 16, 16]
// CHECK:       %[[ADD1:.*]] = linalg.generic {{.*}} ins(%[[LOW]] : tensor<7x16x16x16xf32>) outs(%[[AT1]] : tensor<7x16x16x16xf32>)
// CHECK:         arith.addf
// CHECK:       %[[ACC1:.*]] = tensor.insert_slice %[[ADD1]] into %[[MID]][1, 0, 0, 0] [7, 16, 16, 16]
// CHECK:       tensor.extract_slice %[[PAD]][0, 1, 0, 0, 0] [1, 7, 18, 18, 32]
// CHECK:       %[[HIGH:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<7x16x16x16xf32>
// CHECK:       tensor.insert_slice %{{.*}} into %[[ACC1]][0, 0, 0, 0] [7, 16, 16, 16]
// CHECK:       tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 0, 0, 0] [1, 8, 16, 16, 16]
// CHECK-COUNT-3: linalg.conv_2d_nhwc_hwcf
// CHECK:       tensor.insert_slice %{{.*}} into %{{.*}}[1, 0, 0, 0, 0] [1, 8, 16, 16, 16]
// CHECK:       %[[OUT:.*]] = linalg.transpose ins(%{{.*}} : tensor<2x8x16x16x16xf32>) outs(%{{.*}} : tensor<2x16x8x16x16xf32>) permutation = [0, 4, 1, 2, 3]
// CHECK:       return %[[OUT]]
func.func @main(%go: !torch.vtensor<[2,32,8,16,16],f32>, %x: !torch.vtensor<[2,16,8,16,16],f32>, %w: !torch.vtensor<[32,16,3,3,3],f32>) -> (!torch.vtensor<[2,16,8,16,16],f32>) {
  %int32 = torch.constant.int 32
  %l0 = torch.prim.ListConstruct %int32 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l2 = torch.prim.ListConstruct %int1, %int1, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %l4 = torch.prim.ListConstruct %int1, %int1, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1, %int1, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l6 = torch.prim.ListConstruct %int0, %int0, %int0 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %f, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[2,32,8,16,16],f32>, !torch.vtensor<[2,16,8,16,16],f32>, !torch.vtensor<[32,16,3,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,16,8,16,16],f32>, !torch.none, !torch.none
  return %r#0 : !torch.vtensor<[2,16,8,16,16],f32>
}
