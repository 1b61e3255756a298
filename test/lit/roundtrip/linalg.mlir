// linalg/tensor/arith IR as torch-mlir-opt prints it (after
// -convert-torch-to-linalg -canonicalize) prints back byte for byte: #map
// aliases in order of first use, mlir-opt's SSA names, custom op forms.
// RUN: %convopt %s | FileCheck %s
// RUN: %convopt %s | %mlir-verify
// RUN: %convopt %s | %convopt | FileCheck %s
// RUN: %convopt %s > %t.convopt
// RUN: torch-mlir-opt %s > %t.reference
// RUN: diff %t.reference %t.convopt

// CHECK:      #map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-NEXT: #map2 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 * 2 + d5, d3 * 2 + d6)>
// CHECK-NEXT: #map3 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
// CHECK-NEXT: #map4 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-NEXT: #map5 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-NEXT: module {
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d1)>
#map2 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 * 2 + d5, d3 * 2 + d6)>
#map3 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
#map4 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  // CHECK-LABEL: func.func @bias_add(
  // CHECK:      %[[E:.*]] = tensor.empty() : tensor<2x8x4x4xf32>
  // CHECK-NEXT: %[[G:.*]] = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0, %arg1 : tensor<2x8x4x4xf32>, tensor<8xf32>) outs(%[[E]] : tensor<2x8x4x4xf32>) {
  // CHECK-NEXT: ^bb0(%in: f32, %in_0: f32, %out: f32):
  // CHECK-NEXT:   %[[S:.*]] = arith.addf %in, %in_0 : f32
  // CHECK-NEXT:   linalg.yield %[[S]] : f32
  // CHECK-NEXT: } -> tensor<2x8x4x4xf32>
  func.func @bias_add(%arg0: tensor<2x8x4x4xf32>, %arg1: tensor<8xf32>) -> tensor<2x8x4x4xf32> {
    %0 = tensor.empty() : tensor<2x8x4x4xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0, %arg1 : tensor<2x8x4x4xf32>, tensor<8xf32>) outs(%0 : tensor<2x8x4x4xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %2 = arith.addf %in, %in_0 : f32
      linalg.yield %2 : f32
    } -> tensor<2x8x4x4xf32>
    return %1 : tensor<2x8x4x4xf32>
  }
  // CHECK-LABEL: func.func @strided_conv(
  // CHECK:      %cst = arith.constant 0.000000e+00 : f32
  // CHECK:      linalg.fill ins(%cst : f32) outs(%{{.*}} : tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
  // CHECK:      linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
  // CHECK:        arith.mulf %in, %in_0 : f32
  func.func @strided_conv(%arg0: tensor<2x4x9x9xf32>, %arg1: tensor<8x4x3x3xf32>) -> tensor<2x8x4x4xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<2x8x4x4xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
    %2 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%arg0, %arg1 : tensor<2x4x9x9xf32>, tensor<8x4x3x3xf32>) outs(%1 : tensor<2x8x4x4xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %3 = arith.mulf %in, %in_0 : f32
      %4 = arith.addf %out, %3 : f32
      linalg.yield %4 : f32
    } -> tensor<2x8x4x4xf32>
    return %2 : tensor<2x8x4x4xf32>
  }
  // Named convolutions keep their attributes and implicit bodies.
  // CHECK-LABEL: func.func @named_convs(
  // CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%arg0, %arg1 : tensor<2x4x9x9xf32>, tensor<8x4x3x3xf32>) outs(%{{.*}} : tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
  // CHECK: linalg.conv_1d_ncw_fcw {dilations = dense<2> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(
  // CHECK: linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(
  func.func @named_convs(%arg0: tensor<2x4x9x9xf32>, %arg1: tensor<8x4x3x3xf32>, %arg2: tensor<2x4x12xf32>, %arg3: tensor<6x4x3xf32>, %arg4: tensor<1x10x10x4xf32>, %arg5: tensor<3x3x4xf32>) -> (tensor<2x8x4x4xf32>, tensor<2x6x8xf32>, tensor<1x8x8x4xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<2x8x4x4xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%arg0, %arg1 : tensor<2x4x9x9xf32>, tensor<8x4x3x3xf32>) outs(%1 : tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
    %3 = tensor.empty() : tensor<2x6x8xf32>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
    %5 = linalg.conv_1d_ncw_fcw {dilations = dense<2> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%arg2, %arg3 : tensor<2x4x12xf32>, tensor<6x4x3xf32>) outs(%4 : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
    %6 = tensor.empty() : tensor<1x8x8x4xf32>
    %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
    %8 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg4, %arg5 : tensor<1x10x10x4xf32>, tensor<3x3x4xf32>) outs(%7 : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
    return %2, %5, %8 : tensor<2x8x4x4xf32>, tensor<2x6x8xf32>, tensor<1x8x8x4xf32>
  }
  // tensor.pad keeps its region; low/high mix static and dynamic values.
  // CHECK-LABEL: func.func @pad(
  // CHECK:      %padded = tensor.pad %arg0 low[0, 0, 1, %arg1] high[0, 0, 1, 2] {
  // CHECK-NEXT: ^bb0(%arg2: index, %arg3: index, %arg4: index, %arg5: index):
  // CHECK-NEXT:   tensor.yield %cst : f32
  // CHECK-NEXT: } : tensor<?x4x8x8xf32> to tensor<?x4x10x?xf32>
  func.func @pad(%arg0: tensor<?x4x8x8xf32>, %arg1: index) -> tensor<?x4x10x?xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %padded = tensor.pad %arg0 low[0, 0, 1, %arg1] high[0, 0, 1, 2] {
    ^bb0(%arg2: index, %arg3: index, %arg4: index, %arg5: index):
      tensor.yield %cst : f32
    } : tensor<?x4x8x8xf32> to tensor<?x4x10x?xf32>
    return %padded : tensor<?x4x10x?xf32>
  }
  // CHECK-LABEL: func.func @reshapes(
  // CHECK:      %collapsed = tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2, 3]] : tensor<2x8x4x4xf32> into tensor<16x16xf32>
  // CHECK-NEXT: %expanded = tensor.expand_shape %arg1 {{\[\[}}0], [1, 2]] output_shape [%arg2, 2, 3] : tensor<?x6xf32> into tensor<?x2x3xf32>
  func.func @reshapes(%arg0: tensor<2x8x4x4xf32>, %arg1: tensor<?x6xf32>, %arg2: index) -> (tensor<16x16xf32>, tensor<?x2x3xf32>) {
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2, 3]] : tensor<2x8x4x4xf32> into tensor<16x16xf32>
    %expanded = tensor.expand_shape %arg1 [[0], [1, 2]] output_shape [%arg2, 2, 3] : tensor<?x6xf32> into tensor<?x2x3xf32>
    return %collapsed, %expanded : tensor<16x16xf32>, tensor<?x2x3xf32>
  }
  // CHECK-LABEL: func.func @slices(
  // CHECK:      %dim = tensor.dim %arg0, %c0 : tensor<?x8xf32>
  // CHECK-NEXT: %extracted_slice = tensor.extract_slice %arg0[0, 2] [%dim, 4] [1, 1] : tensor<?x8xf32> to tensor<?x4xf32>
  // CHECK-NEXT: %inserted_slice = tensor.insert_slice %extracted_slice into %arg1[0, %dim] [%dim, 4] [1, 2] : tensor<?x4xf32> into tensor<?x16xf32>
  func.func @slices(%arg0: tensor<?x8xf32>, %arg1: tensor<?x16xf32>) -> (tensor<?x4xf32>, tensor<?x16xf32>) {
    %c0 = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0 : tensor<?x8xf32>
    %extracted_slice = tensor.extract_slice %arg0[0, 2] [%dim, 4] [1, 1] : tensor<?x8xf32> to tensor<?x4xf32>
    %inserted_slice = tensor.insert_slice %extracted_slice into %arg1[0, %dim] [%dim, 4] [1, 2] : tensor<?x4xf32> into tensor<?x16xf32>
    return %extracted_slice, %inserted_slice : tensor<?x4xf32>, tensor<?x16xf32>
  }
  // linalg.index, tensor.extract, compare/select and casts inside a body;
  // named ops with trailing attributes (transpose, broadcast).
  // CHECK-LABEL: func.func @body_ops(
  // CHECK:      %[[I:.*]] = linalg.index 0 : index
  // CHECK:      %[[J:.*]] = arith.subi %c2, %{{.*}} : index
  // CHECK:      %extracted = tensor.extract %arg0[%[[I]], %{{.*}}, %[[J]]] : tensor<2x3x3xf32>
  // CHECK:      %[[C:.*]] = arith.cmpf ugt, %extracted, %cst : f32
  // CHECK-NEXT: %[[S:.*]] = arith.select %[[C]], %extracted, %cst : f32
  // CHECK-NEXT: %[[W:.*]] = arith.extf %[[S]] : f32 to f64
  // CHECK-NEXT: %[[R:.*]] = math.rsqrt %[[W]] : f64
  // CHECK-NEXT: %[[T:.*]] = arith.truncf %[[R]] : f64 to f32
  // CHECK:      %transposed = linalg.transpose ins(%{{.*}} : tensor<2x3x3xf32>) outs(%{{.*}} : tensor<3x2x3xf32>) permutation = [1, 0, 2]
  // CHECK:      %broadcasted = linalg.broadcast ins(%arg1 : tensor<3xf32>) outs(%{{.*}} : tensor<2x3xf32>) dimensions = [0]
  func.func @body_ops(%arg0: tensor<2x3x3xf32>, %arg1: tensor<3xf32>) -> (tensor<3x2x3xf32>, tensor<2x3xf32>) {
    %c2 = arith.constant 2 : index
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<2x3x3xf32>
    %1 = linalg.generic {indexing_maps = [#map5], iterator_types = ["parallel", "parallel", "parallel"]} outs(%0 : tensor<2x3x3xf32>) {
    ^bb0(%out: f32):
      %6 = linalg.index 0 : index
      %7 = linalg.index 1 : index
      %8 = linalg.index 2 : index
      %9 = arith.subi %c2, %8 : index
      %extracted = tensor.extract %arg0[%6, %7, %9] : tensor<2x3x3xf32>
      %10 = arith.cmpf ugt, %extracted, %cst : f32
      %11 = arith.select %10, %extracted, %cst : f32
      %12 = arith.extf %11 : f32 to f64
      %13 = math.rsqrt %12 : f64
      %14 = arith.truncf %13 : f64 to f32
      linalg.yield %14 : f32
    } -> tensor<2x3x3xf32>
    %2 = tensor.empty() : tensor<3x2x3xf32>
    %transposed = linalg.transpose ins(%1 : tensor<2x3x3xf32>) outs(%2 : tensor<3x2x3xf32>) permutation = [1, 0, 2] 
    %3 = tensor.empty() : tensor<2x3xf32>
    %broadcasted = linalg.broadcast ins(%arg1 : tensor<3xf32>) outs(%3 : tensor<2x3xf32>) dimensions = [0] 
    return %transposed, %broadcasted : tensor<3x2x3xf32>, tensor<2x3xf32>
  }
  // CHECK-LABEL: func.func @matmuls(
  // CHECK:      linalg.matmul ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%{{.*}} : tensor<4x16xf32>) -> tensor<4x16xf32>
  // CHECK:      linalg.batch_matmul ins(%arg2, %arg3 : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%{{.*}} : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  func.func @matmuls(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32>, %arg2: tensor<2x4x8xf32>, %arg3: tensor<2x8x16xf32>) -> (tensor<4x16xf32>, tensor<2x4x16xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<4x16xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %2 = linalg.matmul ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%1 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %3 = tensor.empty() : tensor<2x4x16xf32>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %5 = linalg.batch_matmul ins(%arg2, %arg3 : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%4 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    return %2, %5 : tensor<4x16xf32>, tensor<2x4x16xf32>
  }
  // Dense constants, conflicting names and dynamic tensor.empty.
  // CHECK-LABEL: func.func @constants(
  // CHECK:      %cst = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  // CHECK-NEXT: %cst_0 = arith.constant dense<0.000000e+00> : tensor<2x2xf32>
  // CHECK-NEXT: %c1_i64 = arith.constant 1 : i64
  // CHECK-NEXT: %true = arith.constant true
  // CHECK-NEXT: %[[E:.*]] = tensor.empty(%arg0) : tensor<?x2xf32>
  func.func @constants(%arg0: index) -> (tensor<2xf32>, tensor<2x2xf32>, i64, i1, tensor<?x2xf32>) {
    %cst = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<2x2xf32>
    %c1_i64 = arith.constant 1 : i64
    %true = arith.constant true
    %0 = tensor.empty(%arg0) : tensor<?x2xf32>
    return %cst, %cst_0, %c1_i64, %true, %0 : tensor<2xf32>, tensor<2x2xf32>, i64, i1, tensor<?x2xf32>
  }
}
