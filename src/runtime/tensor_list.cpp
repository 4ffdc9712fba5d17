#include "cutile/host/tensor_list.hpp"

#include "cutile/error.hpp"

namespace cutile::detail {

Tensor<int64_t> list_rows(std::span<const AnyTensor> members, const Stream* stream) {
  if (members.empty()) throw UserError("a TensorList needs at least one tensor");
  const AnyTensor& first = members.front();
  const size_t rank = first.shape().size();
  if (rank < 1 || rank > 5)
    throw UserError("the members of a TensorList have rank 1 to 5, got " + first.describe());
  const int64_t words = 1 + 2 * static_cast<int64_t>(rank);
  std::vector<int64_t> rows;
  for (size_t i = 0; i < members.size(); ++i) {
    const AnyTensor& m = members[i];
    auto name = [&] { return "member " + std::to_string(i) + " of the TensorList (" + m.describe() + ")"; };
    if (m.shape().size() != rank)
      throw UserError(name() + " has rank " + std::to_string(m.shape().size()) + ", member 0 has rank " +
                      std::to_string(rank) + ": a list's members share their rank");
    if (m.is_meta() != first.is_meta() || (!m.is_meta() && m.device() != first.device()))
      throw UserError(name() + " is not on the device of member 0 (" + first.describe() +
                      "): a list's members share their device");
    rows.push_back(static_cast<int64_t>(m.address()));
    rows.insert(rows.end(), m.shape().begin(), m.shape().end());
    rows.insert(rows.end(), m.strides().begin(), m.strides().end());
  }
  const std::vector<int64_t> shape = {static_cast<int64_t>(members.size()), words};
  if (first.is_meta()) return Tensor<int64_t>::meta(shape);
  return stream ? from_host<int64_t>(rows, shape, first.device(), *stream) : from_host<int64_t>(rows, shape, first.device());
}

}  // namespace cutile::detail
