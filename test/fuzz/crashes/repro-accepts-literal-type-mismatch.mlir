func.func @f() -> !torch.vtensor<[2],si64> {
  %0 = torch.vtensor.literal(dense<[1.0, 2.0]> : tensor<2xf32>) : !torch.vtensor<[2],si64>
  return %0 : !torch.vtensor<[2],si64>
}
