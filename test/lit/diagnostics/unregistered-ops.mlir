// linalg is a closed dialect: an op name convopt does not define is refused
// by the verifier (as MLIR does), in the structured and in the generic form;
// the maps of a named contraction, from its definition, must fit its operands.
// RUN: %convopt %s --split-input-file --verify-diagnostics
// RUN: not %convopt %s --split-input-file 2>&1 | FileCheck %s

// CHECK: error: unregistered operation 'linalg.matmull' found in dialect ('linalg') that does not allow unknown operations
func.func @misspelt(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %c: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{unregistered operation 'linalg.matmull' found in dialect ('linalg') that does not allow unknown operations}}
  %0 = linalg.matmull ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// CHECK: error: unregistered operation 'linalg.conv_2d_nchw_fchwx'
func.func @misspelt_generic_form(%a: tensor<1x1x4x4xf32>, %b: tensor<1x1x3x3xf32>, %c: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{unregistered operation 'linalg.conv_2d_nchw_fchwx' found in dialect ('linalg') that does not allow unknown operations}}
  %0 = "linalg.conv_2d_nchw_fchwx"(%a, %b, %c) <{operandSegmentSizes = array<i32: 2, 1>}> : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

// CHECK: error: 'linalg.matmul' op expects operand #1 to have rank 2, found 3
func.func @matmul_rank(%a: tensor<4x8xf32>, %b: tensor<8x5x1xf32>, %c: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'linalg.matmul' op expects operand #1 to have rank 2, found 3}}
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x5x1xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// CHECK: error: 'linalg.matmul' op inferred loop range for d2 is inconsistent: 8 vs 6
func.func @matmul_extents(%a: tensor<4x8xf32>, %b: tensor<6x5xf32>, %c: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'linalg.matmul' op inferred loop range for d2 is inconsistent: 8 vs 6}}
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<6x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// CHECK: error: 'linalg.conv_2d_nchw_fchw' op operand #0 is accessed out of bounds along dimension 2: indices [0, 4] in a dimension of size 4
func.func @conv_window(%x: tensor<1x1x4x4xf32>, %w: tensor<1x1x3x3xf32>, %y: tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32> {
  // expected-error @+1 {{'linalg.conv_2d_nchw_fchw' op operand #0 is accessed out of bounds along dimension 2: indices [0, 4] in a dimension of size 4}}
  %0 = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) outs(%y : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// -----

// CHECK: error: 'linalg.pooling_nchw_max' op operand #0 is accessed out of bounds along dimension 2: indices [0, 4] in a dimension of size 4
func.func @pool_window(%x: tensor<1x1x4x4xf32>, %k: tensor<3x3xf32>, %y: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{'linalg.pooling_nchw_max' op operand #0 is accessed out of bounds along dimension 2: indices [0, 4] in a dimension of size 4}}
  %0 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %k : tensor<1x1x4x4xf32>, tensor<3x3xf32>) outs(%y : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}
