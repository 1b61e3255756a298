// --mlir-print-ir-before=PASS and --mlir-print-ir-after=PASS (repeatable,
// comma-separated, one dash too) print, to stderr, the op a named pass runs
// on before or after each of its runs, with --print-ir-after-all's header
// line; the result still goes to stdout.
// RUN: %convopt %s --lower-conv-bwd --mlir-print-ir-before=convopt-conv-bwd-to-linalg -mlir-print-ir-after=convopt-conv-bwd-to-linalg,convopt-finalize-boundary -o %t 2>&1 | FileCheck %s
// RUN: %mlir-verify %t
// An unknown pass name is a usage error that lists the registered passes.
// RUN: not %convopt %s --lower-conv-bwd --mlir-print-ir-after=canonicalize 2>&1 | FileCheck %s --check-prefix=BAD
// Last: lit's builtin diff resets PYTHONPATH for the RUN lines after it.
// RUN: %convopt %s --lower-conv-bwd | diff - %t

// CHECK:      // -----// IR Dump Before convopt-conv-bwd-to-linalg ('func.func' operation: @main) //----- //
// CHECK-NEXT: func.func @main(%arg0: !torch.vtensor<[1,2,4,4],f32>, %arg1: !torch.vtensor<[1,3,6,6],f32>, %arg2: !torch.vtensor<[2,3,3,3],f32>)
// CHECK:        torch.aten.convolution_backward
// CHECK:      // -----// IR Dump After convopt-conv-bwd-to-linalg ('func.func' operation: @main) //----- //
// CHECK-NOT:    torch.aten.convolution_backward
// CHECK:        linalg.generic
// CHECK:      // -----// IR Dump After convopt-finalize-boundary ('builtin.module' operation) //----- //
// CHECK-NEXT: #map = affine_map<
// CHECK-NOT:  IR Dump

// BAD: convopt: error: --mlir-print-ir-after: 'canonicalize' is not a registered pass; registered passes: convopt-cleanup, convopt-conv-bwd-to-linalg,

func.func @main(%go: !torch.vtensor<[1,2,4,4],f32>, %x: !torch.vtensor<[1,3,6,6],f32>, %w: !torch.vtensor<[2,3,3,3],f32>) -> (!torch.vtensor<[1,3,6,6],f32>, !torch.vtensor<[2,3,3,3],f32>) {
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %sizes = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %stride = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %pad = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %mask = torch.prim.ListConstruct %true, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %0:3 = torch.aten.convolution_backward %go, %x, %w, %sizes, %stride, %pad, %stride, %false, %pad, %int1, %mask : !torch.vtensor<[1,2,4,4],f32>, !torch.vtensor<[1,3,6,6],f32>, !torch.vtensor<[2,3,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,3,6,6],f32>, !torch.vtensor<[2,3,3,3],f32>, !torch.none
  return %0#0, %0#1 : !torch.vtensor<[1,3,6,6],f32>, !torch.vtensor<[2,3,3,3],f32>
}
