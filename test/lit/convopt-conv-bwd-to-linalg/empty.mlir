// A static size 0 (an empty batch or no input channels; then also an empty
// spatial size or kernel) is lowered to PyTorch's results without
// arithmetic: a tensor.empty for a result with a size-0 dim, a linalg.fill of
// zeros for the others.  The same IR on the direct and decomposed paths and
// under --target=rocmlir.
// RUN: %convopt --lower-conv-bwd --split-input-file %s | FileCheck %s
// RUN: %convopt --lower-conv-bwd --backend-legal-ops= --split-input-file %s | FileCheck %s
// RUN: %convopt --lower-conv-bwd --target=rocmlir --split-input-file %s | FileCheck %s
// RUN: %convopt --lower-conv-bwd --split-input-file %s | %mlir-verify --split-input-file
// RUN: %convopt --lower-conv-bwd --stats --split-input-file %s 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// An empty batch: grad_input is the empty tensor, grad_weight and grad_bias
// are zeros; nothing multiplies.
// CHECK-LABEL: func.func @batch0(
// CHECK-NOT:   linalg.generic
// CHECK:       %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:       %[[GI:.*]] = tensor.empty() : tensor<0x2x8x8xf32>
// CHECK:       %[[W:.*]] = tensor.empty() : tensor<4x2x3x3xf32>
// CHECK:       %[[GW:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[W]] : tensor<4x2x3x3xf32>)
// CHECK:       %[[B:.*]] = tensor.empty() : tensor<4xf32>
// CHECK:       %[[GB:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[B]] : tensor<4xf32>)
// CHECK-NEXT:  return %[[GI]], %[[GW]], %[[GB]]
// STATS: empty.mlir:{{[0-9]+}}:{{[0-9]+}}: torch.aten.convolution_backward grad_input: form=empty ops=0 executed_macs=0 useful_macs=0 efficiency=n/a (empty input)
// STATS-NEXT: empty.mlir:{{[0-9]+}}:{{[0-9]+}}: torch.aten.convolution_backward grad_weight: form=empty ops=0 executed_macs=0 useful_macs=0 efficiency=n/a (empty input)
// STATS-NOT: executed_macs={{[1-9]}}
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

// No input channels (groups 2): grad_input and grad_weight are empty, and
// grad_bias is zeros although grad_output is not empty (PyTorch computes
// nothing once the input is empty).
// CHECK-LABEL: func.func @cin0_groups2(
// CHECK-NOT:   linalg.generic
// CHECK:       %[[GI:.*]] = tensor.empty() : tensor<2x0x5x5xf32>
// CHECK-NEXT:  %[[GW:.*]] = tensor.empty() : tensor<4x0x3x3xf32>
// CHECK-NEXT:  %[[B:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:  %[[GB:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[B]] : tensor<4xf32>)
// CHECK-NEXT:  return %[[GI]], %[[GW]], %[[GB]]
func.func @cin0_groups2(%go: !torch.vtensor<[2,4,5,5],f32>, %x: !torch.vtensor<[2,0,5,5],f32>, %w: !torch.vtensor<[4,0,3,3],f32>) -> (!torch.vtensor<[2,0,5,5],f32>, !torch.vtensor<[4,0,3,3],f32>, !torch.vtensor<[4],f32>) {
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
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l5, %transposed, %l6, %int2, %mask : !torch.vtensor<[2,4,5,5],f32>, !torch.vtensor<[2,0,5,5],f32>, !torch.vtensor<[4,0,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,0,5,5],f32>, !torch.vtensor<[4,0,3,3],f32>, !torch.vtensor<[4],f32>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[2,0,5,5],f32>, !torch.vtensor<[4,0,3,3],f32>, !torch.vtensor<[4],f32>
}

// -----

// A static empty batch with dynamic spatial sizes: grad_input's sizes are
// the input's.
// CHECK-LABEL: func.func @batch0_dynamic_spatial(
// CHECK-SAME:      %{{.*}}: tensor<0x4x?x?xf32>, %[[X:.*]]: tensor<0x2x?x?xf32>,
// CHECK-DAG:   %[[H:.*]] = tensor.dim %[[X]], %c2 : tensor<0x2x?x?xf32>
// CHECK-DAG:   %[[W:.*]] = tensor.dim %[[X]], %c3 : tensor<0x2x?x?xf32>
// CHECK:       %[[GI:.*]] = tensor.empty(%[[H]], %[[W]]) : tensor<0x2x?x?xf32>
// CHECK:       linalg.fill {{.*}} -> tensor<4x2x3x3xf32>
// CHECK:       linalg.fill {{.*}} -> tensor<4xf32>
// CHECK-NOT:   linalg.generic
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

// -----

