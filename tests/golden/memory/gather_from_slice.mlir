cuda_tile.module @kernels {
  entry @gather_from_slice(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<i32>>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<i32>) {
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
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %0 = maxi %arg9, %cst_0_i32 signed : tile<i32>
    %1 = mini %0, %assume_2 signed : tile<i32>
    %2 = maxi %arg10, %1 signed : tile<i32>
    %3 = mini %2, %assume_2 signed : tile<i32>
    %4 = subi %3, %1 : tile<i32>
    %5 = exti %1 signed : tile<i32> -> tile<i64>
    %6 = offset %assume_1, %5 : tile<ptr<f32>>, tile<i64> -> tile<ptr<f32>>
    %tview_7 = make_tensor_view %6, shape = [%4], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pview = make_partition_view %tview_6 : partition_view<tile=(16), padding_value = zero, tensor_view<?xi32, strides=[1]>>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x] : partition_view<tile=(16), padding_value = zero, tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<16xi32>, token
    %7 = exti %tile signed : tile<16xi32> -> tile<16xi64>
    %8 = exti %4 signed : tile<i32> -> tile<i64>
    %reshape = reshape %8 : tile<i64> -> tile<1xi64>
    %bcast = broadcast %reshape : tile<1xi64> -> tile<16xi64>
    %9 = cmpi less_than %7, %bcast, unsigned : tile<16xi64> -> tile<16xi1>
    %reshape_8 = reshape %6 : tile<ptr<f32>> -> tile<1xptr<f32>>
    %bcast_9 = broadcast %reshape_8 : tile<1xptr<f32>> -> tile<16xptr<f32>>
    %10 = offset %bcast_9, %7 : tile<16xptr<f32>>, tile<16xi64> -> tile<16xptr<f32>>
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<16xf32>
    %result, %result_token_10 = load_ptr_tko weak %10, %9, %cst_0_f32 : tile<16xptr<f32>>, tile<16xi1>, tile<16xf32> -> tile<16xf32>, token
    %pview_11 = make_partition_view %tview : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %11 = store_view_tko weak %result, %pview_11[%blockId_x] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
