cuda_tile.module @kernels {
  entry @row_arg_extremes(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<i32>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %assume_1 = assume bounded<0, ?>, %arg2 : tile<i32>
    %assume_2 = assume bounded<0, ?>, %arg3 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0, %assume_1], strides = [%assume_2, 1] : tile<i32> -> tensor_view<?x?xi32, strides=[?,1]>
    %assume_3 = assume div_by<16>, %arg5 : tile<ptr<f32>>
    %assume_4 = assume bounded<0, ?>, %arg6 : tile<i32>
    %assume_5 = assume bounded<0, ?>, %arg7 : tile<i32>
    %assume_6 = assume bounded<0, ?>, %arg8 : tile<i32>
    %tview_7 = make_tensor_view %assume_3, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %pview = make_partition_view %tview_7 : partition_view<tile=(4x64), padding_value = nan, tensor_view<?x?xf32, strides=[?,1]>>
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x, %cst_0_i32] : partition_view<tile=(4x64), padding_value = nan, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<4x64xf32>, token
    %0 = iota : tile<64xi32>
    %reshape = reshape %0 : tile<64xi32> -> tile<1x64xi32>
    %bcast = broadcast %reshape : tile<1x64xi32> -> tile<4x64xi32>
    %reduce:2 = reduce %tile, %bcast dim=1 identities=[0xFF800000 : f32, 2147483647 : i32] : tile<4x64xf32>, tile<4x64xi32> -> tile<4xf32>, tile<4xi32> 
    (%reduce_lhs0: tile<f32>, %reduce_rhs0: tile<f32>, %reduce_lhs1: tile<i32>, %reduce_rhs1: tile<i32>) {
      %4 = cmpi less_than %reduce_lhs1, %reduce_rhs1, signed : tile<i32> -> tile<i1>
      %5 = cmpf equal ordered %reduce_lhs0, %reduce_rhs0 : tile<f32> -> tile<i1>
      %6 = andi %5, %4 : tile<i1>
      %7 = cmpf greater_than ordered %reduce_lhs0, %reduce_rhs0 : tile<f32> -> tile<i1>
      %8 = ori %7, %6 : tile<i1>
      %9 = select %8, %reduce_lhs0, %reduce_rhs0 : tile<i1>, tile<f32>
      %10 = select %8, %reduce_lhs1, %reduce_rhs1 : tile<i1>, tile<i32>
      yield %9, %10 : tile<f32>, tile<i32>
    }
    %reshape_8 = reshape %reduce#1 : tile<4xi32> -> tile<4x1xi32>
    %1 = iota : tile<64xi32>
    %reshape_9 = reshape %1 : tile<64xi32> -> tile<1x64xi32>
    %bcast_10 = broadcast %reshape_9 : tile<1x64xi32> -> tile<4x64xi32>
    %reduce_11:2 = reduce %tile, %bcast_10 dim=1 identities=[0x7F800000 : f32, 2147483647 : i32] : tile<4x64xf32>, tile<4x64xi32> -> tile<4xf32>, tile<4xi32> 
    (%reduce_lhs0: tile<f32>, %reduce_rhs0: tile<f32>, %reduce_lhs1: tile<i32>, %reduce_rhs1: tile<i32>) {
      %4 = cmpi less_than %reduce_lhs1, %reduce_rhs1, signed : tile<i32> -> tile<i1>
      %5 = cmpf equal ordered %reduce_lhs0, %reduce_rhs0 : tile<f32> -> tile<i1>
      %6 = andi %5, %4 : tile<i1>
      %7 = cmpf less_than ordered %reduce_lhs0, %reduce_rhs0 : tile<f32> -> tile<i1>
      %8 = ori %7, %6 : tile<i1>
      %9 = select %8, %reduce_lhs0, %reduce_rhs0 : tile<i1>, tile<f32>
      %10 = select %8, %reduce_lhs1, %reduce_rhs1 : tile<i1>, tile<i32>
      yield %9, %10 : tile<f32>, tile<i32>
    }
    %reshape_12 = reshape %reduce_11#1 : tile<4xi32> -> tile<4x1xi32>
    %2 = cat %reshape_8, %reshape_12 dim = 1 : tile<4x1xi32>, tile<4x1xi32> -> tile<4x2xi32>
    %pview_13 = make_partition_view %tview : partition_view<tile=(4x2), tensor_view<?x?xi32, strides=[?,1]>>
    %3 = store_view_tko weak %2, %pview_13[%blockId_x, %blockId_y] : tile<4x2xi32>, partition_view<tile=(4x2), tensor_view<?x?xi32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
