// Average-pooling backward that convopt cannot lower, or that PyTorch
// rejects, gets a located error naming why.
// RUN: %convopt --lower-pool-bwd --split-input-file --verify-diagnostics %s

func.func @non_constant_kernel(%go: !torch.vtensor<[1,2,4,4],f32>, %x: !torch.vtensor<[1,2,8,8],f32>, %k: !torch.int) -> !torch.vtensor<[1,2,8,8],f32> {
  %int0 = torch.constant.int 0
  %kernel = torch.prim.ListConstruct %k, %k : (!torch.int, !torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %pad = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  // expected-error @+1 {{unsupported: non-constant kernel_size list}}
  %r = torch.aten.avg_pool2d_backward %go, %x, %kernel, %kernel, %pad, %false, %true, %none : !torch.vtensor<[1,2,4,4],f32>, !torch.vtensor<[1,2,8,8],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,2,8,8],f32>
  return %r : !torch.vtensor<[1,2,8,8],f32>
}

// -----

func.func @integer_type(%go: !torch.vtensor<[1,2,4,4],si64>, %x: !torch.vtensor<[1,2,8,8],si64>) -> !torch.vtensor<[1,2,8,8],si64> {
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %kernel = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %pad = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  // expected-error @+1 {{unsupported: element type si64 (f16, bf16, f32 and f64 are supported)}}
  %r = torch.aten.avg_pool2d_backward %go, %x, %kernel, %kernel, %pad, %false, %true, %none : !torch.vtensor<[1,2,4,4],si64>, !torch.vtensor<[1,2,8,8],si64>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,2,8,8],si64>
  return %r : !torch.vtensor<[1,2,8,8],si64>
}

// -----

func.func @padding_over_half_the_kernel(%go: !torch.vtensor<[1,2,6,6],f32>, %x: !torch.vtensor<[1,2,8,8],f32>) -> !torch.vtensor<[1,2,8,8],f32> {
  %int2 = torch.constant.int 2
  %kernel = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  // expected-error @+1 {{'torch.aten.avg_pool2d_backward' op expects padding between 0 and half the kernel size, got [2, 2] for kernel [2, 2]}}
  %r = torch.aten.avg_pool2d_backward %go, %x, %kernel, %kernel, %kernel, %false, %true, %none : !torch.vtensor<[1,2,6,6],f32>, !torch.vtensor<[1,2,8,8],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,2,8,8],f32>
  return %r : !torch.vtensor<[1,2,8,8],f32>
}

// -----

func.func @grad_output_of_the_wrong_size(%go: !torch.vtensor<[1,2,5,5],f32>, %x: !torch.vtensor<[1,2,9,9],f32>) -> !torch.vtensor<[1,2,9,9],f32> {
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %kernel = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %pad = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  // ceil_mode = false: floor((9 - 2) / 2) + 1 = 4 windows
  // expected-error @+1 {{'torch.aten.avg_pool2d_backward' op expects grad_output size 4 along spatial dim 0 (input 9), got 5}}
  %r = torch.aten.avg_pool2d_backward %go, %x, %kernel, %kernel, %pad, %false, %true, %none : !torch.vtensor<[1,2,5,5],f32>, !torch.vtensor<[1,2,9,9],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,2,9,9],f32>
  return %r : !torch.vtensor<[1,2,9,9],f32>
}

// -----

func.func @zero_divisor(%go: !torch.vtensor<[1,2,2,2,2],f32>, %x: !torch.vtensor<[1,2,4,4,4],f32>) -> !torch.vtensor<[1,2,4,4,4],f32> {
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %kernel = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %pad = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  // expected-error @+1 {{'torch.aten.avg_pool3d_backward' op expects a non-zero divisor_override}}
  %r = torch.aten.avg_pool3d_backward %go, %x, %kernel, %kernel, %pad, %false, %true, %int0 : !torch.vtensor<[1,2,2,2,2],f32>, !torch.vtensor<[1,2,4,4,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.int -> !torch.vtensor<[1,2,4,4,4],f32>
  return %r : !torch.vtensor<[1,2,4,4,4],f32>
}

// -----

func.func @max_pool_non_constant_ceil(%go: !torch.vtensor<[1,1,1,2,2],f32>, %x: !torch.vtensor<[1,1,2,4,4],f32>, %idx: !torch.vtensor<[1,1,1,2,2],si64>, %ceil: !torch.bool) -> !torch.vtensor<[1,1,2,4,4],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %k = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  // expected-error @+1 {{unsupported: non-constant ceil_mode}}
  %r = torch.aten.max_pool3d_with_indices_backward %go, %x, %k, %k, %p, %d, %ceil, %idx : !torch.vtensor<[1,1,1,2,2],f32>, !torch.vtensor<[1,1,2,4,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.vtensor<[1,1,1,2,2],si64> -> !torch.vtensor<[1,1,2,4,4],f32>
  return %r : !torch.vtensor<[1,1,2,4,4],f32>
}

// -----

func.func @max_pool_i32_indices(%go: !torch.vtensor<[1,1,1,2,2],f32>, %x: !torch.vtensor<[1,1,2,4,4],f32>, %idx: !torch.vtensor<[1,1,1,2,2],si32>) -> !torch.vtensor<[1,1,2,4,4],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %false = torch.constant.bool false
  %k = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  // expected-error @+1 {{expects 64-bit integer indices}}
  %r = torch.aten.max_pool3d_with_indices_backward %go, %x, %k, %k, %p, %d, %false, %idx : !torch.vtensor<[1,1,1,2,2],f32>, !torch.vtensor<[1,1,2,4,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.vtensor<[1,1,1,2,2],si32> -> !torch.vtensor<[1,1,2,4,4],f32>
  return %r : !torch.vtensor<[1,1,2,4,4],f32>
}
