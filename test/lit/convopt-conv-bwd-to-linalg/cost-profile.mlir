// --cost-profile: auto chooses by the costs a convopt-calibrate file measured.
// packed-cheap.json prices a packed (linalg.mmt4d) multiply-add at a quarter of
// a linalg.matmul one and lists f32 tiles as right on its CPU: the im2col
// weight kernel takes its packed variant.  matmul-dear.json prices matmuls out
// of the choice: one linalg.generic.  Without a file the class profile's
// bytes: a plain linalg.matmul.  With --device=avx2 the 16-column tiles the
// file measured are dropped (IREE 3.13 miscompiles them without AVX-512).
// Both files name another CPU than any host: a warning says so.
// RUN: %convopt --lower-conv-bwd --cost-profile=%S/Inputs/packed-cheap.json %s 2>/dev/null | FileCheck %s --check-prefix=PACKED
// RUN: %convopt --lower-conv-bwd --cost-profile=%S/Inputs/packed-cheap.json %s 2>/dev/null | %mlir-verify
// RUN: %convopt --lower-conv-bwd --cost-profile=%S/Inputs/matmul-dear.json %s 2>/dev/null | FileCheck %s --check-prefix=GENERIC
// RUN: %convopt --lower-conv-bwd %s | FileCheck %s --check-prefix=DEFAULT
// RUN: %convopt --lower-conv-bwd --device=avx2 --cost-profile=%S/Inputs/packed-cheap.json %s 2>/dev/null | FileCheck %s --check-prefix=DEFAULT
// RUN: %convopt --lower-conv-bwd --cost-profile=%S/Inputs/packed-cheap.json %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN
// RUN: not %convopt --lower-conv-bwd --cost-profile=%S/Inputs/not-a-profile.json %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not %convopt --lower-conv-bwd --device=gpu --cost-profile=%S/Inputs/packed-cheap.json %s 2>&1 | FileCheck %s --check-prefix=GPU

// WARN: packed-cheap.json: warning: the cost profile was calibrated for CPU 'lit-test CPU' (this machine: '{{.*}}'): its choices may not be the fastest here; run convopt-calibrate on this machine
// BAD: convopt: error: --cost-profile: {{.*}}not-a-profile.json: not a convopt cost profile (no "format": "convopt-cost-profile"): write one with convopt-calibrate
// GPU: error: a cost profile is a CPU calibration: it does not apply to --device=gpu

// PACKED-LABEL: func.func @main(
// PACKED:         linalg.pack
// PACKED-SAME:      static_inner_tiles = array<i64: 16, 1>
// PACKED:         linalg.mmt4d ins(%{{.*}}, %{{.*}} : tensor<{{.*}}x16x1xf32>, tensor<{{.*}}x16x1xf32>)
// PACKED:         linalg.unpack
// PACKED-NOT:     linalg.matmul

// GENERIC-LABEL: func.func @main(
// GENERIC:         linalg.generic
// GENERIC-NOT:     linalg.matmul
// GENERIC-NOT:     linalg.mmt4d

// DEFAULT-LABEL: func.func @main(
// DEFAULT:         linalg.matmul
// DEFAULT-NOT:     linalg.mmt4d

func.func @main(%go: !torch.vtensor<[2,64,28,28],f32>, %x: !torch.vtensor<[2,64,28,28],f32>, %w: !torch.vtensor<[64,64,3,3],f32>) -> !torch.vtensor<[64,64,3,3],f32> {
  %stride0 = torch.constant.int 1
  %stride1 = torch.constant.int 1
  %stride = torch.prim.ListConstruct %stride0, %stride1 : (!torch.int, !torch.int) -> !torch.list<int>
  %padding0 = torch.constant.int 1
  %padding1 = torch.constant.int 1
  %padding = torch.prim.ListConstruct %padding0, %padding1 : (!torch.int, !torch.int) -> !torch.list<int>
  %dilation0 = torch.constant.int 1
  %dilation1 = torch.constant.int 1
  %dilation = torch.prim.ListConstruct %dilation0, %dilation1 : (!torch.int, !torch.int) -> !torch.list<int>
  %outpad0 = torch.constant.int 0
  %outpad1 = torch.constant.int 0
  %outpad = torch.prim.ListConstruct %outpad0, %outpad1 : (!torch.int, !torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %transposed = torch.constant.bool false
  %groups = torch.constant.int 1
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %mask = torch.prim.ListConstruct %false, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %none, %stride, %padding, %dilation, %transposed, %outpad, %groups, %mask : !torch.vtensor<[2,64,28,28],f32>, !torch.vtensor<[2,64,28,28],f32>, !torch.vtensor<[64,64,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.none, !torch.vtensor<[64,64,3,3],f32>, !torch.none
  return %r#1 : !torch.vtensor<[64,64,3,3],f32>
}
