// The C++ side of the package: the DSL headers and libraries, the IR diff library, a kernel header, and the
// C ABI.
#include <cstdio>
#include <string>

#include "cutile/host/launch.hpp"
#include "cutile/ir_diff/equivalence.hpp"
#include "cutile_cpp/dlpack.hpp"
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
  if (!cutile::ir::modules_equivalent(cutile::ir::Module{}, cutile::ir::Module{})) return 1;
  if (cutile_cpp_vector_add(nullptr, nullptr, nullptr, 0, nullptr) != CUTILE_CPP_ERROR_NULL_POINTER) return 1;
  // DLPack: a host DLTensor (a transposed 3 x 4 bf16 view at a byte offset) as a C ABI descriptor.
  uint16_t storage[16] = {};
  int64_t shape[2] = {4, 3}, strides[2] = {1, 4};
  DLTensor host{storage, {kDLCPU, 0}, 2, {kDLBfloat, 16, 1}, shape, strides, 4};
  const cutile_cpp_tensor d = cutile::dlpack::to_descriptor(host);
  if (d.dtype != CUTILE_CPP_BF16 || d.device_type != CUTILE_CPP_DEVICE_CPU || d.data != storage + 2 ||
      d.shape[0] != 4 || d.shape[1] != 3 || d.strides[0] != 1 || d.strides[1] != 4)
    return 1;
  // Run on the CPU interpreter: rows of three zeros give 1/3 each, 0x3eab in bf16.
  uint16_t result[16] = {};
  cutile_cpp_tensor out = d;
  out.data = result;
  if (cutile_cpp_softmax(&out, &d, 0, 0, 0, 0, nullptr) != CUTILE_CPP_OK || result[0] != 0x3eab || result[11] != 0x3eab) {
    std::fprintf(stderr, "softmax on the CPU: %s (%x)\n", cutile_cpp_last_error(), result[0]);
    return 1;
  }
  host.strides = nullptr;  // row-major
  if (cutile::dlpack::to_descriptor(host).strides[0] != 3) return 1;
  host.dtype = {kDLFloat, 64, 1};
  try {
    cutile::dlpack::to_descriptor(host);
    return 1;
  } catch (const cutile::UserError& e) {
    if (std::string(e.message()) != "DLPack dtype (code 2, 64 bits, 1 lanes) has no cutile_cpp dtype") return 1;
  }
  std::printf("consumer_cpp: grid %lld x 1 x 1, %s\n", static_cast<long long>(partition.grid()[0]),
              cutile_cpp_last_error());
  return 0;
}
