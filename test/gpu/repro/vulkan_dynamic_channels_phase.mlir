// IREE 3.13 vulkan-spirv (--iree-vulkan-target=rdna3): "'memref.store' op
// failed to linearize index" on convopt --lower-conv-bwd --device=gpu's output
// for the named e2e row 2d_dynamic_channels (groups 2, every channel size
// dynamic, stride 2): the first phase gather of grad_input (line ~60; its
// weight taps read at constant index 0 of a 1x1 tap slice, a dynamic channel
// reduction).  rocm and cuda build this file; the raw import of the row builds
// for vulkan.  WORKED AROUND: convopt no longer emits this form (the phases' weight
// taps are blocks of one flat copy, kernel/taps.py); the file keeps the old output.
// iree-compile vulkan_dynamic_channels_phase.mlir --iree-input-type=torch --iree-hal-target-backends=vulkan-spirv --iree-vulkan-target=rdna3 -o /dev/null
#map = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map1 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d5, d3, d4)>
#map2 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d5, d2, 0, 0)>
#map3 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>
#map4 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d5, d3, d4 + d6)>
#map5 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d5, d2, 0, d6)>
#map6 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3, d4)>
#map7 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d5, d3 + d6, d4)>
#map8 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d5, d2, d6, 0)>
#map9 = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 + d6, d4 + d7)>
#map10 = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d5, d2, d6, d7)>
#map11 = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
#map12 = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d0, d2, d3 + d6 * 2, d4 + d7 * 2)>
#map13 = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d0, d1, d6, d7)>
#map14 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map15 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
#map16 = affine_map<(d0, d1) -> (d0, d1)>
#map17 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<2x?x4x4xf32>, %arg1: tensor<2x?x8x8xf32>, %arg2: tensor<?x?x3x3xf32>) -> (tensor<2x?x8x8xf32>, tensor<?x?x3x3xf32>, tensor<?xf32>) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant 0.000000e+00 : f32
    %dim = tensor.dim %arg2, %c0 : tensor<?x?x3x3xf32>
    %0 = arith.floordivsi %dim, %c2 : index
    %dim_0 = tensor.dim %arg2, %c1 : tensor<?x?x3x3xf32>
    %dim_1 = tensor.dim %arg0, %c1 : tensor<2x?x4x4xf32>
    %expanded = tensor.expand_shape %arg0 [[0], [1, 2], [3], [4]] output_shape [2, 2, %0, 4, 4] : tensor<2x?x4x4xf32> into tensor<2x2x?x4x4xf32>
    %expanded_2 = tensor.expand_shape %arg2 [[0, 1], [2], [3], [4]] output_shape [2, %0, %dim_0, 3, 3] : tensor<?x?x3x3xf32> into tensor<2x?x?x3x3xf32>
    %padded = tensor.pad %expanded low[0, 0, 0, 0, 0] high[0, 0, 0, 1, 1] {
    ^bb0(%arg3: index, %arg4: index, %arg5: index, %arg6: index, %arg7: index):
      tensor.yield %cst : f32
    } : tensor<2x2x?x4x4xf32> to tensor<2x2x?x5x5xf32>
    %extracted_slice = tensor.extract_slice %padded[0, 0, 0, 0, 0] [2, 2, %0, 4, 4] [1, 1, 1, 1, 1] : tensor<2x2x?x5x5xf32> to tensor<2x2x?x4x4xf32>
    %1 = tensor.empty(%0, %dim_0) : tensor<2x?x?x1x1xf32>
    %2 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%1 : tensor<2x?x?x1x1xf32>) {
    ^bb0(%out: f32):
      %26 = linalg.index 0 : index
      %27 = linalg.index 1 : index
      %28 = linalg.index 2 : index
      %29 = linalg.index 3 : index
      %30 = linalg.index 4 : index
      %c2_11 = arith.constant 2 : index
      %31 = arith.muli %29, %c2_11 : index
      %32 = arith.subi %c1, %31 : index
      %c2_12 = arith.constant 2 : index
      %33 = arith.muli %30, %c2_12 : index
      %34 = arith.subi %c1, %33 : index
      %extracted = tensor.extract %expanded_2[%26, %27, %28, %32, %34] : tensor<2x?x?x3x3xf32>
      linalg.yield %extracted : f32
    } -> tensor<2x?x?x1x1xf32>
    %3 = tensor.empty(%dim_0) : tensor<2x2x?x8x8xf32>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<2x2x?x8x8xf32>) -> tensor<2x2x?x8x8xf32>
    %5 = tensor.empty(%dim_0) : tensor<2x2x?x4x4xf32>
    %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<2x2x?x4x4xf32>) -> tensor<2x2x?x4x4xf32>
    %7 = linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%extracted_slice, %2 : tensor<2x2x?x4x4xf32>, tensor<2x?x?x1x1xf32>) outs(%6 : tensor<2x2x?x4x4xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %26 = arith.mulf %in, %in_11 : f32
      %27 = arith.addf %out, %26 : f32
      linalg.yield %27 : f32
    } -> tensor<2x2x?x4x4xf32>
    %inserted_slice = tensor.insert_slice %7 into %4[0, 0, 0, 0, 0] [2, 2, %dim_0, 4, 4] [1, 1, 1, 2, 2] : tensor<2x2x?x4x4xf32> into tensor<2x2x?x8x8xf32>
    %extracted_slice_3 = tensor.extract_slice %padded[0, 0, 0, 0, 0] [2, 2, %0, 4, 5] [1, 1, 1, 1, 1] : tensor<2x2x?x5x5xf32> to tensor<2x2x?x4x5xf32>
    %8 = tensor.empty(%0, %dim_0) : tensor<2x?x?x1x2xf32>
    %9 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%8 : tensor<2x?x?x1x2xf32>) {
    ^bb0(%out: f32):
      %26 = linalg.index 0 : index
      %27 = linalg.index 1 : index
      %28 = linalg.index 2 : index
      %29 = linalg.index 3 : index
      %30 = linalg.index 4 : index
      %c2_11 = arith.constant 2 : index
      %31 = arith.muli %29, %c2_11 : index
      %32 = arith.subi %c1, %31 : index
      %c2_12 = arith.constant 2 : index
      %33 = arith.muli %30, %c2_12 : index
      %34 = arith.subi %c2, %33 : index
      %extracted = tensor.extract %expanded_2[%26, %27, %28, %32, %34] : tensor<2x?x?x3x3xf32>
      linalg.yield %extracted : f32
    } -> tensor<2x?x?x1x2xf32>
    %10 = linalg.generic {indexing_maps = [#map4, #map5, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%extracted_slice_3, %9 : tensor<2x2x?x4x5xf32>, tensor<2x?x?x1x2xf32>) outs(%6 : tensor<2x2x?x4x4xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %26 = arith.mulf %in, %in_11 : f32
      %27 = arith.addf %out, %26 : f32
      linalg.yield %27 : f32
    } -> tensor<2x2x?x4x4xf32>
    %inserted_slice_4 = tensor.insert_slice %10 into %inserted_slice[0, 0, 0, 0, 1] [2, 2, %dim_0, 4, 4] [1, 1, 1, 2, 2] : tensor<2x2x?x4x4xf32> into tensor<2x2x?x8x8xf32>
    %extracted_slice_5 = tensor.extract_slice %padded[0, 0, 0, 0, 0] [2, 2, %0, 5, 4] [1, 1, 1, 1, 1] : tensor<2x2x?x5x5xf32> to tensor<2x2x?x5x4xf32>
    %11 = tensor.empty(%0, %dim_0) : tensor<2x?x?x2x1xf32>
    %12 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%11 : tensor<2x?x?x2x1xf32>) {
    ^bb0(%out: f32):
      %26 = linalg.index 0 : index
      %27 = linalg.index 1 : index
      %28 = linalg.index 2 : index
      %29 = linalg.index 3 : index
      %30 = linalg.index 4 : index
      %c2_11 = arith.constant 2 : index
      %31 = arith.muli %29, %c2_11 : index
      %32 = arith.subi %c2, %31 : index
      %c2_12 = arith.constant 2 : index
      %33 = arith.muli %30, %c2_12 : index
      %34 = arith.subi %c1, %33 : index
      %extracted = tensor.extract %expanded_2[%26, %27, %28, %32, %34] : tensor<2x?x?x3x3xf32>
      linalg.yield %extracted : f32
    } -> tensor<2x?x?x2x1xf32>
    %13 = linalg.generic {indexing_maps = [#map7, #map8, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%extracted_slice_5, %12 : tensor<2x2x?x5x4xf32>, tensor<2x?x?x2x1xf32>) outs(%6 : tensor<2x2x?x4x4xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %26 = arith.mulf %in, %in_11 : f32
      %27 = arith.addf %out, %26 : f32
      linalg.yield %27 : f32
    } -> tensor<2x2x?x4x4xf32>
    %inserted_slice_6 = tensor.insert_slice %13 into %inserted_slice_4[0, 0, 0, 1, 0] [2, 2, %dim_0, 4, 4] [1, 1, 1, 2, 2] : tensor<2x2x?x4x4xf32> into tensor<2x2x?x8x8xf32>
    %14 = tensor.empty(%0, %dim_0) : tensor<2x?x?x2x2xf32>
    %15 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%14 : tensor<2x?x?x2x2xf32>) {
    ^bb0(%out: f32):
      %26 = linalg.index 0 : index
      %27 = linalg.index 1 : index
      %28 = linalg.index 2 : index
      %29 = linalg.index 3 : index
      %30 = linalg.index 4 : index
      %c2_11 = arith.constant 2 : index
      %31 = arith.muli %29, %c2_11 : index
      %32 = arith.subi %c2, %31 : index
      %c2_12 = arith.constant 2 : index
      %33 = arith.muli %30, %c2_12 : index
      %34 = arith.subi %c2, %33 : index
      %extracted = tensor.extract %expanded_2[%26, %27, %28, %32, %34] : tensor<2x?x?x3x3xf32>
      linalg.yield %extracted : f32
    } -> tensor<2x?x?x2x2xf32>
    %16 = linalg.generic {indexing_maps = [#map9, #map10, #map11], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%padded, %15 : tensor<2x2x?x5x5xf32>, tensor<2x?x?x2x2xf32>) outs(%6 : tensor<2x2x?x4x4xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %26 = arith.mulf %in, %in_11 : f32
      %27 = arith.addf %out, %26 : f32
      linalg.yield %27 : f32
    } -> tensor<2x2x?x4x4xf32>
    %inserted_slice_7 = tensor.insert_slice %16 into %inserted_slice_6[0, 0, 0, 1, 1] [2, 2, %dim_0, 4, 4] [1, 1, 1, 2, 2] : tensor<2x2x?x4x4xf32> into tensor<2x2x?x8x8xf32>
    %collapsed = tensor.collapse_shape %inserted_slice_7 [[0], [1, 2], [3], [4]] : tensor<2x2x?x8x8xf32> into tensor<2x?x8x8xf32>
    %expanded_8 = tensor.expand_shape %arg1 [[0], [1, 2], [3], [4]] output_shape [2, 2, %dim_0, 8, 8] : tensor<2x?x8x8xf32> into tensor<2x2x?x8x8xf32>
    %padded_9 = tensor.pad %expanded_8 low[0, 0, 0, 1, 1] high[0, 0, 0, 0, 0] {
    ^bb0(%arg3: index, %arg4: index, %arg5: index, %arg6: index, %arg7: index):
      tensor.yield %cst : f32
    } : tensor<2x2x?x8x8xf32> to tensor<2x2x?x9x9xf32>
    %17 = tensor.empty(%0, %dim_0) : tensor<2x?x?x3x3xf32>
    %18 = linalg.fill ins(%cst : f32) outs(%17 : tensor<2x?x?x3x3xf32>) -> tensor<2x?x?x3x3xf32>
    %19 = linalg.generic {indexing_maps = [#map12, #map13, #map11], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%padded_9, %expanded : tensor<2x2x?x9x9xf32>, tensor<2x2x?x4x4xf32>) outs(%18 : tensor<2x?x?x3x3xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %26 = arith.mulf %in_11, %in : f32
      %27 = arith.addf %out, %26 : f32
      linalg.yield %27 : f32
    } -> tensor<2x?x?x3x3xf32>
    %collapsed_10 = tensor.collapse_shape %19 [[0, 1], [2], [3], [4]] : tensor<2x?x?x3x3xf32> into tensor<?x?x3x3xf32>
    %20 = tensor.empty(%dim_1) : tensor<2x?xf32>
    %21 = linalg.fill ins(%cst : f32) outs(%20 : tensor<2x?xf32>) -> tensor<2x?xf32>
    %22 = linalg.generic {indexing_maps = [#map14, #map15], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%arg0 : tensor<2x?x4x4xf32>) outs(%21 : tensor<2x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %26 = arith.addf %out, %in : f32
      linalg.yield %26 : f32
    } -> tensor<2x?xf32>
    %23 = tensor.empty(%dim_1) : tensor<?xf32>
    %24 = linalg.fill ins(%cst : f32) outs(%23 : tensor<?xf32>) -> tensor<?xf32>
    %25 = linalg.generic {indexing_maps = [#map16, #map17], iterator_types = ["reduction", "parallel"]} ins(%22 : tensor<2x?xf32>) outs(%24 : tensor<?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %26 = arith.addf %out, %in : f32
      linalg.yield %26 : f32
    } -> tensor<?xf32>
    return %collapsed, %collapsed_10, %25 : tensor<2x?x8x8xf32>, tensor<?x?x3x3xf32>, tensor<?xf32>
  }
}

