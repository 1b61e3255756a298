// Legality decides per op: under --target=rocmlir (MIGraphX's rule: f32/f16/bf16,
// and 2-D with any groups or 1-D/3-D with groups == 1) an op is lowered
// directly or decomposed, and a remark at the op says which and why.
// RUN: %convopt --lower-conv-bwd --target=rocmlir --split-input-file --verify-diagnostics %s | %mlir-verify --split-input-file
// RUN: %convopt --lower-conv-bwd --target=rocmlir --split-input-file --remarks %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: %convopt --lower-conv-bwd --target=rocmlir --split-input-file %s 2>&1 >/dev/null | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: %convopt --lower-conv-bwd --target=rocmlir --split-input-file %s | FileCheck %s --check-prefix=LINALG

// REMARK: legality.mlir:31:10: remark: lowered directly: 2-D f32 groups=2 is legal for target rocmlir
// REMARK: legality.mlir:51:10: remark: decomposed: 3-D with groups=2 is not legal for target rocmlir
// REMARK: legality.mlir:71:10: remark: decomposed: element type f64 is not legal for target rocmlir
// REMARK: legality.mlir:90:10: remark: lowered directly: 1-D transposed f32 groups=1 is legal for target rocmlir
// QUIET-NOT: remark
// LINALG-NOT: torch.

func.func @conv2d_groups2_f32(%go: !torch.vtensor<[1,4,4,4],f32>, %x: !torch.vtensor<[1,4,4,4],f32>, %w: !torch.vtensor<[4,2,3,3],f32>) -> (!torch.vtensor<[1,4,4,4],f32>, !torch.vtensor<[4,2,3,3],f32>) {
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
  %mask = torch.prim.ListConstruct %t, %t, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-remark @+1 {{lowered directly: 2-D f32 groups=2 is legal for target rocmlir}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l5, %transposed, %l6, %int2, %mask : !torch.vtensor<[1,4,4,4],f32>, !torch.vtensor<[1,4,4,4],f32>, !torch.vtensor<[4,2,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,4,4,4],f32>, !torch.vtensor<[4,2,3,3],f32>, !torch.none
  return %r#0, %r#1 : !torch.vtensor<[1,4,4,4],f32>, !torch.vtensor<[4,2,3,3],f32>
}

// -----

func.func @conv3d_groups2(%go: !torch.vtensor<[1,2,3,3,3],f32>, %x: !torch.vtensor<[1,2,3,3,3],f32>, %w: !torch.vtensor<[2,1,3,3,3],f32>) -> (!torch.vtensor<[1,2,3,3,3],f32>, !torch.vtensor<[2,1,3,3,3],f32>) {
  %int2 = torch.constant.int 2
  %l0 = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l2 = torch.prim.ListConstruct %int1, %int1, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %l4 = torch.prim.ListConstruct %int1, %int1, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1, %int1, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l6 = torch.prim.ListConstruct %int0, %int0, %int0 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-remark @+1 {{decomposed: 3-D with groups=2 is not legal for target rocmlir}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l5, %transposed, %l6, %int2, %mask : !torch.vtensor<[1,2,3,3,3],f32>, !torch.vtensor<[1,2,3,3,3],f32>, !torch.vtensor<[2,1,3,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,2,3,3,3],f32>, !torch.vtensor<[2,1,3,3,3],f32>, !torch.none
  return %r#0, %r#1 : !torch.vtensor<[1,2,3,3,3],f32>, !torch.vtensor<[2,1,3,3,3],f32>
}

// -----

func.func @conv1d_f64(%go: !torch.vtensor<[1,2,5],f64>, %x: !torch.vtensor<[1,2,5],f64>, %w: !torch.vtensor<[2,2,3],f64>) -> (!torch.vtensor<[1,2,5],f64>, !torch.vtensor<[2,2,3],f64>) {
  %int2 = torch.constant.int 2
  %l0 = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l2 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l4 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l6 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-remark @+1 {{decomposed: element type f64 is not legal for target rocmlir}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[1,2,5],f64>, !torch.vtensor<[1,2,5],f64>, !torch.vtensor<[2,2,3],f64>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,2,5],f64>, !torch.vtensor<[2,2,3],f64>, !torch.none
  return %r#0, %r#1 : !torch.vtensor<[1,2,5],f64>, !torch.vtensor<[2,2,3],f64>
}

// -----

func.func @conv1d_groups1_transposed(%go: !torch.vtensor<[1,2,10],f32>, %x: !torch.vtensor<[1,2,5],f32>, %w: !torch.vtensor<[2,2,3],f32>) -> (!torch.vtensor<[1,2,5],f32>, !torch.vtensor<[2,2,3],f32>, !torch.vtensor<[2],f32>) {
  %int2 = torch.constant.int 2
  %l0 = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %l2 = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l3 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l6 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool true
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-remark @+1 {{lowered directly: 1-D transposed f32 groups=1 is legal for target rocmlir}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l3, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[1,2,10],f32>, !torch.vtensor<[1,2,5],f32>, !torch.vtensor<[2,2,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,2,5],f32>, !torch.vtensor<[2,2,3],f32>, !torch.vtensor<[2],f32>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[1,2,5],f32>, !torch.vtensor<[2,2,3],f32>, !torch.vtensor<[2],f32>
}
