entry @k() {
  %cst_2_f32 = constant <f32: 2.000000e+00> : tile<4x8xf32>
  %0 = permute %cst_2_f32 [1, 0] : tile<4x8xf32> -> tile<8x4xf32>
  %reshape = reshape %0 : tile<8x4xf32> -> tile<32xf32>
  %reshape_0 = reshape %reshape : tile<32xf32> -> tile<1x32xf32>
  %bcast = broadcast %reshape_0 : tile<1x32xf32> -> tile<2x32xf32>
  %1 = cat %cst_2_f32, %cst_2_f32 dim = 0 : tile<4x8xf32>, tile<4x8xf32> -> tile<8x8xf32>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %2 = extract %1[%cst_1_i32, %cst_0_i32] : tile<8x8xf32> -> tile<4x4xf32>
  %3 = iota : tile<16xi32>
  %4 = iota : tile<8xi64>
  return
}
