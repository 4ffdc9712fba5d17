// The C++ side of the package: the DSL headers and libraries, a kernel header, and the C ABI.
#include <cstdio>

#include "cutile/launch.hpp"
#include "cutile_cpp/kernels.h"
#include "normalization/softmax.hpp"

int main() {
  // A partition of a meta tensor needs no GPU; its grid is the softmax launch grid, one block per row.
  auto y = cutile::Tensor<cutile::bf16>::meta({6, 100});
  auto partition = y.partition({1, 128});
  if (partition.grid() != std::array<int64_t, 3>{6, 1, 1}) return 1;
  void (*kernel)(cutile::Out<cutile::bf16, cutile::Shape<1, 128>>, cutile::In<cutile::bf16, cutile::Shape<cutile::dyn, cutile::dyn>>) =
      cutile::kernels::softmax_row<cutile::bf16, 128>;
  if (!kernel) return 1;
  if (cutile_cpp_vector_add(nullptr, nullptr, nullptr, 0, nullptr) != CUTILE_CPP_ERROR_NULL_POINTER) return 1;
  std::printf("consumer_cpp: grid %lld x 1 x 1, %s\n", static_cast<long long>(partition.grid()[0]),
              cutile_cpp_last_error());
  return 0;
}
