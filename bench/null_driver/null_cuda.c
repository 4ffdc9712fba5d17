/* A CUDA driver that runs nothing: libcuda.so.1 for one device (sm_90, 132 SMs) whose "device memory" is
 * host memory and whose launches, events and streams succeed at once. With it on LD_LIBRARY_PATH, the
 * host side of cutile's launch path runs on a machine without a GPU, so its cost can be counted
 * (valgrind --tool=callgrind) and profiled apart from the driver's own. Kernels do not execute: results
 * are meaningless, only the host work is real. null_cuda_calls(name) counts the calls of the functions a
 * cached launch may make, so that tests can hold the launch path to its driver calls.
 *   cc -shared -fPIC -O2 -o libcuda.so.1 null_cuda.c
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef uint64_t CUdeviceptr;

enum { SUCCESS = 0, INVALID_VALUE = 1, NOT_FOUND = 500 };

/* Distinct non-null handles; each stream its own. */
static char context_object, module_object, function_object, event_object;
enum { MAX_STREAMS = 64 };
static char stream_objects[MAX_STREAMS];
static int next_stream;

/* Calls counted, by function. */
enum { CTX_GET_CURRENT, CTX_SET_CURRENT, LAUNCH_KERNEL, STREAM_WAIT_EVENT, EVENT_RECORD, COUNTED };
static const char* const counted_names[COUNTED] = {"cuCtxGetCurrent", "cuCtxSetCurrent", "cuLaunchKernel",
                                                   "cuStreamWaitEvent", "cuEventRecord"};
static unsigned long long counts[COUNTED];

/* How often `function` was called since the library was loaded; -1 for a function not counted. */
long long null_cuda_calls(const char* function) {
  for (int i = 0; i < COUNTED; ++i)
    if (strcmp(function, counted_names[i]) == 0) return (long long)__atomic_load_n(&counts[i], __ATOMIC_RELAXED);
  return -1;
}
static void count(int function) { __atomic_fetch_add(&counts[function], 1, __ATOMIC_RELAXED); }

/* Live allocations, for the pointer-range queries. */
enum { MAX_ALLOCATIONS = 4096 };
static struct {
  CUdeviceptr start;
  size_t size;
} allocations[MAX_ALLOCATIONS];

static int find_allocation(CUdeviceptr address) {
  for (int i = 0; i < MAX_ALLOCATIONS; ++i)
    if (allocations[i].start && address >= allocations[i].start && address < allocations[i].start + allocations[i].size)
      return i;
  return -1;
}

