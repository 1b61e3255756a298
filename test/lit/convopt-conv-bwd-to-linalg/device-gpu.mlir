// --device=gpu on one strided 2-D case (4 -> 6 channels, 8x8, 3x3, stride 2,
// padding 1): the forms IREE's GPU pipelines build (bench/README.md).
//   grad_input:  the scatter by output phases: 4 disjoint dense gathers, one
//                per phase (b mod 2), each over its flipped weight taps
//                gathered into a dense copy (1x1, 1x2, 2x1, 2x2), each
//                inserted into its own strided slice; no per-tap op adds into
//                a shared accumulator.
//   grad_weight: one linalg.generic over the zero-padded input, which comes
//                first (the image: d2 + d5 * 2); no peeled pieces.
//   cpu (default) output differs: per-tap scatter ops.
// RUN: %convopt --lower-conv-bwd --device=gpu %s | FileCheck %s
// RUN: %convopt --lower-conv-bwd --device=gpu %s | %mlir-verify
// RUN: %convopt --lower-conv-bwd --backend-legal-ops= --device=gpu %s | %mlir-verify
// RUN: %convopt --lower-conv-bwd %s | FileCheck %s --check-prefix=CPU

// CHECK-DAG:   #[[IMG:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d1, d2 + d5 * 2, d3 + d6 * 2)>
// CHECK-DAG:   #[[DY:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d0, d5, d6)>
// CHECK-LABEL: func.func @conv_bwd_2d_stride2(
// CHECK:         tensor.extract %arg2{{.*}} : tensor<6x4x3x3xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x6x4x4xf32>, tensor<6x4x1x1xf32>)
// CHECK:         tensor.extract %arg2{{.*}} : tensor<6x4x3x3xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x6x4x5xf32>, tensor<6x4x1x2xf32>)
// CHECK:         tensor.extract %arg2{{.*}} : tensor<6x4x3x3xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x6x5x4xf32>, tensor<6x4x2x1xf32>)
// CHECK:         tensor.extract %arg2{{.*}} : tensor<6x4x3x3xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x6x5x5xf32>, tensor<6x4x2x2xf32>)
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 0, 0] [2, 4, 4, 4] [1, 1, 2, 2]
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 0, 1] [2, 4, 4, 4] [1, 1, 2, 2]
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 1, 0] [2, 4, 4, 4] [1, 1, 2, 2]
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 1, 1] [2, 4, 4, 4] [1, 1, 2, 2]
// CHECK:         linalg.generic {indexing_maps = [#[[IMG]], #[[DY]], #{{.*}}]{{.*}} ins(%{{.*}}, %arg0 : tensor<2x4x9x9xf32>, tensor<2x6x4x4xf32>)
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

