// max_pool3d_with_indices_backward (convopt/lowering/patterns/max_pool_bwd.py):
// grad_output goes to the position its index names.  Windows that tile the
// input (stride = kernel) are one elementwise op in the layout
// [n, c, s0, k0, s1, k1, s2, k2] and a collapse; overlapping windows make the
// same columns [n, c, k.., s..] and add them into grad_input tap by tap (col2im).
// RUN: %convopt --lower-pool-bwd --split-input-file %s | FileCheck %s
// RUN: %convopt --lower-pool-bwd --split-input-file %s | %mlir-verify -split-input-file

// CHECK-DAG: #[[READ:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d4, d6)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4, d5, d6, d7)>
// CHECK-LABEL: func.func @tiles_2x2x2
// CHECK-SAME: (%[[GO:.*]]: tensor<1x2x1x2x2xf32>, %[[X:.*]]: tensor<1x2x2x4x4xf32>, %[[IDX:.*]]: tensor<1x2x1x2x2xi64>)
// CHECK: %[[PICK:.*]] = linalg.generic {indexing_maps = [#[[READ]], #[[READ]], #[[ID]]]
// CHECK-SAME: ins(%[[GO]], %[[IDX]] : tensor<1x2x1x2x2xf32>, tensor<1x2x1x2x2xi64>) outs(%{{.*}} : tensor<1x2x1x2x2x2x2x2xf32>)
// CHECK: arith.cmpi eq
// CHECK-NEXT: arith.select
// CHECK: %[[OUT:.*]] = tensor.collapse_shape %[[PICK]] {{\[\[}}0], [1], [2, 3], [4, 5], [6, 7]] : tensor<1x2x1x2x2x2x2x2xf32> into tensor<1x2x2x4x4xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @tiles_2x2x2(%go: !torch.vtensor<[1,2,1,2,2],f32>, %x: !torch.vtensor<[1,2,2,4,4],f32>, %idx: !torch.vtensor<[1,2,1,2,2],si64>) -> !torch.vtensor<[1,2,2,4,4],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %k = torch.prim.ListConstruct %int2, %int2, %int2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct : () -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0, %int0 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.max_pool3d_with_indices_backward %go, %x, %k, %s, %p, %d, %false, %idx : !torch.vtensor<[1,2,1,2,2],f32>, !torch.vtensor<[1,2,2,4,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.vtensor<[1,2,1,2,2],si64> -> !torch.vtensor<[1,2,2,4,4],f32>
  return %r : !torch.vtensor<[1,2,2,4,4],f32>
}

// -----

// A 1x1x3 window, stride 2, padding 1 along the last dim of 5: the columns
// [n, c, k0, k1, k2, s0, s1, s2] of the three taps, each tap added into its
// in-bounds slice (tap 0 skips s = 0, which reads the padding).
// CHECK-LABEL: func.func @overlapping_1x1x3
// CHECK: %[[COLS:.*]] = linalg.generic
// CHECK-SAME: outs(%{{.*}} : tensor<1x1x1x1x3x1x1x3xf32>)
// CHECK: arith.cmpi eq
// CHECK-COUNT-3: tensor.extract_slice %[[COLS]]
// CHECK-NOT: tensor.extract_slice %[[COLS]]
// CHECK: return
func.func @overlapping_1x1x3(%go: !torch.vtensor<[1,1,1,1,3],f32>, %x: !torch.vtensor<[1,1,1,1,5],f32>, %idx: !torch.vtensor<[1,1,1,1,3],si64>) -> !torch.vtensor<[1,1,1,1,5],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %k = torch.prim.ListConstruct %int1, %int1, %int3 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct %int1, %int1, %int2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.max_pool3d_with_indices_backward %go, %x, %k, %s, %p, %d, %false, %idx : !torch.vtensor<[1,1,1,1,3],f32>, !torch.vtensor<[1,1,1,1,5],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.vtensor<[1,1,1,1,3],si64> -> !torch.vtensor<[1,1,1,1,5],f32>
  return %r : !torch.vtensor<[1,1,1,1,5],f32>
}
