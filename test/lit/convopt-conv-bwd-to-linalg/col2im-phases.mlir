// col2im of a strided scatter (--conv-form=im2col, stride 2, 3x3, padding 1):
// the taps of each output phase (b + P) mod 2 are summed by one elementwise
// op over shifted slices of the zero-padded columns (4, 2, 2 and 1 taps),
// and one op interleaves the four phases; no add and no strided insert per tap;
// with a dynamic batch too.
// RUN: %convopt --lower-conv-bwd --conv-form=im2col %s | FileCheck %s
// RUN: %convopt --lower-conv-bwd --conv-form=im2col %s | %mlir-verify

// CHECK-LABEL: func.func @col2im_stride2(
// CHECK:         %[[COLS:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<72x16xf32>, tensor<16x32xf32>)
// CHECK:         %[[CP:.*]] = tensor.pad %{{.*}} low[0, 0, 0, 0, 1, 1] high[0, 0, 0, 0, 1, 1]
// CHECK:         %[[P0:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<8x2x5x5xf32>, tensor<8x2x5x5xf32>, tensor<8x2x5x5xf32>, tensor<8x2x5x5xf32>) outs(%{{.*}} : tensor<2x8x5x5xf32>)
// CHECK:         %[[P1:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x2x5x5xf32>, tensor<8x2x5x5xf32>) outs(%{{.*}} : tensor<2x8x5x5xf32>)
// CHECK:         %[[P2:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x2x5x5xf32>, tensor<8x2x5x5xf32>) outs(%{{.*}} : tensor<2x8x5x5xf32>)
// CHECK:         %[[P3:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<8x2x5x5xf32>) outs(%{{.*}} : tensor<2x8x5x5xf32>)
// CHECK:         %[[MIX:.*]] = linalg.generic {{.*}} ins(%[[P0]], %[[P1]], %[[P2]], %[[P3]] : {{.*}}) outs(%{{.*}} : tensor<2x8x5x2x5x2xf32>)
// CHECK-COUNT-3:   arith.select
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %[[MIX]] {{\[\[}}0], [1], [2, 3], [4, 5]] : tensor<2x8x5x2x5x2xf32> into tensor<2x8x10x10xf32>
// CHECK:         %[[OUT:.*]] = tensor.extract_slice %[[FLAT]][0, 0, 1, 1] [2, 8, 8, 8] [1, 1, 1, 1]
// CHECK-NOT:     tensor.insert_slice
// CHECK:         return %[[OUT]]
func.func @col2im_stride2(%go: !torch.vtensor<[2,16,4,4],f32>, %x: !torch.vtensor<[2,8,8,8],f32>, %w: !torch.vtensor<[16,8,3,3],f32>) -> !torch.vtensor<[2,8,8,8],f32> {
  %int16 = torch.constant.int 16
  %l0 = torch.prim.ListConstruct %int16 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %l2 = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %l4 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l6 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %f, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[2,16,4,4],f32>, !torch.vtensor<[2,8,8,8],f32>, !torch.vtensor<[16,8,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,8,8,8],f32>, !torch.none, !torch.none
  return %r#0 : !torch.vtensor<[2,8,8,8],f32>
}

// A dynamic batch takes the same form: the phase sums and the interleave keep
// the batch as a dynamic dim (the spatial dims are static).
// CHECK-LABEL: func.func @col2im_stride2_dynamic_batch(
// CHECK:         tensor.pad %{{.*}} low[0, 0, 0, 0, 1, 1] high[0, 0, 0, 0, 1, 1]
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<?x8x5x5xf32>)
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<?x8x5x2x5x2xf32>)
// CHECK-NOT:     tensor.insert_slice
// CHECK:         return
func.func @col2im_stride2_dynamic_batch(%go: !torch.vtensor<[?,16,4,4],f32>, %x: !torch.vtensor<[?,8,8,8],f32>, %w: !torch.vtensor<[16,8,3,3],f32>) -> !torch.vtensor<[?,8,8,8],f32> {
  %int16 = torch.constant.int 16
  %l0 = torch.prim.ListConstruct %int16 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %l2 = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %l4 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l6 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %f, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[?,16,4,4],f32>, !torch.vtensor<[?,8,8,8],f32>, !torch.vtensor<[16,8,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[?,8,8,8],f32>, !torch.none, !torch.none
  return %r#0 : !torch.vtensor<[?,8,8,8],f32>
}
