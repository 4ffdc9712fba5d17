cuda_tile.module @kernels {
  entry @scatter_rows_where(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<i32>>, %arg11: tile<i32>, %arg12: tile<i32>) {
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
    %cst_0_i32 = constant <i32: 0> : tile<8xi32>
    %0 = cmpi not_equal %tile, %cst_0_i32, signed : tile<8xi32> -> tile<8xi1>
    %reshape = reshape %0 : tile<8xi1> -> tile<8x1xi1>
    %1 = iota : tile<8xi32>
    %reshape_11 = reshape %1 : tile<8xi32> -> tile<8x1xi32>
    %2 = iota : tile<16xi32>
    %cst_1_i32 = constant <i32: 1> : tile<16xi32>
    %3 = addi %2, %cst_1_i32 : tile<16xi32>
    %reshape_12 = reshape %3 : tile<16xi32> -> tile<1x16xi32>
    %pview_13 = make_partition_view %tview_7 : partition_view<tile=(8x16), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %tile_14, %result_token_15 = load_view_tko weak %pview_13[%blockId_x, %blockId_y] : partition_view<tile=(8x16), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<8x16xf32>, token
    %bcast = broadcast %reshape : tile<8x1xi1> -> tile<8x16xi1>
    %bcast_16 = broadcast %reshape_11 : tile<8x1xi32> -> tile<8x16xi32>
    %bcast_17 = broadcast %reshape_12 : tile<1x16xi32> -> tile<8x16xi32>
    %cst_8_i32 = constant <i32: 8> : tile<i32>
    %4 = muli %blockId_x, %cst_8_i32 : tile<i32>
    %cst_16_i32 = constant <i32: 16> : tile<i32>
    %5 = muli %blockId_y, %cst_16_i32 : tile<i32>
    %6 = exti %bcast_16 signed : tile<8x16xi32> -> tile<8x16xi64>
    %cst_8_i64 = constant <i64: 8> : tile<8x16xi64>
    %7 = cmpi less_than %6, %cst_8_i64, unsigned : tile<8x16xi64> -> tile<8x16xi1>
    %8 = andi %bcast, %7 : tile<8x16xi1>
    %9 = exti %4 signed : tile<i32> -> tile<i64>
    %reshape_18 = reshape %9 : tile<i64> -> tile<1x1xi64>
    %bcast_19 = broadcast %reshape_18 : tile<1x1xi64> -> tile<8x16xi64>
    %10 = addi %6, %bcast_19 : tile<8x16xi64>
    %11 = exti %assume_0 signed : tile<i32> -> tile<i64>
    %reshape_20 = reshape %11 : tile<i64> -> tile<1x1xi64>
    %bcast_21 = broadcast %reshape_20 : tile<1x1xi64> -> tile<8x16xi64>
    %12 = cmpi less_than %10, %bcast_21, unsigned : tile<8x16xi64> -> tile<8x16xi1>
    %13 = andi %8, %12 : tile<8x16xi1>
    %14 = exti %assume_2 signed : tile<i32> -> tile<i64>
    %reshape_22 = reshape %14 : tile<i64> -> tile<1x1xi64>
    %bcast_23 = broadcast %reshape_22 : tile<1x1xi64> -> tile<8x16xi64>
    %15 = muli %10, %bcast_23 : tile<8x16xi64>
    %16 = exti %bcast_17 signed : tile<8x16xi32> -> tile<8x16xi64>
    %cst_16_i64 = constant <i64: 16> : tile<8x16xi64>
    %17 = cmpi less_than %16, %cst_16_i64, unsigned : tile<8x16xi64> -> tile<8x16xi1>
    %18 = andi %13, %17 : tile<8x16xi1>
    %19 = exti %5 signed : tile<i32> -> tile<i64>
    %reshape_24 = reshape %19 : tile<i64> -> tile<1x1xi64>
    %bcast_25 = broadcast %reshape_24 : tile<1x1xi64> -> tile<8x16xi64>
    %20 = addi %16, %bcast_25 : tile<8x16xi64>
    %21 = exti %assume_1 signed : tile<i32> -> tile<i64>
    %reshape_26 = reshape %21 : tile<i64> -> tile<1x1xi64>
    %bcast_27 = broadcast %reshape_26 : tile<1x1xi64> -> tile<8x16xi64>
    %22 = cmpi less_than %20, %bcast_27, unsigned : tile<8x16xi64> -> tile<8x16xi1>
    %23 = andi %18, %22 : tile<8x16xi1>
    %24 = addi %15, %20 : tile<8x16xi64>
    %reshape_28 = reshape %assume : tile<ptr<f32>> -> tile<1x1xptr<f32>>
    %bcast_29 = broadcast %reshape_28 : tile<1x1xptr<f32>> -> tile<8x16xptr<f32>>
    %25 = offset %bcast_29, %24 : tile<8x16xptr<f32>>, tile<8x16xi64> -> tile<8x16xptr<f32>>
    %26 = store_ptr_tko weak %25, %tile_14, %23 optimization_hints = <default = {latency = 2}> : tile<8x16xptr<f32>>, tile<8x16xf32>, tile<8x16xi1> -> token
    return
  }
}
