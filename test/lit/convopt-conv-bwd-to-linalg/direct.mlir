// Direct lowering of convolution_backward, one feature per function.
// The generic form (forced: which form auto picks is the cost model's, test/unit/test_cost_model.py).
// RUN: %convopt --lower-conv-bwd --conv-form=generic --split-input-file %s | FileCheck %s
// RUN: %convopt --lower-conv-bwd --split-input-file %s | %mlir-verify --split-input-file

// Groups: operands are split into (group, channels) by expand_shape, the
// accumulators are created in that shape, and only the results are collapsed.
// CHECK-LABEL: func.func @groups2(
// CHECK-NOT:   tensor.extract %
// CHECK-DAG:   %[[GO:.*]] = tensor.expand_shape %arg0 {{\[}}[0], [1, 2], [3], [4]] output_shape [2, 2, 2, 5, 5] : tensor<2x4x5x5xf32> into tensor<2x2x2x5x5xf32>
// CHECK-DAG:   %[[W:.*]] = tensor.expand_shape %arg2 {{\[}}[0, 1], [2], [3], [4]] output_shape [2, 2, 2, 3, 3] : tensor<4x2x3x3xf32> into tensor<2x2x2x3x3xf32>
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<2x2x2x5x5xf32>
// CHECK-NEXT:  linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<2x2x2x5x5xf32>)
// One op per tap of the 3x3 kernel, each an exact range of positions.
// CHECK-COUNT-9: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK:       %[[GI:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2], [3], [4]] : tensor<2x2x2x5x5xf32> into tensor<2x4x5x5xf32>
// CHECK:       tensor.empty() : tensor<2x2x2x3x3xf32>
// CHECK:       %[[GW:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2], [3], [4]] : tensor<2x2x2x3x3xf32> into tensor<4x2x3x3xf32>
// CHECK:       return %[[GI]], %[[GW]]
func.func @groups2(%go: !torch.vtensor<[2,4,5,5],f32>, %x: !torch.vtensor<[2,4,5,5],f32>, %w: !torch.vtensor<[4,2,3,3],f32>) -> (!torch.vtensor<[2,4,5,5],f32>, !torch.vtensor<[4,2,3,3],f32>) {
  %int4 = torch.constant.int 4
  %l0 = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l2 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l4 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l6 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %int2 = torch.constant.int 2
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l5, %transposed, %l6, %int2, %mask : !torch.vtensor<[2,4,5,5],f32>, !torch.vtensor<[2,4,5,5],f32>, !torch.vtensor<[4,2,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,4,5,5],f32>, !torch.vtensor<[4,2,3,3],f32>, !torch.none
  return %r#0, %r#1 : !torch.vtensor<[2,4,5,5],f32>, !torch.vtensor<[4,2,3,3],f32>
}

// -----

// Transposed: grad_input is a strided gather of grad_output (one op with
// the whole kernel where no padding is read), grad_weight swaps the roles.
// CHECK-DAG:   #[[GATHER:.*]] = affine_map<(d0, d1, d2, d3) -> (d2, d1 * 2 + d3)>
// CHECK-DAG:   #[[GW_GO:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d2 + d3 * 2)>
// CHECK-LABEL: func.func @transposed_stride2(
// CHECK-SAME:      %arg0: tensor<1x3x8xf32>, %arg1: tensor<1x2x4xf32>, %arg2: tensor<2x3x3xf32>) -> (tensor<1x2x4xf32>, tensor<2x3x3xf32>, tensor<3xf32>)
// CHECK:       linalg.generic {indexing_maps = [#[[GATHER]], {{.*}} ins(%{{.*}}, %arg2 : tensor<3x7xf32>, tensor<2x3x3xf32>) outs(%{{.*}} : tensor<2x3xf32>)
// CHECK:       linalg.generic {indexing_maps = [#{{.*}}, #[[GW_GO]], #{{.*}}]
// CHECK:       iterator_types = ["reduction", "parallel", "reduction"]
func.func @transposed_stride2(%go: !torch.vtensor<[1,3,8],f32>, %x: !torch.vtensor<[1,2,4],f32>, %w: !torch.vtensor<[2,3,3],f32>) -> (!torch.vtensor<[1,2,4],f32>, !torch.vtensor<[2,3,3],f32>, !torch.vtensor<[3],f32>) {
  %int3 = torch.constant.int 3
  %l0 = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
  %int2 = torch.constant.int 2
  %l2 = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l4 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l6 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l7 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool true
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l6, %transposed, %l7, %int1, %mask : !torch.vtensor<[1,3,8],f32>, !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[2,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[2,3,3],f32>, !torch.vtensor<[3],f32>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[2,3,3],f32>, !torch.vtensor<[3],f32>
}

// -----

// f16 accumulates in f32 and is truncated once, at the end.
// CHECK-LABEL: func.func @f16_grad_input(
// CHECK:       tensor.empty() : tensor<2x6xf32>
// CHECK:       ^bb0(%[[A:.*]]: f16, %[[B:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-NEXT:    %[[A32:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK-NEXT:    %[[B32:.*]] = arith.extf %[[B]] : f16 to f32
// CHECK-NEXT:    %[[M:.*]] = arith.mulf %[[A32]], %[[B32]] : f32
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[ACC]], %[[M]] : f32
// CHECK-NEXT:    linalg.yield %[[S]] : f32
// CHECK-COUNT-1: arith.truncf
// CHECK-NOT:   arith.truncf
// CHECK:       return %{{.*}} : tensor<1x2x6xf16>
func.func @f16_grad_input(%go: !torch.vtensor<[1,2,6],f16>, %x: !torch.vtensor<[1,2,6],f16>, %w: !torch.vtensor<[2,2,3],f16>) -> (!torch.vtensor<[1,2,6],f16>) {
  %int2 = torch.constant.int 2
  %l0 = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l2 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l4 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l6 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %f, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[1,2,6],f16>, !torch.vtensor<[1,2,6],f16>, !torch.vtensor<[2,2,3],f16>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,2,6],f16>, !torch.none, !torch.none
  return %r#0 : !torch.vtensor<[1,2,6],f16>
}

