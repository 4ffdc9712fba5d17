entry @k() {
  %cst_f32 = constant <f32: 1.500000e+00> : tile<4xf32>
  %0 = addf %cst_f32, %cst_f32 rounding<zero> flush_to_zero : tile<4xf32>
  %1 = subf %cst_f32, %cst_f32 rounding<negative_inf> : tile<4xf32>
  %2 = mulf %cst_f32, %cst_f32 rounding<positive_inf> : tile<4xf32>
  %3 = divf %cst_f32, %cst_f32 rounding<approx> flush_to_zero : tile<4xf32>
  %4 = maxf %cst_f32, %cst_f32 flush_to_zero propagate_nan : tile<4xf32>
  %5 = minf %cst_f32, %cst_f32 propagate_nan : tile<4xf32>
  return
}
