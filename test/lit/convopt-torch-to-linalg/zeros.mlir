// convopt-torch-to-linalg lowers torch.aten.zeros (the decomposition of a
// convolution_backward with an empty input emits it) to a linalg.fill of
// zeros, or to the tensor.empty alone when a size is 0; a size may be an
// aten.size.int of a tensor.
// RUN: %convopt --pass-pipeline='builtin.module(func.func(convopt-torch-to-linalg, convopt-cleanup), convopt-finalize-boundary)' %s | FileCheck %s
// RUN: %convopt --pass-pipeline='builtin.module(func.func(convopt-torch-to-linalg, convopt-cleanup), convopt-finalize-boundary)' %s | %mlir-verify

// CHECK-LABEL: func.func @zeros_dynamic(
// CHECK-SAME:      %[[X:.*]]: tensor<?x3xf16>) -> (tensor<?x3xf16>, tensor<0x3xf16>)
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// CHECK:       %[[N:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x3xf16>
// CHECK:       %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x3xf16>
// CHECK:       %[[Z:.*]] = linalg.fill ins(%[[ZERO]] : f16) outs(%[[E]] : tensor<?x3xf16>) -> tensor<?x3xf16>
// CHECK:       %[[EMPTY:.*]] = tensor.empty() : tensor<0x3xf16>
// CHECK-NOT:   linalg.fill
// CHECK:       return %[[Z]], %[[EMPTY]]
func.func @zeros_dynamic(%x: !torch.vtensor<[?,3],f16>) -> (!torch.vtensor<[?,3],f16>, !torch.vtensor<[0,3],f16>) {
  %int0 = torch.constant.int 0
  %int3 = torch.constant.int 3
  %int5 = torch.constant.int 5
  %none = torch.constant.none
  %n = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,3],f16>, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %n, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %z = torch.aten.zeros %sizes, %int5, %none, %none, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[?,3],f16>
  %sizes0 = torch.prim.ListConstruct %int0, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %e = torch.aten.zeros %sizes0, %int5, %none, %none, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[0,3],f16>
  return %z, %e : !torch.vtensor<[?,3],f16>, !torch.vtensor<[0,3],f16>
}
