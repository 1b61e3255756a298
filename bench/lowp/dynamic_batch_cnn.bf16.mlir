module {
  func.func @main(%arg0: !torch.vtensor<[?,3,16,16],bf16>, %arg1: !torch.vtensor<[16,3,3,3],bf16>, %arg2: !torch.vtensor<[16],bf16>, %arg3: !torch.vtensor<[16],bf16>, %arg4: !torch.vtensor<[16,16,3,3],bf16>, %arg5: !torch.vtensor<[16],bf16>, %arg6: !torch.vtensor<[16],bf16>, %arg7: !torch.vtensor<[32,16,3,3],bf16>, %arg8: !torch.vtensor<[32],bf16>, %arg9: !torch.vtensor<[32],bf16>, %arg10: !torch.vtensor<[10,32],bf16>, %arg11: !torch.vtensor<[10],bf16>, %arg12: !torch.vtensor<[16],bf16>, %arg13: !torch.vtensor<[16],bf16>, %arg14: !torch.vtensor<[],si64>, %arg15: !torch.vtensor<[16],bf16>, %arg16: !torch.vtensor<[16],bf16>, %arg17: !torch.vtensor<[],si64>, %arg18: !torch.vtensor<[32],bf16>, %arg19: !torch.vtensor<[32],bf16>, %arg20: !torch.vtensor<[],si64>, %arg21: !torch.vtensor<[?,10],bf16>) -> (!torch.vtensor<[16,3,3,3],bf16>, !torch.vtensor<[16],bf16>, !torch.vtensor<[16],bf16>, !torch.vtensor<[16,16,3,3],bf16>, !torch.vtensor<[16],bf16>, !torch.vtensor<[16],bf16>, !torch.vtensor<[32,16,3,3],bf16>, !torch.vtensor<[32],bf16>, !torch.vtensor<[32],bf16>, !torch.vtensor<[10,32],bf16>, !torch.vtensor<[10],bf16>, !torch.vtensor<[16],bf16>, !torch.vtensor<[16],bf16>, !torch.vtensor<[],si64>, !torch.vtensor<[16],bf16>, !torch.vtensor<[16],bf16>, !torch.vtensor<[],si64>, !torch.vtensor<[32],bf16>, !torch.vtensor<[32],bf16>, !torch.vtensor<[],si64>) {
    %0 = torch.symbolic_int "s33" {min_val = 1, max_val = 1024} : !torch.int
    torch.bind_symbolic_shape %arg0, [%0], affine_map<()[s0] -> (s0, 3, 16, 16)> : !torch.vtensor<[?,3,16,16],bf16>
    torch.bind_symbolic_shape %arg21, [%0], affine_map<()[s0] -> (s0, 10)> : !torch.vtensor<[?,10],bf16>
    %int0 = torch.constant.int 0
    %1 = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,3,16,16],bf16>, !torch.int -> !torch.int
    %none = torch.constant.none
    %2 = torch.aten.clone %arg12, %none : !torch.vtensor<[16],bf16>, !torch.none -> !torch.vtensor<[16],bf16>
    %none_0 = torch.constant.none
    %3 = torch.aten.clone %arg13, %none_0 : !torch.vtensor<[16],bf16>, !torch.none -> !torch.vtensor<[16],bf16>
    %none_1 = torch.constant.none
    %4 = torch.aten.clone %arg14, %none_1 : !torch.vtensor<[],si64>, !torch.none -> !torch.vtensor<[],si64>
    %none_2 = torch.constant.none
    %5 = torch.aten.clone %arg15, %none_2 : !torch.vtensor<[16],bf16>, !torch.none -> !torch.vtensor<[16],bf16>
    %none_3 = torch.constant.none
    %6 = torch.aten.clone %arg16, %none_3 : !torch.vtensor<[16],bf16>, !torch.none -> !torch.vtensor<[16],bf16>
    %none_4 = torch.constant.none
    %7 = torch.aten.clone %arg17, %none_4 : !torch.vtensor<[],si64>, !torch.none -> !torch.vtensor<[],si64>
    %none_5 = torch.constant.none
    %8 = torch.aten.clone %arg18, %none_5 : !torch.vtensor<[32],bf16>, !torch.none -> !torch.vtensor<[32],bf16>
    %none_6 = torch.constant.none
    %9 = torch.aten.clone %arg19, %none_6 : !torch.vtensor<[32],bf16>, !torch.none -> !torch.vtensor<[32],bf16>
    %none_7 = torch.constant.none
    %10 = torch.aten.clone %arg20, %none_7 : !torch.vtensor<[],si64>, !torch.none -> !torch.vtensor<[],si64>
    %none_8 = torch.constant.none
    %int1 = torch.constant.int 1
    %int1_9 = torch.constant.int 1
    %11 = torch.prim.ListConstruct %int1, %int1_9 : (!torch.int, !torch.int) -> !torch.list<int>
    %int1_10 = torch.constant.int 1
    %int1_11 = torch.constant.int 1
    %12 = torch.prim.ListConstruct %int1_10, %int1_11 : (!torch.int, !torch.int) -> !torch.list<int>
    %int1_12 = torch.constant.int 1
    %int1_13 = torch.constant.int 1
    %13 = torch.prim.ListConstruct %int1_12, %int1_13 : (!torch.int, !torch.int) -> !torch.list<int>
    %false = torch.constant.bool false
    %int0_14 = torch.constant.int 0
    %int0_15 = torch.constant.int 0
    %14 = torch.prim.ListConstruct %int0_14, %int0_15 : (!torch.int, !torch.int) -> !torch.list<int>
    %int1_16 = torch.constant.int 1
    %15 = torch.aten.convolution %arg0, %arg1, %none_8, %11, %12, %13, %false, %14, %int1_16 : !torch.vtensor<[?,3,16,16],bf16>, !torch.vtensor<[16,3,3,3],bf16>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[?,16,16,16],bf16>
    torch.bind_symbolic_shape %15, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],bf16>
    %int1_17 = torch.constant.int 1
    %int1_18 = torch.constant.int 1
    %16 = torch.aten.add.Scalar %4, %int1_17, %int1_18 : !torch.vtensor<[],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
    %int6 = torch.constant.int 6
    %17 = torch.prims.convert_element_type %15, %int6 : !torch.vtensor<[?,16,16,16],bf16>, !torch.int -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %17, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %int0_19 = torch.constant.int 0
    %int2 = torch.constant.int 2
    %int3 = torch.constant.int 3
    %18 = torch.prim.ListConstruct %int0_19, %int2, %int3 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %int0_20 = torch.constant.int 0
    %true = torch.constant.bool true
    %result0, %result1 = torch.aten.var_mean.correction %17, %18, %int0_20, %true : !torch.vtensor<[?,16,16,16],f32>, !torch.list<int>, !torch.int, !torch.bool -> !torch.vtensor<[1,16,1,1],f32>, !torch.vtensor<[1,16,1,1],f32>
    %float1.000000e-05 = torch.constant.float 1.000000e-05
    %int1_21 = torch.constant.int 1
    %19 = torch.aten.add.Scalar %result0, %float1.000000e-05, %int1_21 : !torch.vtensor<[1,16,1,1],f32>, !torch.float, !torch.int -> !torch.vtensor<[1,16,1,1],f32>
    %20 = torch.aten.rsqrt %19 : !torch.vtensor<[1,16,1,1],f32> -> !torch.vtensor<[1,16,1,1],f32>
    %int1_22 = torch.constant.int 1
    %21 = torch.aten.sub.Tensor %15, %result1, %int1_22 : !torch.vtensor<[?,16,16,16],bf16>, !torch.vtensor<[1,16,1,1],f32>, !torch.int -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %21, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %22 = torch.aten.mul.Tensor %21, %20 : !torch.vtensor<[?,16,16,16],f32>, !torch.vtensor<[1,16,1,1],f32> -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %22, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %int3_23 = torch.constant.int 3
    %23 = torch.prim.ListConstruct %int3_23 : (!torch.int) -> !torch.list<int>
    %24 = torch.prims.squeeze %result1, %23 : !torch.vtensor<[1,16,1,1],f32>, !torch.list<int> -> !torch.vtensor<[1,16,1],f32>
    %int2_24 = torch.constant.int 2
    %25 = torch.prim.ListConstruct %int2_24 : (!torch.int) -> !torch.list<int>
    %26 = torch.prims.squeeze %24, %25 : !torch.vtensor<[1,16,1],f32>, !torch.list<int> -> !torch.vtensor<[1,16],f32>
    %int0_25 = torch.constant.int 0
    %27 = torch.prim.ListConstruct %int0_25 : (!torch.int) -> !torch.list<int>
    %28 = torch.prims.squeeze %26, %27 : !torch.vtensor<[1,16],f32>, !torch.list<int> -> !torch.vtensor<[16],f32>
    %int3_26 = torch.constant.int 3
    %29 = torch.prim.ListConstruct %int3_26 : (!torch.int) -> !torch.list<int>
    %30 = torch.prims.squeeze %20, %29 : !torch.vtensor<[1,16,1,1],f32>, !torch.list<int> -> !torch.vtensor<[1,16,1],f32>
    %int2_27 = torch.constant.int 2
    %31 = torch.prim.ListConstruct %int2_27 : (!torch.int) -> !torch.list<int>
    %32 = torch.prims.squeeze %30, %31 : !torch.vtensor<[1,16,1],f32>, !torch.list<int> -> !torch.vtensor<[1,16],f32>
    %int0_28 = torch.constant.int 0
    %33 = torch.prim.ListConstruct %int0_28 : (!torch.int) -> !torch.list<int>
    %34 = torch.prims.squeeze %32, %33 : !torch.vtensor<[1,16],f32>, !torch.list<int> -> !torch.vtensor<[16],f32>
    %float1.000000e-01 = torch.constant.float 1.000000e-01
    %35 = torch.aten.mul.Scalar %28, %float1.000000e-01 : !torch.vtensor<[16],f32>, !torch.float -> !torch.vtensor<[16],f32>
    %float9.000000e-01 = torch.constant.float 9.000000e-01
    %36 = torch.aten.mul.Scalar %2, %float9.000000e-01 : !torch.vtensor<[16],bf16>, !torch.float -> !torch.vtensor<[16],bf16>
    %int1_29 = torch.constant.int 1
    %37 = torch.aten.add.Tensor %35, %36, %int1_29 : !torch.vtensor<[16],f32>, !torch.vtensor<[16],bf16>, !torch.int -> !torch.vtensor<[16],f32>
    %int4096 = torch.constant.int 4096
    %38 = torch.aten.mul.int %int4096, %1 : !torch.int, !torch.int -> !torch.int
    %int16 = torch.constant.int 16
    %39 = torch.aten.div.int %38, %int16 : !torch.int, !torch.int -> !torch.float
    %int3_30 = torch.constant.int 3
    %40 = torch.prim.ListConstruct %int3_30 : (!torch.int) -> !torch.list<int>
    %41 = torch.prims.squeeze %result0, %40 : !torch.vtensor<[1,16,1,1],f32>, !torch.list<int> -> !torch.vtensor<[1,16,1],f32>
    %int2_31 = torch.constant.int 2
    %42 = torch.prim.ListConstruct %int2_31 : (!torch.int) -> !torch.list<int>
    %43 = torch.prims.squeeze %41, %42 : !torch.vtensor<[1,16,1],f32>, !torch.list<int> -> !torch.vtensor<[1,16],f32>
    %int0_32 = torch.constant.int 0
    %44 = torch.prim.ListConstruct %int0_32 : (!torch.int) -> !torch.list<int>
    %45 = torch.prims.squeeze %43, %44 : !torch.vtensor<[1,16],f32>, !torch.list<int> -> !torch.vtensor<[16],f32>
    %float1.000000e00 = torch.constant.float 1.000000e+00
    %46 = torch.aten.sub.float %39, %float1.000000e00 : !torch.float, !torch.float -> !torch.float
    %47 = torch.aten.div.float %39, %46 : !torch.float, !torch.float -> !torch.float
    %48 = torch.aten.mul.Scalar %45, %47 : !torch.vtensor<[16],f32>, !torch.float -> !torch.vtensor<[16],f32>
    %float1.000000e-01_33 = torch.constant.float 1.000000e-01
    %49 = torch.aten.mul.Scalar %48, %float1.000000e-01_33 : !torch.vtensor<[16],f32>, !torch.float -> !torch.vtensor<[16],f32>
    %float9.000000e-01_34 = torch.constant.float 9.000000e-01
    %50 = torch.aten.mul.Scalar %3, %float9.000000e-01_34 : !torch.vtensor<[16],bf16>, !torch.float -> !torch.vtensor<[16],bf16>
    %int1_35 = torch.constant.int 1
    %51 = torch.aten.add.Tensor %49, %50, %int1_35 : !torch.vtensor<[16],f32>, !torch.vtensor<[16],bf16>, !torch.int -> !torch.vtensor<[16],f32>
    %int-1 = torch.constant.int -1
    %52 = torch.aten.unsqueeze %arg2, %int-1 : !torch.vtensor<[16],bf16>, !torch.int -> !torch.vtensor<[16,1],bf16>
    %int-1_36 = torch.constant.int -1
    %53 = torch.aten.unsqueeze %52, %int-1_36 : !torch.vtensor<[16,1],bf16>, !torch.int -> !torch.vtensor<[16,1,1],bf16>
    %54 = torch.aten.mul.Tensor %22, %53 : !torch.vtensor<[?,16,16,16],f32>, !torch.vtensor<[16,1,1],bf16> -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %54, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %int-1_37 = torch.constant.int -1
    %55 = torch.aten.unsqueeze %arg3, %int-1_37 : !torch.vtensor<[16],bf16>, !torch.int -> !torch.vtensor<[16,1],bf16>
    %int-1_38 = torch.constant.int -1
    %56 = torch.aten.unsqueeze %55, %int-1_38 : !torch.vtensor<[16,1],bf16>, !torch.int -> !torch.vtensor<[16,1,1],bf16>
    %int1_39 = torch.constant.int 1
    %57 = torch.aten.add.Tensor %54, %56, %int1_39 : !torch.vtensor<[?,16,16,16],f32>, !torch.vtensor<[16,1,1],bf16>, !torch.int -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %57, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %int15 = torch.constant.int 15
    %58 = torch.prims.convert_element_type %28, %int15 : !torch.vtensor<[16],f32>, !torch.int -> !torch.vtensor<[16],bf16>
    %int15_40 = torch.constant.int 15
    %59 = torch.prims.convert_element_type %34, %int15_40 : !torch.vtensor<[16],f32>, !torch.int -> !torch.vtensor<[16],bf16>
    %int15_41 = torch.constant.int 15
    %60 = torch.prims.convert_element_type %57, %int15_41 : !torch.vtensor<[?,16,16,16],f32>, !torch.int -> !torch.vtensor<[?,16,16,16],bf16>
    torch.bind_symbolic_shape %60, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],bf16>
    %int15_42 = torch.constant.int 15
    %61 = torch.prims.convert_element_type %37, %int15_42 : !torch.vtensor<[16],f32>, !torch.int -> !torch.vtensor<[16],bf16>
    %int15_43 = torch.constant.int 15
    %62 = torch.prims.convert_element_type %51, %int15_43 : !torch.vtensor<[16],f32>, !torch.int -> !torch.vtensor<[16],bf16>
    %63 = torch.aten.relu %60 : !torch.vtensor<[?,16,16,16],bf16> -> !torch.vtensor<[?,16,16,16],bf16>
    torch.bind_symbolic_shape %63, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],bf16>
    %none_44 = torch.constant.none
    %int1_45 = torch.constant.int 1
    %int1_46 = torch.constant.int 1
    %64 = torch.prim.ListConstruct %int1_45, %int1_46 : (!torch.int, !torch.int) -> !torch.list<int>
    %int2_47 = torch.constant.int 2
    %int2_48 = torch.constant.int 2
    %65 = torch.prim.ListConstruct %int2_47, %int2_48 : (!torch.int, !torch.int) -> !torch.list<int>
    %int2_49 = torch.constant.int 2
    %int2_50 = torch.constant.int 2
    %66 = torch.prim.ListConstruct %int2_49, %int2_50 : (!torch.int, !torch.int) -> !torch.list<int>
    %false_51 = torch.constant.bool false
    %int0_52 = torch.constant.int 0
    %int0_53 = torch.constant.int 0
    %67 = torch.prim.ListConstruct %int0_52, %int0_53 : (!torch.int, !torch.int) -> !torch.list<int>
    %int1_54 = torch.constant.int 1
    %68 = torch.aten.convolution %63, %arg4, %none_44, %64, %65, %66, %false_51, %67, %int1_54 : !torch.vtensor<[?,16,16,16],bf16>, !torch.vtensor<[16,16,3,3],bf16>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[?,16,16,16],bf16>
    torch.bind_symbolic_shape %68, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],bf16>
    %int1_55 = torch.constant.int 1
    %int1_56 = torch.constant.int 1
    %69 = torch.aten.add.Scalar %7, %int1_55, %int1_56 : !torch.vtensor<[],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
    %int6_57 = torch.constant.int 6
    %70 = torch.prims.convert_element_type %68, %int6_57 : !torch.vtensor<[?,16,16,16],bf16>, !torch.int -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %70, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %int0_58 = torch.constant.int 0
    %int2_59 = torch.constant.int 2
    %int3_60 = torch.constant.int 3
    %71 = torch.prim.ListConstruct %int0_58, %int2_59, %int3_60 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %int0_61 = torch.constant.int 0
    %true_62 = torch.constant.bool true
    %result0_63, %result1_64 = torch.aten.var_mean.correction %70, %71, %int0_61, %true_62 : !torch.vtensor<[?,16,16,16],f32>, !torch.list<int>, !torch.int, !torch.bool -> !torch.vtensor<[1,16,1,1],f32>, !torch.vtensor<[1,16,1,1],f32>
    %float1.000000e-05_65 = torch.constant.float 1.000000e-05
    %int1_66 = torch.constant.int 1
    %72 = torch.aten.add.Scalar %result0_63, %float1.000000e-05_65, %int1_66 : !torch.vtensor<[1,16,1,1],f32>, !torch.float, !torch.int -> !torch.vtensor<[1,16,1,1],f32>
    %73 = torch.aten.rsqrt %72 : !torch.vtensor<[1,16,1,1],f32> -> !torch.vtensor<[1,16,1,1],f32>
    %int1_67 = torch.constant.int 1
    %74 = torch.aten.sub.Tensor %68, %result1_64, %int1_67 : !torch.vtensor<[?,16,16,16],bf16>, !torch.vtensor<[1,16,1,1],f32>, !torch.int -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %74, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %75 = torch.aten.mul.Tensor %74, %73 : !torch.vtensor<[?,16,16,16],f32>, !torch.vtensor<[1,16,1,1],f32> -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %75, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %int3_68 = torch.constant.int 3
    %76 = torch.prim.ListConstruct %int3_68 : (!torch.int) -> !torch.list<int>
    %77 = torch.prims.squeeze %result1_64, %76 : !torch.vtensor<[1,16,1,1],f32>, !torch.list<int> -> !torch.vtensor<[1,16,1],f32>
    %int2_69 = torch.constant.int 2
    %78 = torch.prim.ListConstruct %int2_69 : (!torch.int) -> !torch.list<int>
    %79 = torch.prims.squeeze %77, %78 : !torch.vtensor<[1,16,1],f32>, !torch.list<int> -> !torch.vtensor<[1,16],f32>
    %int0_70 = torch.constant.int 0
    %80 = torch.prim.ListConstruct %int0_70 : (!torch.int) -> !torch.list<int>
    %81 = torch.prims.squeeze %79, %80 : !torch.vtensor<[1,16],f32>, !torch.list<int> -> !torch.vtensor<[16],f32>
    %int3_71 = torch.constant.int 3
    %82 = torch.prim.ListConstruct %int3_71 : (!torch.int) -> !torch.list<int>
    %83 = torch.prims.squeeze %73, %82 : !torch.vtensor<[1,16,1,1],f32>, !torch.list<int> -> !torch.vtensor<[1,16,1],f32>
    %int2_72 = torch.constant.int 2
    %84 = torch.prim.ListConstruct %int2_72 : (!torch.int) -> !torch.list<int>
    %85 = torch.prims.squeeze %83, %84 : !torch.vtensor<[1,16,1],f32>, !torch.list<int> -> !torch.vtensor<[1,16],f32>
    %int0_73 = torch.constant.int 0
    %86 = torch.prim.ListConstruct %int0_73 : (!torch.int) -> !torch.list<int>
    %87 = torch.prims.squeeze %85, %86 : !torch.vtensor<[1,16],f32>, !torch.list<int> -> !torch.vtensor<[16],f32>
    %float1.000000e-01_74 = torch.constant.float 1.000000e-01
    %88 = torch.aten.mul.Scalar %81, %float1.000000e-01_74 : !torch.vtensor<[16],f32>, !torch.float -> !torch.vtensor<[16],f32>
    %float9.000000e-01_75 = torch.constant.float 9.000000e-01
    %89 = torch.aten.mul.Scalar %5, %float9.000000e-01_75 : !torch.vtensor<[16],bf16>, !torch.float -> !torch.vtensor<[16],bf16>
    %int1_76 = torch.constant.int 1
    %90 = torch.aten.add.Tensor %88, %89, %int1_76 : !torch.vtensor<[16],f32>, !torch.vtensor<[16],bf16>, !torch.int -> !torch.vtensor<[16],f32>
    %int3_77 = torch.constant.int 3
    %91 = torch.prim.ListConstruct %int3_77 : (!torch.int) -> !torch.list<int>
    %92 = torch.prims.squeeze %result0_63, %91 : !torch.vtensor<[1,16,1,1],f32>, !torch.list<int> -> !torch.vtensor<[1,16,1],f32>
    %int2_78 = torch.constant.int 2
    %93 = torch.prim.ListConstruct %int2_78 : (!torch.int) -> !torch.list<int>
    %94 = torch.prims.squeeze %92, %93 : !torch.vtensor<[1,16,1],f32>, !torch.list<int> -> !torch.vtensor<[1,16],f32>
    %int0_79 = torch.constant.int 0
    %95 = torch.prim.ListConstruct %int0_79 : (!torch.int) -> !torch.list<int>
    %96 = torch.prims.squeeze %94, %95 : !torch.vtensor<[1,16],f32>, !torch.list<int> -> !torch.vtensor<[16],f32>
    %97 = torch.aten.mul.Scalar %96, %47 : !torch.vtensor<[16],f32>, !torch.float -> !torch.vtensor<[16],f32>
    %float1.000000e-01_80 = torch.constant.float 1.000000e-01
    %98 = torch.aten.mul.Scalar %97, %float1.000000e-01_80 : !torch.vtensor<[16],f32>, !torch.float -> !torch.vtensor<[16],f32>
    %float9.000000e-01_81 = torch.constant.float 9.000000e-01
    %99 = torch.aten.mul.Scalar %6, %float9.000000e-01_81 : !torch.vtensor<[16],bf16>, !torch.float -> !torch.vtensor<[16],bf16>
    %int1_82 = torch.constant.int 1
    %100 = torch.aten.add.Tensor %98, %99, %int1_82 : !torch.vtensor<[16],f32>, !torch.vtensor<[16],bf16>, !torch.int -> !torch.vtensor<[16],f32>
    %int-1_83 = torch.constant.int -1
    %101 = torch.aten.unsqueeze %arg5, %int-1_83 : !torch.vtensor<[16],bf16>, !torch.int -> !torch.vtensor<[16,1],bf16>
    %int-1_84 = torch.constant.int -1
    %102 = torch.aten.unsqueeze %101, %int-1_84 : !torch.vtensor<[16,1],bf16>, !torch.int -> !torch.vtensor<[16,1,1],bf16>
    %103 = torch.aten.mul.Tensor %75, %102 : !torch.vtensor<[?,16,16,16],f32>, !torch.vtensor<[16,1,1],bf16> -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %103, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %int-1_85 = torch.constant.int -1
    %104 = torch.aten.unsqueeze %arg6, %int-1_85 : !torch.vtensor<[16],bf16>, !torch.int -> !torch.vtensor<[16,1],bf16>
    %int-1_86 = torch.constant.int -1
    %105 = torch.aten.unsqueeze %104, %int-1_86 : !torch.vtensor<[16,1],bf16>, !torch.int -> !torch.vtensor<[16,1,1],bf16>
    %int1_87 = torch.constant.int 1
    %106 = torch.aten.add.Tensor %103, %105, %int1_87 : !torch.vtensor<[?,16,16,16],f32>, !torch.vtensor<[16,1,1],bf16>, !torch.int -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %106, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %int15_88 = torch.constant.int 15
    %107 = torch.prims.convert_element_type %81, %int15_88 : !torch.vtensor<[16],f32>, !torch.int -> !torch.vtensor<[16],bf16>
    %int15_89 = torch.constant.int 15
    %108 = torch.prims.convert_element_type %87, %int15_89 : !torch.vtensor<[16],f32>, !torch.int -> !torch.vtensor<[16],bf16>
    %int15_90 = torch.constant.int 15
    %109 = torch.prims.convert_element_type %106, %int15_90 : !torch.vtensor<[?,16,16,16],f32>, !torch.int -> !torch.vtensor<[?,16,16,16],bf16>
    torch.bind_symbolic_shape %109, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],bf16>
    %int15_91 = torch.constant.int 15
    %110 = torch.prims.convert_element_type %90, %int15_91 : !torch.vtensor<[16],f32>, !torch.int -> !torch.vtensor<[16],bf16>
    %int15_92 = torch.constant.int 15
    %111 = torch.prims.convert_element_type %100, %int15_92 : !torch.vtensor<[16],f32>, !torch.int -> !torch.vtensor<[16],bf16>
    %112 = torch.aten.relu %109 : !torch.vtensor<[?,16,16,16],bf16> -> !torch.vtensor<[?,16,16,16],bf16>
    torch.bind_symbolic_shape %112, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],bf16>
    %none_93 = torch.constant.none
    %int2_94 = torch.constant.int 2
    %int2_95 = torch.constant.int 2
    %113 = torch.prim.ListConstruct %int2_94, %int2_95 : (!torch.int, !torch.int) -> !torch.list<int>
    %int1_96 = torch.constant.int 1
    %int1_97 = torch.constant.int 1
    %114 = torch.prim.ListConstruct %int1_96, %int1_97 : (!torch.int, !torch.int) -> !torch.list<int>
    %int1_98 = torch.constant.int 1
    %int1_99 = torch.constant.int 1
    %115 = torch.prim.ListConstruct %int1_98, %int1_99 : (!torch.int, !torch.int) -> !torch.list<int>
    %false_100 = torch.constant.bool false
    %int0_101 = torch.constant.int 0
    %int0_102 = torch.constant.int 0
    %116 = torch.prim.ListConstruct %int0_101, %int0_102 : (!torch.int, !torch.int) -> !torch.list<int>
    %int1_103 = torch.constant.int 1
    %117 = torch.aten.convolution %112, %arg7, %none_93, %113, %114, %115, %false_100, %116, %int1_103 : !torch.vtensor<[?,16,16,16],bf16>, !torch.vtensor<[32,16,3,3],bf16>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[?,32,8,8],bf16>
    torch.bind_symbolic_shape %117, [%0], affine_map<()[s0] -> (s0, 32, 8, 8)> : !torch.vtensor<[?,32,8,8],bf16>
    %int1_104 = torch.constant.int 1
    %int1_105 = torch.constant.int 1
    %118 = torch.aten.add.Scalar %10, %int1_104, %int1_105 : !torch.vtensor<[],si64>, !torch.int, !torch.int -> !torch.vtensor<[],si64>
    %int6_106 = torch.constant.int 6
    %119 = torch.prims.convert_element_type %117, %int6_106 : !torch.vtensor<[?,32,8,8],bf16>, !torch.int -> !torch.vtensor<[?,32,8,8],f32>
    torch.bind_symbolic_shape %119, [%0], affine_map<()[s0] -> (s0, 32, 8, 8)> : !torch.vtensor<[?,32,8,8],f32>
    %int0_107 = torch.constant.int 0
    %int2_108 = torch.constant.int 2
    %int3_109 = torch.constant.int 3
    %120 = torch.prim.ListConstruct %int0_107, %int2_108, %int3_109 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %int0_110 = torch.constant.int 0
    %true_111 = torch.constant.bool true
    %result0_112, %result1_113 = torch.aten.var_mean.correction %119, %120, %int0_110, %true_111 : !torch.vtensor<[?,32,8,8],f32>, !torch.list<int>, !torch.int, !torch.bool -> !torch.vtensor<[1,32,1,1],f32>, !torch.vtensor<[1,32,1,1],f32>
    %float1.000000e-05_114 = torch.constant.float 1.000000e-05
    %int1_115 = torch.constant.int 1
    %121 = torch.aten.add.Scalar %result0_112, %float1.000000e-05_114, %int1_115 : !torch.vtensor<[1,32,1,1],f32>, !torch.float, !torch.int -> !torch.vtensor<[1,32,1,1],f32>
    %122 = torch.aten.rsqrt %121 : !torch.vtensor<[1,32,1,1],f32> -> !torch.vtensor<[1,32,1,1],f32>
    %int1_116 = torch.constant.int 1
    %123 = torch.aten.sub.Tensor %117, %result1_113, %int1_116 : !torch.vtensor<[?,32,8,8],bf16>, !torch.vtensor<[1,32,1,1],f32>, !torch.int -> !torch.vtensor<[?,32,8,8],f32>
    torch.bind_symbolic_shape %123, [%0], affine_map<()[s0] -> (s0, 32, 8, 8)> : !torch.vtensor<[?,32,8,8],f32>
    %124 = torch.aten.mul.Tensor %123, %122 : !torch.vtensor<[?,32,8,8],f32>, !torch.vtensor<[1,32,1,1],f32> -> !torch.vtensor<[?,32,8,8],f32>
    torch.bind_symbolic_shape %124, [%0], affine_map<()[s0] -> (s0, 32, 8, 8)> : !torch.vtensor<[?,32,8,8],f32>
    %int3_117 = torch.constant.int 3
    %125 = torch.prim.ListConstruct %int3_117 : (!torch.int) -> !torch.list<int>
    %126 = torch.prims.squeeze %result1_113, %125 : !torch.vtensor<[1,32,1,1],f32>, !torch.list<int> -> !torch.vtensor<[1,32,1],f32>
    %int2_118 = torch.constant.int 2
    %127 = torch.prim.ListConstruct %int2_118 : (!torch.int) -> !torch.list<int>
    %128 = torch.prims.squeeze %126, %127 : !torch.vtensor<[1,32,1],f32>, !torch.list<int> -> !torch.vtensor<[1,32],f32>
    %int0_119 = torch.constant.int 0
    %129 = torch.prim.ListConstruct %int0_119 : (!torch.int) -> !torch.list<int>
    %130 = torch.prims.squeeze %128, %129 : !torch.vtensor<[1,32],f32>, !torch.list<int> -> !torch.vtensor<[32],f32>
    %int3_120 = torch.constant.int 3
    %131 = torch.prim.ListConstruct %int3_120 : (!torch.int) -> !torch.list<int>
    %132 = torch.prims.squeeze %122, %131 : !torch.vtensor<[1,32,1,1],f32>, !torch.list<int> -> !torch.vtensor<[1,32,1],f32>
    %int2_121 = torch.constant.int 2
    %133 = torch.prim.ListConstruct %int2_121 : (!torch.int) -> !torch.list<int>
    %134 = torch.prims.squeeze %132, %133 : !torch.vtensor<[1,32,1],f32>, !torch.list<int> -> !torch.vtensor<[1,32],f32>
    %int0_122 = torch.constant.int 0
    %135 = torch.prim.ListConstruct %int0_122 : (!torch.int) -> !torch.list<int>
    %136 = torch.prims.squeeze %134, %135 : !torch.vtensor<[1,32],f32>, !torch.list<int> -> !torch.vtensor<[32],f32>
    %float1.000000e-01_123 = torch.constant.float 1.000000e-01
    %137 = torch.aten.mul.Scalar %130, %float1.000000e-01_123 : !torch.vtensor<[32],f32>, !torch.float -> !torch.vtensor<[32],f32>
    %float9.000000e-01_124 = torch.constant.float 9.000000e-01
    %138 = torch.aten.mul.Scalar %8, %float9.000000e-01_124 : !torch.vtensor<[32],bf16>, !torch.float -> !torch.vtensor<[32],bf16>
    %int1_125 = torch.constant.int 1
    %139 = torch.aten.add.Tensor %137, %138, %int1_125 : !torch.vtensor<[32],f32>, !torch.vtensor<[32],bf16>, !torch.int -> !torch.vtensor<[32],f32>
    %int2048 = torch.constant.int 2048
    %140 = torch.aten.mul.int %int2048, %1 : !torch.int, !torch.int -> !torch.int
    %int32 = torch.constant.int 32
    %141 = torch.aten.div.int %140, %int32 : !torch.int, !torch.int -> !torch.float
    %int3_126 = torch.constant.int 3
    %142 = torch.prim.ListConstruct %int3_126 : (!torch.int) -> !torch.list<int>
    %143 = torch.prims.squeeze %result0_112, %142 : !torch.vtensor<[1,32,1,1],f32>, !torch.list<int> -> !torch.vtensor<[1,32,1],f32>
    %int2_127 = torch.constant.int 2
    %144 = torch.prim.ListConstruct %int2_127 : (!torch.int) -> !torch.list<int>
    %145 = torch.prims.squeeze %143, %144 : !torch.vtensor<[1,32,1],f32>, !torch.list<int> -> !torch.vtensor<[1,32],f32>
    %int0_128 = torch.constant.int 0
    %146 = torch.prim.ListConstruct %int0_128 : (!torch.int) -> !torch.list<int>
    %147 = torch.prims.squeeze %145, %146 : !torch.vtensor<[1,32],f32>, !torch.list<int> -> !torch.vtensor<[32],f32>
    %float1.000000e00_129 = torch.constant.float 1.000000e+00
    %148 = torch.aten.sub.float %141, %float1.000000e00_129 : !torch.float, !torch.float -> !torch.float
    %149 = torch.aten.div.float %141, %148 : !torch.float, !torch.float -> !torch.float
    %150 = torch.aten.mul.Scalar %147, %149 : !torch.vtensor<[32],f32>, !torch.float -> !torch.vtensor<[32],f32>
    %float1.000000e-01_130 = torch.constant.float 1.000000e-01
    %151 = torch.aten.mul.Scalar %150, %float1.000000e-01_130 : !torch.vtensor<[32],f32>, !torch.float -> !torch.vtensor<[32],f32>
    %float9.000000e-01_131 = torch.constant.float 9.000000e-01
    %152 = torch.aten.mul.Scalar %9, %float9.000000e-01_131 : !torch.vtensor<[32],bf16>, !torch.float -> !torch.vtensor<[32],bf16>
    %int1_132 = torch.constant.int 1
    %153 = torch.aten.add.Tensor %151, %152, %int1_132 : !torch.vtensor<[32],f32>, !torch.vtensor<[32],bf16>, !torch.int -> !torch.vtensor<[32],f32>
    %int-1_133 = torch.constant.int -1
    %154 = torch.aten.unsqueeze %arg8, %int-1_133 : !torch.vtensor<[32],bf16>, !torch.int -> !torch.vtensor<[32,1],bf16>
    %int-1_134 = torch.constant.int -1
    %155 = torch.aten.unsqueeze %154, %int-1_134 : !torch.vtensor<[32,1],bf16>, !torch.int -> !torch.vtensor<[32,1,1],bf16>
    %156 = torch.aten.mul.Tensor %124, %155 : !torch.vtensor<[?,32,8,8],f32>, !torch.vtensor<[32,1,1],bf16> -> !torch.vtensor<[?,32,8,8],f32>
    torch.bind_symbolic_shape %156, [%0], affine_map<()[s0] -> (s0, 32, 8, 8)> : !torch.vtensor<[?,32,8,8],f32>
    %int-1_135 = torch.constant.int -1
    %157 = torch.aten.unsqueeze %arg9, %int-1_135 : !torch.vtensor<[32],bf16>, !torch.int -> !torch.vtensor<[32,1],bf16>
    %int-1_136 = torch.constant.int -1
    %158 = torch.aten.unsqueeze %157, %int-1_136 : !torch.vtensor<[32,1],bf16>, !torch.int -> !torch.vtensor<[32,1,1],bf16>
    %int1_137 = torch.constant.int 1
    %159 = torch.aten.add.Tensor %156, %158, %int1_137 : !torch.vtensor<[?,32,8,8],f32>, !torch.vtensor<[32,1,1],bf16>, !torch.int -> !torch.vtensor<[?,32,8,8],f32>
    torch.bind_symbolic_shape %159, [%0], affine_map<()[s0] -> (s0, 32, 8, 8)> : !torch.vtensor<[?,32,8,8],f32>
    %int15_138 = torch.constant.int 15
    %160 = torch.prims.convert_element_type %130, %int15_138 : !torch.vtensor<[32],f32>, !torch.int -> !torch.vtensor<[32],bf16>
    %int15_139 = torch.constant.int 15
    %161 = torch.prims.convert_element_type %136, %int15_139 : !torch.vtensor<[32],f32>, !torch.int -> !torch.vtensor<[32],bf16>
    %int15_140 = torch.constant.int 15
    %162 = torch.prims.convert_element_type %159, %int15_140 : !torch.vtensor<[?,32,8,8],f32>, !torch.int -> !torch.vtensor<[?,32,8,8],bf16>
    torch.bind_symbolic_shape %162, [%0], affine_map<()[s0] -> (s0, 32, 8, 8)> : !torch.vtensor<[?,32,8,8],bf16>
    %int15_141 = torch.constant.int 15
    %163 = torch.prims.convert_element_type %139, %int15_141 : !torch.vtensor<[32],f32>, !torch.int -> !torch.vtensor<[32],bf16>
    %int15_142 = torch.constant.int 15
    %164 = torch.prims.convert_element_type %153, %int15_142 : !torch.vtensor<[32],f32>, !torch.int -> !torch.vtensor<[32],bf16>
    %165 = torch.aten.relu %162 : !torch.vtensor<[?,32,8,8],bf16> -> !torch.vtensor<[?,32,8,8],bf16>
    torch.bind_symbolic_shape %165, [%0], affine_map<()[s0] -> (s0, 32, 8, 8)> : !torch.vtensor<[?,32,8,8],bf16>
    %int-1_143 = torch.constant.int -1
    %int-2 = torch.constant.int -2
    %166 = torch.prim.ListConstruct %int-1_143, %int-2 : (!torch.int, !torch.int) -> !torch.list<int>
    %true_144 = torch.constant.bool true
    %none_145 = torch.constant.none
    %167 = torch.aten.mean.dim %165, %166, %true_144, %none_145 : !torch.vtensor<[?,32,8,8],bf16>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[?,32,1,1],bf16>
    torch.bind_symbolic_shape %167, [%0], affine_map<()[s0] -> (s0, 32, 1, 1)> : !torch.vtensor<[?,32,1,1],bf16>
    %int32_146 = torch.constant.int 32
    %168 = torch.prim.ListConstruct %1, %int32_146 : (!torch.int, !torch.int) -> !torch.list<int>
    %169 = torch.aten.view %167, %168 : !torch.vtensor<[?,32,1,1],bf16>, !torch.list<int> -> !torch.vtensor<[?,32],bf16>
    torch.bind_symbolic_shape %169, [%0], affine_map<()[s0] -> (s0, 32)> : !torch.vtensor<[?,32],bf16>
    %int1_147 = torch.constant.int 1
    %int0_148 = torch.constant.int 0
    %170 = torch.prim.ListConstruct %int1_147, %int0_148 : (!torch.int, !torch.int) -> !torch.list<int>
    %171 = torch.aten.permute %arg10, %170 : !torch.vtensor<[10,32],bf16>, !torch.list<int> -> !torch.vtensor<[32,10],bf16>
    %int1_149 = torch.constant.int 1
    %int0_150 = torch.constant.int 0
    %172 = torch.prim.ListConstruct %int1_149, %int0_150 : (!torch.int, !torch.int) -> !torch.list<int>
    %173 = torch.aten.permute %171, %172 : !torch.vtensor<[32,10],bf16>, !torch.list<int> -> !torch.vtensor<[10,32],bf16>
    %174 = torch.aten.mm %arg21, %173 : !torch.vtensor<[?,10],bf16>, !torch.vtensor<[10,32],bf16> -> !torch.vtensor<[?,32],bf16>
    torch.bind_symbolic_shape %174, [%0], affine_map<()[s0] -> (s0, 32)> : !torch.vtensor<[?,32],bf16>
    %int1_151 = torch.constant.int 1
    %int0_152 = torch.constant.int 0
    %175 = torch.prim.ListConstruct %int1_151, %int0_152 : (!torch.int, !torch.int) -> !torch.list<int>
    %176 = torch.aten.permute %arg21, %175 : !torch.vtensor<[?,10],bf16>, !torch.list<int> -> !torch.vtensor<[10,?],bf16>
    torch.bind_symbolic_shape %176, [%0], affine_map<()[s0] -> (10, s0)> : !torch.vtensor<[10,?],bf16>
    %177 = torch.aten.mm %176, %169 : !torch.vtensor<[10,?],bf16>, !torch.vtensor<[?,32],bf16> -> !torch.vtensor<[10,32],bf16>
    %int1_153 = torch.constant.int 1
    %int0_154 = torch.constant.int 0
    %178 = torch.prim.ListConstruct %int1_153, %int0_154 : (!torch.int, !torch.int) -> !torch.list<int>
    %179 = torch.aten.permute %177, %178 : !torch.vtensor<[10,32],bf16>, !torch.list<int> -> !torch.vtensor<[32,10],bf16>
    %int0_155 = torch.constant.int 0
    %180 = torch.prim.ListConstruct %int0_155 : (!torch.int) -> !torch.list<int>
    %true_156 = torch.constant.bool true
    %none_157 = torch.constant.none
    %181 = torch.aten.sum.dim_IntList %arg21, %180, %true_156, %none_157 : !torch.vtensor<[?,10],bf16>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[1,10],bf16>
    %int10 = torch.constant.int 10
    %182 = torch.prim.ListConstruct %int10 : (!torch.int) -> !torch.list<int>
    %183 = torch.aten.view %181, %182 : !torch.vtensor<[1,10],bf16>, !torch.list<int> -> !torch.vtensor<[10],bf16>
    %int1_158 = torch.constant.int 1
    %int0_159 = torch.constant.int 0
    %184 = torch.prim.ListConstruct %int1_158, %int0_159 : (!torch.int, !torch.int) -> !torch.list<int>
    %185 = torch.aten.permute %179, %184 : !torch.vtensor<[32,10],bf16>, !torch.list<int> -> !torch.vtensor<[10,32],bf16>
    %int32_160 = torch.constant.int 32
    %int1_161 = torch.constant.int 1
    %int1_162 = torch.constant.int 1
    %186 = torch.prim.ListConstruct %1, %int32_160, %int1_161, %int1_162 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %187 = torch.aten.view %174, %186 : !torch.vtensor<[?,32],bf16>, !torch.list<int> -> !torch.vtensor<[?,32,1,1],bf16>
    torch.bind_symbolic_shape %187, [%0], affine_map<()[s0] -> (s0, 32, 1, 1)> : !torch.vtensor<[?,32,1,1],bf16>
    %int32_163 = torch.constant.int 32
    %int8 = torch.constant.int 8
    %int8_164 = torch.constant.int 8
    %188 = torch.prim.ListConstruct %1, %int32_163, %int8, %int8_164 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %false_165 = torch.constant.bool false
    %189 = torch.aten.expand %187, %188, %false_165 : !torch.vtensor<[?,32,1,1],bf16>, !torch.list<int>, !torch.bool -> !torch.vtensor<[?,32,8,8],bf16>
    torch.bind_symbolic_shape %189, [%0], affine_map<()[s0] -> (s0, 32, 8, 8)> : !torch.vtensor<[?,32,8,8],bf16>
    %int64 = torch.constant.int 64
    %190 = torch.aten.div.Scalar %189, %int64 : !torch.vtensor<[?,32,8,8],bf16>, !torch.int -> !torch.vtensor<[?,32,8,8],bf16>
    torch.bind_symbolic_shape %190, [%0], affine_map<()[s0] -> (s0, 32, 8, 8)> : !torch.vtensor<[?,32,8,8],bf16>
    %int0_166 = torch.constant.int 0
    %191 = torch.aten.le.Scalar %165, %int0_166 : !torch.vtensor<[?,32,8,8],bf16>, !torch.int -> !torch.vtensor<[?,32,8,8],i1>
    torch.bind_symbolic_shape %191, [%0], affine_map<()[s0] -> (s0, 32, 8, 8)> : !torch.vtensor<[?,32,8,8],i1>
    %int0_167 = torch.constant.int 0
    %int15_168 = torch.constant.int 15
    %int0_169 = torch.constant.int 0
    %cpu = torch.constant.device "cpu"
    %none_170 = torch.constant.none
    %192 = torch.aten.scalar_tensor %int0_167, %int15_168, %int0_169, %cpu, %none_170 : !torch.int, !torch.int, !torch.int, !torch.Device, !torch.none -> !torch.vtensor<[],bf16>
    %193 = torch.aten.where.self %191, %192, %190 : !torch.vtensor<[?,32,8,8],i1>, !torch.vtensor<[],bf16>, !torch.vtensor<[?,32,8,8],bf16> -> !torch.vtensor<[?,32,8,8],bf16>
    torch.bind_symbolic_shape %193, [%0], affine_map<()[s0] -> (s0, 32, 8, 8)> : !torch.vtensor<[?,32,8,8],bf16>
    %int6_171 = torch.constant.int 6
    %194 = torch.prims.convert_element_type %193, %int6_171 : !torch.vtensor<[?,32,8,8],bf16>, !torch.int -> !torch.vtensor<[?,32,8,8],f32>
    torch.bind_symbolic_shape %194, [%0], affine_map<()[s0] -> (s0, 32, 8, 8)> : !torch.vtensor<[?,32,8,8],f32>
    %int6_172 = torch.constant.int 6
    %195 = torch.prims.convert_element_type %117, %int6_172 : !torch.vtensor<[?,32,8,8],bf16>, !torch.int -> !torch.vtensor<[?,32,8,8],f32>
    torch.bind_symbolic_shape %195, [%0], affine_map<()[s0] -> (s0, 32, 8, 8)> : !torch.vtensor<[?,32,8,8],f32>
    %int6_173 = torch.constant.int 6
    %196 = torch.prims.convert_element_type %arg8, %int6_173 : !torch.vtensor<[32],bf16>, !torch.int -> !torch.vtensor<[32],f32>
    %int6_174 = torch.constant.int 6
    %197 = torch.prims.convert_element_type %160, %int6_174 : !torch.vtensor<[32],bf16>, !torch.int -> !torch.vtensor<[32],f32>
    %int6_175 = torch.constant.int 6
    %198 = torch.prims.convert_element_type %161, %int6_175 : !torch.vtensor<[32],bf16>, !torch.int -> !torch.vtensor<[32],f32>
    %int32_176 = torch.constant.int 32
    %199 = torch.aten.mul.int %1, %int32_176 : !torch.int, !torch.int -> !torch.int
    %int8_177 = torch.constant.int 8
    %200 = torch.aten.mul.int %199, %int8_177 : !torch.int, !torch.int -> !torch.int
    %int0_178 = torch.constant.int 0
    %201 = torch.aten.unsqueeze %197, %int0_178 : !torch.vtensor<[32],f32>, !torch.int -> !torch.vtensor<[1,32],f32>
    %int2_179 = torch.constant.int 2
    %202 = torch.aten.unsqueeze %201, %int2_179 : !torch.vtensor<[1,32],f32>, !torch.int -> !torch.vtensor<[1,32,1],f32>
    %int3_180 = torch.constant.int 3
    %203 = torch.aten.unsqueeze %202, %int3_180 : !torch.vtensor<[1,32,1],f32>, !torch.int -> !torch.vtensor<[1,32,1,1],f32>
    %float1.000000e00_181 = torch.constant.float 1.000000e+00
    %204 = torch.aten.div.float %float1.000000e00_181, %141 : !torch.float, !torch.float -> !torch.float
    %int0_182 = torch.constant.int 0
    %int2_183 = torch.constant.int 2
    %int3_184 = torch.constant.int 3
    %205 = torch.prim.ListConstruct %int0_182, %int2_183, %int3_184 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %false_185 = torch.constant.bool false
    %none_186 = torch.constant.none
    %206 = torch.aten.sum.dim_IntList %194, %205, %false_185, %none_186 : !torch.vtensor<[?,32,8,8],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[32],f32>
    %int1_187 = torch.constant.int 1
    %207 = torch.aten.sub.Tensor %195, %203, %int1_187 : !torch.vtensor<[?,32,8,8],f32>, !torch.vtensor<[1,32,1,1],f32>, !torch.int -> !torch.vtensor<[?,32,8,8],f32>
    torch.bind_symbolic_shape %207, [%0], affine_map<()[s0] -> (s0, 32, 8, 8)> : !torch.vtensor<[?,32,8,8],f32>
    %208 = torch.aten.mul.Tensor %194, %207 : !torch.vtensor<[?,32,8,8],f32>, !torch.vtensor<[?,32,8,8],f32> -> !torch.vtensor<[?,32,8,8],f32>
    torch.bind_symbolic_shape %208, [%0], affine_map<()[s0] -> (s0, 32, 8, 8)> : !torch.vtensor<[?,32,8,8],f32>
    %int0_188 = torch.constant.int 0
    %int2_189 = torch.constant.int 2
    %int3_190 = torch.constant.int 3
    %209 = torch.prim.ListConstruct %int0_188, %int2_189, %int3_190 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %false_191 = torch.constant.bool false
    %none_192 = torch.constant.none
    %210 = torch.aten.sum.dim_IntList %208, %209, %false_191, %none_192 : !torch.vtensor<[?,32,8,8],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[32],f32>
    %211 = torch.aten.mul.Scalar %206, %204 : !torch.vtensor<[32],f32>, !torch.float -> !torch.vtensor<[32],f32>
    %int0_193 = torch.constant.int 0
    %212 = torch.aten.unsqueeze %211, %int0_193 : !torch.vtensor<[32],f32>, !torch.int -> !torch.vtensor<[1,32],f32>
    %int2_194 = torch.constant.int 2
    %213 = torch.aten.unsqueeze %212, %int2_194 : !torch.vtensor<[1,32],f32>, !torch.int -> !torch.vtensor<[1,32,1],f32>
    %int3_195 = torch.constant.int 3
    %214 = torch.aten.unsqueeze %213, %int3_195 : !torch.vtensor<[1,32,1],f32>, !torch.int -> !torch.vtensor<[1,32,1,1],f32>
    %215 = torch.aten.mul.Scalar %210, %204 : !torch.vtensor<[32],f32>, !torch.float -> !torch.vtensor<[32],f32>
    %216 = torch.aten.mul.Tensor %198, %198 : !torch.vtensor<[32],f32>, !torch.vtensor<[32],f32> -> !torch.vtensor<[32],f32>
    %217 = torch.aten.mul.Tensor %215, %216 : !torch.vtensor<[32],f32>, !torch.vtensor<[32],f32> -> !torch.vtensor<[32],f32>
    %int0_196 = torch.constant.int 0
    %218 = torch.aten.unsqueeze %217, %int0_196 : !torch.vtensor<[32],f32>, !torch.int -> !torch.vtensor<[1,32],f32>
    %int2_197 = torch.constant.int 2
    %219 = torch.aten.unsqueeze %218, %int2_197 : !torch.vtensor<[1,32],f32>, !torch.int -> !torch.vtensor<[1,32,1],f32>
    %int3_198 = torch.constant.int 3
    %220 = torch.aten.unsqueeze %219, %int3_198 : !torch.vtensor<[1,32,1],f32>, !torch.int -> !torch.vtensor<[1,32,1,1],f32>
    %221 = torch.aten.mul.Tensor %198, %196 : !torch.vtensor<[32],f32>, !torch.vtensor<[32],f32> -> !torch.vtensor<[32],f32>
    %int0_199 = torch.constant.int 0
    %222 = torch.aten.unsqueeze %221, %int0_199 : !torch.vtensor<[32],f32>, !torch.int -> !torch.vtensor<[1,32],f32>
    %int2_200 = torch.constant.int 2
    %223 = torch.aten.unsqueeze %222, %int2_200 : !torch.vtensor<[1,32],f32>, !torch.int -> !torch.vtensor<[1,32,1],f32>
    %int3_201 = torch.constant.int 3
    %224 = torch.aten.unsqueeze %223, %int3_201 : !torch.vtensor<[1,32,1],f32>, !torch.int -> !torch.vtensor<[1,32,1,1],f32>
    %int1_202 = torch.constant.int 1
    %225 = torch.aten.sub.Tensor %195, %203, %int1_202 : !torch.vtensor<[?,32,8,8],f32>, !torch.vtensor<[1,32,1,1],f32>, !torch.int -> !torch.vtensor<[?,32,8,8],f32>
    torch.bind_symbolic_shape %225, [%0], affine_map<()[s0] -> (s0, 32, 8, 8)> : !torch.vtensor<[?,32,8,8],f32>
    %226 = torch.aten.mul.Tensor %225, %220 : !torch.vtensor<[?,32,8,8],f32>, !torch.vtensor<[1,32,1,1],f32> -> !torch.vtensor<[?,32,8,8],f32>
    torch.bind_symbolic_shape %226, [%0], affine_map<()[s0] -> (s0, 32, 8, 8)> : !torch.vtensor<[?,32,8,8],f32>
    %int1_203 = torch.constant.int 1
    %227 = torch.aten.sub.Tensor %194, %226, %int1_203 : !torch.vtensor<[?,32,8,8],f32>, !torch.vtensor<[?,32,8,8],f32>, !torch.int -> !torch.vtensor<[?,32,8,8],f32>
    torch.bind_symbolic_shape %227, [%0], affine_map<()[s0] -> (s0, 32, 8, 8)> : !torch.vtensor<[?,32,8,8],f32>
    %int1_204 = torch.constant.int 1
    %228 = torch.aten.sub.Tensor %227, %214, %int1_204 : !torch.vtensor<[?,32,8,8],f32>, !torch.vtensor<[1,32,1,1],f32>, !torch.int -> !torch.vtensor<[?,32,8,8],f32>
    torch.bind_symbolic_shape %228, [%0], affine_map<()[s0] -> (s0, 32, 8, 8)> : !torch.vtensor<[?,32,8,8],f32>
    %229 = torch.aten.mul.Tensor %228, %224 : !torch.vtensor<[?,32,8,8],f32>, !torch.vtensor<[1,32,1,1],f32> -> !torch.vtensor<[?,32,8,8],f32>
    torch.bind_symbolic_shape %229, [%0], affine_map<()[s0] -> (s0, 32, 8, 8)> : !torch.vtensor<[?,32,8,8],f32>
    %230 = torch.aten.mul.Tensor %210, %198 : !torch.vtensor<[32],f32>, !torch.vtensor<[32],f32> -> !torch.vtensor<[32],f32>
    %int15_205 = torch.constant.int 15
    %231 = torch.prims.convert_element_type %229, %int15_205 : !torch.vtensor<[?,32,8,8],f32>, !torch.int -> !torch.vtensor<[?,32,8,8],bf16>
    torch.bind_symbolic_shape %231, [%0], affine_map<()[s0] -> (s0, 32, 8, 8)> : !torch.vtensor<[?,32,8,8],bf16>
    %int15_206 = torch.constant.int 15
    %232 = torch.prims.convert_element_type %230, %int15_206 : !torch.vtensor<[32],f32>, !torch.int -> !torch.vtensor<[32],bf16>
    %int15_207 = torch.constant.int 15
    %233 = torch.prims.convert_element_type %206, %int15_207 : !torch.vtensor<[32],f32>, !torch.int -> !torch.vtensor<[32],bf16>
    %int0_208 = torch.constant.int 0
    %234 = torch.prim.ListConstruct %int0_208 : (!torch.int) -> !torch.list<int>
    %int2_209 = torch.constant.int 2
    %int2_210 = torch.constant.int 2
    %235 = torch.prim.ListConstruct %int2_209, %int2_210 : (!torch.int, !torch.int) -> !torch.list<int>
    %int1_211 = torch.constant.int 1
    %int1_212 = torch.constant.int 1
    %236 = torch.prim.ListConstruct %int1_211, %int1_212 : (!torch.int, !torch.int) -> !torch.list<int>
    %int1_213 = torch.constant.int 1
    %int1_214 = torch.constant.int 1
    %237 = torch.prim.ListConstruct %int1_213, %int1_214 : (!torch.int, !torch.int) -> !torch.list<int>
    %false_215 = torch.constant.bool false
    %int0_216 = torch.constant.int 0
    %int0_217 = torch.constant.int 0
    %238 = torch.prim.ListConstruct %int0_216, %int0_217 : (!torch.int, !torch.int) -> !torch.list<int>
    %int1_218 = torch.constant.int 1
    %true_219 = torch.constant.bool true
    %true_220 = torch.constant.bool true
    %false_221 = torch.constant.bool false
    %239 = torch.prim.ListConstruct %true_219, %true_220, %false_221 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
    %result0_222, %result1_223, %result2 = torch.aten.convolution_backward %231, %112, %arg7, %234, %235, %236, %237, %false_215, %238, %int1_218, %239 : !torch.vtensor<[?,32,8,8],bf16>, !torch.vtensor<[?,16,16,16],bf16>, !torch.vtensor<[32,16,3,3],bf16>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[?,16,16,16],bf16>, !torch.vtensor<[32,16,3,3],bf16>, !torch.none
    torch.bind_symbolic_shape %result0_222, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],bf16>
    %int0_224 = torch.constant.int 0
    %240 = torch.aten.le.Scalar %112, %int0_224 : !torch.vtensor<[?,16,16,16],bf16>, !torch.int -> !torch.vtensor<[?,16,16,16],i1>
    torch.bind_symbolic_shape %240, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],i1>
    %int0_225 = torch.constant.int 0
    %int15_226 = torch.constant.int 15
    %int0_227 = torch.constant.int 0
    %cpu_228 = torch.constant.device "cpu"
    %none_229 = torch.constant.none
    %241 = torch.aten.scalar_tensor %int0_225, %int15_226, %int0_227, %cpu_228, %none_229 : !torch.int, !torch.int, !torch.int, !torch.Device, !torch.none -> !torch.vtensor<[],bf16>
    %242 = torch.aten.where.self %240, %241, %result0_222 : !torch.vtensor<[?,16,16,16],i1>, !torch.vtensor<[],bf16>, !torch.vtensor<[?,16,16,16],bf16> -> !torch.vtensor<[?,16,16,16],bf16>
    torch.bind_symbolic_shape %242, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],bf16>
    %int6_230 = torch.constant.int 6
    %243 = torch.prims.convert_element_type %242, %int6_230 : !torch.vtensor<[?,16,16,16],bf16>, !torch.int -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %243, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %int6_231 = torch.constant.int 6
    %244 = torch.prims.convert_element_type %68, %int6_231 : !torch.vtensor<[?,16,16,16],bf16>, !torch.int -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %244, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %int6_232 = torch.constant.int 6
    %245 = torch.prims.convert_element_type %arg5, %int6_232 : !torch.vtensor<[16],bf16>, !torch.int -> !torch.vtensor<[16],f32>
    %int6_233 = torch.constant.int 6
    %246 = torch.prims.convert_element_type %107, %int6_233 : !torch.vtensor<[16],bf16>, !torch.int -> !torch.vtensor<[16],f32>
    %int6_234 = torch.constant.int 6
    %247 = torch.prims.convert_element_type %108, %int6_234 : !torch.vtensor<[16],bf16>, !torch.int -> !torch.vtensor<[16],f32>
    %int16_235 = torch.constant.int 16
    %248 = torch.aten.mul.int %1, %int16_235 : !torch.int, !torch.int -> !torch.int
    %int0_236 = torch.constant.int 0
    %249 = torch.aten.unsqueeze %246, %int0_236 : !torch.vtensor<[16],f32>, !torch.int -> !torch.vtensor<[1,16],f32>
    %int2_237 = torch.constant.int 2
    %250 = torch.aten.unsqueeze %249, %int2_237 : !torch.vtensor<[1,16],f32>, !torch.int -> !torch.vtensor<[1,16,1],f32>
    %int3_238 = torch.constant.int 3
    %251 = torch.aten.unsqueeze %250, %int3_238 : !torch.vtensor<[1,16,1],f32>, !torch.int -> !torch.vtensor<[1,16,1,1],f32>
    %float1.000000e00_239 = torch.constant.float 1.000000e+00
    %252 = torch.aten.div.float %float1.000000e00_239, %39 : !torch.float, !torch.float -> !torch.float
    %int0_240 = torch.constant.int 0
    %int2_241 = torch.constant.int 2
    %int3_242 = torch.constant.int 3
    %253 = torch.prim.ListConstruct %int0_240, %int2_241, %int3_242 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %false_243 = torch.constant.bool false
    %none_244 = torch.constant.none
    %254 = torch.aten.sum.dim_IntList %243, %253, %false_243, %none_244 : !torch.vtensor<[?,16,16,16],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[16],f32>
    %int1_245 = torch.constant.int 1
    %255 = torch.aten.sub.Tensor %244, %251, %int1_245 : !torch.vtensor<[?,16,16,16],f32>, !torch.vtensor<[1,16,1,1],f32>, !torch.int -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %255, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %256 = torch.aten.mul.Tensor %243, %255 : !torch.vtensor<[?,16,16,16],f32>, !torch.vtensor<[?,16,16,16],f32> -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %256, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %int0_246 = torch.constant.int 0
    %int2_247 = torch.constant.int 2
    %int3_248 = torch.constant.int 3
    %257 = torch.prim.ListConstruct %int0_246, %int2_247, %int3_248 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %false_249 = torch.constant.bool false
    %none_250 = torch.constant.none
    %258 = torch.aten.sum.dim_IntList %256, %257, %false_249, %none_250 : !torch.vtensor<[?,16,16,16],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[16],f32>
    %259 = torch.aten.mul.Scalar %254, %252 : !torch.vtensor<[16],f32>, !torch.float -> !torch.vtensor<[16],f32>
    %int0_251 = torch.constant.int 0
    %260 = torch.aten.unsqueeze %259, %int0_251 : !torch.vtensor<[16],f32>, !torch.int -> !torch.vtensor<[1,16],f32>
    %int2_252 = torch.constant.int 2
    %261 = torch.aten.unsqueeze %260, %int2_252 : !torch.vtensor<[1,16],f32>, !torch.int -> !torch.vtensor<[1,16,1],f32>
    %int3_253 = torch.constant.int 3
    %262 = torch.aten.unsqueeze %261, %int3_253 : !torch.vtensor<[1,16,1],f32>, !torch.int -> !torch.vtensor<[1,16,1,1],f32>
    %263 = torch.aten.mul.Scalar %258, %252 : !torch.vtensor<[16],f32>, !torch.float -> !torch.vtensor<[16],f32>
    %264 = torch.aten.mul.Tensor %247, %247 : !torch.vtensor<[16],f32>, !torch.vtensor<[16],f32> -> !torch.vtensor<[16],f32>
    %265 = torch.aten.mul.Tensor %263, %264 : !torch.vtensor<[16],f32>, !torch.vtensor<[16],f32> -> !torch.vtensor<[16],f32>
    %int0_254 = torch.constant.int 0
    %266 = torch.aten.unsqueeze %265, %int0_254 : !torch.vtensor<[16],f32>, !torch.int -> !torch.vtensor<[1,16],f32>
    %int2_255 = torch.constant.int 2
    %267 = torch.aten.unsqueeze %266, %int2_255 : !torch.vtensor<[1,16],f32>, !torch.int -> !torch.vtensor<[1,16,1],f32>
    %int3_256 = torch.constant.int 3
    %268 = torch.aten.unsqueeze %267, %int3_256 : !torch.vtensor<[1,16,1],f32>, !torch.int -> !torch.vtensor<[1,16,1,1],f32>
    %269 = torch.aten.mul.Tensor %247, %245 : !torch.vtensor<[16],f32>, !torch.vtensor<[16],f32> -> !torch.vtensor<[16],f32>
    %int0_257 = torch.constant.int 0
    %270 = torch.aten.unsqueeze %269, %int0_257 : !torch.vtensor<[16],f32>, !torch.int -> !torch.vtensor<[1,16],f32>
    %int2_258 = torch.constant.int 2
    %271 = torch.aten.unsqueeze %270, %int2_258 : !torch.vtensor<[1,16],f32>, !torch.int -> !torch.vtensor<[1,16,1],f32>
    %int3_259 = torch.constant.int 3
    %272 = torch.aten.unsqueeze %271, %int3_259 : !torch.vtensor<[1,16,1],f32>, !torch.int -> !torch.vtensor<[1,16,1,1],f32>
    %int1_260 = torch.constant.int 1
    %273 = torch.aten.sub.Tensor %244, %251, %int1_260 : !torch.vtensor<[?,16,16,16],f32>, !torch.vtensor<[1,16,1,1],f32>, !torch.int -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %273, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %274 = torch.aten.mul.Tensor %273, %268 : !torch.vtensor<[?,16,16,16],f32>, !torch.vtensor<[1,16,1,1],f32> -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %274, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %int1_261 = torch.constant.int 1
    %275 = torch.aten.sub.Tensor %243, %274, %int1_261 : !torch.vtensor<[?,16,16,16],f32>, !torch.vtensor<[?,16,16,16],f32>, !torch.int -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %275, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %int1_262 = torch.constant.int 1
    %276 = torch.aten.sub.Tensor %275, %262, %int1_262 : !torch.vtensor<[?,16,16,16],f32>, !torch.vtensor<[1,16,1,1],f32>, !torch.int -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %276, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %277 = torch.aten.mul.Tensor %276, %272 : !torch.vtensor<[?,16,16,16],f32>, !torch.vtensor<[1,16,1,1],f32> -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %277, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %278 = torch.aten.mul.Tensor %258, %247 : !torch.vtensor<[16],f32>, !torch.vtensor<[16],f32> -> !torch.vtensor<[16],f32>
    %int15_263 = torch.constant.int 15
    %279 = torch.prims.convert_element_type %277, %int15_263 : !torch.vtensor<[?,16,16,16],f32>, !torch.int -> !torch.vtensor<[?,16,16,16],bf16>
    torch.bind_symbolic_shape %279, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],bf16>
    %int15_264 = torch.constant.int 15
    %280 = torch.prims.convert_element_type %278, %int15_264 : !torch.vtensor<[16],f32>, !torch.int -> !torch.vtensor<[16],bf16>
    %int15_265 = torch.constant.int 15
    %281 = torch.prims.convert_element_type %254, %int15_265 : !torch.vtensor<[16],f32>, !torch.int -> !torch.vtensor<[16],bf16>
    %int0_266 = torch.constant.int 0
    %282 = torch.prim.ListConstruct %int0_266 : (!torch.int) -> !torch.list<int>
    %int1_267 = torch.constant.int 1
    %int1_268 = torch.constant.int 1
    %283 = torch.prim.ListConstruct %int1_267, %int1_268 : (!torch.int, !torch.int) -> !torch.list<int>
    %int2_269 = torch.constant.int 2
    %int2_270 = torch.constant.int 2
    %284 = torch.prim.ListConstruct %int2_269, %int2_270 : (!torch.int, !torch.int) -> !torch.list<int>
    %int2_271 = torch.constant.int 2
    %int2_272 = torch.constant.int 2
    %285 = torch.prim.ListConstruct %int2_271, %int2_272 : (!torch.int, !torch.int) -> !torch.list<int>
    %false_273 = torch.constant.bool false
    %int0_274 = torch.constant.int 0
    %int0_275 = torch.constant.int 0
    %286 = torch.prim.ListConstruct %int0_274, %int0_275 : (!torch.int, !torch.int) -> !torch.list<int>
    %int1_276 = torch.constant.int 1
    %true_277 = torch.constant.bool true
    %true_278 = torch.constant.bool true
    %false_279 = torch.constant.bool false
    %287 = torch.prim.ListConstruct %true_277, %true_278, %false_279 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
    %result0_280, %result1_281, %result2_282 = torch.aten.convolution_backward %279, %63, %arg4, %282, %283, %284, %285, %false_273, %286, %int1_276, %287 : !torch.vtensor<[?,16,16,16],bf16>, !torch.vtensor<[?,16,16,16],bf16>, !torch.vtensor<[16,16,3,3],bf16>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[?,16,16,16],bf16>, !torch.vtensor<[16,16,3,3],bf16>, !torch.none
    torch.bind_symbolic_shape %result0_280, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],bf16>
    %int0_283 = torch.constant.int 0
    %288 = torch.aten.le.Scalar %63, %int0_283 : !torch.vtensor<[?,16,16,16],bf16>, !torch.int -> !torch.vtensor<[?,16,16,16],i1>
    torch.bind_symbolic_shape %288, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],i1>
    %int0_284 = torch.constant.int 0
    %int15_285 = torch.constant.int 15
    %int0_286 = torch.constant.int 0
    %cpu_287 = torch.constant.device "cpu"
    %none_288 = torch.constant.none
    %289 = torch.aten.scalar_tensor %int0_284, %int15_285, %int0_286, %cpu_287, %none_288 : !torch.int, !torch.int, !torch.int, !torch.Device, !torch.none -> !torch.vtensor<[],bf16>
    %290 = torch.aten.where.self %288, %289, %result0_280 : !torch.vtensor<[?,16,16,16],i1>, !torch.vtensor<[],bf16>, !torch.vtensor<[?,16,16,16],bf16> -> !torch.vtensor<[?,16,16,16],bf16>
    torch.bind_symbolic_shape %290, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],bf16>
    %int6_289 = torch.constant.int 6
    %291 = torch.prims.convert_element_type %290, %int6_289 : !torch.vtensor<[?,16,16,16],bf16>, !torch.int -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %291, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %int6_290 = torch.constant.int 6
    %292 = torch.prims.convert_element_type %15, %int6_290 : !torch.vtensor<[?,16,16,16],bf16>, !torch.int -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %292, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %int6_291 = torch.constant.int 6
    %293 = torch.prims.convert_element_type %arg2, %int6_291 : !torch.vtensor<[16],bf16>, !torch.int -> !torch.vtensor<[16],f32>
    %int6_292 = torch.constant.int 6
    %294 = torch.prims.convert_element_type %58, %int6_292 : !torch.vtensor<[16],bf16>, !torch.int -> !torch.vtensor<[16],f32>
    %int6_293 = torch.constant.int 6
    %295 = torch.prims.convert_element_type %59, %int6_293 : !torch.vtensor<[16],bf16>, !torch.int -> !torch.vtensor<[16],f32>
    %int0_294 = torch.constant.int 0
    %296 = torch.aten.unsqueeze %294, %int0_294 : !torch.vtensor<[16],f32>, !torch.int -> !torch.vtensor<[1,16],f32>
    %int2_295 = torch.constant.int 2
    %297 = torch.aten.unsqueeze %296, %int2_295 : !torch.vtensor<[1,16],f32>, !torch.int -> !torch.vtensor<[1,16,1],f32>
    %int3_296 = torch.constant.int 3
    %298 = torch.aten.unsqueeze %297, %int3_296 : !torch.vtensor<[1,16,1],f32>, !torch.int -> !torch.vtensor<[1,16,1,1],f32>
    %int0_297 = torch.constant.int 0
    %int2_298 = torch.constant.int 2
    %int3_299 = torch.constant.int 3
    %299 = torch.prim.ListConstruct %int0_297, %int2_298, %int3_299 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %false_300 = torch.constant.bool false
    %none_301 = torch.constant.none
    %300 = torch.aten.sum.dim_IntList %291, %299, %false_300, %none_301 : !torch.vtensor<[?,16,16,16],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[16],f32>
    %int1_302 = torch.constant.int 1
    %301 = torch.aten.sub.Tensor %292, %298, %int1_302 : !torch.vtensor<[?,16,16,16],f32>, !torch.vtensor<[1,16,1,1],f32>, !torch.int -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %301, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %302 = torch.aten.mul.Tensor %291, %301 : !torch.vtensor<[?,16,16,16],f32>, !torch.vtensor<[?,16,16,16],f32> -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %302, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %int0_303 = torch.constant.int 0
    %int2_304 = torch.constant.int 2
    %int3_305 = torch.constant.int 3
    %303 = torch.prim.ListConstruct %int0_303, %int2_304, %int3_305 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %false_306 = torch.constant.bool false
    %none_307 = torch.constant.none
    %304 = torch.aten.sum.dim_IntList %302, %303, %false_306, %none_307 : !torch.vtensor<[?,16,16,16],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[16],f32>
    %305 = torch.aten.mul.Scalar %300, %252 : !torch.vtensor<[16],f32>, !torch.float -> !torch.vtensor<[16],f32>
    %int0_308 = torch.constant.int 0
    %306 = torch.aten.unsqueeze %305, %int0_308 : !torch.vtensor<[16],f32>, !torch.int -> !torch.vtensor<[1,16],f32>
    %int2_309 = torch.constant.int 2
    %307 = torch.aten.unsqueeze %306, %int2_309 : !torch.vtensor<[1,16],f32>, !torch.int -> !torch.vtensor<[1,16,1],f32>
    %int3_310 = torch.constant.int 3
    %308 = torch.aten.unsqueeze %307, %int3_310 : !torch.vtensor<[1,16,1],f32>, !torch.int -> !torch.vtensor<[1,16,1,1],f32>
    %309 = torch.aten.mul.Scalar %304, %252 : !torch.vtensor<[16],f32>, !torch.float -> !torch.vtensor<[16],f32>
    %310 = torch.aten.mul.Tensor %295, %295 : !torch.vtensor<[16],f32>, !torch.vtensor<[16],f32> -> !torch.vtensor<[16],f32>
    %311 = torch.aten.mul.Tensor %309, %310 : !torch.vtensor<[16],f32>, !torch.vtensor<[16],f32> -> !torch.vtensor<[16],f32>
    %int0_311 = torch.constant.int 0
    %312 = torch.aten.unsqueeze %311, %int0_311 : !torch.vtensor<[16],f32>, !torch.int -> !torch.vtensor<[1,16],f32>
    %int2_312 = torch.constant.int 2
    %313 = torch.aten.unsqueeze %312, %int2_312 : !torch.vtensor<[1,16],f32>, !torch.int -> !torch.vtensor<[1,16,1],f32>
    %int3_313 = torch.constant.int 3
    %314 = torch.aten.unsqueeze %313, %int3_313 : !torch.vtensor<[1,16,1],f32>, !torch.int -> !torch.vtensor<[1,16,1,1],f32>
    %315 = torch.aten.mul.Tensor %295, %293 : !torch.vtensor<[16],f32>, !torch.vtensor<[16],f32> -> !torch.vtensor<[16],f32>
    %int0_314 = torch.constant.int 0
    %316 = torch.aten.unsqueeze %315, %int0_314 : !torch.vtensor<[16],f32>, !torch.int -> !torch.vtensor<[1,16],f32>
    %int2_315 = torch.constant.int 2
    %317 = torch.aten.unsqueeze %316, %int2_315 : !torch.vtensor<[1,16],f32>, !torch.int -> !torch.vtensor<[1,16,1],f32>
    %int3_316 = torch.constant.int 3
    %318 = torch.aten.unsqueeze %317, %int3_316 : !torch.vtensor<[1,16,1],f32>, !torch.int -> !torch.vtensor<[1,16,1,1],f32>
    %int1_317 = torch.constant.int 1
    %319 = torch.aten.sub.Tensor %292, %298, %int1_317 : !torch.vtensor<[?,16,16,16],f32>, !torch.vtensor<[1,16,1,1],f32>, !torch.int -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %319, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %320 = torch.aten.mul.Tensor %319, %314 : !torch.vtensor<[?,16,16,16],f32>, !torch.vtensor<[1,16,1,1],f32> -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %320, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %int1_318 = torch.constant.int 1
    %321 = torch.aten.sub.Tensor %291, %320, %int1_318 : !torch.vtensor<[?,16,16,16],f32>, !torch.vtensor<[?,16,16,16],f32>, !torch.int -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %321, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %int1_319 = torch.constant.int 1
    %322 = torch.aten.sub.Tensor %321, %308, %int1_319 : !torch.vtensor<[?,16,16,16],f32>, !torch.vtensor<[1,16,1,1],f32>, !torch.int -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %322, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %323 = torch.aten.mul.Tensor %322, %318 : !torch.vtensor<[?,16,16,16],f32>, !torch.vtensor<[1,16,1,1],f32> -> !torch.vtensor<[?,16,16,16],f32>
    torch.bind_symbolic_shape %323, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],f32>
    %324 = torch.aten.mul.Tensor %304, %295 : !torch.vtensor<[16],f32>, !torch.vtensor<[16],f32> -> !torch.vtensor<[16],f32>
    %int15_320 = torch.constant.int 15
    %325 = torch.prims.convert_element_type %323, %int15_320 : !torch.vtensor<[?,16,16,16],f32>, !torch.int -> !torch.vtensor<[?,16,16,16],bf16>
    torch.bind_symbolic_shape %325, [%0], affine_map<()[s0] -> (s0, 16, 16, 16)> : !torch.vtensor<[?,16,16,16],bf16>
    %int15_321 = torch.constant.int 15
    %326 = torch.prims.convert_element_type %324, %int15_321 : !torch.vtensor<[16],f32>, !torch.int -> !torch.vtensor<[16],bf16>
    %int15_322 = torch.constant.int 15
    %327 = torch.prims.convert_element_type %300, %int15_322 : !torch.vtensor<[16],f32>, !torch.int -> !torch.vtensor<[16],bf16>
    %int0_323 = torch.constant.int 0
    %328 = torch.prim.ListConstruct %int0_323 : (!torch.int) -> !torch.list<int>
    %int1_324 = torch.constant.int 1
    %int1_325 = torch.constant.int 1
    %329 = torch.prim.ListConstruct %int1_324, %int1_325 : (!torch.int, !torch.int) -> !torch.list<int>
    %int1_326 = torch.constant.int 1
    %int1_327 = torch.constant.int 1
    %330 = torch.prim.ListConstruct %int1_326, %int1_327 : (!torch.int, !torch.int) -> !torch.list<int>
    %int1_328 = torch.constant.int 1
    %int1_329 = torch.constant.int 1
    %331 = torch.prim.ListConstruct %int1_328, %int1_329 : (!torch.int, !torch.int) -> !torch.list<int>
    %false_330 = torch.constant.bool false
    %int0_331 = torch.constant.int 0
    %int0_332 = torch.constant.int 0
    %332 = torch.prim.ListConstruct %int0_331, %int0_332 : (!torch.int, !torch.int) -> !torch.list<int>
    %int1_333 = torch.constant.int 1
    %false_334 = torch.constant.bool false
    %true_335 = torch.constant.bool true
    %false_336 = torch.constant.bool false
    %333 = torch.prim.ListConstruct %false_334, %true_335, %false_336 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
    %result0_337, %result1_338, %result2_339 = torch.aten.convolution_backward %325, %arg0, %arg1, %328, %329, %330, %331, %false_330, %332, %int1_333, %333 : !torch.vtensor<[?,16,16,16],bf16>, !torch.vtensor<[?,3,16,16],bf16>, !torch.vtensor<[16,3,3,3],bf16>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.none, !torch.vtensor<[16,3,3,3],bf16>, !torch.none
    return %result1_338, %326, %327, %result1_281, %280, %281, %result1_223, %232, %233, %185, %183, %61, %62, %16, %110, %111, %69, %163, %164, %118 : !torch.vtensor<[16,3,3,3],bf16>, !torch.vtensor<[16],bf16>, !torch.vtensor<[16],bf16>, !torch.vtensor<[16,16,3,3],bf16>, !torch.vtensor<[16],bf16>, !torch.vtensor<[16],bf16>, !torch.vtensor<[32,16,3,3],bf16>, !torch.vtensor<[32],bf16>, !torch.vtensor<[32],bf16>, !torch.vtensor<[10,32],bf16>, !torch.vtensor<[10],bf16>, !torch.vtensor<[16],bf16>, !torch.vtensor<[16],bf16>, !torch.vtensor<[],si64>, !torch.vtensor<[16],bf16>, !torch.vtensor<[16],bf16>, !torch.vtensor<[],si64>, !torch.vtensor<[32],bf16>, !torch.vtensor<[32],bf16>, !torch.vtensor<[],si64>
  }
}
