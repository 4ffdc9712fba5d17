entry @k() {
  %cst_3_i32 = constant <i32: 3> : tile<4xi32>
  %0 = maxi %cst_3_i32, %cst_3_i32 signed : tile<4xi32>
  %1 = mini %cst_3_i32, %cst_3_i32 signed : tile<4xi32>
  %2 = remi %cst_3_i32, %cst_3_i32 signed : tile<4xi32>
  %3 = shri %cst_3_i32, %cst_3_i32 signed : tile<4xi32>
  %4 = maxi %cst_3_i32, %cst_3_i32 unsigned : tile<4xi32>
  %5 = mini %cst_3_i32, %cst_3_i32 unsigned : tile<4xi32>
  %6 = remi %cst_3_i32, %cst_3_i32 unsigned : tile<4xi32>
  %7 = shri %cst_3_i32, %cst_3_i32 unsigned : tile<4xi32>
  %8 = divi %cst_3_i32, %cst_3_i32 signed : tile<4xi32>
  %9 = divi %cst_3_i32, %cst_3_i32 unsigned rounding<positive_inf> : tile<4xi32>
  %10 = divi %cst_3_i32, %cst_3_i32 signed rounding<negative_inf> : tile<4xi32>
  return
}
