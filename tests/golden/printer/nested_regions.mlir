entry @k(%arg0: tile<i32>) {
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_f32 = constant <f32: 1.500000e+00> : tile<4xf32>
  %reshape = reshape %cst_f32 : tile<4xf32> -> tile<1x4xf32>
  %for = for %loopIdx in (%cst_0_i32 to %arg0, step %cst_1_i32) : tile<i32> iter_values(%iterArg0 = %reshape) -> (tile<1x4xf32>) {
    %0 = cmpi less_than %loopIdx, %cst_1_i32, signed : tile<i32> -> tile<i1>
    %1 = if %0 -> (tile<1x4xf32>) {
      %reshape_2 = reshape %iterArg0 : tile<1x4xf32> -> tile<4xf32>
      %reshape_3 = reshape %reshape_2 : tile<4xf32> -> tile<1x4xf32>
      yield %reshape_3 : tile<1x4xf32>
    } else {
      %reshape_2 = reshape %iterArg0 : tile<1x4xf32> -> tile<4x1xf32>
      %bcast_3 = broadcast %reshape_2 : tile<4x1xf32> -> tile<4x1xf32>
      yield %iterArg0 : tile<1x4xf32>
    }
    %reduce_0 = reduce %1 dim=1 identities=[0.000000e+00 : f32] : tile<1x4xf32> -> tile<1xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %2 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
      yield %2 : tile<f32>
    }
    %reshape_1 = reshape %reduce_0 : tile<1xf32> -> tile<1x1xf32>
    %bcast = broadcast %reshape_1 : tile<1x1xf32> -> tile<1x4xf32>
    continue %bcast : tile<1x4xf32>
  }
  %reduce = reduce %for dim=1 identities=[0.000000e+00 : f32] : tile<1x4xf32> -> tile<1xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %0 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
    yield %0 : tile<f32>
  }
  return
}
