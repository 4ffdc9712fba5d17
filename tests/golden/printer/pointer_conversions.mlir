entry @k(%arg0: tile<ptr<f32>>) {
  %0 = ptr_to_int %arg0 : tile<ptr<f32>> -> tile<i64>
  %1 = int_to_ptr %0 : tile<i64> -> tile<ptr<f32>>
  %2 = ptr_to_ptr %arg0 : tile<ptr<f32>> -> tile<ptr<i32>>
  return
}
