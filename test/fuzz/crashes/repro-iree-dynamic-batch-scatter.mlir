// convopt --lower-conv-bwd THIS | iree-compile --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host - -o /dev/null
// fails: 'linalg.fill' op write affecting operations on global resources are restricted to workgroup distributed contexts
func.func @main(%go: !torch.vtensor<[?,2,1,12],f32>, %x: !torch.vtensor<[?,2,3,7],f32>, %w: !torch.vtensor<[2,2,3,2],f32>) -> (!torch.vtensor<[?,2,3,7],f32>) {
  %int2 = torch.constant.int 2
  %l0 = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %int4 = torch.constant.int 4
  %int1 = torch.constant.int 1
  %l2 = torch.prim.ListConstruct %int4, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %l5 = torch.prim.ListConstruct %int0, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
  %int3 = torch.constant.int 3
  %l7 = torch.prim.ListConstruct %int1, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %l9 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %transposed = torch.constant.bool false
  %t = torch.constant.bool true
  %f = torch.constant.bool false
  %mask = torch.prim.ListConstruct %t, %f, %f : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r:3 = torch.aten.convolution_backward %go, %x, %w, %l0, %l2, %l5, %l7, %transposed, %l9, %int1, %mask : !torch.vtensor<[?,2,1,12],f32>, !torch.vtensor<[?,2,3,7],f32>, !torch.vtensor<[2,2,3,2],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[?,2,3,7],f32>, !torch.none, !torch.none
  return %r#0 : !torch.vtensor<[?,2,3,7],f32>
}
