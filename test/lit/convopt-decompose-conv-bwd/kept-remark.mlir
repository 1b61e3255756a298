// --decompose-conv-bwd leaves a backend-legal convolution_backward as it is,
// and its remark says so (it is not lowered by this pass); --lower-conv-bwd
// lowers it directly.
// RUN: %convopt %s --decompose-conv-bwd --backend-legal-ops=aten.convolution_backward --verify-diagnostics | FileCheck %s
// RUN: %convopt %s --lower-conv-bwd --remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=LOWER

// CHECK-LABEL: func.func @legal(
// CHECK:         torch.aten.convolution_backward
// LOWER: kept-remark.mlir:[[# @LINE + 11]]:10: remark: lowered directly: 2-D f32 groups=1 is legal for target linalg
func.func @legal(%go: !torch.vtensor<[1,2,3,3],f32>, %x: !torch.vtensor<[1,2,5,5],f32>, %w: !torch.vtensor<[2,2,3,3],f32>) -> !torch.vtensor<[1,2,5,5],f32> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none = torch.constant.none
  %l1 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l0 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %mask = torch.prim.ListConstruct %true, %false, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-remark @+1 {{kept for the backend (not decomposed): 2-D f32 groups=1 is legal for target linalg}}
  %0:3 = torch.aten.convolution_backward %go, %x, %w, %none, %l1, %l0, %l1, %false, %l0, %int1, %mask : !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[1,2,5,5],f32>, !torch.vtensor<[2,2,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,2,5,5],f32>, !torch.none, !torch.none
  return %0#0 : !torch.vtensor<[1,2,5,5],f32>
}
