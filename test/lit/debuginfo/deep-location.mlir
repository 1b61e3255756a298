// A location nested 70 deep is not an alias chain: it parses, and prints
// with --mlir-print-debuginfo, with or without an alias at its bottom
// (it used to be an unlocated "cyclic attribute alias": the nesting was
// counted as alias hops; found by test/fuzz/resources.py).
// RUN: %convopt %s | FileCheck %s --check-prefix=PLAIN
// RUN: %convopt %s --mlir-print-debuginfo | FileCheck %s
// RUN: %convopt %s --mlir-print-debuginfo | %mlir-verify

// PLAIN: func.func @f()
// PLAIN-NEXT: return{{$}}
// PLAIN: func.func @g()
// PLAIN-NEXT: return{{$}}

// CHECK: return loc(callsite(callsite(
// CHECK-SAME: "a.py":1:2 at "b.py":3:4) at "b.py":3:4)
// CHECK: return loc(callsite(callsite(
// CHECK-SAME: "c.py":5:6 at "b.py":3:4) at "b.py":3:4)
#inner = loc("c.py":5:6)
func.func @f() {
  return loc(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite("a.py":1:2 at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4))
}
func.func @g() {
  return loc(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(callsite(#inner at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4) at "b.py":3:4))
}
