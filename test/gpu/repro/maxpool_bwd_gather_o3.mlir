// The gradient of maxpool_bwd_o3.mlir (max_pool2d 3x3 stride 2 pad 1 over
// 2x16x32x32, gradient = a + b) as a gather: one linalg.generic over the
// input positions (n, c, h, w) and the <= 2x2 windows (i, j) that cover each,
// oh = (h + 1) / 2 - i, taking g[n, c, oh, ow] where the window is in bounds,
// covers (h, w) and its argmax index is h * 32 + w.  No scatter: it builds
// with --iree-opt-level=O3 for rocm gfx942, cuda sm_80 and vulkan-spirv rdna3
// (IREE 3.13), and matches PyTorch's max_pool2d_with_indices_backward on
// IREE llvm-cpu (max abs error 1e-6).  A form convopt could emit for the op.
// iree-compile maxpool_bwd_gather_o3.mlir --iree-opt-level=O3 --iree-hal-target-backends=rocm --iree-rocm-target=gfx942 -o /dev/null
#out = affine_map<(n, c, h, w, i, j) -> (n, c, h, w)>
#taps = affine_map<(n, c, h, w, i, j) -> (i, j)>
func.func @main(%a: tensor<2x16x16x16xf32>, %b: tensor<2x16x16x16xf32>, %idx: tensor<2x16x16x16xi64>) -> tensor<2x16x32x32xf32> {
  %g0 = tensor.empty() : tensor<2x16x16x16xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %b : tensor<2x16x16x16xf32>, tensor<2x16x16x16xf32>) outs(%g0 : tensor<2x16x16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<2x16x16x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x32x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x32x32xf32>) -> tensor<2x16x32x32xf32>
  %t = tensor.empty() : tensor<2x2xf32>
  %r = linalg.generic {indexing_maps = [#taps, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%t : tensor<2x2xf32>) outs(%f : tensor<2x16x32x32xf32>) {
  ^bb0(%unused: f32, %acc: f32):
    %n = linalg.index 0 : index
    %c = linalg.index 1 : index
    %h = linalg.index 2 : index
    %w = linalg.index 3 : index
    %i = linalg.index 4 : index
    %j = linalg.index 5 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c15 = arith.constant 15 : index
    %c32 = arith.constant 32 : index
    %hp = arith.addi %h, %c1 : index
    %wp = arith.addi %w, %c1 : index
    %qh = arith.divui %hp, %c2 : index
    %qw = arith.divui %wp, %c2 : index
    %oh = arith.subi %qh, %i : index
    %ow = arith.subi %qw, %j : index
    %ohok0 = arith.cmpi uge, %qh, %i : index
    %owok0 = arith.cmpi uge, %qw, %j : index
    %ohok1 = arith.cmpi ule, %oh, %c15 : index
    %owok1 = arith.cmpi ule, %ow, %c15 : index
    %ohs = arith.muli %oh, %c2 : index
    %ows = arith.muli %ow, %c2 : index
    %kh = arith.subi %hp, %ohs : index
    %kw = arith.subi %wp, %ows : index
    %khok = arith.cmpi ult, %kh, %c3 : index
    %kwok = arith.cmpi ult, %kw, %c3 : index
    %v1 = arith.andi %ohok0, %owok0 : i1
    %v2 = arith.andi %ohok1, %owok1 : i1
    %v3 = arith.andi %khok, %kwok : i1
    %v4 = arith.andi %v1, %v2 : i1
    %v = arith.andi %v4, %v3 : i1
    %ohc = arith.select %v, %oh, %c0 : index
    %owc = arith.select %v, %ow, %c0 : index
    %gv = tensor.extract %g[%n, %c, %ohc, %owc] : tensor<2x16x16x16xf32>
    %iv = tensor.extract %idx[%n, %c, %ohc, %owc] : tensor<2x16x16x16xi64>
    %hw = arith.muli %h, %c32 : index
    %flat = arith.addi %hw, %w : index
    %flat64 = arith.index_cast %flat : index to i64
    %hit = arith.cmpi eq, %iv, %flat64 : i64
    %take = arith.andi %v, %hit : i1
    %add = arith.select %take, %gv, %zero : f32
    %s = arith.addf %acc, %add : f32
    linalg.yield %s : f32
  } -> tensor<2x16x32x32xf32>
  return %r : tensor<2x16x32x32xf32>
}
