entry @k(%arg0: tile<ptr<f32>>) {
  %reshape = reshape %arg0 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %bcast = broadcast %reshape : tile<1xptr<f32>> -> tile<8xptr<f32>>
  %0 = iota : tile<8xi32>
  %1 = offset %bcast, %0 : tile<8xptr<f32>>, tile<8xi32> -> tile<8xptr<f32>>
  %cst_5_i32 = constant <i32: 5> : tile<8xi32>
  %2 = iota : tile<8xi32>
  %3 = cmpi less_than %2, %cst_5_i32, signed : tile<8xi32> -> tile<8xi1>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<8xf32>
  %result, %result_token = load_ptr_tko weak %1, %3, %cst_0_f32 : tile<8xptr<f32>>, tile<8xi1>, tile<8xf32> -> tile<8xf32>, token
  %result_0, %result_token_1 = load_ptr_tko weak %1 token=%result_token : tile<8xptr<f32>> -> tile<8xf32>, token
  %4 = addf %result, %result_0  : tile<8xf32>
  %5 = store_ptr_tko weak %1, %4, %3 token=%result_token_1 : tile<8xptr<f32>>, tile<8xf32>, tile<8xi1> -> token
  %6 = store_ptr_tko weak %1, %result : tile<8xptr<f32>>, tile<8xf32> -> token
  %result_2, %result_token_3 = load_ptr_tko acquire sys %1 token=%5 optimization_hints = <sm_100 = {latency = 5}> : tile<8xptr<f32>> -> tile<8xf32>, token
  %7 = store_ptr_tko relaxed device %1, %result optimization_hints = <sm_90 = {latency = 2}> : tile<8xptr<f32>>, tile<8xf32> -> token
  return
}
