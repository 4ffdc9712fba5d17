#include "interp/mma.hpp"

#include "interp/numeric.hpp"

namespace cutile::interp {

Array eval_mma(const ir::Operation& op, const Array& lhs, const Array& rhs, const Array& acc) {
  const size_t rank = lhs.shape.size();
  const int64_t batch = rank == 3 ? lhs.shape[0] : 1;
  const int64_t m = lhs.shape[rank - 2], k = lhs.shape[rank - 1], n = rhs.shape[rank - 1];
  Array out = acc;
  if (op.opcode() == ir::Opcode::mmai) {
    const bool lhs_signed = op.enum_attr_or_default("signedness_lhs") == static_cast<int64_t>(ir::Signedness::signed_);
    const bool rhs_signed = op.enum_attr_or_default("signedness_rhs") == static_cast<int64_t>(ir::Signedness::signed_);
    auto value = [](uint64_t bits, bool sgn) { return sgn ? sign_extend(bits, 8) : static_cast<int64_t>(bits); };
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          int64_t sum = sign_extend(acc.i[static_cast<size_t>((b * m + i) * n + j)], 32);
          for (int64_t p = 0; p < k; ++p)
            sum += value(lhs.i[static_cast<size_t>((b * m + i) * k + p)], lhs_signed) *
                   value(rhs.i[static_cast<size_t>((b * k + p) * n + j)], rhs_signed);
          out.i[static_cast<size_t>((b * m + i) * n + j)] = static_cast<uint64_t>(sum) & bit_mask(32);
        }
    return out;
  }
  // i-p-j order keeps the inner loop contiguous in rhs and the result.
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < m; ++i) {
      double* row = out.f.data() + (b * m + i) * n;
      for (int64_t p = 0; p < k; ++p) {
        const double a = lhs.f[static_cast<size_t>((b * m + i) * k + p)];
        const double* r = rhs.f.data() + (b * k + p) * n;
        for (int64_t j = 0; j < n; ++j) row[j] += a * r[j];
      }
    }
  for (double& v : out.f) v = round_to(out.element, v);
  return out;
}

}  // namespace cutile::interp
