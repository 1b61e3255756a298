// The forms of the emitted convolutions (--conv-form), on one 2-D case
// (8 -> 16 channels, 8x8, 3x3 kernel, padding 1).
//   im2col:  grad_input is one matmul W^T x grad_output ([C*K, F] x [F, N*S])
//            and col2im as one op summing the 9 taps' shifted slices of the
//            zero-padded columns (no add per tap); grad_weight one matmul over
//            an im2col copy of the zero-padded input (a kernel this small,
//            124K multiply-adds, is not cut into its 9 peeled pieces: its
//            `padded` variant is the cheaper, convopt/lowering/kernel/cost.py).
//   named:   (decomposed) both convolutions are channels-last
//            linalg.conv_2d_nhwc_hwcf between transposes (a forced `named` is
//            channels-last wherever channels_last.py can emit it).
//   generic: no matmul and no named convolution at all.
// RUN: %convopt --lower-conv-bwd --conv-form=im2col %s | FileCheck %s --check-prefix=IM2COL
// RUN: %convopt --lower-conv-bwd --conv-form=im2col %s | %mlir-verify
// RUN: %convopt --lower-conv-bwd --backend-legal-ops= --conv-form=named %s | FileCheck %s --check-prefix=NAMED
// RUN: %convopt --lower-conv-bwd --backend-legal-ops= --conv-form=named %s | %mlir-verify
// RUN: %convopt --lower-conv-bwd --conv-form=generic %s | FileCheck %s --check-prefix=GENERIC
// RUN: %convopt --lower-conv-bwd --conv-form=generic %s | %mlir-verify

// NAMED-LABEL: func.func @conv_bwd_2d_im2col(
// NAMED:         linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x10x10x16xf32>, tensor<3x3x16x8xf32>)
// NAMED:         linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x10x10x2xf32>, tensor<8x8x2x16xf32>)
// NAMED-NOT:     linalg.generic {{.*}}reduction

// IM2COL-DAG:   #[[IM:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d1 + d4, d2 + d5)>
// IM2COL-LABEL: func.func @conv_bwd_2d_im2col(
// IM2COL:         %[[WT:.*]] = linalg.transpose ins(%arg2 : tensor<16x8x3x3xf32>) outs(%{{.*}} : tensor<8x3x3x16xf32>) permutation = [1, 2, 3, 0]
// IM2COL:         %[[COLS:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<72x16xf32>, tensor<16x128xf32>) outs(%{{.*}} : tensor<72x128xf32>)
// IM2COL:         %[[CP:.*]] = tensor.pad %{{.*}} low[0, 0, 0, 0, 1, 1] high[0, 0, 0, 0, 1, 1]
// IM2COL-COUNT-9: tensor.extract_slice %[[CP]][0, {{[012]}}, {{[012]}}, 0, {{[012]}}, {{[012]}}] [8, 1, 1, 2, 8, 8] [1, 1, 1, 1, 1, 1]
// IM2COL:         linalg.generic {indexing_maps = [#[[IN:map[0-9]*]], #[[IN]], #[[IN]], #[[IN]], #[[IN]], #[[IN]], #[[IN]], #[[IN]], #[[IN]], #{{map[0-9]*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins({{.*}} : tensor<8x2x8x8xf32>, {{.*}}) outs(%{{.*}} : tensor<2x8x8x8xf32>)
// IM2COL-NOT:     tensor.insert_slice
// IM2COL:         %[[XP:.*]] = tensor.pad %arg1 low[0, 0, 1, 1] high[0, 0, 1, 1]
// IM2COL:         linalg.generic {indexing_maps = [#[[IM]], #{{.*}}], {{.*}} ins(%[[XP]] : tensor<2x8x10x10xf32>) outs(%{{.*}} : tensor<2x8x8x8x3x3xf32>)
// IM2COL:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x128xf32>, tensor<128x72xf32>) outs(%{{.*}} : tensor<16x72xf32>)
// IM2COL-NOT:     linalg.matmul
// IM2COL-NOT:     linalg.conv_


// GENERIC-LABEL: func.func @conv_bwd_2d_im2col(
// GENERIC-NOT:   linalg.matmul
// GENERIC-NOT:   linalg.conv_
// GENERIC:       return
func.func @conv_bwd_2d_im2col(%go: !torch.vtensor<[2,16,8,8],f32>, %x: !torch.vtensor<[2,8,8,8],f32>, %w: !torch.vtensor<[16,8,3,3],f32>) -> (!torch.vtensor<[2,8,8,8],f32>, !torch.vtensor<[16,8,3,3],f32>) {
  %int16 = torch.constant.int 16
  %l0 = torch.prim.ListConstruct %int16 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l2 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l4 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l6 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %t, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[2,16,8,8],f32>, !torch.vtensor<[2,8,8,8],f32>, !torch.vtensor<[16,8,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,8,8,8],f32>, !torch.vtensor<[16,8,3,3],f32>, !torch.none
  return %r#0, %r#1 : !torch.vtensor<[2,8,8,8],f32>, !torch.vtensor<[16,8,3,3],f32>
}
