global  @g_public <f32: 1.000000e+00> : tile<4xf32>
global private  constant @g_private alignment = 128 <i32: [1, 2]> : tile<2xi32>
entry @k() {
  %0 = get_global @g_public : tile<ptr<f32>>
  %1 = get_global @g_private : tile<ptr<i32>>
  return
}
