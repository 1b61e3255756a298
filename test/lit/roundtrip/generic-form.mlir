// Ops in MLIR's generic form: those convopt has no custom form for keep the
// generic form with their properties <{...}>, regions, block arguments and
// attribute dictionaries; an op convopt knows reads its inherent attributes
// from <{...}> (arith.addf's fastmath below) and prints in its custom form.
// RUN: %convopt %s | FileCheck %s
// RUN: %convopt %s | %mlir-verify
// RUN: %convopt %s | %convopt | FileCheck %s

// CHECK-LABEL: func.func @regions(
// CHECK-SAME:      %arg0: f32, %arg1: index, %arg2: i1) -> f32 {
func.func @regions(%init: f32, %n: index, %cond: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK:      %[[FOR:.*]] = "scf.for"(%c0, %arg1, %c1, %arg0) ({
  // CHECK-NEXT: ^bb0(%arg3: index, %arg4: f32):
  // CHECK-NEXT:   %[[ADD:.*]] = arith.addf %arg4, %arg4 {fastmath = #arith.fastmath<fast>} : f32
  // CHECK-NEXT:   scf.yield %[[ADD]] : f32
  // CHECK-NEXT: }) : (index, index, index, f32) -> f32
  %sum = "scf.for"(%c0, %n, %c1, %init) ({
  ^bb0(%iv: index, %acc: f32):
    %next = "arith.addf"(%acc, %acc) <{fastmath = #arith.fastmath<fast>}> : (f32, f32) -> f32
    "scf.yield"(%next) : (f32) -> ()
  }) : (index, index, index, f32) -> f32
  // Two regions, each an implicit entry block.
  // CHECK:      %[[IF:.*]] = "scf.if"(%arg2) ({
  // CHECK-NEXT:   scf.yield %[[FOR]] : f32
  // CHECK-NEXT: }, {
  // CHECK-NEXT:   scf.yield %arg0 : f32
  // CHECK-NEXT: }) : (i1) -> f32
  %pick = "scf.if"(%cond) ({
    "scf.yield"(%sum) : (f32) -> ()
  }, {
    "scf.yield"(%init) : (f32) -> ()
  }) : (i1) -> f32
  // A generic op without properties that convopt knows prints in its custom form.
  // CHECK:      %[[MUL:.*]] = arith.mulf %[[IF]], %[[IF]] : f32
  %sq = "arith.mulf"(%pick, %pick) : (f32, f32) -> f32
  // CHECK:      %[[CMP:.*]] = arith.cmpf olt, %[[MUL]], %arg0 {fastmath = #arith.fastmath<none>} : f32
  %lt = arith.cmpf olt, %sq, %init {fastmath = #arith.fastmath<none>} : f32
  // CHECK:      "scf.execute_region"() ({
  // CHECK-NEXT:   %[[SEL:.*]] = arith.select %[[CMP]], %[[MUL]], %arg0 : f32
  // CHECK-NEXT:   scf.yield %[[SEL]] : f32
  // CHECK-NEXT: }) {note = "kept"} : () -> f32
  %r = "scf.execute_region"() ({
    %s = arith.select %lt, %sq, %init : f32
    "scf.yield"(%s) : (f32) -> ()
  }) {note = "kept"} : () -> f32
  return %r : f32
}

// A func.func declaration with argument and result attributes, and a nested
// named module with attributes.
// CHECK-LABEL: func.func private @decl(tensor<2xf32> {my.arg = 0 : i32, my.flag}, f32) -> (tensor<2xf32> {my.res = "r"})
func.func private @decl(tensor<2xf32> {my.arg = 0 : i32, my.flag}, f32) -> (tensor<2xf32> {my.res = "r"})

// CHECK-LABEL: module @inner attributes {torch.debug_module_name = "Inner"} {
// CHECK-NEXT:    func.func @g() {
// CHECK-NEXT:      return
module @inner attributes {torch.debug_module_name = "Inner"} {
  func.func @g() {
    return
  }
}
