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

// Casts between compatible types, literals whose signless integers read as
// signed, slices with any stride: all valid MLIR.
// CHECK-LABEL: func.func @compatible
// CHECK: tensor.cast %{{.*}} : tensor<3x?xf32> to tensor<?x4xf32>
// CHECK: torch.vtensor.literal(dense<1> : tensor<2xi64>) : !torch.vtensor<[2],si64>
// CHECK: torch.vtensor.literal(dense<true> : tensor<2xi1>) : !torch.vtensor<[2],i1>
// CHECK: tensor.extract_slice %{{.*}}[3] [2] [-1]
func.func @compatible(%a: tensor<3x?xf32>, %b: tensor<4xf32>) -> (tensor<?x4xf32>, !torch.vtensor<[2],si64>, !torch.vtensor<[2],i1>, tensor<2xf32>) {
  %0 = tensor.cast %a : tensor<3x?xf32> to tensor<?x4xf32>
  %1 = torch.vtensor.literal(dense<1> : tensor<2xi64>) : !torch.vtensor<[2],si64>
  %2 = torch.vtensor.literal(dense<true> : tensor<2xi1>) : !torch.vtensor<[2],i1>
  %3 = tensor.extract_slice %b[3] [2] [-1] : tensor<4xf32> to tensor<2xf32>
  return %0, %1, %2, %3 : tensor<?x4xf32>, !torch.vtensor<[2],si64>, !torch.vtensor<[2],i1>, tensor<2xf32>
}
