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
    %assume_8 = assume bounded<0, ?>, %arg11 : tile<i32>
    %assume_9 = assume bounded<0, ?>, %arg12 : tile<i32>
    %tview_10 = make_tensor_view %assume_5, shape = [%assume_6, %assume_7, 128], strides = [%assume_8, %assume_9, 1] : tile<i32> -> tensor_view<?x?x128xf16, strides=[?,?,1]>
    %assume_11 = assume div_by<16>, %arg14 : tile<ptr<f16>>
    %assume_12 = assume bounded<0, ?>, %arg15 : tile<i32>
    %assume_13 = assume bounded<0, ?>, %arg16 : tile<i32>
    %assume_14 = assume bounded<0, ?>, %arg18 : tile<i32>
    %assume_15 = assume bounded<0, ?>, %arg19 : tile<i32>
    %tview_16 = make_tensor_view %assume_11, shape = [%assume_12, %assume_13, 128], strides = [%assume_14, %assume_15, 1] : tile<i32> -> tensor_view<?x?x128xf16, strides=[?,?,1]>
    %assume_17 = assume div_by<16>, %arg21 : tile<ptr<f16>>
    %assume_18 = assume bounded<0, ?>, %arg22 : tile<i32>
    %assume_19 = assume bounded<0, ?>, %arg23 : tile<i32>
    %assume_20 = assume bounded<0, ?>, %arg25 : tile<i32>
    %assume_21 = assume bounded<0, ?>, %arg26 : tile<i32>
    %tview_22 = make_tensor_view %assume_17, shape = [%assume_18, %assume_19, 128], strides = [%assume_20, %assume_21, 1] : tile<i32> -> tensor_view<?x?x128xf16, strides=[?,?,1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %0 = remi %blockId_y, %arg30 signed : tile<i32>
    %1 = divi %0, %arg31 signed : tile<i32>
    %2 = divi %arg30, %arg31 signed : tile<i32>
    %3 = divi %blockId_y, %arg30 signed : tile<i32>
    %4 = muli %3, %2 : tile<i32>
    %5 = addi %4, %1 : tile<i32>
    %cst_f32 = constant <f32: 1.44269502> : tile<f32>
    %6 = mulf %arg28, %cst_f32  : tile<f32>
    %pview = make_partition_view %tview_10 : partition_view<tile=(1x128x128), padding_value = zero, tensor_view<?x?x128xf16, strides=[?,?,1]>>
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %tile, %result_token = load_view_tko weak %pview[%blockId_y, %blockId_x, %cst_0_i32] : partition_view<tile=(1x128x128), padding_value = zero, tensor_view<?x?x128xf16, strides=[?,?,1]>>, tile<i32> -> tile<1x128x128xf16>, token
    %reshape = reshape %tile : tile<1x128x128xf16> -> tile<128x128xf16>
    %cst_128_i32 = constant <i32: 128> : tile<i32>
    %7 = muli %blockId_x, %cst_128_i32 : tile<i32>
    %8 = addi %7, %arg29 : tile<i32>
    %9 = iota : tile<128xi32>
    %reshape_23 = reshape %8 : tile<i32> -> tile<1xi32>
    %bcast = broadcast %reshape_23 : tile<1xi32> -> tile<128xi32>
    %10 = addi %9, %bcast : tile<128xi32>
    %reshape_24 = reshape %10 : tile<128xi32> -> tile<128x1xi32>
    %cst_64_i32 = constant <i32: 64> : tile<i32>
    %11 = divi %assume_13, %cst_64_i32 signed rounding<positive_inf> : tile<i32>
    %cst_64_i32_25 = constant <i32: 64> : tile<i32>
    %12 = divi %assume_13, %cst_64_i32_25 signed : tile<i32>
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %13 = addi %blockId_x, %cst_1_i32 : tile<i32>
    %cst_128_i32_26 = constant <i32: 128> : tile<i32>
    %14 = muli %13, %cst_128_i32_26 : tile<i32>
    %15 = addi %arg29, %14 : tile<i32>
    %16 = mini %15, %assume_13 signed : tile<i32>
    %cst_64_i32_27 = constant <i32: 64> : tile<i32>
    %17 = divi %16, %cst_64_i32_27 signed rounding<positive_inf> : tile<i32>
    %cst_128_i32_28 = constant <i32: 128> : tile<i32>
    %18 = muli %blockId_x, %cst_128_i32_28 : tile<i32>
    %19 = addi %arg29, %18 : tile<i32>
    %cst_64_i32_29 = constant <i32: 64> : tile<i32>
    %20 = divi %19, %cst_64_i32_29 signed : tile<i32>
    %21 = mini %20, %12 signed : tile<i32>
    %cst_f32_30 = constant <f32: 0xFF800000> : tile<128x1xf32>
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<128x1xf32>
    %cst_0_f32_31 = constant <f32: 0.000000e+00> : tile<128x128xf32>
    %22 = mini %21, %17 signed : tile<i32>
    %cst_1_i32_32 = constant <i32: 1> : tile<i32>
    %cst_0_i32_33 = constant <i32: 0> : tile<i32>
    %for:3 = for %loopIdx in (%cst_0_i32_33 to %22, step %cst_1_i32_32) : tile<i32> iter_values(%iterArg0 = %cst_f32_30, %iterArg1 = %cst_0_f32, %iterArg2 = %cst_0_f32_31) -> (tile<128x1xf32>, tile<128x1xf32>, tile<128x128xf32>) {
      %pview_39 = make_partition_view %tview_16 : partition_view<tile=(1x128x64), padding_value = zero, tensor_view<?x?x128xf16, strides=[?,?,1]>, dim_map=[0, 2, 1]>
      %cst_0_i32_40 = constant <i32: 0> : tile<i32>
      %tile_41, %result_token_42 = load_view_tko weak %pview_39[%5, %cst_0_i32_40, %loopIdx] optimization_hints = <default = {latency = 2}> : partition_view<tile=(1x128x64), padding_value = zero, tensor_view<?x?x128xf16, strides=[?,?,1]>, dim_map=[0, 2, 1]>, tile<i32> -> tile<1x128x64xf16>, token
      %reshape_43 = reshape %tile_41 : tile<1x128x64xf16> -> tile<128x64xf16>
      %cst_0_f32_44 = constant <f32: 0.000000e+00> : tile<128x64xf32>
      %27 = mmaf %reshape, %reshape_43, %cst_0_f32_44 : tile<128x128xf16>, tile<128x64xf16>, tile<128x64xf32>
      %reduce = reduce %27 dim=1 identities=[0xFF800000 : f32] : tile<128x64xf32> -> tile<128xf32> 
      (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
        %39 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
        yield %39 : tile<f32>
      }
      %reshape_45 = reshape %reduce : tile<128xf32> -> tile<128x1xf32>
      %reshape_46 = reshape %6 : tile<f32> -> tile<1x1xf32>
      %bcast_47 = broadcast %reshape_46 : tile<1x1xf32> -> tile<128x1xf32>
      %28 = mulf %reshape_45, %bcast_47  : tile<128x1xf32>
      %29 = maxf %iterArg0, %28 : tile<128x1xf32>
      %30 = negf %29 : tile<128x1xf32>
      %bcast_48 = broadcast %30 : tile<128x1xf32> -> tile<128x64xf32>
      %reshape_49 = reshape %6 : tile<f32> -> tile<1x1xf32>
      %bcast_50 = broadcast %reshape_49 : tile<1x1xf32> -> tile<128x64xf32>
      %31 = fma %27, %bcast_50, %bcast_48  : tile<128x64xf32>
      %32 = exp2 %31 flush_to_zero : tile<128x64xf32>
      %33 = subf %iterArg0, %29  : tile<128x1xf32>
      %34 = exp2 %33 flush_to_zero : tile<128x1xf32>
      %pview_51 = make_partition_view %tview_22 : partition_view<tile=(1x64x128), padding_value = zero, tensor_view<?x?x128xf16, strides=[?,?,1]>>
      %cst_0_i32_52 = constant <i32: 0> : tile<i32>
      %tile_53, %result_token_54 = load_view_tko weak %pview_51[%5, %loopIdx, %cst_0_i32_52] optimization_hints = <default = {latency = 4}> : partition_view<tile=(1x64x128), padding_value = zero, tensor_view<?x?x128xf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x128xf16>, token
      %reshape_55 = reshape %tile_53 : tile<1x64x128xf16> -> tile<64x128xf16>
      %reduce_56 = reduce %32 dim=1 identities=[0.000000e+00 : f32] : tile<128x64xf32> -> tile<128xf32> 
      (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
        %39 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
        yield %39 : tile<f32>
      }
      %reshape_57 = reshape %reduce_56 : tile<128xf32> -> tile<128x1xf32>
      %35 = fma %iterArg1, %34, %reshape_57  : tile<128x1xf32>
      %bcast_58 = broadcast %34 : tile<128x1xf32> -> tile<128x128xf32>
      %36 = mulf %iterArg2, %bcast_58  : tile<128x128xf32>
      %37 = ftof %32  : tile<128x64xf32> -> tile<128x64xf16>
      %38 = mmaf %37, %reshape_55, %36 : tile<128x64xf16>, tile<64x128xf16>, tile<128x128xf32>
      continue %29, %35, %38 : tile<128x1xf32>, tile<128x1xf32>, tile<128x128xf32>
    }
    %23 = mini %21, %17 signed : tile<i32>
    %cst_1_i32_34 = constant <i32: 1> : tile<i32>
    %for_35:3 = for %loopIdx in (%23 to %17, step %cst_1_i32_34) : tile<i32> iter_values(%iterArg0 = %for#0, %iterArg1 = %for#1, %iterArg2 = %for#2) -> (tile<128x1xf32>, tile<128x1xf32>, tile<128x128xf32>) {
      %pview_39 = make_partition_view %tview_16 : partition_view<tile=(1x128x64), padding_value = zero, tensor_view<?x?x128xf16, strides=[?,?,1]>, dim_map=[0, 2, 1]>
      %cst_0_i32_40 = constant <i32: 0> : tile<i32>
      %tile_41, %result_token_42 = load_view_tko weak %pview_39[%5, %cst_0_i32_40, %loopIdx] optimization_hints = <default = {latency = 2}> : partition_view<tile=(1x128x64), padding_value = zero, tensor_view<?x?x128xf16, strides=[?,?,1]>, dim_map=[0, 2, 1]>, tile<i32> -> tile<1x128x64xf16>, token
      %reshape_43 = reshape %tile_41 : tile<1x128x64xf16> -> tile<128x64xf16>
      %cst_0_f32_44 = constant <f32: 0.000000e+00> : tile<128x64xf32>
      %27 = mmaf %reshape, %reshape_43, %cst_0_f32_44 : tile<128x128xf16>, tile<128x64xf16>, tile<128x64xf32>
      %cst_64_i32_45 = constant <i32: 64> : tile<i32>
      %28 = muli %loopIdx, %cst_64_i32_45 : tile<i32>
      %29 = iota : tile<64xi32>
      %reshape_46 = reshape %28 : tile<i32> -> tile<1xi32>
      %bcast_47 = broadcast %reshape_46 : tile<1xi32> -> tile<64xi32>
      %30 = addi %29, %bcast_47 : tile<64xi32>
      %reshape_48 = reshape %30 : tile<64xi32> -> tile<1x64xi32>
      %bcast_49 = broadcast %reshape_24 : tile<128x1xi32> -> tile<128x64xi32>
      %bcast_50 = broadcast %reshape_48 : tile<1x64xi32> -> tile<128x64xi32>
      %31 = cmpi greater_than_or_equal %bcast_49, %bcast_50, signed : tile<128x64xi32> -> tile<128x64xi1>
      %reshape_51 = reshape %assume_13 : tile<i32> -> tile<1x1xi32>
      %bcast_52 = broadcast %reshape_51 : tile<1x1xi32> -> tile<1x64xi32>
      %32 = cmpi less_than %reshape_48, %bcast_52, signed : tile<1x64xi32> -> tile<1x64xi1>
      %bcast_53 = broadcast %32 : tile<1x64xi1> -> tile<128x64xi1>
      %33 = andi %bcast_53, %31 : tile<128x64xi1>
      %cst_f32_54 = constant <f32: 0xFF800000> : tile<128x64xf32>
      %cst_0_f32_55 = constant <f32: 0.000000e+00> : tile<128x64xf32>
      %34 = select %33, %cst_0_f32_55, %cst_f32_54 : tile<128x64xi1>, tile<128x64xf32>
      %35 = addf %27, %34  : tile<128x64xf32>
      %reduce = reduce %35 dim=1 identities=[0xFF800000 : f32] : tile<128x64xf32> -> tile<128xf32> 
      (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
        %47 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
        yield %47 : tile<f32>
      }
      %reshape_56 = reshape %reduce : tile<128xf32> -> tile<128x1xf32>
      %reshape_57 = reshape %6 : tile<f32> -> tile<1x1xf32>
      %bcast_58 = broadcast %reshape_57 : tile<1x1xf32> -> tile<128x1xf32>
      %36 = mulf %reshape_56, %bcast_58  : tile<128x1xf32>
      %37 = maxf %iterArg0, %36 : tile<128x1xf32>
      %38 = negf %37 : tile<128x1xf32>
      %bcast_59 = broadcast %38 : tile<128x1xf32> -> tile<128x64xf32>
      %reshape_60 = reshape %6 : tile<f32> -> tile<1x1xf32>
      %bcast_61 = broadcast %reshape_60 : tile<1x1xf32> -> tile<128x64xf32>
      %39 = fma %35, %bcast_61, %bcast_59  : tile<128x64xf32>
      %40 = exp2 %39 flush_to_zero : tile<128x64xf32>
      %41 = subf %iterArg0, %37  : tile<128x1xf32>
      %42 = exp2 %41 flush_to_zero : tile<128x1xf32>
      %pview_62 = make_partition_view %tview_22 : partition_view<tile=(1x64x128), padding_value = zero, tensor_view<?x?x128xf16, strides=[?,?,1]>>
      %cst_0_i32_63 = constant <i32: 0> : tile<i32>
      %tile_64, %result_token_65 = load_view_tko weak %pview_62[%5, %loopIdx, %cst_0_i32_63] optimization_hints = <default = {latency = 4}> : partition_view<tile=(1x64x128), padding_value = zero, tensor_view<?x?x128xf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x128xf16>, token
      %reshape_66 = reshape %tile_64 : tile<1x64x128xf16> -> tile<64x128xf16>
      %reduce_67 = reduce %40 dim=1 identities=[0.000000e+00 : f32] : tile<128x64xf32> -> tile<128xf32> 
      (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
        %47 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
        yield %47 : tile<f32>
      }
      %reshape_68 = reshape %reduce_67 : tile<128xf32> -> tile<128x1xf32>
      %43 = fma %iterArg1, %42, %reshape_68  : tile<128x1xf32>
      %bcast_69 = broadcast %42 : tile<128x1xf32> -> tile<128x128xf32>
      %44 = mulf %iterArg2, %bcast_69  : tile<128x128xf32>
      %45 = ftof %40  : tile<128x64xf32> -> tile<128x64xf16>
      %46 = mmaf %45, %reshape_66, %44 : tile<128x64xf16>, tile<64x128xf16>, tile<128x128xf32>
      continue %37, %43, %46 : tile<128x1xf32>, tile<128x1xf32>, tile<128x128xf32>
    }
    %bcast_36 = broadcast %for_35#1 : tile<128x1xf32> -> tile<128x128xf32>
    %24 = divf %for_35#2, %bcast_36 rounding<approx> flush_to_zero : tile<128x128xf32>
    %25 = ftof %24  : tile<128x128xf32> -> tile<128x128xf16>
    %reshape_37 = reshape %25 : tile<128x128xf16> -> tile<128x1x128xf16>
    %pview_38 = make_partition_view %tview : partition_view<tile=(128x1x128), tensor_view<?x?x?xf16, strides=[?,?,1]>, dim_map=[1, 0, 2]>
    %26 = store_view_tko weak %reshape_37, %pview_38[%blockId_x, %blockId_y, %blockId_z] : tile<128x1x128xf16>, partition_view<tile=(128x1x128), tensor_view<?x?x?xf16, strides=[?,?,1]>, dim_map=[1, 0, 2]>, tile<i32> -> token
    return
  }
}
