// --print-ir-after-all prints, to stderr, each function after each pass, with
// mlir-opt's header line; the result still goes to stdout.
// RUN: %convopt %s --pass-pipeline='builtin.module(func.func(convopt-cleanup))' --print-ir-after-all -o %t 2>&1 | FileCheck %s
// RUN: %mlir-verify %t
// RUN: FileCheck %s --check-prefix=OUT < %t

// CHECK:      // -----// IR Dump After convopt-cleanup ('func.func' operation: @dead_code) //----- //
// CHECK-NEXT: func.func @dead_code(%arg0: f32) -> f32 {
// CHECK-NEXT:   %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:   %0 = arith.addf %arg0, %cst : f32
// CHECK-NEXT:   %1 = arith.addf %0, %cst : f32
// CHECK-NEXT:   return %1 : f32
// CHECK-NEXT: }
// CHECK:      // -----// IR Dump After convopt-cleanup ('func.func' operation: @torch_constants) //----- //
// CHECK-NEXT: func.func @torch_constants(%arg0: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
// CHECK-NEXT:   return %arg0 : !torch.vtensor<[2],f32>
// CHECK-NEXT: }
// CHECK-NOT:  IR Dump

// OUT:      module {
// OUT-NEXT:   func.func @dead_code(
// OUT-NOT:    2.000000e+00
// OUT:        func.func @torch_constants(
// OUT-NEXT:     return %arg0

func.func @dead_code(%a: f32) -> f32 {
  %one = arith.constant 1.0 : f32
  %unused = arith.constant 2.0 : f32
  %again = arith.constant 1.0 : f32
  %0 = arith.addf %a, %one : f32
  %1 = arith.addf %0, %again : f32
  %2 = arith.mulf %1, %unused : f32
  return %1 : f32
}

func.func @torch_constants(%x: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  %int1 = torch.constant.int 1
  %list = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  return %x : !torch.vtensor<[2],f32>
}
