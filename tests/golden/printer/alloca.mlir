entry @k() {
  %0 = alloca num_elem = 64, alignment = 16 : tile<ptr<f32>>
  %1 = alloca num_elem = 8, alignment = 4 global : tile<ptr<i32>>
  return
}
