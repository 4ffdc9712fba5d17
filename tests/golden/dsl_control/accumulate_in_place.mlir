cuda_tile.module @kernels {
  entry @accumulate_in_place(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %assume_1 = assume div_by<16>, %arg3 : tile<ptr<f32>>
    %assume_2 = assume bounded<0, ?>, %arg4 : tile<i32>
    %tview_3 = make_tensor_view %assume_1, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %pview = make_partition_view %tview_3 : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<16xf32>
    %pview_4 = make_partition_view %tview : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %0 = store_view_tko weak %cst_0_f32, %pview_4[%blockId_x] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %for:3 = for %loopIdx in (%cst_0_i32 to %arg6, step %cst_1_i32) : tile<i32> iter_values(%iterArg0 = %tile, %iterArg1 = %0, %iterArg2 = %0) -> (tile<16xf32>, token, token) {
      %pview_5 = make_partition_view %tview : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
      %tile_6, %result_token_7 = load_view_tko weak %pview_5[%blockId_x] token = %iterArg1 : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
      %1 = join_tokens %iterArg2, %result_token_7 : token
      %2 = addf %tile_6, %iterArg0  : tile<16xf32>
      %pview_8 = make_partition_view %tview : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
      %3 = store_view_tko weak %2, %pview_8[%blockId_x] token = %1 : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
      continue %iterArg0, %3, %3 : tile<16xf32>, token, token
    }
    return
  }
}
