cuda_tile.module @kernels {
  entry @batched_matmul(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>, %arg7: tile<ptr<f16>>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<ptr<f16>>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<i32>, %arg18: tile<i32>, %arg19: tile<i32>, %arg20: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %assume_1 = assume bounded<0, ?>, %arg2 : tile<i32>
    %assume_2 = assume bounded<0, ?>, %arg3 : tile<i32>
    %assume_3 = assume bounded<0, ?>, %arg4 : tile<i32>
    %assume_4 = assume bounded<0, ?>, %arg5 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0, %assume_1, %assume_2], strides = [%assume_3, %assume_4, 1] : tile<i32> -> tensor_view<?x?x?xf32, strides=[?,?,1]>
    %assume_5 = assume div_by<16>, %arg7 : tile<ptr<f16>>
    %assume_6 = assume bounded<0, ?>, %arg8 : tile<i32>
    %assume_7 = assume bounded<0, ?>, %arg9 : tile<i32>
    %assume_8 = assume bounded<0, ?>, %arg10 : tile<i32>
    %assume_9 = assume bounded<0, ?>, %arg11 : tile<i32>
    %assume_10 = assume bounded<0, ?>, %arg12 : tile<i32>
    %tview_11 = make_tensor_view %assume_5, shape = [%assume_6, %assume_7, %assume_8], strides = [%assume_9, %assume_10, 1] : tile<i32> -> tensor_view<?x?x?xf16, strides=[?,?,1]>
    %assume_12 = assume div_by<16>, %arg14 : tile<ptr<f16>>
    %assume_13 = assume bounded<0, ?>, %arg15 : tile<i32>
    %assume_14 = assume bounded<0, ?>, %arg16 : tile<i32>
    %assume_15 = assume bounded<0, ?>, %arg17 : tile<i32>
    %assume_16 = assume bounded<0, ?>, %arg18 : tile<i32>
    %assume_17 = assume bounded<0, ?>, %arg19 : tile<i32>
    %tview_18 = make_tensor_view %assume_12, shape = [%assume_13, %assume_14, %assume_15], strides = [%assume_16, %assume_17, 1] : tile<i32> -> tensor_view<?x?x?xf16, strides=[?,?,1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<2x16x16xf32>
    %pview = make_partition_view %tview_18 : partition_view<tile=(2x32x16), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>>
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x, %cst_0_i32, %blockId_z] : partition_view<tile=(2x32x16), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>>, tile<i32> -> tile<2x32x16xf16>, token
    %pview_19 = make_partition_view %tview_11 : partition_view<tile=(2x16x32), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>>
    %cst_0_i32_20 = constant <i32: 0> : tile<i32>
    %tile_21, %result_token_22 = load_view_tko weak %pview_19[%blockId_x, %blockId_y, %cst_0_i32_20] : partition_view<tile=(2x16x32), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>>, tile<i32> -> tile<2x16x32xf16>, token
    %0 = mmaf %tile_21, %tile, %cst_0_f32 : tile<2x16x32xf16>, tile<2x32x16xf16>, tile<2x16x16xf32>
    %pview_23 = make_partition_view %tview : partition_view<tile=(2x16x16), tensor_view<?x?x?xf32, strides=[?,?,1]>>
    %1 = store_view_tko weak %0, %pview_23[%blockId_x, %blockId_y, %blockId_z] : tile<2x16x16xf32>, partition_view<tile=(2x16x16), tensor_view<?x?x?xf32, strides=[?,?,1]>>, tile<i32> -> token
    return
  }
}
