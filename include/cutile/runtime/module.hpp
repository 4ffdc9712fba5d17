// A cubin loaded into the current context, and the kernel functions in it.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "cutile/runtime/driver_api.hpp"

namespace cutile::runtime {

struct KernelFunction {
  CUfunction handle = nullptr;
  std::string name;
};

/// Unloaded on destruction; its KernelFunctions must not be launched after that.
class LoadedModule {
 public:
  explicit LoadedModule(std::span<const uint8_t> cubin);
  ~LoadedModule();
  LoadedModule(LoadedModule&& other) noexcept;
  LoadedModule& operator=(LoadedModule&& other) noexcept;
  LoadedModule(const LoadedModule&) = delete;
  LoadedModule& operator=(const LoadedModule&) = delete;

  /// The entry function `name`; a cutile::UserError naming it (and the module's functions, where the
  /// driver can list them) when the module has no such function.
  KernelFunction function(const std::string& name) const;

 private:
  void release() noexcept;

  CUmodule handle_ = nullptr;
};

}  // namespace cutile::runtime
