#include "cutile/host/stream.hpp"

#include <sstream>

#include "cutile/error.hpp"

namespace cutile {
namespace {

std::string hex(const void* pointer) {
  std::ostringstream text;
  text << "0x" << std::hex << reinterpret_cast<uintptr_t>(pointer);
  return text.str();
}

}  // namespace

using runtime::check;
using runtime::driver_api;

Stream::Stream(const Device& device) {
  // The CPU runs each piece of work to its end when it is issued: its streams are names only.
  if (device.is_cpu()) {
    state_ = std::make_shared<const State>(device, nullptr, true);
    return;
  }
  device.make_current();
  runtime::CUstream handle = nullptr;
  check(driver_api().cuStreamCreate(&handle, runtime::kStreamNonBlocking), "cuStreamCreate");
  state_ = std::make_shared<const State>(device, handle, true);
}

Stream::State::~State() {
  // A destructor cannot report a failed destroy; it only leaks the stream.
  if (owned && handle) {
    device.make_current();
    driver_api().cuStreamDestroy_v2(handle);
  }
}

Stream Stream::borrow(void* cu_stream, const Device& device) {
  auto handle = static_cast<runtime::CUstream>(cu_stream);
  if (handle && device.is_cpu())
    throw UserError("cannot borrow CUstream " + hex(cu_stream) + " for the CPU device: it has no CUDA streams");
  // The null handle is the legacy default stream of whatever context is current; pin it to `device`.
  if (handle) {
    device.make_current();
    // The last stream this thread borrowed, and its context: frameworks pass the same few streams again
    // and again, and asking the driver each time costs a launch a sizeable part of its host time.
    thread_local runtime::CUstream last_stream = nullptr;
    thread_local runtime::CUcontext last_context = nullptr;
    runtime::CUcontext context = handle == last_stream ? last_context : nullptr;
    if (!context) {
      runtime::CUresult result = driver_api().cuStreamGetCtx(handle, &context);
      if (result != runtime::kCudaSuccess)
        throw UserError("cannot borrow CUstream " + hex(cu_stream) + ": the driver does not know it (" +
                        runtime::describe_result(result) + ")");
      last_stream = handle;
      last_context = context;
    }
    if (context != device.runtime_device().context())
      throw UserError("cannot borrow CUstream " + hex(cu_stream) + " for " + device.describe() +
                      ": it belongs to another context than the device's primary context");
  }
  return Stream(std::make_shared<const State>(device, handle, false));
}

Stream Stream::default_stream(const Device& device) {
  return Stream(std::make_shared<const State>(device, nullptr, false));
}

void Stream::synchronize() const {
  if (state_->device.is_cpu()) return;
  state_->device.make_current();
  check(driver_api().cuStreamSynchronize(state_->handle), "cuStreamSynchronize");
}

}  // namespace cutile
