// An empty chunk under --split-input-file is an empty module, as in mlir-opt:
// here one in the middle and one at the end (the file ends with a split
// marker line, as torch-mlir's test files do).  The output is byte for byte
// torch-mlir-opt's, and passes run on the empty modules too.  (mlir-opt splits
// at the marker anywhere in a line, convopt only at a line starting with it:
// the comments here do not quote it.)
// RUN: %convopt %s --split-input-file > %t
// RUN: FileCheck %s < %t
// RUN: torch-mlir-opt --split-input-file %s | diff %t -
// RUN: %convopt %s --split-input-file | %mlir-verify -split-input-file
// RUN: %convopt %s --split-input-file --verify-diagnostics
// RUN: %convopt %s --split-input-file --lower-conv-bwd | FileCheck %s --check-prefix=LOWER

// CHECK:      module {
// CHECK-NEXT:   func.func @first(%arg0: f32) -> f32 {
// CHECK-NEXT:     return %arg0 : f32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: {{^// -{5}$}}
// CHECK-NEXT: module {
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: {{^// -{5}$}}
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @third(
// CHECK:      {{^// -{5}$}}
// CHECK-NEXT: module {
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NOT:  {{.}}

// LOWER-COUNT-4: module {
// LOWER-NOT:     module
func.func @first(%a: f32) -> f32 {
  return %a : f32
}

// -----

// -----

func.func @third(%a: f32) -> f32 {
  return %a : f32
}

// -----
