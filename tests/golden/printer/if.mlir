entry @k(%arg0: tile<i32>) {
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %0 = cmpi equal %arg0, %cst_0_i32, signed : tile<i32> -> tile<i1>
  %cst_f32 = constant <f32: 1.500000e+00> : tile<4xf32>
  %1:2 = if %0 -> (tile<4xf32>, tile<4xf32>) {
    %2 = negf %cst_f32 : tile<4xf32>
    yield %2, %cst_f32 : tile<4xf32>, tile<4xf32>
  } else {
    %2 = absf %cst_f32 : tile<4xf32>
    yield %cst_f32, %2 : tile<4xf32>, tile<4xf32>
  }
  if %0 {
    %2 = addf %1#0, %1#1  : tile<4xf32>
  }
  return
}
