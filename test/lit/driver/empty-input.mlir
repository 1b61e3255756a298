// A file without ops (only these comments) is an empty module, as
// torch-mlir-opt prints it, with or without passes.
// RUN: %convopt %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %convopt %s --lower-conv-bwd | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %convopt %s | %mlir-verify

// CHECK:module {
// CHECK-NEXT:}
// CHECK-EMPTY:
