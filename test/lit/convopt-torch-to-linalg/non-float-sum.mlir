// convopt-torch-to-linalg lowers float sums into their own type only; a sum
// that changes the type (the count of a bool mask as si64, as a loss with
// ignore_index imports) is left as it is, for the backend.
// RUN: %convopt --lower-conv-bwd --lower-forward-convs %s | FileCheck %s
// RUN: %convopt --lower-conv-bwd --lower-forward-convs %s | %mlir-verify

// CHECK-LABEL: func.func @count(
// CHECK:         %[[N:.*]] = torch.aten.sum.dim_IntList %arg0, %{{.*}}, %false, %none : !torch.vtensor<[4],i1>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[],si64>
// CHECK:         linalg.generic
// CHECK:         %[[S:.*]] = torch_c.from_builtin_tensor %{{.*}} : tensor<f32> -> !torch.vtensor<[],f32>
// CHECK:         return %[[N]], %[[S]] : !torch.vtensor<[],si64>, !torch.vtensor<[],f32>
func.func @count(%mask: !torch.vtensor<[4],i1>, %x: !torch.vtensor<[4],f32>) -> (!torch.vtensor<[],si64>, !torch.vtensor<[],f32>) {
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %none = torch.constant.none
  %dims = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.sum.dim_IntList %mask, %dims, %false, %none : !torch.vtensor<[4],i1>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[],si64>
  %1 = torch.aten.sum.dim_IntList %x, %dims, %false, %none : !torch.vtensor<[4],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[],f32>
  return %0, %1 : !torch.vtensor<[],si64>, !torch.vtensor<[],f32>
}
