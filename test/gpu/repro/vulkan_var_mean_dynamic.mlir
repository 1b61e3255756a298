// IREE 3.13 vulkan-spirv (--iree-vulkan-target=rdna3): "'vector.mask' op
// expects only one operation to mask" on BatchNorm's statistics with a
// dynamic batch (torch.aten.var_mean.correction over [?, 16, 16, 16]), the
// raw import and convopt's output alike: not a convolution op, and nothing
// convopt emits (model dynamic_batch_cnn, bench/README.md "GPU builds").
// rocm and cuda build it.
// iree-compile vulkan_var_mean_dynamic.mlir --iree-input-type=torch --iree-hal-target-backends=vulkan-spirv --iree-vulkan-target=rdna3 -o /dev/null
func.func @main(%x: !torch.vtensor<[?,16,16,16],f32>) -> (!torch.vtensor<[1,16,1,1],f32>, !torch.vtensor<[1,16,1,1],f32>) {
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %dims = torch.prim.ListConstruct %int0, %int2, %int3 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %true = torch.constant.bool true
  %var, %mean = torch.aten.var_mean.correction %x, %dims, %int0, %true : !torch.vtensor<[?,16,16,16],f32>, !torch.list<int>, !torch.int, !torch.bool -> !torch.vtensor<[1,16,1,1],f32>, !torch.vtensor<[1,16,1,1],f32>
  return %var, %mean : !torch.vtensor<[1,16,1,1],f32>, !torch.vtensor<[1,16,1,1],f32>
}
