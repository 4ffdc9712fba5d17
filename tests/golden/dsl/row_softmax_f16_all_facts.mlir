cuda_tile.module @kernels {
  entry @row_softmax(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<f16>>
    %assume_0 = assume bounded<0, ?>, %arg2 : tile<i32>
    %assume_assume = assume div_by<16>, %assume_0 : tile<i32>
    %assume_1 = assume bounded<0, ?>, %arg3 : tile<i32>
    %assume_assume_2 = assume div_by<8>, %assume_1 : tile<i32>
    %tview = make_tensor_view %assume, shape = [1, %assume_assume], strides = [%assume_assume_2, 1] : tile<i32> -> tensor_view<1x?xf16, strides=[?,1]>
    %assume_3 = assume div_by<16>, %arg5 : tile<ptr<f16>>
    %assume_4 = assume bounded<0, ?>, %arg7 : tile<i32>
    %assume_assume_5 = assume div_by<16>, %assume_4 : tile<i32>
    %assume_6 = assume bounded<0, ?>, %arg8 : tile<i32>
    %assume_assume_7 = assume div_by<8>, %assume_6 : tile<i32>
    %tview_8 = make_tensor_view %assume_3, shape = [1, %assume_assume_5], strides = [%assume_assume_7, 1] : tile<i32> -> tensor_view<1x?xf16, strides=[?,1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %pview = make_partition_view %tview_8 : partition_view<tile=(1x4096), padding_value = neg_inf, tensor_view<1x?xf16, strides=[?,1]>>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x, %blockId_y] : partition_view<tile=(1x4096), padding_value = neg_inf, tensor_view<1x?xf16, strides=[?,1]>>, tile<i32> -> tile<1x4096xf16>, token
    %0 = ftof %tile  : tile<1x4096xf16> -> tile<1x4096xf32>
    %reduce = reduce %0 dim=1 identities=[0xFF800000 : f32] : tile<1x4096xf32> -> tile<1xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %6 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
      yield %6 : tile<f32>
    }
    %reshape = reshape %reduce : tile<1xf32> -> tile<1x1xf32>
    %bcast = broadcast %reshape : tile<1x1xf32> -> tile<1x4096xf32>
    %1 = subf %0, %bcast  : tile<1x4096xf32>
    %2 = exp %1  : tile<1x4096xf32>
    %reduce_9 = reduce %2 dim=1 identities=[0.000000e+00 : f32] : tile<1x4096xf32> -> tile<1xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %6 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
      yield %6 : tile<f32>
    }
    %reshape_10 = reshape %reduce_9 : tile<1xf32> -> tile<1x1xf32>
    %bcast_11 = broadcast %reshape_10 : tile<1x1xf32> -> tile<1x4096xf32>
    %3 = divf %2, %bcast_11  : tile<1x4096xf32>
    %4 = ftof %3  : tile<1x4096xf32> -> tile<1x4096xf16>
    %pview_12 = make_partition_view %tview : partition_view<tile=(1x4096), tensor_view<1x?xf16, strides=[?,1]>>
    %5 = store_view_tko weak %4, %pview_12[%blockId_x, %blockId_y] : tile<1x4096xf16>, partition_view<tile=(1x4096), tensor_view<1x?xf16, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
