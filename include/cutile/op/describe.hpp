// Op descriptions as data for other languages: one JSON document of every registered op, which the
// Python package reads from the C library to build its functions, torch.library schemas and TileGym
// registrations.
#pragma once

#include <string>

#include "cutile/op/spec.hpp"

namespace cutile::op {

/// {"name": ..., "c_function": "cutile_cpp_<name>", "family", "doc", "provenance", "dtypes": {var: [..]},
///  "tensors": [{"name", "role", "type", "rank", "dtype", "doc", "view", "like", "optional", "transposed_by",
///               "list": the length symbol of a list, "" for a single tensor}],
///  "scalars": [{"name", "type", "default", "choices", "choice_set", "valid", "doc"}],
///  "rules": [{"condition", "problem", "why"}], "backward", "tilegym": {...}, "parity": [...]}
std::string describe_json(const OpSpec& spec);
/// {"abi_version": N, "dtypes": [names by code], "ops": [describe_json of every registered op, by name]}
std::string describe_all_json(int abi_version);

}  // namespace cutile::op
