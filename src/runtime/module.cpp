#include "cutile/runtime/module.hpp"

#include <utility>
#include <vector>

#include "cutile/error.hpp"

namespace cutile::runtime {
namespace {

// The module's function names, or "" when the driver predates cuModuleEnumerateFunctions (12.4).
std::string function_names(CUmodule module) {
  const DriverApi& api = driver_api();
  unsigned count = 0;
  if (!api.cuModuleGetFunctionCount || !api.cuModuleEnumerateFunctions || !api.cuFuncGetName ||
      api.cuModuleGetFunctionCount(&count, module) != kCudaSuccess)
    return "";
  std::vector<CUfunction> functions(count);
  if (count == 0 || api.cuModuleEnumerateFunctions(functions.data(), count, module) != kCudaSuccess)
    return "";
  std::string names;
  for (CUfunction function : functions) {
    const char* name = nullptr;
    if (api.cuFuncGetName(&name, function) == kCudaSuccess && name)
      names += (names.empty() ? "" : ", ") + std::string(name);
  }
  return names;
}

}  // namespace

LoadedModule::LoadedModule(std::span<const uint8_t> cubin) {
  if (cubin.empty()) throw UserError("cannot load an empty cubin");
  check(driver_api().cuModuleLoadData(&handle_, cubin.data()), "cuModuleLoadData");
}

LoadedModule::~LoadedModule() {
  release();
}

LoadedModule::LoadedModule(LoadedModule&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}

LoadedModule& LoadedModule::operator=(LoadedModule&& other) noexcept {
  if (this != &other) {
    release();
    handle_ = std::exchange(other.handle_, nullptr);
  }
  return *this;
}

void LoadedModule::release() noexcept {
  if (handle_) driver_api().cuModuleUnload(handle_);  // a failure here only leaks the module
  handle_ = nullptr;
}

KernelFunction LoadedModule::function(const std::string& name) const {
  KernelFunction function{nullptr, name};
  CUresult result = driver_api().cuModuleGetFunction(&function.handle, handle_, name.c_str());
  if (result == kCudaErrorNotFound) {
    std::string names = function_names(handle_);
    throw UserError("the loaded module has no kernel function '" + name + "'" +
                    (names.empty() ? std::string() : "; it defines: " + names));
  }
  check(result, "cuModuleGetFunction");
  return function;
}

}  // namespace cutile::runtime
