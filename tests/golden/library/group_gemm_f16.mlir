cuda_tile.module @kernels {
  entry @group_gemm(%arg0: tile<ptr<i64>>, %arg1: tile<i32>, %arg2: tile<ptr<i64>>, %arg3: tile<i32>, %arg4: tile<ptr<i64>>, %arg5: tile<i32>) {
    %tview = make_tensor_view %arg0, shape = [%arg1, 5], strides = [5, 1] : tile<i32> -> tensor_view<?x5xi64, strides=[5,1]>
    %pview = make_partition_view %tview : partition_view<tile=(1x8), tensor_view<?x5xi64, strides=[5,1]>>
    %tview_0 = make_tensor_view %arg2, shape = [%arg3, 5], strides = [5, 1] : tile<i32> -> tensor_view<?x5xi64, strides=[5,1]>
    %pview_1 = make_partition_view %tview_0 : partition_view<tile=(1x8), tensor_view<?x5xi64, strides=[5,1]>>
    %tview_2 = make_tensor_view %arg4, shape = [%arg5, 5], strides = [5, 1] : tile<i32> -> tensor_view<?x5xi64, strides=[5,1]>
    %pview_3 = make_partition_view %tview_2 : partition_view<tile=(1x8), tensor_view<?x5xi64, strides=[5,1]>>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %gridSize_x, %gridSize_y, %gridSize_z = get_num_tile_blocks : tile<i32>
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %cst_0_i32_4 = constant <i32: 0> : tile<i32>
    %0 = make_token : token
    %for:3 = for %loopIdx in (%cst_0_i32_4 to %arg1, step %cst_1_i32) : tile<i32> iter_values(%iterArg0 = %cst_0_i32, %iterArg1 = %blockId_x, %iterArg2 = %0) -> (tile<i32>, tile<i32>, token) {
      %cst_0_i32_5 = constant <i32: 0> : tile<i32>
      %tile, %result_token = load_view_tko weak %pview_1[%loopIdx, %cst_0_i32_5] : partition_view<tile=(1x8), tensor_view<?x5xi64, strides=[5,1]>>, tile<i32> -> tile<1x8xi64>, token
      %cst_0_i32_6 = constant <i32: 0> : tile<i32>
      %1 = extract %tile[%cst_0_i32_5, %cst_0_i32_6] : tile<1x8xi64> -> tile<1x1xi64>
      %reshape = reshape %1 : tile<1x1xi64> -> tile<i64>
      %cst_1_i32_7 = constant <i32: 1> : tile<i32>
      %2 = extract %tile[%cst_0_i32_5, %cst_1_i32_7] : tile<1x8xi64> -> tile<1x1xi64>
      %reshape_8 = reshape %2 : tile<1x1xi64> -> tile<i64>
      %cst_2_i32 = constant <i32: 2> : tile<i32>
      %3 = extract %tile[%cst_0_i32_5, %cst_2_i32] : tile<1x8xi64> -> tile<1x1xi64>
      %reshape_9 = reshape %3 : tile<1x1xi64> -> tile<i64>
      %cst_3_i32 = constant <i32: 3> : tile<i32>
      %4 = extract %tile[%cst_0_i32_5, %cst_3_i32] : tile<1x8xi64> -> tile<1x1xi64>
      %reshape_10 = reshape %4 : tile<1x1xi64> -> tile<i64>
      %5 = trunci %reshape_8 : tile<i64> -> tile<i32>
      %6 = trunci %reshape_9 : tile<i64> -> tile<i32>
      %7 = trunci %reshape_10 : tile<i64> -> tile<i32>
      %8 = int_to_ptr %reshape : tile<i64> -> tile<ptr<f16>>
      %assume = assume div_by<16>, %8 : tile<ptr<f16>>
      %assume_11 = assume bounded<0, ?>, %5 : tile<i32>
      %assume_12 = assume bounded<0, ?>, %6 : tile<i32>
      %assume_13 = assume bounded<0, ?>, %7 : tile<i32>
      %tview_14 = make_tensor_view %assume, shape = [%assume_11, %assume_12], strides = [%assume_13, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
      %cst_0_i32_15 = constant <i32: 0> : tile<i32>
      %tile_16, %result_token_17 = load_view_tko weak %pview_3[%loopIdx, %cst_0_i32_15] : partition_view<tile=(1x8), tensor_view<?x5xi64, strides=[5,1]>>, tile<i32> -> tile<1x8xi64>, token
      %cst_0_i32_18 = constant <i32: 0> : tile<i32>
      %9 = extract %tile_16[%cst_0_i32_15, %cst_0_i32_18] : tile<1x8xi64> -> tile<1x1xi64>
      %reshape_19 = reshape %9 : tile<1x1xi64> -> tile<i64>
      %cst_1_i32_20 = constant <i32: 1> : tile<i32>
      %10 = extract %tile_16[%cst_0_i32_15, %cst_1_i32_20] : tile<1x8xi64> -> tile<1x1xi64>
      %reshape_21 = reshape %10 : tile<1x1xi64> -> tile<i64>
      %cst_2_i32_22 = constant <i32: 2> : tile<i32>
      %11 = extract %tile_16[%cst_0_i32_15, %cst_2_i32_22] : tile<1x8xi64> -> tile<1x1xi64>
      %reshape_23 = reshape %11 : tile<1x1xi64> -> tile<i64>
      %cst_3_i32_24 = constant <i32: 3> : tile<i32>
      %12 = extract %tile_16[%cst_0_i32_15, %cst_3_i32_24] : tile<1x8xi64> -> tile<1x1xi64>
      %reshape_25 = reshape %12 : tile<1x1xi64> -> tile<i64>
      %13 = trunci %reshape_21 : tile<i64> -> tile<i32>
      %14 = trunci %reshape_23 : tile<i64> -> tile<i32>
      %15 = trunci %reshape_25 : tile<i64> -> tile<i32>
      %16 = int_to_ptr %reshape_19 : tile<i64> -> tile<ptr<f16>>
      %assume_26 = assume div_by<16>, %16 : tile<ptr<f16>>
      %assume_27 = assume bounded<0, ?>, %13 : tile<i32>
      %assume_28 = assume bounded<0, ?>, %14 : tile<i32>
      %assume_29 = assume bounded<0, ?>, %15 : tile<i32>
      %tview_30 = make_tensor_view %assume_26, shape = [%assume_27, %assume_28], strides = [%assume_29, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
      %cst_128_i32 = constant <i32: 128> : tile<i32>
      %17 = divi %assume_12, %cst_128_i32 signed rounding<positive_inf> : tile<i32>
      %cst_0_i32_31 = constant <i32: 0> : tile<i32>
      %tile_32, %result_token_33 = load_view_tko weak %pview[%loopIdx, %cst_0_i32_31] : partition_view<tile=(1x8), tensor_view<?x5xi64, strides=[5,1]>>, tile<i32> -> tile<1x8xi64>, token
      %cst_0_i32_34 = constant <i32: 0> : tile<i32>
      %18 = extract %tile_32[%cst_0_i32_31, %cst_0_i32_34] : tile<1x8xi64> -> tile<1x1xi64>
      %reshape_35 = reshape %18 : tile<1x1xi64> -> tile<i64>
      %cst_1_i32_36 = constant <i32: 1> : tile<i32>
      %19 = extract %tile_32[%cst_0_i32_31, %cst_1_i32_36] : tile<1x8xi64> -> tile<1x1xi64>
      %reshape_37 = reshape %19 : tile<1x1xi64> -> tile<i64>
      %cst_2_i32_38 = constant <i32: 2> : tile<i32>
      %20 = extract %tile_32[%cst_0_i32_31, %cst_2_i32_38] : tile<1x8xi64> -> tile<1x1xi64>
      %reshape_39 = reshape %20 : tile<1x1xi64> -> tile<i64>
      %cst_3_i32_40 = constant <i32: 3> : tile<i32>
      %21 = extract %tile_32[%cst_0_i32_31, %cst_3_i32_40] : tile<1x8xi64> -> tile<1x1xi64>
      %reshape_41 = reshape %21 : tile<1x1xi64> -> tile<i64>
      %22 = trunci %reshape_37 : tile<i64> -> tile<i32>
      %23 = trunci %reshape_39 : tile<i64> -> tile<i32>
      %24 = trunci %reshape_41 : tile<i64> -> tile<i32>
      %25 = int_to_ptr %reshape_35 : tile<i64> -> tile<ptr<f16>>
      %assume_42 = assume div_by<16>, %25 : tile<ptr<f16>>
      %assume_43 = assume bounded<0, ?>, %22 : tile<i32>
      %assume_44 = assume bounded<0, ?>, %23 : tile<i32>
      %assume_45 = assume bounded<0, ?>, %24 : tile<i32>
      %tview_46 = make_tensor_view %assume_42, shape = [%assume_43, %assume_44], strides = [%assume_45, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
      %cst_128_i32_47 = constant <i32: 128> : tile<i32>
      %26 = divi %assume_43, %cst_128_i32_47 signed rounding<positive_inf> : tile<i32>
      %cst_128_i32_48 = constant <i32: 128> : tile<i32>
      %27 = divi %assume_44, %cst_128_i32_48 signed rounding<positive_inf> : tile<i32>
      %28 = muli %26, %27 : tile<i32>
      %29 = addi %iterArg0, %28 : tile<i32>
      %30:2 = loop iter_values(%arg6 = %iterArg1, %arg7 = %iterArg2) : tile<i32>, token -> tile<i32>, token {
        %31 = cmpi less_than %arg6, %29, signed : tile<i32> -> tile<i1>
        %true = constant <i1: true> : tile<i1>
        %32 = xori %31, %true : tile<i1>
        if %32 {
          break %arg6, %arg7 : tile<i32>, token
        }
        %33 = subi %arg6, %iterArg0 : tile<i32>
        %34 = remi %33, %27 signed : tile<i32>
        %35 = divi %33, %27 signed : tile<i32>
        %cst_0_f32 = constant <f32: 0.000000e+00> : tile<128x128xf32>
        %cst_1_i32_49 = constant <i32: 1> : tile<i32>
        %cst_0_i32_50 = constant <i32: 0> : tile<i32>
        %for_51 = for %loopIdx_53 in (%cst_0_i32_50 to %17, step %cst_1_i32_49) : tile<i32> iter_values(%iterArg0_54 = %cst_0_f32) -> (tile<128x128xf32>) {
          %pview_55 = make_partition_view %tview_14 : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
          %tile_56, %result_token_57 = load_view_tko weak %pview_55[%35, %loopIdx_53] : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<128x128xf16>, token
          %pview_58 = make_partition_view %tview_30 : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
          %tile_59, %result_token_60 = load_view_tko weak %pview_58[%loopIdx_53, %34] : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<128x128xf16>, token
          %40 = mmaf %tile_56, %tile_59, %iterArg0_54 : tile<128x128xf16>, tile<128x128xf16>, tile<128x128xf32>
          continue %40 : tile<128x128xf32>
        }
        %36 = ftof %for_51  : tile<128x128xf32> -> tile<128x128xf16>
        %pview_52 = make_partition_view %tview_46 : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>>
        %37 = store_view_tko weak %36, %pview_52[%35, %34] token = %iterArg2 : tile<128x128xf16>, partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> token
        %38 = join_tokens %arg7, %37 : token
        %39 = addi %arg6, %gridSize_x : tile<i32>
        continue %39, %38 : tile<i32>, token
      }
      continue %29, %30#0, %30#1 : tile<i32>, tile<i32>, token
    }
    return
  }
}
