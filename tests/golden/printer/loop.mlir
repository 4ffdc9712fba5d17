entry @k(%arg0: tile<i32>) {
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_f32 = constant <f32: 1.500000e+00> : tile<4xf32>
  %0:2 = loop iter_values(%arg1 = %cst_0_i32, %arg2 = %cst_f32) : tile<i32>, tile<4xf32> -> tile<i32>, tile<4xf32> {
    %1 = cmpi greater_than_or_equal %arg1, %arg0, signed : tile<i32> -> tile<i1>
    if %1 {
      break %arg1, %arg2 : tile<i32>, tile<4xf32>
    } else {
    }
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %2 = addi %arg1, %cst_1_i32 : tile<i32>
    %3 = addf %arg2, %arg2  : tile<4xf32>
    continue %2, %3 : tile<i32>, tile<4xf32>
  }
  loop {
    break
  }
  return
}
