// The ops of the process: each op file registers its description once,
//
//   const op::Registration registration{rms_norm_op};
//
// and everything that lists ops (the C ABI and its header, Python, TileGym, the parity test, the tools)
// asks the registry. No list of ops is kept anywhere else.
#pragma once

#include <span>
#include <string_view>

#include "cutile/op/spec.hpp"

namespace cutile::op {

class Registration {
 public:
  explicit Registration(const OpSpec& spec);
};

/// Every registered op, sorted by name; the index of an op in it is its number in the C ABI's generic
/// entry (stable within a process).
std::span<const OpSpec* const> registered_ops();
/// The registered op named `name`, or null.
const OpSpec* find_op(std::string_view name);

/// What is wrong with a registered description (its types, rules or conditions do not parse; its
/// launcher's parameters do not match its tensors and scalars; a name repeats; the backward is no
/// registered op): one line per problem, empty when it is sound. The registry checks every description
/// when first asked for one and refuses to run an unsound one (InternalError).
std::vector<std::string> problems(const OpSpec& spec);

}  // namespace cutile::op
