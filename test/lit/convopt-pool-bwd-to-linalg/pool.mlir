// avg_pool backward as the scatter kernel of a depthwise convolution
// (convopt/lowering/patterns/pool_bwd.py): one op per kernel tap, each
// writing one phase (b mod S) of grad_input, the weight a constant 1/div
// where every window has the same divisor, else grad_output divided by
// each window's count first (computed from linalg.index) and a weight of ones.
// RUN: %convopt --lower-pool-bwd --split-input-file %s | FileCheck %s
// RUN: %convopt --lower-pool-bwd --split-input-file %s | %mlir-verify -split-input-file
// RUN: %convopt --lower-conv-bwd --lower-pool-bwd --device=gpu --split-input-file %s | %mlir-verify -split-input-file
// RUN: %convopt --lower-conv-bwd --split-input-file %s | FileCheck %s --check-prefix=KEPT

// DenseNet's transition: 2x2 windows, stride 2, no padding: four taps, the
// weight 1/4, each tap an elementwise op into its own phase.
// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG:   #[[W:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
// CHECK-LABEL: func.func @avg_pool2d_bwd_k2s2(
// CHECK-SAME:      %[[GO:.*]]: tensor<2x3x2x2xf32>, %{{.*}}: tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
// CHECK:         %[[ONES:.*]] = arith.constant dense<2.500000e-01> : tensor<3x1x2x2xf32>
// CHECK:         %[[WC:.*]] = tensor.collapse_shape %[[ONES]] {{\[\[}}0, 1], [2], [3]] : tensor<3x1x2x2xf32> into tensor<3x2x2xf32>
// CHECK:         %[[W00:.*]] = tensor.extract_slice %[[WC]][0, 0, 0] [3, 1, 1] [1, 1, 1]
// CHECK:         %[[T00:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[W]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[GO]], %[[W00]] : tensor<2x3x2x2xf32>, tensor<3x1x1xf32>)
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[OUT]], %[[M]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK-COUNT-3: linalg.generic
// CHECK:         %[[I0:.*]] = tensor.insert_slice %[[T00]] into %{{.*}}[0, 0, 0, 0] [2, 3, 2, 2] [1, 1, 2, 2]
// CHECK:         %[[I1:.*]] = tensor.insert_slice %{{.*}} into %[[I0]][0, 0, 0, 1] [2, 3, 2, 2] [1, 1, 2, 2]
// CHECK:         %[[I2:.*]] = tensor.insert_slice %{{.*}} into %[[I1]][0, 0, 1, 0] [2, 3, 2, 2] [1, 1, 2, 2]
// CHECK:         %[[I3:.*]] = tensor.insert_slice %{{.*}} into %[[I2]][0, 0, 1, 1] [2, 3, 2, 2] [1, 1, 2, 2]
// CHECK-NEXT:    return %[[I3]] : tensor<2x3x4x4xf32>
// KEPT-LABEL:  func.func @avg_pool2d_bwd_k2s2(
// KEPT:          torch.aten.avg_pool2d_backward

func.func @avg_pool2d_bwd_k2s2(%go: !torch.vtensor<[2,3,2,2],f32>, %x: !torch.vtensor<[2,3,4,4],f32>) -> !torch.vtensor<[2,3,4,4],f32> {
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none = torch.constant.none
  %r = torch.aten.avg_pool2d_backward %go, %x, %k, %k, %p, %false, %true, %none : !torch.vtensor<[2,3,2,2],f32>, !torch.vtensor<[2,3,4,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[2,3,4,4],f32>
  return %r : !torch.vtensor<[2,3,4,4],f32>
}

// -----

// avg_pool1d (avg_pool2d over a unit dim, as autograd calls it), bf16,
// dynamic batch and length, ceil_mode with padding, count_include_pad=false:
// grad_output widened to f32 and divided by each window's count along the
// length (the unit dim counts 1: no code), the three taps, then truncf.
// CHECK-LABEL: func.func @avg_pool1d_as_2d_bwd_k3s2p1_ceil_exclude_dynamic(
// CHECK-SAME:      %[[GO:.*]]: tensor<?x4x1x?xbf16>, %[[X:.*]]: tensor<?x4x1x?xbf16>) -> tensor<?x4x1x?xbf16>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[ONES:.*]] = arith.constant dense<1.000000e+00> : tensor<4x1x1x3xf32>
// CHECK:         %[[N:.*]] = tensor.dim %[[X]], %[[C3]] : tensor<?x4x1x?xbf16>
// CHECK:         %[[NP:.*]] = arith.addi %[[N]], %[[C1]] : index
// CHECK:         %[[SCALED:.*]] = linalg.generic {{.*}} ins(%[[GO]] : tensor<?x4x1x?xbf16>) outs(%{{.*}} : tensor<?x4x1x?xf32>) {
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: bf16, %{{.*}}: f32):
// CHECK-NEXT:      %[[S:.*]] = linalg.index 3 : index
// CHECK-NEXT:      %[[SS:.*]] = arith.muli %[[S]], %[[C2]] : index
// CHECK-NEXT:      %[[START:.*]] = arith.subi %[[SS]], %[[C1]] : index
// CHECK-NEXT:      %[[E0:.*]] = arith.addi %[[START]], %[[C3]] : index
// CHECK-NEXT:      %[[END:.*]] = arith.minsi %[[E0]], %[[NP]] : index
// CHECK-NEXT:      %[[LO:.*]] = arith.maxsi %[[START]], %[[C0]] : index
// CHECK-NEXT:      %[[HI:.*]] = arith.minsi %[[END]], %[[N]] : index
// CHECK-NEXT:      %[[COUNT:.*]] = arith.subi %[[HI]], %[[LO]] : index
// CHECK-NEXT:      %[[WIDE:.*]] = arith.extf %[[IN]] : bf16 to f32
// CHECK-NEXT:      %[[C:.*]] = arith.maxsi %[[COUNT]], %[[C1]] : index
// CHECK-NEXT:      %[[CI:.*]] = arith.index_cast %[[C]] : index to i64
// CHECK-NEXT:      %[[CF:.*]] = arith.sitofp %[[CI]] : i64 to f32
// CHECK-NEXT:      %[[Q:.*]] = arith.divf %[[WIDE]], %[[CF]] : f32
// CHECK-NEXT:      linalg.yield %[[Q]] : f32
// CHECK:         tensor.collapse_shape %[[ONES]]
// CHECK-COUNT-3: linalg.generic
// CHECK:         arith.truncf %{{.*}} : f32 to bf16

func.func @avg_pool1d_as_2d_bwd_k3s2p1_ceil_exclude_dynamic(%go: !torch.vtensor<[?,4,1,?],bf16>, %x: !torch.vtensor<[?,4,1,?],bf16>) -> !torch.vtensor<[?,4,1,?],bf16> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int0 = torch.constant.int 0
  %k = torch.prim.ListConstruct %int1, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct %int1, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.avg_pool2d_backward %go, %x, %k, %s, %p, %true, %false, %none : !torch.vtensor<[?,4,1,?],bf16>, !torch.vtensor<[?,4,1,?],bf16>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[?,4,1,?],bf16>
  return %r : !torch.vtensor<[?,4,1,?],bf16>
}

