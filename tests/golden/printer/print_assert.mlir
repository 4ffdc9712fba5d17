entry @k(%arg0: tile<i32>) {
  %cst_f32 = constant <f32: 1.500000e+00> : tile<4xf32>
  %0 = print_tko "n=%d x=%f \22q\22 100%% \\ tab\09\0A", %arg0, %cst_f32 : tile<i32>, tile<4xf32> -> token
  %1 = print_tko "no args" token=%0 -> token
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %2 = cmpi greater_than %arg0, %cst_0_i32, signed : tile<i32> -> tile<i1>
  assert %2, "n must be > 0" : tile<i1>
  return
}
