entry @k(%arg0: tile<ptr<f32>>, %arg1: tile<i32>) {
  %tview = make_tensor_view %arg0, shape = [%arg1, 64], strides = [64, 1] : tile<i32> -> tensor_view<?x64xf32, strides=[64,1]>
  %sview = make_strided_view %tview : strided_view<tile=(16x64), traversal_strides=[2,1], padding_value = zero, tensor_view<?x64xf32, strides=[64,1]>>
  %gsview = make_gather_scatter_view %tview : gather_scatter_view<tile=(16x64), padding_value = nan, tensor_view<?x64xf32, strides=[64,1]>, sparse_dim=0>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %tile, %result_token = load_view_tko weak %sview[%cst_0_i32, %cst_0_i32] : strided_view<tile=(16x64), traversal_strides=[2,1], padding_value = zero, tensor_view<?x64xf32, strides=[64,1]>>, tile<i32> -> tile<16x64xf32>, token
  %0 = iota : tile<16xi32>
  %tile_0, %result_token_1 = load_view_tko weak %gsview[%0, %cst_0_i32] token = %result_token : gather_scatter_view<tile=(16x64), padding_value = nan, tensor_view<?x64xf32, strides=[64,1]>, sparse_dim=0>, tile<16xi32>, tile<i32> -> tile<16x64xf32>, token
  %1 = store_view_tko weak %tile_0, %sview[%cst_0_i32, %cst_0_i32] token = %result_token_1 : tile<16x64xf32>, strided_view<tile=(16x64), traversal_strides=[2,1], padding_value = zero, tensor_view<?x64xf32, strides=[64,1]>>, tile<i32> -> token
  return
}
