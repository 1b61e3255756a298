// convolution_backward ops convopt must reject (found by test/fuzz/fuzz.py, semantic.py and
// resources.py), on both paths.
// RUN: %convopt --lower-conv-bwd --split-input-file --verify-diagnostics %s
// RUN: %convopt --lower-conv-bwd --backend-legal-ops= --split-input-file --verify-diagnostics %s

// grad_bias is [grad_output channels] of the element type: a declared result of another
// size, element type or rank was lowered with a tensor.cast between them (wrong IR)
func.func @bias_result_wrong_size(%go: !torch.vtensor<[1,2,4],f32>, %x: !torch.vtensor<[1,3,6],f32>, %w: !torch.vtensor<[2,3,3],f32>) -> (!torch.vtensor<[1,3,6],f32>, !torch.vtensor<[2,3,3],f32>, !torch.vtensor<[3],f32>) {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %l1 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l3 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l6 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{expects result #2 of type '!torch.vtensor<[2],f32>', got '!torch.vtensor<[3],f32>'}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %l1, %l3, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[1,3,6],f32>, !torch.vtensor<[2,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,3,6],f32>, !torch.vtensor<[2,3,3],f32>, !torch.vtensor<[3],f32>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[1,3,6],f32>, !torch.vtensor<[2,3,3],f32>, !torch.vtensor<[3],f32>
}

// -----

func.func @bias_result_wrong_dtype(%go: !torch.vtensor<[1,2,4],f32>, %x: !torch.vtensor<[1,3,6],f32>, %w: !torch.vtensor<[2,3,3],f32>) -> (!torch.vtensor<[1,3,6],f32>, !torch.vtensor<[2,3,3],f32>, !torch.vtensor<[2],f16>) {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %l1 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l3 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l6 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{expects result #2 of type '!torch.vtensor<[2],f32>', got '!torch.vtensor<[2],f16>'}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %l1, %l3, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[1,3,6],f32>, !torch.vtensor<[2,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,3,6],f32>, !torch.vtensor<[2,3,3],f32>, !torch.vtensor<[2],f16>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[1,3,6],f32>, !torch.vtensor<[2,3,3],f32>, !torch.vtensor<[2],f16>
}

// -----

func.func @bias_result_wrong_rank(%go: !torch.vtensor<[1,2,4],f32>, %x: !torch.vtensor<[1,3,6],f32>, %w: !torch.vtensor<[2,3,3],f32>) -> (!torch.vtensor<[1,3,6],f32>, !torch.vtensor<[2,3,3],f32>, !torch.vtensor<[2,1],f32>) {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %l1 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l3 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l6 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{expects result #2 of type '!torch.vtensor<[2],f32>', got '!torch.vtensor<[2,1],f32>'}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %l1, %l3, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[1,3,6],f32>, !torch.vtensor<[2,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,3,6],f32>, !torch.vtensor<[2,3,3],f32>, !torch.vtensor<[2,1],f32>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[1,3,6],f32>, !torch.vtensor<[2,3,3],f32>, !torch.vtensor<[2,1],f32>
}

// -----

// sizes whose lowering would not finish fail fast: the scatter has an op per kernel tap
// (and the per-tap work is linear), the decomposed path's weight gradient has the
// spatial size as its kernel
func.func @kernel_too_many_taps(%go: !torch.vtensor<[1,1,2],f32>, %x: !torch.vtensor<[1,1,20001],f32>, %w: !torch.vtensor<[1,1,20000],f32>) -> (!torch.vtensor<[1,1,20001],f32>, !torch.vtensor<[1,1,20000],f32>, !torch.vtensor<[1],f32>) {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %l1 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l3 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l6 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{unsupported: a kernel of 20000 taps (at most 16384)}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %l1, %l3, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[1,1,2],f32>, !torch.vtensor<[1,1,20001],f32>, !torch.vtensor<[1,1,20000],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,1,20001],f32>, !torch.vtensor<[1,1,20000],f32>, !torch.vtensor<[1],f32>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[1,1,20001],f32>, !torch.vtensor<[1,1,20000],f32>, !torch.vtensor<[1],f32>
}

// -----

func.func @kernel_taps_multiply(%go: !torch.vtensor<[1,1,1,1],f32>, %x: !torch.vtensor<[1,1,200,200],f32>, %w: !torch.vtensor<[1,1,200,200],f32>) -> (!torch.vtensor<[1,1,200,200],f32>, !torch.vtensor<[1,1,200,200],f32>, !torch.vtensor<[1],f32>) {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %l1 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l3 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l6 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{unsupported: a kernel of 40000 taps (at most 16384)}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %l1, %l3, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[1,1,1,1],f32>, !torch.vtensor<[1,1,200,200],f32>, !torch.vtensor<[1,1,200,200],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,1,200,200],f32>, !torch.vtensor<[1,1,200,200],f32>, !torch.vtensor<[1],f32>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[1,1,200,200],f32>, !torch.vtensor<[1,1,200,200],f32>, !torch.vtensor<[1],f32>
}

// -----

func.func @spatial_size_near_2_63(%go: !torch.vtensor<[1,1,9223372036854775805],f32>, %x: !torch.vtensor<[1,1,9223372036854775807],f32>, %w: !torch.vtensor<[1,1,3],f32>) -> (!torch.vtensor<[1,1,9223372036854775807],f32>, !torch.vtensor<[1,1,3],f32>, !torch.vtensor<[1],f32>) {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %l1 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l3 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l6 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{unsupported: spatial size 9223372036854775807 along dim 0 (at most 4194304)}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %l1, %l3, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[1,1,9223372036854775805],f32>, !torch.vtensor<[1,1,9223372036854775807],f32>, !torch.vtensor<[1,1,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,1,9223372036854775807],f32>, !torch.vtensor<[1,1,3],f32>, !torch.vtensor<[1],f32>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[1,1,9223372036854775807],f32>, !torch.vtensor<[1,1,3],f32>, !torch.vtensor<[1],f32>
}

// -----

func.func @grad_output_size_too_large(%go: !torch.vtensor<[1,1,4194307],f32>, %x: !torch.vtensor<[1,1,2],f32>, %w: !torch.vtensor<[1,1,2],f32>) -> (!torch.vtensor<[1,1,2],f32>, !torch.vtensor<[1,1,2],f32>, !torch.vtensor<[1],f32>) {
  %none = torch.constant.none
  %int4194305 = torch.constant.int 4194305
  %l1 = torch.prim.ListConstruct %int4194305 : (!torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l3 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l5 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l7 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool true
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{unsupported: spatial size 4194307 along dim 0 (at most 4194304)}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %l1, %l3, %l5, %transposed, %l7, %int1, %mask : !torch.vtensor<[1,1,4194307],f32>, !torch.vtensor<[1,1,2],f32>, !torch.vtensor<[1,1,2],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,1,2],f32>, !torch.vtensor<[1,1,2],f32>, !torch.vtensor<[1],f32>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[1,1,2],f32>, !torch.vtensor<[1,1,2],f32>, !torch.vtensor<[1],f32>
}

// -----

// a static size 0 (PyTorch takes an empty batch or input channels): the slices the lowerings
// emit would be out of bounds (torch-mlir-opt rejected convopt's output)
func.func @empty_batch(%go: !torch.vtensor<[0,2,4],f32>, %x: !torch.vtensor<[0,3,6],f32>, %w: !torch.vtensor<[2,3,3],f32>) -> (!torch.vtensor<[0,3,6],f32>, !torch.vtensor<[2,3,3],f32>, !torch.vtensor<[2],f32>) {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %l1 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l3 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l6 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{unsupported: empty tensors (the input has a size-0 dim: '!torch.vtensor<[0,3,6],f32>')}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %l1, %l3, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[0,2,4],f32>, !torch.vtensor<[0,3,6],f32>, !torch.vtensor<[2,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[0,3,6],f32>, !torch.vtensor<[2,3,3],f32>, !torch.vtensor<[2],f32>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[0,3,6],f32>, !torch.vtensor<[2,3,3],f32>, !torch.vtensor<[2],f32>
}

// -----

func.func @empty_input_channels(%go: !torch.vtensor<[1,2,4],f32>, %x: !torch.vtensor<[1,0,6],f32>, %w: !torch.vtensor<[2,0,3],f32>) -> (!torch.vtensor<[1,0,6],f32>, !torch.vtensor<[2,0,3],f32>, !torch.vtensor<[2],f32>) {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %l1 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l3 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l6 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{unsupported: empty tensors (the input has a size-0 dim: '!torch.vtensor<[1,0,6],f32>')}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %l1, %l3, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[1,0,6],f32>, !torch.vtensor<[2,0,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,0,6],f32>, !torch.vtensor<[2,0,3],f32>, !torch.vtensor<[2],f32>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[1,0,6],f32>, !torch.vtensor<[2,0,3],f32>, !torch.vtensor<[2],f32>
}