CUresult cuInit(unsigned flags) { (void)flags; return SUCCESS; }
CUresult cuDriverGetVersion(int* version) { *version = 13000; return SUCCESS; }
CUresult cuGetErrorName(CUresult error, const char** name) {
  *name = error == SUCCESS ? "CUDA_SUCCESS" : "CUDA_ERROR_NULL_DRIVER";
  return SUCCESS;
}
CUresult cuGetErrorString(CUresult error, const char** text) {
  *text = error == SUCCESS ? "no error" : "refused by the null driver";
  return SUCCESS;
}
CUresult cuDeviceGetCount(int* count) { *count = 1; return SUCCESS; }
CUresult cuDeviceGet(int* device, int ordinal) {
  if (ordinal != 0) return INVALID_VALUE;
  *device = 0;
  return SUCCESS;
}
CUresult cuDeviceGetName(char* name, int length, int device) {
  (void)device;
  strncpy(name, "Null device (no GPU)", (size_t)length);
  name[length - 1] = 0;
  return SUCCESS;
}
CUresult cuDeviceGetAttribute(int* value, int attribute, int device) {
  (void)device;
  switch (attribute) {
    case 16: *value = 132; break;  /* multiprocessors */
    case 75: *value = 9; break;    /* compute capability */
    case 76: *value = 0; break;
    default: *value = 0; break;    /* memory pools and the rest: not supported */
  }
  return SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(void** context, int device) { (void)device; *context = &context_object; return SUCCESS; }
CUresult cuDevicePrimaryCtxRelease_v2(int device) { (void)device; return SUCCESS; }
static _Thread_local void* current_context;
CUresult cuCtxGetCurrent(void** context) { count(CTX_GET_CURRENT); *context = current_context; return SUCCESS; }
CUresult cuCtxSetCurrent(void* context) { count(CTX_SET_CURRENT); current_context = context; return SUCCESS; }
CUresult cuCtxSynchronize(void) { return SUCCESS; }
CUresult cuCtxGetDevice(int* device) { *device = 0; return SUCCESS; }
CUresult cuModuleLoadData(void** module, const void* image) { (void)image; *module = &module_object; return SUCCESS; }
CUresult cuModuleGetFunction(void** function, void* module, const char* name) {
  (void)module, (void)name;
  *function = &function_object;
  return SUCCESS;
}
CUresult cuModuleUnload(void* module) { (void)module; return SUCCESS; }
CUresult cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void* stream, void** params, void** extra) {
  (void)f, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)shared, (void)stream, (void)params, (void)extra;
  count(LAUNCH_KERNEL);
  return SUCCESS;
}
CUresult cuMemAlloc_v2(CUdeviceptr* pointer, size_t bytes) {
  for (int i = 0; i < MAX_ALLOCATIONS; ++i) {
    if (allocations[i].start) continue;
    void* memory = malloc(bytes ? bytes : 1);
    if (!memory) return 2; /* out of memory */
    allocations[i].start = (CUdeviceptr)(uintptr_t)memory;
    allocations[i].size = bytes;
    *pointer = allocations[i].start;
    return SUCCESS;
  }
  return 2;
}
CUresult cuMemFree_v2(CUdeviceptr pointer) {
  int i = find_allocation(pointer);
  if (i < 0) return INVALID_VALUE;
  free((void*)(uintptr_t)allocations[i].start);
  allocations[i].start = 0;
  return SUCCESS;
}
CUresult cuMemAllocAsync(CUdeviceptr* pointer, size_t bytes, void* stream) { (void)stream; return cuMemAlloc_v2(pointer, bytes); }
CUresult cuMemFreeAsync(CUdeviceptr pointer, void* stream) { (void)stream; return cuMemFree_v2(pointer); }
CUresult cuMemcpyHtoD_v2(CUdeviceptr to, const void* from, size_t bytes) { memcpy((void*)(uintptr_t)to, from, bytes); return SUCCESS; }
CUresult cuMemcpyDtoH_v2(void* to, CUdeviceptr from, size_t bytes) { memcpy(to, (const void*)(uintptr_t)from, bytes); return SUCCESS; }
CUresult cuMemsetD8_v2(CUdeviceptr to, unsigned char value, size_t bytes) { memset((void*)(uintptr_t)to, value, bytes); return SUCCESS; }
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr to, const void* from, size_t bytes, void* stream) { (void)stream; return cuMemcpyHtoD_v2(to, from, bytes); }
CUresult cuMemcpyDtoHAsync_v2(void* to, CUdeviceptr from, size_t bytes, void* stream) { (void)stream; return cuMemcpyDtoH_v2(to, from, bytes); }
CUresult cuMemsetD8Async(CUdeviceptr to, unsigned char value, size_t bytes, void* stream) { (void)stream; return cuMemsetD8_v2(to, value, bytes); }
CUresult cuStreamSynchronize(void* stream) { (void)stream; return SUCCESS; }
CUresult cuStreamCreate(void** stream, unsigned flags) {
  (void)flags;
  *stream = &stream_objects[__atomic_fetch_add(&next_stream, 1, __ATOMIC_RELAXED) % MAX_STREAMS];
  return SUCCESS;
}
CUresult cuStreamDestroy_v2(void* stream) { (void)stream; return SUCCESS; }
CUresult cuStreamWaitEvent(void* stream, void* event, unsigned flags) {
  (void)stream, (void)event, (void)flags;
  count(STREAM_WAIT_EVENT);
  return SUCCESS;
}
CUresult cuStreamGetCtx(void* stream, void** context) { (void)stream; *context = &context_object; return SUCCESS; }
CUresult cuEventCreate(void** event, unsigned flags) { (void)flags; *event = &event_object; return SUCCESS; }
CUresult cuEventRecord(void* event, void* stream) { (void)event, (void)stream; count(EVENT_RECORD); return SUCCESS; }
CUresult cuEventSynchronize(void* event) { (void)event; return SUCCESS; }
CUresult cuEventQuery(void* event) { (void)event; return SUCCESS; }
CUresult cuEventDestroy_v2(void* event) { (void)event; return SUCCESS; }
CUresult cuEventElapsedTime_v2(float* milliseconds, void* start, void* end) { (void)start, (void)end; *milliseconds = 0; return SUCCESS; }
CUresult cuPointerGetAttribute(void* data, int attribute, CUdeviceptr pointer) {
  int i = find_allocation(pointer);
  if (i < 0) return INVALID_VALUE;
  switch (attribute) {
    case 9: *(int*)data = 0; return SUCCESS;                                  /* device ordinal */
    case 11: *(CUdeviceptr*)data = allocations[i].start; return SUCCESS;      /* range start */
    case 12: *(size_t*)data = allocations[i].size; return SUCCESS;            /* range size */
    default: return NOT_FOUND;
  }
}
