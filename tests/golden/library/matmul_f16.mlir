cuda_tile.module @kernels {
  entry @matmul(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<f16>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<f16>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %assume_1 = assume bounded<0, ?>, %arg2 : tile<i32>
    %assume_2 = assume bounded<0, ?>, %arg3 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0, %assume_1], strides = [%assume_2, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %assume_3 = assume div_by<16>, %arg5 : tile<ptr<f16>>
    %assume_4 = assume bounded<0, ?>, %arg6 : tile<i32>
    %assume_5 = assume bounded<0, ?>, %arg7 : tile<i32>
    %assume_6 = assume bounded<0, ?>, %arg8 : tile<i32>
    %tview_7 = make_tensor_view %assume_3, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %assume_8 = assume div_by<16>, %arg10 : tile<ptr<f16>>
    %assume_9 = assume bounded<0, ?>, %arg11 : tile<i32>
    %assume_10 = assume bounded<0, ?>, %arg12 : tile<i32>
    %assume_11 = assume bounded<0, ?>, %arg13 : tile<i32>
    %tview_12 = make_tensor_view %assume_8, shape = [%assume_9, %assume_10], strides = [%assume_11, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %cst_128_i32 = constant <i32: 128> : tile<i32>
    %0 = divi %assume_0, %cst_128_i32 signed rounding<positive_inf> : tile<i32>
    %cst_128_i32_13 = constant <i32: 128> : tile<i32>
    %1 = divi %assume_1, %cst_128_i32_13 signed rounding<positive_inf> : tile<i32>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %cst_8_i32 = constant <i32: 8> : tile<i32>
    %2 = muli %cst_8_i32, %1 : tile<i32>
    %3 = divi %blockId_x, %2 signed : tile<i32>
    %4 = muli %3, %cst_8_i32 : tile<i32>
    %5 = subi %0, %4 : tile<i32>
    %6 = mini %5, %cst_8_i32 signed : tile<i32>
    %7 = remi %blockId_x, %2 signed : tile<i32>
    %8 = remi %7, %6 signed : tile<i32>
    %9 = addi %4, %8 : tile<i32>
    %10 = divi %7, %6 signed : tile<i32>
    %cst_64_i32 = constant <i32: 64> : tile<i32>
    %11 = divi %assume_5, %cst_64_i32 signed rounding<positive_inf> : tile<i32>
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<128x128xf32>
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %for = for %loopIdx in (%cst_0_i32 to %11, step %cst_1_i32) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<128x128xf32>) {
      %pview_14 = make_partition_view %tview_7 : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
      %tile, %result_token = load_view_tko weak %pview_14[%9, %loopIdx] : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<128x64xf16>, token
      %pview_15 = make_partition_view %tview_12 : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
      %tile_16, %result_token_17 = load_view_tko weak %pview_15[%loopIdx, %10] : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<64x128xf16>, token
      %14 = mmaf %tile, %tile_16, %iterArg0 : tile<128x64xf16>, tile<64x128xf16>, tile<128x128xf32>
      continue %14 : tile<128x128xf32>
    }
    %12 = ftof %for  : tile<128x128xf32> -> tile<128x128xf16>
    %pview = make_partition_view %tview : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>>
    %13 = store_view_tko weak %12, %pview[%9, %10] : tile<128x128xf16>, partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
