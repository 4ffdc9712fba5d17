entry @k() {
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %gridSize_x, %gridSize_y, %gridSize_z = get_num_tile_blocks : tile<i32>
  %0 = addi %blockId_x, %gridSize_z : tile<i32>
  return
}
