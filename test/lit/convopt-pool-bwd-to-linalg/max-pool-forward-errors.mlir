// Max-pool forward ops that PyTorch refuses (padding over half the window,
// a zero stride, a window larger than the padded input) or whose declared
// results do not follow from the input get a located error.
// RUN: %convopt --lower-pool-bwd --split-input-file --verify-diagnostics %s

func.func @padding_over_half(%x: !torch.vtensor<[1,2,6,6],f32>) -> (!torch.vtensor<[1,2,4,4],f32>, !torch.vtensor<[1,2,4,4],si64>) {
  %k0 = torch.constant.int 3
  %k1 = torch.constant.int 3
  %k = torch.prim.ListConstruct %k0, %k1 : (!torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 2
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 2
  %p1 = torch.constant.int 2
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d0 = torch.constant.int 1
  %d1 = torch.constant.int 1
  %d = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
  %ceil = torch.constant.bool false
  // expected-error @+1 {{'torch.aten.max_pool2d_with_indices' op expects padding between 0 and half the kernel size, got [2, 2] for kernel [3, 3]}}
  %r0, %r1 = torch.aten.max_pool2d_with_indices %x, %k, %s, %p, %d, %ceil : !torch.vtensor<[1,2,6,6],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,2,4,4],f32>, !torch.vtensor<[1,2,4,4],si64>
  return %r0, %r1 : !torch.vtensor<[1,2,4,4],f32>, !torch.vtensor<[1,2,4,4],si64>
}

// -----

func.func @zero_stride(%x: !torch.vtensor<[1,2,6,6],f32>) -> (!torch.vtensor<[1,2,1,1],f32>, !torch.vtensor<[1,2,1,1],si64>) {
  %k0 = torch.constant.int 3
  %k1 = torch.constant.int 3
  %k = torch.prim.ListConstruct %k0, %k1 : (!torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 0
  %s1 = torch.constant.int 1
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 0
  %p1 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d0 = torch.constant.int 1
  %d1 = torch.constant.int 1
  %d = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
  %ceil = torch.constant.bool false
  // expected-error @+1 {{'torch.aten.max_pool2d_with_indices' op expects kernel_size, stride and dilation >= 1, got [3, 3], [0, 1] and [1, 1]}}
  %r0, %r1 = torch.aten.max_pool2d_with_indices %x, %k, %s, %p, %d, %ceil : !torch.vtensor<[1,2,6,6],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,2,1,1],f32>, !torch.vtensor<[1,2,1,1],si64>
  return %r0, %r1 : !torch.vtensor<[1,2,1,1],f32>, !torch.vtensor<[1,2,1,1],si64>
}

// -----

func.func @window_larger_than_input(%x: !torch.vtensor<[1,2,4],f32>) -> (!torch.vtensor<[1,2,1],f32>, !torch.vtensor<[1,2,1],si64>) {
  %k0 = torch.constant.int 3
  %k = torch.prim.ListConstruct %k0 : (!torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 3
  %s = torch.prim.ListConstruct %s0 : (!torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0 : (!torch.int) -> !torch.list<int>
  %d0 = torch.constant.int 3
  %d = torch.prim.ListConstruct %d0 : (!torch.int) -> !torch.list<int>
  %ceil = torch.constant.bool false
  // expected-error @+1 {{'torch.aten.max_pool1d_with_indices' op has an empty output along spatial dim 0 (input size 4, kernel 3, dilation 3, padding 0)}}
  %r0, %r1 = torch.aten.max_pool1d_with_indices %x, %k, %s, %p, %d, %ceil : !torch.vtensor<[1,2,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,2,1],f32>, !torch.vtensor<[1,2,1],si64>
  return %r0, %r1 : !torch.vtensor<[1,2,1],f32>, !torch.vtensor<[1,2,1],si64>
}

// -----

func.func @wrong_result_shape(%x: !torch.vtensor<[1,2,6,6],f32>) -> (!torch.vtensor<[1,2,3,2],f32>, !torch.vtensor<[1,2,3,2],si64>) {
  %k0 = torch.constant.int 2
  %k1 = torch.constant.int 2
  %k = torch.prim.ListConstruct %k0, %k1 : (!torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 2
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 0
  %p1 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d0 = torch.constant.int 1
  %d1 = torch.constant.int 1
  %d = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
  %ceil = torch.constant.bool false
  // expected-error @+1 {{'torch.aten.max_pool2d_with_indices' op expects a result of shape [1,2,3,3] and element type f32, got '!torch.vtensor<[1,2,3,2],f32>'}}
  %r0, %r1 = torch.aten.max_pool2d_with_indices %x, %k, %s, %p, %d, %ceil : !torch.vtensor<[1,2,6,6],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,2,3,2],f32>, !torch.vtensor<[1,2,3,2],si64>
  return %r0, %r1 : !torch.vtensor<[1,2,3,2],f32>, !torch.vtensor<[1,2,3,2],si64>
}

