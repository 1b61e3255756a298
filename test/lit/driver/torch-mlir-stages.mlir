// --torch-mlir-stages: torch-mlir's frontend stage, convopt, torch-mlir's
// linalg stage, in-process.  What torch-mlir reports, and what convopt
// reports between the stages, are convopt diagnostics located in the input,
// so --verify-diagnostics checks them.
// RUN: %convopt %s --lower-conv-bwd --torch-mlir-stages | FileCheck %s
// RUN: %convopt %s --lower-conv-bwd --torch-mlir-stages --verify-diagnostics -o /dev/null
// RUN: %convopt %S/Inputs/torch-mlir-errors.mlir --split-input-file --lower-conv-bwd --torch-mlir-stages --verify-diagnostics
// RUN: not %convopt %S/Inputs/torch-mlir-errors.mlir --split-input-file --lower-conv-bwd --torch-mlir-stages -o %t 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not ls %t

// ERR:      torch-mlir-errors.mlir:9:8: error: --torch-mlir-stages reads torch-mlir's raw FX import (torch and func ops only), but the input has 'torch_c.to_builtin_tensor' ops
// ERR:      torch-mlir-errors.mlir:9:8: error: found an op that was marked as backend illegal
// ERR:      torch-mlir-errors.mlir:20:10: error: use of undeclared SSA value name

// CHECK-LABEL: func.func @raw(
// CHECK-SAME:      %arg0: tensor<1x2x5x5xf32>
// CHECK-NOT:     torch
// CHECK:         linalg.generic
// CHECK-NOT:     torch
// CHECK:         return
func.func @raw(%arg0: !torch.vtensor<[1,2,5,5],f32>, %arg1: !torch.vtensor<[1,3,5,5],f32>, %arg2: !torch.vtensor<[2,3,3,3],f32>) -> (!torch.vtensor<[1,3,5,5],f32>, !torch.vtensor<[2,3,3,3],f32>) {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %true = torch.constant.bool true
  %ones = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %zeros = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %mask = torch.prim.ListConstruct %true, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  // expected-remark @+1 {{lowered directly: 2-D f32 groups=1 is legal for target linalg}}
  %0:3 = torch.aten.convolution_backward %arg0, %arg1, %arg2, %none, %ones, %ones, %ones, %false, %zeros, %int1, %mask : !torch.vtensor<[1,2,5,5],f32>, !torch.vtensor<[1,3,5,5],f32>, !torch.vtensor<[2,3,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,3,5,5],f32>, !torch.vtensor<[2,3,3,3],f32>, !torch.none
  return %0#0, %0#1 : !torch.vtensor<[1,3,5,5],f32>, !torch.vtensor<[2,3,3,3],f32>
}

