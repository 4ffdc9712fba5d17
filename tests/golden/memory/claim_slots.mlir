cuda_tile.module @kernels {
  entry @claim_slots(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<i32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<i32>>, %arg7: tile<i32>, %arg8: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<i32>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %assume_1 = assume div_by<16>, %arg3 : tile<ptr<i32>>
    %assume_2 = assume bounded<0, ?>, %arg4 : tile<i32>
    %tview_3 = make_tensor_view %assume_1, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %assume_4 = assume div_by<16>, %arg6 : tile<ptr<i32>>
    %assume_5 = assume bounded<0, ?>, %arg7 : tile<i32>
    %tview_6 = make_tensor_view %assume_4, shape = [%assume_5], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %cst_16_i32 = constant <i32: 16> : tile<i32>
    %0 = muli %blockId_x, %cst_16_i32 : tile<i32>
    %1 = iota : tile<16xi32>
    %reshape = reshape %0 : tile<i32> -> tile<1xi32>
    %bcast = broadcast %reshape : tile<1xi32> -> tile<16xi32>
    %2 = addi %1, %bcast : tile<16xi32>
    %cst_-1_i32 = constant <i32: -1> : tile<16xi32>
    %pview = make_partition_view %tview_6 : partition_view<tile=(16), padding_value = zero, tensor_view<?xi32, strides=[1]>>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x] : partition_view<tile=(16), padding_value = zero, tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<16xi32>, token
    %reshape_7 = reshape %assume_5 : tile<i32> -> tile<1xi32>
    %bcast_8 = broadcast %reshape_7 : tile<1xi32> -> tile<16xi32>
    %3 = cmpi less_than %2, %bcast_8, signed : tile<16xi32> -> tile<16xi1>
    %4 = select %3, %tile, %cst_-1_i32 : tile<16xi1>, tile<16xi32>
    %cst_-1_i32_9 = constant <i32: -1> : tile<16xi32>
    %5 = exti %4 signed : tile<16xi32> -> tile<16xi64>
    %6 = exti %assume_2 signed : tile<i32> -> tile<i64>
    %reshape_10 = reshape %6 : tile<i64> -> tile<1xi64>
    %bcast_11 = broadcast %reshape_10 : tile<1xi64> -> tile<16xi64>
    %7 = cmpi less_than %5, %bcast_11, unsigned : tile<16xi64> -> tile<16xi1>
    %reshape_12 = reshape %assume_1 : tile<ptr<i32>> -> tile<1xptr<i32>>
    %bcast_13 = broadcast %reshape_12 : tile<1xptr<i32>> -> tile<16xptr<i32>>
    %8 = offset %bcast_13, %5 : tile<16xptr<i32>>, tile<16xi64> -> tile<16xptr<i32>>
    %result, %result_token_14 = atomic_cas_tko acq_rel device %8, %cst_-1_i32_9, %2, %7 : tile<16xptr<i32>>, tile<16xi32>, tile<16xi1> -> tile<16xi32>, token
    %cst_0_i32 = constant <i32: 0> : tile<16xi32>
    %cst_1_i32 = constant <i32: 1> : tile<16xi32>
    %cst_-1_i32_15 = constant <i32: -1> : tile<16xi32>
    %9 = cmpi equal %result, %cst_-1_i32_15, signed : tile<16xi32> -> tile<16xi1>
    %10 = select %9, %cst_1_i32, %cst_0_i32 : tile<16xi1>, tile<16xi32>
    %pview_16 = make_partition_view %tview : partition_view<tile=(16), tensor_view<?xi32, strides=[1]>>
    %11 = store_view_tko weak %10, %pview_16[%blockId_x] : tile<16xi32>, partition_view<tile=(16), tensor_view<?xi32, strides=[1]>>, tile<i32> -> token
    return
  }
}
