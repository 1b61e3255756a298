// Decomposition with every size dynamic, the weight's too, and groups = 2:
// grad_input is a transposed convolution sliced to the input's size (read
// with aten.size.int); grad_weight splits the channels into [groups, -1]
// (the per-group count is inferred) and slices the kernel dims to the
// weight's own (dynamic) sizes.
// RUN: %convopt --decompose-conv-bwd %s | FileCheck %s
// RUN: %convopt --decompose-conv-bwd %s | %mlir-verify
// RUN: %convopt --lower-conv-bwd --backend-legal-ops= %s | %mlir-verify

// CHECK-LABEL: func.func @conv_bwd_1d_dynamic_groups2(
// CHECK-SAME:      %[[GO:.*]]: !torch.vtensor<[?,?,?],f32>, %[[X:.*]]: !torch.vtensor<[?,?,?],f32>, %[[W:.*]]: !torch.vtensor<[?,?,?],f32>)
// CHECK:         %[[GI_FULL:.*]] = torch.aten.convolution %[[GO]], %[[W]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %true, %{{.*}}, %int2 :
// CHECK:         %[[NB:.*]] = torch.aten.size.int %[[X]], %int2
// CHECK:         %[[GI:.*]] = torch.aten.slice.Tensor %[[GI_FULL]], %int2, %int0, %[[NB]], %int1
// CHECK:         %[[SPLIT:.*]] = torch.prim.ListConstruct %int2, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK:         torch.aten.unflatten.int %[[X]], %int1, %[[SPLIT]] : !torch.vtensor<[?,?,?],f32>, !torch.int, !torch.list<int> -> !torch.vtensor<[?,2,?,?],f32>
// CHECK:         torch.aten.unflatten.int %[[GO]], %int1, %{{.*}} : {{.*}} -> !torch.vtensor<[?,2,?,?],f32>
// CHECK:         %[[GW_FULL:.*]] = torch.aten.convolution
// CHECK:         %[[K:.*]] = torch.aten.size.int %[[W]], %int2
// CHECK:         %[[GW:.*]] = torch.aten.slice.Tensor %[[GW_FULL]], %int2, %int0, %[[K]], %int1
// CHECK:         %[[GW_T:.*]] = torch.aten.permute %[[GW]]
// CHECK:         return %[[GI]], %[[GW_T]]
func.func @conv_bwd_1d_dynamic_groups2(%go: !torch.vtensor<[?,?,?],f32>, %x: !torch.vtensor<[?,?,?],f32>, %w: !torch.vtensor<[?,?,?],f32>) -> (!torch.vtensor<[?,?,?],f32>, !torch.vtensor<[?,?,?],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %stride = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %padding = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %ones = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %zeros = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %true, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %stride, %padding, %ones, %false, %zeros, %int2, %mask : !torch.vtensor<[?,?,?],f32>, !torch.vtensor<[?,?,?],f32>, !torch.vtensor<[?,?,?],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[?,?,?],f32>, !torch.vtensor<[?,?,?],f32>, !torch.none
  return %r#0, %r#1 : !torch.vtensor<[?,?,?],f32>, !torch.vtensor<[?,?,?],f32>
}
