// What torch-mlir's linalg stage emits and convopt reads back byte for
// byte: a linalg.generic with several results (`-> (A, B)`, as mlir-opt
// prints them) and math.fpowi (`: F, I`, the result of the base's type).
// RUN: %convopt %s | FileCheck %s
// RUN: %convopt %s | %convopt | FileCheck %s
// RUN: %convopt %s | %mlir-verify

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
