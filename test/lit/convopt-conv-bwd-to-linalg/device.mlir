// The device classes' fitted costs (convopt/lowering/kernel/device.py,
// bench/costfit.py): this dense stride-1 grad_input (1.1M multiply-adds,
// ResNet-18's layer1.0.conv1 of bench/results/forms.*.json) takes
// conv_2d_nhwc_hwcf on cpu and avx512 and col2im on avx2, where the matmul
// is cheaper per multiply-add: measured there col2im took 1.20x the named
// form's time, one of the avx2 fit's 11 misses of 146 in
// bench/results/costfit.txt (the fit before the dry-run count missed
// others); a grouped
// grad_input with Ca * Cb = 16 per group stays generic taps; a 62K
// multiply-add grad_weight takes im2col (padded); on gpu every kernel is one
// linalg.generic (no matmul forms, no channels-last, the scatter by output
// phases: device-gpu.mlir).
// RUN: %convopt --lower-conv-bwd --split-input-file --stats %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: %convopt --lower-conv-bwd --split-input-file --stats --device=avx512 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: %convopt --lower-conv-bwd --split-input-file --stats --device=avx2 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=AVX2
// RUN: %convopt --lower-conv-bwd --split-input-file --stats --device=gpu %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: %convopt --lower-conv-bwd --split-input-file --device=avx2 %s | %mlir-verify --split-input-file

// CPU: grad_input: form=linalg.conv_2d_nhwc_hwcf ops=1
// CPU-NEXT: grad_input: form=generic ops=9
// CPU-NEXT: grad_weight: form=im2col
// AVX2: grad_input: form=im2col ops=1
// AVX2-NEXT: grad_input: form=generic ops=9
// AVX2-NEXT: grad_weight: form=im2col
// GPU: grad_input: form=generic ops=1
// GPU-NEXT: grad_input: form=generic ops=1
// GPU-NEXT: grad_weight: form=generic ops=1

func.func @dense3x3(%go: !torch.vtensor<[2,16,16,16],f32>, %x: !torch.vtensor<[2,16,16,16],f32>, %w: !torch.vtensor<[16,16,3,3],f32>) -> (!torch.vtensor<[2,16,16,16],f32>) {
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
  %mask = torch.prim.ListConstruct %t, %f, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[2,16,16,16],f32>, !torch.vtensor<[2,16,16,16],f32>, !torch.vtensor<[16,16,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,16,16,16],f32>, !torch.none, !torch.none
  return %r#0 : !torch.vtensor<[2,16,16,16],f32>
}

// -----

func.func @grouped(%go: !torch.vtensor<[2,32,32,32],f32>, %x: !torch.vtensor<[2,32,32,32],f32>, %w: !torch.vtensor<[32,4,3,3],f32>) -> (!torch.vtensor<[2,32,32,32],f32>) {
  %int32 = torch.constant.int 32
  %l0 = torch.prim.ListConstruct %int32 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l2 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l4 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l6 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %int8 = torch.constant.int 8
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %f, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l5, %transposed, %l6, %int8, %mask : !torch.vtensor<[2,32,32,32],f32>, !torch.vtensor<[2,32,32,32],f32>, !torch.vtensor<[32,4,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,32,32,32],f32>, !torch.none, !torch.none
  return %r#0 : !torch.vtensor<[2,32,32,32],f32>
}

// -----

func.func @small_dense(%go: !torch.vtensor<[2,8,8,8],f32>, %x: !torch.vtensor<[2,8,8,8],f32>, %w: !torch.vtensor<[8,8,3,3],f32>) -> (!torch.vtensor<[8,8,3,3],f32>) {
  %int8 = torch.constant.int 8
  %l0 = torch.prim.ListConstruct %int8 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %l2 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l4 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l5 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l6 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %f, %t, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l4, %l5, %transposed, %l6, %int1, %mask : !torch.vtensor<[2,8,8,8],f32>, !torch.vtensor<[2,8,8,8],f32>, !torch.vtensor<[8,8,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.none, !torch.vtensor<[8,8,3,3],f32>, !torch.none
  return %r#1 : !torch.vtensor<[8,8,3,3],f32>
}
