module {
  func.func @main(%arg0: !torch.vtensor<[?,4,8,8],f32>, %arg1: !torch.vtensor<[8,4,3,3],f32>, %arg2: !torch.vtensor<[8],f32>, %arg3: !torch.vtensor<[?,8,8,8],f32>) -> (!torch.vtensor<[?,4,8,8],f32>, !torch.vtensor<[8,4,3,3],f32>, !torch.vtensor<[8],f32>) {
    %0 = torch.symbolic_int "s33" {min_val = 1, max_val = 1024} : !torch.int
    torch.bind_symbolic_shape %arg0, [%0], affine_map<()[s0] -> (s0, 4, 8, 8)> : !torch.vtensor<[?,4,8,8],f32>
    torch.bind_symbolic_shape %arg3, [%0], affine_map<()[s0] -> (s0, 8, 8, 8)> : !torch.vtensor<[?,8,8,8],f32>
    %int8 = torch.constant.int 8
    %1 = torch.prim.ListConstruct %int8 : (!torch.int) -> !torch.list<int>
    %int1 = torch.constant.int 1
    %int1_0 = torch.constant.int 1
    %2 = torch.prim.ListConstruct %int1, %int1_0 : (!torch.int, !torch.int) -> !torch.list<int>
    %int1_1 = torch.constant.int 1
    %int1_2 = torch.constant.int 1
    %3 = torch.prim.ListConstruct %int1_1, %int1_2 : (!torch.int, !torch.int) -> !torch.list<int>
    %int1_3 = torch.constant.int 1
    %int1_4 = torch.constant.int 1
    %4 = torch.prim.ListConstruct %int1_3, %int1_4 : (!torch.int, !torch.int) -> !torch.list<int>
    %false = torch.constant.bool false
    %int0 = torch.constant.int 0
    %int0_5 = torch.constant.int 0
    %5 = torch.prim.ListConstruct %int0, %int0_5 : (!torch.int, !torch.int) -> !torch.list<int>
    %int1_6 = torch.constant.int 1
    %true = torch.constant.bool true
    %true_7 = torch.constant.bool true
    %true_8 = torch.constant.bool true
    %6 = torch.prim.ListConstruct %true, %true_7, %true_8 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
    %result0, %result1, %result2 = torch.aten.convolution_backward %arg3, %arg0, %arg1, %1, %2, %3, %4, %false, %5, %int1_6, %6 : !torch.vtensor<[?,8,8,8],f32>, !torch.vtensor<[?,4,8,8],f32>, !torch.vtensor<[8,4,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[?,4,8,8],f32>, !torch.vtensor<[8,4,3,3],f32>, !torch.vtensor<[8],f32>
    torch.bind_symbolic_shape %result0, [%0], affine_map<()[s0] -> (s0, 4, 8, 8)> : !torch.vtensor<[?,4,8,8],f32>
    return %result0, %result1, %result2 : !torch.vtensor<[?,4,8,8],f32>, !torch.vtensor<[8,4,3,3],f32>, !torch.vtensor<[8],f32>
  }
}
