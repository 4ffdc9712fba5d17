// expect-error: an output's tile shape is static, every dimension a power of two, at most 2^24 elements
// The same rule for an output reached through a schedule.
#include "cutile/cutile.hpp"
#include "cutile/host/launch.hpp"
namespace ct = cutile;
template <ct::Element E, int64_t TM>
void kernel(ct::OutTiles<E, ct::Shape<TM, 48>> y, ct::In<E, ct::Shape<ct::dyn, ct::dyn>> x) {}
void host(const ct::Tensor<float>& x, const ct::Tensor<float>& y) {
  ct::launch(kernel<float, 64>, y.partition({64, 48}), x);
}
