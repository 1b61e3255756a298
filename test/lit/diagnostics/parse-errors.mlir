// Each chunk is malformed input; convopt reports a located error for it.
// RUN: %convopt %s --split-input-file --verify-diagnostics

func.func @undefined_value() -> !torch.vtensor<[2],f32> {
  // expected-error @+1 {{use of undeclared SSA value name '%x'}}
  %0 = torch.aten.relu %x : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// -----

func.func @redefinition(%arg0: !torch.vtensor<[2],f32>) {
  // expected-note @+1 {{previously defined here}}
  %0 = torch.aten.relu %arg0 : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  // expected-error @+1 {{redefinition of SSA value '%0'}}
  %0 = torch.aten.relu %arg0 : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  return
}

// -----

// expected-note @+1 {{prior use here}}
func.func @type_mismatch(%arg0: !torch.vtensor<[2],f32>) {
  // expected-error @+1 {{use of value '%arg0' expects different type than prior uses: '!torch.vtensor<[3],f32>' vs '!torch.vtensor<[2],f32>'}}
  %0 = torch.aten.relu %arg0 : !torch.vtensor<[3],f32> -> !torch.vtensor<[3],f32>
  return
}

// -----

func.func @use_before_def() -> f32 {
  // expected-error @+1 {{operand #0 does not dominate this use}}
  %0 = arith.addf %1, %1 : f32
  // expected-note @+1 {{operand defined here}}
  %1 = arith.constant 1.0 : f32
  return %0 : f32
}

// -----

func.func @wrong_result_count(%arg0: !torch.vtensor<[2],f32>) {
  // expected-error @+1 {{operation defines 1 results but was provided 2 to bind}}
  %0:2 = torch.aten.relu %arg0 : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  return
}

// -----

func.func @bad_token() {
  // expected-error @+1 {{unexpected character '$'}}
  $
}

// -----

func.func @unterminated_region() {
  %0 = arith.constant 1.0 : f32
// expected-error {{unexpected end of input: expected '}', block label or an operation}}

// -----

func.func @unbalanced(%arg0: !torch.vtensor<[2],f32> {
  return
}
// expected-error {{unexpected end of input: expected ')', ',' or 'loc'}}

// -----

func.func @bad_attribute() attributes {
  // expected-error @+1 {{unexpected ']': expected}}
  foo = [1, 2,]
} {
  return
}

// -----

func.func @int_for_float() {
  // expected-error @+1 {{unexpected decimal integer literal for a floating point value}}
  %0 = arith.constant 1 : f32
  return
}

// -----

func.func @out_of_range() {
  // expected-error @+1 {{integer constant out of range for attribute}}
  %0 = arith.constant 300 : i8
  return
}

// -----

func.func @missing_result_types(%arg0: !torch.vtensor<[2],f32>) {
  // expected-error @+1 {{expected '->' and the result types of 'torch.aten.relu'}}
  %0 = torch.aten.relu %arg0 : !torch.vtensor<[2],f32>
  return
}

// -----

func.func @truncated(%arg0: !torch.vtensor<[2],f32>) {
  // expected-error @+1 {{unexpected end of input}}
  %0 = torch.aten.relu %arg0 :
