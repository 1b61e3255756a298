// The decomposition: torch in, torch out, accepted by torch-mlir-opt.
// RUN: %convopt --decompose-conv-bwd --split-input-file %s | FileCheck %s
// RUN: %convopt --decompose-conv-bwd --split-input-file %s | %mlir-verify --split-input-file
// An explicit list of backend-legal ops wins over the default:
// RUN: %convopt --decompose-conv-bwd --backend-legal-ops=aten.convolution_backward --split-input-file %s | FileCheck %s --check-prefix=LEGAL
// LEGAL-COUNT-3: torch.aten.convolution_backward
// LEGAL-NOT: torch.aten.convolution %

// Regular, groups 2, stride 2: grad_input is a transposed convolution of
// grad_output with output_padding 0 (5 = (3-1)*2 - 2 + 2 + 1); grad_weight
// convolves the input, as [Cb, G*N, ...], with grad_output, as [G*Ca, N, ...],
// swapping stride and dilation; grad_bias sums grad_output.
// CHECK-LABEL: func.func @regular_groups2_stride2(
// CHECK-SAME:      %[[GO:.*]]: !torch.vtensor<[2,6,3,3],f32>, %[[X:.*]]: !torch.vtensor<[2,4,5,5],f32>, %[[W:.*]]: !torch.vtensor<[6,2,3,3],f32>)
// CHECK:       %[[GI:.*]] = torch.aten.convolution %[[GO]], %[[W]], %{{.*}}, %[[S2:.*]], %{{.*}}, %{{.*}}, %true, %[[OP:.*]], %int2 : {{.*}} -> !torch.vtensor<[2,4,5,5],f32>
// CHECK:       %[[X1:.*]] = torch.aten.unflatten.int %[[X]], %int1, %{{.*}} : {{.*}} -> !torch.vtensor<[2,2,2,5,5],f32>
// CHECK:       %[[X2:.*]] = torch.aten.permute %[[X1]], %{{.*}} : {{.*}} -> !torch.vtensor<[2,2,2,5,5],f32>
// CHECK:       %[[X3:.*]] = torch.aten.flatten.using_ints %[[X2]], %int1, %int2 : {{.*}} -> !torch.vtensor<[2,4,5,5],f32>
// CHECK:       %[[G1:.*]] = torch.aten.unflatten.int %[[GO]], %int1, %{{.*}} : {{.*}} -> !torch.vtensor<[2,2,3,3,3],f32>
// CHECK:       %[[G2:.*]] = torch.aten.permute %[[G1]], %{{.*}} : {{.*}} -> !torch.vtensor<[2,3,2,3,3],f32>
// CHECK:       %[[G3:.*]] = torch.aten.flatten.using_ints %[[G2]], %int0, %int1 : {{.*}} -> !torch.vtensor<[6,2,3,3],f32>
// CHECK:       %[[R:.*]] = torch.aten.convolution %[[X3]], %[[G3]], %{{.*}}, %int2 : {{.*}} -> !torch.vtensor<[2,6,3,3],f32>
// CHECK:       %[[GW:.*]] = torch.aten.permute %[[R]], %{{.*}} -> !torch.vtensor<[6,2,3,3],f32>
// CHECK:       %[[GB:.*]] = torch.aten.sum.dim_IntList %[[GO]], %{{.*}}, %false, %{{.*}} : {{.*}} -> !torch.vtensor<[6],f32>
// CHECK:       return %[[GI]], %[[GW]], %[[GB]]
// CHECK-NOT:   torch.aten.convolution_backward
func.func @regular_groups2_stride2(%go: !torch.vtensor<[2,6,3,3],f32>, %x: !torch.vtensor<[2,4,5,5],f32>, %w: !torch.vtensor<[6,2,3,3],f32>) -> (!torch.vtensor<[2,4,5,5],f32>, !torch.vtensor<[6,2,3,3],f32>, !torch.vtensor<[6],f32>) {
  %int6 = torch.constant.int 6
  %l0 = torch.prim.ListConstruct %int6 : (!torch.int) -> !torch.list<int>
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
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l6, %transposed, %l7, %int2, %mask : !torch.vtensor<[2,6,3,3],f32>, !torch.vtensor<[2,4,5,5],f32>, !torch.vtensor<[6,2,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,4,5,5],f32>, !torch.vtensor<[6,2,3,3],f32>, !torch.vtensor<[6],f32>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[2,4,5,5],f32>, !torch.vtensor<[6,2,3,3],f32>, !torch.vtensor<[6],f32>
}

// -----

// Transposed with output_padding: grad_input is a regular convolution; the
// grad_weight convolution computes 4 taps where the kernel has 3 and is sliced.
// CHECK-LABEL: func.func @transposed_outpad(
// CHECK:       %[[GI:.*]] = torch.aten.convolution %arg0, %arg2, %{{.*}}, %false, %{{.*}}, %int1 : {{.*}} -> !torch.vtensor<[1,2,4],f32>
// CHECK:       %[[R:.*]] = torch.aten.convolution {{.*}} -> !torch.vtensor<[3,2,4],f32>
// CHECK:       %[[S:.*]] = torch.aten.slice.Tensor %[[R]], %int2, %int0, %int3, %int1 : {{.*}} -> !torch.vtensor<[3,2,3],f32>
// CHECK:       %[[GW:.*]] = torch.aten.permute %[[S]], %{{.*}} -> !torch.vtensor<[2,3,3],f32>
// CHECK:       return %[[GI]], %[[GW]]
func.func @transposed_outpad(%go: !torch.vtensor<[1,3,8],f32>, %x: !torch.vtensor<[1,2,4],f32>, %w: !torch.vtensor<[2,3,3],f32>) -> (!torch.vtensor<[1,2,4],f32>, !torch.vtensor<[2,3,3],f32>) {
  %int3 = torch.constant.int 3
  %l0 = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
  %int2 = torch.constant.int 2
  %l2 = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l4 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l6 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l7 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool true
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l6, %transposed, %l7, %int1, %mask : !torch.vtensor<[1,3,8],f32>, !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[2,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[2,3,3],f32>, !torch.none
  return %r#0, %r#1 : !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[2,3,3],f32>
}

// -----

// Dynamic spatial size: the transposed convolution uses the largest
// output_padding (stride - 1) and is sliced to the input's size.
// CHECK-LABEL: func.func @dynamic_spatial(
// CHECK:       %[[GI:.*]] = torch.aten.convolution %arg0, %arg2, {{.*}} -> !torch.vtensor<[2,2,?],f32>
// CHECK:       %[[N:.*]] = torch.aten.size.int %arg1, %int2 : !torch.vtensor<[2,2,?],f32>, !torch.int -> !torch.int
// CHECK:       %[[S:.*]] = torch.aten.slice.Tensor %[[GI]], %int2, %int0, %[[N]], %int1
// CHECK:       return %[[S]]
func.func @dynamic_spatial(%go: !torch.vtensor<[2,2,?],f32>, %x: !torch.vtensor<[2,2,?],f32>, %w: !torch.vtensor<[2,2,3],f32>) -> (!torch.vtensor<[2,2,?],f32>) {
  %int2 = torch.constant.int 2
  %l0 = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %l2 = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l3 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l6 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %f, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l3, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[2,2,?],f32>, !torch.vtensor<[2,2,?],f32>, !torch.vtensor<[2,2,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,2,?],f32>, !torch.none, !torch.none
  return %r#0 : !torch.vtensor<[2,2,?],f32>
}
