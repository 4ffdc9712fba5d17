// An op at one configuration, with no data: its symbols, dtype variables and scalars written as
// "M=4096 N=4096 E=bf16 mode=static_persistent", and meta tensors of the shapes the description gives them.
// The IR parity test, the aot tests and `cutile-ops trace` run launchers this way on trace and compile
// targets. An op with lists takes their lengths too, "G=3 M=256 N=128 K=64 E=f16": every element of a list
// then has the same shape.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cutile/op/run.hpp"

namespace cutile::op {

struct Configured {
  std::vector<std::vector<AnyTensor>> tensors;  ///< in the spec's order, one each or a list's: meta, row-major
  std::vector<Scalar> scalars;                  ///< the configured ones, else their defaults
};

/// The arguments of `spec` at `config`: every symbol of a tensor type and every dtype variable must be
/// given; scalars are optional where they have a default (choices by name, flags 0 or 1). Optional
/// tensors are present. A UserError names what is missing, unknown or malformed.
Configured configure(const OpSpec& spec, std::string_view config);

/// The configurations a configuration with sets stands for, in order: "N={16,32} E={f32,bf16}" is four.
std::vector<std::string> expand(std::string_view config);

/// Runs `spec`'s launcher at `config` on `target` (a trace or compile target) through op::run.
void run_at(const OpSpec& spec, std::string_view config, Target& target);

}  // namespace cutile::op
