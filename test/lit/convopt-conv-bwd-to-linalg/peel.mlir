// Peeling (the peel option of the kernel-emitting passes) on grad_weight of a
// 1-D convolution with padding 2 (input 6, kernel 3, output 8):
//   grad_weight[f, c, k] = sum_{n, s} dy[n, f, s] * x[n, c, s + k - 2]
// Each tap k has its own valid range of s (k=0: s in [2, 8), k=1: [1, 7),
// k=2: [0, 6)), so the padded form multiplies 24 pairs for 18 useful ones.
//   never:  one generic over x zero-padded by 2 on both sides;
//   always: one generic per tap, each over its in-bounds slice of dy, no pad;
//   auto:   peels, since padding would waste more than 5% (here 25%).
// RUN: %convopt --pass-pipeline='builtin.module(func.func(convopt-conv-bwd-to-linalg{peel=never conv-form=generic},convopt-cleanup))' %s | FileCheck %s --check-prefix=NEVER
// RUN: %convopt --pass-pipeline='builtin.module(func.func(convopt-conv-bwd-to-linalg{peel=always conv-form=generic},convopt-cleanup))' %s | FileCheck %s --check-prefix=PEELED
// RUN: %convopt --pass-pipeline='builtin.module(func.func(convopt-conv-bwd-to-linalg{peel=auto conv-form=generic},convopt-cleanup))' %s | FileCheck %s --check-prefix=PEELED
// RUN: %convopt --lower-conv-bwd --conv-form=generic %s | FileCheck %s --check-prefix=PEELED
// RUN: %convopt --pass-pipeline='builtin.module(func.func(convopt-conv-bwd-to-linalg{peel=never conv-form=generic},convopt-cleanup))' %s | %mlir-verify
// RUN: %convopt --lower-conv-bwd %s | %mlir-verify

// NEVER-DAG:    #[[DY:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d3, d0, d4)>
// NEVER-DAG:    #[[X:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d3, d1, d2 + d4)>
// NEVER-LABEL:  func.func @conv_bwd_1d_weight_2p(
// NEVER:          %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 0, 2] high[0, 0, 2]
// NEVER:          linalg.generic {indexing_maps = [#[[DY]], #[[X]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}}, %[[PAD]] : tensor<2x2x8xf32>, tensor<2x2x10xf32>) outs(%{{.*}} : tensor<2x2x3xf32>)
// NEVER-NOT:      linalg.generic

// PEELED-LABEL: func.func @conv_bwd_1d_weight_2p(
// PEELED-NOT:     tensor.pad
// PEELED:         %[[DY0:.*]] = tensor.extract_slice %[[DY:.*]][0, 0, 2] [2, 2, 6] [1, 1, 1] : tensor<2x2x8xf32> to tensor<2x2x6xf32>
// PEELED:         %[[T0:.*]] = linalg.generic {{.*}} ins(%[[DY0]], %{{.*}} : tensor<2x2x6xf32>, tensor<2x2x6xf32>) outs(%{{.*}} : tensor<2x2x1xf32>)
// PEELED:         %[[GW0:.*]] = tensor.insert_slice %[[T0]] into %{{.*}}[0, 0, 0] [2, 2, 1] [1, 1, 1]
// PEELED:         %[[DY1:.*]] = tensor.extract_slice %[[DY]][0, 0, 1] [2, 2, 6] [1, 1, 1]
// PEELED:         %[[T1:.*]] = linalg.generic {{.*}} ins(%[[DY1]], %{{.*}} : tensor<2x2x6xf32>, tensor<2x2x6xf32>)
// PEELED:         %[[GW1:.*]] = tensor.insert_slice %[[T1]] into %[[GW0]][0, 0, 1] [2, 2, 1] [1, 1, 1]
// PEELED:         %[[DY2:.*]] = tensor.extract_slice %[[DY]][0, 0, 0] [2, 2, 6] [1, 1, 1]
// PEELED:         %[[T2:.*]] = linalg.generic {{.*}} ins(%[[DY2]], %{{.*}} : tensor<2x2x6xf32>, tensor<2x2x6xf32>)
// PEELED:         tensor.insert_slice %[[T2]] into %[[GW1]][0, 0, 2] [2, 2, 1] [1, 1, 1]
// PEELED-NOT:     linalg.generic {{.*}} ins(
func.func @conv_bwd_1d_weight_2p(%go: !torch.vtensor<[2,2,8],f32>, %x: !torch.vtensor<[2,2,6],f32>, %w: !torch.vtensor<[2,2,3],f32>) -> (!torch.vtensor<[2,2,3],f32>) {
  %int2 = torch.constant.int 2
  %l0 = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l2 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l4 = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l6 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %f, %t, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[2,2,8],f32>, !torch.vtensor<[2,2,6],f32>, !torch.vtensor<[2,2,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.none, !torch.vtensor<[2,2,3],f32>, !torch.none
  return %r#1 : !torch.vtensor<[2,2,3],f32>
}
