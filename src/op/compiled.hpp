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
  int list = -1;           ///< a list's index in CompiledSpec::lists; -1 for a single tensor
};

struct CompiledSpec {
  Names names;
  std::vector<CompiledTensor> tensors;           ///< parallel to OpSpec::tensors
  std::vector<std::optional<Expression>> rules;  ///< parallel to OpSpec::rules
  std::vector<std::optional<Expression>> valid;  ///< parallel to OpSpec::scalars
  /// The length symbol of each kind of list, once: lists of one length symbol are one kind, whose elements
  /// bind the per-element symbols together.
  std::vector<int> lists;
  std::vector<int> rule_list;    ///< per rule: the list kind whose per-element symbols it reads; -1 for none
  std::vector<int> valid_list;   ///< per scalar: the same for its condition
  std::vector<std::string> problems;  ///< what does not parse or does not fit
};

/// `spec` compiled, once per description for the life of the process.
const CompiledSpec& compiled(const OpSpec& spec);

}  // namespace cutile::op::detail
