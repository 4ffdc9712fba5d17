entry @k() {
  %cst_f32 = constant <f32: 1.500000e+00> : tile<4xf32>
  %0 = fma %cst_f32, %cst_f32, %cst_f32  : tile<4xf32>
  %1 = fma %cst_f32, %cst_f32, %cst_f32 rounding<zero> flush_to_zero : tile<4xf32>
  return
}
