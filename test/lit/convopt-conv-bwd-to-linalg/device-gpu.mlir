// --device=gpu on one strided 2-D case (4 -> 6 channels, 8x8, 3x3, stride 2,
// padding 1): the forms IREE's GPU pipelines build (bench/README.md).
//   grad_input:  the scatter by output phases: one op per phase copies its
//                flipped weight taps into a dense block (1x1, 1x2, 2x1, 2x2)
//                at affine positions (no division or remainder: NVPTX cannot
//                select IREE's i16-narrowed form of those), 4 disjoint dense
//                gathers, one per phase (b mod 2), each over its block (the
//                single-tap one takes the weight first), and one linalg.generic that interleaves the 4 phase
//                results into grad_input (out[2q + phi] = P_phi[q]): no
//                strided insert_slice, no per-tap op adds into a shared
//                accumulator.
//   grad_weight: one linalg.generic over the input zero-padded by (1, 1) as
//                the forward pads it (then sliced to the 9x9 it reads),
//                which comes first (the image: d2 + d5 * 2); no peeled pieces;
//                its accumulator kernel dims first, [3, 3, 6, 4], transposed
//                back to [6, 4, 3, 3] (request.Emission weight_spatial_first).
//   cpu (default) output differs: per-tap scatter ops.
// RUN: %convopt --lower-conv-bwd --device=gpu %s | FileCheck %s
// RUN: %convopt --lower-conv-bwd --device=gpu %s | %mlir-verify
// RUN: %convopt --lower-conv-bwd --backend-legal-ops= --device=gpu %s | %mlir-verify
// RUN: %convopt --lower-conv-bwd %s | FileCheck %s --check-prefix=CPU

// CHECK-DAG:   #[[IMG:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d1, d2 + d5 * 2, d3 + d6 * 2)>
// CHECK-DAG:   #[[DY:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d0, d5, d6)>
// CHECK-DAG:   #[[KFIRST:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d2, d3, d0, d1)>
// CHECK-LABEL: func.func @conv_bwd_2d_stride2(
// CHECK:         %[[W00:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<6x4x1x1xf32>)
// CHECK-NOT:       arith.divui
// CHECK:           tensor.extract %arg2{{.*}} : tensor<6x4x3x3xf32>
// CHECK:         %[[W01:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<6x4x1x2xf32>)
// CHECK-NOT:       arith.divui
// CHECK:           tensor.extract %arg2{{.*}} : tensor<6x4x3x3xf32>
// CHECK:         %[[W10:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<6x4x2x1xf32>)
// CHECK-NOT:       arith.remui
// CHECK:           tensor.extract %arg2{{.*}} : tensor<6x4x3x3xf32>
// CHECK:         %[[W11:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<6x4x2x2xf32>)
// CHECK-NOT:       arith.remui
// CHECK:           tensor.extract %arg2{{.*}} : tensor<6x4x3x3xf32>
// CHECK:         %[[P00:.*]] = linalg.generic {{.*}} ins(%[[W00]], %{{.*}} : tensor<6x4x1x1xf32>, tensor<2x6x4x4xf32>)
// CHECK:         %[[P01:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[W01]] : tensor<2x6x4x5xf32>, tensor<6x4x1x2xf32>)
// CHECK:         %[[P10:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[W10]] : tensor<2x6x5x4xf32>, tensor<6x4x2x1xf32>)
// CHECK:         %[[P11:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[W11]] : tensor<2x6x5x5xf32>, tensor<6x4x2x2xf32>)
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<2x4x8x8xf32>)
// CHECK:           arith.divui
// CHECK:           arith.remui
// CHECK:           tensor.extract %[[P00]]
// CHECK:           tensor.extract %[[P01]]
// CHECK:           tensor.extract %[[P10]]
// CHECK:           tensor.extract %[[P11]]
// CHECK-NOT:     tensor.insert_slice
// CHECK:         %[[X:.*]] = tensor.pad %arg1 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:         tensor.extract_slice %[[X]][0, 0, 0, 0] [2, 4, 9, 9] [1, 1, 1, 1]
// CHECK:         %[[GW:.*]] = linalg.generic {indexing_maps = [#[[IMG]], #[[DY]], #[[KFIRST]]]{{.*}} ins(%{{.*}}, %arg0 : tensor<2x4x9x9xf32>, tensor<2x6x4x4xf32>) outs(%{{.*}} : tensor<3x3x6x4xf32>)
// CHECK:         linalg.transpose ins(%[[GW]] : tensor<3x3x6x4xf32>) outs(%{{.*}} : tensor<6x4x3x3xf32>) permutation = [2, 3, 0, 1]
// CHECK-NOT:     linalg.generic {{.*}}outs(%extracted_slice

