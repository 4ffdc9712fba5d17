cuda_tile.module @kernels {
  entry @scatter_permuted(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<i32>>, %arg7: tile<i32>, %arg8: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %assume_1 = assume div_by<16>, %arg3 : tile<ptr<f32>>
    %assume_2 = assume bounded<0, ?>, %arg4 : tile<i32>
    %tview_3 = make_tensor_view %assume_1, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %assume_4 = assume div_by<16>, %arg6 : tile<ptr<i32>>
    %assume_5 = assume bounded<0, ?>, %arg7 : tile<i32>
    %tview_6 = make_tensor_view %assume_4, shape = [%assume_5], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %cst_16_i32 = constant <i32: 16> : tile<i32>
    %0 = muli %blockId_x, %cst_16_i32 : tile<i32>
    %1 = iota : tile<16xi32>
    %reshape = reshape %0 : tile<i32> -> tile<1xi32>
    %bcast = broadcast %reshape : tile<1xi32> -> tile<16xi32>
    %2 = addi %1, %bcast : tile<16xi32>
    %cst_-1_i32 = constant <i32: -1> : tile<16xi32>
    %pview = make_partition_view %tview_6 : partition_view<tile=(16), padding_value = zero, tensor_view<?xi32, strides=[1]>>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x] : partition_view<tile=(16), padding_value = zero, tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<16xi32>, token
    %reshape_7 = reshape %assume_2 : tile<i32> -> tile<1xi32>
    %bcast_8 = broadcast %reshape_7 : tile<1xi32> -> tile<16xi32>
    %3 = cmpi less_than %2, %bcast_8, signed : tile<16xi32> -> tile<16xi1>
    %4 = select %3, %tile, %cst_-1_i32 : tile<16xi1>, tile<16xi32>
    %pview_9 = make_partition_view %tview_3 : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %tile_10, %result_token_11 = load_view_tko weak %pview_9[%blockId_x] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %5 = exti %4 signed : tile<16xi32> -> tile<16xi64>
    %6 = exti %assume_0 signed : tile<i32> -> tile<i64>
    %reshape_12 = reshape %6 : tile<i64> -> tile<1xi64>
    %bcast_13 = broadcast %reshape_12 : tile<1xi64> -> tile<16xi64>
    %7 = cmpi less_than %5, %bcast_13, unsigned : tile<16xi64> -> tile<16xi1>
    %reshape_14 = reshape %assume : tile<ptr<f32>> -> tile<1xptr<f32>>
    %bcast_15 = broadcast %reshape_14 : tile<1xptr<f32>> -> tile<16xptr<f32>>
    %8 = offset %bcast_15, %5 : tile<16xptr<f32>>, tile<16xi64> -> tile<16xptr<f32>>
    %9 = store_ptr_tko weak %8, %tile_10, %7 : tile<16xptr<f32>>, tile<16xf32>, tile<16xi1> -> token
    return
  }
}
