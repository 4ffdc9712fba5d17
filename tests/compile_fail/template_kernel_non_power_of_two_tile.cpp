// expect-error: an output's tile shape is static, every dimension a power of two, at most 2^24 elements
// A template kernel launched with a tile that is not a power of two names the rule (not "unresolved
// overloaded function type").
#include "cutile/cutile.hpp"
#include "cutile/host/launch.hpp"
namespace ct = cutile;
template <ct::Element E, int64_t TILE>
void kernel(ct::Out<E, ct::Shape<TILE>> y, ct::In<E, ct::Shape<ct::dyn>> x) {
  auto [i] = y.tile_index();
  y.store(x.load(ct::tile<TILE>, {i}));
}
void host(const ct::Tensor<float>& x, const ct::Tensor<float>& y) {
  ct::launch(kernel<float, 100>, y.partition({100}), x);
}
