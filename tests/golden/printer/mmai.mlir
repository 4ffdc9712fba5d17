entry @k() {
  %cst_1_i8 = constant <i8: 1> : tile<16x32xi8>
  %cst_0_i32 = constant <i32: 0> : tile<16x16xi32>
  %cst_2_i8 = constant <i8: 2> : tile<32x16xi8>
  %0 = mmai %cst_1_i8, %cst_2_i8, %cst_0_i32 signed unsigned : tile<16x32xi8>, tile<32x16xi8>, tile<16x16xi32>
  return
}
