cuda_tile.module @kernels {
  entry @bitcast_copy(%arg0: tile<ptr<i64>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f64>>, %arg4: tile<i32>, %arg5: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<i64>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0], strides = [1] : tile<i32> -> tensor_view<?xi64, strides=[1]>
    %assume_1 = assume div_by<16>, %arg3 : tile<ptr<f64>>
    %assume_2 = assume bounded<0, ?>, %arg4 : tile<i32>
    %tview_3 = make_tensor_view %assume_1, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xf64, strides=[1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %pview = make_partition_view %tview_3 : partition_view<tile=(8), padding_value = zero, tensor_view<?xf64, strides=[1]>>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x] : partition_view<tile=(8), padding_value = zero, tensor_view<?xf64, strides=[1]>>, tile<i32> -> tile<8xf64>, token
    %0 = bitcast %tile : tile<8xf64> -> tile<8xi64>
    %pview_4 = make_partition_view %tview : partition_view<tile=(8), tensor_view<?xi64, strides=[1]>>
    %1 = store_view_tko weak %0, %pview_4[%blockId_x] : tile<8xi64>, partition_view<tile=(8), tensor_view<?xi64, strides=[1]>>, tile<i32> -> token
    return
  }
}
