// An op tensor does not have, for allow-unregistered-dialect.mlir.
func.func @known_dialect_unknown_op() -> tensor<2xf32> {
  %0 = "tensor.emtpy"() : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
