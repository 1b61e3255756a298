// IREE 3.13 vulkan-spirv (--iree-vulkan-target=rdna3): "'vector.transfer_read' op with rank > 1 should be
// broken down by prior passes".  r2plus1d's step through README's GPU recipe (--lower-conv-bwd
// --lower-forward-convs --device=gpu, f32) fails on this dispatch (main$async_dispatch_141_matmul_like_
// 2x48x16x64x3_f32): the padded gather (grad_input) of a stride-1 3x1x1 convolution whose temporal
// extent is 1 with padding 1, so its 3 taps reduce over a zero-padded [2, 64, 3, 16] operand and only
// the middle tap ever reads grad_output.  The same contraction with 2, 4 or 8 taps builds, and so does
// the one useful tap alone (a plain [2,64,16] x [64,48] contraction); the K=3 op fails with the taps
// innermost, outermost or the weight kernel-dims first alike.  rocm gfx942 and cuda sm_80 build it.
// A fix on convopt's side: a padded gather that drops the taps that never read in bounds (here two of
// three).  Checked by test/gpu/test_gpu_compile.py test_vulkan_three_tap_reduction_failure_is_reproduced
// (CONVOPT_GPU_FULL=1).
// iree-compile vulkan_matmul_like_three_taps.mlir --iree-hal-target-backends=vulkan-spirv --iree-vulkan-target=rdna3 -o /dev/null
func.func @main(%a: tensor<2x64x3x16xf32>, %w: tensor<64x48x3xf32>, %m: tensor<2x48x16xf32>) -> tensor<2x48x16xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x48x16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<2x48x16xf32>) -> tensor<2x48x16xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%a, %w : tensor<2x64x3x16xf32>, tensor<64x48x3xf32>) outs(%f : tensor<2x48x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x48x16xf32>
  return %g : tensor<2x48x16xf32>
}
