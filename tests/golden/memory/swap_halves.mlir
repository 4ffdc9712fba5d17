cuda_tile.module @kernels {
  entry @swap_halves(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %assume_1 = assume bounded<0, ?>, %arg2 : tile<i32>
    %assume_2 = assume bounded<0, ?>, %arg3 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0, %assume_1], strides = [%assume_2, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %cst_2_i32 = constant <i32: 2> : tile<i32>
    %0 = muli %blockId_y, %cst_2_i32 : tile<i32>
    %pview = make_partition_view %tview : partition_view<tile=(2x8), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x, %0] : partition_view<tile=(2x8), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<2x8xf32>, token
    %cst_2_i32_3 = constant <i32: 2> : tile<i32>
    %1 = muli %blockId_y, %cst_2_i32_3 : tile<i32>
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %2 = addi %1, %cst_1_i32 : tile<i32>
    %pview_4 = make_partition_view %tview : partition_view<tile=(2x8), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %tile_5, %result_token_6 = load_view_tko weak %pview_4[%blockId_x, %2] : partition_view<tile=(2x8), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<2x8xf32>, token
    %3 = join_tokens %result_token, %result_token_6 : token
    %cst_2_i32_7 = constant <i32: 2> : tile<i32>
    %4 = muli %blockId_y, %cst_2_i32_7 : tile<i32>
    %pview_8 = make_partition_view %tview : partition_view<tile=(2x8), tensor_view<?x?xf32, strides=[?,1]>>
    %5 = store_view_tko weak %tile_5, %pview_8[%blockId_x, %4] token = %3 : tile<2x8xf32>, partition_view<tile=(2x8), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    %cst_2_i32_9 = constant <i32: 2> : tile<i32>
    %6 = muli %blockId_y, %cst_2_i32_9 : tile<i32>
    %cst_1_i32_10 = constant <i32: 1> : tile<i32>
    %7 = addi %6, %cst_1_i32_10 : tile<i32>
    %pview_11 = make_partition_view %tview : partition_view<tile=(2x8), tensor_view<?x?xf32, strides=[?,1]>>
    %8 = store_view_tko weak %tile, %pview_11[%blockId_x, %7] token = %5 : tile<2x8xf32>, partition_view<tile=(2x8), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
