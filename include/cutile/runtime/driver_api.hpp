// The CUDA driver API, loaded with dlopen on first use so that cutile builds and runs without CUDA.
// Only the few types and entry points cutile calls are declared here; no cuda.h is needed.
#pragma once

#include <cstddef>
#include <string>

namespace cutile::runtime {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;

inline constexpr CUresult kCudaSuccess = 0;
inline constexpr CUresult kCudaErrorNotFound = 500;
inline constexpr CUresult kCudaErrorNotReady = 600;
inline constexpr int kAttributeMemoryPoolsSupported = 115;
inline constexpr int kPointerAttributeDeviceOrdinal = 9;
inline constexpr int kPointerAttributeRangeStartAddr = 11;
inline constexpr int kPointerAttributeRangeSize = 12;
inline constexpr unsigned kStreamNonBlocking = 0x1;
inline constexpr unsigned kEventDisableTiming = 0x2;
inline constexpr int kAttributeMultiprocessorCount = 16;
inline constexpr int kAttributeComputeCapabilityMajor = 75;
inline constexpr int kAttributeComputeCapabilityMinor = 76;

/// Entry points, named as the exported symbols (the _v2 ones are what cuda.h maps the plain names to).
struct DriverApi {
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuDriverGetVersion)(int* version);
  CUresult (*cuGetErrorName)(CUresult error, const char** name);
  CUresult (*cuGetErrorString)(CUresult error, const char** text);
  CUresult (*cuDeviceGetCount)(int* count);
  CUresult (*cuDeviceGet)(CUdevice* device, int ordinal);
  CUresult (*cuDeviceGetName)(char* name, int length, CUdevice device);
  CUresult (*cuDeviceGetAttribute)(int* value, int attribute, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext* context, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRelease_v2)(CUdevice device);
  CUresult (*cuCtxGetCurrent)(CUcontext* context);
  CUresult (*cuCtxSetCurrent)(CUcontext context);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadData)(CUmodule* module, const void* image);
  CUresult (*cuModuleGetFunction)(CUfunction* function, CUmodule module, const char* name);
  CUresult (*cuModuleUnload)(CUmodule module);
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                             unsigned block_x, unsigned block_y, unsigned block_z, unsigned shared_bytes,
                             CUstream stream, void** params, void** extra);
  CUresult (*cuMemAlloc_v2)(CUdeviceptr* pointer, size_t bytes);
  CUresult (*cuMemFree_v2)(CUdeviceptr pointer);
  CUresult (*cuMemcpyHtoD_v2)(CUdeviceptr destination, const void* source, size_t bytes);
  CUresult (*cuMemcpyDtoH_v2)(void* destination, CUdeviceptr source, size_t bytes);
  CUresult (*cuMemsetD8_v2)(CUdeviceptr destination, unsigned char value, size_t bytes);
  CUresult (*cuStreamSynchronize)(CUstream stream);
  CUresult (*cuEventCreate)(CUevent* event, unsigned flags);
  CUresult (*cuEventRecord)(CUevent event, CUstream stream);
  CUresult (*cuEventSynchronize)(CUevent event);
  CUresult (*cuEventElapsedTime)(float* milliseconds, CUevent start, CUevent end);  ///< _v2 when exported
  CUresult (*cuEventDestroy_v2)(CUevent event);
  CUresult (*cuEventQuery)(CUevent event);
  CUresult (*cuStreamCreate)(CUstream* stream, unsigned flags);
  CUresult (*cuStreamDestroy_v2)(CUstream stream);
  CUresult (*cuStreamWaitEvent)(CUstream stream, CUevent event, unsigned flags);
  CUresult (*cuStreamGetCtx)(CUstream stream, CUcontext* context);
  CUresult (*cuCtxGetDevice)(CUdevice* device);
  CUresult (*cuPointerGetAttribute)(void* data, int attribute, CUdeviceptr pointer);
  CUresult (*cuMemcpyHtoDAsync_v2)(CUdeviceptr destination, const void* source, size_t bytes,
                                   CUstream stream);
  CUresult (*cuMemcpyDtoHAsync_v2)(void* destination, CUdeviceptr source, size_t bytes, CUstream stream);
  CUresult (*cuMemsetD8Async)(CUdeviceptr destination, unsigned char value, size_t bytes, CUstream stream);
  // Stream-ordered allocation (CUDA 11.2); null on older drivers, where tensors use cuMemAlloc instead.
  CUresult (*cuMemAllocAsync)(CUdeviceptr* pointer, size_t bytes, CUstream stream);
  CUresult (*cuMemFreeAsync)(CUdeviceptr pointer, CUstream stream);
  // Newer than the rest (CUDA 12.4); null on older drivers, used only to list a module's functions.
  CUresult (*cuModuleGetFunctionCount)(unsigned* count, CUmodule module);
  CUresult (*cuModuleEnumerateFunctions)(CUfunction* functions, unsigned count, CUmodule module);
  CUresult (*cuFuncGetName)(const char** name, CUfunction function);
};

/// Whether libcuda.so.1 loads, exports what cutile needs and cuInit succeeds; if not, *why_not says why.
bool driver_available(std::string* why_not = nullptr);

/// The loaded driver, or a cutile::RuntimeError saying why there is none.
const DriverApi& driver_api();

/// The CUDA version the driver implements, e.g. 13000 for 13.0.
int driver_version();

/// "CUDA_ERROR_NOT_FOUND (500): named symbol not found".
std::string describe_result(CUresult result);

/// Throws cutile::RuntimeError("<call> failed: <describe_result>") unless `result` is success.
void check(CUresult result, const char* call);

}  // namespace cutile::runtime
