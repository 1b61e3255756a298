// An op name its dialect does not have is refused where it is written, with
// the nearest name torch-mlir registers (convopt/dialects/op_names.py), in
// every dialect convopt reads, in the custom and in the generic form: the
// misspelled op is never passed through unlowered.  A misspelled op with a
// custom form of its own (tensor.empty's `(...)`) gets the same error, not a
// syntax error about what follows the name.  Ops of a dialect convopt does
// not know are refused unless --allow-unregistered-dialect.
// RUN: %convopt %s --split-input-file --verify-diagnostics
// RUN: %convopt %s --split-input-file --verify-diagnostics --lower-conv-bwd --remarks --stats
// RUN: not %convopt %s --split-input-file --lower-conv-bwd 2>&1 | FileCheck %s

// CHECK: unknown-ops.mlir:[[# @LINE + 3]]:10: error: unregistered operation 'torch.aten.convolution_backwrd' found in dialect ('torch') that does not allow unknown operations; did you mean 'torch.aten.convolution_backward'?
func.func @torch_custom(%g: !torch.vtensor<[1,2,3,3],f32>, %x: !torch.vtensor<[1,2,5,5],f32>, %w: !torch.vtensor<[2,2,3,3],f32>, %l: !torch.list<int>, %b: !torch.bool, %i: !torch.int, %m: !torch.list<bool>) -> !torch.vtensor<[1,2,5,5],f32> {
  // expected-error @+1 {{unregistered operation 'torch.aten.convolution_backwrd' found in dialect ('torch') that does not allow unknown operations; did you mean 'torch.aten.convolution_backward'?}}
  %0:3 = torch.aten.convolution_backwrd %g, %x, %w, %l, %l, %l, %l, %b, %l, %i, %m : !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[1,2,5,5],f32>, !torch.vtensor<[2,2,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,2,5,5],f32>, !torch.vtensor<[2,2,3,3],f32>, !torch.none
  return %0#0 : !torch.vtensor<[1,2,5,5],f32>
}

// -----

