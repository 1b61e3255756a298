// --device=gpu, grad_weight of a convolution padded by 4 on 5x5 with a 3x3
// kernel (grad_output 11x11): one linalg.generic over the zero-padded image,
// reducing only over the grad_output positions s = 2..8 that some tap reads
// in bounds (Strategy.HULL), not over all 11: 7x7x3x3 pairs for 5x5x3x3
// useful (efficiency 0.510; 11x11x3x3 padded: 0.207).  The image stays
// padded by (4, 4) as the forward pads it (symmetric_pad), sliced from 2.
// RUN: %convopt --lower-conv-bwd --device=gpu %s | FileCheck %s
// RUN: %convopt --lower-conv-bwd --device=gpu %s | %mlir-verify
// RUN: %convopt --lower-conv-bwd --device=gpu --stats %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// CHECK-LABEL: func.func @conv_bwd_2d_weight_overpadding4(
// CHECK:         %[[X:.*]] = tensor.pad %arg1 low[0, 0, 4, 4] high[0, 0, 4, 4]
// CHECK:         %[[DY:.*]] = tensor.extract_slice %arg0[0, 0, 2, 2] [2, 3, 7, 7] [1, 1, 1, 1] : tensor<2x3x11x11xf32> to tensor<2x3x7x7xf32>
// CHECK:         %[[IMG:.*]] = tensor.extract_slice %[[X]][0, 0, 2, 2] [2, 2, 9, 9] [1, 1, 1, 1] : tensor<2x2x13x13xf32> to tensor<2x2x9x9xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[IMG]], %[[DY]] : tensor<2x2x9x9xf32>, tensor<2x3x7x7xf32>) outs(%{{.*}} : tensor<3x2x3x3xf32>)
// CHECK-NOT:     linalg.generic
// STATS: grad_weight: form=generic ops=1 executed_macs=5292 useful_macs=2700 efficiency=0.510
func.func @conv_bwd_2d_weight_overpadding4(%go: !torch.vtensor<[2,3,11,11],f32>, %x: !torch.vtensor<[2,2,5,5],f32>, %w: !torch.vtensor<[3,2,3,3],f32>) -> (!torch.vtensor<[3,2,3,3],f32>) {
  %int3 = torch.constant.int 3
  %l0 = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l2 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int4 = torch.constant.int 4
  %l4 = torch.prim.ListConstruct %int4, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
  %l6 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l7 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %f, %t, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l6, %transposed, %l7, %int1, %mask : !torch.vtensor<[2,3,11,11],f32>, !torch.vtensor<[2,2,5,5],f32>, !torch.vtensor<[3,2,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.none, !torch.vtensor<[3,2,3,3],f32>, !torch.none
  return %r#1 : !torch.vtensor<[3,2,3,3],f32>
}

