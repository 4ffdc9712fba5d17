entry @k() {
  %cst_1_f32 = constant <f32: 1.000000e+00> : tile<8x4xf32>
  %cst_1_i32 = constant <i32: 1> : tile<8x4xi32>
  %reduce = reduce %cst_1_f32 dim=1 identities=[0.000000e+00 : f32] : tile<8x4xf32> -> tile<8xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %2 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
    yield %2 : tile<f32>
  }
  %reduce_0:2 = reduce %cst_1_f32, %cst_1_i32 dim=0 identities=[0xFF800000 : f32, 0 : i32] : tile<8x4xf32>, tile<8x4xi32> -> tile<4xf32>, tile<4xi32> 
  (%reduce_lhs0: tile<f32>, %reduce_rhs0: tile<f32>, %reduce_lhs1: tile<i32>, %reduce_rhs1: tile<i32>) {
    %2 = maxf %reduce_lhs0, %reduce_rhs0 : tile<f32>
    %3 = addi %reduce_lhs1, %reduce_rhs1 : tile<i32>
    yield %2, %3 : tile<f32>, tile<i32>
  }
  %0 = scan %cst_1_f32 dim=0 reverse=false identities=[1.000000e+00 : f32] : tile<8x4xf32> -> tile<8x4xf32> 
  (%arg0: tile<f32>, %arg1: tile<f32>) {
    %2 = mulf %arg0, %arg1  : tile<f32>
    yield %2 : tile<f32>
  }
  %1 = scan %cst_1_i32 dim=1 reverse=true identities=[0 : i32] : tile<8x4xi32> -> tile<8x4xi32> 
  (%arg0: tile<i32>, %arg1: tile<i32>) {
    %2 = addi %arg0, %arg1 : tile<i32>
    yield %2 : tile<i32>
  }
  return
}
