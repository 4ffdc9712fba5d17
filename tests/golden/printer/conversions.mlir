entry @k() {
  %cst_f32 = constant <f32: 1.500000e+00> : tile<4xf32>
  %0 = ftoi %cst_f32 signed  : tile<4xf32> -> tile<4xi32>
  %1 = ftoi %cst_f32 unsigned  : tile<4xf32> -> tile<4xi16>
  %2 = itof %0 signed  : tile<4xi32> -> tile<4xf16>
  %3 = itof %0 unsigned  : tile<4xi32> -> tile<4xf32>
  %4 = exti %0 signed : tile<4xi32> -> tile<4xi64>
  %5 = trunci %0 : tile<4xi32> -> tile<4xi8>
  %6 = exti %5 unsigned : tile<4xi8> -> tile<4xi32>
  %7 = trunci %0 overflow<no_wrap> : tile<4xi32> -> tile<4xi16>
  %8 = ftof %cst_f32  : tile<4xf32> -> tile<4xf16>
  %9 = ftof %cst_f32  : tile<4xf32> -> tile<4xbf16>
  %10 = ftof %9  : tile<4xbf16> -> tile<4xf32>
  %11 = bitcast %cst_f32 : tile<4xf32> -> tile<4xi32>
  return
}
