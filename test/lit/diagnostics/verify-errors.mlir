// IR that parses but is invalid is rejected by the verifier, located at the op.
// RUN: %convopt %s --split-input-file --verify-diagnostics

func.func @return_type(%arg0: f32) -> f64 {
  // expected-error @+1 {{'func.return' op type of return operand 0 ('f32') doesn't match function result type ('f64') in function @return_type}}
  return %arg0 : f32
}

// -----

func.func @return_count(%arg0: f32) -> (f32, f32) {
  // expected-error @+1 {{'func.return' op has 1 operands, but enclosing function (@return_count) returns 2}}
  return %arg0 : f32
}

// -----

#map = affine_map<(d0) -> (d0)>
func.func @generic_map_count(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.generic' op expected the number of indexing_map (1) to be equal to the number of input/output operands (2)}}
  %0 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#flip = affine_map<(d0, d1) -> (d0, 2 - d1)>
func.func @generic_bare_loop(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'linalg.generic' op loop d1 does not appear alone in any indexing map}}
  %0 = linalg.generic {indexing_maps = [#flip, #flip], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x3xf32>) outs(%b : tensor<4x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

#in = affine_map<(d0, d1) -> (d0 + d1)>
#k = affine_map<(d0, d1) -> (d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @generic_out_of_bounds(%a: tensor<5xf32>, %w: tensor<3xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.generic' op operand #0 is accessed out of bounds along dimension 0: indices [0, 5] in a dimension of size 5}}
  %0 = linalg.generic {indexing_maps = [#in, #k, #out], iterator_types = ["parallel", "reduction"]} ins(%a, %w : tensor<5xf32>, tensor<3xf32>) outs(%b : tensor<4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @empty_dynamic(%n: index) -> tensor<?x?xf32> {
  // expected-error @+1 {{'tensor.empty' op incorrect number of dynamic sizes, has 1, expected 2}}
  %0 = tensor.empty(%n) : tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @bad_slice(%a: tensor<4xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tensor.extract_slice' op slice along dimension 0 runs out of bounds: offset 2, size 3, stride 1 in a dimension of size 4}}
  %0 = tensor.extract_slice %a[2] [3] [1] : tensor<4xf32> to tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @concat_sizes(%a: tensor<2x3xf32>, %b: tensor<2x2xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'tensor.concat' op expects the sizes along dim 1 to add up to 6, found 5}}
  %0 = tensor.concat dim(1) %a, %b : (tensor<2x3xf32>, tensor<2x2xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @concat_other_dim(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{'tensor.concat' op expects operand #1 to have size 2 along dim 0, found 3}}
  %0 = tensor.concat dim(1) %a, %b : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @assert_condition(%a: i32) {
  // expected-error @+1 {{'cf.assert' op expects an i1 condition, found 'i32'}}
  "cf.assert"(%a) {msg = "x"} : (i32) -> ()
  return
}

// -----

func.func @scatter_depth(%u: tensor<4xf32>, %i: tensor<4x2xi64>, %o: tensor<4x10xf32>) -> tensor<4x10xf32> {
  // expected-error @+1 {{'tm_tensor.scatter' op expects indices of shape [N, K] and a dimension_map of K distinct dims}}
  %0 = tm_tensor.scatter {dimension_map = array<i64: 0>} unique_indices(true) ins(%u, %i : tensor<4xf32>, tensor<4x2xi64>) outs(%o : tensor<4x10xf32>) {
  ^bb0(%a: f32, %b: f32):
    tm_tensor.yield %a : f32
  } -> tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}
