// Direct lowering with every size dynamic, the weight's too (torch-mlir's e2e
// tests declare convolution_backward this way).  The kernel size is known only
// at run time, so grad_input cannot be one op per tap: it is one gather per
// output phase (b = 2*q + phi) over a copy of the weight flipped along the
// kernel dim (kernels.phase_pieces), each written into grad_input with
// stride 2.  No map has a negative coefficient; the flip is in the copy.
// grad_weight is the padded weight kernel.
// RUN: %convopt --lower-conv-bwd %s | FileCheck %s
// RUN: %convopt --lower-conv-bwd %s | %mlir-verify
// RUN: %convopt --lower-conv-bwd --backend-legal-ops= %s | %mlir-verify

// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[PH_GO:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2 + d4)>
// CHECK-DAG:   #[[PH_W:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d3, d1, d4)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
// CHECK-DAG:   #[[GW_X:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d3, d1, d2 + d4 * 2)>
// CHECK-LABEL: func.func @conv_bwd_1d_dynamic_everything_stride2(
// CHECK-SAME:      %[[GO:.*]]: tensor<?x?x?xf32>, %[[X:.*]]: tensor<?x?x?xf32>, %[[W:.*]]: tensor<?x?x?xf32>) -> (tensor<?x?x?xf32>, tensor<?x?x?xf32>)
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK:         %[[K:.*]] = tensor.dim %[[W]], %[[C2]]
// CHECK:         %[[KM1:.*]] = arith.subi %[[K]], %{{.*}} : index
// The flipped weight: wf[f, c, m] = w[f, c, K-1-m].
// CHECK:         %[[FLIP:.*]] = linalg.generic {indexing_maps = [#[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]} outs(%{{.*}} : tensor<?x?x?xf32>) {
// CHECK:           %[[I0:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[I1:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %[[I2:.*]] = linalg.index 2 : index
// CHECK-NEXT:      %[[M:.*]] = arith.subi %[[KM1]], %[[I2]] : index
// CHECK-NEXT:      %[[E:.*]] = tensor.extract %[[W]][%[[I0]], %[[I1]], %[[M]]] : tensor<?x?x?xf32>
// CHECK-NEXT:      linalg.yield %[[E]] : f32
// Phase 0 (even positions of grad_input) uses every other tap of wf ...
// CHECK:         %[[PAD:.*]] = tensor.pad %[[GO]] low[0, 0, %{{.*}}] high[0, 0, %{{.*}}]
// CHECK:         %[[A0:.*]] = tensor.extract_slice %[[PAD]][0, 0, %{{.*}}] [%{{.*}}, %{{.*}}, %{{.*}}] [1, 1, 1]
// CHECK:         %[[W0:.*]] = tensor.extract_slice %[[FLIP]][0, 0, %{{.*}}] [%{{.*}}, %{{.*}}, %{{.*}}] [1, 1, 2]
// CHECK:         %[[GI:.*]] = linalg.fill
// CHECK:         %[[P0:.*]] = linalg.generic {indexing_maps = [#[[PH_GO]], #[[PH_W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[A0]], %[[W0]] :
// CHECK:         %[[GI0:.*]] = tensor.insert_slice %[[P0]] into %[[GI]][0, 0, 0] [%{{.*}}, %{{.*}}, %{{.*}}] [1, 1, 2]
// ... phase 1 (odd positions) the others.
// CHECK:         %[[A1:.*]] = tensor.extract_slice %[[PAD]]
// CHECK:         %[[W1:.*]] = tensor.extract_slice %[[FLIP]][0, 0, %{{.*}}] [%{{.*}}, %{{.*}}, %{{.*}}] [1, 1, 2]
// CHECK:         %[[P1:.*]] = linalg.generic {indexing_maps = [#[[PH_GO]], #[[PH_W]], #[[OUT]]], {{.*}} ins(%[[A1]], %[[W1]] :
// CHECK:         %[[GI1:.*]] = tensor.insert_slice %[[P1]] into %[[GI0]][0, 0, 1] [%{{.*}}, %{{.*}}, %{{.*}}] [1, 1, 2]
// grad_weight[f, c, k] = sum_{n, s} go[n, f, s] * x[n, c, 2*s + k - 1]
// CHECK:         %[[GW:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[GW_X]], #[[OUT]]]
// CHECK:         return %[[GI1]], %[[GW]] : tensor<?x?x?xf32>, tensor<?x?x?xf32>
func.func @conv_bwd_1d_dynamic_everything_stride2(%go: !torch.vtensor<[?,?,?],f32>, %x: !torch.vtensor<[?,?,?],f32>, %w: !torch.vtensor<[?,?,?],f32>) -> (!torch.vtensor<[?,?,?],f32>, !torch.vtensor<[?,?,?],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %stride = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %padding = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %ones = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %zeros = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %true, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %stride, %padding, %ones, %false, %zeros, %int1, %mask : !torch.vtensor<[?,?,?],f32>, !torch.vtensor<[?,?,?],f32>, !torch.vtensor<[?,?,?],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[?,?,?],f32>, !torch.vtensor<[?,?,?],f32>, !torch.none
  return %r#0, %r#1 : !torch.vtensor<[?,?,?],f32>, !torch.vtensor<[?,?,?],f32>
}
