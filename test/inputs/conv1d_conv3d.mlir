module {
  func.func @main(%arg0: !torch.vtensor<[2,4,16],f32>, %arg1: !torch.vtensor<[2,4,8,8,8],f32>, %arg2: !torch.vtensor<[8,4,3],f32>, %arg3: !torch.vtensor<[8,2,3,3,3],f32>, %arg4: !torch.vtensor<[2,8,6],f32>, %arg5: !torch.vtensor<[2,8,8,8,8],f32>) -> (!torch.vtensor<[2,4,16],f32>, !torch.vtensor<[2,4,8,8,8],f32>, !torch.vtensor<[8,4,3],f32>, !torch.vtensor<[8,2,3,3,3],f32>) {
    %int0 = torch.constant.int 0
    %0 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
    %int1 = torch.constant.int 1
    %int1_0 = torch.constant.int 1
    %int1_1 = torch.constant.int 1
    %1 = torch.prim.ListConstruct %int1, %int1_0, %int1_1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %int1_2 = torch.constant.int 1
    %int1_3 = torch.constant.int 1
    %int1_4 = torch.constant.int 1
    %2 = torch.prim.ListConstruct %int1_2, %int1_3, %int1_4 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %int1_5 = torch.constant.int 1
    %int1_6 = torch.constant.int 1
    %int1_7 = torch.constant.int 1
    %3 = torch.prim.ListConstruct %int1_5, %int1_6, %int1_7 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %false = torch.constant.bool false
    %int0_8 = torch.constant.int 0
    %int0_9 = torch.constant.int 0
    %int0_10 = torch.constant.int 0
    %4 = torch.prim.ListConstruct %int0_8, %int0_9, %int0_10 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %int2 = torch.constant.int 2
    %true = torch.constant.bool true
    %true_11 = torch.constant.bool true
    %false_12 = torch.constant.bool false
    %5 = torch.prim.ListConstruct %true, %true_11, %false_12 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
    %result0, %result1, %result2 = torch.aten.convolution_backward %arg5, %arg1, %arg3, %0, %1, %2, %3, %false, %4, %int2, %5 : !torch.vtensor<[2,8,8,8,8],f32>, !torch.vtensor<[2,4,8,8,8],f32>, !torch.vtensor<[8,2,3,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,4,8,8,8],f32>, !torch.vtensor<[8,2,3,3,3],f32>, !torch.none
    %int0_13 = torch.constant.int 0
    %6 = torch.prim.ListConstruct %int0_13 : (!torch.int) -> !torch.list<int>
    %int2_14 = torch.constant.int 2
    %7 = torch.prim.ListConstruct %int2_14 : (!torch.int) -> !torch.list<int>
    %int0_15 = torch.constant.int 0
    %8 = torch.prim.ListConstruct %int0_15 : (!torch.int) -> !torch.list<int>
    %int2_16 = torch.constant.int 2
    %9 = torch.prim.ListConstruct %int2_16 : (!torch.int) -> !torch.list<int>
    %false_17 = torch.constant.bool false
    %int0_18 = torch.constant.int 0
    %10 = torch.prim.ListConstruct %int0_18 : (!torch.int) -> !torch.list<int>
    %int1_19 = torch.constant.int 1
    %true_20 = torch.constant.bool true
    %true_21 = torch.constant.bool true
    %false_22 = torch.constant.bool false
    %11 = torch.prim.ListConstruct %true_20, %true_21, %false_22 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
    %result0_23, %result1_24, %result2_25 = torch.aten.convolution_backward %arg4, %arg0, %arg2, %6, %7, %8, %9, %false_17, %10, %int1_19, %11 : !torch.vtensor<[2,8,6],f32>, !torch.vtensor<[2,4,16],f32>, !torch.vtensor<[8,4,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,4,16],f32>, !torch.vtensor<[8,4,3],f32>, !torch.none
    return %result0_23, %result0, %result1_24, %result1 : !torch.vtensor<[2,4,16],f32>, !torch.vtensor<[2,4,8,8,8],f32>, !torch.vtensor<[8,4,3],f32>, !torch.vtensor<[8,2,3,3,3],f32>
  }
}
