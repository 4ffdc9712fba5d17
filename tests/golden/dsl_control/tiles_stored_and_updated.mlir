cuda_tile.module @kernels {
  entry @tiles_stored_and_updated(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<f32>>, %arg7: tile<i32>, %arg8: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %assume_1 = assume div_by<16>, %arg3 : tile<ptr<f32>>
    %assume_2 = assume bounded<0, ?>, %arg4 : tile<i32>
    %tview_3 = make_tensor_view %assume_1, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %assume_4 = assume div_by<16>, %arg6 : tile<ptr<f32>>
    %assume_5 = assume bounded<0, ?>, %arg7 : tile<i32>
    %tview_6 = make_tensor_view %assume_4, shape = [%assume_5], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %cst_16_i32 = constant <i32: 16> : tile<i32>
    %0 = divi %assume_0, %cst_16_i32 signed rounding<positive_inf> : tile<i32>
    %cst_16_i32_7 = constant <i32: 16> : tile<i32>
    %1 = divi %assume_2, %cst_16_i32_7 signed rounding<positive_inf> : tile<i32>
    %2 = mini %0, %1 signed : tile<i32>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %gridSize_x, %gridSize_y, %gridSize_z = get_num_tile_blocks : tile<i32>
    %3 = make_token : token
    %for:2 = for %loopIdx in (%blockId_x to %2, step %gridSize_x) : tile<i32> iter_values(%iterArg0 = %3, %iterArg1 = %3) -> (token, token) {
      %pview = make_partition_view %tview_6 : partition_view<tile=(16), padding_value = zero, tensor_view<?xf32, strides=[1]>>
      %tile, %result_token = load_view_tko weak %pview[%loopIdx] : partition_view<tile=(16), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
      %pview_8 = make_partition_view %tview : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
      %4 = store_view_tko weak %tile, %pview_8[%loopIdx] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
      %pview_9 = make_partition_view %tview_3 : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
      %tile_10, %result_token_11 = load_view_tko weak %pview_9[%loopIdx] token = %iterArg0 : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
      %5 = join_tokens %iterArg1, %result_token_11 : token
      %6 = addf %tile_10, %tile  : tile<16xf32>
      %pview_12 = make_partition_view %tview_3 : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
      %7 = store_view_tko weak %6, %pview_12[%loopIdx] token = %5 : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
      continue %7, %7 : token, token
    }
    return
  }
}
