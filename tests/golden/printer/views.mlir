entry @k(%arg0: tile<ptr<f32>>, %arg1: tile<i32>) {
  %tview = make_tensor_view %arg0, shape = [%arg1, 64], strides = [64, 1] : tile<i32> -> tensor_view<?x64xf32, strides=[64,1]>
  %pview = make_partition_view %tview : partition_view<tile=(16x64), tensor_view<?x64xf32, strides=[64,1]>>
  %pview_0 = make_partition_view %tview : partition_view<tile=(16x64), padding_value = neg_inf, tensor_view<?x64xf32, strides=[64,1]>>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %tile, %result_token = load_view_tko weak %pview[%cst_0_i32, %cst_0_i32] : partition_view<tile=(16x64), tensor_view<?x64xf32, strides=[64,1]>>, tile<i32> -> tile<16x64xf32>, token
  %tile_1, %result_token_2 = load_view_tko relaxed device %pview_0[%cst_0_i32, %cst_0_i32] token = %result_token optimization_hints = <sm_90 = {allow_tma = false, latency = 3}> : partition_view<tile=(16x64), padding_value = neg_inf, tensor_view<?x64xf32, strides=[64,1]>>, tile<i32> -> tile<16x64xf32>, token
  %0 = addf %tile, %tile_1  : tile<16x64xf32>
  %1 = store_view_tko weak %0, %pview[%cst_0_i32, %cst_0_i32] token = %result_token_2 : tile<16x64xf32>, partition_view<tile=(16x64), tensor_view<?x64xf32, strides=[64,1]>>, tile<i32> -> token
  %2 = store_view_tko release tl_blk %tile, %pview[%cst_0_i32, %cst_0_i32] : tile<16x64xf32>, partition_view<tile=(16x64), tensor_view<?x64xf32, strides=[64,1]>>, tile<i32> -> token
  %3:2 = get_tensor_shape %tview : tensor_view<?x64xf32, strides=[64,1]> -> tile<i32>
  %4:2 = get_index_space_shape %pview : partition_view<tile=(16x64), tensor_view<?x64xf32, strides=[64,1]>> -> tile<i64>
  return
}
