// IREE 3.13 with --iree-opt-level=O3 (the first flag of iree-turbine's BOO /
// Fusilli set for backward convolutions): "'func.func' op failed to apply
// fusion + hoisting patterns (set 1)" on rocm gfx942 and cuda sm_80.
// No convolution here: ResNet-18's stem max-pool backward (3x3 stride 2 pad 1)
// whose gradient is the sum of two branches.  IREE lowers it to an
// iree_linalg_ext.scatter and, at O3, fuses the add (and the index
// computation) into the scatter's dispatch, which GPU codegen then fails on.
// Without the add the same scatter fails at O3 too (rocm: 262144 bytes of
// shared memory, over the limit; vulkan rdna3: 294912).  At the default
// level (O2) it builds.  This is what fails a ResNet-18 training step with
// the BOO set on rocm, through convopt and through IREE's own lowering
// alike: the op is not convopt's (ResNet-50, ShuffleNet and UNet have it too).
// maxpool_bwd_gather_o3.mlir is the same gradient as one gathering
// linalg.generic, which builds at O3 on the three targets.
// iree-compile maxpool_bwd_o3.mlir --iree-input-type=torch --iree-opt-level=O3 --iree-hal-target-backends=rocm --iree-rocm-target=gfx942 -o /dev/null
func.func @main(%a: !torch.vtensor<[2,16,16,16],f32>, %b: !torch.vtensor<[2,16,16,16],f32>, %x: !torch.vtensor<[2,16,32,32],f32>, %idx: !torch.vtensor<[2,16,16,16],si64>) -> !torch.vtensor<[2,16,32,32],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %false = torch.constant.bool false
  %k = torch.prim.ListConstruct %int3, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %g = torch.aten.add.Tensor %a, %b, %int1 : !torch.vtensor<[2,16,16,16],f32>, !torch.vtensor<[2,16,16,16],f32>, !torch.int -> !torch.vtensor<[2,16,16,16],f32>
  %r = torch.aten.max_pool2d_with_indices_backward %g, %x, %k, %s, %p, %d, %false, %idx : !torch.vtensor<[2,16,16,16],f32>, !torch.vtensor<[2,16,32,32],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.vtensor<[2,16,16,16],si64> -> !torch.vtensor<[2,16,32,32],f32>
  return %r : !torch.vtensor<[2,16,32,32],f32>
}
