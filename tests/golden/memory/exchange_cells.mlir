cuda_tile.module @kernels {
  entry @exchange_cells(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<f32>>, %arg7: tile<i32>, %arg8: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %assume_1 = assume div_by<16>, %arg3 : tile<ptr<f32>>
    %assume_2 = assume bounded<0, ?>, %arg4 : tile<i32>
    %tview_3 = make_tensor_view %assume_1, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %assume_4 = assume div_by<16>, %arg6 : tile<ptr<f32>>
    %assume_5 = assume bounded<0, ?>, %arg7 : tile<i32>
    %tview_6 = make_tensor_view %assume_4, shape = [%assume_5], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %cst_16_i32 = constant <i32: 16> : tile<i32>
    %0 = muli %blockId_x, %cst_16_i32 : tile<i32>
    %1 = iota : tile<16xi32>
    %reshape = reshape %0 : tile<i32> -> tile<1xi32>
    %bcast = broadcast %reshape : tile<1xi32> -> tile<16xi32>
    %2 = addi %1, %bcast : tile<16xi32>
    %pview = make_partition_view %tview_6 : partition_view<tile=(16), padding_value = zero, tensor_view<?xf32, strides=[1]>>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x] : partition_view<tile=(16), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %3 = exti %2 signed : tile<16xi32> -> tile<16xi64>
    %4 = exti %assume_2 signed : tile<i32> -> tile<i64>
    %reshape_7 = reshape %4 : tile<i64> -> tile<1xi64>
    %bcast_8 = broadcast %reshape_7 : tile<1xi64> -> tile<16xi64>
    %5 = cmpi less_than %3, %bcast_8, unsigned : tile<16xi64> -> tile<16xi1>
    %reshape_9 = reshape %assume_1 : tile<ptr<f32>> -> tile<1xptr<f32>>
    %bcast_10 = broadcast %reshape_9 : tile<1xptr<f32>> -> tile<16xptr<f32>>
    %6 = offset %bcast_10, %3 : tile<16xptr<f32>>, tile<16xi64> -> tile<16xptr<f32>>
    %result, %result_token_11 = atomic_rmw_tko acquire device %6, xchg, %tile, %5 : tile<16xptr<f32>>, tile<16xf32>, tile<16xi1> -> tile<16xf32>, token
    %pview_12 = make_partition_view %tview : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %7 = store_view_tko weak %result, %pview_12[%blockId_x] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
