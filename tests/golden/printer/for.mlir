entry @k(%arg0: tile<i32>) {
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_f32 = constant <f32: 1.500000e+00> : tile<4xf32>
  %0 = make_token : token
  %for:2 = for %loopIdx in (%cst_0_i32 to %arg0, step %cst_1_i32) : tile<i32> iter_values(%iterArg0 = %cst_f32, %iterArg1 = %0) -> (tile<4xf32>, token) {
    %1 = addf %iterArg0, %iterArg0  : tile<4xf32>
    continue %1, %iterArg1 : tile<4xf32>, token
  }
  for %loopIdx in (%cst_0_i32 to %arg0, step %cst_1_i32) : tile<i32> {
    %1 = addf %for#0, %for#0  : tile<4xf32>
  }
  for unsigned %loopIdx in (%cst_0_i32 to %arg0, step %cst_1_i32) : tile<i32> {
  }
  return
}
