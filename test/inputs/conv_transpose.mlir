module {
  func.func @main(%arg0: !torch.vtensor<[2,8,8,8],f32>, %arg1: !torch.vtensor<[8,4,3,3],f32>, %arg2: !torch.vtensor<[4],f32>, %arg3: !torch.vtensor<[2,4,16,16],f32>) -> (!torch.vtensor<[2,8,8,8],f32>, !torch.vtensor<[8,4,3,3],f32>, !torch.vtensor<[4],f32>) {
    %int4 = torch.constant.int 4
    %0 = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
    %int2 = torch.constant.int 2
    %int2_0 = torch.constant.int 2
    %1 = torch.prim.ListConstruct %int2, %int2_0 : (!torch.int, !torch.int) -> !torch.list<int>
    %int1 = torch.constant.int 1
    %int1_1 = torch.constant.int 1
    %2 = torch.prim.ListConstruct %int1, %int1_1 : (!torch.int, !torch.int) -> !torch.list<int>
    %int1_2 = torch.constant.int 1
    %int1_3 = torch.constant.int 1
    %3 = torch.prim.ListConstruct %int1_2, %int1_3 : (!torch.int, !torch.int) -> !torch.list<int>
    %true = torch.constant.bool true
    %int1_4 = torch.constant.int 1
    %int1_5 = torch.constant.int 1
    %4 = torch.prim.ListConstruct %int1_4, %int1_5 : (!torch.int, !torch.int) -> !torch.list<int>
    %int1_6 = torch.constant.int 1
    %true_7 = torch.constant.bool true
    %true_8 = torch.constant.bool true
    %true_9 = torch.constant.bool true
    %5 = torch.prim.ListConstruct %true_7, %true_8, %true_9 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
    %result0, %result1, %result2 = torch.aten.convolution_backward %arg3, %arg0, %arg1, %0, %1, %2, %3, %true, %4, %int1_6, %5 : !torch.vtensor<[2,4,16,16],f32>, !torch.vtensor<[2,8,8,8],f32>, !torch.vtensor<[8,4,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,8,8,8],f32>, !torch.vtensor<[8,4,3,3],f32>, !torch.vtensor<[4],f32>
    return %result0, %result1, %result2 : !torch.vtensor<[2,8,8,8],f32>, !torch.vtensor<[8,4,3,3],f32>, !torch.vtensor<[4],f32>
  }
}
