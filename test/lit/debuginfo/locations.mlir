// Locations survive: with --mlir-print-debuginfo every op, function argument
// and block argument prints its loc(...), whether it was written inline, as a
// #loc alias (defined before or, as mlir-opt prints them, after its use),
// or is the position of the op in this file (the LINE:COL checked below).
// Without the flag no location is printed.
// RUN: %convopt %s --mlir-print-debuginfo | FileCheck %s
// RUN: %convopt %s --mlir-print-debuginfo | %mlir-verify
// RUN: %convopt %s --mlir-print-debuginfo | %convopt --mlir-print-debuginfo | FileCheck %s
// RUN: %convopt %s | FileCheck %s --check-prefix=PLAIN

// PLAIN-NOT: loc(
// PLAIN:     func.func @main(%arg0: !torch.vtensor<[2,4],f32>, %arg1: tensor<2xf32>)
// PLAIN-NOT: loc(

#loc1 = loc("model.py":12:4)
#loc4 = loc("model.py":30:2)
#map = affine_map<(d0) -> (d0)>
module {
  // CHECK-LABEL: func.func @main(
  // CHECK-SAME:      %arg0: !torch.vtensor<[2,4],f32> loc("model.py":3:0),
  // CHECK-SAME:      %arg1: tensor<2xf32> loc({{.*}}locations.mlir":22:70))
  func.func @main(%x: !torch.vtensor<[2,4],f32> loc("model.py":3:0), %t: tensor<2xf32>) -> (!torch.vtensor<[2,4],f32>, tensor<2xf32>) {
    // An op without a location is located at its name in this file.
    // CHECK:      %int1 = torch.constant.int 1 loc({{.*}}locations.mlir":25:12)
    %one = torch.constant.int 1
    // CHECK-NEXT: %[[R:.*]] = torch.aten.relu %arg0 : !torch.vtensor<[2,4],f32> -> !torch.vtensor<[2,4],f32> loc("model.py":12:4)
    %r = torch.aten.relu %x : !torch.vtensor<[2,4],f32> -> !torch.vtensor<[2,4],f32> loc(#loc1)
    // CHECK-NEXT: torch.aten.mul.Scalar %[[R]], %int1 : !torch.vtensor<[2,4],f32>, !torch.int -> !torch.vtensor<[2,4],f32> loc(callsite("relu"("model.py":12:4) at fused["model.py":20:8, "train.py":5:1]))
    %m = torch.aten.mul.Scalar %r, %one : !torch.vtensor<[2,4],f32>, !torch.int -> !torch.vtensor<[2,4],f32> loc(#loc3)
    // CHECK:      %[[E:.*]] = tensor.empty() : tensor<2xf32> loc(unknown)
    %e = tensor.empty() : tensor<2xf32> loc(unknown)
    // Block arguments of a region keep theirs.
    // CHECK:      ^bb0(%in: f32 loc("body.py":1:1), %out: f32 loc(fused<"meta">["a.py":1:2, "b.py":3:4])):
    // CHECK-NEXT:   linalg.yield %in : f32 loc("yield"("model.py":30:2))
    // CHECK-NEXT: } -> tensor<2xf32> loc({{.*}}locations.mlir":36:10)
    %g = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%t : tensor<2xf32>) outs(%e : tensor<2xf32>) {
    ^bb0(%in: f32 loc("body.py":1:1), %out: f32 loc(fused<"meta">["a.py":1:2, "b.py":3:4])):
      linalg.yield %in : f32 loc("yield"(#loc4))
    } -> tensor<2xf32>
    // CHECK:      return %{{.*}}, %{{.*}} : !torch.vtensor<[2,4],f32>, tensor<2xf32> loc("model.py":40:0 to 41:7)
    return %m, %g : !torch.vtensor<[2,4],f32>, tensor<2xf32> loc("model.py":40:0 to 41:7)
  // CHECK:      } loc("model.py":2:0)
  } loc("model.py":2:0)
// CHECK-NEXT: } loc("model.py":1:0)
} loc(#loc)
#loc = loc("model.py":1:0)
#loc2 = loc(fused["model.py":20:8, "train.py":5:1])
#loc3 = loc(callsite("relu"(#loc1) at #loc2))
