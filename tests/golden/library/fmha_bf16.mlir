cuda_tile.module @kernels {
  entry @fmha(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>, %arg7: tile<ptr<bf16>>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<ptr<bf16>>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<i32>, %arg18: tile<i32>, %arg19: tile<i32>, %arg20: tile<i32>, %arg21: tile<ptr<bf16>>, %arg22: tile<i32>, %arg23: tile<i32>, %arg24: tile<i32>, %arg25: tile<i32>, %arg26: tile<i32>, %arg27: tile<i32>, %arg28: tile<f32>, %arg29: tile<i32>, %arg30: tile<i32>, %arg31: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<bf16>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %assume_1 = assume bounded<0, ?>, %arg2 : tile<i32>
    %assume_2 = assume bounded<0, ?>, %arg3 : tile<i32>
    %assume_3 = assume bounded<0, ?>, %arg4 : tile<i32>
    %assume_4 = assume bounded<0, ?>, %arg5 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0, %assume_1, %assume_2], strides = [%assume_3, %assume_4, 1] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]>
    %assume_5 = assume div_by<16>, %arg7 : tile<ptr<bf16>>
    %assume_6 = assume bounded<0, ?>, %arg8 : tile<i32>
    %assume_7 = assume bounded<0, ?>, %arg9 : tile<i32>
    %cst_64_i32 = constant <i32: 64> : tile<i32>
    %assume_8 = assume bounded<0, ?>, %arg11 : tile<i32>
    %assume_9 = assume bounded<0, ?>, %arg12 : tile<i32>
    %tview_10 = make_tensor_view %assume_5, shape = [%assume_6, %assume_7, 64], strides = [%assume_8, %assume_9, 1] : tile<i32> -> tensor_view<?x?x64xbf16, strides=[?,?,1]>
    %assume_11 = assume div_by<16>, %arg14 : tile<ptr<bf16>>
    %assume_12 = assume bounded<0, ?>, %arg15 : tile<i32>
    %assume_13 = assume bounded<0, ?>, %arg16 : tile<i32>
    %cst_64_i32_14 = constant <i32: 64> : tile<i32>
    %assume_15 = assume bounded<0, ?>, %arg18 : tile<i32>
    %assume_16 = assume bounded<0, ?>, %arg19 : tile<i32>
    %tview_17 = make_tensor_view %assume_11, shape = [%assume_12, %assume_13, 64], strides = [%assume_15, %assume_16, 1] : tile<i32> -> tensor_view<?x?x64xbf16, strides=[?,?,1]>
    %assume_18 = assume div_by<16>, %arg21 : tile<ptr<bf16>>
    %assume_19 = assume bounded<0, ?>, %arg22 : tile<i32>
    %assume_20 = assume bounded<0, ?>, %arg23 : tile<i32>
    %cst_64_i32_21 = constant <i32: 64> : tile<i32>
    %assume_22 = assume bounded<0, ?>, %arg25 : tile<i32>
    %assume_23 = assume bounded<0, ?>, %arg26 : tile<i32>
    %tview_24 = make_tensor_view %assume_18, shape = [%assume_19, %assume_20, 64], strides = [%assume_22, %assume_23, 1] : tile<i32> -> tensor_view<?x?x64xbf16, strides=[?,?,1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %0 = remi %blockId_x, %arg30 signed : tile<i32>
    %1 = divi %0, %arg31 signed : tile<i32>
    %2 = divi %arg30, %arg31 signed : tile<i32>
    %3 = divi %blockId_x, %arg30 signed : tile<i32>
    %4 = muli %3, %2 : tile<i32>
    %5 = addi %4, %1 : tile<i32>
    %cst_f32 = constant <f32: 1.44269502> : tile<f32>
    %6 = mulf %arg28, %cst_f32  : tile<f32>
    %pview = make_partition_view %tview_10 : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>>
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x, %blockId_y, %cst_0_i32] : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x64xbf16>, token
    %reshape = reshape %tile : tile<1x64x64xbf16> -> tile<64x64xbf16>
    %cst_64_i32_25 = constant <i32: 64> : tile<i32>
    %7 = muli %blockId_y, %cst_64_i32_25 : tile<i32>
    %8 = addi %7, %arg29 : tile<i32>
    %9 = iota : tile<64xi32>
    %reshape_26 = reshape %8 : tile<i32> -> tile<1xi32>
    %bcast = broadcast %reshape_26 : tile<1xi32> -> tile<64xi32>
    %10 = addi %9, %bcast : tile<64xi32>
    %reshape_27 = reshape %10 : tile<64xi32> -> tile<64x1xi32>
    %cst_64_i32_28 = constant <i32: 64> : tile<i32>
    %11 = divi %assume_13, %cst_64_i32_28 signed rounding<positive_inf> : tile<i32>
    %cst_64_i32_29 = constant <i32: 64> : tile<i32>
    %12 = divi %assume_13, %cst_64_i32_29 signed : tile<i32>
    %cst_f32_30 = constant <f32: 0xFF800000> : tile<64x1xf32>
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<64x1xf32>
    %cst_0_f32_31 = constant <f32: 0.000000e+00> : tile<64x64xf32>
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %cst_0_i32_32 = constant <i32: 0> : tile<i32>
    %for:3 = for %loopIdx in (%cst_0_i32_32 to %11, step %cst_1_i32) : tile<i32> iter_values(%iterArg0 = %cst_f32_30, %iterArg1 = %cst_0_f32, %iterArg2 = %cst_0_f32_31) -> (tile<64x1xf32>, tile<64x1xf32>, tile<64x64xf32>) {
      %pview_36 = make_partition_view %tview_17 : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>>
      %cst_0_i32_37 = constant <i32: 0> : tile<i32>
      %tile_38, %result_token_39 = load_view_tko weak %pview_36[%5, %loopIdx, %cst_0_i32_37] : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x64xbf16>, token
      %reshape_40 = reshape %tile_38 : tile<1x64x64xbf16> -> tile<64x64xbf16>
      %16 = permute %reshape_40 [1, 0] : tile<64x64xbf16> -> tile<64x64xbf16>
      %cst_0_f32_41 = constant <f32: 0.000000e+00> : tile<64x64xf32>
      %17 = mmaf %reshape, %16, %cst_0_f32_41 : tile<64x64xbf16>, tile<64x64xbf16>, tile<64x64xf32>
      %18 = cmpi greater_than_or_equal %loopIdx, %12, signed : tile<i32> -> tile<i1>
      %19 = if %18 -> (tile<64x64xf32>) {
        %cst_64_i32_56 = constant <i32: 64> : tile<i32>
        %32 = muli %loopIdx, %cst_64_i32_56 : tile<i32>
        %33 = iota : tile<64xi32>
        %reshape_57 = reshape %32 : tile<i32> -> tile<1xi32>
        %bcast_58 = broadcast %reshape_57 : tile<1xi32> -> tile<64xi32>
        %34 = addi %33, %bcast_58 : tile<64xi32>
        %reshape_59 = reshape %34 : tile<64xi32> -> tile<1x64xi32>
        %reshape_60 = reshape %assume_13 : tile<i32> -> tile<1x1xi32>
        %bcast_61 = broadcast %reshape_60 : tile<1x1xi32> -> tile<1x64xi32>
        %35 = cmpi less_than %reshape_59, %bcast_61, signed : tile<1x64xi32> -> tile<1x64xi1>
        %cst_f32_62 = constant <f32: 0xFF800000> : tile<64x64xf32>
        %cst_0_f32_63 = constant <f32: 0.000000e+00> : tile<64x64xf32>
        %bcast_64 = broadcast %35 : tile<1x64xi1> -> tile<64x64xi1>
        %36 = select %bcast_64, %cst_0_f32_63, %cst_f32_62 : tile<64x64xi1>, tile<64x64xf32>
        %37 = addf %17, %36  : tile<64x64xf32>
        yield %37 : tile<64x64xf32>
      } else {
        yield %17 : tile<64x64xf32>
      }
      %reduce = reduce %19 dim=1 identities=[0xFF800000 : f32] : tile<64x64xf32> -> tile<64xf32> 
      (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
        %32 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
        yield %32 : tile<f32>
      }
      %reshape_42 = reshape %reduce : tile<64xf32> -> tile<64x1xf32>
      %reshape_43 = reshape %6 : tile<f32> -> tile<1x1xf32>
      %bcast_44 = broadcast %reshape_43 : tile<1x1xf32> -> tile<64x1xf32>
      %20 = mulf %reshape_42, %bcast_44  : tile<64x1xf32>
      %21 = maxf %iterArg0, %20 : tile<64x1xf32>
      %reshape_45 = reshape %6 : tile<f32> -> tile<1x1xf32>
      %bcast_46 = broadcast %reshape_45 : tile<1x1xf32> -> tile<64x64xf32>
      %22 = mulf %19, %bcast_46  : tile<64x64xf32>
      %bcast_47 = broadcast %21 : tile<64x1xf32> -> tile<64x64xf32>
      %23 = subf %22, %bcast_47  : tile<64x64xf32>
      %24 = exp2 %23 flush_to_zero : tile<64x64xf32>
      %25 = subf %iterArg0, %21  : tile<64x1xf32>
      %26 = exp2 %25 flush_to_zero : tile<64x1xf32>
      %pview_48 = make_partition_view %tview_24 : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>>
      %cst_0_i32_49 = constant <i32: 0> : tile<i32>
      %tile_50, %result_token_51 = load_view_tko weak %pview_48[%5, %loopIdx, %cst_0_i32_49] : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x64xbf16>, token
      %reshape_52 = reshape %tile_50 : tile<1x64x64xbf16> -> tile<64x64xbf16>
      %reduce_53 = reduce %24 dim=1 identities=[0.000000e+00 : f32] : tile<64x64xf32> -> tile<64xf32> 
      (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
        %32 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
        yield %32 : tile<f32>
      }
      %reshape_54 = reshape %reduce_53 : tile<64xf32> -> tile<64x1xf32>
      %27 = mulf %iterArg1, %26  : tile<64x1xf32>
      %28 = addf %27, %reshape_54  : tile<64x1xf32>
      %bcast_55 = broadcast %26 : tile<64x1xf32> -> tile<64x64xf32>
      %29 = mulf %iterArg2, %bcast_55  : tile<64x64xf32>
      %30 = ftof %24  : tile<64x64xf32> -> tile<64x64xbf16>
      %31 = mmaf %30, %reshape_52, %29 : tile<64x64xbf16>, tile<64x64xbf16>, tile<64x64xf32>
      continue %21, %28, %31 : tile<64x1xf32>, tile<64x1xf32>, tile<64x64xf32>
    }
    %bcast_33 = broadcast %for#1 : tile<64x1xf32> -> tile<64x64xf32>
    %13 = divf %for#2, %bcast_33 rounding<approx> flush_to_zero : tile<64x64xf32>
    %14 = ftof %13  : tile<64x64xf32> -> tile<64x64xbf16>
    %reshape_34 = reshape %14 : tile<64x64xbf16> -> tile<1x64x64xbf16>
    %pview_35 = make_partition_view %tview : partition_view<tile=(1x64x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>>
    %15 = store_view_tko weak %reshape_34, %pview_35[%blockId_x, %blockId_y, %blockId_z] : tile<1x64x64xbf16>, partition_view<tile=(1x64x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> token
    return
  }
}
