cuda_tile.module @kernels {
  entry @gather_rows(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<i32>>, %arg11: tile<i32>, %arg12: tile<i32>) {
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
    %pview = make_partition_view %tview_10 : partition_view<tile=(8), padding_value = zero, tensor_view<?xi32, strides=[1]>>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x] : partition_view<tile=(8), padding_value = zero, tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<8xi32>, token
    %reshape = reshape %tile : tile<8xi32> -> tile<8x1xi32>
    %cst_16_i32 = constant <i32: 16> : tile<i32>
    %0 = muli %blockId_y, %cst_16_i32 : tile<i32>
    %1 = iota : tile<16xi32>
    %reshape_11 = reshape %0 : tile<i32> -> tile<1xi32>
    %bcast = broadcast %reshape_11 : tile<1xi32> -> tile<16xi32>
    %2 = addi %1, %bcast : tile<16xi32>
    %reshape_12 = reshape %2 : tile<16xi32> -> tile<1x16xi32>
    %bcast_13 = broadcast %reshape : tile<8x1xi32> -> tile<8x16xi32>
    %bcast_14 = broadcast %reshape_12 : tile<1x16xi32> -> tile<8x16xi32>
    %3 = exti %bcast_13 signed : tile<8x16xi32> -> tile<8x16xi64>
    %4 = exti %assume_4 signed : tile<i32> -> tile<i64>
    %reshape_15 = reshape %4 : tile<i64> -> tile<1x1xi64>
    %bcast_16 = broadcast %reshape_15 : tile<1x1xi64> -> tile<8x16xi64>
    %5 = cmpi less_than %3, %bcast_16, unsigned : tile<8x16xi64> -> tile<8x16xi1>
    %6 = exti %assume_6 signed : tile<i32> -> tile<i64>
    %reshape_17 = reshape %6 : tile<i64> -> tile<1x1xi64>
    %bcast_18 = broadcast %reshape_17 : tile<1x1xi64> -> tile<8x16xi64>
    %7 = muli %3, %bcast_18 : tile<8x16xi64>
    %8 = exti %bcast_14 signed : tile<8x16xi32> -> tile<8x16xi64>
    %9 = exti %assume_5 signed : tile<i32> -> tile<i64>
    %reshape_19 = reshape %9 : tile<i64> -> tile<1x1xi64>
    %bcast_20 = broadcast %reshape_19 : tile<1x1xi64> -> tile<8x16xi64>
    %10 = cmpi less_than %8, %bcast_20, unsigned : tile<8x16xi64> -> tile<8x16xi1>
    %11 = andi %5, %10 : tile<8x16xi1>
    %12 = addi %7, %8 : tile<8x16xi64>
    %reshape_21 = reshape %assume_3 : tile<ptr<f32>> -> tile<1x1xptr<f32>>
    %bcast_22 = broadcast %reshape_21 : tile<1x1xptr<f32>> -> tile<8x16xptr<f32>>
    %13 = offset %bcast_22, %12 : tile<8x16xptr<f32>>, tile<8x16xi64> -> tile<8x16xptr<f32>>
    %cst_f32 = constant <f32: -1.500000e+00> : tile<8x16xf32>
    %result, %result_token_23 = load_ptr_tko weak %13, %11, %cst_f32 optimization_hints = <default = {latency = 3}> : tile<8x16xptr<f32>>, tile<8x16xi1>, tile<8x16xf32> -> tile<8x16xf32>, token
    %pview_24 = make_partition_view %tview : partition_view<tile=(8x16), tensor_view<?x?xf32, strides=[?,1]>>
    %14 = store_view_tko weak %result, %pview_24[%blockId_x, %blockId_y] : tile<8x16xf32>, partition_view<tile=(8x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
