// The interpreter's memory regions when views of one buffer interleave: a store belongs to the view whose
// elements it reaches, not to whichever region's span holds it.
#include <gtest/gtest.h>

#include <vector>

#include "interp/fault.hpp"
#include "interp/memory.hpp"

namespace cutile::interp {
namespace {

TEST(MemoryRegions, StoresAreJudgedByTheElementsOfInterleavedViews) {
  std::vector<float> buffer(8 * 16, 1.0f);  // (8, 16) f32, row-major
  const uint64_t base = reinterpret_cast<uint64_t>(buffer.data());
  const std::vector<int64_t> shape{4, 16}, strides{32, 1};  // every other row
  const MemoryRegion even{.address = base, .bytes = (3 * 32 + 16) * 4, .name = "argument 0 (Out<f32>)",
                          .writable = true, .shape = shape, .strides = strides, .element_size = 4};
  const MemoryRegion odd{.address = base + 16 * 4, .bytes = (3 * 32 + 16) * 4, .name = "argument 1 (In<f32>)",
                         .writable = false, .shape = shape, .strides = strides, .element_size = 4};
  const Memory memory(std::vector<MemoryRegion>{even, odd});
  const auto row = [&](int r, int c) { return base + static_cast<uint64_t>((r * 16 + c) * 4); };

  EXPECT_NO_THROW(memory.store(row(2, 5), 4, 0, 0));  // an even row inside the odd rows' span
  EXPECT_NO_THROW(memory.store(row(6, 15), 4, 0, 0));
  EXPECT_EQ(memory.load(row(3, 7), 4, 0), 0x3f800000u);  // reads of either view pass
  try {
    memory.store(row(3, 7), 4, 0, 0);
    FAIL() << "a store to an odd row was allowed";
  } catch (const Fault& fault) {
    EXPECT_NE(std::string(fault.what()).find("writes read-only region 'argument 1 (In<f32>)'"), std::string::npos)
        << fault.what();
  }
  // A region without a layout owns every byte of its span, as before.
  const MemoryRegion whole{.address = base, .bytes = 128 * 4, .name = "x", .writable = false};
  EXPECT_THROW(Memory(std::vector<MemoryRegion>{whole}).store(row(2, 5), 4, 0, 0), Fault);
}

}  // namespace
}  // namespace cutile::interp
