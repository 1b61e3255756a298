// Torch-dialect IR as torch-mlir's FX importer writes it prints back
// unchanged in meaning: constants get mlir-opt's names, multi-result ops keep
// their result names, and the output is valid for torch-mlir-opt.
// RUN: %convopt %s | FileCheck %s
// RUN: %convopt %s | %mlir-verify
// RUN: %convopt %s | %convopt | FileCheck %s

// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %[[GO:.*]]: !torch.vtensor<[2,8,4,4],f32>, %[[X:.*]]: !torch.vtensor<[2,4,8,8],f32>, %[[W:.*]]: !torch.vtensor<[8,4,3,3],f32>)
// CHECK-SAME:      -> (!torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[8,4,3,3],f32>)
func.func @main(%go: !torch.vtensor<[2,8,4,4],f32>, %x: !torch.vtensor<[2,4,8,8],f32>, %w: !torch.vtensor<[8,4,3,3],f32>) -> (!torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[8,4,3,3],f32>) {
  // CHECK:      %[[I0:.*]] = torch.constant.int 0
  // CHECK-NEXT: %[[BIAS:.*]] = torch.prim.ListConstruct %[[I0]] : (!torch.int) -> !torch.list<int>
  // CHECK-NEXT: %int2 = torch.constant.int 2
  // CHECK-NEXT: %int2_0 = torch.constant.int 2
  %zero = torch.constant.int 0
  %bias = torch.prim.ListConstruct %zero : (!torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 2
  %stride = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.constant.int 1
  %pad = torch.prim.ListConstruct %p, %p : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %outpad = torch.prim.ListConstruct %zero, %zero : (!torch.int, !torch.int) -> !torch.list<int>
  %one = torch.constant.int 1
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  // CHECK: %[[MASK:.*]] = torch.prim.ListConstruct %true, %true, %false_{{[0-9]+}} : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %mask = torch.prim.ListConstruct %t, %t, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // CHECK: %[[R:.*]]:3 = torch.aten.convolution_backward %[[GO]], %[[X]], %[[W]], %[[BIAS]], %{{.*}}, %{{.*}}, %{{.*}}, %false, %{{.*}}, %{{.*}}, %[[MASK]] :
  // CHECK-SAME: -> !torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[8,4,3,3],f32>, !torch.none
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %bias, %stride, %pad, %pad, %false, %outpad, %one, %mask : !torch.vtensor<[2,8,4,4],f32>, !torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[8,4,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[8,4,3,3],f32>, !torch.none
  // CHECK: %float2.500000e00 = torch.constant.float 2.500000e+00
  // CHECK: %float1.007870e00 = torch.constant.float 1.0078740157480315
  // CHECK: torch.aten.mul.Scalar %[[R]]#1, %float2.500000e00 : !torch.vtensor<[8,4,3,3],f32>, !torch.float -> !torch.vtensor<[8,4,3,3],f32>
  %c = torch.constant.float 2.5
  %d = torch.constant.float 1.0078740157480315
  %s = torch.aten.mul.Scalar %r#1, %c : !torch.vtensor<[8,4,3,3],f32>, !torch.float -> !torch.vtensor<[8,4,3,3],f32>
  // CHECK: return %[[R]]#0, %{{.*}} : !torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[8,4,3,3],f32>
  return %r#0, %s : !torch.vtensor<[2,4,8,8],f32>, !torch.vtensor<[8,4,3,3],f32>
}

// CHECK-LABEL: func.func @constants()
func.func @constants() {
  // CHECK-NEXT: %none = torch.constant.none
  // CHECK-NEXT: %str = torch.constant.str "a \22quoted\22\0A line"
  // CHECK-NEXT: %cuda3A0 = torch.constant.device "cuda:0"
  // CHECK-NEXT: %int-3 = torch.constant.int -3
  // CHECK-NEXT: %floatNaN = torch.constant.float 0x7FF8000000000000
  // CHECK-NEXT: %[[L:.*]] = torch.prim.ListConstruct  : () -> !torch.list<int>
  // CHECK-NEXT: %[[V:.*]] = torch.vtensor.literal(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %n = torch.constant.none
  %s = torch.constant.str "a \"quoted\"\n line"
  %d = torch.constant.device "cuda:0"
  %i = torch.constant.int -3
  %nan = torch.constant.float 0x7FF8000000000000
  %l = torch.prim.ListConstruct  : () -> !torch.list<int>
  %v = torch.vtensor.literal(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  return
}

// Symbolic shapes from the FX importer; affine maps stay inline here.
// CHECK-LABEL: func.func @symbolic(
// CHECK: %[[S:.*]] = torch.symbolic_int "s0" {min_val = 1, max_val = 64} : !torch.int
// CHECK: torch.bind_symbolic_shape %arg0, [%[[S]]], affine_map<()[s0] -> (s0, 4)> : !torch.vtensor<[?,4],f32>
func.func @symbolic(%arg0: !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[?,4],f32> {
  %0 = torch.symbolic_int "s0" {min_val = 1, max_val = 64} : !torch.int
  torch.bind_symbolic_shape %arg0, [%0], affine_map<()[s0] -> (s0, 4)> : !torch.vtensor<[?,4],f32>
  return %arg0 : !torch.vtensor<[?,4],f32>
}
