cuda_tile.module @kernels {
  entry @bucket_max(%arg0: tile<ptr<i64>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<i64>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<i64>>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<i64>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0], strides = [1] : tile<i32> -> tensor_view<?xi64, strides=[1]>
    %assume_1 = assume div_by<16>, %arg3 : tile<ptr<i64>>
    %assume_2 = assume bounded<0, ?>, %arg4 : tile<i32>
    %tview_3 = make_tensor_view %assume_1, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xi64, strides=[1]>
    %assume_4 = assume div_by<16>, %arg6 : tile<ptr<i64>>
    %assume_5 = assume bounded<0, ?>, %arg7 : tile<i32>
    %tview_6 = make_tensor_view %assume_4, shape = [%assume_5], strides = [1] : tile<i32> -> tensor_view<?xi64, strides=[1]>
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %0 = make_token : token
    %1 = make_token : token
    %for:2 = for %loopIdx in (%cst_0_i32 to %arg9, step %cst_1_i32) : tile<i32> iter_values(%iterArg0 = %0, %iterArg1 = %1) -> (token, token) {
      %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
      %2 = muli %blockId_x, %arg9 : tile<i32>
      %3 = addi %2, %loopIdx : tile<i32>
      %cst_16_i32 = constant <i32: 16> : tile<i32>
      %4 = muli %3, %cst_16_i32 : tile<i32>
      %5 = iota : tile<16xi32>
      %reshape = reshape %4 : tile<i32> -> tile<1xi32>
      %bcast = broadcast %reshape : tile<1xi32> -> tile<16xi32>
      %6 = addi %5, %bcast : tile<16xi32>
      %reshape_7 = reshape %assume_5 : tile<i32> -> tile<1xi32>
      %bcast_8 = broadcast %reshape_7 : tile<1xi32> -> tile<16xi32>
      %7 = cmpi less_than %6, %bcast_8, signed : tile<16xi32> -> tile<16xi1>
      %pview = make_partition_view %tview_6 : partition_view<tile=(16), padding_value = zero, tensor_view<?xi64, strides=[1]>>
      %tile, %result_token = load_view_tko weak %pview[%3] : partition_view<tile=(16), padding_value = zero, tensor_view<?xi64, strides=[1]>>, tile<i32> -> tile<16xi64>, token
      %cst_5_i32 = constant <i32: 5> : tile<16xi32>
      %8 = remi %6, %cst_5_i32 signed : tile<16xi32>
      %9 = exti %8 signed : tile<16xi32> -> tile<16xi64>
      %10 = exti %assume_0 signed : tile<i32> -> tile<i64>
      %reshape_9 = reshape %10 : tile<i64> -> tile<1xi64>
      %bcast_10 = broadcast %reshape_9 : tile<1xi64> -> tile<16xi64>
      %11 = cmpi less_than %9, %bcast_10, unsigned : tile<16xi64> -> tile<16xi1>
      %12 = andi %7, %11 : tile<16xi1>
      %reshape_11 = reshape %assume : tile<ptr<i64>> -> tile<1xptr<i64>>
      %bcast_12 = broadcast %reshape_11 : tile<1xptr<i64>> -> tile<16xptr<i64>>
      %13 = offset %bcast_12, %9 : tile<16xptr<i64>>, tile<16xi64> -> tile<16xptr<i64>>
      %result, %result_token_13 = atomic_rmw_tko acq_rel device %13, max, %tile, %12 token=%iterArg0 : tile<16xptr<i64>>, tile<16xi64>, tile<16xi1> -> tile<16xi64>, token
      %cst_1_i32_14 = constant <i32: 1> : tile<16xi32>
      %cst_8_i32 = constant <i32: 8> : tile<16xi32>
      %14 = remi %6, %cst_8_i32 signed : tile<16xi32>
      %15 = shli %cst_1_i32_14, %14 : tile<16xi32>
      %16 = exti %15 signed : tile<16xi32> -> tile<16xi64>
      %cst_5_i32_15 = constant <i32: 5> : tile<16xi32>
      %17 = remi %6, %cst_5_i32_15 signed : tile<16xi32>
      %18 = exti %17 signed : tile<16xi32> -> tile<16xi64>
      %19 = exti %assume_2 signed : tile<i32> -> tile<i64>
      %reshape_16 = reshape %19 : tile<i64> -> tile<1xi64>
      %bcast_17 = broadcast %reshape_16 : tile<1xi64> -> tile<16xi64>
      %20 = cmpi less_than %18, %bcast_17, unsigned : tile<16xi64> -> tile<16xi1>
      %21 = andi %7, %20 : tile<16xi1>
      %reshape_18 = reshape %assume_1 : tile<ptr<i64>> -> tile<1xptr<i64>>
      %bcast_19 = broadcast %reshape_18 : tile<1xptr<i64>> -> tile<16xptr<i64>>
      %22 = offset %bcast_19, %18 : tile<16xptr<i64>>, tile<16xi64> -> tile<16xptr<i64>>
      %result_20, %result_token_21 = atomic_rmw_tko release tl_blk %22, or, %16, %21 token=%iterArg1 : tile<16xptr<i64>>, tile<16xi64>, tile<16xi1> -> tile<16xi64>, token
      continue %result_token_13, %result_token_21 : token, token
    }
    return
  }
}
