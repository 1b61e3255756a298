// convopt-drop-symbolic-shapes erases torch.bind_symbolic_shape and then the
// torch.symbolic_int ops nothing else uses; --lower-conv-bwd runs it first.
// RUN: %convopt %s --split-input-file --pass-pipeline='builtin.module(func.func(convopt-drop-symbolic-shapes))' | FileCheck %s
// RUN: %convopt %s --split-input-file --pass-pipeline='builtin.module(func.func(convopt-drop-symbolic-shapes))' | %mlir-verify -split-input-file
// RUN: %convopt %s --split-input-file --lower-conv-bwd | FileCheck %s --check-prefix=LOWER
//
// A graph imported with symbolic shapes goes through torch-mlir's stages with
// convopt between them; without the pass torch-mlir's linalg stage fails.
// RUN: torch-mlir-opt --pass-pipeline='builtin.module(torch-function-to-torch-backend-pipeline{backend-legal-ops=aten.convolution_backward})' %inputs/dynamic_batch.mlir -o %t.backend
// RUN: %convopt --lower-conv-bwd %t.backend | torch-mlir-opt --pass-pipeline='builtin.module(torch-backend-to-linalg-on-tensors-backend-pipeline)' | FileCheck %s --check-prefix=STAGES
// RUN: %convopt --pass-pipeline='builtin.module(func.func(convopt-decompose-conv-bwd{target=linalg lower=true}, convopt-conv-bwd-to-linalg, convopt-cleanup), convopt-finalize-boundary)' %t.backend -o %t.kept
// RUN: not torch-mlir-opt --pass-pipeline='builtin.module(torch-backend-to-linalg-on-tensors-backend-pipeline)' %t.kept 2>&1 | FileCheck %s --check-prefix=KEPT

// CHECK-LABEL: func.func @annotations_only(
// CHECK-SAME:      %arg0: !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[?,4],f32> {
// CHECK-NEXT:    %0 = torch.aten.relu %arg0 : !torch.vtensor<[?,4],f32> -> !torch.vtensor<[?,4],f32>
// CHECK-NEXT:    return %0 : !torch.vtensor<[?,4],f32>
// CHECK-NEXT:  }

// LOWER-LABEL: func.func @annotations_only(
// LOWER-NOT:     torch.symbolic_int
// LOWER-NOT:     torch.bind_symbolic_shape
// LOWER:         return
func.func @annotations_only(%arg0: !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[?,4],f32> {
  %0 = torch.symbolic_int "s0" {min_val = 2, max_val = 9223372036854775807} : !torch.int
  torch.bind_symbolic_shape %arg0, [%0], affine_map<()[s0] -> (s0, 4)> : !torch.vtensor<[?,4],f32>
  %1 = torch.aten.relu %arg0 : !torch.vtensor<[?,4],f32> -> !torch.vtensor<[?,4],f32>
  torch.bind_symbolic_shape %1, [%0], affine_map<()[s0] -> (s0, 4)> : !torch.vtensor<[?,4],f32>
  return %1 : !torch.vtensor<[?,4],f32>
}

// -----

// A symbolic_int that something besides the annotations reads stays; the one
// only the annotations read goes.
// CHECK-LABEL: func.func @symbol_in_use(
// CHECK-NEXT:    %0 = torch.symbolic_int "s0" {min_val = 2, max_val = 8} : !torch.int
// CHECK-NEXT:    %1 = torch.prim.ListConstruct %0 : (!torch.int) -> !torch.list<int>
// CHECK-NEXT:    return %1 : !torch.list<int>
// CHECK-NEXT:  }
func.func @symbol_in_use(%arg0: !torch.vtensor<[?,?],f32>) -> !torch.list<int> {
  %0 = torch.symbolic_int "s0" {min_val = 2, max_val = 8} : !torch.int
  %1 = torch.symbolic_int "s1" {min_val = 2, max_val = 8} : !torch.int
  torch.bind_symbolic_shape %arg0, [%0, %1], affine_map<()[s0, s1] -> (s0, s1)> : !torch.vtensor<[?,?],f32>
  %2 = torch.prim.ListConstruct %0 : (!torch.int) -> !torch.list<int>
  return %2 : !torch.list<int>
}

// STAGES-LABEL: func.func @main(
// STAGES-SAME:      tensor<?x4x8x8xf32>
// STAGES-NOT:     torch
// STAGES:         linalg.generic
// STAGES-NOT:     torch

// KEPT: error: failed to legalize operation 'torch.symbolic_int'
