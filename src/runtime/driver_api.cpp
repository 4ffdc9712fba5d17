#include "cutile/runtime/driver_api.hpp"

#include <dlfcn.h>

#include "cutile/error.hpp"

namespace cutile::runtime {
namespace {

constexpr const char* kLibrary = "libcuda.so.1";

struct LoadedDriver {
  DriverApi api{};
  std::string why_not;  ///< empty when the driver is usable
};

// Names the error even when the driver is unusable but loaded (cuInit failed).
std::string describe_with(const DriverApi& api, CUresult result) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (api.cuGetErrorName) api.cuGetErrorName(result, &name);
  if (api.cuGetErrorString) api.cuGetErrorString(result, &text);
  return std::string(name ? name : "CUDA_ERROR_UNKNOWN") + " (" + std::to_string(result) +
         "): " + (text ? text : "no description");
}

template <class Function>
bool resolve(void* library, Function*& slot, const char* symbol) {
  slot = reinterpret_cast<Function*>(::dlsym(library, symbol));
  return slot != nullptr;
}

LoadedDriver load_driver() {
  LoadedDriver driver;
  // Never closed: the driver keeps state until the process ends, and unloading it at exit is unsafe.
  void* library = ::dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* error = ::dlerror();
    driver.why_not = std::string("cannot load the CUDA driver: ") + (error ? error : kLibrary) +
                     " (is an NVIDIA driver installed?)";
    return driver;
  }
  DriverApi& api = driver.api;
  std::string missing;
  auto need = [&](auto*& slot, const char* symbol) {
    if (!resolve(library, slot, symbol)) missing += std::string(missing.empty() ? "" : ", ") + symbol;
  };
  need(api.cuInit, "cuInit");
  need(api.cuDriverGetVersion, "cuDriverGetVersion");
  need(api.cuGetErrorName, "cuGetErrorName");
  need(api.cuGetErrorString, "cuGetErrorString");
  need(api.cuDeviceGetCount, "cuDeviceGetCount");
  need(api.cuDeviceGet, "cuDeviceGet");
  need(api.cuDeviceGetName, "cuDeviceGetName");
  need(api.cuDeviceGetAttribute, "cuDeviceGetAttribute");
  need(api.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  need(api.cuDevicePrimaryCtxRelease_v2, "cuDevicePrimaryCtxRelease_v2");
  need(api.cuCtxGetCurrent, "cuCtxGetCurrent");
  need(api.cuCtxSetCurrent, "cuCtxSetCurrent");
  need(api.cuCtxSynchronize, "cuCtxSynchronize");
  need(api.cuModuleLoadData, "cuModuleLoadData");
  need(api.cuModuleGetFunction, "cuModuleGetFunction");
  need(api.cuModuleUnload, "cuModuleUnload");
  need(api.cuLaunchKernel, "cuLaunchKernel");
  need(api.cuMemAlloc_v2, "cuMemAlloc_v2");
  need(api.cuMemFree_v2, "cuMemFree_v2");
  need(api.cuMemcpyHtoD_v2, "cuMemcpyHtoD_v2");
  need(api.cuMemcpyDtoH_v2, "cuMemcpyDtoH_v2");
  need(api.cuMemsetD8_v2, "cuMemsetD8_v2");
  need(api.cuStreamSynchronize, "cuStreamSynchronize");
  need(api.cuEventCreate, "cuEventCreate");
  need(api.cuEventRecord, "cuEventRecord");
  need(api.cuEventSynchronize, "cuEventSynchronize");
  need(api.cuEventDestroy_v2, "cuEventDestroy_v2");
  need(api.cuEventQuery, "cuEventQuery");
  need(api.cuStreamCreate, "cuStreamCreate");
  need(api.cuStreamDestroy_v2, "cuStreamDestroy_v2");
  need(api.cuStreamWaitEvent, "cuStreamWaitEvent");
  need(api.cuStreamGetCtx, "cuStreamGetCtx");
  need(api.cuCtxGetDevice, "cuCtxGetDevice");
  need(api.cuPointerGetAttribute, "cuPointerGetAttribute");
  need(api.cuMemcpyHtoDAsync_v2, "cuMemcpyHtoDAsync_v2");
  need(api.cuMemcpyDtoHAsync_v2, "cuMemcpyDtoHAsync_v2");
  need(api.cuMemsetD8Async, "cuMemsetD8Async");
  // CUDA 12.8 added a _v2 with the same signature, and newer headers map the plain name to it.
  if (!resolve(library, api.cuEventElapsedTime, "cuEventElapsedTime_v2"))
    need(api.cuEventElapsedTime, "cuEventElapsedTime");
  // Both or neither: memory from cuMemAllocAsync must go back through cuMemFreeAsync.
  if (!resolve(library, api.cuMemAllocAsync, "cuMemAllocAsync") ||
      !resolve(library, api.cuMemFreeAsync, "cuMemFreeAsync")) {
    api.cuMemAllocAsync = nullptr;
    api.cuMemFreeAsync = nullptr;
  }
  resolve(library, api.cuModuleGetFunctionCount, "cuModuleGetFunctionCount");
  resolve(library, api.cuModuleEnumerateFunctions, "cuModuleEnumerateFunctions");
  resolve(library, api.cuFuncGetName, "cuFuncGetName");
  if (!missing.empty()) {
    driver.why_not =
        std::string("the CUDA driver ") + kLibrary + " is too old: it does not export " + missing;
    return driver;
  }
  if (CUresult result = api.cuInit(0); result != kCudaSuccess)
    driver.why_not = "cuInit failed: " + describe_with(api, result);
  return driver;
}

const LoadedDriver& loaded_driver() {
  static const LoadedDriver driver = load_driver();
  return driver;
}

}  // namespace

bool driver_available(std::string* why_not) {
  const auto& driver = loaded_driver();
  if (why_not) *why_not = driver.why_not;
  return driver.why_not.empty();
}

const DriverApi& driver_api() {
  const auto& driver = loaded_driver();
  if (!driver.why_not.empty()) throw RuntimeError(driver.why_not);
  return driver.api;
}

int driver_version() {
  int version = 0;
  check(driver_api().cuDriverGetVersion(&version), "cuDriverGetVersion");
  return version;
}

std::string describe_result(CUresult result) {
  return describe_with(loaded_driver().api, result);
}

void check(CUresult result, const char* call) {
  if (result != kCudaSuccess) throw RuntimeError(std::string(call) + " failed: " + describe_result(result));
}

}  // namespace cutile::runtime
