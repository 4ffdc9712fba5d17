entry @k(%arg0: tile<ptr<f32>>, %arg1: tile<i32>) {
  %tview = make_tensor_view %arg0, shape = [%arg1, 64], strides = [64, 1] : tile<i32> -> tensor_view<?x64xf32, strides=[64,1]>
  %pview = make_partition_view %tview : partition_view<tile=(16x64), tensor_view<?x64xf32, strides=[64,1]>>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_1_f32 = constant <f32: 1.000000e+00> : tile<16x64xf32>
  %0 = atomic_red_view_tko relaxed device %pview[%cst_0_i32, %cst_0_i32], addf, %cst_1_f32 : tile<16x64xf32>, partition_view<tile=(16x64), tensor_view<?x64xf32, strides=[64,1]>>, tile<i32> -> token
  %1 = atomic_red_view_tko relaxed tl_blk %pview[%cst_0_i32, %cst_0_i32], addf, %cst_1_f32 token = %0 : tile<16x64xf32>, partition_view<tile=(16x64), tensor_view<?x64xf32, strides=[64,1]>>, tile<i32> -> token
  return
}
