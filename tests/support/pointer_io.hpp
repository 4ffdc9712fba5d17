// One-op kernels for the interpreter tier: each input is loaded whole through a pointer tile, the body
// computes a tile from the loaded tiles, the result is stored whole through another pointer tile.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "cutile/interp/run.hpp"
#include "cutile/ir/builder.hpp"
#include "support/host_tensor.hpp"

namespace cutile::test_support {

using TileBody = std::function<ir::Value*(ir::Builder&, std::span<ir::Value* const> loaded)>;

/// Pointers to the elements of a `shape` tile at consecutive addresses from pointer parameter `base`.
inline ir::Value* consecutive_pointers(ir::Builder& b, ir::Value* base, const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  ir::Value* p = b.reshape(base, std::vector<int64_t>(shape.size(), 1));
  return b.offset(b.broadcast(p, shape), b.reshape(b.iota(n), shape));
}

/// Kernel "k"(inputs..., out): out = body(load(inputs)...) on a 1×1×1 grid; input i is a tile of shapes[i], the
/// output a tile of `out_shape`.
inline std::unique_ptr<ir::Module> pointer_kernel(std::span<const ir::ElementType> inputs,
                                                  const std::vector<std::vector<int64_t>>& shapes, ir::ElementType out,
                                                  const std::vector<int64_t>& out_shape, const TileBody& body) {
  auto module = std::make_unique<ir::Module>();
  std::vector<ir::Type> params;
  for (ir::ElementType e : inputs) params.push_back(ir::pointer_type(e));
  params.push_back(ir::pointer_type(out));
  ir::Function& f = module->add_function("k", params);
  ir::Builder b(f.entry_block());
  std::vector<ir::Value*> loaded;
  for (size_t i = 0; i < inputs.size(); ++i) loaded.push_back(b.load_ptr(consecutive_pointers(b, f.parameter(i), shapes[i])).first);
  b.store_ptr(consecutive_pointers(b, f.parameter(inputs.size()), out_shape), body(b, loaded));
  b.return_();
  return module;
}

/// Runs pointer_kernel on host tensors (tiles of their own shapes) and returns the output's values.
inline std::vector<double> run_pointer_kernel(std::vector<HostTensor*> inputs, HostTensor& out, const TileBody& body) {
  std::vector<ir::ElementType> types;
  std::vector<std::vector<int64_t>> shapes;
  std::vector<uint64_t> params;
  std::vector<interp::MemoryRegion> regions;
  for (HostTensor* t : inputs) {
    types.push_back(t->element());
    shapes.push_back(t->shape());
    params.push_back(t->address());
    regions.push_back(t->region("input", false));
  }
  params.push_back(out.address());
  regions.push_back(out.region("output"));
  auto module = pointer_kernel(types, shapes, out.element(), out.shape(), body);
  interp::run(*module, "k", params, {1, 1, 1}, regions);
  return out.values();
}

/// The same with every input and the output viewed as tiles of `shape`.
inline std::vector<double> run_pointer_kernel(std::vector<HostTensor*> inputs, HostTensor& out, const std::vector<int64_t>& shape,
                                              const TileBody& body) {
  std::vector<ir::ElementType> types;
  std::vector<uint64_t> params;
  std::vector<interp::MemoryRegion> regions;
  for (HostTensor* t : inputs) {
    types.push_back(t->element());
    params.push_back(t->address());
    regions.push_back(t->region("input", false));
  }
  params.push_back(out.address());
  regions.push_back(out.region("output"));
  auto module = pointer_kernel(types, std::vector<std::vector<int64_t>>(inputs.size(), shape), out.element(), shape, body);
  interp::run(*module, "k", params, {1, 1, 1}, regions);
  return out.values();
}

}  // namespace cutile::test_support
