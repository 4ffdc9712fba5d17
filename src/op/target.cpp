#include "cutile/op/target.hpp"

namespace cutile::op {

Target Target::on(const Stream& stream, std::optional<int> sm_count) {
  const Device& device = stream.device();
  if (sm_count && *sm_count < 1) throw UserError("a target needs at least one SM, got " + std::to_string(*sm_count));
  Target target(Mode::launch, device.arch(), sm_count.value_or(device.sm_count()));
  target.stream_ = stream;
  return target;
}

Target Target::compile_for(std::string gpu, int sm_count) { return Target(Mode::compile, std::move(gpu), sm_count); }

Target Target::trace_for(std::string gpu, int sm_count) { return Target(Mode::trace, std::move(gpu), sm_count); }

const Stream& Target::stream() const {
  if (!stream_) throw InternalError("a compile or trace target has no stream");
  return *stream_;
}

AnyTensor Target::scratch(Dtype dtype, std::vector<int64_t> shape) const {
  if (!stream_) {
    auto strides = row_major_strides(shape);
    return AnyTensor::meta(element_type(dtype), dtype_size(dtype), std::move(shape), std::move(strides));
  }
  return AnyTensor::empty(element_type(dtype), dtype_size(dtype), std::move(shape), stream_->device(), *stream_);
}

void Target::dispatch(const detail::KernelRef& kernel, std::span<detail::LaunchArg> args, LaunchOptions options) {
  options.sm_count = sm_count_;
  switch (mode_) {
    case Mode::launch:
      options.stream = stream_;
      detail::launch_kernel(kernel, args, options);
      return;
    case Mode::compile:
      compiled_.push_back(detail::compile_kernel(kernel, args, options, gpu_));
      return;
    case Mode::trace: {
      auto [name, module] = detail::trace_only(kernel, args, options);
      traced_.push_back({std::move(name), std::move(module)});
      return;
    }
  }
}

}  // namespace cutile::op
