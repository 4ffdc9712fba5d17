entry @k() {
  %cst_f32 = constant <f32: 1.500000e+00> : tile<4xf32>
  %0 = cmpf equal ordered %cst_f32, %cst_f32 : tile<4xf32> -> tile<4xi1>
  %1 = cmpf equal unordered %cst_f32, %cst_f32 : tile<4xf32> -> tile<4xi1>
  %2 = cmpf not_equal ordered %cst_f32, %cst_f32 : tile<4xf32> -> tile<4xi1>
  %3 = cmpf not_equal unordered %cst_f32, %cst_f32 : tile<4xf32> -> tile<4xi1>
  %4 = cmpf less_than ordered %cst_f32, %cst_f32 : tile<4xf32> -> tile<4xi1>
  %5 = cmpf less_than unordered %cst_f32, %cst_f32 : tile<4xf32> -> tile<4xi1>
  %6 = cmpf less_than_or_equal ordered %cst_f32, %cst_f32 : tile<4xf32> -> tile<4xi1>
  %7 = cmpf less_than_or_equal unordered %cst_f32, %cst_f32 : tile<4xf32> -> tile<4xi1>
  %8 = cmpf greater_than ordered %cst_f32, %cst_f32 : tile<4xf32> -> tile<4xi1>
  %9 = cmpf greater_than unordered %cst_f32, %cst_f32 : tile<4xf32> -> tile<4xi1>
  %10 = cmpf greater_than_or_equal ordered %cst_f32, %cst_f32 : tile<4xf32> -> tile<4xi1>
  %11 = cmpf greater_than_or_equal unordered %cst_f32, %cst_f32 : tile<4xf32> -> tile<4xi1>
  return
}
