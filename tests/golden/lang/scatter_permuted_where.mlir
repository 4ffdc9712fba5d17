cuda_tile.module @kernels {
  entry @scatter_permuted_where(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<i32>>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<ptr<i32>>, %arg10: tile<i32>, %arg11: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %assume_1 = assume div_by<16>, %arg3 : tile<ptr<f32>>
    %assume_2 = assume bounded<0, ?>, %arg4 : tile<i32>
    %tview_3 = make_tensor_view %assume_1, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %assume_4 = assume div_by<16>, %arg6 : tile<ptr<i32>>
    %assume_5 = assume bounded<0, ?>, %arg7 : tile<i32>
    %tview_6 = make_tensor_view %assume_4, shape = [%assume_5], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %assume_7 = assume div_by<16>, %arg9 : tile<ptr<i32>>
    %assume_8 = assume bounded<0, ?>, %arg10 : tile<i32>
    %tview_9 = make_tensor_view %assume_7, shape = [%assume_8], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %pview = make_partition_view %tview_6 : partition_view<tile=(16), padding_value = zero, tensor_view<?xi32, strides=[1]>>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x] : partition_view<tile=(16), padding_value = zero, tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<16xi32>, token
    %pview_10 = make_partition_view %tview_9 : partition_view<tile=(16), padding_value = zero, tensor_view<?xi32, strides=[1]>>
    %tile_11, %result_token_12 = load_view_tko weak %pview_10[%blockId_x] : partition_view<tile=(16), padding_value = zero, tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<16xi32>, token
    %cst_0_i32 = constant <i32: 0> : tile<16xi32>
    %0 = cmpi not_equal %tile_11, %cst_0_i32, signed : tile<16xi32> -> tile<16xi1>
    %pview_13 = make_partition_view %tview_3 : partition_view<tile=(16), padding_value = zero, tensor_view<?xf32, strides=[1]>>
    %tile_14, %result_token_15 = load_view_tko weak %pview_13[%blockId_x] : partition_view<tile=(16), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %1 = exti %tile signed : tile<16xi32> -> tile<16xi64>
    %2 = exti %assume_0 signed : tile<i32> -> tile<i64>
    %reshape = reshape %2 : tile<i64> -> tile<1xi64>
    %bcast = broadcast %reshape : tile<1xi64> -> tile<16xi64>
    %3 = cmpi less_than %1, %bcast, unsigned : tile<16xi64> -> tile<16xi1>
    %4 = andi %0, %3 : tile<16xi1>
    %reshape_16 = reshape %assume : tile<ptr<f32>> -> tile<1xptr<f32>>
    %bcast_17 = broadcast %reshape_16 : tile<1xptr<f32>> -> tile<16xptr<f32>>
    %5 = offset %bcast_17, %1 : tile<16xptr<f32>>, tile<16xi64> -> tile<16xptr<f32>>
    %6 = store_ptr_tko weak %5, %tile_14, %4 : tile<16xptr<f32>>, tile<16xf32>, tile<16xi1> -> token
    return
  }
}
