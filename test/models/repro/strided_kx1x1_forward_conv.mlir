// torch-mlir's lowering of a forward convolution with kernel (3,1,1), stride
// (2,1,1) and padding (1,0,0) (R(2+1)D's temporal downsampling) is invalid IR:
//   'linalg.generic' op inferred input/output operand #1 has shape's dimension
//   #2 to be 4, but found 3
// through IREE's own torch input (iree-compile --iree-input-type=torch) and
// torch-mlir's linalg stage alike; convopt --lower-forward-convs lowers it.
// test/models/test_models.py::test_strided_kx1x1_forward_conv checks both.
func.func @main(%x: !torch.vtensor<[2,48,2,4,4],f32>, %w: !torch.vtensor<[64,48,3,1,1],f32>) -> !torch.vtensor<[2,64,1,4,4],f32> {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %stride = torch.prim.ListConstruct %int2, %int1, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %padding = torch.prim.ListConstruct %int1, %int0, %int0 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %dilation = torch.prim.ListConstruct %int1, %int1, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %output_padding = torch.prim.ListConstruct %int0, %int0, %int0 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %y = torch.aten.convolution %x, %w, %none, %stride, %padding, %dilation, %false, %output_padding, %int1 : !torch.vtensor<[2,48,2,4,4],f32>, !torch.vtensor<[64,48,3,1,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[2,64,1,4,4],f32>
  return %y : !torch.vtensor<[2,64,1,4,4],f32>
}
