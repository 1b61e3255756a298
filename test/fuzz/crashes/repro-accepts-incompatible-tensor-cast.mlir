func.func @f(%a: tensor<3xf32>) -> tensor<1x1xf16> {
  %0 = tensor.cast %a : tensor<3xf32> to tensor<1x1xf16>
  return %0 : tensor<1x1xf16>
}
