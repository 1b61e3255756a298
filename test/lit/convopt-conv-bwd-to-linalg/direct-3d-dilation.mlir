// 3-D with dilation 2 along depth, stride 2 along height and padding (2, 1, 0):
//   grad_input:  one op per kernel tap (3 x 3 x 3 = 27), each a dense stride-1
//                op over the taps' in-bounds range (the map reads grad_output
//                and one weight tap, no negative coefficient);
//   grad_weight: x read at S*s + D*k - P per dim: depth 2*k + s (dilation 2),
//                height k + 2*s (stride 2), width k + s; the depth and height
//                borders are peeled into pieces (6 ops), one of them reading
//                the whole of grad_output and the input.
// RUN: %convopt --lower-conv-bwd --conv-form=generic %s | FileCheck %s
// RUN: %convopt --lower-conv-bwd %s | %mlir-verify
// RUN: %convopt --lower-conv-bwd --backend-legal-ops= %s | %mlir-verify

// CHECK-DAG:   #[[TAP_GO:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d5, d2, d3, d4)>
// CHECK-DAG:   #[[TAP_W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1, 0, 0, 0)>
// CHECK-DAG:   #[[GW_GO:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d5, d0, d6, d7, d8)>
// CHECK-DAG:   #[[GW_X:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d5, d1, d2 * 2 + d6, d3 + d7 * 2, d4 + d8)>
// CHECK-LABEL: func.func @conv_bwd_3d_2x1x1d_2x1x0p_1x2x1s(
// CHECK-SAME:      %[[GO:.*]]: tensor<2x3x6x3x4xf32>, %[[X:.*]]: tensor<2x2x6x6x6xf32>, %[[W:.*]]: tensor<3x2x3x3x3xf32>) -> (tensor<2x2x6x6x6xf32>, tensor<3x2x3x3x3xf32>)
// CHECK-NOT:     tensor.extract %
// CHECK-COUNT-27: linalg.generic {indexing_maps = [#[[TAP_GO]], #[[TAP_W]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-NOT:     linalg.generic {indexing_maps = [#[[TAP_GO]],
// CHECK:         linalg.generic {indexing_maps = [#[[GW_GO]], #[[GW_X]], #{{.*}}]
// CHECK:         linalg.generic {indexing_maps = [#[[GW_GO]], #[[GW_X]], #{{.*}}]
// CHECK:         linalg.generic {indexing_maps = [#[[GW_GO]], #[[GW_X]], #{{.*}}]
// CHECK:         linalg.generic {indexing_maps = [#[[GW_GO]], #[[GW_X]], #{{.*}}], {{.*}} ins(%[[GO]], %[[X]] : tensor<2x3x6x3x4xf32>, tensor<2x2x6x6x6xf32>)
// CHECK:         linalg.generic {indexing_maps = [#[[GW_GO]], #[[GW_X]], #{{.*}}]
// CHECK:         linalg.generic {indexing_maps = [#[[GW_GO]], #[[GW_X]], #{{.*}}]
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @conv_bwd_3d_2x1x1d_2x1x0p_1x2x1s(%go: !torch.vtensor<[2,3,6,3,4],f32>, %x: !torch.vtensor<[2,2,6,6,6],f32>, %w: !torch.vtensor<[3,2,3,3,3],f32>) -> (!torch.vtensor<[2,2,6,6,6],f32>, !torch.vtensor<[3,2,3,3,3],f32>) {
  %int3 = torch.constant.int 3
  %l0 = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %l2 = torch.prim.ListConstruct %int1, %int2, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l5 = torch.prim.ListConstruct %int2, %int1, %int0 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %l7 = torch.prim.ListConstruct %int2, %int1, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %l8 = torch.prim.ListConstruct %int0, %int0, %int0 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l5, %l7, %transposed, %l8, %int1, %mask : !torch.vtensor<[2,3,6,3,4],f32>, !torch.vtensor<[2,2,6,6,6],f32>, !torch.vtensor<[3,2,3,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,2,6,6,6],f32>, !torch.vtensor<[3,2,3,3,3],f32>, !torch.none
  return %r#0, %r#1 : !torch.vtensor<[2,2,6,6,6],f32>, !torch.vtensor<[3,2,3,3,3],f32>
}
