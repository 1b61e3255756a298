// --mlir-print-op-generic prints every op in MLIR's generic form: func.func
// with its inherent attributes in <{...}> and its body as a region, named
// linalg ops with the body their name implies (linalg.fill yields its input,
// linalg.matmul multiplies and accumulates) and their operand segments.
// MLIR tools read it, and convopt reads it back to the same IR: the custom
// print of the generic text is the custom print of the input, and the generic
// print of it is the same generic text.
// RUN: %convopt %s --lower-conv-bwd --conv-form=im2col --mlir-print-op-generic -o %t.generic
// RUN: FileCheck %s < %t.generic
// RUN: FileCheck %s --check-prefix=GENERIC-ONLY < %t.generic
// RUN: %mlir-verify %t.generic
// RUN: %convopt %s --lower-conv-bwd --conv-form=im2col -o %t.custom
// RUN: %convopt %t.generic -o %t.back
// RUN: %convopt %t.generic --mlir-print-op-generic -o %t.again
// RUN: FileCheck %s --check-prefix=CUSTOM < %t.back
// RUN: diff %t.custom %t.back
// RUN: diff %t.generic %t.again

// CHECK:      "builtin.module"() ({
// CHECK-NEXT:   "func.func"() <{sym_name = "bwd", function_type = (tensor<2x6x8x8xf32>, tensor<2x4x8x8xf32>, tensor<6x4x3x3xf32>) -> (tensor<2x4x8x8xf32>, tensor<6x4x3x3xf32>, tensor<6xf32>)}> ({
// CHECK-NEXT:   ^bb0(%arg0: tensor<2x6x8x8xf32>, %arg1: tensor<2x4x8x8xf32>, %arg2: tensor<6x4x3x3xf32>):
// CHECK-NEXT:     %[[ZERO:.*]] = "arith.constant"() <{value = 0.000000e+00 : f32}> : () -> f32
// grad_input: the im2col matmul of the weight and grad_output, into zeros.
// CHECK:          %[[EMPTY:.*]] = "tensor.empty"() : () -> tensor<36x128xf32>
// CHECK-NEXT:     %[[FILL:.*]] = "linalg.fill"(%[[ZERO]], %[[EMPTY]]) <{operandSegmentSizes = array<i32: 1, 1>}> ({
// CHECK-NEXT:     ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:       "linalg.yield"(%[[IN]]) : (f32) -> ()
// CHECK-NEXT:     }) : (f32, tensor<36x128xf32>) -> tensor<36x128xf32>
// CHECK-NEXT:     %{{.*}} = "linalg.matmul"(%{{.*}}, %{{.*}}, %[[FILL]]) <{operandSegmentSizes = array<i32: 2, 1>, indexing_maps = [#map, #map1, #map2]}> ({
// CHECK-NEXT:     ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32):
// CHECK-NEXT:       %[[MUL:.*]] = "arith.mulf"(%[[A]], %[[B]]) : (f32, f32) -> f32
// CHECK-NEXT:       %[[ADD:.*]] = "arith.addf"(%[[C]], %[[MUL]]) : (f32, f32) -> f32
// CHECK-NEXT:       "linalg.yield"(%[[ADD]]) : (f32) -> ()
// CHECK-NEXT:     }) : (tensor<36x6xf32>, tensor<6x128xf32>, tensor<36x128xf32>) -> tensor<36x128xf32>
// grad_weight: the second matmul, and grad_bias: a reduction in a linalg.generic.
// CHECK:          "linalg.matmul"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 2, 1>, indexing_maps = [#map, #map1, #map2]}> ({
// CHECK:          }) : (tensor<6x128xf32>, tensor<128x36xf32>, tensor<6x36xf32>) -> tensor<6x36xf32>
// CHECK:          %[[GB:.*]] = "linalg.generic"(%arg0, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1>, indexing_maps = [#map{{[0-9]*}}, #map{{[0-9]*}}], iterator_types = [#linalg.iterator_type<reduction>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>, #linalg.iterator_type<reduction>]}> ({
// CHECK:          "func.return"(%{{.*}}, %{{.*}}, %[[GB]]) : (tensor<2x4x8x8xf32>, tensor<6x4x3x3xf32>, tensor<6xf32>) -> ()
// CHECK-NEXT:   }) : () -> ()
// CHECK-NEXT: }) : () -> ()

// No op in a custom form.
// GENERIC-ONLY-NOT: func.func @
// GENERIC-ONLY-NOT: linalg.fill ins(
// GENERIC-ONLY-NOT: linalg.matmul ins(
// GENERIC-ONLY-NOT: {{^ *}}return

// CUSTOM-LABEL: func.func @bwd(
// CUSTOM:       linalg.fill ins(%cst : f32) outs(%{{.*}} : tensor<36x128xf32>) -> tensor<36x128xf32>
// CUSTOM-NEXT:  linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<36x6xf32>, tensor<6x128xf32>) outs(%{{.*}} : tensor<36x128xf32>) -> tensor<36x128xf32>
// CUSTOM:       return %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4x8x8xf32>, tensor<6x4x3x3xf32>, tensor<6xf32>

func.func @bwd(%go: !torch.vtensor<[2,6,8,8],f32>, %x: !torch.vtensor<[2,4,8,8],f32>, %w: !torch.vtensor<[6,4,3,3],f32>) -> (!torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[6,4,3,3],f32>, !torch.vtensor<[6],f32>) {
  %int6 = torch.constant.int 6
  %sizes = torch.prim.ListConstruct %int6 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %stride = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %padding = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %dilation = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %outpad = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %true, %true, %true : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %sizes, %stride, %padding, %dilation, %false, %outpad, %int1, %mask : !torch.vtensor<[2,6,8,8],f32>, !torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[6,4,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[6,4,3,3],f32>, !torch.vtensor<[6],f32>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[6,4,3,3],f32>, !torch.vtensor<[6],f32>
}
