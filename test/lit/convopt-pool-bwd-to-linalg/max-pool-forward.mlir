// Max pooling's forward (convopt/lowering/patterns/max_pool_fwd.py): gathers
// over b = S*s + D*k - P.  The input is padded with -inf (or sliced)
// to exactly the extent the windows read, and read at S*s + D*k (no negative
// coefficient); a tensor.empty of the kernel's shape gives the tap loops
// their extents.  The values reduce with arith.maximumf; the indices are
// one arith.minsi over keys: flat(b) of the in-bounds taps equal to the
// maximum (or NaN; -flat(b) where the maximum is NaN, the last NaN), and
// an elementwise op decodes them.  0 <= b < N is checked where a window can
// overhang.
// RUN: %convopt --lower-pool-bwd --split-input-file %s | FileCheck %s
// RUN: %convopt --lower-pool-bwd --split-input-file %s | %mlir-verify -split-input-file

// F.max_pool2d(x, 3, 2) on [2,8,4,4]: one window that stops short of the
// input's end (torch-mlir's lowering is invalid IR here): a slice of the 3x3
// the window reads, no bounds check.
// CHECK-DAG: #[[READ:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-DAG: #[[TAPS:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @stops_short_k3s2
// CHECK-SAME: (%[[X:.*]]: tensor<2x8x4x4xf32>) -> (tensor<2x8x1x1xf32>, tensor<2x8x1x1xi64>)
// CHECK-DAG: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[TOP:.*]] = arith.constant 9223372036854775807 : i64
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [2, 8, 3, 3] [1, 1, 1, 1]
// CHECK: %[[V0:.*]] = linalg.fill ins(%[[NEGINF]] : f32)
// CHECK: %[[WIN:.*]] = tensor.empty() : tensor<3x3xf32>
// CHECK: %[[Y:.*]] = linalg.generic {indexing_maps = [#[[READ]], #[[TAPS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[SLICE]], %[[WIN]] : tensor<2x8x3x3xf32>, tensor<3x3xf32>) outs(%[[V0]] : tensor<2x8x1x1xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32, %[[ACCV:.*]]: f32):
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[ACCV]], %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[M]] : f32
// CHECK: %[[K0:.*]] = linalg.fill ins(%[[TOP]] : i64)
// CHECK: %[[KEYS:.*]] = linalg.generic {indexing_maps = [#[[READ]], #[[OUT]], #[[TAPS]], #[[OUT]]]
// CHECK-SAME: ins(%[[SLICE]], %[[Y]], %[[WIN]] : tensor<2x8x3x3xf32>, tensor<2x8x1x1xf32>, tensor<3x3xf32>) outs(%[[K0]] : tensor<2x8x1x1xi64>)
// CHECK-NEXT: ^bb0(%[[XV:.*]]: f32, %[[YV:.*]]: f32, %{{.*}}: f32, %[[ACC:.*]]: i64):
// CHECK-NOT: arith.cmpi ult
// CHECK: %[[FLAT:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT: %[[YNAN:.*]] = arith.cmpf uno, %[[YV]], %[[YV]] : f32
// CHECK-NEXT: %[[NEG:.*]] = arith.subi %[[ZERO]], %[[FLAT]] : i64
// CHECK-NEXT: %[[KEY:.*]] = arith.select %[[YNAN]], %[[NEG]], %[[FLAT]] : i64
// CHECK-NEXT: %[[EQ:.*]] = arith.cmpf oeq, %[[XV]], %[[YV]] : f32
// CHECK-NEXT: %[[XNAN:.*]] = arith.cmpf uno, %[[XV]], %[[XV]] : f32
// CHECK-NEXT: %[[MATCH:.*]] = arith.ori %[[EQ]], %[[XNAN]] : i1
// CHECK-NEXT: %[[CAND:.*]] = arith.select %[[MATCH]], %[[KEY]], %[[TOP]] : i64
// CHECK-NEXT: %[[MIN:.*]] = arith.minsi %[[ACC]], %[[CAND]] : i64
// CHECK-NEXT: linalg.yield %[[MIN]] : i64
// CHECK: %[[IDX:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[KEYS]], %[[Y]] : tensor<2x8x1x1xi64>, tensor<2x8x1x1xf32>)
// CHECK: return %[[Y]], %[[IDX]]
func.func @stops_short_k3s2(%x: !torch.vtensor<[2,8,4,4],f32>) -> (!torch.vtensor<[2,8,1,1],f32>, !torch.vtensor<[2,8,1,1],si64>) {
  %k0 = torch.constant.int 3
  %k1 = torch.constant.int 3
  %k = torch.prim.ListConstruct %k0, %k1 : (!torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 2
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 0
  %p1 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d0 = torch.constant.int 1
  %d1 = torch.constant.int 1
  %d = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
  %ceil = torch.constant.bool false
  %r0, %r1 = torch.aten.max_pool2d_with_indices %x, %k, %s, %p, %d, %ceil : !torch.vtensor<[2,8,4,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[2,8,1,1],f32>, !torch.vtensor<[2,8,1,1],si64>
  return %r0, %r1 : !torch.vtensor<[2,8,1,1],f32>, !torch.vtensor<[2,8,1,1],si64>
}

// -----

// ceil_mode, [2,3,13,5], window 5, stride 3 (torch-mlir: "dimension #1 to be
// 8, but found 5"): 4 x 1 windows; the last one overhangs the 13 rows, so the
// input is padded by one row of -inf and the rows are bounds-checked.
// CHECK-LABEL: func.func @ceil_13x5_k5s3
// CHECK: %[[P:.*]] = tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 0, 1, 0]
// CHECK: tensor.yield %{{.*}} : f32
// CHECK: } : tensor<2x3x13x5xf32> to tensor<2x3x14x5xf32>
// CHECK: %[[Y:.*]] = linalg.generic
// CHECK-SAME: ins(%[[P]], %{{.*}} : tensor<2x3x14x5xf32>, tensor<5x5xf32>) outs(%{{.*}} : tensor<2x3x4x1xf32>)
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[P]], %[[Y]], %{{.*}} : tensor<2x3x14x5xf32>, tensor<2x3x4x1xf32>, tensor<5x5xf32>) outs(%{{.*}} : tensor<2x3x4x1xi64>)
// CHECK: %[[ROW:.*]] = arith.addi
// CHECK-NEXT: %[[IN_ROWS:.*]] = arith.cmpi ult, %[[ROW]], %c13 : index
// CHECK: %[[MATCH:.*]] = arith.ori
// CHECK-NEXT: %{{.*}} = arith.andi %[[MATCH]], %[[IN_ROWS]] : i1
// CHECK: arith.minsi
// CHECK: return
func.func @ceil_13x5_k5s3(%x: !torch.vtensor<[2,3,13,5],f32>) -> (!torch.vtensor<[2,3,4,1],f32>, !torch.vtensor<[2,3,4,1],si64>) {
  %k0 = torch.constant.int 5
  %k1 = torch.constant.int 5
  %k = torch.prim.ListConstruct %k0, %k1 : (!torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 3
  %s1 = torch.constant.int 3
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 0
  %p1 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d0 = torch.constant.int 1
  %d1 = torch.constant.int 1
  %d = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
  %ceil = torch.constant.bool true
  %r0, %r1 = torch.aten.max_pool2d_with_indices %x, %k, %s, %p, %d, %ceil : !torch.vtensor<[2,3,13,5],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[2,3,4,1],f32>, !torch.vtensor<[2,3,4,1],si64>
  return %r0, %r1 : !torch.vtensor<[2,3,4,1],f32>, !torch.vtensor<[2,3,4,1],si64>
}

// -----

// Values alone (aten.max_pool1d), padding 1: pad with -inf, reduce with
// arith.maximumf (NaN propagates), no index arithmetic.
// CHECK-LABEL: func.func @values_1d_k3s2p1
// CHECK: %[[P:.*]] = tensor.pad %{{.*}} low[0, 0, 1] high[0, 0, 1]
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%[[P]], %{{.*}} : tensor<1x2x11xf32>, tensor<3xf32>) outs(%{{.*}} : tensor<1x2x5xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32, %[[ACCV:.*]]: f32):
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[ACCV]], %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[M]] : f32
func.func @values_1d_k3s2p1(%x: !torch.vtensor<[1,2,9],f32>) -> (!torch.vtensor<[1,2,5],f32>) {
  %k0 = torch.constant.int 3
  %k = torch.prim.ListConstruct %k0 : (!torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 2
  %s = torch.prim.ListConstruct %s0 : (!torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 1
  %p = torch.prim.ListConstruct %p0 : (!torch.int) -> !torch.list<int>
  %d0 = torch.constant.int 1
  %d = torch.prim.ListConstruct %d0 : (!torch.int) -> !torch.list<int>
  %ceil = torch.constant.bool false
  %r0 = torch.aten.max_pool1d %x, %k, %s, %p, %d, %ceil : !torch.vtensor<[1,2,9],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,2,5],f32>
  return %r0 : !torch.vtensor<[1,2,5],f32>
}

// -----

// Dynamic batch and spatial sizes, dilation 2 along the last dim, no
// padding, no ceil_mode: the windows never overhang (no pad, no bounds
// check); the output sizes are N - D*(K-1) and the flat index uses the
// input's dynamic sizes.
// CHECK-LABEL: func.func @dynamic_3d_dilation
// CHECK-SAME: (%[[X:.*]]: tensor<?x2x?x?x?xf32>) -> (tensor<?x2x?x?x?xf32>, tensor<?x2x?x?x?xi64>)
// CHECK-NOT: tensor.pad
// CHECK: %[[S:.*]] = tensor.extract_slice %[[X]]
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[S]], %{{.*}} : tensor<?x2x?x?x?xf32>, tensor<2x2x2xf32>)
// CHECK-NOT: arith.cmpi ult
// CHECK: linalg.yield
func.func @dynamic_3d_dilation(%x: !torch.vtensor<[?,2,?,?,?],f32>) -> (!torch.vtensor<[?,2,?,?,?],f32>, !torch.vtensor<[?,2,?,?,?],si64>) {
  %k0 = torch.constant.int 2
  %k1 = torch.constant.int 2
  %k2 = torch.constant.int 2
  %k = torch.prim.ListConstruct %k0, %k1, %k2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 1
  %s1 = torch.constant.int 1
  %s2 = torch.constant.int 1
  %s = torch.prim.ListConstruct %s0, %s1, %s2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 0
  %p1 = torch.constant.int 0
  %p2 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0, %p1, %p2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %d0 = torch.constant.int 1
  %d1 = torch.constant.int 1
  %d2 = torch.constant.int 2
  %d = torch.prim.ListConstruct %d0, %d1, %d2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %ceil = torch.constant.bool false
  %r0, %r1 = torch.aten.max_pool3d_with_indices %x, %k, %s, %p, %d, %ceil : !torch.vtensor<[?,2,?,?,?],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[?,2,?,?,?],f32>, !torch.vtensor<[?,2,?,?,?],si64>
  return %r0, %r1 : !torch.vtensor<[?,2,?,?,?],f32>, !torch.vtensor<[?,2,?,?,?],si64>
}
