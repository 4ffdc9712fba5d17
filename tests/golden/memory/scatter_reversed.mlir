cuda_tile.module @kernels {
  entry @scatter_reversed(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %assume_1 = assume div_by<16>, %arg3 : tile<ptr<f32>>
    %assume_2 = assume bounded<0, ?>, %arg4 : tile<i32>
    %tview_3 = make_tensor_view %assume_1, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %pview = make_partition_view %tview_3 : partition_view<tile=(16), padding_value = zero, tensor_view<?xf32, strides=[1]>>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x] : partition_view<tile=(16), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %0 = iota : tile<16xi32>
    %cst_15_i32 = constant <i32: 15> : tile<16xi32>
    %1 = subi %cst_15_i32, %0 : tile<16xi32>
    %cst_16_i32 = constant <i32: 16> : tile<i32>
    %2 = muli %blockId_x, %cst_16_i32 : tile<i32>
    %3 = exti %1 signed : tile<16xi32> -> tile<16xi64>
    %cst_16_i64 = constant <i64: 16> : tile<16xi64>
    %4 = cmpi less_than %3, %cst_16_i64, unsigned : tile<16xi64> -> tile<16xi1>
    %5 = exti %2 signed : tile<i32> -> tile<i64>
    %reshape = reshape %5 : tile<i64> -> tile<1xi64>
    %bcast = broadcast %reshape : tile<1xi64> -> tile<16xi64>
    %6 = addi %3, %bcast : tile<16xi64>
    %7 = exti %assume_0 signed : tile<i32> -> tile<i64>
    %reshape_4 = reshape %7 : tile<i64> -> tile<1xi64>
    %bcast_5 = broadcast %reshape_4 : tile<1xi64> -> tile<16xi64>
    %8 = cmpi less_than %6, %bcast_5, unsigned : tile<16xi64> -> tile<16xi1>
    %9 = andi %4, %8 : tile<16xi1>
    %reshape_6 = reshape %assume : tile<ptr<f32>> -> tile<1xptr<f32>>
    %bcast_7 = broadcast %reshape_6 : tile<1xptr<f32>> -> tile<16xptr<f32>>
    %10 = offset %bcast_7, %6 : tile<16xptr<f32>>, tile<16xi64> -> tile<16xptr<f32>>
    %11 = store_ptr_tko weak %10, %tile, %9 : tile<16xptr<f32>>, tile<16xf32>, tile<16xi1> -> token
    return
  }
}
