// --mlir-elide-elementsattrs-if-larger=N prints a dense attribute of more
// than N elements as `dense_resource<__elided__>`, as mlir-opt does (a splat
// counts as one element); the output still parses.
// RUN: %convopt %s --mlir-elide-elementsattrs-if-larger=2 | FileCheck %s
// RUN: %convopt %s -mlir-elide-elementsattrs-if-larger=2 | %convopt | FileCheck %s
// RUN: %convopt %s --mlir-elide-elementsattrs-if-larger=2 | %mlir-verify
// RUN: %convopt %s --mlir-elide-elementsattrs-if-larger=4 | FileCheck %s --check-prefix=FOUR

// CHECK-LABEL: func.func @f(
// CHECK-SAME:      attributes {note = dense_resource<__elided__> : tensor<2x2xi32>}
// CHECK:         arith.constant dense_resource<__elided__> : tensor<4xf32>
// CHECK:         arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
// CHECK:         arith.constant dense<5.0> : tensor<8xf32>
// CHECK:         torch.vtensor.literal(dense_resource<__elided__> : tensor<3xf32>) : !torch.vtensor<[3],f32>
// FOUR:          attributes {note = dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi32>}
// FOUR:          arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
func.func @f() -> (tensor<4xf32>, tensor<2xf32>, tensor<8xf32>, !torch.vtensor<[3],f32>) attributes {note = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>} {
  %0 = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %1 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %2 = arith.constant dense<5.0> : tensor<8xf32>
  %3 = torch.vtensor.literal(dense<[1.0, 2.0, 3.0]> : tensor<3xf32>) : !torch.vtensor<[3],f32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<2xf32>, tensor<8xf32>, !torch.vtensor<[3],f32>
}
