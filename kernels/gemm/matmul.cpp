// matmul: the description and launcher of matmul.hpp. One instance per dtype and kernel, at TileGym's
// first autotuning candidates for the H200 (its tilegym/ops/cutile/matmul.py); the rest of TileGym's
// matmul (transposes, fp8 with scales, its autotuning) is not here yet.
#include <algorithm>

#include "cutile/op/dispatch.hpp"
#include "cutile/op/registry.hpp"
#include "gemm/matmul.hpp"

namespace cutile::kernels {

void launch_matmul(op::Target& target, const AnyTensor& c, const AnyTensor& a, const AnyTensor& b,
                   bool static_persistent) {
  op::with_float_element(a.element_type(), [&]<class E>() {
    const Tensor<E> ct(c), at(a), bt(b);
    LaunchOptions options;
    if (!static_persistent) {
      options.hints = {.num_ctas = 1, .occupancy = 1};
      return target.launch(options, matmul<E, E, 128, 128, 32>, ct.partition({128, 128}), at, bt);
    }
    constexpr int64_t BM = 128, BN = 512, CTAS = 4;
    const int64_t tiles = ((c.shape()[0] + BM - 1) / BM) * ((c.shape()[1] + BN - 1) / BN);
    options.hints = {.num_ctas = CTAS, .occupancy = 1};
    options.grid = std::array<int64_t, 3>{std::max<int64_t>(1, std::min<int64_t>(target.sm_count() / CTAS, tiles)), 1, 1};
    target.launch(options, persistent_matmul<E, E, BM, BN, 64, 8>, ct.partition({BM, BN}), at, bt);
  });
}

const op::OpSpec matmul_op{
    .name = "matmul",
    .family = "gemm",
    .doc = "c = a @ b on the tensor cores with f32 accumulation (f32 inputs as tf32), stored in the dtype. "
           "static_persistent walks the output tiles with a persistent grid in TileGym's grouped order.",
    .provenance = "TileGym src/tilegym/ops/cutile/matmul.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("c", "E[M, N]"), op::in("a", "E[M, K]"), op::in("b", "E[K, N]")},
    .scalars = {op::flag("static_persistent").described("one persistent block per four SMs' cluster, grouped order")},
    .launch = op::bind<launch_matmul>(),
    .parity = {{"matmul.matmul", "matmul", "M=4096 N=4096 K=4096 E=f16"},
               {"matmul.static_persistent", "persistent_matmul", "M=4096 N=4096 K=4096 E=f16 static_persistent=1"}},
    .configurations = {"M=300 N=200 K={64,1000} E={f32,f16,bf16} static_persistent={0,1}"},
};

const op::Registration registration{matmul_op};

}  // namespace cutile::kernels
