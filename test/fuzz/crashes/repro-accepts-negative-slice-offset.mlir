func.func @f(%a: tensor<4xf32>) -> tensor<2xf32> {
  %0 = tensor.extract_slice %a[-1] [2] [1] : tensor<4xf32> to tensor<2xf32>
  return %0 : tensor<2xf32>
}
