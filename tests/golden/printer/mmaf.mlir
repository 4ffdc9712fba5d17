entry @k() {
  %cst_1_f16 = constant <f16: 1.000000e+00> : tile<16x16xf16>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<16x16xf32>
  %0 = mmaf %cst_1_f16, %cst_1_f16, %cst_0_f32 : tile<16x16xf16>, tile<16x16xf16>, tile<16x16xf32>
  %cst_1_f8E4M3FN = constant <f8E4M3FN: 1.000000e+00> : tile<16x32xf8E4M3FN>
  %cst_1_f8E4M3FN_0 = constant <f8E4M3FN: 1.000000e+00> : tile<32x16xf8E4M3FN>
  %1 = mmaf %cst_1_f8E4M3FN, %cst_1_f8E4M3FN_0, %cst_0_f32 fast_acc : tile<16x32xf8E4M3FN>, tile<32x16xf8E4M3FN>, tile<16x16xf32>
  return
}
