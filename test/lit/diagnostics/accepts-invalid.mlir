// Input that torch-mlir-opt rejects is rejected here too, with its message
// (found by test/fuzz: convopt used to accept these and print invalid IR).
// RUN: %convopt %s --split-input-file --verify-diagnostics

func.func @int_beyond_i64() -> !torch.int {
  // expected-error @+1 {{integer value too large}}
  %0 = torch.constant.int 9223372036854775808
  return %0 : !torch.int
}

// -----

func.func @int_below_i64() -> !torch.int {
  // expected-error @+1 {{integer value too large}}
  %0 = torch.constant.int -9223372036854775809
  return %0 : !torch.int
}

// -----

// expected-error @+1 {{invalid dimension}}
func.func @dim_beyond_i64() -> tensor<9223372036854775808xf32> {
  %0 = tensor.empty() : tensor<9223372036854775808xf32>
  return %0 : tensor<9223372036854775808xf32>
}

// -----

// expected-error @+1 {{invalid dimension}}
func.func @vtensor_dim_beyond_i64(%a: !torch.vtensor<[2,9223372036854775808],f32>) {
  return
}

// -----

func.func @dense_shape_mismatch() -> tensor<3xf32> {
  // expected-error @+1 {{inferred shape of elements literal ([2]) does not match type ([3])}}
  %0 = arith.constant dense<[1.0, 2.0]> : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @dense_ragged() -> tensor<2x2xf32> {
  // expected-error @+1 {{tensor literal is invalid; ranks or sizes are not consistent between elements}}
  %0 = arith.constant dense<[[1.0, 2.0], [3.0]]> : tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