// -----

// avg_pool3d, f64, stride omitted (= kernel), divisor_override 3: the weight
// is the constant 1/3; eight taps.
// CHECK-LABEL: func.func @avg_pool3d_bwd_divisor_override(
// CHECK:         arith.constant dense<0.33333333333333331> : tensor<2x1x2x2x2xf64>
// CHECK-NOT:     arith.divf
// CHECK-COUNT-8: arith.mulf
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2], [3], [4]] output_shape [1, 2, 4, 4, 4] : tensor<2x4x4x4xf64> into tensor<1x2x4x4x4xf64>

func.func @avg_pool3d_bwd_divisor_override(%go: !torch.vtensor<[1,2,2,2,2],f64>, %x: !torch.vtensor<[1,2,4,4,4],f64>) -> !torch.vtensor<[1,2,4,4,4],f64> {
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %int3 = torch.constant.int 3
  %k = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct  : () -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %r = torch.aten.avg_pool3d_backward %go, %x, %k, %s, %p, %false, %true, %int3 : !torch.vtensor<[1,2,2,2,2],f64>, !torch.vtensor<[1,2,4,4,4],f64>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.int -> !torch.vtensor<[1,2,4,4,4],f64>
  return %r : !torch.vtensor<[1,2,4,4,4],f64>
}
