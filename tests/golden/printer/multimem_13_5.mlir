entry @k(%arg0: tile<ptr<f32, <multicast>>>, %arg1: tile<ptr<i32, <multicast>>>) {
  %tview = make_tensor_view %arg0, shape = [128], strides = [1] : tile<ptr<f32, <multicast>>> -> tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>
  %pview = make_partition_view %tview : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
  %tview_0 = make_tensor_view %arg1, shape = [128], strides = [1] : tile<ptr<i32, <multicast>>> -> tensor_view<128xi32, strides=[1], #cuda_tile.ptr_attr<multicast>>
  %pview_1 = make_partition_view %tview_0 : partition_view<tile=(64), tensor_view<128xi32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %reduced_values, %result_token = multimem_load_reduce_view_tko relaxed device %pview[%cst_1_i32]  : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<i32> -> tile<64xf32>, token
  %0 = multimem_reduce_view_tko release sys %pview, %reduced_values[%cst_1_i32] token = %result_token  : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xf32>, tile<i32>, token -> token
  %1 = multimem_store_view_tko weak %pview, %reduced_values[%cst_1_i32] token = %0 inbounds = [true] : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xf32>, tile<i32>, token -> token
  %reduced_values_2, %result_token_3 = multimem_load_reduce_view_tko acquire sys %pview_1[%cst_1_i32]  attributes {reduction = #cuda_tile.multimem_reduction_kind<umax>} : partition_view<tile=(64), tensor_view<128xi32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<i32> -> tile<64xi32>, token
  %2 = multimem_reduce_view_tko relaxed device %pview_1, %reduced_values_2[%cst_1_i32]  attributes {reduction = #cuda_tile.multimem_reduction_kind<xor>} : partition_view<tile=(64), tensor_view<128xi32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xi32>, tile<i32> -> token
  return
}
