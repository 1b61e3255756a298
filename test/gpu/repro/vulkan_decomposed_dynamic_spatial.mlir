// IREE 3.13 vulkan-spirv (--iree-vulkan-target=rdna3): failed to legalize unresolved source materialization (builtin.unrealized_conversion_cast of a dynamic strided memref)
// on convopt --lower-conv-bwd --backend-legal-ops= --device=gpu's output (the
// decomposed path) for the named e2e row 2d_dynamic_spatial.  rocm and cuda build this file;
// the direct path's output of the row (builds) and the raw import (fails)
// for vulkan: IREE's limitation, which the raw import shares (test_gpu_compile.py
// KNOWN_DECOMPOSED_FAILURES); the direct path avoids it.
// iree-compile vulkan_decomposed_dynamic_spatial.mlir --iree-input-type=torch --iree-hal-target-backends=vulkan-spirv --iree-vulkan-target=rdna3 -o /dev/null
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1, d2, d3, d4) -> (d4, d1, 0, 0)>
#map2 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#map4 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d4, d2, d3 + d5)>
#map5 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1, 0, d5)>
#map6 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
#map7 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d4, d2 + d5, d3)>
#map8 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1, d5, 0)>
#map9 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5, d3 + d6)>
#map10 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d1, d5, d6)>
#map11 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
#map12 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5 * 2, d3 + d6 * 2)>
#map13 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
#map14 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map15 = affine_map<(d0, d1, d2, d3) -> (d1)>
module {
  func.func @main(%arg0: tensor<2x6x?x?xf32>, %arg1: tensor<2x4x?x?xf32>, %arg2: tensor<6x4x3x3xf32>) -> (tensor<2x4x?x?xf32>, tensor<6x4x3x3xf32>, tensor<6xf32>) {
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c0 = arith.constant 0 : index
    %c24 = arith.constant 24 : index
    %c72 = arith.constant 72 : index
    %c120 = arith.constant 120 : index
    %c4 = arith.constant 4 : index
    %cst = arith.constant 0.000000e+00 : f32
    %c-1 = arith.constant -1 : index
    %dim = tensor.dim %arg0, %c2 : tensor<2x6x?x?xf32>
    %0 = arith.subi %dim, %c1 : index
    %1 = arith.muli %0, %c2 : index
    %2 = arith.addi %1, %c2 : index
    %dim_0 = tensor.dim %arg0, %c3 : tensor<2x6x?x?xf32>
    %3 = arith.subi %dim_0, %c1 : index
    %4 = arith.muli %3, %c2 : index
    %5 = arith.addi %4, %c2 : index
    %dim_1 = tensor.dim %arg1, %c2 : tensor<2x4x?x?xf32>
    %6 = arith.minsi %2, %dim_1 : index
    %dim_2 = tensor.dim %arg1, %c3 : tensor<2x4x?x?xf32>
    %7 = arith.minsi %5, %dim_2 : index
    %8 = arith.ceildivsi %6, %c2 : index
    %9 = arith.maxsi %8, %c0 : index
    %10 = arith.subi %6, %c1 : index
    %11 = arith.ceildivsi %10, %c2 : index
    %12 = arith.addi %11, %c1 : index
    %13 = arith.maxsi %12, %c0 : index
    %14 = arith.ceildivsi %7, %c2 : index
    %15 = arith.maxsi %14, %c0 : index
    %16 = arith.subi %7, %c1 : index
    %17 = arith.ceildivsi %16, %c2 : index
    %18 = arith.addi %17, %c1 : index
    %19 = arith.maxsi %18, %c0 : index
    %20 = tensor.empty() : tensor<216xf32>
    %21 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%20 : tensor<216xf32>) {
    ^bb0(%out: f32):
      %95 = linalg.index 0 : index
      %96 = arith.remui %95, %c4 : index
      %97 = arith.divui %95, %c4 : index
      %98 = arith.subi %95, %c24 : index
      %99 = arith.remui %98, %c2 : index
      %100 = arith.divui %98, %c2 : index
      %101 = arith.remui %100, %c4 : index
      %102 = arith.divui %100, %c4 : index
      %103 = arith.muli %99, %c2 : index
      %104 = arith.subi %c2, %103 : index
      %105 = arith.cmpi uge, %95, %c24 : index
      %106 = arith.select %105, %102, %97 : index
      %107 = arith.select %105, %101, %96 : index
      %108 = arith.select %105, %c1, %c1 : index
      %109 = arith.select %105, %104, %c1 : index
      %110 = arith.subi %95, %c72 : index
      %111 = arith.remui %110, %c2 : index
      %112 = arith.divui %110, %c2 : index
      %113 = arith.remui %112, %c4 : index
      %114 = arith.divui %112, %c4 : index
      %115 = arith.muli %111, %c2 : index
      %116 = arith.subi %c2, %115 : index
      %117 = arith.cmpi uge, %95, %c72 : index
      %118 = arith.select %117, %114, %106 : index
      %119 = arith.select %117, %113, %107 : index
      %120 = arith.select %117, %116, %108 : index
      %121 = arith.select %117, %c1, %109 : index
      %122 = arith.subi %95, %c120 : index
      %123 = arith.remui %122, %c2 : index
      %124 = arith.divui %122, %c2 : index
      %125 = arith.remui %124, %c2 : index
      %126 = arith.divui %124, %c2 : index
      %127 = arith.remui %126, %c4 : index
      %128 = arith.divui %126, %c4 : index
      %129 = arith.muli %125, %c2 : index
      %130 = arith.subi %c2, %129 : index
      %131 = arith.muli %123, %c2 : index
      %132 = arith.subi %c2, %131 : index
      %133 = arith.cmpi uge, %95, %c120 : index
      %134 = arith.select %133, %128, %118 : index
      %135 = arith.select %133, %127, %119 : index
      %136 = arith.select %133, %130, %120 : index
      %137 = arith.select %133, %132, %121 : index
      %extracted = tensor.extract %arg2[%134, %135, %136, %137] : tensor<6x4x3x3xf32>
      linalg.yield %extracted : f32
    } -> tensor<216xf32>
    %extracted_slice = tensor.extract_slice %21[0] [24] [1] : tensor<216xf32> to tensor<24xf32>
    %expanded = tensor.expand_shape %extracted_slice [[0, 1, 2, 3]] output_shape [6, 4, 1, 1] : tensor<24xf32> into tensor<6x4x1x1xf32>
    %extracted_slice_3 = tensor.extract_slice %21[24] [48] [1] : tensor<216xf32> to tensor<48xf32>
    %expanded_4 = tensor.expand_shape %extracted_slice_3 [[0, 1, 2, 3]] output_shape [6, 4, 1, 2] : tensor<48xf32> into tensor<6x4x1x2xf32>
    %extracted_slice_5 = tensor.extract_slice %21[72] [48] [1] : tensor<216xf32> to tensor<48xf32>
    %expanded_6 = tensor.expand_shape %extracted_slice_5 [[0, 1, 2, 3]] output_shape [6, 4, 2, 1] : tensor<48xf32> into tensor<6x4x2x1xf32>
    %extracted_slice_7 = tensor.extract_slice %21[120] [96] [1] : tensor<216xf32> to tensor<96xf32>
    %expanded_8 = tensor.expand_shape %extracted_slice_7 [[0, 1, 2, 3]] output_shape [6, 4, 2, 2] : tensor<96xf32> into tensor<6x4x2x2xf32>
    %22 = arith.subi %9, %c1 : index
    %23 = arith.addi %22, %c1 : index
    %24 = arith.subi %23, %dim : index
    %25 = arith.maxsi %c0, %24 : index
    %26 = arith.subi %13, %c1 : index
    %27 = arith.addi %26, %c1 : index
    %28 = arith.subi %27, %dim : index
    %29 = arith.maxsi %25, %28 : index
    %30 = arith.subi %15, %c1 : index
    %31 = arith.addi %30, %c1 : index
    %32 = arith.subi %31, %dim_0 : index
    %33 = arith.maxsi %c0, %32 : index
    %34 = arith.subi %19, %c1 : index
    %35 = arith.addi %34, %c1 : index
    %36 = arith.subi %35, %dim_0 : index
    %37 = arith.maxsi %33, %36 : index
    %padded = tensor.pad %arg0 low[0, 0, 0, 0] high[0, 0, %29, %37] {
    ^bb0(%arg3: index, %arg4: index, %arg5: index, %arg6: index):
      tensor.yield %cst : f32
    } : tensor<2x6x?x?xf32> to tensor<2x6x?x?xf32>
    %extracted_slice_9 = tensor.extract_slice %padded[0, 0, 0, 0] [2, 6, %9, %15] [1, 1, 1, 1] : tensor<2x6x?x?xf32> to tensor<2x6x?x?xf32>
    %38 = tensor.empty(%6, %7) : tensor<2x4x?x?xf32>
    %39 = linalg.fill ins(%cst : f32) outs(%38 : tensor<2x4x?x?xf32>) -> tensor<2x4x?x?xf32>
    %40 = tensor.empty(%8, %14) : tensor<2x4x?x?xf32>
    %41 = linalg.fill ins(%cst : f32) outs(%40 : tensor<2x4x?x?xf32>) -> tensor<2x4x?x?xf32>
    %42 = linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%expanded, %extracted_slice_9 : tensor<6x4x1x1xf32>, tensor<2x6x?x?xf32>) outs(%41 : tensor<2x4x?x?xf32>) {
    ^bb0(%in: f32, %in_30: f32, %out: f32):
      %95 = arith.mulf %in_30, %in : f32
      %96 = arith.addf %out, %95 : f32
      linalg.yield %96 : f32
    } -> tensor<2x4x?x?xf32>
    %inserted_slice = tensor.insert_slice %42 into %39[0, 0, 0, 0] [2, 4, %8, %14] [1, 1, 2, 2] : tensor<2x4x?x?xf32> into tensor<2x4x?x?xf32>
    %extracted_slice_10 = tensor.extract_slice %padded[0, 0, 0, 0] [2, 6, %9, %19] [1, 1, 1, 1] : tensor<2x6x?x?xf32> to tensor<2x6x?x?xf32>
    %43 = tensor.empty(%8, %17) : tensor<2x4x?x?xf32>
    %44 = linalg.fill ins(%cst : f32) outs(%43 : tensor<2x4x?x?xf32>) -> tensor<2x4x?x?xf32>
    %45 = linalg.generic {indexing_maps = [#map4, #map5, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%extracted_slice_10, %expanded_4 : tensor<2x6x?x?xf32>, tensor<6x4x1x2xf32>) outs(%44 : tensor<2x4x?x?xf32>) {
    ^bb0(%in: f32, %in_30: f32, %out: f32):
      %95 = arith.mulf %in, %in_30 : f32
      %96 = arith.addf %out, %95 : f32
      linalg.yield %96 : f32
    } -> tensor<2x4x?x?xf32>
    %inserted_slice_11 = tensor.insert_slice %45 into %inserted_slice[0, 0, 0, 1] [2, 4, %8, %17] [1, 1, 2, 2] : tensor<2x4x?x?xf32> into tensor<2x4x?x?xf32>
    %extracted_slice_12 = tensor.extract_slice %padded[0, 0, 0, 0] [2, 6, %13, %15] [1, 1, 1, 1] : tensor<2x6x?x?xf32> to tensor<2x6x?x?xf32>
    %46 = tensor.empty(%11, %14) : tensor<2x4x?x?xf32>
    %47 = linalg.fill ins(%cst : f32) outs(%46 : tensor<2x4x?x?xf32>) -> tensor<2x4x?x?xf32>
    %48 = linalg.generic {indexing_maps = [#map7, #map8, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%extracted_slice_12, %expanded_6 : tensor<2x6x?x?xf32>, tensor<6x4x2x1xf32>) outs(%47 : tensor<2x4x?x?xf32>) {
    ^bb0(%in: f32, %in_30: f32, %out: f32):
      %95 = arith.mulf %in, %in_30 : f32
      %96 = arith.addf %out, %95 : f32
      linalg.yield %96 : f32
    } -> tensor<2x4x?x?xf32>
    %inserted_slice_13 = tensor.insert_slice %48 into %inserted_slice_11[0, 0, 1, 0] [2, 4, %11, %14] [1, 1, 2, 2] : tensor<2x4x?x?xf32> into tensor<2x4x?x?xf32>
    %extracted_slice_14 = tensor.extract_slice %padded[0, 0, 0, 0] [2, 6, %13, %19] [1, 1, 1, 1] : tensor<2x6x?x?xf32> to tensor<2x6x?x?xf32>
    %49 = tensor.empty(%11, %17) : tensor<2x4x?x?xf32>
    %50 = linalg.fill ins(%cst : f32) outs(%49 : tensor<2x4x?x?xf32>) -> tensor<2x4x?x?xf32>
    %51 = linalg.generic {indexing_maps = [#map9, #map10, #map11], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%extracted_slice_14, %expanded_8 : tensor<2x6x?x?xf32>, tensor<6x4x2x2xf32>) outs(%50 : tensor<2x4x?x?xf32>) {
    ^bb0(%in: f32, %in_30: f32, %out: f32):
      %95 = arith.mulf %in, %in_30 : f32
      %96 = arith.addf %out, %95 : f32
      linalg.yield %96 : f32
    } -> tensor<2x4x?x?xf32>
    %inserted_slice_15 = tensor.insert_slice %51 into %inserted_slice_13[0, 0, 1, 1] [2, 4, %11, %17] [1, 1, 2, 2] : tensor<2x4x?x?xf32> into tensor<2x4x?x?xf32>
    %dim_16 = tensor.dim %arg1, %c2 : tensor<2x4x?x?xf32>
    %dim_17 = tensor.dim %arg1, %c3 : tensor<2x4x?x?xf32>
    %52 = tensor.empty(%dim_16, %dim_17) : tensor<4x2x?x?xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x4x?x?xf32>) outs(%52 : tensor<4x2x?x?xf32>) permutation = [1, 0, 2, 3] 
    %dim_18 = tensor.dim %arg0, %c2 : tensor<2x6x?x?xf32>
    %dim_19 = tensor.dim %arg0, %c3 : tensor<2x6x?x?xf32>
    %53 = tensor.empty(%dim_18, %dim_19) : tensor<6x2x?x?xf32>
    %transposed_20 = linalg.transpose ins(%arg0 : tensor<2x6x?x?xf32>) outs(%53 : tensor<6x2x?x?xf32>) permutation = [1, 0, 2, 3] 
    %dim_21 = tensor.dim %transposed_20, %c2 : tensor<6x2x?x?xf32>
    %dim_22 = tensor.dim %transposed_20, %c3 : tensor<6x2x?x?xf32>
    %dim_23 = tensor.dim %transposed, %c2 : tensor<4x2x?x?xf32>
    %54 = arith.subi %dim_21, %c1 : index
    %55 = arith.muli %54, %c2 : index
    %56 = arith.addi %dim_23, %c1 : index
    %57 = arith.subi %56, %55 : index
    %58 = arith.addi %57, %c1 : index
    %dim_24 = tensor.dim %transposed, %c3 : tensor<4x2x?x?xf32>
    %59 = arith.subi %dim_22, %c1 : index
    %60 = arith.muli %59, %c2 : index
    %61 = arith.addi %dim_24, %c1 : index
    %62 = arith.subi %61, %60 : index
    %63 = arith.addi %62, %c1 : index
    %64 = arith.minsi %58, %c3 : index
    %65 = arith.minsi %63, %c3 : index
    %66 = arith.subi %64, %c1 : index
    %67 = arith.addi %66, %55 : index
    %68 = arith.addi %67, %c1 : index
    %69 = arith.subi %65, %c1 : index
    %70 = arith.addi %69, %60 : index
    %71 = arith.addi %70, %c1 : index
    %72 = arith.subi %68, %c1 : index
    %73 = arith.addi %c-1, %72 : index
    %74 = arith.addi %73, %c1 : index
    %75 = arith.subi %74, %dim_23 : index
    %76 = arith.maxsi %c0, %75 : index
    %77 = arith.subi %71, %c1 : index
    %78 = arith.addi %c-1, %77 : index
    %79 = arith.addi %78, %c1 : index
    %80 = arith.subi %79, %dim_24 : index
    %81 = arith.maxsi %c0, %80 : index
    %padded_25 = tensor.pad %transposed low[0, 0, 1, 1] high[0, 0, %76, %81] {
    ^bb0(%arg3: index, %arg4: index, %arg5: index, %arg6: index):
      tensor.yield %cst : f32
    } : tensor<4x2x?x?xf32> to tensor<4x2x?x?xf32>
    %82 = arith.addi %54, %c1 : index
    %83 = arith.subi %82, %dim_21 : index
    %84 = arith.maxsi %c0, %83 : index
    %85 = arith.addi %59, %c1 : index
    %86 = arith.subi %85, %dim_22 : index
    %87 = arith.maxsi %c0, %86 : index
    %padded_26 = tensor.pad %transposed_20 low[0, 0, 0, 0] high[0, 0, %84, %87] {
    ^bb0(%arg3: index, %arg4: index, %arg5: index, %arg6: index):
      tensor.yield %cst : f32
    } : tensor<6x2x?x?xf32> to tensor<6x2x?x?xf32>
    %extracted_slice_27 = tensor.extract_slice %padded_25[0, 0, 0, 0] [4, 2, %68, %71] [1, 1, 1, 1] : tensor<4x2x?x?xf32> to tensor<4x2x?x?xf32>
    %extracted_slice_28 = tensor.extract_slice %padded_26[0, 0, 0, 0] [6, 2, %dim_21, %dim_22] [1, 1, 1, 1] : tensor<6x2x?x?xf32> to tensor<6x2x?x?xf32>
    %88 = tensor.empty(%64, %65) : tensor<4x6x?x?xf32>
    %89 = linalg.fill ins(%cst : f32) outs(%88 : tensor<4x6x?x?xf32>) -> tensor<4x6x?x?xf32>
    %90 = linalg.generic {indexing_maps = [#map12, #map13, #map11], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%extracted_slice_27, %extracted_slice_28 : tensor<4x2x?x?xf32>, tensor<6x2x?x?xf32>) outs(%89 : tensor<4x6x?x?xf32>) {
    ^bb0(%in: f32, %in_30: f32, %out: f32):
      %95 = arith.mulf %in, %in_30 : f32
      %96 = arith.addf %out, %95 : f32
      linalg.yield %96 : f32
    } -> tensor<4x6x?x?xf32>
    %cast = tensor.cast %90 : tensor<4x6x?x?xf32> to tensor<4x6x3x3xf32>
    %91 = tensor.empty() : tensor<6x4x3x3xf32>
    %transposed_29 = linalg.transpose ins(%cast : tensor<4x6x3x3xf32>) outs(%91 : tensor<6x4x3x3xf32>) permutation = [1, 0, 2, 3] 
    %92 = tensor.empty() : tensor<6xf32>
    %93 = linalg.fill ins(%cst : f32) outs(%92 : tensor<6xf32>) -> tensor<6xf32>
    %94 = linalg.generic {indexing_maps = [#map14, #map15], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%arg0 : tensor<2x6x?x?xf32>) outs(%93 : tensor<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %95 = arith.addf %out, %in : f32
      linalg.yield %95 : f32
    } -> tensor<6xf32>
    return %inserted_slice_15, %transposed_29, %94 : tensor<2x4x?x?xf32>, tensor<6x4x3x3xf32>, tensor<6xf32>
  }
}

