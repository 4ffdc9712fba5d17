cuda_tile.module @kernels {
  entry @abs_by_sign_bit(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>) optimization_hints=<default = {}, sm_90 = {num_cta_in_cga = 2}> {
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
    %pview = make_partition_view %tview_7 : partition_view<tile=(16x32), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x, %blockId_y] : partition_view<tile=(16x32), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<16x32xf32>, token
    %0 = bitcast %tile : tile<16x32xf32> -> tile<16x32xi32>
    %cst_2147483647_i32 = constant <i32: 2147483647> : tile<16x32xi32>
    %1 = andi %0, %cst_2147483647_i32 : tile<16x32xi32>
    %2 = bitcast %1 : tile<16x32xi32> -> tile<16x32xf32>
    %pview_8 = make_partition_view %tview : partition_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,1]>>
    %3 = store_view_tko weak %2, %pview_8[%blockId_x, %blockId_y] : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
