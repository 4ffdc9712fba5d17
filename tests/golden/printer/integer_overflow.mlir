entry @k() {
  %cst_3_i32 = constant <i32: 3> : tile<4xi32>
  %0 = addi %cst_3_i32, %cst_3_i32 overflow<no_signed_wrap> : tile<4xi32>
  %1 = subi %cst_3_i32, %cst_3_i32 overflow<no_unsigned_wrap> : tile<4xi32>
  %2 = muli %cst_3_i32, %cst_3_i32 overflow<no_wrap> : tile<4xi32>
  %3 = shli %cst_3_i32, %cst_3_i32 overflow<no_wrap> : tile<4xi32>
  return
}
