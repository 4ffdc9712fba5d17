// cutile_cpp_rope: kernels/positional/rope.hpp, in place on q and k; one instance per dtype, head tile and
// half rotary width (powers of two).
#include <algorithm>
#include <string>

#include "cutile/host/launch.hpp"
#include "dispatch.hpp"
#include "placement.hpp"
#include "positional/rope.hpp"

namespace cutile::capi {
namespace {

constexpr int64_t kMaxHeadTile = 128;
constexpr int64_t kMinHalf = 8, kMaxHalf = 128;  // rotary widths R = 16 … 256
constexpr int32_t kOccupancy = 9;                // TileGym's choice when it does not autotune

bool is_power_of_two(int64_t n) {
  return n > 0 && (n & (n - 1)) == 0;
}
int64_t next_power_of_two(int64_t n) {
  int64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

struct RopeViews {
  AnyTensor q, k, cos, sin;
};

// One head tile for q and k (the larger count's), so that instances grow with heads × widths only.
template <Element E, int64_t TILE_H = 1, int64_t TILE_RD = kMinHalf>
void launch_rope(const RopeViews& v, int64_t head_tile, int64_t half, int64_t seq_len,
                 const LaunchOptions& options) {
  if constexpr (TILE_H < kMaxHeadTile) {
    if (head_tile > TILE_H) return launch_rope<E, TILE_H * 2, TILE_RD>(v, head_tile, half, seq_len, options);
  }
  if constexpr (TILE_RD < kMaxHalf) {
    if (half > TILE_RD) return launch_rope<E, TILE_H, TILE_RD * 2>(v, head_tile, half, seq_len, options);
  }
  launch(options, kernels::rope<E, TILE_H, TILE_H, TILE_RD>,
         Tensor<E>(v.q).partition({1, TILE_H, 2 * TILE_RD}),
         Tensor<E>(v.k).partition({1, TILE_H, 2 * TILE_RD}), Tensor<E>(v.cos), Tensor<E>(v.sin), seq_len);
}

// The (rows, H, R) view of a (B, H, S, D) tensor's rotated dims for `batches` batches from `first`: rows
// fold batch and position, which one stride walks when the batch stride is S times the position stride.
AnyTensor rows_view(const AnyTensor& t, const CheckedTensor& c, int64_t first, int64_t batches,
                    int64_t rope_dim) {
  const int64_t seq = c.shape[2], row_stride = seq == 1 ? c.strides[0] : c.strides[2];
  return t.as_strided({batches * seq, c.shape[1], rope_dim}, {row_stride, c.strides[1], c.strides[3]},
                      first * c.strides[0]);
}

bool rows_fold(const CheckedTensor& c) {
  return c.shape[0] == 1 || c.shape[2] == 1 || c.strides[0] == c.shape[2] * c.strides[2];
}

// cos/sin as (CB, S, R) for `batches` batches from `first`: a per-batch table follows the batch, a shared
// one (CB = 1, or a 2-D (S, R) table) serves them all.
AnyTensor table_view(const AnyTensor& t, const CheckedTensor& c, int64_t first, int64_t batches) {
  const bool three = c.rank() == 3;
  const int64_t seq = c.shape[three ? 1 : 0], width = c.shape[three ? 2 : 1];
  const int64_t s_seq = c.strides[three ? 1 : 0], s_width = c.strides[three ? 2 : 1];
  if (three && c.shape[0] > 1)
    return t.as_strided({batches, seq, width}, {c.strides[0], s_seq, s_width}, first * c.strides[0]);
  return t.as_strided({1, seq, width}, {seq * s_seq, s_seq, s_width});
}

}  // namespace
}  // namespace cutile::capi

extern "C" int32_t cutile_cpp_rope(const cutile_cpp_tensor* q, const cutile_cpp_tensor* k,
                                   const cutile_cpp_tensor* cos, const cutile_cpp_tensor* sin,
                                   int64_t rope_dim, int32_t device_id, void* stream) {
  using namespace cutile::capi;
  return guarded("cutile_cpp_rope", [&] {
    const auto tensors = check_descriptors(
        {{"q", q, true}, {"k", k, true}, {"cos", cos, false}, {"sin", sin, false}}, device_id);
    const CheckedTensor &tq = tensors[0], &tk = tensors[1], &tc = tensors[2], &ts = tensors[3];
    check_dtypes(tensors, {CUTILE_CPP_F32, CUTILE_CPP_F16, CUTILE_CPP_BF16});
    check_rank(tq, 4);
    check_rank(tk, 4);
    if (tc.rank() != 2 && tc.rank() != 3)
      throw AbiError(
          CUTILE_CPP_ERROR_RANK_MISMATCH,
          tc.describe() + " must be (S, W) or (1 | B, S, W), got " + std::to_string(tc.rank()) + " dims");
    check_same_shape(tc, ts);
    const int64_t batch = tq.shape[0], q_heads = tq.shape[1], seq = tq.shape[2], head_dim = tq.shape[3];
    const int64_t k_heads = tk.shape[1];
    if (tk.shape[0] != batch || tk.shape[2] != seq || tk.shape[3] != head_dim)
      throw AbiError(CUTILE_CPP_ERROR_SHAPE_MISMATCH,
                     tq.describe() + " and " + tk.describe() +
                         " must agree in batch, sequence and head dims (B, H, S, D)");
    const int64_t table_batch = tc.rank() == 3 ? tc.shape[0] : 1, table_width = tc.shape[tc.rank() - 1];
    if (tc.shape[tc.rank() - 2] != seq || (table_batch != 1 && table_batch != batch))
      throw AbiError(
          CUTILE_CPP_ERROR_SHAPE_MISMATCH,
          tc.describe() + " must be (S, W) or (1 | B, S, W) for " + tq.describe() + " (B, H, S, D)");
    if (rope_dim <= 0 || rope_dim % 2 != 0 || rope_dim > head_dim)
      throw AbiError(CUTILE_CPP_ERROR_INVALID_ARGUMENT, "rope_dim " + std::to_string(rope_dim) +
                                                            " must be even and in [2, the head dim " +
                                                            std::to_string(head_dim) + "]");
    const int64_t half = rope_dim / 2;
    if (!is_power_of_two(half) || half < kMinHalf || half > kMaxHalf)
      throw AbiError(CUTILE_CPP_ERROR_UNSUPPORTED_SHAPE,
                     "rope_dim " + std::to_string(rope_dim) +
                         ": the kernels take rope_dim/2 a power of two in [" + std::to_string(kMinHalf) +
                         ", " + std::to_string(kMaxHalf) + "]");
    if (table_width < half)
      throw AbiError(CUTILE_CPP_ERROR_SHAPE_MISMATCH,
                     tc.describe() + ": rope_dim " + std::to_string(rope_dim) + " reads its first " +
                         std::to_string(half) + " columns, it has " + std::to_string(table_width));
    if (q_heads == 0 || k_heads == 0)
      throw AbiError(CUTILE_CPP_ERROR_UNSUPPORTED_SHAPE,
                     tq.describe() + " and " + tk.describe() + " must each have at least one head");
    const int64_t head_tile = next_power_of_two(std::max(q_heads, k_heads));
    if (head_tile > kMaxHeadTile)
      throw AbiError(CUTILE_CPP_ERROR_UNSUPPORTED_SHAPE,
                     tq.describe() + " and " + tk.describe() + ": " +
                         std::to_string(std::max(q_heads, k_heads)) + " heads exceed the " +
                         std::to_string(kMaxHeadTile) + " one tile block holds");
    check_index_range(tensors);
    check_no_aliasing(tensors);
    if (batch * seq == 0) return;
    const Placement placement = place(tensors, device_id, stream);
    cutile::LaunchOptions options = placement.launch_options();
    options.hints.occupancy = kOccupancy;
    const cutile::AnyTensor bq = lend(tq, placement), bk = lend(tk, placement),
                            bc = lend(tc, placement), bs = lend(ts, placement);
    // One launch over all B·S rows when both tensors fold batch and position into rows; else one per batch.
    const bool fold = rows_fold(tq) && rows_fold(tk);
    const int64_t batches = fold ? batch : 1;
    for (int64_t first = 0; first < batch; first += batches) {
      const RopeViews views{rows_view(bq, tq, first, batches, rope_dim),
                            rows_view(bk, tk, first, batches, rope_dim), table_view(bc, tc, first, batches),
                            table_view(bs, ts, first, batches)};
      dispatch_float(tq.dtype, [&]<class E>(std::type_identity<E>) {
        launch_rope<E>(views, head_tile, half, seq, options);
      });
    }
  });
}
