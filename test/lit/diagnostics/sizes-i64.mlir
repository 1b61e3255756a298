// Static sizes, products and offsets over i64 (2^63-1) get a located error
// (issue 41; conv_spec.check_i64), on both paths and every form; a torch
// size -1 is unknown (`?`) as torch-mlir reads it, any other negative size
// torch-mlir's error.
// RUN: %convopt --lower-conv-bwd --split-input-file --verify-diagnostics %s
// RUN: %convopt --lower-conv-bwd --backend-legal-ops= --split-input-file --verify-diagnostics %s
// RUN: %convopt --lower-conv-bwd --conv-form=im2col --split-input-file --verify-diagnostics %s

// fuzz-text seed 1 #1835: a batch of 2^63-1; the weight gradient's collapse_shape merged it with the spatial dims into a size over i64 that was printed
func.func @batch_i64_max(%go: !torch.vtensor<[9223372036854775807,4,2,2],f32>, %x: !torch.vtensor<[9223372036854775807,4,2,2],f32>, %w: !torch.vtensor<[4,4,1,1],f32>) -> (!torch.vtensor<[9223372036854775807,4,2,2],f32>, !torch.vtensor<[4,4,1,1],f32>) {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %s = torch.constant.int 1
  %p = torch.constant.int 0
  %d = torch.constant.int 1
  %o = torch.constant.int 0
  %ls = torch.prim.ListConstruct %s, %s : (!torch.int, !torch.int) -> !torch.list<int>
  %lp = torch.prim.ListConstruct %p, %p : (!torch.int, !torch.int) -> !torch.list<int>
  %ld = torch.prim.ListConstruct %d, %d : (!torch.int, !torch.int) -> !torch.list<int>
  %lo = torch.prim.ListConstruct %o, %o : (!torch.int, !torch.int) -> !torch.list<int>
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{unsupported: a tensor of 147573952589676412912 elements ('!torch.vtensor<[9223372036854775807,4,2,2],f32>'), over i64 (2^63-1)}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %ls, %lp, %ld, %f, %lo, %int1, %mask : !torch.vtensor<[9223372036854775807,4,2,2],f32>, !torch.vtensor<[9223372036854775807,4,2,2],f32>, !torch.vtensor<[4,4,1,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[9223372036854775807,4,2,2],f32>, !torch.vtensor<[4,4,1,1],f32>, !torch.none
  return %r#0, %r#1 : !torch.vtensor<[9223372036854775807,4,2,2],f32>, !torch.vtensor<[4,4,1,1],f32>
}

// -----

// padding and dilation near 2^62: offsets of the window over i64
func.func @offsets_over_i64(%go: !torch.vtensor<[1,1,1,1],f32>, %x: !torch.vtensor<[1,1,1,1],f32>, %w: !torch.vtensor<[1,1,3,3],f32>) -> (!torch.vtensor<[1,1,1,1],f32>, !torch.vtensor<[1,1,3,3],f32>) {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %s = torch.constant.int 1
  %p = torch.constant.int 4611686018427387904
  %d = torch.constant.int 4611686018427387904
  %o = torch.constant.int 0
  %ls = torch.prim.ListConstruct %s, %s : (!torch.int, !torch.int) -> !torch.list<int>
  %lp = torch.prim.ListConstruct %p, %p : (!torch.int, !torch.int) -> !torch.list<int>
  %ld = torch.prim.ListConstruct %d, %d : (!torch.int, !torch.int) -> !torch.list<int>
  %lo = torch.prim.ListConstruct %o, %o : (!torch.int, !torch.int) -> !torch.list<int>
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-error @+1 {{unsupported: sizes and offsets up to}}
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %ls, %lp, %ld, %f, %lo, %int1, %mask : !torch.vtensor<[1,1,1,1],f32>, !torch.vtensor<[1,1,1,1],f32>, !torch.vtensor<[1,1,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,1,1,1],f32>, !torch.vtensor<[1,1,3,3],f32>, !torch.none
  return %r#0, %r#1 : !torch.vtensor<[1,1,1,1],f32>, !torch.vtensor<[1,1,3,3],f32>
}

// -----

// torch-mlir: "invalid size -2 for !torch.tensor type", at the `<`
// expected-error @+1 {{invalid size -2 for !torch.tensor type}}
func.func @minus_two(%arg0: !torch.vtensor<[-2,4],f32>) {
  return
}
