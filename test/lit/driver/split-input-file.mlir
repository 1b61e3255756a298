// --split-input-file processes each chunk on its own and joins the printed
// modules with `// -----`, as mlir-opt does; names restart in every chunk.
// RUN: %convopt %s --split-input-file | FileCheck %s
// RUN: %convopt %s -split-input-file | %mlir-verify -split-input-file
// RUN: %convopt %s --split-input-file | %convopt --split-input-file | FileCheck %s
// Without the flag the chunks are one module.
// RUN: %convopt %s | FileCheck %s --check-prefix=WHOLE

// CHECK:      module {
// CHECK-NEXT:   func.func @first(%arg0: f32) -> f32 {
// CHECK-NEXT:     %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:     %0 = arith.addf %arg0, %cst : f32
// CHECK-NEXT:     return %0 : f32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: // -----
// WHOLE:      module {
// WHOLE-NEXT:   func.func @first(
// WHOLE-NOT:  // -----
// WHOLE:        func.func @second(
// WHOLE:        func.func @third(
func.func @first(%a: f32) -> f32 {
  %one = arith.constant 1.0 : f32
  %0 = arith.addf %a, %one : f32
  return %0 : f32
}

// -----

// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @second(%arg0: f32) -> f32 {
// CHECK-NEXT:     %cst = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:     %0 = arith.mulf %arg0, %cst : f32
// CHECK-NEXT:     return %0 : f32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: // -----
func.func @second(%a: f32) -> f32 {
  %two = arith.constant 2.0 : f32
  %0 = arith.mulf %a, %two : f32
  return %0 : f32
}

// -----

// A chunk with its own explicit module and a #map alias of its own.
// CHECK-NEXT: #map = affine_map<(d0) -> (d0)>
// CHECK-NEXT: module attributes {torch.debug_module_name = "third"} {
// CHECK-NEXT:   func.func @third(
// CHECK:      } -> tensor<4xf32>
// CHECK-NOT:  // -----
#id = affine_map<(d0) -> (d0)>
module attributes {torch.debug_module_name = "third"} {
  func.func @third(%t: tensor<4xf32>) -> tensor<4xf32> {
    %0 = tensor.empty() : tensor<4xf32>
    %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%t : tensor<4xf32>) outs(%0 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
