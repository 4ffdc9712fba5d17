entry @k() {
  %cst_42_i32 = constant <i32: 42> : tile<i32>
  %cst_-7_i32 = constant <i32: -7> : tile<4xi32>
  %cst_1_i64 = constant <i64: 1> : tile<8xi64>
  %cst_0_i16 = constant <i16: 0> : tile<i16>
  %cst_-1_i8 = constant <i8: -1> : tile<i8>
  %true = constant <i1: true> : tile<4xi1>
  %false = constant <i1: false> : tile<i1>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<f32>
  %cst_f32 = constant <f32: -0.000000e+00> : tile<f32>
  %cst_1_f32 = constant <f32: 1.000000e+00> : tile<f32>
  %cst_f32_0 = constant <f32: -2.500000e+00> : tile<2xf32>
  %cst_f32_1 = constant <f32: 1.000000e-01> : tile<f32>
  %cst_f32_2 = constant <f32: 3.14159274> : tile<f32>
  %cst_f32_3 = constant <f32: 1.000000e-10> : tile<f32>
  %cst_123456792_f32 = constant <f32: 0x4CEB79A3> : tile<f32>
  %cst_f32_4 = constant <f32: 0xFF800000> : tile<f32>
  %cst_NaN_f32 = constant <f32: 0x7FC00000> : tile<f32>
  %cst_f64 = constant <f64: 1.000000e-01> : tile<f64>
  %cst_f16 = constant <f16: 9.997550e-02> : tile<f16>
  %cst_3_bf16 = constant <bf16: 3.000000e+00> : tile<bf16>
  %cst_65504_f16 = constant <f16: 6.550400e+04> : tile<f16>
  %cst_f32_5 = constant <f32: [[1.000000e+00, 2.000000e+00], [4.000000e+00, 5.500000e+00]]> : tile<2x2xf32>
  %cst_i8 = constant <i8: [1, 2, -2, 4]> : tile<4xi8>
  %cst_i1 = constant <i1: [true, false, true, false, true, true, false, false]> : tile<8xi1>
  return
}
