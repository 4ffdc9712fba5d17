entry @k() {
  %cst_1_f8E4M3FN = constant <f8E4M3FN: 1.000000e+00> : tile<16x64xf8E4M3FN>
  %cst_1_f8E4M3FN_0 = constant <f8E4M3FN: 1.000000e+00> : tile<64x16xf8E4M3FN>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<16x16xf32>
  %cst_1_f8E8M0FNU = constant <f8E8M0FNU: 1.000000e+00> : tile<16x2xf8E8M0FNU>
  %cst_1_f8E8M0FNU_1 = constant <f8E8M0FNU: 1.000000e+00> : tile<2x16xf8E8M0FNU>
  %0 = mmaf_scaled %cst_1_f8E4M3FN, %cst_1_f8E4M3FN_0, %cst_0_f32, %cst_1_f8E8M0FNU, %cst_1_f8E8M0FNU_1 : tile<16x64xf8E4M3FN>, tile<64x16xf8E4M3FN>, tile<16x16xf32>, tile<16x2xf8E8M0FNU>, tile<2x16xf8E8M0FNU>
  return
}
