cuda_tile.module @kernels {
  entry @scatter_rows(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<i32>>, %arg11: tile<i32>, %arg12: tile<i32>) {
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
    %assume_8 = assume div_by<16>, %arg10 : tile<ptr<i32>>
    %assume_9 = assume bounded<0, ?>, %arg11 : tile<i32>
    %tview_10 = make_tensor_view %assume_8, shape = [%assume_9], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %cst_16_i32 = constant <i32: 16> : tile<i32>
    %0 = muli %blockId_x, %cst_16_i32 : tile<i32>
    %1 = iota : tile<16xi32>
    %reshape = reshape %0 : tile<i32> -> tile<1xi32>
    %bcast = broadcast %reshape : tile<1xi32> -> tile<16xi32>
    %2 = addi %1, %bcast : tile<16xi32>
    %reshape_11 = reshape %assume_4 : tile<i32> -> tile<1xi32>
    %bcast_12 = broadcast %reshape_11 : tile<1xi32> -> tile<16xi32>
    %pview = make_partition_view %tview_10 : partition_view<tile=(16), padding_value = zero, tensor_view<?xi32, strides=[1]>>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x] : partition_view<tile=(16), padding_value = zero, tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<16xi32>, token
    %reshape_13 = reshape %assume_4 : tile<i32> -> tile<1xi32>
    %bcast_14 = broadcast %reshape_13 : tile<1xi32> -> tile<16xi32>
    %3 = cmpi less_than %2, %bcast_14, signed : tile<16xi32> -> tile<16xi1>
    %4 = select %3, %tile, %bcast_12 : tile<16xi1>, tile<16xi32>
    %pview_15 = make_partition_view %tview_7 : partition_view<tile=(16x32), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %tile_16, %result_token_17 = load_view_tko weak %pview_15[%blockId_x, %blockId_y] : partition_view<tile=(16x32), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    %gsview = make_gather_scatter_view %tview : gather_scatter_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,1]>, sparse_dim=0>
    %cst_32_i32 = constant <i32: 32> : tile<i32>
    %5 = muli %blockId_y, %cst_32_i32 : tile<i32>
    %6 = store_view_tko weak %tile_16, %gsview[%4, %5] : tile<16x32xf32>, gather_scatter_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,1]>, sparse_dim=0>, tile<16xi32>, tile<i32> -> token
    return
  }
}
