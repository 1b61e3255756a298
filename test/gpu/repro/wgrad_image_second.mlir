// IREE 3.13 rocm gfx942: "failed to pack reduction dimensions for partial reduction".
// A depthwise 7x7 weight gradient as a linalg.generic whose first input is the
// gradient (plain indices) and second the image (kh + oh, kw + ow): the GPU
// reduction pipeline packs the innermost reduced dim (ow), which the image
// reads in a compound index.  With the image first (convopt --device=gpu,
// Emission image_first) IREE sees a convolution and builds it.
// iree-compile wgrad_image_second.mlir --iree-hal-target-backends=rocm --iree-rocm-target=gfx942 -o /dev/null
#a = affine_map<(f, kh, kw, n, oh, ow) -> (n, f, oh, ow)>
#b = affine_map<(f, kh, kw, n, oh, ow) -> (n, f, kh + oh, kw + ow)>
#o = affine_map<(f, kh, kw, n, oh, ow) -> (f, kh, kw)>
func.func @main(%A: tensor<2x16x8x8xf32>, %B: tensor<2x16x14x14xf32>) -> tensor<16x7x7xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x7x7xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x7x7xf32>) -> tensor<16x7x7xf32>
  %r = linalg.generic {indexing_maps = [#a, #b, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%A, %B : tensor<2x16x8x8xf32>, tensor<2x16x14x14xf32>) outs(%f : tensor<16x7x7xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x7x7xf32>
  return %r : tensor<16x7x7xf32>
}
