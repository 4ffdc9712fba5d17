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
    %assume_8 = assume bounded<0, ?>, %arg11 : tile<i32>
    %assume_9 = assume bounded<0, ?>, %arg12 : tile<i32>
    %tview_10 = make_tensor_view %assume_5, shape = [%assume_6, %assume_7, 64], strides = [%assume_8, %assume_9, 1] : tile<i32> -> tensor_view<?x?x64xbf16, strides=[?,?,1]>
    %assume_11 = assume div_by<16>, %arg14 : tile<ptr<bf16>>
    %assume_12 = assume bounded<0, ?>, %arg15 : tile<i32>
    %assume_13 = assume bounded<0, ?>, %arg16 : tile<i32>
    %assume_14 = assume bounded<0, ?>, %arg18 : tile<i32>
    %assume_15 = assume bounded<0, ?>, %arg19 : tile<i32>
    %tview_16 = make_tensor_view %assume_11, shape = [%assume_12, %assume_13, 64], strides = [%assume_14, %assume_15, 1] : tile<i32> -> tensor_view<?x?x64xbf16, strides=[?,?,1]>
    %assume_17 = assume div_by<16>, %arg21 : tile<ptr<bf16>>
    %assume_18 = assume bounded<0, ?>, %arg22 : tile<i32>
    %assume_19 = assume bounded<0, ?>, %arg23 : tile<i32>
    %assume_20 = assume bounded<0, ?>, %arg25 : tile<i32>
    %assume_21 = assume bounded<0, ?>, %arg26 : tile<i32>
    %tview_22 = make_tensor_view %assume_17, shape = [%assume_18, %assume_19, 64], strides = [%assume_20, %assume_21, 1] : tile<i32> -> tensor_view<?x?x64xbf16, strides=[?,?,1]>
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
    %cst_64_i32 = constant <i32: 64> : tile<i32>
    %7 = divi %assume_13, %cst_64_i32 signed rounding<positive_inf> : tile<i32>
    %cst_64_i32_23 = constant <i32: 64> : tile<i32>
    %8 = divi %assume_13, %cst_64_i32_23 signed : tile<i32>
    %cst_f32_24 = constant <f32: 0xFF800000> : tile<64x1xf32>
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<64x1xf32>
    %cst_0_f32_25 = constant <f32: 0.000000e+00> : tile<64x64xf32>
    %9 = mini %8, %7 signed : tile<i32>
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %cst_0_i32_26 = constant <i32: 0> : tile<i32>
    %for:3 = for %loopIdx in (%cst_0_i32_26 to %9, step %cst_1_i32) : tile<i32> iter_values(%iterArg0 = %cst_f32_24, %iterArg1 = %cst_0_f32, %iterArg2 = %cst_0_f32_25) -> (tile<64x1xf32>, tile<64x1xf32>, tile<64x64xf32>) {
      %pview_31 = make_partition_view %tview_16 : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>, dim_map=[0, 2, 1]>
      %cst_0_i32_32 = constant <i32: 0> : tile<i32>
      %tile_33, %result_token_34 = load_view_tko weak %pview_31[%5, %cst_0_i32_32, %loopIdx] optimization_hints = <default = {latency = 2}> : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>, dim_map=[0, 2, 1]>, tile<i32> -> tile<1x64x64xbf16>, token
      %reshape_35 = reshape %tile_33 : tile<1x64x64xbf16> -> tile<64x64xbf16>
      %cst_0_f32_36 = constant <f32: 0.000000e+00> : tile<64x64xf32>
      %14 = mmaf %reshape, %reshape_35, %cst_0_f32_36 : tile<64x64xbf16>, tile<64x64xbf16>, tile<64x64xf32>
      %reduce = reduce %14 dim=1 identities=[0xFF800000 : f32] : tile<64x64xf32> -> tile<64xf32> 
      (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
        %26 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
        yield %26 : tile<f32>
      }
      %reshape_37 = reshape %reduce : tile<64xf32> -> tile<64x1xf32>
      %reshape_38 = reshape %6 : tile<f32> -> tile<1x1xf32>
      %bcast_39 = broadcast %reshape_38 : tile<1x1xf32> -> tile<64x1xf32>
      %15 = mulf %reshape_37, %bcast_39  : tile<64x1xf32>
      %16 = maxf %iterArg0, %15 : tile<64x1xf32>
      %17 = negf %16 : tile<64x1xf32>
      %bcast_40 = broadcast %17 : tile<64x1xf32> -> tile<64x64xf32>
      %reshape_41 = reshape %6 : tile<f32> -> tile<1x1xf32>
      %bcast_42 = broadcast %reshape_41 : tile<1x1xf32> -> tile<64x64xf32>
      %18 = fma %14, %bcast_42, %bcast_40  : tile<64x64xf32>
      %19 = exp2 %18 flush_to_zero : tile<64x64xf32>
      %20 = subf %iterArg0, %16  : tile<64x1xf32>
      %21 = exp2 %20 flush_to_zero : tile<64x1xf32>
      %pview_43 = make_partition_view %tview_22 : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>>
      %cst_0_i32_44 = constant <i32: 0> : tile<i32>
      %tile_45, %result_token_46 = load_view_tko weak %pview_43[%5, %loopIdx, %cst_0_i32_44] optimization_hints = <default = {latency = 4}> : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x64xbf16>, token
      %reshape_47 = reshape %tile_45 : tile<1x64x64xbf16> -> tile<64x64xbf16>
      %reduce_48 = reduce %19 dim=1 identities=[0.000000e+00 : f32] : tile<64x64xf32> -> tile<64xf32> 
      (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
        %26 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
        yield %26 : tile<f32>
      }
      %reshape_49 = reshape %reduce_48 : tile<64xf32> -> tile<64x1xf32>
      %22 = fma %iterArg1, %21, %reshape_49  : tile<64x1xf32>
      %bcast_50 = broadcast %21 : tile<64x1xf32> -> tile<64x64xf32>
      %23 = mulf %iterArg2, %bcast_50  : tile<64x64xf32>
      %24 = ftof %19  : tile<64x64xf32> -> tile<64x64xbf16>
      %25 = mmaf %24, %reshape_47, %23 : tile<64x64xbf16>, tile<64x64xbf16>, tile<64x64xf32>
      continue %16, %22, %25 : tile<64x1xf32>, tile<64x1xf32>, tile<64x64xf32>
    }
    %10 = mini %8, %7 signed : tile<i32>
    %cst_1_i32_27 = constant <i32: 1> : tile<i32>
    %for_28:3 = for %loopIdx in (%10 to %7, step %cst_1_i32_27) : tile<i32> iter_values(%iterArg0 = %for#0, %iterArg1 = %for#1, %iterArg2 = %for#2) -> (tile<64x1xf32>, tile<64x1xf32>, tile<64x64xf32>) {
      %pview_31 = make_partition_view %tview_16 : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>, dim_map=[0, 2, 1]>
      %cst_0_i32_32 = constant <i32: 0> : tile<i32>
      %tile_33, %result_token_34 = load_view_tko weak %pview_31[%5, %cst_0_i32_32, %loopIdx] optimization_hints = <default = {latency = 2}> : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>, dim_map=[0, 2, 1]>, tile<i32> -> tile<1x64x64xbf16>, token
      %reshape_35 = reshape %tile_33 : tile<1x64x64xbf16> -> tile<64x64xbf16>
      %cst_0_f32_36 = constant <f32: 0.000000e+00> : tile<64x64xf32>
      %14 = mmaf %reshape, %reshape_35, %cst_0_f32_36 : tile<64x64xbf16>, tile<64x64xbf16>, tile<64x64xf32>
      %cst_64_i32_37 = constant <i32: 64> : tile<i32>
      %15 = muli %loopIdx, %cst_64_i32_37 : tile<i32>
      %16 = iota : tile<64xi32>
      %reshape_38 = reshape %15 : tile<i32> -> tile<1xi32>
      %bcast_39 = broadcast %reshape_38 : tile<1xi32> -> tile<64xi32>
      %17 = addi %16, %bcast_39 : tile<64xi32>
      %reshape_40 = reshape %17 : tile<64xi32> -> tile<1x64xi32>
      %reshape_41 = reshape %assume_13 : tile<i32> -> tile<1x1xi32>
      %bcast_42 = broadcast %reshape_41 : tile<1x1xi32> -> tile<1x64xi32>
      %18 = cmpi less_than %reshape_40, %bcast_42, signed : tile<1x64xi32> -> tile<1x64xi1>
      %bcast_43 = broadcast %18 : tile<1x64xi1> -> tile<64x64xi1>
      %cst_f32_44 = constant <f32: 0xFF800000> : tile<64x64xf32>
      %cst_0_f32_45 = constant <f32: 0.000000e+00> : tile<64x64xf32>
      %19 = select %bcast_43, %cst_0_f32_45, %cst_f32_44 : tile<64x64xi1>, tile<64x64xf32>
      %20 = addf %14, %19  : tile<64x64xf32>
      %reduce = reduce %20 dim=1 identities=[0xFF800000 : f32] : tile<64x64xf32> -> tile<64xf32> 
      (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
        %32 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
        yield %32 : tile<f32>
      }
      %reshape_46 = reshape %reduce : tile<64xf32> -> tile<64x1xf32>
      %reshape_47 = reshape %6 : tile<f32> -> tile<1x1xf32>
      %bcast_48 = broadcast %reshape_47 : tile<1x1xf32> -> tile<64x1xf32>
      %21 = mulf %reshape_46, %bcast_48  : tile<64x1xf32>
      %22 = maxf %iterArg0, %21 : tile<64x1xf32>
      %23 = negf %22 : tile<64x1xf32>
      %bcast_49 = broadcast %23 : tile<64x1xf32> -> tile<64x64xf32>
      %reshape_50 = reshape %6 : tile<f32> -> tile<1x1xf32>
      %bcast_51 = broadcast %reshape_50 : tile<1x1xf32> -> tile<64x64xf32>
      %24 = fma %20, %bcast_51, %bcast_49  : tile<64x64xf32>
      %25 = exp2 %24 flush_to_zero : tile<64x64xf32>
      %26 = subf %iterArg0, %22  : tile<64x1xf32>
      %27 = exp2 %26 flush_to_zero : tile<64x1xf32>
      %pview_52 = make_partition_view %tview_22 : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>>
      %cst_0_i32_53 = constant <i32: 0> : tile<i32>
      %tile_54, %result_token_55 = load_view_tko weak %pview_52[%5, %loopIdx, %cst_0_i32_53] optimization_hints = <default = {latency = 4}> : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x64xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x64xbf16>, token
      %reshape_56 = reshape %tile_54 : tile<1x64x64xbf16> -> tile<64x64xbf16>
      %reduce_57 = reduce %25 dim=1 identities=[0.000000e+00 : f32] : tile<64x64xf32> -> tile<64xf32> 
      (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
        %32 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
        yield %32 : tile<f32>
      }
      %reshape_58 = reshape %reduce_57 : tile<64xf32> -> tile<64x1xf32>
      %28 = fma %iterArg1, %27, %reshape_58  : tile<64x1xf32>
      %bcast_59 = broadcast %27 : tile<64x1xf32> -> tile<64x64xf32>
      %29 = mulf %iterArg2, %bcast_59  : tile<64x64xf32>
      %30 = ftof %25  : tile<64x64xf32> -> tile<64x64xbf16>
      %31 = mmaf %30, %reshape_56, %29 : tile<64x64xbf16>, tile<64x64xbf16>, tile<64x64xf32>
      continue %22, %28, %31 : tile<64x1xf32>, tile<64x1xf32>, tile<64x64xf32>
    }
    %bcast = broadcast %for_28#1 : tile<64x1xf32> -> tile<64x64xf32>
    %11 = divf %for_28#2, %bcast rounding<approx> flush_to_zero : tile<64x64xf32>
    %12 = ftof %11  : tile<64x64xf32> -> tile<64x64xbf16>
    %reshape_29 = reshape %12 : tile<64x64xbf16> -> tile<64x1x64xbf16>
    %pview_30 = make_partition_view %tview : partition_view<tile=(64x1x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>, dim_map=[1, 0, 2]>
    %13 = store_view_tko weak %reshape_29, %pview_30[%blockId_x, %blockId_y, %blockId_z] : tile<64x1x64xbf16>, partition_view<tile=(64x1x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>, dim_map=[1, 0, 2]>, tile<i32> -> token
    return
  }
}
