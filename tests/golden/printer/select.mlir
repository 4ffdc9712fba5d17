entry @k() {
  %cst_f32 = constant <f32: 1.500000e+00> : tile<4xf32>
  %0 = cmpf less_than ordered %cst_f32, %cst_f32 : tile<4xf32> -> tile<4xi1>
  %1 = select %0, %cst_f32, %cst_f32 : tile<4xi1>, tile<4xf32>
  return
}
