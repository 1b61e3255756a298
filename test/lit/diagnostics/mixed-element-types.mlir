// Mixed element types: PyTorch's CPU kernels take f32 activations with an f16
// or bf16 weight (and bf16 ones with an f32 weight), computing in the
// activations' type; convopt takes one element type per convolution: a
// located `unsupported:` error, on both paths.  Other mixes PyTorch rejects
// too (an invalid op).
// RUN: %convopt --lower-conv-bwd --split-input-file --verify-diagnostics %s
// RUN: %convopt --lower-conv-bwd --backend-legal-ops= --split-input-file --verify-diagnostics %s

func.func @f32_with_bf16_weight(%go: !torch.vtensor<[1,2,4],f32>, %x: !torch.vtensor<[1,3,6],f32>, %w: !torch.vtensor<[2,3,3],bf16>) -> !torch.vtensor<[1,3,6],f32> {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %l1 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l0 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %true, %false, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{unsupported: mixed element types (input f32, weight bf16; PyTorch computes them in f32, convopt takes one element type)}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %l1, %l0, %l1, %false, %l0, %int1, %mask : !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[1,3,6],f32>, !torch.vtensor<[2,3,3],bf16>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,3,6],f32>, !torch.none, !torch.none
  return %r#0 : !torch.vtensor<[1,3,6],f32>
}

// -----

func.func @f32_with_f16_weight(%go: !torch.vtensor<[1,2,4],f32>, %x: !torch.vtensor<[1,3,6],f32>, %w: !torch.vtensor<[2,3,3],f16>) -> !torch.vtensor<[1,3,6],f32> {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %l1 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l0 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %true, %false, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{unsupported: mixed element types (input f32, weight f16; PyTorch computes them in f32, convopt takes one element type)}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %l1, %l0, %l1, %false, %l0, %int1, %mask : !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[1,3,6],f32>, !torch.vtensor<[2,3,3],f16>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,3,6],f32>, !torch.none, !torch.none
  return %r#0 : !torch.vtensor<[1,3,6],f32>
}

// -----

func.func @bf16_with_f32_weight(%go: !torch.vtensor<[1,2,4],bf16>, %x: !torch.vtensor<[1,3,6],bf16>, %w: !torch.vtensor<[2,3,3],f32>) -> !torch.vtensor<[1,3,6],bf16> {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %l1 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l0 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %true, %false, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{unsupported: mixed element types (input bf16, weight f32; PyTorch computes them in bf16, convopt takes one element type)}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %l1, %l0, %l1, %false, %l0, %int1, %mask : !torch.vtensor<[1,2,4],bf16>, !torch.vtensor<[1,3,6],bf16>, !torch.vtensor<[2,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,3,6],bf16>, !torch.none, !torch.none
  return %r#0 : !torch.vtensor<[1,3,6],bf16>
}

// -----

// PyTorch rejects an f64 weight with f32 activations.
func.func @f32_with_f64_weight(%go: !torch.vtensor<[1,2,4],f32>, %x: !torch.vtensor<[1,3,6],f32>, %w: !torch.vtensor<[2,3,3],f64>) -> !torch.vtensor<[1,3,6],f32> {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %l1 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l0 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %true, %false, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{'torch.aten.convolution_backward' op expects input and weight of the same element type, got f32 and f64}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %l1, %l0, %l1, %false, %l0, %int1, %mask : !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[1,3,6],f32>, !torch.vtensor<[2,3,3],f64>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,3,6],f32>, !torch.none, !torch.none
  return %r#0 : !torch.vtensor<[1,3,6],f32>
}