// Transposed, output_mask [true, false, true]: only the two results asked for.
// CHECK-LABEL: func.func @transposed_batch0_mask_input_bias(
// CHECK:       %[[GI:.*]] = tensor.empty() : tensor<0x2x5xf32>
// CHECK-NEXT:  %[[B:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:  %[[GB:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[B]] : tensor<4xf32>)
// CHECK-NEXT:  return %[[GI]], %[[GB]] : tensor<0x2x5xf32>, tensor<4xf32>
func.func @transposed_batch0_mask_input_bias(%go: !torch.vtensor<[0,4,10],f32>, %x: !torch.vtensor<[0,2,5],f32>, %w: !torch.vtensor<[2,4,3],f32>) -> (!torch.vtensor<[0,2,5],f32>, !torch.vtensor<[4],f32>) {
  %int4 = torch.constant.int 4
  %l0 = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %int2 = torch.constant.int 2
  %l2 = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l4 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l6 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l7 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool true
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %f, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l6, %transposed, %l7, %int1, %mask : !torch.vtensor<[0,4,10],f32>, !torch.vtensor<[0,2,5],f32>, !torch.vtensor<[2,4,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[0,2,5],f32>, !torch.none, !torch.vtensor<[4],f32>
  return %r#0, %r#2 : !torch.vtensor<[0,2,5],f32>, !torch.vtensor<[4],f32>
}

// -----

// With an empty batch PyTorch also takes an empty spatial size (padded, so
// that grad_output is not empty) and an empty kernel: grad_weight is empty.
// CHECK-LABEL: func.func @batch0_spatial0_kernel0(
// CHECK:       %[[GI:.*]] = tensor.empty() : tensor<0x2x0x5xf16>
// CHECK-NEXT:  %[[GW:.*]] = tensor.empty() : tensor<4x2x1x0xf16>
// CHECK-NEXT:  %[[B:.*]] = tensor.empty() : tensor<4xf16>
// CHECK-NEXT:  %[[GB:.*]] = linalg.fill ins(%{{.*}} : f16) outs(%[[B]] : tensor<4xf16>)
// CHECK-NEXT:  return %[[GI]], %[[GW]], %[[GB]]
func.func @batch0_spatial0_kernel0(%go: !torch.vtensor<[0,4,2,8],f16>, %x: !torch.vtensor<[0,2,0,5],f16>, %w: !torch.vtensor<[4,2,1,0],f16>) -> (!torch.vtensor<[0,2,0,5],f16>, !torch.vtensor<[4,2,1,0],f16>, !torch.vtensor<[4],f16>) {
  %int4 = torch.constant.int 4
  %l0 = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l2 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l4 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l6 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[0,4,2,8],f16>, !torch.vtensor<[0,2,0,5],f16>, !torch.vtensor<[4,2,1,0],f16>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[0,2,0,5],f16>, !torch.vtensor<[4,2,1,0],f16>, !torch.vtensor<[4],f16>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[0,2,0,5],f16>, !torch.vtensor<[4,2,1,0],f16>, !torch.vtensor<[4],f16>
}

// -----

// Dynamic channels (a weight [?,?,3,3]): grad_bias takes grad_output's
// channels, grad_weight the weight's sizes.
// CHECK-LABEL: func.func @batch0_dynamic_channels(
// CHECK-SAME:      %[[GO:.*]]: tensor<0x?x5x5xf32>, %[[X:.*]]: tensor<0x?x5x5xf32>, %[[W:.*]]: tensor<?x?x3x3xf32>)
// CHECK-DAG:   %[[C:.*]] = tensor.dim %[[X]], %c1 : tensor<0x?x5x5xf32>
// CHECK-DAG:   %[[GI:.*]] = tensor.empty(%[[C]]) : tensor<0x?x5x5xf32>
// CHECK-DAG:   %[[F:.*]] = tensor.dim %[[W]], %c0 : tensor<?x?x3x3xf32>
// CHECK-DAG:   %[[CB:.*]] = tensor.dim %[[W]], %c1 : tensor<?x?x3x3xf32>
// CHECK:       %[[EW:.*]] = tensor.empty(%[[F]], %[[CB]]) : tensor<?x?x3x3xf32>
// CHECK:       %[[GW:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[EW]] : tensor<?x?x3x3xf32>)
// CHECK:       %[[FB:.*]] = tensor.dim %[[GO]], %c1 : tensor<0x?x5x5xf32>
// CHECK:       %[[EB:.*]] = tensor.empty(%[[FB]]) : tensor<?xf32>
// CHECK:       %[[GB:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[EB]] : tensor<?xf32>)
// CHECK:       return %[[GI]], %[[GW]], %[[GB]]
func.func @batch0_dynamic_channels(%go: !torch.vtensor<[0,?,5,5],f32>, %x: !torch.vtensor<[0,?,5,5],f32>, %w: !torch.vtensor<[?,?,3,3],f32>) -> (!torch.vtensor<[0,?,5,5],f32>, !torch.vtensor<[?,?,3,3],f32>, !torch.vtensor<[?],f32>) {
  %int6 = torch.constant.int 6
  %l0 = torch.prim.ListConstruct %int6 : (!torch.int) -> !torch.list<int>
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
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l5, %transposed, %l6, %int2, %mask : !torch.vtensor<[0,?,5,5],f32>, !torch.vtensor<[0,?,5,5],f32>, !torch.vtensor<[?,?,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[0,?,5,5],f32>, !torch.vtensor<[?,?,3,3],f32>, !torch.vtensor<[?],f32>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[0,?,5,5],f32>, !torch.vtensor<[?,?,3,3],f32>, !torch.vtensor<[?],f32>
}
