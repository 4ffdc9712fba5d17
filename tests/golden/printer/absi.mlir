entry @k() {
  %cst_3_i32 = constant <i32: 3> : tile<4xi32>
  %0 = absi %cst_3_i32 : tile<4xi32>
  return
}
