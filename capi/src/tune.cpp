// cutile_cpp_tune: the autotuner (cutile/op/autotune.hpp) across the C boundary, for Python and any caller.
#include <optional>

#include "cutile/op/autotune.hpp"
#include "cutile/op/configuration.hpp"
#include "cutile/op/registry.hpp"
#include "placement.hpp"
#include "status.hpp"

extern "C" {

int32_t cutile_cpp_tune(const char* op, const char* config, const char* records, int32_t jobs, int32_t runs,
                        int32_t device_id) {
  using namespace cutile;
  using capi::AbiError;
  return capi::guarded("cutile_cpp_tune", [&] {
    if (!op || !config || !records)
      throw AbiError(CUTILE_CPP_ERROR_NULL_POINTER,
                     "the op, the configuration and the records path are required");
    const op::OpSpec* spec = op::find_op(op);
    if (!spec) throw AbiError(CUTILE_CPP_ERROR_INVALID_ARGUMENT, std::string("no op is named '") + op + "'");
    const capi::ContextRestore restore = capi::ContextRestore::of_this_thread();
    std::optional<Device> device;
    try {
      device.emplace(device_id);
    } catch (const Error& e) {
      throw AbiError(CUTILE_CPP_ERROR_DEVICE_UNAVAILABLE,
                     "cuda:" + std::to_string(device_id) + " is unavailable: " + e.message());
    }
    for (const std::string& one : op::expand(config))
      op::tune_on_device(*spec, one, *device, records, jobs, runs);
  });
}

}  // extern "C"
