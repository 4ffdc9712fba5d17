/* A CUDA driver that runs nothing: libcuda.so.1 for one device (sm_90, 132 SMs) whose "device memory" is
 * host memory and whose launches, events and streams succeed at once. With it on LD_LIBRARY_PATH, the
 * host side of cutile's launch path runs on a machine without a GPU, so its cost can be counted
 * (valgrind --tool=callgrind) and profiled apart from the driver's own. Kernels do not execute: results
 * are meaningless, only the host work is real. null_cuda_calls(name) counts the calls of the functions a
 * cached launch may make, so that tests can hold the launch path to its driver calls. null_cuda_fail_at
 * makes one driver call fail, so that tests can sweep every call of a path (tests/null_driver), and
 * null_cuda_live_allocations counts the device memory not freed.
 *   cc -shared -fPIC -O2 -o libcuda.so.1 null_cuda.c
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef uint64_t CUdeviceptr;

enum { SUCCESS = 0, INVALID_VALUE = 1, OUT_OF_MEMORY = 2, NOT_FOUND = 500 };

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

static unsigned long long calls_that_may_fail;  /* every call but the releases and error queries */

/* How often `function` was called since the library was loaded ("all": every call that may be failed,
 * see null_cuda_fail_at); -1 for a function not counted. */
long long null_cuda_calls(const char* function) {
  if (strcmp(function, "all") == 0) return (long long)__atomic_load_n(&calls_that_may_fail, __ATOMIC_RELAXED);
  for (int i = 0; i < COUNTED; ++i)
    if (strcmp(function, counted_names[i]) == 0) return (long long)__atomic_load_n(&counts[i], __ATOMIC_RELAXED);
  return -1;
}
static void count(int function) { __atomic_fetch_add(&counts[function], 1, __ATOMIC_RELAXED); }

/* Fault injection: the `nth` driver call from now (1 the next) returns `code` without doing anything; 0
 * disarms. Releases (frees, unloads, destroys) and the error-text queries are never failed: a release that
 * fails leaks by the driver's own doing, and errors are reported through the queries. Returns whether the
 * previously armed failure happened. */
