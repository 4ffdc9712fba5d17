entry @k(%arg0: tile<ptr<f32>>, %arg1: tile<i32>) {
  %tview = make_tensor_view %arg0, shape = [%arg1, 64], strides = [64, 1] : tile<i32> -> tensor_view<?x64xf32, strides=[64,1]>
  %pview = make_partition_view %tview : partition_view<tile=(16x64), tensor_view<?x64xf32, strides=[64,1]>>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %tile, %result_token = load_view_tko weak %pview[%cst_0_i32, %cst_0_i32] inbounds = [true, false] : partition_view<tile=(16x64), tensor_view<?x64xf32, strides=[64,1]>>, tile<i32> -> tile<16x64xf32>, token
  %0 = store_view_tko weak %tile, %pview[%cst_0_i32, %cst_0_i32] inbounds = [true, true] : tile<16x64xf32>, partition_view<tile=(16x64), tensor_view<?x64xf32, strides=[64,1]>>, tile<i32> -> token
  return
}
