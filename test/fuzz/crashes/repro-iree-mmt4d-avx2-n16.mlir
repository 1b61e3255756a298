// IREE 3.13 (iree-base-compiler 3.13.0) computes a wrong product for this
// pack + mmt4d + unpack module when it compiles for an x86 CPU without
// AVX-512, for every mmt4d tile of 16 columns (N0 = 16): relative error ~1.3
// against numpy (A @ B) for --iree-llvmcpu-target-cpu=znver2 or haswell;
// right (error ~4e-7) for skylake-avx512, znver4 and an avx512_bf16 host, and
// right on znver2 with 8x8x1 tiles.  convopt's interpreter agrees with numpy
// on it.  Made by test/fuzz/packed_sweep.py (--print-ir); run with
//
//   iree-compile --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=znver2 repro-iree-mmt4d-avx2-n16.mlir -o m.vmfb
//   python test/fuzz/packed_sweep.py --cpus znver2,host --tiles 16x16x1 --dtypes f32
//
// convopt: packed.MAX_N0_WITHOUT_AVX512 (--matmul-tiles refuses these tiles
// for --device=avx2 and warns at each mmt4d on a machine without avx512f).
func.func @main(%a: tensor<64x128xf32>, %b: tensor<128x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ea = tensor.empty() : tensor<4x128x16x1xf32>
  %a4 = linalg.pack %a outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 1] into %ea : tensor<64x128xf32> -> tensor<4x128x16x1xf32>
  %eb = tensor.empty() : tensor<4x128x16x1xf32>
  %b4 = linalg.pack %b outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 1] into %eb : tensor<128x64xf32> -> tensor<4x128x16x1xf32>
  %ec = tensor.empty() : tensor<4x4x16x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ec : tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
  %c4 = linalg.mmt4d ins(%a4, %b4 : tensor<4x128x16x1xf32>, tensor<4x128x16x1xf32>) outs(%acc : tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
  %ecm = tensor.empty() : tensor<64x64xf32>
  %c = linalg.unpack %c4 outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %ecm : tensor<4x4x16x16xf32> -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}
