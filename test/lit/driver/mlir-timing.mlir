// --mlir-timing (alias --timing, also with one dash) prints mlir-opt's
// execution time report to stderr: the header, the total, then one row per
// pass (nested in its 'func.func' Pipeline) and for parsing, verifying and
// printing; the output on stdout is the same as without it.
// RUN: %convopt %s --lower-conv-bwd --mlir-timing -o %t 2>&1 | FileCheck %s
// RUN: %mlir-verify < %t
// RUN: %convopt %s -lower-conv-bwd -timing 2>&1 >/dev/null | FileCheck %s
// Last: lit's builtin diff resets PYTHONPATH for the RUN lines after it.
// RUN: %convopt %s --lower-conv-bwd | diff - %t

// CHECK:      ===-------------------------------------------------------------------------===
// CHECK-NEXT: {{^                         \.\.\. Execution time report \.\.\.$}}
// CHECK-NEXT: ===-------------------------------------------------------------------------===
// CHECK-NEXT: {{^  Total Execution Time: [0-9]+\.[0-9]{4} seconds$}}
// CHECK-EMPTY:
// CHECK-NEXT: {{^  ----Wall Time----  ----Name----$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  Pipeline parser$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  Parser$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  Verifier$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  'func.func' Pipeline$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)    convopt-drop-symbolic-shapes$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)    Verifier$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)    convopt-decompose-conv-bwd$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)    convopt-conv-bwd-to-linalg$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)    convopt-cleanup$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  convopt-finalize-boundary$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  Output$}}
// CHECK-NEXT: {{^ +-?[0-9]+\.[0-9]{4} \( *-?[0-9]+\.[0-9]%\)  Rest$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]{4} \(100\.0%\)  Total$}}
// CHECK-EMPTY:
// CHECK-NEXT: {{^  Route: the module as a whole \(fell back: the text is not one module of top-level func.func ops\)$}}

func.func @main(%go: !torch.vtensor<[1,2,4,4],f32>, %x: !torch.vtensor<[1,3,6,6],f32>, %w: !torch.vtensor<[2,3,3,3],f32>) -> (!torch.vtensor<[1,3,6,6],f32>, !torch.vtensor<[2,3,3,3],f32>) {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %sizes = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %stride = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %pad = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %outpad = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %mask = torch.prim.ListConstruct %true, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %0:3 = torch.aten.convolution_backward %go, %x, %w, %sizes, %stride, %pad, %stride, %false, %outpad, %int1, %mask : !torch.vtensor<[1,2,4,4],f32>, !torch.vtensor<[1,3,6,6],f32>, !torch.vtensor<[2,3,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,3,6,6],f32>, !torch.vtensor<[2,3,3,3],f32>, !torch.none
  return %0#0, %0#1 : !torch.vtensor<[1,3,6,6],f32>, !torch.vtensor<[2,3,3,3],f32>
}
