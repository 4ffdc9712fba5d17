entry @k() {
  %cst_f32 = constant <f32: 1.500000e+00> : tile<4xf32>
  %cst_2_i32 = constant <i32: 2> : tile<4xi32>
  %0 = fpowi %cst_f32, %cst_2_i32 : tile<4xf32>, tile<4xi32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<8xf32>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %1 = insert %cst_f32, %cst_0_f32[%cst_1_i32] : tile<4xf32>, tile<8xf32>
  %2 = gdc_wait_tko -> token
  %3 = gdc_launch_dependents_tko token = %2 -> token
  %4 = memory_fence_alias_tko %3
  %5 = ftoi %cst_f32 signed  saturating : tile<4xf32> -> tile<4xi32>
  return
}
