// A location alias that refers to itself is an error at the alias use, not
// an unlocated one (found by test/unit/test_fuzz.py).
// RUN: not %convopt %s 2>&1 | FileCheck %s

// CHECK: cyclic-location-alias.mlir:7:22: error: cyclic attribute alias
#loc2 = loc("a.py":1:0)
#loc1 = loc(callsite(#loc1 at #loc2))
func.func @f(%a: f32 loc(#loc1)) -> f32 {
  return %a : f32
}
