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
    %0 = remi %blockId_y, %arg30 signed : tile<i32>
    %1 = divi %0, %arg31 signed : tile<i32>
    %2 = divi %arg30, %arg31 signed : tile<i32>
    %3 = divi %blockId_y, %arg30 signed : tile<i32>
    %4 = muli %3, %2 : tile<i32>
    %5 = addi %4, %1 : tile<i32>
    %cst_f32 = constant <f32: 1.44269502> : tile<f32>
    %6 = mulf %arg28, %cst_f32  : tile<f32>
    %pview = make_partition_view %tview_10 : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>>
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %tile, %result_token = load_view_tko weak %pview[%blockId_y, %blockId_x, %cst_0_i32] : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x64xbf16>, token
    %reshape = reshape %tile : tile<1x64x64xbf16> -> tile<64x64xbf16>
    %cst_64_i32_25 = constant <i32: 64> : tile<i32>
    %7 = muli %blockId_x, %cst_64_i32_25 : tile<i32>
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
    %13 = mini %12, %11 signed : tile<i32>
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %cst_0_i32_32 = constant <i32: 0> : tile<i32>
    %for:3 = for %loopIdx in (%cst_0_i32_32 to %13, step %cst_1_i32) : tile<i32> iter_values(%iterArg0 = %cst_f32_30, %iterArg1 = %cst_0_f32, %iterArg2 = %cst_0_f32_31) -> (tile<64x1xf32>, tile<64x1xf32>, tile<64x64xf32>) {
      %pview_38 = make_partition_view %tview_17 : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>, dim_map=[0, 2, 1]>
      %cst_0_i32_39 = constant <i32: 0> : tile<i32>
      %tile_40, %result_token_41 = load_view_tko weak %pview_38[%5, %cst_0_i32_39, %loopIdx] optimization_hints = <default = {latency = 2}> : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>, dim_map=[0, 2, 1]>, tile<i32> -> tile<1x64x64xbf16>, token
      %reshape_42 = reshape %tile_40 : tile<1x64x64xbf16> -> tile<64x64xbf16>
      %cst_0_f32_43 = constant <f32: 0.000000e+00> : tile<64x64xf32>
      %18 = mmaf %reshape, %reshape_42, %cst_0_f32_43 : tile<64x64xbf16>, tile<64x64xbf16>, tile<64x64xf32>
      %reduce = reduce %18 dim=1 identities=[0xFF800000 : f32] : tile<64x64xf32> -> tile<64xf32> 
      (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
        %30 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
        yield %30 : tile<f32>
      }
      %reshape_44 = reshape %reduce : tile<64xf32> -> tile<64x1xf32>
      %reshape_45 = reshape %6 : tile<f32> -> tile<1x1xf32>
      %bcast_46 = broadcast %reshape_45 : tile<1x1xf32> -> tile<64x1xf32>
      %19 = mulf %reshape_44, %bcast_46  : tile<64x1xf32>
      %20 = maxf %iterArg0, %19 : tile<64x1xf32>
      %21 = negf %20 : tile<64x1xf32>
      %bcast_47 = broadcast %21 : tile<64x1xf32> -> tile<64x64xf32>
      %reshape_48 = reshape %6 : tile<f32> -> tile<1x1xf32>
      %bcast_49 = broadcast %reshape_48 : tile<1x1xf32> -> tile<64x64xf32>
      %22 = fma %18, %bcast_49, %bcast_47  : tile<64x64xf32>
      %23 = exp2 %22 flush_to_zero : tile<64x64xf32>
      %24 = subf %iterArg0, %20  : tile<64x1xf32>
      %25 = exp2 %24 flush_to_zero : tile<64x1xf32>
      %pview_50 = make_partition_view %tview_24 : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>>
      %cst_0_i32_51 = constant <i32: 0> : tile<i32>
      %tile_52, %result_token_53 = load_view_tko weak %pview_50[%5, %loopIdx, %cst_0_i32_51] optimization_hints = <default = {latency = 4}> : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x64xbf16>, token
      %reshape_54 = reshape %tile_52 : tile<1x64x64xbf16> -> tile<64x64xbf16>
      %reduce_55 = reduce %23 dim=1 identities=[0.000000e+00 : f32] : tile<64x64xf32> -> tile<64xf32> 
      (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
        %30 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
        yield %30 : tile<f32>
      }
      %reshape_56 = reshape %reduce_55 : tile<64xf32> -> tile<64x1xf32>
      %26 = fma %iterArg1, %25, %reshape_56  : tile<64x1xf32>
      %bcast_57 = broadcast %25 : tile<64x1xf32> -> tile<64x64xf32>
      %27 = mulf %iterArg2, %bcast_57  : tile<64x64xf32>
      %28 = ftof %23  : tile<64x64xf32> -> tile<64x64xbf16>
      %29 = mmaf %28, %reshape_54, %27 : tile<64x64xbf16>, tile<64x64xbf16>, tile<64x64xf32>
      continue %20, %26, %29 : tile<64x1xf32>, tile<64x1xf32>, tile<64x64xf32>
    }
    %14 = mini %12, %11 signed : tile<i32>
    %cst_1_i32_33 = constant <i32: 1> : tile<i32>
    %for_34:3 = for %loopIdx in (%14 to %11, step %cst_1_i32_33) : tile<i32> iter_values(%iterArg0 = %for#0, %iterArg1 = %for#1, %iterArg2 = %for#2) -> (tile<64x1xf32>, tile<64x1xf32>, tile<64x64xf32>) {
      %pview_38 = make_partition_view %tview_17 : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>, dim_map=[0, 2, 1]>
      %cst_0_i32_39 = constant <i32: 0> : tile<i32>
      %tile_40, %result_token_41 = load_view_tko weak %pview_38[%5, %cst_0_i32_39, %loopIdx] optimization_hints = <default = {latency = 2}> : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>, dim_map=[0, 2, 1]>, tile<i32> -> tile<1x64x64xbf16>, token
      %reshape_42 = reshape %tile_40 : tile<1x64x64xbf16> -> tile<64x64xbf16>
      %cst_0_f32_43 = constant <f32: 0.000000e+00> : tile<64x64xf32>
      %18 = mmaf %reshape, %reshape_42, %cst_0_f32_43 : tile<64x64xbf16>, tile<64x64xbf16>, tile<64x64xf32>
      %cst_64_i32_44 = constant <i32: 64> : tile<i32>
      %19 = muli %loopIdx, %cst_64_i32_44 : tile<i32>
      %20 = iota : tile<64xi32>
      %reshape_45 = reshape %19 : tile<i32> -> tile<1xi32>
      %bcast_46 = broadcast %reshape_45 : tile<1xi32> -> tile<64xi32>
      %21 = addi %20, %bcast_46 : tile<64xi32>
      %reshape_47 = reshape %21 : tile<64xi32> -> tile<1x64xi32>
      %reshape_48 = reshape %assume_13 : tile<i32> -> tile<1x1xi32>
      %bcast_49 = broadcast %reshape_48 : tile<1x1xi32> -> tile<1x64xi32>
      %22 = cmpi less_than %reshape_47, %bcast_49, signed : tile<1x64xi32> -> tile<1x64xi1>
      %bcast_50 = broadcast %22 : tile<1x64xi1> -> tile<64x64xi1>
      %cst_f32_51 = constant <f32: 0xFF800000> : tile<64x64xf32>
      %cst_0_f32_52 = constant <f32: 0.000000e+00> : tile<64x64xf32>
      %23 = select %bcast_50, %cst_0_f32_52, %cst_f32_51 : tile<64x64xi1>, tile<64x64xf32>
      %24 = addf %18, %23  : tile<64x64xf32>
      %reduce = reduce %24 dim=1 identities=[0xFF800000 : f32] : tile<64x64xf32> -> tile<64xf32> 
      (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
        %36 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
        yield %36 : tile<f32>
      }
      %reshape_53 = reshape %reduce : tile<64xf32> -> tile<64x1xf32>
      %reshape_54 = reshape %6 : tile<f32> -> tile<1x1xf32>
      %bcast_55 = broadcast %reshape_54 : tile<1x1xf32> -> tile<64x1xf32>
      %25 = mulf %reshape_53, %bcast_55  : tile<64x1xf32>
      %26 = maxf %iterArg0, %25 : tile<64x1xf32>
      %27 = negf %26 : tile<64x1xf32>
      %bcast_56 = broadcast %27 : tile<64x1xf32> -> tile<64x64xf32>
      %reshape_57 = reshape %6 : tile<f32> -> tile<1x1xf32>
      %bcast_58 = broadcast %reshape_57 : tile<1x1xf32> -> tile<64x64xf32>
      %28 = fma %24, %bcast_58, %bcast_56  : tile<64x64xf32>
      %29 = exp2 %28 flush_to_zero : tile<64x64xf32>
      %30 = subf %iterArg0, %26  : tile<64x1xf32>
      %31 = exp2 %30 flush_to_zero : tile<64x1xf32>
      %pview_59 = make_partition_view %tview_24 : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>>
      %cst_0_i32_60 = constant <i32: 0> : tile<i32>
      %tile_61, %result_token_62 = load_view_tko weak %pview_59[%5, %loopIdx, %cst_0_i32_60] optimization_hints = <default = {latency = 4}> : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x64xbf16>, token
      %reshape_63 = reshape %tile_61 : tile<1x64x64xbf16> -> tile<64x64xbf16>
      %reduce_64 = reduce %29 dim=1 identities=[0.000000e+00 : f32] : tile<64x64xf32> -> tile<64xf32> 
      (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
        %36 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
        yield %36 : tile<f32>
      }
      %reshape_65 = reshape %reduce_64 : tile<64xf32> -> tile<64x1xf32>
      %32 = fma %iterArg1, %31, %reshape_65  : tile<64x1xf32>
      %bcast_66 = broadcast %31 : tile<64x1xf32> -> tile<64x64xf32>
      %33 = mulf %iterArg2, %bcast_66  : tile<64x64xf32>
      %34 = ftof %29  : tile<64x64xf32> -> tile<64x64xbf16>
      %35 = mmaf %34, %reshape_63, %33 : tile<64x64xbf16>, tile<64x64xbf16>, tile<64x64xf32>
      continue %26, %32, %35 : tile<64x1xf32>, tile<64x1xf32>, tile<64x64xf32>
    }
    %bcast_35 = broadcast %for_34#1 : tile<64x1xf32> -> tile<64x64xf32>
    %15 = divf %for_34#2, %bcast_35 rounding<approx> flush_to_zero : tile<64x64xf32>
    %16 = ftof %15  : tile<64x64xf32> -> tile<64x64xbf16>
    %reshape_36 = reshape %16 : tile<64x64xbf16> -> tile<64x1x64xbf16>
    %pview_37 = make_partition_view %tview : partition_view<tile=(64x1x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>, dim_map=[1, 0, 2]>
    %17 = store_view_tko weak %reshape_36, %pview_37[%blockId_x, %blockId_y, %blockId_z] : tile<64x1x64xbf16>, partition_view<tile=(64x1x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>, dim_map=[1, 0, 2]>, tile<i32> -> token
    return
  }
}
