entry @k() {
  %cst_f32 = constant <f32: 1.500000e+00> : tile<4xf32>
  %0 = cos %cst_f32 : tile<4xf32>
  return
}
