entry @k() {
  %cst_3_i32 = constant <i32: 3> : tile<4xi32>
  %cst_5_i32 = constant <i32: 5> : tile<4xi32>
  %0 = ori %cst_3_i32, %cst_5_i32 : tile<4xi32>
  return
}
