// rope, rope_backward: the descriptions and launchers of rope.hpp, in place on q and k (on their gradients). One
// instance per kernel, dtype, head tile and half rotary width (powers of two).
#include <algorithm>

#include "cutile/op/dispatch.hpp"
#include "cutile/op/registry.hpp"
#include "positional/rope.hpp"

namespace cutile::kernels {
namespace {

constexpr int64_t kMaxHeadTile = 128;
constexpr int64_t kMinHalf = 8, kMaxHalf = 128;  // rotary widths R = 16 ... 256
constexpr int32_t kOccupancy = 9;                // TileGym's choice when it does not autotune

// The (rows, H, R) view of a (B, H, S, D) tensor's rotated dims for `batches` batches from `first`: rows fold
// batch and position, which one stride walks when the batch stride is S times the position stride.
AnyTensor rows_view(const AnyTensor& t, int64_t first, int64_t batches, int64_t rope_dim) {
  const auto shape = t.shape();
  const auto strides = t.strides();
  const int64_t seq = shape[2], row_stride = seq == 1 ? strides[0] : strides[2];
  return t.as_strided({batches * seq, shape[1], rope_dim}, {row_stride, strides[1], strides[3]}, first * strides[0]);
}

bool rows_fold(const AnyTensor& t) {
  const auto shape = t.shape();
  return shape[0] == 1 || shape[2] == 1 || t.strides()[0] == shape[2] * t.strides()[2];
}

// cos/sin (CB, S, W) for `batches` batches from `first`: a per-batch table follows the batch, a shared one
// (CB = 1) serves them all.
AnyTensor table_view(const AnyTensor& t, int64_t first, int64_t batches) {
  const auto shape = t.shape();
  const auto strides = t.strides();
  if (shape[0] > 1)
    return t.as_strided({batches, shape[1], shape[2]}, {strides[0], strides[1], strides[2]}, first * strides[0]);
  return t.as_strided({1, shape[1], shape[2]}, {shape[1] * strides[1], strides[1], strides[2]});
}

// The rotation of q and k (INVERSE: by −θ, rope_backward's).
template <bool INVERSE>
void launch_rotation(op::Target& target, const AnyTensor& q, const AnyTensor& k, const AnyTensor& cos,
                     const AnyTensor& sin, int64_t rope_dim) {
  LaunchOptions options;
  options.hints.occupancy = kOccupancy;
  const int64_t batch = q.shape()[0], seq = q.shape()[2];
  const int64_t batches = rows_fold(q) && rows_fold(k) ? batch : 1;
  op::with_float_element(q.element_type(), [&]<class E>() {
    // One head tile for q and k (the larger count's), so that instances grow with heads x widths only.
    op::with_pow2<1, kMaxHeadTile>(std::max(q.shape()[1], k.shape()[1]), [&]<int64_t TILE_H>() {
      op::with_pow2<kMinHalf, kMaxHalf>(rope_dim / 2, [&]<int64_t TILE_RD>() {
        constexpr auto kernel = INVERSE ? rope_backward<E, TILE_H, TILE_H, TILE_RD> : rope<E, TILE_H, TILE_H, TILE_RD>;
        auto rows = [&](const AnyTensor& t, int64_t first) {
          return Tensor<E>(rows_view(t, first, batches, rope_dim)).partition({1, TILE_H, 2 * TILE_RD});
        };
        for (int64_t first = 0; first < batch; first += batches)
          target.launch(options, kernel, rows(q, first), rows(k, first), Tensor<E>(table_view(cos, first, batches)),
                        Tensor<E>(table_view(sin, first, batches)), seq);
      });
    });
  });
}

const op::ScalarSpec kRopeDim = op::integer("rope_dim")
                                    .valid_when("rope_dim >= 2 && rope_dim % 2 == 0 && rope_dim <= D")
                                    .described("how many head dims rotate (R): the first R; the others pass through");

const std::vector<op::Requirement> kRules = {
    op::requires_that("CB == 1 || CB == B", "cos and sin have one table for the whole batch, or one per batch"),
    op::requires_that("W >= rope_dim / 2", "the rotation reads the first R/2 columns of cos and sin"),
    op::unsupported_unless("pow2(rope_dim / 2) && rope_dim >= 16 && rope_dim <= 256",
                           "the kernels take R/2 a power of two in [8, 128]"),
    op::unsupported_unless("HQ >= 1 && HK >= 1 && max(HQ, HK) <= 128",
                           "q and k each have at least one head, and one tile block holds at most 128"),
};

}  // namespace

void launch_rope(op::Target& target, const AnyTensor& q, const AnyTensor& k, const AnyTensor& cos,
                 const AnyTensor& sin, int64_t rope_dim) {
  launch_rotation<false>(target, q, k, cos, sin, rope_dim);
}

void launch_rope_backward(op::Target& target, const AnyTensor& dq, const AnyTensor& dk, const AnyTensor& cos,
                          const AnyTensor& sin, int64_t rope_dim) {
  launch_rotation<true>(target, dq, dk, cos, sin, rope_dim);
}

const op::OpSpec rope_op{
    .name = "rope",
    .family = "position",
    .doc = "Rotary position embedding (HuggingFace Llama form), in place on q and k, for i < R/2 (R = rope_dim):\n"
           "  x[..., i] <- x[..., i] * cos[i] - x[..., i + R/2] * sin[i]\n"
           "  x[..., i + R/2] <- x[..., i + R/2] * cos[i] + x[..., i] * sin[i]\n"
           "with cos and sin the row of the position (and of the batch, for a table per batch); head dims R and "
           "beyond are not touched, and only the first R/2 columns of cos and sin are read (their halves repeat). "
           "Computed in the dtype. One launch when both q and k have batch stride S times their position stride "
           "(e.g. transposes of (B, S, H, D) buffers), or B = 1, or S = 1; else one launch per batch.",
    .provenance = "TileGym src/tilegym/ops/cutile/rope.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::inout("q", "E[B, HQ, S, D]"), op::inout("k", "E[B, HK, S, D]"),
                op::in("cos", "E[CB, S, W]", "CB = B: a table per batch; CB = 1: one for all").leading_ones(),
                op::in("sin", "E[CB, S, W]").leading_ones()},
    .scalars = {kRopeDim},
    .rules = kRules,
    .launch = op::bind<launch_rope>(),
    .backward = "rope_backward",
    .parity = {{"rope.rope", "rope", "B=1 HQ=16 HK=16 S=4096 D=64 CB=1 W=64 E=f16 rope_dim=64"}},
    // Every instance: each dtype, head tile and half width.
    .configurations = {"B=1 HQ={1,2,4,8,16,32,64,128} HK=1 S=64 D=256 CB=1 W=128 E={f32,f16,bf16} "
                       "rope_dim={16,32,64,128,256}"},
};

const op::OpSpec rope_backward_op{
    .name = "rope_backward",
    .family = "position",
    .doc = "The backward of rope: the gradients dq and dk rotated in place by the opposite angles (the transpose "
           "of the rotation, sin negated).",
    .provenance = "TileGym src/tilegym/ops/cutile/rope.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::inout("dq", "E[B, HQ, S, D]"), op::inout("dk", "E[B, HK, S, D]"),
                op::in("cos", "E[CB, S, W]").leading_ones(), op::in("sin", "E[CB, S, W]").leading_ones()},
    .scalars = {kRopeDim},
    .rules = kRules,
    .launch = op::bind<launch_rope_backward>(),
    .configurations = {"B=1 HQ={1,128} HK=1 S=64 D=256 CB=1 W=128 E={f32,f16,bf16} rope_dim={16,256}"},
};

const op::Registration registrations[] = {op::Registration{rope_op}, op::Registration{rope_backward_op}};

}  // namespace cutile::kernels
