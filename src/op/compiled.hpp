// A description in the form the checks run on: its types and conditions parsed once.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cutile/op/spec.hpp"
#include "expression.hpp"

namespace cutile::op::detail {

struct CompiledTensor {
  int dtype_var = -1;  ///< index into OpSpec::dtypes; -1 for a fixed dtype
  Dtype fixed = Dtype::f32;
  std::vector<Expression> dims;
  int transposed_by = -1;  ///< the flag scalar that swaps the last two stored dims; -1 for none
};

struct CompiledSpec {
  Names names;
  std::vector<CompiledTensor> tensors;           ///< parallel to OpSpec::tensors
  std::vector<std::optional<Expression>> rules;  ///< parallel to OpSpec::rules
  std::vector<std::optional<Expression>> valid;  ///< parallel to OpSpec::scalars
  std::vector<std::string> problems;             ///< what does not parse or does not fit
};

/// `spec` compiled, once per description for the life of the process.
const CompiledSpec& compiled(const OpSpec& spec);

}  // namespace cutile::op::detail
