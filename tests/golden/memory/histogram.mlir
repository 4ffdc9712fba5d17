cuda_tile.module @kernels {
  entry @histogram(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<i32>>, %arg4: tile<i32>, %arg5: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<i32>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %assume_1 = assume div_by<16>, %arg3 : tile<ptr<i32>>
    %assume_2 = assume bounded<0, ?>, %arg4 : tile<i32>
    %tview_3 = make_tensor_view %assume_1, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %cst_16_i32 = constant <i32: 16> : tile<i32>
    %0 = muli %blockId_x, %cst_16_i32 : tile<i32>
    %1 = iota : tile<16xi32>
    %reshape = reshape %0 : tile<i32> -> tile<1xi32>
    %bcast = broadcast %reshape : tile<1xi32> -> tile<16xi32>
    %2 = addi %1, %bcast : tile<16xi32>
    %pview = make_partition_view %tview_3 : partition_view<tile=(16), padding_value = zero, tensor_view<?xi32, strides=[1]>>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x] : partition_view<tile=(16), padding_value = zero, tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<16xi32>, token
    %reshape_4 = reshape %assume_2 : tile<i32> -> tile<1xi32>
    %bcast_5 = broadcast %reshape_4 : tile<1xi32> -> tile<16xi32>
    %3 = cmpi less_than %2, %bcast_5, signed : tile<16xi32> -> tile<16xi1>
    %cst_1_i32 = constant <i32: 1> : tile<16xi32>
    %4 = exti %tile signed : tile<16xi32> -> tile<16xi64>
    %5 = exti %assume_0 signed : tile<i32> -> tile<i64>
    %reshape_6 = reshape %5 : tile<i64> -> tile<1xi64>
    %bcast_7 = broadcast %reshape_6 : tile<1xi64> -> tile<16xi64>
    %6 = cmpi less_than %4, %bcast_7, unsigned : tile<16xi64> -> tile<16xi1>
    %7 = andi %3, %6 : tile<16xi1>
    %reshape_8 = reshape %assume : tile<ptr<i32>> -> tile<1xptr<i32>>
    %bcast_9 = broadcast %reshape_8 : tile<1xptr<i32>> -> tile<16xptr<i32>>
    %8 = offset %bcast_9, %4 : tile<16xptr<i32>>, tile<16xi64> -> tile<16xptr<i32>>
    %result, %result_token_10 = atomic_rmw_tko relaxed device %8, add, %cst_1_i32, %7 : tile<16xptr<i32>>, tile<16xi32>, tile<16xi1> -> tile<16xi32>, token
    return
  }
}
