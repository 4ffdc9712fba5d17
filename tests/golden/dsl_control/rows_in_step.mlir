cuda_tile.module @kernels {
  entry @rows_in_step(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<ptr<i32>>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<ptr<f32>>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>, %arg15: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %assume_1 = assume bounded<0, ?>, %arg2 : tile<i32>
    %assume_2 = assume bounded<0, ?>, %arg3 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0, %assume_1], strides = [%assume_2, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %assume_3 = assume div_by<16>, %arg5 : tile<ptr<f32>>
    %assume_4 = assume bounded<0, ?>, %arg6 : tile<i32>
    %tview_5 = make_tensor_view %assume_3, shape = [%assume_4], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %assume_6 = assume div_by<16>, %arg8 : tile<ptr<i32>>
    %assume_7 = assume bounded<0, ?>, %arg9 : tile<i32>
    %tview_8 = make_tensor_view %assume_6, shape = [%assume_7], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %assume_9 = assume div_by<16>, %arg11 : tile<ptr<f32>>
    %assume_10 = assume bounded<0, ?>, %arg12 : tile<i32>
    %assume_11 = assume bounded<0, ?>, %arg13 : tile<i32>
    %assume_12 = assume bounded<0, ?>, %arg14 : tile<i32>
    %tview_13 = make_tensor_view %assume_9, shape = [%assume_10, %assume_11], strides = [%assume_12, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %cst_4_i32 = constant <i32: 4> : tile<i32>
    %0 = divi %assume_0, %cst_4_i32 signed rounding<positive_inf> : tile<i32>
    %cst_8_i32 = constant <i32: 8> : tile<i32>
    %1 = divi %assume_1, %cst_8_i32 signed rounding<positive_inf> : tile<i32>
    %cst_4_i32_14 = constant <i32: 4> : tile<i32>
    %2 = divi %assume_4, %cst_4_i32_14 signed rounding<positive_inf> : tile<i32>
    %3 = muli %0, %1 : tile<i32>
    %4 = mini %3, %2 signed : tile<i32>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %gridSize_x, %gridSize_y, %gridSize_z = get_num_tile_blocks : tile<i32>
    %for = for %loopIdx in (%blockId_x to %4, step %gridSize_x) : tile<i32> iter_values(%iterArg0 = %cst_0_i32) -> (tile<i32>) {
      %6 = remi %loopIdx, %1 signed : tile<i32>
      %7 = divi %loopIdx, %1 signed : tile<i32>
      %pview_15 = make_partition_view %tview_13 : partition_view<tile=(4x8), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
      %tile, %result_token = load_view_tko weak %pview_15[%7, %6] : partition_view<tile=(4x8), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<4x8xf32>, token
      %cst_2_f32 = constant <f32: 2.000000e+00> : tile<4x8xf32>
      %8 = mulf %tile, %cst_2_f32  : tile<4x8xf32>
      %pview_16 = make_partition_view %tview : partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,1]>>
      %9 = store_view_tko weak %8, %pview_16[%7, %6] : tile<4x8xf32>, partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
      %reduce = reduce %tile dim=1 identities=[0.000000e+00 : f32] : tile<4x8xf32> -> tile<4xf32> 
      (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
        %12 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
        yield %12 : tile<f32>
      }
      %pview_17 = make_partition_view %tview_5 : partition_view<tile=(4), tensor_view<?xf32, strides=[1]>>
      %10 = store_view_tko weak %reduce, %pview_17[%loopIdx] : tile<4xf32>, partition_view<tile=(4), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
      %cst_1_i32 = constant <i32: 1> : tile<i32>
      %11 = addi %iterArg0, %cst_1_i32 : tile<i32>
      continue %11 : tile<i32>
    }
    %reshape = reshape %for : tile<i32> -> tile<1xi32>
    %pview = make_partition_view %tview_8 : partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>
    %5 = store_view_tko weak %reshape, %pview[%blockId_x] : tile<1xi32>, partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>, tile<i32> -> token
    return
  }
}
