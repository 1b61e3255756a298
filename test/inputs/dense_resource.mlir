// Written by hand (not by generate.py): a torch.vtensor.literal whose value
// lives in the file's dialect_resources section, as torch-mlir's FX importer
// writes large parameters.  The resource section must survive byte for byte.
module {
  func.func @main(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
    %0 = torch.vtensor.literal(dense_resource<torch_tensor_2_3_torch.float32> : tensor<2x3xf32>) : !torch.vtensor<[2,3],f32>
    %int1 = torch.constant.int 1
    %1 = torch.aten.add.Tensor %arg0, %0, %int1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.int -> !torch.vtensor<[2,3],f32>
    return %1 : !torch.vtensor<[2,3],f32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_2_3_torch.float32: "0x040000000000803F0000004000004040000080400000A0400000C040"
    }
  }
#-}