// CHECK: unknown-ops.mlir:[[# @LINE + 3]]:8: error: {{.*}}'torch.aten.reluu'{{.*}}; did you mean 'torch.aten.relu'?
func.func @torch_generic(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  // expected-error @+1 {{unregistered operation 'torch.aten.reluu' found in dialect ('torch') that does not allow unknown operations; did you mean 'torch.aten.relu'?}}
  %0 = "torch.aten.reluu"(%a) : (!torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// CHECK: unknown-ops.mlir:[[# @LINE + 3]]:8: error: {{.*}}'torch.constant.itn'{{.*}}; did you mean 'torch.constant.int'?
func.func @torch_constant() -> !torch.int {
  // expected-error @+1 {{unregistered operation 'torch.constant.itn' found in dialect ('torch') that does not allow unknown operations; did you mean 'torch.constant.int'?}}
  %0 = torch.constant.itn 3
  return %0 : !torch.int
}

// -----

// CHECK: unknown-ops.mlir:[[# @LINE + 3]]:8: error: {{.*}}'torch_c.to_builtin_tensr'{{.*}}; did you mean 'torch_c.to_builtin_tensor'?
func.func @torch_c(%a: !torch.vtensor<[2],f32>) -> tensor<2xf32> {
  // expected-error @+1 {{unregistered operation 'torch_c.to_builtin_tensr' found in dialect ('torch_c') that does not allow unknown operations; did you mean 'torch_c.to_builtin_tensor'?}}
  %0 = torch_c.to_builtin_tensr %a : !torch.vtensor<[2],f32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK: unknown-ops.mlir:[[# @LINE + 3]]:8: error: {{.*}}'tensor.emtpy'{{.*}}; did you mean 'tensor.empty'?
func.func @tensor_own_form() -> tensor<2xf32> {
  // expected-error @+1 {{unregistered operation 'tensor.emtpy' found in dialect ('tensor') that does not allow unknown operations; did you mean 'tensor.empty'?}}
  %0 = tensor.emtpy() : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK: unknown-ops.mlir:[[# @LINE + 3]]:8: error: {{.*}}'tensor.extract_slce'{{.*}}; did you mean 'tensor.extract_slice'?
func.func @tensor_slice(%a: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{unregistered operation 'tensor.extract_slce' found in dialect ('tensor') that does not allow unknown operations; did you mean 'tensor.extract_slice'?}}
  %0 = tensor.extract_slce %a[0] [2] [1] : tensor<4xf32> to tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK: unknown-ops.mlir:[[# @LINE + 3]]:8: error: {{.*}}'arith.constnt'{{.*}}; did you mean 'arith.constant'?
func.func @arith() -> index {
  // expected-error @+1 {{unregistered operation 'arith.constnt' found in dialect ('arith') that does not allow unknown operations; did you mean 'arith.constant'?}}
  %0 = arith.constnt 0 : index
  return %0 : index
}

// -----

// CHECK: unknown-ops.mlir:[[# @LINE + 3]]:8: error: {{.*}}'math.sqr'{{.*}}; did you mean 'math.sqrt'?
func.func @math(%a: f32) -> f32 {
  // expected-error @+1 {{unregistered operation 'math.sqr' found in dialect ('math') that does not allow unknown operations; did you mean 'math.sqrt'?}}
  %0 = math.sqr %a : f32
  return %0 : f32
}

// -----

// CHECK: unknown-ops.mlir:[[# @LINE + 3]]:8: error: {{.*}}'linalg.generik'{{.*}}; did you mean 'linalg.generic'?
func.func @linalg(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{unregistered operation 'linalg.generik' found in dialect ('linalg') that does not allow unknown operations; did you mean 'linalg.generic'?}}
  %0 = linalg.generik {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%a : tensor<2xf32>) {
  ^bb0(%o: f32):
    linalg.yield %o : f32
  } -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK: unknown-ops.mlir:[[# @LINE + 2]]:1: error: {{.*}}'func.fnuc'{{.*}}; did you mean 'func.func'?
// expected-error @+1 {{unregistered operation 'func.fnuc' found in dialect ('func') that does not allow unknown operations; did you mean 'func.func'?}}
func.fnuc @func() {
  return
}

// -----

// CHECK: unknown-ops.mlir:[[# @LINE + 4]]:3: error: {{.*}}'scf.yeld'{{.*}}; did you mean 'scf.yield'?
func.func @scf(%c: i1, %a: f32) -> f32 {
  %0 = "scf.if"(%c) ({
  // expected-error @+1 {{unregistered operation 'scf.yeld' found in dialect ('scf') that does not allow unknown operations; did you mean 'scf.yield'?}}
  "scf.yeld"(%a) : (f32) -> ()
  }, {
    scf.yield %a : f32
  }) : (i1) -> f32
  return %0 : f32
}

// -----

// CHECK: unknown-ops.mlir:[[# @LINE + 3]]:8: error: dialect 'toch' not found for op 'toch.aten.relu'; did you mean 'torch.aten.relu'? (--allow-unregistered-dialect lets ops of unknown dialects through)
func.func @misspelled_dialect(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  // expected-error @+1 {{dialect 'toch' not found for op 'toch.aten.relu'; did you mean 'torch.aten.relu'? (--allow-unregistered-dialect lets ops of unknown dialects through)}}
  %0 = toch.aten.relu %a : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// CHECK: unknown-ops.mlir:[[# @LINE + 3]]:3: error: dialect 'my' not found for op 'my.op' (--allow-unregistered-dialect lets ops of unknown dialects through)
func.func @unknown_dialect() {
  // expected-error @+1 {{dialect 'my' not found for op 'my.op' (--allow-unregistered-dialect lets ops of unknown dialects through)}}
  "my.op"() : () -> ()
  return
}
