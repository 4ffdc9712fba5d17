cuda_tile.module @kernels {
  entry @scatter_reversed_where(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<i32>>, %arg7: tile<i32>, %arg8: tile<i32>) {
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
    %pview = make_partition_view %tview_6 : partition_view<tile=(16), padding_value = zero, tensor_view<?xi32, strides=[1]>>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x] : partition_view<tile=(16), padding_value = zero, tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<16xi32>, token
    %cst_0_i32 = constant <i32: 0> : tile<16xi32>
    %0 = cmpi not_equal %tile, %cst_0_i32, signed : tile<16xi32> -> tile<16xi1>
    %pview_7 = make_partition_view %tview_3 : partition_view<tile=(16), padding_value = zero, tensor_view<?xf32, strides=[1]>>
    %tile_8, %result_token_9 = load_view_tko weak %pview_7[%blockId_x] : partition_view<tile=(16), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %1 = iota : tile<16xi32>
    %cst_15_i32 = constant <i32: 15> : tile<16xi32>
    %2 = subi %cst_15_i32, %1 : tile<16xi32>
    %cst_16_i32 = constant <i32: 16> : tile<i32>
    %3 = muli %blockId_x, %cst_16_i32 : tile<i32>
    %4 = exti %2 signed : tile<16xi32> -> tile<16xi64>
    %cst_16_i64 = constant <i64: 16> : tile<16xi64>
    %5 = cmpi less_than %4, %cst_16_i64, unsigned : tile<16xi64> -> tile<16xi1>
    %6 = andi %0, %5 : tile<16xi1>
    %7 = exti %3 signed : tile<i32> -> tile<i64>
    %reshape = reshape %7 : tile<i64> -> tile<1xi64>
    %bcast = broadcast %reshape : tile<1xi64> -> tile<16xi64>
    %8 = addi %4, %bcast : tile<16xi64>
    %9 = exti %assume_0 signed : tile<i32> -> tile<i64>
    %reshape_10 = reshape %9 : tile<i64> -> tile<1xi64>
    %bcast_11 = broadcast %reshape_10 : tile<1xi64> -> tile<16xi64>
    %10 = cmpi less_than %8, %bcast_11, unsigned : tile<16xi64> -> tile<16xi1>
    %11 = andi %6, %10 : tile<16xi1>
    %reshape_12 = reshape %assume : tile<ptr<f32>> -> tile<1xptr<f32>>
    %bcast_13 = broadcast %reshape_12 : tile<1xptr<f32>> -> tile<16xptr<f32>>
    %12 = offset %bcast_13, %8 : tile<16xptr<f32>>, tile<16xi64> -> tile<16xptr<f32>>
    %13 = store_ptr_tko weak %12, %tile_8, %11 : tile<16xptr<f32>>, tile<16xf32>, tile<16xi1> -> token
    return
  }
}