// CPU-LABEL:   func.func @conv_bwd_2d_stride2(
// CPU-COUNT-5: outs(%extracted_slice
func.func @conv_bwd_2d_stride2(%go: !torch.vtensor<[2,6,4,4],f32>, %x: !torch.vtensor<[2,4,8,8],f32>, %w: !torch.vtensor<[6,4,3,3],f32>) -> (!torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[6,4,3,3],f32>, !torch.vtensor<[6],f32>) {
  %int6 = torch.constant.int 6
  %l0 = torch.prim.ListConstruct %int6 : (!torch.int) -> !torch.list<int>
  %int2 = torch.constant.int 2
  %l2 = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l4 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l6 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l7 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l6, %transposed, %l7, %int1, %mask : !torch.vtensor<[2,6,4,4],f32>, !torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[6,4,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[6,4,3,3],f32>, !torch.vtensor<[6],f32>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[6,4,3,3],f32>, !torch.vtensor<[6],f32>
}

// 1-D, 3 taps, stride 2, 9 positions: phase 0 (b even: 5 positions, taps 0
// and 2) is a 2-tap gather, phase 1 (b odd: 4 positions, tap 1) a single-tap
// contraction that takes the weight first; the interleave clamps phase 1's
// read (q <= 3) where b = 8 is phase 0's.
// CHECK-LABEL: func.func @conv_bwd_1d_stride2_odd(
// CHECK:         %[[W0:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<6x4x2xf32>)
// CHECK:           tensor.extract %arg2
// CHECK:         %[[W1:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<6x4x1xf32>)
// CHECK:           tensor.extract %arg2
// CHECK:         %[[E:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[W0]] : tensor<2x6x6xf32>, tensor<6x4x2xf32>) outs(%{{.*}} : tensor<2x4x5xf32>)
// CHECK:         %[[O:.*]] = linalg.generic {{.*}} ins(%[[W1]], %{{.*}} : tensor<6x4x1xf32>, tensor<2x6x4xf32>) outs(%{{.*}} : tensor<2x4x4xf32>)
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<2x4x9xf32>)
// CHECK:           %[[Q:.*]] = arith.divui
// CHECK:           %[[PHI:.*]] = arith.remui
// CHECK:           tensor.extract %[[E]][%{{.*}}, %{{.*}}, %[[Q]]]
// CHECK:           %[[QC:.*]] = arith.minui %[[Q]], %c3
// CHECK:           tensor.extract %[[O]][%{{.*}}, %{{.*}}, %[[QC]]]
// CHECK:           arith.cmpi eq, %[[PHI]], %c1
// CHECK-NOT:     tensor.insert_slice
// CHECK:         return
func.func @conv_bwd_1d_stride2_odd(%go: !torch.vtensor<[2,6,4],f32>, %x: !torch.vtensor<[2,4,9],f32>, %w: !torch.vtensor<[6,4,3],f32>) -> (!torch.vtensor<[2,4,9],f32>, !torch.vtensor<[6,4,3],f32>) {
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %l2 = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %l1 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l0 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %l2, %l0, %l1, %transposed, %l0, %int1, %mask : !torch.vtensor<[2,6,4],f32>, !torch.vtensor<[2,4,9],f32>, !torch.vtensor<[6,4,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,4,9],f32>, !torch.vtensor<[6,4,3],f32>, !torch.none
  return %r#0, %r#1 : !torch.vtensor<[2,4,9],f32>, !torch.vtensor<[6,4,3],f32>
}

// An extent of 1 with padding 1: of the 3 taps only the middle one ever
// reads grad_output in bounds, so the phase keeps that tap alone
// (relation.reaching_taps): a 1-tap block of the weight, no padded
// grad_output (the 3-tap form, reducing over zero padding, fails on
// vulkan-spirv: test/gpu/repro/vulkan_matmul_like_three_taps.mlir).
// CHECK-LABEL: func.func @conv_bwd_1d_extent1(
// CHECK:         %[[W:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<6x4x1xf32>)
// CHECK:           %[[K:.*]] = arith.subi %c1, %{{.*}} : index
// CHECK:           tensor.extract %arg2[%{{.*}}, %{{.*}}, %[[K]]] : tensor<6x4x3xf32>
// CHECK-NOT:     tensor.pad
// CHECK:         linalg.generic {{.*}} ins(%arg0, %[[W]] : tensor<2x6x1xf32>, tensor<6x4x1xf32>) outs(%{{.*}} : tensor<2x4x1xf32>)
// CHECK:         return
func.func @conv_bwd_1d_extent1(%go: !torch.vtensor<[2,6,1],f32>, %x: !torch.vtensor<[2,4,1],f32>, %w: !torch.vtensor<[6,4,3],f32>) -> !torch.vtensor<[2,4,1],f32> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %l1 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l0 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %f, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %l1, %l1, %l1, %transposed, %l0, %int1, %mask : !torch.vtensor<[2,6,1],f32>, !torch.vtensor<[2,4,1],f32>, !torch.vtensor<[6,4,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,4,1],f32>, !torch.none, !torch.none
  return %r#0 : !torch.vtensor<[2,4,1],f32>
}
