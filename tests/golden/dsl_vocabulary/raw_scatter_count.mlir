cuda_tile.module @kernels {
  entry @raw_scatter_count(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<i32>>, %arg2: tile<ptr<f32>>, %arg3: tile<ptr<i32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
    %assume_0 = assume div_by<16>, %arg1 : tile<ptr<i32>>
    %assume_1 = assume div_by<16>, %arg2 : tile<ptr<f32>>
    %assume_2 = assume div_by<16>, %arg3 : tile<ptr<i32>>
    %assume_3 = assume bounded<0, ?>, %arg4 : tile<i32>
    %tview = make_tensor_view %assume_2, shape = [%assume_3], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %cst_16_i32 = constant <i32: 16> : tile<i32>
    %0 = muli %blockId_x, %cst_16_i32 : tile<i32>
    %1 = iota : tile<16xi32>
    %reshape = reshape %0 : tile<i32> -> tile<1xi32>
    %bcast = broadcast %reshape : tile<1xi32> -> tile<16xi32>
    %2 = addi %1, %bcast : tile<16xi32>
    %reshape_4 = reshape %arg6 : tile<i32> -> tile<1xi32>
    %bcast_5 = broadcast %reshape_4 : tile<1xi32> -> tile<16xi32>
    %3 = cmpi less_than %2, %bcast_5, signed : tile<16xi32> -> tile<16xi1>
    %4 = exti %2 signed : tile<16xi32> -> tile<16xi64>
    %5 = exti %assume_3 signed : tile<i32> -> tile<i64>
    %reshape_6 = reshape %5 : tile<i64> -> tile<1xi64>
    %bcast_7 = broadcast %reshape_6 : tile<1xi64> -> tile<16xi64>
    %6 = cmpi less_than %4, %bcast_7, unsigned : tile<16xi64> -> tile<16xi1>
    %reshape_8 = reshape %assume_2 : tile<ptr<i32>> -> tile<1xptr<i32>>
    %bcast_9 = broadcast %reshape_8 : tile<1xptr<i32>> -> tile<16xptr<i32>>
    %7 = offset %bcast_9, %4 : tile<16xptr<i32>>, tile<16xi64> -> tile<16xptr<i32>>
    %cst_0_i32 = constant <i32: 0> : tile<16xi32>
    %result, %result_token = load_ptr_tko weak %7, %6, %cst_0_i32 : tile<16xptr<i32>>, tile<16xi1>, tile<16xi32> -> tile<16xi32>, token
    %8 = exti %2 signed : tile<16xi32> -> tile<16xi64>
    %reshape_10 = reshape %assume_1 : tile<ptr<f32>> -> tile<1xptr<f32>>
    %bcast_11 = broadcast %reshape_10 : tile<1xptr<f32>> -> tile<16xptr<f32>>
    %9 = offset %bcast_11, %8 : tile<16xptr<f32>>, tile<16xi64> -> tile<16xptr<f32>>
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<16xf32>
    %result_12, %result_token_13 = load_ptr_tko weak %9, %3, %cst_0_f32 : tile<16xptr<f32>>, tile<16xi1>, tile<16xf32> -> tile<16xf32>, token
    %cst_2_f32 = constant <f32: 2.000000e+00> : tile<16xf32>
    %10 = mulf %result_12, %cst_2_f32  : tile<16xf32>
    %11 = exti %result signed : tile<16xi32> -> tile<16xi64>
    %reshape_14 = reshape %assume : tile<ptr<f32>> -> tile<1xptr<f32>>
    %bcast_15 = broadcast %reshape_14 : tile<1xptr<f32>> -> tile<16xptr<f32>>
    %12 = offset %bcast_15, %11 : tile<16xptr<f32>>, tile<16xi64> -> tile<16xptr<f32>>
    %13 = store_ptr_tko weak %12, %10, %3 : tile<16xptr<f32>>, tile<16xf32>, tile<16xi1> -> token
    %cst_0_i32_16 = constant <i32: 0> : tile<16xi32>
    %cst_1_i32 = constant <i32: 1> : tile<16xi32>
    %14 = select %3, %cst_1_i32, %cst_0_i32_16 : tile<16xi1>, tile<16xi32>
    %cst_4_i32 = constant <i32: 4> : tile<16xi32>
    %15 = remi %result, %cst_4_i32 signed : tile<16xi32>
    %16 = exti %15 signed : tile<16xi32> -> tile<16xi64>
    %reshape_17 = reshape %assume_0 : tile<ptr<i32>> -> tile<1xptr<i32>>
    %bcast_18 = broadcast %reshape_17 : tile<1xptr<i32>> -> tile<16xptr<i32>>
    %17 = offset %bcast_18, %16 : tile<16xptr<i32>>, tile<16xi64> -> tile<16xptr<i32>>
    %result_19, %result_token_20 = atomic_rmw_tko acq_rel device %17, add, %14 : tile<16xptr<i32>>, tile<16xi32> -> tile<16xi32>, token
    return
  }
}
