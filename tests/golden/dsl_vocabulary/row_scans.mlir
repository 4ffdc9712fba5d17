cuda_tile.module @kernels {
  entry @row_scans(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>) {
    %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
    %assume_0 = assume bounded<0, ?>, %arg1 : tile<i32>
    %assume_1 = assume bounded<0, ?>, %arg2 : tile<i32>
    %assume_2 = assume bounded<0, ?>, %arg3 : tile<i32>
    %tview = make_tensor_view %assume, shape = [%assume_0, %assume_1], strides = [%assume_2, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %assume_3 = assume div_by<16>, %arg5 : tile<ptr<f32>>
    %assume_4 = assume bounded<0, ?>, %arg6 : tile<i32>
    %assume_5 = assume bounded<0, ?>, %arg7 : tile<i32>
    %assume_6 = assume bounded<0, ?>, %arg8 : tile<i32>
    %tview_7 = make_tensor_view %assume_3, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
    %pview = make_partition_view %tview_7 : partition_view<tile=(4x64), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %tile, %result_token = load_view_tko weak %pview[%blockId_x, %blockId_y] : partition_view<tile=(4x64), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<4x64xf32>, token
    %0 = scan %tile dim=1 reverse=true identities=[0xFF800000 : f32] : tile<4x64xf32> -> tile<4x64xf32> 
    (%arg10: tile<f32>, %arg11: tile<f32>) {
      %4 = maxf %arg10, %arg11 : tile<f32>
      yield %4 : tile<f32>
    }
    %1 = scan %tile dim=1 reverse=false identities=[0.000000e+00 : f32] : tile<4x64xf32> -> tile<4x64xf32> 
    (%arg10: tile<f32>, %arg11: tile<f32>) {
      %4 = addf %arg10, %arg11  : tile<f32>
      yield %4 : tile<f32>
    }
    %2 = addf %1, %0  : tile<4x64xf32>
    %pview_8 = make_partition_view %tview : partition_view<tile=(4x64), tensor_view<?x?xf32, strides=[?,1]>>
    %3 = store_view_tko weak %2, %pview_8[%blockId_x, %blockId_y] : tile<4x64xf32>, partition_view<tile=(4x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
