// A convolution_backward with an empty input decomposes into torch.aten.zeros
// (PyTorch's results: grad_input empty, grad_weight and grad_bias zeros),
// accepted by torch-mlir-opt.
// RUN: %convopt --decompose-conv-bwd --split-input-file %s | FileCheck %s
// RUN: %convopt --decompose-conv-bwd --split-input-file %s | %mlir-verify --split-input-file

// An empty batch: no convolution, one torch.aten.zeros per result (dtype 6:
// f32); layout, device and pin_memory none.
// CHECK-LABEL: func.func @batch0(
// CHECK-NOT:   torch.aten.convolution
// CHECK-DAG:   %[[NONE:.*]] = torch.constant.none
// CHECK-DAG:   %[[F32:.*]] = torch.constant.int 6
// CHECK:       %[[S0:.*]] = torch.prim.ListConstruct %int0, %int2, %int8, %int8 :
// CHECK:       %[[GI:.*]] = torch.aten.zeros %[[S0]], %[[F32]], %[[NONE]], %[[NONE]], %[[NONE]] : {{.*}} -> !torch.vtensor<[0,2,8,8],f32>
// CHECK:       %[[S1:.*]] = torch.prim.ListConstruct %int4, %int2, %int3, %int3 :
// CHECK:       %[[GW:.*]] = torch.aten.zeros %[[S1]], %[[F32]], {{.*}} -> !torch.vtensor<[4,2,3,3],f32>
// CHECK:       %[[S2:.*]] = torch.prim.ListConstruct %int4 :
// CHECK:       %[[GB:.*]] = torch.aten.zeros %[[S2]], %[[F32]], {{.*}} -> !torch.vtensor<[4],f32>
// CHECK-NEXT:  return %[[GI]], %[[GW]], %[[GB]]
func.func @batch0(%go: !torch.vtensor<[0,4,4,4],f32>, %x: !torch.vtensor<[0,2,8,8],f32>, %w: !torch.vtensor<[4,2,3,3],f32>) -> (!torch.vtensor<[0,2,8,8],f32>, !torch.vtensor<[4,2,3,3],f32>, !torch.vtensor<[4],f32>) {
  %int4 = torch.constant.int 4
  %l0 = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %int2 = torch.constant.int 2
  %l2 = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l4 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l6 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l7 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l6, %transposed, %l7, %int1, %mask : !torch.vtensor<[0,4,4,4],f32>, !torch.vtensor<[0,2,8,8],f32>, !torch.vtensor<[4,2,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[0,2,8,8],f32>, !torch.vtensor<[4,2,3,3],f32>, !torch.vtensor<[4],f32>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[0,2,8,8],f32>, !torch.vtensor<[4,2,3,3],f32>, !torch.vtensor<[4],f32>
}

// -----

// No input channels, bf16 (dtype 15): grad_bias is zeros, not a sum.
// CHECK-LABEL: func.func @cin0_groups2_bf16(
// CHECK-NOT:   torch.aten.sum
// CHECK-DAG:   %[[BF16:.*]] = torch.constant.int 15
// CHECK:       torch.aten.zeros %{{.*}}, %[[BF16]], {{.*}} -> !torch.vtensor<[2,0,5,5],bf16>
// CHECK:       torch.aten.zeros %{{.*}}, %[[BF16]], {{.*}} -> !torch.vtensor<[4,0,3,3],bf16>
// CHECK:       torch.aten.zeros %{{.*}}, %[[BF16]], {{.*}} -> !torch.vtensor<[4],bf16>
func.func @cin0_groups2_bf16(%go: !torch.vtensor<[2,4,5,5],bf16>, %x: !torch.vtensor<[2,0,5,5],bf16>, %w: !torch.vtensor<[4,0,3,3],bf16>) -> (!torch.vtensor<[2,0,5,5],bf16>, !torch.vtensor<[4,0,3,3],bf16>, !torch.vtensor<[4],bf16>) {
  %int4 = torch.constant.int 4
  %l0 = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l2 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l4 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l6 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %int2 = torch.constant.int 2
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l5, %transposed, %l6, %int2, %mask : !torch.vtensor<[2,4,5,5],bf16>, !torch.vtensor<[2,0,5,5],bf16>, !torch.vtensor<[4,0,3,3],bf16>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,0,5,5],bf16>, !torch.vtensor<[4,0,3,3],bf16>, !torch.vtensor<[4],bf16>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[2,0,5,5],bf16>, !torch.vtensor<[4,0,3,3],bf16>, !torch.vtensor<[4],bf16>
}

// -----

// Dynamic spatial sizes: grad_input's sizes are the input's (aten.size.int).
// CHECK-LABEL: func.func @batch0_dynamic_spatial(
// CHECK-SAME:      %{{.*}}: !torch.vtensor<[0,4,?,?],f32>, %[[X:.*]]: !torch.vtensor<[0,2,?,?],f32>,
// CHECK:       %[[H:.*]] = torch.aten.size.int %[[X]], %int2
// CHECK:       %[[W:.*]] = torch.aten.size.int %[[X]], %int3
// CHECK:       %[[S:.*]] = torch.prim.ListConstruct %int0, %int2, %[[H]], %[[W]] :
// CHECK:       torch.aten.zeros %[[S]], {{.*}} -> !torch.vtensor<[0,2,?,?],f32>
func.func @batch0_dynamic_spatial(%go: !torch.vtensor<[0,4,?,?],f32>, %x: !torch.vtensor<[0,2,?,?],f32>, %w: !torch.vtensor<[4,2,3,3],f32>) -> (!torch.vtensor<[0,2,?,?],f32>, !torch.vtensor<[4,2,3,3],f32>, !torch.vtensor<[4],f32>) {
  %int4 = torch.constant.int 4
  %l0 = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %int2 = torch.constant.int 2
  %l2 = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l4 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l6 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l7 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l6, %transposed, %l7, %int1, %mask : !torch.vtensor<[0,4,?,?],f32>, !torch.vtensor<[0,2,?,?],f32>, !torch.vtensor<[4,2,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[0,2,?,?],f32>, !torch.vtensor<[4,2,3,3],f32>, !torch.vtensor<[4],f32>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[0,2,?,?],f32>, !torch.vtensor<[4,2,3,3],f32>, !torch.vtensor<[4],f32>
}
