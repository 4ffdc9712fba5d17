cuda_tile.module @kernels {
  entry @collatz_steps(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<i32>>, %arg4: tile<i32>, %arg5: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<i32>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %assume_1 = assume div_by<16>, %arg3 : tile<ptr<i32>>
    %assume_2 = assume bounded<0, ?>, %arg4 : tile<i32>
    %tview_3 = make_tensor_view %assume_1, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %pview = make_partition_view %tview_3 : partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x] : partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<1xi32>, token
    %reshape = reshape %tile : tile<1xi32> -> tile<i32>
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %0:2 = loop iter_values(%arg6 = %reshape, %arg7 = %cst_0_i32) : tile<i32>, tile<i32> -> tile<i32>, tile<i32> {
      %cst_1_i32 = constant <i32: 1> : tile<i32>
      %2 = cmpi not_equal %arg6, %cst_1_i32, signed : tile<i32> -> tile<i1>
      %true = constant <i1: true> : tile<i1>
      %3 = xori %2, %true : tile<i1>
      if %3 {
        break %arg6, %arg7 : tile<i32>, tile<i32>
      }
      %cst_2_i32 = constant <i32: 2> : tile<i32>
      %4 = remi %arg6, %cst_2_i32 signed : tile<i32>
      %cst_0_i32_6 = constant <i32: 0> : tile<i32>
      %5 = cmpi equal %4, %cst_0_i32_6, signed : tile<i32> -> tile<i1>
      %6 = if %5 -> (tile<i32>) {
        %cst_2_i32_8 = constant <i32: 2> : tile<i32>
        %8 = divi %arg6, %cst_2_i32_8 signed : tile<i32>
        yield %8 : tile<i32>
      } else {
        %cst_3_i32 = constant <i32: 3> : tile<i32>
        %8 = muli %arg6, %cst_3_i32 : tile<i32>
        %cst_1_i32_8 = constant <i32: 1> : tile<i32>
        %9 = addi %8, %cst_1_i32_8 : tile<i32>
        yield %9 : tile<i32>
      }
      %cst_1_i32_7 = constant <i32: 1> : tile<i32>
      %7 = addi %arg7, %cst_1_i32_7 : tile<i32>
      continue %6, %7 : tile<i32>, tile<i32>
    }
    %reshape_4 = reshape %0#1 : tile<i32> -> tile<1xi32>
    %pview_5 = make_partition_view %tview : partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>
    %1 = store_view_tko weak %reshape_4, %pview_5[%blockId_x] : tile<1xi32>, partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>, tile<i32> -> token
    return
  }
}
