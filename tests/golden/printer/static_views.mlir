entry @k(%arg0: tile<ptr<f16>>) {
  %tview = make_tensor_view %arg0, shape = [128, 64], strides = [1, 128] : tensor_view<128x64xf16, strides=[1,128]>
  %pview = make_partition_view %tview : partition_view<tile=(64x32), padding_value = zero, tensor_view<128x64xf16, strides=[1,128]>, dim_map=[1, 0]>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %tile, %result_token = load_view_tko weak %pview[%cst_0_i32, %cst_1_i32] : partition_view<tile=(64x32), padding_value = zero, tensor_view<128x64xf16, strides=[1,128]>, dim_map=[1, 0]>, tile<i32> -> tile<64x32xf16>, token
  return
}