static long long countdown; /* > 0: armed */
static int failing_code, failure_happened;
static const char* failed_function = "";
/* The function whose call was failed last ("" before any). */
const char* null_cuda_failed_function(void) { return failed_function; }
int null_cuda_fail_at(long long nth, int code) {
  const int happened = __atomic_exchange_n(&failure_happened, 0, __ATOMIC_SEQ_CST);
  failing_code = code;
  __atomic_store_n(&countdown, nth, __ATOMIC_SEQ_CST);
  return happened;
}
/* Whether this call is the armed one. */
static int fault(const char* function) {
  __atomic_fetch_add(&calls_that_may_fail, 1, __ATOMIC_RELAXED);
  long long left = __atomic_load_n(&countdown, __ATOMIC_SEQ_CST);
  while (left > 0)
    if (__atomic_compare_exchange_n(&countdown, &left, left - 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
      if (left != 1) return 0;
      failed_function = function;
      __atomic_store_n(&failure_happened, 1, __ATOMIC_SEQ_CST);
      return 1;
    }
  return 0;
}
#define FAULT_POINT \
  if (fault(__func__)) return failing_code

/* Live allocations, for the pointer-range queries. */
enum { MAX_ALLOCATIONS = 4096 };
static struct {
  CUdeviceptr start;
  size_t size;
} allocations[MAX_ALLOCATIONS];

long long null_cuda_live_allocations(void) {
  long long live = 0;
  for (int i = 0; i < MAX_ALLOCATIONS; ++i) live += allocations[i].start != 0;
  return live;
}

static int find_allocation(CUdeviceptr address) {
  for (int i = 0; i < MAX_ALLOCATIONS; ++i)
    if (allocations[i].start && address >= allocations[i].start && address < allocations[i].start + allocations[i].size)
      return i;
  return -1;
}

CUresult cuInit(unsigned flags) {
  FAULT_POINT;
  (void)flags; return SUCCESS;
}
CUresult cuDriverGetVersion(int* version) {
  FAULT_POINT;
  *version = 13000; return SUCCESS;
}
CUresult cuGetErrorName(CUresult error, const char** name) {
  *name = error == SUCCESS ? "CUDA_SUCCESS" : error == OUT_OF_MEMORY ? "CUDA_ERROR_OUT_OF_MEMORY" : "CUDA_ERROR_NULL_DRIVER";
  return SUCCESS;
}
CUresult cuGetErrorString(CUresult error, const char** text) {
  *text = error == SUCCESS ? "no error" : error == OUT_OF_MEMORY ? "out of memory" : "refused by the null driver";
  return SUCCESS;
}
CUresult cuDeviceGetCount(int* count) {
  FAULT_POINT;
  *count = 1; return SUCCESS;
}
CUresult cuDeviceGet(int* device, int ordinal) {
  FAULT_POINT;
  if (ordinal != 0) return INVALID_VALUE;
  *device = 0;
  return SUCCESS;
}
CUresult cuDeviceGetName(char* name, int length, int device) {
  FAULT_POINT;
  (void)device;
  strncpy(name, "Null device (no GPU)", (size_t)length);
  name[length - 1] = 0;
  return SUCCESS;
}
CUresult cuDeviceGetAttribute(int* value, int attribute, int device) {
  FAULT_POINT;
  (void)device;
  switch (attribute) {
    case 16: *value = 132; break;  /* multiprocessors */
    case 75: *value = 9; break;    /* compute capability */
    case 76: *value = 0; break;
    default: *value = 0; break;    /* memory pools and the rest: not supported */
  }
  return SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(void** context, int device) {
  FAULT_POINT;
  (void)device; *context = &context_object; return SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease_v2(int device) { (void)device; return SUCCESS; }
static _Thread_local void* current_context;
CUresult cuCtxGetCurrent(void** context) {
  FAULT_POINT;
  count(CTX_GET_CURRENT); *context = current_context; return SUCCESS;
}
CUresult cuCtxSetCurrent(void* context) {
  FAULT_POINT;
  count(CTX_SET_CURRENT); current_context = context; return SUCCESS;
}
CUresult cuCtxSynchronize(void) {
  FAULT_POINT;
  return SUCCESS;
}
CUresult cuCtxGetDevice(int* device) {
  FAULT_POINT;
  *device = 0; return SUCCESS;
}
CUresult cuModuleLoadData(void** module, const void* image) {
  FAULT_POINT;
  (void)image; *module = &module_object; return SUCCESS;
}
CUresult cuModuleGetFunction(void** function, void* module, const char* name) {
  FAULT_POINT;
  (void)module, (void)name;
  *function = &function_object;
  return SUCCESS;
}
CUresult cuModuleUnload(void* module) { (void)module; return SUCCESS; }
CUresult cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void* stream, void** params, void** extra) {
  FAULT_POINT;
  (void)f, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)shared, (void)stream, (void)params, (void)extra;
  count(LAUNCH_KERNEL);
  return SUCCESS;
}
CUresult cuMemAlloc_v2(CUdeviceptr* pointer, size_t bytes) {
  FAULT_POINT;
  for (int i = 0; i < MAX_ALLOCATIONS; ++i) {
    if (allocations[i].start) continue;
    void* memory = malloc(bytes ? bytes : 1);
    if (!memory) return OUT_OF_MEMORY;
    allocations[i].start = (CUdeviceptr)(uintptr_t)memory;
    allocations[i].size = bytes;
    *pointer = allocations[i].start;
    return SUCCESS;
  }
  return OUT_OF_MEMORY;
}
CUresult cuMemFree_v2(CUdeviceptr pointer) {
  int i = find_allocation(pointer);
  if (i < 0) return INVALID_VALUE;
  free((void*)(uintptr_t)allocations[i].start);
  allocations[i].start = 0;
  return SUCCESS;
}
CUresult cuMemAllocAsync(CUdeviceptr* pointer, size_t bytes, void* stream) {
  FAULT_POINT;
  (void)stream; return cuMemAlloc_v2(pointer, bytes);
}
CUresult cuMemFreeAsync(CUdeviceptr pointer, void* stream) { (void)stream; return cuMemFree_v2(pointer); }
CUresult cuMemcpyHtoD_v2(CUdeviceptr to, const void* from, size_t bytes) {
  FAULT_POINT;
  memcpy((void*)(uintptr_t)to, from, bytes); return SUCCESS;
}
CUresult cuMemcpyDtoH_v2(void* to, CUdeviceptr from, size_t bytes) {
  FAULT_POINT;
  memcpy(to, (const void*)(uintptr_t)from, bytes); return SUCCESS;
}
CUresult cuMemsetD8_v2(CUdeviceptr to, unsigned char value, size_t bytes) {
  FAULT_POINT;
  memset((void*)(uintptr_t)to, value, bytes); return SUCCESS;
}
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr to, const void* from, size_t bytes, void* stream) {
  FAULT_POINT;
  (void)stream; return cuMemcpyHtoD_v2(to, from, bytes);
}
CUresult cuMemcpyDtoHAsync_v2(void* to, CUdeviceptr from, size_t bytes, void* stream) {
  FAULT_POINT;
  (void)stream; return cuMemcpyDtoH_v2(to, from, bytes);
}
CUresult cuMemsetD8Async(CUdeviceptr to, unsigned char value, size_t bytes, void* stream) {
  FAULT_POINT;
  (void)stream; return cuMemsetD8_v2(to, value, bytes);
}
CUresult cuStreamSynchronize(void* stream) {
  FAULT_POINT;
  (void)stream; return SUCCESS;
}
CUresult cuStreamCreate(void** stream, unsigned flags) {
  FAULT_POINT;
  (void)flags;
  *stream = &stream_objects[__atomic_fetch_add(&next_stream, 1, __ATOMIC_RELAXED) % MAX_STREAMS];
  return SUCCESS;
}
CUresult cuStreamDestroy_v2(void* stream) { (void)stream; return SUCCESS; }
CUresult cuStreamWaitEvent(void* stream, void* event, unsigned flags) {
  FAULT_POINT;
  (void)stream, (void)event, (void)flags;
  count(STREAM_WAIT_EVENT);
  return SUCCESS;
}
CUresult cuStreamGetCtx(void* stream, void** context) {
  FAULT_POINT;
  (void)stream; *context = &context_object; return SUCCESS;
}
CUresult cuEventCreate(void** event, unsigned flags) {
  FAULT_POINT;
  (void)flags; *event = &event_object; return SUCCESS;
}
CUresult cuEventRecord(void* event, void* stream) {
  FAULT_POINT;
  (void)event, (void)stream; count(EVENT_RECORD); return SUCCESS;
}
CUresult cuEventSynchronize(void* event) {
  FAULT_POINT;
  (void)event; return SUCCESS;
}
CUresult cuEventQuery(void* event) {
  FAULT_POINT;
  (void)event; return SUCCESS;
}
CUresult cuEventDestroy_v2(void* event) { (void)event; return SUCCESS; }
CUresult cuEventElapsedTime_v2(float* milliseconds, void* start, void* end) {
  FAULT_POINT;
  (void)start, (void)end; *milliseconds = 0; return SUCCESS;
}
CUresult cuPointerGetAttribute(void* data, int attribute, CUdeviceptr pointer) {
  FAULT_POINT;
  int i = find_allocation(pointer);
  if (i < 0) return INVALID_VALUE;
  switch (attribute) {
    case 9: *(int*)data = 0; return SUCCESS;                                  /* device ordinal */
    case 11: *(CUdeviceptr*)data = allocations[i].start; return SUCCESS;      /* range start */
    case 12: *(size_t*)data = allocations[i].size; return SUCCESS;            /* range size */
    default: return NOT_FOUND;
  }
}
