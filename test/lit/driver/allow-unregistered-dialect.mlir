// --allow-unregistered-dialect (mlir-opt's spelling) lets ops of dialects
// convopt does not know through, unchanged and in the generic form; an op a
// known dialect does not have is refused all the same
// (Inputs/unknown-op-of-known-dialect.mlir).
// RUN: %convopt %s -allow-unregistered-dialect --lower-conv-bwd | FileCheck %s
// RUN: %convopt %s --allow-unregistered-dialect | %convopt --allow-unregistered-dialect | FileCheck %s
// RUN: not %convopt %s 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: not %convopt %S/Inputs/unknown-op-of-known-dialect.mlir --allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=KNOWN
// KNOWN: unknown-op-of-known-dialect.mlir:3:8: error: unregistered operation 'tensor.emtpy' found in dialect ('tensor') that does not allow unknown operations; did you mean 'tensor.empty'?

// CHECK-LABEL: func.func @kept(
// CHECK:         %[[T:.*]] = "my.transform"(%arg0) {note = "kept"} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    "my.sink"(%[[T]]) : (tensor<2xf32>) -> ()
// REFUSED: allow-unregistered-dialect.mlir:[[# @LINE + 2]]:8: error: dialect 'my' not found for op 'my.transform' (--allow-unregistered-dialect lets ops of unknown dialects through)
func.func @kept(%a: tensor<2xf32>) {
  %0 = "my.transform"(%a) {note = "kept"} : (tensor<2xf32>) -> tensor<2xf32>
  "my.sink"(%0) : (tensor<2xf32>) -> ()
  return
}
