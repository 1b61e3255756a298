func.func @f() -> tensor<9223372036854775808xf32> {
  %0 = tensor.empty() : tensor<9223372036854775808xf32>
  return %0 : tensor<9223372036854775808xf32>
}
