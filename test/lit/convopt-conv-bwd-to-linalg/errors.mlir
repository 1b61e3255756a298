// Configurations convopt cannot lower get a located error naming why.
// RUN: %convopt --lower-conv-bwd --split-input-file --verify-diagnostics %s

func.func @non_constant_stride(%go: !torch.vtensor<[1,2,4],f32>, %x: !torch.vtensor<[1,2,4],f32>, %w: !torch.vtensor<[2,2,1],f32>, %s: !torch.int) -> !torch.vtensor<[1,2,4],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %stride = torch.prim.ListConstruct %s : (!torch.int) -> !torch.list<int>
  %zeros = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %ones = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %true, %false, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{unsupported: non-constant stride list}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %stride, %zeros, %ones, %false, %zeros, %int1, %mask : !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[2,2,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,2,4],f32>, !torch.none, !torch.none
  return %r#0 : !torch.vtensor<[1,2,4],f32>
}

// -----

func.func @integer_type(%go: !torch.vtensor<[1,2,4],si64>, %x: !torch.vtensor<[1,2,4],si64>, %w: !torch.vtensor<[2,2,1],si64>) -> !torch.vtensor<[1,2,4],si64> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %zeros = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %ones = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %true, %false, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{unsupported: element type si64 (f16, bf16, f32 and f64 are supported)}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %ones, %zeros, %ones, %false, %zeros, %int1, %mask : !torch.vtensor<[1,2,4],si64>, !torch.vtensor<[1,2,4],si64>, !torch.vtensor<[2,2,1],si64>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,2,4],si64>, !torch.none, !torch.none
  return %r#0 : !torch.vtensor<[1,2,4],si64>
}

// -----

func.func @rank6(%go: !torch.vtensor<[1,2,2,2,2,2],f32>, %x: !torch.vtensor<[1,2,2,2,2,2],f32>, %w: !torch.vtensor<[2,2,1,1,1,1],f32>) -> !torch.vtensor<[1,2,2,2,2,2],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %zeros = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %ones = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %true, %false, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{unsupported: tensors of rank 6 (1, 2 or 3 spatial dims, ranks 3-5, are supported)}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %ones, %zeros, %ones, %false, %zeros, %int1, %mask : !torch.vtensor<[1,2,2,2,2,2],f32>, !torch.vtensor<[1,2,2,2,2,2],f32>, !torch.vtensor<[2,2,1,1,1,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,2,2,2,2,2],f32>, !torch.none, !torch.none
  return %r#0 : !torch.vtensor<[1,2,2,2,2,2],f32>
}

// -----

func.func @groups_do_not_divide(%go: !torch.vtensor<[1,4,4],f32>, %x: !torch.vtensor<[1,3,4],f32>, %w: !torch.vtensor<[4,1,1],f32>) -> !torch.vtensor<[1,3,4],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %zeros = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %ones = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %true, %false, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{expects the input to have 2 channels (weight [4, 1, 1], groups 2), got 3}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %ones, %zeros, %ones, %false, %zeros, %int2, %mask : !torch.vtensor<[1,4,4],f32>, !torch.vtensor<[1,3,4],f32>, !torch.vtensor<[4,1,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,3,4],f32>, !torch.none, !torch.none
  return %r#0 : !torch.vtensor<[1,3,4],f32>
}

// -----

func.func @inconsistent_sizes(%go: !torch.vtensor<[1,2,5],f32>, %x: !torch.vtensor<[1,2,4],f32>, %w: !torch.vtensor<[2,2,1],f32>) -> !torch.vtensor<[1,2,4],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %zeros = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %ones = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %true, %false, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{expects grad_output size 4 along spatial dim 0 (input 4), got 5}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %ones, %zeros, %ones, %false, %zeros, %int1, %mask : !torch.vtensor<[1,2,5],f32>, !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[2,2,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,2,4],f32>, !torch.none, !torch.none
  return %r#0 : !torch.vtensor<[1,2,4],f32>
}

// -----

func.func @output_padding_not_transposed(%go: !torch.vtensor<[1,2,4],f32>, %x: !torch.vtensor<[1,2,4],f32>, %w: !torch.vtensor<[2,2,1],f32>) -> !torch.vtensor<[1,2,4],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %zeros = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %ones = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %true, %false, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{expects zero output_padding for a non-transposed convolution (PyTorch rejects it)}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %ones, %zeros, %ones, %false, %ones, %int1, %mask : !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[2,2,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,2,4],f32>, !torch.none, !torch.none
  return %r#0 : !torch.vtensor<[1,2,4],f32>
}
