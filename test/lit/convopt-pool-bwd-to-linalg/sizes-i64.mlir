// Pooling backward with sizes over i64 (2^63-1) gets a located error
// (issue 41; conv_spec.check_i64 in read_pool_backward and
// read_max_pool_backward, read_max_pool_forward).
// RUN: %convopt --lower-pool-bwd --split-input-file --verify-diagnostics %s

// avg_pool2d_backward with a batch of 2^62: over i64
func.func @avg_pool_over_i64(%go: !torch.vtensor<[4611686018427387904,4,2,2],f32>, %x: !torch.vtensor<[4611686018427387904,4,4,4],f32>, %idx: !torch.vtensor<[4611686018427387904,4,2,2],si64>) -> !torch.vtensor<[4611686018427387904,4,4,4],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %z = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %one = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{unsupported: a tensor of 295147905179352825856 elements ('!torch.vtensor<[4611686018427387904,4,4,4],f32>'), over i64 (2^63-1)}}
  %r = torch.aten.avg_pool2d_backward %go, %x, %k, %k, %z, %f, %t, %none : !torch.vtensor<[4611686018427387904,4,2,2],f32>, !torch.vtensor<[4611686018427387904,4,4,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[4611686018427387904,4,4,4],f32>
  return %r : !torch.vtensor<[4611686018427387904,4,4,4],f32>
}

// -----

// max_pool3d_with_indices_backward with a batch of 2^62: over i64
func.func @max_pool_over_i64(%go: !torch.vtensor<[4611686018427387904,4,1,2,2],f32>, %x: !torch.vtensor<[4611686018427387904,4,2,4,4],f32>, %idx: !torch.vtensor<[4611686018427387904,4,1,2,2],si64>) -> !torch.vtensor<[4611686018427387904,4,2,4,4],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %k = torch.prim.ListConstruct %int2, %int2, %int2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %z = torch.prim.ListConstruct %int0, %int0, %int0 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %one = torch.prim.ListConstruct %int1, %int1, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{unsupported: a tensor of 590295810358705651712 elements ('!torch.vtensor<[4611686018427387904,4,2,4,4],f32>'), over i64 (2^63-1)}}
  %r = torch.aten.max_pool3d_with_indices_backward %go, %x, %k, %k, %z, %one, %f, %idx : !torch.vtensor<[4611686018427387904,4,1,2,2],f32>, !torch.vtensor<[4611686018427387904,4,2,4,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.vtensor<[4611686018427387904,4,1,2,2],si64> -> !torch.vtensor<[4611686018427387904,4,2,4,4],f32>
  return %r : !torch.vtensor<[4611686018427387904,4,2,4,4],f32>
}

// -----

// max_pool2d forward with a batch of 2^63-1: over i64 (read_max_pool_forward)
func.func @max_pool_forward_over_i64(%x: !torch.vtensor<[9223372036854775807,4,8,8],f32>) -> !torch.vtensor<[9223372036854775807,4,3,3],f32> {
  %int3 = torch.constant.int 3
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %k = torch.prim.ListConstruct %int3, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{unsupported: a tensor of 2361183241434822606592 elements ('!torch.vtensor<[9223372036854775807,4,8,8],f32>'), over i64 (2^63-1)}}
  %r = torch.aten.max_pool2d %x, %k, %s, %p, %d, %false : !torch.vtensor<[9223372036854775807,4,8,8],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[9223372036854775807,4,3,3],f32>
  return %r : !torch.vtensor<[9223372036854775807,4,3,3],f32>
}
