func.func @f() -> !torch.vtensor<[2,3],f32> {
  %0 = torch.vtensor.literal(dense_resource<blob> : tensor<*xf32>) : !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}
{-#
  dialect_resources: {
    builtin: {
      blob: "0x04000000000000000000803f"
    }
  }
#-}
