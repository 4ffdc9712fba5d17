entry @k() {
  %cst_3_i32 = constant <i32: 3> : tile<4xi32>
  %0 = cmpi equal %cst_3_i32, %cst_3_i32, signed : tile<4xi32> -> tile<4xi1>
  %1 = cmpi equal %cst_3_i32, %cst_3_i32, unsigned : tile<4xi32> -> tile<4xi1>
  %2 = cmpi not_equal %cst_3_i32, %cst_3_i32, signed : tile<4xi32> -> tile<4xi1>
  %3 = cmpi not_equal %cst_3_i32, %cst_3_i32, unsigned : tile<4xi32> -> tile<4xi1>
  %4 = cmpi less_than %cst_3_i32, %cst_3_i32, signed : tile<4xi32> -> tile<4xi1>
  %5 = cmpi less_than %cst_3_i32, %cst_3_i32, unsigned : tile<4xi32> -> tile<4xi1>
  %6 = cmpi less_than_or_equal %cst_3_i32, %cst_3_i32, signed : tile<4xi32> -> tile<4xi1>
  %7 = cmpi less_than_or_equal %cst_3_i32, %cst_3_i32, unsigned : tile<4xi32> -> tile<4xi1>
  %8 = cmpi greater_than %cst_3_i32, %cst_3_i32, signed : tile<4xi32> -> tile<4xi1>
  %9 = cmpi greater_than %cst_3_i32, %cst_3_i32, unsigned : tile<4xi32> -> tile<4xi1>
  %10 = cmpi greater_than_or_equal %cst_3_i32, %cst_3_i32, signed : tile<4xi32> -> tile<4xi1>
  %11 = cmpi greater_than_or_equal %cst_3_i32, %cst_3_i32, unsigned : tile<4xi32> -> tile<4xi1>
  return
}
