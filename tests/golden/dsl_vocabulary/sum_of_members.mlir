cuda_tile.module @kernels {
  entry @sum_of_members(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<i64>>, %arg4: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %tview_1 = make_tensor_view %arg3, shape = [%arg4, 3], strides = [3, 1] : tile<i32> -> tensor_view<?x3xi64, strides=[3,1]>
    %pview = make_partition_view %tview_1 : partition_view<tile=(1x4), tensor_view<?x3xi64, strides=[3,1]>>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<16xf32>
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %for = for %loopIdx in (%cst_0_i32 to %arg4, step %cst_1_i32) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<16xf32>) {
      %cst_0_i32_3 = constant <i32: 0> : tile<i32>
      %tile, %result_token = load_view_tko weak %pview[%loopIdx, %cst_0_i32_3] : partition_view<tile=(1x4), tensor_view<?x3xi64, strides=[3,1]>>, tile<i32> -> tile<1x4xi64>, token
      %cst_0_i32_4 = constant <i32: 0> : tile<i32>
      %1 = extract %tile[%cst_0_i32_3, %cst_0_i32_4] : tile<1x4xi64> -> tile<1x1xi64>
      %reshape = reshape %1 : tile<1x1xi64> -> tile<i64>
      %cst_1_i32_5 = constant <i32: 1> : tile<i32>
      %2 = extract %tile[%cst_0_i32_3, %cst_1_i32_5] : tile<1x4xi64> -> tile<1x1xi64>
      %reshape_6 = reshape %2 : tile<1x1xi64> -> tile<i64>
      %3 = trunci %reshape_6 : tile<i64> -> tile<i32>
      %4 = int_to_ptr %reshape : tile<i64> -> tile<ptr<f32>>
      %assume_7 = assume div_by<16>, %4 : tile<ptr<f32>>
      %assume_8 = assume bounded<0, ?>, %3 : tile<i32>
      %tview_9 = make_tensor_view %assume_7, shape = [%assume_8], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
      %pview_10 = make_partition_view %tview_9 : partition_view<tile=(16), padding_value = zero, tensor_view<?xf32, strides=[1]>>
      %tile_11, %result_token_12 = load_view_tko weak %pview_10[%blockId_x] : partition_view<tile=(16), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
      %5 = addf %iterArg0, %tile_11  : tile<16xf32>
      continue %5 : tile<16xf32>
    }
    %pview_2 = make_partition_view %tview : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %0 = store_view_tko weak %for, %pview_2[%blockId_x] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
