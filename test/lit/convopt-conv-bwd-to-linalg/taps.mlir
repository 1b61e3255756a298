// The weight kernel of a 3x1x1 convolution as one batched product per depth
// tap over slices of grad_output and the input (forms/tap_matmul.py, the
// form "taps", forced: auto does not take it yet): no im2col copy.  Each tap
// reads exactly the depth positions it reaches (padding 1 on depth 4: taps 0
// and 2 read 3 slabs, tap 1 all 4, the whole tensors), reduced over depth,
// H and W; the batch stays a parallel dim of each product, and one op sums
// it and stacks the taps by their index.
// RUN: %convopt --lower-conv-bwd --conv-form=taps %s | FileCheck %s
// RUN: %convopt --lower-conv-bwd --conv-form=taps --stats %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: %convopt --lower-conv-bwd --conv-form=taps %s | %mlir-verify
// RUN: %convopt --lower-conv-bwd --stats %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO

// STATS: grad_weight: form=taps ops=3 executed_macs=16000 useful_macs=16000 efficiency=1.000
// AUTO-NOT: form=taps

// CHECK-DAG:   #[[A:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4, d5)>
// CHECK-DAG:   #[[B:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d4, d5)>
// CHECK-DAG:   #[[P:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>
// CHECK-DAG:   #[[S:.*]] = affine_map<(d0, d1, d2, d3) -> (d3, d0, d1)>
// CHECK-DAG:   #[[W:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %[[GO:.*]]: tensor<2x8x4x5x5xf32>, %[[X:.*]]: tensor<2x4x4x5x5xf32>
// CHECK-NOT:   tensor.pad
// CHECK-NOT:   tensor.collapse_shape
// CHECK:       %[[A0:.*]] = tensor.extract_slice %[[GO]][0, 0, 1, 0, 0] [2, 8, 3, 5, 5] [1, 1, 1, 1, 1]
// CHECK:       %[[B0:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 0, 0] [2, 4, 3, 5, 5] [1, 1, 1, 1, 1]
// CHECK:       %[[P0:.*]] = linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[P]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[A0]], %[[B0]] : {{.*}}) outs({{.*}} : tensor<2x8x4xf32>)
// CHECK:         arith.mulf
// CHECK:         arith.addf
// CHECK:       %[[P1:.*]] = linalg.generic {{.*}} ins(%[[GO]], %[[X]] : tensor<2x8x4x5x5xf32>, tensor<2x4x4x5x5xf32>)
// CHECK:       %[[A2:.*]] = tensor.extract_slice %[[GO]][0, 0, 0, 0, 0] [2, 8, 3, 5, 5]
// CHECK:       %[[B2:.*]] = tensor.extract_slice %[[X]][0, 0, 1, 0, 0] [2, 4, 3, 5, 5]
// CHECK:       %[[P2:.*]] = linalg.generic {{.*}} ins(%[[A2]], %[[B2]] :
// CHECK:       %[[ST:.*]] = linalg.generic {indexing_maps = [#[[S]], #[[S]], #[[S]], #[[W]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[P0]], %[[P1]], %[[P2]] : {{.*}}) outs({{.*}} : tensor<8x4x3xf32>)
// CHECK:         %[[K:.*]] = linalg.index 2 : index
// CHECK:         arith.cmpi eq, %[[K]]
// CHECK:         arith.select
// CHECK:         arith.cmpi eq, %[[K]]
// CHECK:         arith.select
// CHECK:         arith.addf
// CHECK:       %[[OUT:.*]] = tensor.expand_shape %[[ST]] {{\[\[}}0], [1], [2, 3, 4]] output_shape [8, 4, 3, 1, 1]
// CHECK:       return %[[OUT]]
func.func @main(%go: !torch.vtensor<[2,8,4,5,5],f32>, %x: !torch.vtensor<[2,4,4,5,5],f32>, %w: !torch.vtensor<[8,4,3,1,1],f32>) -> (!torch.vtensor<[8,4,3,1,1],f32>) {
  %int8 = torch.constant.int 8
  %l0 = torch.prim.ListConstruct %int8 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l2 = torch.prim.ListConstruct %int1, %int1, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l4 = torch.prim.ListConstruct %int1, %int0, %int0 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %l6 = torch.prim.ListConstruct %int1, %int1, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %l7 = torch.prim.ListConstruct %int0, %int0, %int0 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %f, %t, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l6, %transposed, %l7, %int1, %mask : !torch.vtensor<[2,8,4,5,5],f32>, !torch.vtensor<[2,4,4,5,5],f32>, !torch.vtensor<[8,4,3,1,1],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.none, !torch.vtensor<[8,4,3,1,1],f32>, !torch.none
  return %r#1 : !torch.vtensor<[8,4,3,1,1],f32>
}

