entry @k(%arg0: tile<ptr<i32>>) {
  %reshape = reshape %arg0 : tile<ptr<i32>> -> tile<1xptr<i32>>
  %0 = iota : tile<8xi32>
  %bcast = broadcast %reshape : tile<1xptr<i32>> -> tile<8xptr<i32>>
  %1 = offset %bcast, %0 : tile<8xptr<i32>>, tile<8xi32> -> tile<8xptr<i32>>
  %cst_1_i32 = constant <i32: 1> : tile<8xi32>
  %2 = iota : tile<8xi32>
  %3 = cmpi less_than %2, %cst_1_i32, signed : tile<8xi32> -> tile<8xi1>
  %result, %result_token = atomic_rmw_tko relaxed device %1, add, %cst_1_i32 : tile<8xptr<i32>>, tile<8xi32> -> tile<8xi32>, token
  %result_0, %result_token_1 = atomic_rmw_tko acq_rel sys %1, xchg, %cst_1_i32, %3 token=%result_token : tile<8xptr<i32>>, tile<8xi32>, tile<8xi1> -> tile<8xi32>, token
  %result_2, %result_token_3 = atomic_cas_tko acquire tl_blk %1, %cst_1_i32, %cst_1_i32 : tile<8xptr<i32>>, tile<8xi32> -> tile<8xi32>, token
  %result_4, %result_token_5 = atomic_cas_tko release device %1, %cst_1_i32, %cst_1_i32, %3 token=%result_token : tile<8xptr<i32>>, tile<8xi32>, tile<8xi1> -> tile<8xi32>, token
  return
}
