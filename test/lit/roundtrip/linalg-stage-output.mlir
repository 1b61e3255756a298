// What torch-mlir's linalg stage emits for training steps, read and printed
// back as mlir-opt prints it: a linalg.generic with several results
// (`-> (A, B)`), math.fpowi (`: F, I`, the result of the base's type),
// tensor.concat (`dim(D)`), cf.assert (`%cond, "message"`), affine.apply
// (`#map(dims)[symbols]`), tm_tensor.scatter (`unique_indices(B)`) and the
// named pooling ops (max_pool, avg_pool).
// RUN: %convopt %s | FileCheck %s
// RUN: %convopt %s | %convopt | FileCheck %s
// RUN: %convopt %s | %mlir-verify

// CHECK: #[[M:.*]] = affine_map<()[s0] -> (s0 * 64)>
// CHECK: #[[M2:.*]] = affine_map<(d0)[s0] -> (d0 + s0)>
// CHECK-LABEL: func.func @argmax(
// CHECK:         %[[R:.*]]:2 = linalg.generic {{.*}} outs(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xi64>) {
// CHECK:           math.fpowi %{{.*}}, %{{.*}} : f32, i64
// CHECK:         } -> (tensor<4xf32>, tensor<4xi64>)
// CHECK:         return %[[R]]#0, %[[R]]#1 : tensor<4xf32>, tensor<4xi64>
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @argmax(%x: tensor<4x10xf32>, %m: tensor<4xf32>, %i: tensor<4xi64>) -> (tensor<4xf32>, tensor<4xi64>) {
  %c2 = arith.constant 2 : i64
  %0:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x10xf32>) outs(%m, %i : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %out: f32, %out_0: i64):
    %1 = linalg.index 1 : index
    %2 = arith.index_cast %1 : index to i64
    %sq = math.fpowi %in, %c2 : f32, i64
    %3 = arith.maximumf %sq, %out : f32
    %4 = arith.cmpf ogt, %sq, %out : f32
    %5 = arith.select %4, %2, %out_0 : i64
    linalg.yield %3, %5 : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xi64>
}

// CHECK-LABEL: func.func @concat_and_assert(
// CHECK:         %[[OK:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    cf.assert %[[OK]], "mismatching \22sizes\22"
// CHECK-NEXT:    %[[C:.*]] = tensor.concat dim(1) %arg0, %arg1 : (tensor<2x3xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>
// CHECK-NEXT:    return %[[C]] : tensor<2x?xf32>
func.func @concat_and_assert(%a: tensor<2x3xf32>, %b: tensor<2x?xf32>, %n: index) -> tensor<2x?xf32> {
  %c1 = arith.constant 1 : index
  %d = tensor.dim %b, %c1 : tensor<2x?xf32>
  %ok = arith.cmpi eq, %d, %n : index
  cf.assert %ok, "mismatching \22sizes\22"
  %0 = tensor.concat dim(1) %a, %b : (tensor<2x3xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// CHECK-LABEL: func.func @apply(
// CHECK:         %[[A:.*]] = affine.apply #[[M]]()[%arg0]
// CHECK-NEXT:    %[[B:.*]] = affine.apply #[[M2]](%[[A]])[%arg0]
// CHECK-NEXT:    return %[[B]] : index
#m64 = affine_map<()[s0] -> (s0 * 64)>
func.func @apply(%n: index) -> index {
  %0 = affine.apply #m64()[%n]
  %1 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%0)[%n]
  return %1 : index
}

// CHECK-LABEL: func.func @scatter(
// CHECK:         %[[S:.*]] = tm_tensor.scatter {dimension_map = array<i64: 0, 1>} unique_indices(false) ins(%arg0, %arg1 : tensor<4xf32>, tensor<4x2xi64>) outs(%arg2 : tensor<4x10xf32>) {
// CHECK-NEXT:    ^bb0(%arg3: f32, %arg4: f32):
// CHECK-NEXT:      %[[ADD:.*]] = arith.addf %arg3, %arg4 : f32
// CHECK-NEXT:      tm_tensor.yield %[[ADD]] : f32
// CHECK-NEXT:    } -> tensor<4x10xf32>
func.func @scatter(%u: tensor<4xf32>, %i: tensor<4x2xi64>, %o: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %0 = tm_tensor.scatter {dimension_map = array<i64: 0, 1>} unique_indices(false) ins(%u, %i : tensor<4xf32>, tensor<4x2xi64>) outs(%o : tensor<4x10xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tm_tensor.yield %s : f32
  } -> tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}

// CHECK-LABEL: func.func @pools(
// CHECK:         linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%arg0, %arg1 : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%arg2 : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
// CHECK:         linalg.pooling_ndhwc_sum {dilations = dense<1> : vector<3xi64>, strides = dense<1> : vector<3xi64>} ins(%arg3, %arg4 : tensor<1x3x3x3x2xf32>, tensor<2x2x2xf32>) outs(%arg5 : tensor<1x2x2x2x2xf32>) -> tensor<1x2x2x2x2xf32>
func.func @pools(%x: tensor<1x2x4x4xf32>, %k: tensor<2x2xf32>, %o: tensor<1x2x2x2xf32>, %x3: tensor<1x3x3x3x2xf32>, %k3: tensor<2x2x2xf32>, %o3: tensor<1x2x2x2x2xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2x2xf32>) {
  %0 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %k : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%o : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %1 = linalg.pooling_ndhwc_sum {dilations = dense<1> : vector<3xi64>, strides = dense<1> : vector<3xi64>} ins(%x3, %k3 : tensor<1x3x3x3x2xf32>, tensor<2x2x2xf32>) outs(%o3 : tensor<1x2x2x2x2xf32>) -> tensor<1x2x2x2x2xf32>
  return %0, %1 : tensor<1x2x2x2xf32>, tensor<1x2x2x2x2xf32>
}