// -----

// A dynamic batch is read with tensor.dim; only the requested results
// (grad_weight, grad_bias) are computed.
// CHECK-LABEL: func.func @dynamic_batch(
// CHECK-SAME:      %arg0: tensor<?x2x6xf32>, %arg1: tensor<?x2x6xf32>, %arg2: tensor<2x2x3xf32>) -> (tensor<2x2x3xf32>, tensor<2xf32>)
// CHECK:       %[[N:.*]] = tensor.dim %arg0, %c0 : tensor<?x2x6xf32>
// CHECK:       tensor.extract_slice %arg0[0, 0, 1] [%[[N]], 2, 5] [1, 1, 1] : tensor<?x2x6xf32> to tensor<?x2x5xf32>
// CHECK:       linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction"]} ins(%arg0 : tensor<?x2x6xf32>) outs(%{{.*}} : tensor<2xf32>)
func.func @dynamic_batch(%go: !torch.vtensor<[?,2,6],f32>, %x: !torch.vtensor<[?,2,6],f32>, %w: !torch.vtensor<[2,2,3],f32>) -> (!torch.vtensor<[2,2,3],f32>, !torch.vtensor<[2],f32>) {
  %int2 = torch.constant.int 2
  %l0 = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l2 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l4 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l6 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %f, %t, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[?,2,6],f32>, !torch.vtensor<[?,2,6],f32>, !torch.vtensor<[2,2,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.none, !torch.vtensor<[2,2,3],f32>, !torch.vtensor<[2],f32>
  return %r#1, %r#2 : !torch.vtensor<[2,2,3],f32>, !torch.vtensor<[2],f32>
}

// -----

// Only grad_bias: a single reduction of grad_output over all but channels.
// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG:   #[[CH:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @bias_only(
// CHECK-SAME:      -> tensor<3xf32>
// CHECK-COUNT-1: linalg.generic
// CHECK-SAME:    indexing_maps = [#[[ID]], #[[CH]]], iterator_types = ["reduction", "parallel", "reduction", "reduction"]
// CHECK-NOT:   linalg.generic
func.func @bias_only(%go: !torch.vtensor<[2,3,4,4],f32>, %x: !torch.vtensor<[2,2,4,4],f32>, %w: !torch.vtensor<[3,2,3,3],f32>) -> (!torch.vtensor<[3],f32>) {
  %int3 = torch.constant.int 3
  %l0 = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l2 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l4 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l6 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %f, %f, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[2,3,4,4],f32>, !torch.vtensor<[2,2,4,4],f32>, !torch.vtensor<[3,2,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.none, !torch.none, !torch.vtensor<[3],f32>
  return %r#2 : !torch.vtensor<[3],f32>
}

// -----

// Depthwise (groups == channels): the unit channel dims get no loops.
// CHECK-LABEL: func.func @depthwise(
// CHECK-NOT:   tensor.extract %
// CHECK:       linalg.generic {indexing_maps = {{.*}} iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK:       return
func.func @depthwise(%go: !torch.vtensor<[2,3,6],f32>, %x: !torch.vtensor<[2,3,6],f32>, %w: !torch.vtensor<[3,1,3],f32>) -> (!torch.vtensor<[2,3,6],f32>, !torch.vtensor<[3,1,3],f32>) {
  %int3 = torch.constant.int 3
  %l0 = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l2 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l4 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l6 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l5, %transposed, %l6, %int3, %mask : !torch.vtensor<[2,3,6],f32>, !torch.vtensor<[2,3,6],f32>, !torch.vtensor<[3,1,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,3,6],f32>, !torch.vtensor<[3,1,3],f32>, !torch.none
  return %r#0, %r#1 : !torch.vtensor<[2,3,6],f32>, !torch.vtensor<[3,1,3],f32>
}
