// The extreme values torch-mlir accepts round-trip: i64's range in
// torch.constant.int, uniform nested literals, splats, empty literals.
// RUN: %convopt %s | FileCheck %s
// RUN: %convopt %s | %mlir-verify

// CHECK-LABEL: func.func @limits
// CHECK: torch.constant.int -9223372036854775808
// CHECK: torch.constant.int 9223372036854775807
// CHECK: arith.constant dense<{{\[}}[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
// CHECK: arith.constant dense<1.0> : tensor<2x2xf32>
// CHECK: arith.constant dense<{{\[}}]> : tensor<0xf32>
func.func @limits() -> (!torch.int, !torch.int, tensor<2x2xf32>, tensor<2x2xf32>, tensor<0xf32>) {
  %0 = torch.constant.int -9223372036854775808
  %1 = torch.constant.int 9223372036854775807
  %2 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %3 = arith.constant dense<1.0> : tensor<2x2xf32>
  %4 = arith.constant dense<[]> : tensor<0xf32>
  return %0, %1, %2, %3, %4 : !torch.int, !torch.int, tensor<2x2xf32>, tensor<2x2xf32>, tensor<0xf32>
}
