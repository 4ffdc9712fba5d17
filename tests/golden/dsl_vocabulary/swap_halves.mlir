cuda_tile.module @kernels {
  entry @swap_halves(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %assume_1 = assume div_by<16>, %arg3 : tile<ptr<f32>>
    %assume_2 = assume bounded<0, ?>, %arg4 : tile<i32>
    %tview_3 = make_tensor_view %assume_1, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %cst_2_i32 = constant <i32: 2> : tile<i32>
    %0 = muli %blockId_x, %cst_2_i32 : tile<i32>
    %pview = make_partition_view %tview_3 : partition_view<tile=(16), padding_value = zero, tensor_view<?xf32, strides=[1]>>
    %tile, %result_token = load_view_tko weak %pview[%0] : partition_view<tile=(16), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %cst_2_i32_4 = constant <i32: 2> : tile<i32>
    %1 = muli %blockId_x, %cst_2_i32_4 : tile<i32>
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %2 = addi %1, %cst_1_i32 : tile<i32>
    %pview_5 = make_partition_view %tview_3 : partition_view<tile=(16), padding_value = zero, tensor_view<?xf32, strides=[1]>>
    %tile_6, %result_token_7 = load_view_tko weak %pview_5[%2] : partition_view<tile=(16), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %3 = cat %tile_6, %tile dim = 0 : tile<16xf32>, tile<16xf32> -> tile<32xf32>
    %cst_1_i32_8 = constant <i32: 1> : tile<i32>
    %4 = extract %3[%cst_1_i32_8] : tile<32xf32> -> tile<8xf32>
    %reshape = reshape %4 : tile<8xf32> -> tile<1x8xf32>
    %reshape_9 = reshape %3 : tile<32xf32> -> tile<4x8xf32>
    %bcast = broadcast %reshape : tile<1x8xf32> -> tile<4x8xf32>
    %5 = addf %reshape_9, %bcast  : tile<4x8xf32>
    %reshape_10 = reshape %5 : tile<4x8xf32> -> tile<32xf32>
    %pview_11 = make_partition_view %tview : partition_view<tile=(32), tensor_view<?xf32, strides=[1]>>
    %6 = store_view_tko weak %reshape_10, %pview_11[%blockId_x] : tile<32xf32>, partition_view<tile=(32), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
