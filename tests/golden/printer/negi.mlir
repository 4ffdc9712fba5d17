entry @k() {
  %cst_3_i32 = constant <i32: 3> : tile<4xi32>
  %0 = negi %cst_3_i32 : tile<4xi32>
  %1 = negi %cst_3_i32 overflow<no_signed_wrap> : tile<4xi32>
  return
}
