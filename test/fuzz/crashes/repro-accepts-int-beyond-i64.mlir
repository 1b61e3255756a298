func.func @f() -> !torch.int {
  %0 = torch.constant.int 99999999999999999999
  return %0 : !torch.int
}
