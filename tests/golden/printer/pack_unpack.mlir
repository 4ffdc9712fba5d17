entry @k() {
  %cst_f32 = constant <f32: 1.500000e+00> : tile<4xf32>
  %0 = pack %cst_f32 : tile<4xf32> -> tile<16xi8>
  %1 = unpack %0 : tile<16xi8> -> tile<4xf32>
  return
}
