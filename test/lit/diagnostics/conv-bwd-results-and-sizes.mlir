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

// A static size 0 (found by the fuzzers: the lowerings once emitted out-of-bounds
// slices for them).  PyTorch takes an empty batch or no input channels (they
// lower now: test/lit/convopt-conv-bwd-to-linalg/empty.mlir) and rejects the
// rest, and so does convopt: no output channels (a weight with fewer rows
// than groups),
func.func @empty_weight_rows(%go: !torch.vtensor<[1,0,4],f32>, %x: !torch.vtensor<[1,3,6],f32>, %w: !torch.vtensor<[0,3,3],f32>) -> (!torch.vtensor<[1,3,6],f32>, !torch.vtensor<[0,3,3],f32>, !torch.vtensor<[0],f32>) {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %l1 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %lp = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %l0 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %mask = torch.prim.ListConstruct %t, %t, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{'torch.aten.convolution_backward' op expects a weight of at least 1 along dim 0 (groups 1), got '!torch.vtensor<[0,3,3],f32>'}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %l1, %lp, %l1, %transposed, %l0, %int1, %mask : !torch.vtensor<[1,0,4],f32>, !torch.vtensor<[1,3,6],f32>, !torch.vtensor<[0,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,3,6],f32>, !torch.vtensor<[0,3,3],f32>, !torch.vtensor<[0],f32>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[1,3,6],f32>, !torch.vtensor<[0,3,3],f32>, !torch.vtensor<[0],f32>
}

// -----

// an empty spatial size of an input with a batch and channels (padded: grad_output is not empty),
func.func @empty_spatial_input(%go: !torch.vtensor<[1,2,2],f32>, %x: !torch.vtensor<[1,3,0],f32>, %w: !torch.vtensor<[2,3,1],f32>) -> (!torch.vtensor<[1,3,0],f32>, !torch.vtensor<[2,3,1],f32>, !torch.vtensor<[2],f32>) {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %l1 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %lp = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l0 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %mask = torch.prim.ListConstruct %t, %t, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{'torch.aten.convolution_backward' op expects a size-0 batch or channel dim with a size-0 spatial dim (PyTorch takes no other empty input), got '!torch.vtensor<[1,3,0],f32>'}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %l1, %lp, %l1, %transposed, %l0, %int1, %mask : !torch.vtensor<[1,2,2],f32>, !torch.vtensor<[1,3,0],f32>, !torch.vtensor<[2,3,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,3,0],f32>, !torch.vtensor<[2,3,1],f32>, !torch.vtensor<[2],f32>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[1,3,0],f32>, !torch.vtensor<[2,3,1],f32>, !torch.vtensor<[2],f32>
}

// -----

// no output channels of a transposed convolution (a weight [Cin, 0, k]),
func.func @transposed_no_output_channels(%go: !torch.vtensor<[1,0,6],f32>, %x: !torch.vtensor<[1,3,4],f32>, %w: !torch.vtensor<[3,0,3],f32>) -> (!torch.vtensor<[1,3,4],f32>, !torch.vtensor<[3,0,3],f32>, !torch.vtensor<[0],f32>) {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %l1 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %lp = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %l0 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool true
  %t = torch.constant.bool true
  %mask = torch.prim.ListConstruct %t, %t, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{'torch.aten.convolution_backward' op expects the weight to have no size-0 dim when the input has none, got '!torch.vtensor<[3,0,3],f32>'}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %l1, %lp, %l1, %transposed, %l0, %int1, %mask : !torch.vtensor<[1,0,6],f32>, !torch.vtensor<[1,3,4],f32>, !torch.vtensor<[3,0,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,3,4],f32>, !torch.vtensor<[3,0,3],f32>, !torch.vtensor<[0],f32>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[1,3,4],f32>, !torch.vtensor<[3,0,3],f32>, !torch.vtensor<[0],f32>
}

// -----

// and an empty grad_output batch with a dynamic input batch (PyTorch takes it only if
// the input's is 0 too): unsupported.
func.func @empty_grad_output_dynamic_input(%go: !torch.vtensor<[0,2,4],f32>, %x: !torch.vtensor<[?,3,6],f32>, %w: !torch.vtensor<[2,3,3],f32>) -> (!torch.vtensor<[?,3,6],f32>, !torch.vtensor<[2,3,3],f32>, !torch.vtensor<[2],f32>) {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %l1 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %lp = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %l0 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %mask = torch.prim.ListConstruct %t, %t, %t : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{unsupported: a size-0 dim in grad_output ('!torch.vtensor<[0,2,4],f32>') with an input whose sizes are not all static ('!torch.vtensor<[?,3,6],f32>')}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %l1, %lp, %l1, %transposed, %l0, %int1, %mask : !torch.vtensor<[0,2,4],f32>, !torch.vtensor<[?,3,6],f32>, !torch.vtensor<[2,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[?,3,6],f32>, !torch.vtensor<[2,3,3],f32>, !torch.vtensor<[2],f32>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[?,3,6],f32>, !torch.vtensor<[2,3,3],f32>, !torch.vtensor<[2],f32>
}
