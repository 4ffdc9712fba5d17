#include "cutile/host/overlap.hpp"

#include <algorithm>
#include <vector>

namespace cutile {
namespace {

__extension__ using Wide = __int128;  // Δ·stride·bytes of hostile descriptors passes 2^63

// One axis of the difference of two views' byte offsets: Δ·bytes with lo ≤ Δ ≤ hi.
struct Axis {
  Wide bytes;
  Wide lo, hi;
};

Wide floor_div(Wide a, Wide b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
Wide ceil_div(Wide a, Wide b) { return -floor_div(-a, b); }

class Search {
 public:
  Search(std::vector<Axis> axes, Wide lo, Wide hi) : axes_(std::move(axes)), lo_(lo), hi_(hi) {
    std::sort(axes_.begin(), axes_.end(), [](const Axis& x, const Axis& y) { return x.bytes > y.bytes; });
    min_rest_.assign(axes_.size() + 1, 0);
    max_rest_.assign(axes_.size() + 1, 0);
    for (size_t k = axes_.size(); k-- > 0;) {
      min_rest_[k] = min_rest_[k + 1] + axes_[k].lo * axes_[k].bytes;
      max_rest_[k] = max_rest_[k + 1] + axes_[k].hi * axes_[k].bytes;
    }
  }

  // Whether Σ Δ_k·bytes_k lands in [lo, hi] for some Δ in the axes' ranges, largest stride first.
  bool reachable(size_t k = 0, Wide sum = 0) {
    if (sum + max_rest_[k] < lo_ || sum + min_rest_[k] > hi_) return false;
    if (k == axes_.size()) return true;
    if (--budget_ < 0) return true;  // undecided: say overlapping
    const Axis& a = axes_[k];
    const Wide first = std::max(a.lo, ceil_div(lo_ - sum - max_rest_[k + 1], a.bytes));
    const Wide last = std::min(a.hi, floor_div(hi_ - sum - min_rest_[k + 1], a.bytes));
    for (Wide d = first; d <= last; ++d)
      if (reachable(k + 1, sum + d * a.bytes)) return true;
    return false;
  }

 private:
  std::vector<Axis> axes_;
  std::vector<Wide> min_rest_, max_rest_;
  Wide lo_, hi_;
  long budget_ = 4096;
};

// The view's axes as steps of its byte offset (its elements' offsets are Σ i_k·step_k, 0 ≤ i_k < n_k),
// `sign` -1 for the view subtracted.
void add_axes(const StridedBytes& v, int sign, std::vector<Axis>& axes) {
  for (size_t d = 0; d < v.shape.size(); ++d) {
    if (v.shape[d] <= 1 || v.strides[d] == 0) continue;
    Wide bytes = Wide{v.strides[d]} * v.element_size * sign;
    Wide lo = 0, hi = v.shape[d] - 1;
    if (bytes < 0) {
      bytes = -bytes;
      lo = -hi;
      hi = 0;
    }
    auto same = std::find_if(axes.begin(), axes.end(), [&](const Axis& a) { return a.bytes == bytes; });
    if (same != axes.end()) {
      same->lo += lo;
      same->hi += hi;
    } else {
      axes.push_back({bytes, lo, hi});
    }
  }
}

bool empty(const StridedBytes& v) {
  return std::any_of(v.shape.begin(), v.shape.end(), [](int64_t n) { return n == 0; });
}

// The first and last byte the view reaches.
struct ByteRange {
  Wide first, last;
};

ByteRange byte_range(const StridedBytes& v) {
  ByteRange range{Wide{v.address}, Wide{v.address} + v.element_size - 1};
  for (size_t d = 0; d < v.shape.size(); ++d) {
    const Wide reach = Wide{v.strides[d]} * v.element_size * (v.shape[d] - 1);
    (reach < 0 ? range.first : range.last) += reach;
  }
  return range;
}

}  // namespace

bool elements_overlap(const StridedBytes& a, const StridedBytes& b) {
  if (empty(a) || empty(b)) return false;
  // Views of different buffers are apart by their ranges alone, the common case, with nothing allocated.
  const ByteRange ra = byte_range(a), rb = byte_range(b);
  if (ra.last < rb.first || rb.last < ra.first) return false;
  // Element x of a, [x, x + ea), and y of b, [y, y + eb), share a byte when -ea < x - y < eb, where
  // x - y = (a0 - b0) + Σ i·step_a - Σ j·step_b.
  std::vector<Axis> axes;
  add_axes(a, 1, axes);
  add_axes(b, -1, axes);
  const Wide offset = Wide{a.address} - Wide{b.address};
  return Search(std::move(axes), -a.element_size + 1 - offset, b.element_size - 1 - offset).reachable();
}

}  // namespace cutile
