cuda_tile.module @kernels {
  entry @column_slice(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<i32>) {
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
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %0 = maxi %arg10, %cst_0_i32 signed : tile<i32>
    %1 = mini %0, %assume_5 signed : tile<i32>
    %2 = maxi %arg11, %1 signed : tile<i32>
    %3 = mini %2, %assume_5 signed : tile<i32>
    %4 = subi %3, %1 : tile<i32>
    %5 = exti %1 signed : tile<i32> -> tile<i64>
    %6 = offset %assume_3, %5 : tile<ptr<f32>>, tile<i64> -> tile<ptr<f32>>
    %tview_8 = make_tensor_view %6, shape = [%assume_4, %4], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pview = make_partition_view %tview_8 : partition_view<tile=(1x16), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x, %blockId_y] : partition_view<tile=(1x16), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<1x16xf32>, token
    %pview_9 = make_partition_view %tview : partition_view<tile=(1x16), tensor_view<?x?xf32, strides=[?,1]>>
    %7 = store_view_tko weak %tile, %pview_9[%blockId_x, %blockId_y] : tile<1x16xf32>, partition_view<tile=(1x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
