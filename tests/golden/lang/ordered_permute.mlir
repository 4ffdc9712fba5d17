cuda_tile.module @kernels {
  entry @ordered_permute(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<i32>>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<ptr<i32>>, %arg10: tile<i32>, %arg11: tile<i32>) {
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
    %0 = exti %tile signed : tile<16xi32> -> tile<16xi64>
    %1 = exti %assume_2 signed : tile<i32> -> tile<i64>
    %reshape = reshape %1 : tile<i64> -> tile<1xi64>
    %bcast = broadcast %reshape : tile<1xi64> -> tile<16xi64>
    %2 = cmpi less_than %0, %bcast, unsigned : tile<16xi64> -> tile<16xi1>
    %reshape_10 = reshape %assume_1 : tile<ptr<f32>> -> tile<1xptr<f32>>
    %bcast_11 = broadcast %reshape_10 : tile<1xptr<f32>> -> tile<16xptr<f32>>
    %3 = offset %bcast_11, %0 : tile<16xptr<f32>>, tile<16xi64> -> tile<16xptr<f32>>
    %cst_f32 = constant <f32: -3.000000e+00> : tile<16xf32>
    %result, %result_token_12 = load_ptr_tko acquire sys %3, %2, %cst_f32 : tile<16xptr<f32>>, tile<16xi1>, tile<16xf32> -> tile<16xf32>, token
    %cst_16_i32 = constant <i32: 16> : tile<i32>
    %4 = muli %blockId_x, %cst_16_i32 : tile<i32>
    %5 = iota : tile<16xi32>
    %reshape_13 = reshape %4 : tile<i32> -> tile<1xi32>
    %bcast_14 = broadcast %reshape_13 : tile<1xi32> -> tile<16xi32>
    %6 = addi %5, %bcast_14 : tile<16xi32>
    %cst_-1_i32 = constant <i32: -1> : tile<16xi32>
    %pview_15 = make_partition_view %tview_9 : partition_view<tile=(16), padding_value = zero, tensor_view<?xi32, strides=[1]>>
    %tile_16, %result_token_17 = load_view_tko relaxed device %pview_15[%blockId_x] : partition_view<tile=(16), padding_value = zero, tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<16xi32>, token
    %reshape_18 = reshape %assume_8 : tile<i32> -> tile<1xi32>
    %bcast_19 = broadcast %reshape_18 : tile<1xi32> -> tile<16xi32>
    %7 = cmpi less_than %6, %bcast_19, signed : tile<16xi32> -> tile<16xi1>
    %8 = select %7, %tile_16, %cst_-1_i32 : tile<16xi1>, tile<16xi32>
    %9 = exti %8 signed : tile<16xi32> -> tile<16xi64>
    %10 = exti %assume_0 signed : tile<i32> -> tile<i64>
    %reshape_20 = reshape %10 : tile<i64> -> tile<1xi64>
    %bcast_21 = broadcast %reshape_20 : tile<1xi64> -> tile<16xi64>
    %11 = cmpi less_than %9, %bcast_21, unsigned : tile<16xi64> -> tile<16xi1>
    %reshape_22 = reshape %assume : tile<ptr<f32>> -> tile<1xptr<f32>>
    %bcast_23 = broadcast %reshape_22 : tile<1xptr<f32>> -> tile<16xptr<f32>>
    %12 = offset %bcast_23, %9 : tile<16xptr<f32>>, tile<16xi64> -> tile<16xptr<f32>>
    %13 = store_ptr_tko release tl_blk %12, %result, %11 optimization_hints = <default = {latency = 4}> : tile<16xptr<f32>>, tile<16xf32>, tile<16xi1> -> token
    return
  }
}
