cuda_tile.module @kernels {
  entry @row_softmax(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>) {
    %assume = assume bounded<0, ?>, %arg1 : tile<i32>
    %assume_0 = assume bounded<0, ?>, %arg2 : tile<i32>
    %assume_1 = assume bounded<0, ?>, %arg3 : tile<i32>
    %tview = make_tensor_view %arg0, shape = [%assume, %assume_0], strides = [%assume_1, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %assume_2 = assume bounded<0, ?>, %arg6 : tile<i32>
    %assume_3 = assume bounded<0, ?>, %arg7 : tile<i32>
    %assume_4 = assume bounded<0, ?>, %arg8 : tile<i32>
    %tview_5 = make_tensor_view %arg5, shape = [%assume_2, %assume_3], strides = [%assume_4, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %pview = make_partition_view %tview_5 : partition_view<tile=(1x1024), padding_value = neg_inf, tensor_view<?x?xf32, strides=[?,1]>>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x, %blockId_y] : partition_view<tile=(1x1024), padding_value = neg_inf, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<1x1024xf32>, token
    %reduce = reduce %tile dim=1 identities=[0xFF800000 : f32] : tile<1x1024xf32> -> tile<1xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %4 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
      yield %4 : tile<f32>
    }
    %reshape = reshape %reduce : tile<1xf32> -> tile<1x1xf32>
    %bcast = broadcast %reshape : tile<1x1xf32> -> tile<1x1024xf32>
    %0 = subf %tile, %bcast  : tile<1x1024xf32>
    %1 = exp %0  : tile<1x1024xf32>
    %reduce_6 = reduce %1 dim=1 identities=[0.000000e+00 : f32] : tile<1x1024xf32> -> tile<1xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %4 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
      yield %4 : tile<f32>
    }
    %reshape_7 = reshape %reduce_6 : tile<1xf32> -> tile<1x1xf32>
    %bcast_8 = broadcast %reshape_7 : tile<1x1xf32> -> tile<1x1024xf32>
    %2 = divf %1, %bcast_8  : tile<1x1024xf32>
    %pview_9 = make_partition_view %tview : partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>
    %3 = store_view_tko weak %2, %pview_9[%blockId_x, %blockId_y] : tile<1x1024xf32>, partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
