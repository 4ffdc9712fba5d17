// dropout, dropout_inplace: the descriptions and launchers of dropout.hpp. One instance per dtype (and per
// in-place-ness), tiles of 1024 elements; the seed is mixed and the scale computed on the host.
#include <cstring>

#include "cutile/op/dispatch.hpp"
#include "cutile/op/registry.hpp"
#include "elementwise/dropout.hpp"

namespace cutile::kernels {
namespace {

constexpr int64_t kTile = 1024;  // TileGym's TILE_SIZE

// TileGym's `_mix_seed`: the seed times 0x9E3779B1, modulo 2^32, as a signed int32.
int32_t mix_seed(int64_t seed) {
  const uint32_t mixed = static_cast<uint32_t>(static_cast<uint64_t>(seed)) * 2654435761u;
  int32_t out;
  std::memcpy(&out, &mixed, sizeof out);
  return out;
}

// 1 / (1 - p), or 0 when p = 1 (every element dropped); the launch rounds it to E.
double keep_scale(double p) { return p >= 1.0 ? 0.0 : 1.0 / (1.0 - p); }

const op::ScalarSpec kSeed = op::integer("seed").described("TileGym's seed; only its value modulo 2^32 matters");
const op::ScalarSpec kProbability =
    op::real("p", 0.5).valid_when("finite(p) && p >= 0 && p <= 1").described("the probability of dropping an element");

}  // namespace

void launch_dropout(op::Target& target, const AnyTensor& y, const AnyTensor& x, int64_t seed, double p) {
  op::with_float_element(x.element_type(), [&]<class E>() {
    target.launch({}, dropout<E, kTile>, Tensor<E>(y).partition({kTile}), Tensor<E>(x), mix_seed(seed), p,
                  keep_scale(p));
  });
}

void launch_dropout_inplace(op::Target& target, const AnyTensor& x, int64_t seed, double p) {
  op::with_float_element(x.element_type(), [&]<class E>() {
    target.launch({}, dropout_inplace<E, kTile>, Tensor<E>(x).partition({kTile}), mix_seed(seed), p, keep_scale(p));
  });
}

const op::OpSpec dropout_op{
    .name = "dropout",
    .family = "elementwise",
    .doc = "y = dropout(x) in training mode with TileGym's hash mask: element i (of the flattened tensor) is kept when "
           "f32(h(i) & 0x7fffffff) / 2^31 > f32(p), h the int32 xorshift hash of i * 1103515245 + mix(seed), and "
           "becomes x[i] * (1 / (1 - p) rounded to the dtype), else 0 (all 0 at p = 1). mix(seed) is TileGym's "
           "_mix_seed, (seed * 0x9E3779B1) mod 2^32 as an int32, so that a seed gives TileGym's mask bit for bit. "
           "Eval mode is the identity: callers skip the call.",
    .provenance = "TileGym src/tilegym/ops/cutile/dropout.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("y", "E[N]").flat().like_input("x"), op::in("x", "E[N]").flat()},
    .scalars = {kSeed, kProbability},
    .launch = op::bind<launch_dropout>(),
    .parity = {{"dropout.dropout", "dropout", "N=16777216 E=f16 seed=0 p=0.5"}},
    // With the parity case's f16, every dtype once.
    .configurations = {"N=1000 E={f32,bf16} seed=0"},
};

const op::OpSpec dropout_inplace_op{
    .name = "dropout_inplace",
    .family = "elementwise",
    .doc = "dropout with x its own output, updated in place: the same mask and scale.",
    .provenance = "TileGym src/tilegym/ops/cutile/dropout.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::inout("x", "E[N]").flat()},
    .scalars = {kSeed, kProbability},
    .launch = op::bind<launch_dropout_inplace>(),
    .configurations = {"N=1000 E={f32,f16,bf16} seed=0"},
};

const op::Registration registrations[] = {op::Registration{dropout_op}, op::Registration{dropout_inplace_op}};

}  // namespace cutile::kernels
