entry @k(%arg0: tile<ptr<f32>>, %arg1: tile<i32>) {
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_1 = assume bounded<-4, 100>, %arg1 : tile<i32>
  %cst_8_i32 = constant <i32: 8> : tile<4x8xi32>
  %assume_cst_8_i32 = assume div_by<4, every 2 along 1>, %cst_8_i32 : tile<4x8xi32>
  %assume_cst_8_i32_2 = assume same_elements<[1, 4]>, %cst_8_i32 : tile<4x8xi32>
  %reshape = reshape %arg1 : tile<i32> -> tile<1xi32>
  %assume_reshape = assume bounded<?, 7>, %reshape : tile<1xi32>
  return
}
