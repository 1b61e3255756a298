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

// -----

func.func @incompatible_cast(%a: tensor<3xf32>) -> tensor<1x1xf16> {
  // expected-error @+1 {{'tensor.cast' op operand type 'tensor<3xf32>' and result type 'tensor<1x1xf16>' are cast incompatible}}
  %0 = tensor.cast %a : tensor<3xf32> to tensor<1x1xf16>
  return %0 : tensor<1x1xf16>
}

// -----

func.func @cast_size_mismatch(%a: tensor<3x?xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{are cast incompatible}}
  %0 = tensor.cast %a : tensor<3x?xf32> to tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @negative_slice_offset(%a: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'tensor.extract_slice' op expected offsets to be non-negative, but got -1}}
  %0 = tensor.extract_slice %a[-1] [2] [1] : tensor<4xf32> to tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @literal_type_mismatch() -> !torch.vtensor<[2],si64> {
  // expected-error @+1 {{'torch.vtensor.literal' op inferred type(s) '!torch.vtensor<[2],f32>' are incompatible with return type(s) of operation '!torch.vtensor<[2],si64>'}}
  %0 = torch.vtensor.literal(dense<[1.0, 2.0]> : tensor<2xf32>) : !torch.vtensor<[2],si64>
  return %0 : !torch.vtensor<[2],si64>
}

// -----

func.func @unranked_literal() -> !torch.vtensor<[2],f32> {
  // expected-error @+1 {{'torch.vtensor.literal' op expects a ranked tensor literal, not 'tensor<*xf32>'}}
  %0 = torch.vtensor.literal(dense<1.0> : tensor<*xf32>) : !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}
