cuda_tile.module @kernels {
  entry @fmha(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>, %arg7: tile<ptr<f16>>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<ptr<f16>>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<i32>, %arg18: tile<i32>, %arg19: tile<i32>, %arg20: tile<i32>, %arg21: tile<ptr<f16>>, %arg22: tile<i32>, %arg23: tile<i32>, %arg24: tile<i32>, %arg25: tile<i32>, %arg26: tile<i32>, %arg27: tile<i32>, %arg28: tile<f32>, %arg29: tile<i32>, %arg30: tile<i32>, %arg31: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<f16>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %assume_1 = assume bounded<0, ?>, %arg2 : tile<i32>
    %assume_2 = assume bounded<0, ?>, %arg3 : tile<i32>
    %assume_3 = assume bounded<0, ?>, %arg4 : tile<i32>
    %assume_4 = assume bounded<0, ?>, %arg5 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0, %assume_1, %assume_2], strides = [%assume_3, %assume_4, 1] : tile<i32> -> tensor_view<?x?x?xf16, strides=[?,?,1]>
    %assume_5 = assume div_by<16>, %arg7 : tile<ptr<f16>>
    %assume_6 = assume bounded<0, ?>, %arg8 : tile<i32>
    %assume_7 = assume bounded<0, ?>, %arg9 : tile<i32>
    %cst_128_i32 = constant <i32: 128> : tile<i32>
    %assume_8 = assume bounded<0, ?>, %arg11 : tile<i32>
    %assume_9 = assume bounded<0, ?>, %arg12 : tile<i32>
    %tview_10 = make_tensor_view %assume_5, shape = [%assume_6, %assume_7, 128], strides = [%assume_8, %assume_9, 1] : tile<i32> -> tensor_view<?x?x128xf16, strides=[?,?,1]>
    %assume_11 = assume div_by<16>, %arg14 : tile<ptr<f16>>
    %assume_12 = assume bounded<0, ?>, %arg15 : tile<i32>
    %assume_13 = assume bounded<0, ?>, %arg16 : tile<i32>
    %cst_128_i32_14 = constant <i32: 128> : tile<i32>
    %assume_15 = assume bounded<0, ?>, %arg18 : tile<i32>
    %assume_16 = assume bounded<0, ?>, %arg19 : tile<i32>
    %tview_17 = make_tensor_view %assume_11, shape = [%assume_12, %assume_13, 128], strides = [%assume_15, %assume_16, 1] : tile<i32> -> tensor_view<?x?x128xf16, strides=[?,?,1]>
    %assume_18 = assume div_by<16>, %arg21 : tile<ptr<f16>>
    %assume_19 = assume bounded<0, ?>, %arg22 : tile<i32>
    %assume_20 = assume bounded<0, ?>, %arg23 : tile<i32>
    %cst_128_i32_21 = constant <i32: 128> : tile<i32>
    %assume_22 = assume bounded<0, ?>, %arg25 : tile<i32>
    %assume_23 = assume bounded<0, ?>, %arg26 : tile<i32>
    %tview_24 = make_tensor_view %assume_18, shape = [%assume_19, %assume_20, 128], strides = [%assume_22, %assume_23, 1] : tile<i32> -> tensor_view<?x?x128xf16, strides=[?,?,1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %0 = remi %blockId_x, %arg30 signed : tile<i32>
    %1 = divi %0, %arg31 signed : tile<i32>
    %2 = divi %arg30, %arg31 signed : tile<i32>
    %3 = divi %blockId_x, %arg30 signed : tile<i32>
    %4 = muli %3, %2 : tile<i32>
    %5 = addi %4, %1 : tile<i32>
    %cst_f32 = constant <f32: 1.44269502> : tile<f32>
    %6 = mulf %arg28, %cst_f32  : tile<f32>
    %pview = make_partition_view %tview_10 : partition_view<tile=(1x128x128), padding_value = zero, tensor_view<?x?x128xf16, strides=[?,?,1]>>
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x, %blockId_y, %cst_0_i32] : partition_view<tile=(1x128x128), padding_value = zero, tensor_view<?x?x128xf16, strides=[?,?,1]>>, tile<i32> -> tile<1x128x128xf16>, token
    %reshape = reshape %tile : tile<1x128x128xf16> -> tile<128x128xf16>
    %cst_128_i32_25 = constant <i32: 128> : tile<i32>
    %7 = muli %blockId_y, %cst_128_i32_25 : tile<i32>
    %8 = addi %7, %arg29 : tile<i32>
    %9 = iota : tile<128xi32>
    %reshape_26 = reshape %8 : tile<i32> -> tile<1xi32>
    %bcast = broadcast %reshape_26 : tile<1xi32> -> tile<128xi32>
    %10 = addi %9, %bcast : tile<128xi32>
    %reshape_27 = reshape %10 : tile<128xi32> -> tile<128x1xi32>
    %cst_64_i32 = constant <i32: 64> : tile<i32>
    %11 = divi %assume_13, %cst_64_i32 signed rounding<positive_inf> : tile<i32>
    %cst_64_i32_28 = constant <i32: 64> : tile<i32>
    %12 = divi %assume_13, %cst_64_i32_28 signed : tile<i32>
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %13 = addi %blockId_y, %cst_1_i32 : tile<i32>
    %cst_128_i32_29 = constant <i32: 128> : tile<i32>
    %14 = muli %13, %cst_128_i32_29 : tile<i32>
    %15 = addi %arg29, %14 : tile<i32>
    %16 = mini %15, %assume_13 signed : tile<i32>
    %cst_64_i32_30 = constant <i32: 64> : tile<i32>
    %17 = divi %16, %cst_64_i32_30 signed rounding<positive_inf> : tile<i32>
    %cst_128_i32_31 = constant <i32: 128> : tile<i32>
    %18 = muli %blockId_y, %cst_128_i32_31 : tile<i32>
    %19 = addi %arg29, %18 : tile<i32>
    %cst_64_i32_32 = constant <i32: 64> : tile<i32>
    %20 = divi %19, %cst_64_i32_32 signed : tile<i32>
    %21 = mini %20, %12 signed : tile<i32>
    %cst_f32_33 = constant <f32: 0xFF800000> : tile<128x1xf32>
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<128x1xf32>
    %cst_0_f32_34 = constant <f32: 0.000000e+00> : tile<128x128xf32>
    %cst_1_i32_35 = constant <i32: 1> : tile<i32>
    %cst_0_i32_36 = constant <i32: 0> : tile<i32>
    %for:3 = for %loopIdx in (%cst_0_i32_36 to %17, step %cst_1_i32_35) : tile<i32> iter_values(%iterArg0 = %cst_f32_33, %iterArg1 = %cst_0_f32, %iterArg2 = %cst_0_f32_34) -> (tile<128x1xf32>, tile<128x1xf32>, tile<128x128xf32>) {
      %pview_40 = make_partition_view %tview_17 : partition_view<tile=(1x64x128), padding_value = zero, tensor_view<?x?x128xf16, strides=[?,?,1]>>
      %cst_0_i32_41 = constant <i32: 0> : tile<i32>
      %tile_42, %result_token_43 = load_view_tko weak %pview_40[%5, %loopIdx, %cst_0_i32_41] : partition_view<tile=(1x64x128), padding_value = zero, tensor_view<?x?x128xf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x128xf16>, token
      %reshape_44 = reshape %tile_42 : tile<1x64x128xf16> -> tile<64x128xf16>
      %25 = permute %reshape_44 [1, 0] : tile<64x128xf16> -> tile<128x64xf16>
      %cst_0_f32_45 = constant <f32: 0.000000e+00> : tile<128x64xf32>
      %26 = mmaf %reshape, %25, %cst_0_f32_45 : tile<128x128xf16>, tile<128x64xf16>, tile<128x64xf32>
      %27 = cmpi greater_than_or_equal %loopIdx, %21, signed : tile<i32> -> tile<i1>
      %28 = if %27 -> (tile<128x64xf32>) {
        %cst_64_i32_60 = constant <i32: 64> : tile<i32>
        %41 = muli %loopIdx, %cst_64_i32_60 : tile<i32>
        %42 = iota : tile<64xi32>
        %reshape_61 = reshape %41 : tile<i32> -> tile<1xi32>
        %bcast_62 = broadcast %reshape_61 : tile<1xi32> -> tile<64xi32>
        %43 = addi %42, %bcast_62 : tile<64xi32>
        %reshape_63 = reshape %43 : tile<64xi32> -> tile<1x64xi32>
        %reshape_64 = reshape %assume_13 : tile<i32> -> tile<1x1xi32>
        %bcast_65 = broadcast %reshape_64 : tile<1x1xi32> -> tile<1x64xi32>
        %44 = cmpi less_than %reshape_63, %bcast_65, signed : tile<1x64xi32> -> tile<1x64xi1>
        %cst_f32_66 = constant <f32: 0xFF800000> : tile<128x64xf32>
        %cst_0_f32_67 = constant <f32: 0.000000e+00> : tile<128x64xf32>
        %bcast_68 = broadcast %reshape_27 : tile<128x1xi32> -> tile<128x64xi32>
        %bcast_69 = broadcast %reshape_63 : tile<1x64xi32> -> tile<128x64xi32>
        %45 = cmpi greater_than_or_equal %bcast_68, %bcast_69, signed : tile<128x64xi32> -> tile<128x64xi1>
        %bcast_70 = broadcast %44 : tile<1x64xi1> -> tile<128x64xi1>
        %46 = andi %bcast_70, %45 : tile<128x64xi1>
        %47 = select %46, %cst_0_f32_67, %cst_f32_66 : tile<128x64xi1>, tile<128x64xf32>
        %48 = addf %26, %47  : tile<128x64xf32>
        yield %48 : tile<128x64xf32>
      } else {
        yield %26 : tile<128x64xf32>
      }
      %reduce = reduce %28 dim=1 identities=[0xFF800000 : f32] : tile<128x64xf32> -> tile<128xf32> 
      (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
        %41 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
        yield %41 : tile<f32>
      }
      %reshape_46 = reshape %reduce : tile<128xf32> -> tile<128x1xf32>
      %reshape_47 = reshape %6 : tile<f32> -> tile<1x1xf32>
      %bcast_48 = broadcast %reshape_47 : tile<1x1xf32> -> tile<128x1xf32>
      %29 = mulf %reshape_46, %bcast_48  : tile<128x1xf32>
      %30 = maxf %iterArg0, %29 : tile<128x1xf32>
      %reshape_49 = reshape %6 : tile<f32> -> tile<1x1xf32>
      %bcast_50 = broadcast %reshape_49 : tile<1x1xf32> -> tile<128x64xf32>
      %31 = mulf %28, %bcast_50  : tile<128x64xf32>
      %bcast_51 = broadcast %30 : tile<128x1xf32> -> tile<128x64xf32>
      %32 = subf %31, %bcast_51  : tile<128x64xf32>
      %33 = exp2 %32 flush_to_zero : tile<128x64xf32>
      %34 = subf %iterArg0, %30  : tile<128x1xf32>
      %35 = exp2 %34 flush_to_zero : tile<128x1xf32>
      %pview_52 = make_partition_view %tview_24 : partition_view<tile=(1x64x128), padding_value = zero, tensor_view<?x?x128xf16, strides=[?,?,1]>>
      %cst_0_i32_53 = constant <i32: 0> : tile<i32>
      %tile_54, %result_token_55 = load_view_tko weak %pview_52[%5, %loopIdx, %cst_0_i32_53] : partition_view<tile=(1x64x128), padding_value = zero, tensor_view<?x?x128xf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x128xf16>, token
      %reshape_56 = reshape %tile_54 : tile<1x64x128xf16> -> tile<64x128xf16>
      %reduce_57 = reduce %33 dim=1 identities=[0.000000e+00 : f32] : tile<128x64xf32> -> tile<128xf32> 
      (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
        %41 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
        yield %41 : tile<f32>
      }
      %reshape_58 = reshape %reduce_57 : tile<128xf32> -> tile<128x1xf32>
      %36 = mulf %iterArg1, %35  : tile<128x1xf32>
      %37 = addf %36, %reshape_58  : tile<128x1xf32>
      %bcast_59 = broadcast %35 : tile<128x1xf32> -> tile<128x128xf32>
      %38 = mulf %iterArg2, %bcast_59  : tile<128x128xf32>
      %39 = ftof %33  : tile<128x64xf32> -> tile<128x64xf16>
      %40 = mmaf %39, %reshape_56, %38 : tile<128x64xf16>, tile<64x128xf16>, tile<128x128xf32>
      continue %30, %37, %40 : tile<128x1xf32>, tile<128x1xf32>, tile<128x128xf32>
    }
    %bcast_37 = broadcast %for#1 : tile<128x1xf32> -> tile<128x128xf32>
    %22 = divf %for#2, %bcast_37 rounding<approx> flush_to_zero : tile<128x128xf32>
    %23 = ftof %22  : tile<128x128xf32> -> tile<128x128xf16>
    %reshape_38 = reshape %23 : tile<128x128xf16> -> tile<1x128x128xf16>
    %pview_39 = make_partition_view %tview : partition_view<tile=(1x128x128), tensor_view<?x?x?xf16, strides=[?,?,1]>>
    %24 = store_view_tko weak %reshape_38, %pview_39[%blockId_x, %blockId_y, %blockId_z] : tile<1x128x128xf16>, partition_view<tile=(1x128x128), tensor_view<?x?x?xf16, strides=[?,?,1]>>, tile<i32> -> token
    return
  }
}
