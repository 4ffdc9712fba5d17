entry @k() {
  %cst_f32 = constant <f32: 1.500000e+00> : tile<4xf32>
  %0 = exp %cst_f32 rounding<approx> : tile<4xf32>
  %1 = tanh %cst_f32 rounding<approx> : tile<4xf32>
  %2 = sqrt %cst_f32 rounding<approx> flush_to_zero : tile<4xf32>
  %3 = exp2 %cst_f32 flush_to_zero : tile<4xf32>
  %4 = rsqrt %cst_f32 flush_to_zero : tile<4xf32>
  return
}
