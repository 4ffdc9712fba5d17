cuda_tile.module @kernels {
  entry @clamp_below_limit(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<i32>>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<f32>) {
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
    %pview = make_partition_view %tview_6 : partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %tile, %result_token = load_view_tko weak %pview[%cst_0_i32] : partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<1xi32>, token
    %reshape = reshape %tile : tile<1xi32> -> tile<i32>
    %pview_7 = make_partition_view %tview_3 : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %tile_8, %result_token_9 = load_view_tko weak %pview_7[%blockId_x] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %0 = cmpi less_than %blockId_x, %reshape, signed : tile<i32> -> tile<i1>
    %1 = if %0 -> (tile<16xf32>) {
      %reshape_11 = reshape %arg9 : tile<f32> -> tile<1xf32>
      %bcast = broadcast %reshape_11 : tile<1xf32> -> tile<16xf32>
      %3 = maxf %tile_8, %bcast : tile<16xf32>
      yield %3 : tile<16xf32>
    } else {
      %cst_0_f32 = constant <f32: 0.000000e+00> : tile<16xf32>
      yield %cst_0_f32 : tile<16xf32>
    }
    %pview_10 = make_partition_view %tview : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %2 = store_view_tko weak %1, %pview_10[%blockId_x] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
