cuda_tile.module @kernels {
  entry @relaxed_accumulate(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %assume_1 = assume bounded<0, ?>, %arg2 : tile<i32>
    %assume_2 = assume bounded<0, ?>, %arg3 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0, %assume_1], strides = [%assume_2, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %assume_3 = assume div_by<16>, %arg5 : tile<ptr<f32>>
    %assume_4 = assume bounded<0, ?>, %arg6 : tile<i32>
    %assume_5 = assume bounded<0, ?>, %arg7 : tile<i32>
    %assume_6 = assume bounded<0, ?>, %arg8 : tile<i32>
    %tview_7 = make_tensor_view %assume_3, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %pview = make_partition_view %tview : partition_view<tile=(8x16), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %tile, %result_token = load_view_tko relaxed tl_blk %pview[%blockId_x, %blockId_y] : partition_view<tile=(8x16), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<8x16xf32>, token
    %pview_8 = make_partition_view %tview_7 : partition_view<tile=(8x16), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %tile_9, %result_token_10 = load_view_tko weak %pview_8[%blockId_x, %blockId_y] : partition_view<tile=(8x16), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<8x16xf32>, token
    %0 = addf %tile, %tile_9  : tile<8x16xf32>
    %pview_11 = make_partition_view %tview : partition_view<tile=(8x16), tensor_view<?x?xf32, strides=[?,1]>>
    %1 = store_view_tko relaxed sys %0, %pview_11[%blockId_x, %blockId_y] token = %result_token : tile<8x16xf32>, partition_view<tile=(8x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
