// Lowered IR is not a raw import: torch-mlir's frontend stage refuses its
// torch_c cast; convopt's error saying what to give --torch-mlir-stages
// comes first.
func.func @lowered(%arg0: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  // expected-error @+4 {{but the input has 'torch_c.to_builtin_tensor' ops: it has been lowered already (convopt's output?); give --torch-mlir-stages the raw import}}
  // expected-error @+3 {{found an op that was marked as backend illegal}}
  // expected-note @+2 {{see current operation: %0 = "torch_c.to_builtin_tensor"(%arg0)}}
  // expected-note @+1 {{this is likely due to DecomposeComplexOps being unable to decompose this op}}
  %0 = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[2],f32> -> tensor<2xf32>
  %1 = arith.addf %0, %0 : tensor<2xf32>
  %2 = torch_c.from_builtin_tensor %1 : tensor<2xf32> -> !torch.vtensor<[2],f32>
  return %2 : !torch.vtensor<[2],f32>
}

// -----

// torch-mlir's parser, located at the chunk's original line.
func.func @undefined() -> !torch.int {
  // expected-error @+1 {{use of undeclared SSA value name}}
  return %x : !torch.int
}
