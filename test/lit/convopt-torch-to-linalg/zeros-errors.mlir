// convopt-torch-to-linalg lowers only the torch.aten.zeros form the
// decomposition emits; another gets a located error.
// RUN: %convopt --pass-pipeline='builtin.module(func.func(convopt-torch-to-linalg))' --verify-diagnostics %s -o /dev/null

// A dtype other than the result's (6 is f32) is not the decomposition's form.
func.func @zeros_other_dtype() -> !torch.vtensor<[2],f16> {
  %int2 = torch.constant.int 2
  %int6 = torch.constant.int 6
  %none = torch.constant.none
  %sizes = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  // expected-error @+1 {{unsupported: zeros with sizes that are neither constants nor tensor sizes, or a dtype other than the result's (f16, bf16, f32, f64)}}
  %z = torch.aten.zeros %sizes, %int6, %none, %none, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[2],f16>
  return %z : !torch.vtensor<[2],f16>
}
