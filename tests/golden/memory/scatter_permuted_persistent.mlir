cuda_tile.module @kernels {
  entry @scatter_permuted_persistent(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<i32>>, %arg7: tile<i32>, %arg8: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %assume_1 = assume div_by<16>, %arg3 : tile<ptr<f32>>
    %assume_2 = assume bounded<0, ?>, %arg4 : tile<i32>
    %tview_3 = make_tensor_view %assume_1, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %assume_4 = assume div_by<16>, %arg6 : tile<ptr<i32>>
    %assume_5 = assume bounded<0, ?>, %arg7 : tile<i32>
    %tview_6 = make_tensor_view %assume_4, shape = [%assume_5], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %cst_15_i32 = constant <i32: 15> : tile<i32>
    %0 = addi %assume_2, %cst_15_i32 : tile<i32>
    %cst_16_i32 = constant <i32: 16> : tile<i32>
    %1 = divi %0, %cst_16_i32 signed : tile<i32>
    %gridSize_x, %gridSize_y, %gridSize_z = get_num_tile_blocks : tile<i32>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %2 = make_token : token
    %for = for %loopIdx in (%blockId_x to %1, step %gridSize_x) : tile<i32> iter_values(%iterArg0 = %2) -> (token) {
      %cst_16_i32_7 = constant <i32: 16> : tile<i32>
      %3 = muli %loopIdx, %cst_16_i32_7 : tile<i32>
      %4 = iota : tile<16xi32>
      %reshape = reshape %3 : tile<i32> -> tile<1xi32>
      %bcast = broadcast %reshape : tile<1xi32> -> tile<16xi32>
      %5 = addi %4, %bcast : tile<16xi32>
      %cst_-1_i32 = constant <i32: -1> : tile<16xi32>
      %pview = make_partition_view %tview_6 : partition_view<tile=(16), padding_value = zero, tensor_view<?xi32, strides=[1]>>
      %tile, %result_token = load_view_tko weak %pview[%loopIdx] : partition_view<tile=(16), padding_value = zero, tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<16xi32>, token
      %reshape_8 = reshape %assume_2 : tile<i32> -> tile<1xi32>
      %bcast_9 = broadcast %reshape_8 : tile<1xi32> -> tile<16xi32>
      %6 = cmpi less_than %5, %bcast_9, signed : tile<16xi32> -> tile<16xi1>
      %7 = select %6, %tile, %cst_-1_i32 : tile<16xi1>, tile<16xi32>
      %pview_10 = make_partition_view %tview_3 : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
      %tile_11, %result_token_12 = load_view_tko weak %pview_10[%loopIdx] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
      %8 = exti %7 signed : tile<16xi32> -> tile<16xi64>
      %9 = exti %assume_0 signed : tile<i32> -> tile<i64>
      %reshape_13 = reshape %9 : tile<i64> -> tile<1xi64>
      %bcast_14 = broadcast %reshape_13 : tile<1xi64> -> tile<16xi64>
      %10 = cmpi less_than %8, %bcast_14, unsigned : tile<16xi64> -> tile<16xi1>
      %reshape_15 = reshape %assume : tile<ptr<f32>> -> tile<1xptr<f32>>
      %bcast_16 = broadcast %reshape_15 : tile<1xptr<f32>> -> tile<16xptr<f32>>
      %11 = offset %bcast_16, %8 : tile<16xptr<f32>>, tile<16xi64> -> tile<16xptr<f32>>
      %12 = store_ptr_tko weak %11, %tile_11, %10 token=%iterArg0 : tile<16xptr<f32>>, tile<16xf32>, tile<16xi1> -> token
      continue %12 : token
    }
    return
  }
}
