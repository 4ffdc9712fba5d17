cuda_tile.module @kernels {
  entry @fp8_matmul_fast_acc(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f8E4M3FN>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<f8E4M3FN>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %assume_1 = assume bounded<0, ?>, %arg2 : tile<i32>
    %assume_2 = assume bounded<0, ?>, %arg3 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0, %assume_1], strides = [%assume_2, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %assume_3 = assume div_by<16>, %arg5 : tile<ptr<f8E4M3FN>>
    %assume_4 = assume bounded<0, ?>, %arg6 : tile<i32>
    %assume_5 = assume bounded<0, ?>, %arg7 : tile<i32>
    %assume_6 = assume bounded<0, ?>, %arg8 : tile<i32>
    %tview_7 = make_tensor_view %assume_3, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xf8E4M3FN, strides=[?,1]>
    %assume_8 = assume div_by<16>, %arg10 : tile<ptr<f8E4M3FN>>
    %assume_9 = assume bounded<0, ?>, %arg11 : tile<i32>
    %assume_10 = assume bounded<0, ?>, %arg12 : tile<i32>
    %assume_11 = assume bounded<0, ?>, %arg13 : tile<i32>
    %tview_12 = make_tensor_view %assume_8, shape = [%assume_9, %assume_10], strides = [%assume_11, 1] : tile<i32> -> tensor_view<?x?xf8E4M3FN, strides=[?,1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<16x16xf32>
    %pview = make_partition_view %tview_12 : partition_view<tile=(32x16), padding_value = zero, tensor_view<?x?xf8E4M3FN, strides=[?,1]>>
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %tile, %result_token = load_view_tko weak %pview[%cst_0_i32, %blockId_y] : partition_view<tile=(32x16), padding_value = zero, tensor_view<?x?xf8E4M3FN, strides=[?,1]>>, tile<i32> -> tile<32x16xf8E4M3FN>, token
    %pview_13 = make_partition_view %tview_7 : partition_view<tile=(16x32), padding_value = zero, tensor_view<?x?xf8E4M3FN, strides=[?,1]>>
    %cst_0_i32_14 = constant <i32: 0> : tile<i32>
    %tile_15, %result_token_16 = load_view_tko weak %pview_13[%blockId_x, %cst_0_i32_14] : partition_view<tile=(16x32), padding_value = zero, tensor_view<?x?xf8E4M3FN, strides=[?,1]>>, tile<i32> -> tile<16x32xf8E4M3FN>, token
    %0 = mmaf %tile_15, %tile, %cst_0_f32 fast_acc : tile<16x32xf8E4M3FN>, tile<32x16xf8E4M3FN>, tile<16x16xf32>
    %pview_17 = make_partition_view %tview : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    %1 = store_view_tko weak %0, %pview_17[%blockId_x, %blockId_y] : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
