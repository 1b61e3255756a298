// IREE 3.13 cuda sm_80: "LLVM ERROR: Cannot select: v2i16,v2i16 = umul_lohi" (NVPTX instruction
// selection; iree-compile aborts).  r2plus1d's step through README's GPU recipe (--lower-conv-bwd
// --lower-forward-convs --device=gpu), f32, bf16 and f16 alike, fails on this dispatch
// (main$async_dispatch_155_elementwise_broadcast_9216_f32): the dense copy of the weight taps of a
// strided 3x1x1 scatter's phases (kernel/taps.py, Emission dense_taps), one linalg.generic over a flat
// tensor whose indices are divisions and remainders by constants.  IREE narrows that index arithmetic
// to i16 vectors, which NVPTX cannot select; divsi/remsi fail alike.  rocm and vulkan-spirv build it.
// convopt no longer emits this form: kernel/taps.py writes each phase combination's block by its own
// op at affine positions (no division, no remainder), and r2plus1d builds for cuda in f32, bf16, f16.
// Checked by test/gpu/test_gpu_compile.py test_cuda_tap_copy_failure_is_reproduced (CONVOPT_GPU_FULL=1).
// iree-compile cuda_tap_copy_umul_lohi.mlir --iree-hal-target-backends=cuda --iree-cuda-target=sm_80 -o /dev/null
func.func @main(%2: tensor<64x48x3xf32>) -> tensor<9216xf32> {
  %c48 = arith.constant 48 : index
  %c3072 = arith.constant 3072 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %3 = tensor.empty() : tensor<9216xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%3 : tensor<9216xf32>) {
  ^bb0(%out: f32):
    %5 = linalg.index 0 : index
    %6 = arith.remui %5, %c48 : index
    %7 = arith.divui %5, %c48 : index
    %8 = arith.subi %5, %c3072 : index
    %9 = arith.remui %8, %c2 : index
    %10 = arith.divui %8, %c2 : index
    %11 = arith.remui %10, %c48 : index
    %12 = arith.divui %10, %c48 : index
    %13 = arith.muli %9, %c2 : index
    %14 = arith.subi %c2, %13 : index
    %15 = arith.cmpi uge, %5, %c3072 : index
    %16 = arith.select %15, %12, %7 : index
    %17 = arith.select %15, %11, %6 : index
    %18 = arith.select %15, %14, %c1 : index
    %extracted = tensor.extract %2[%16, %17, %18] : tensor<64x48x3xf32>
    linalg.yield %extracted : f32
  } -> tensor<9216xf32>
  return %4 : tensor<9216xf32>
}
