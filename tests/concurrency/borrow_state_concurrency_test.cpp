// Threads sharing one storage's BorrowState: each partitions its own row of one buffer, again and again,
// while the others do the same and a reader records GPU uses; every check sees exactly its own borrows.
#include <gtest/gtest.h>

#include <latch>
#include <thread>

#include "cutile/error.hpp"
#include "cutile/host/partition.hpp"
#include "cutile/host/tensor.hpp"

namespace cutile {
namespace {

constexpr int kRows = 8;
constexpr int64_t kWidth = 1024;
constexpr int kRounds = 500;

TEST(BorrowStateThreads, RowsArePartitionedAndGivenBackConcurrently) {
  auto buffer = empty<f32>({kRows, kWidth}, Device::cpu());
  BorrowState& state = buffer.borrow_state();
  const auto action = [] { return std::string("check"); };
  std::latch start(kRows + 1);
  std::vector<int> mistakes(kRows + 1, 0);
  std::vector<std::thread> threads;
  for (int row = 0; row < kRows; ++row)
    threads.emplace_back([&, row] {
      start.arrive_and_wait();
      const Tensor<f32> mine = buffer.as_strided({kWidth}, {1}, row * kWidth);
      for (int round = 0; round < kRounds; ++round) {
        {
          Partition<f32> held = mine.partition({256});
          const TensorArgView view = held.arg_view();
          try {
            state.check_not_borrowed(mine.region(), action, view.borrow);  // the holder passes
          } catch (const UserError&) {
            ++mistakes[row];
          }
          try {
            state.check_not_borrowed(mine.region(), action);  // anyone else is refused
            ++mistakes[row];
          } catch (const UserError&) {
          }
        }
        try {
          state.check_not_borrowed(mine.region(), action);  // given back: only this thread partitions it
        } catch (const UserError&) {
          ++mistakes[row];
        }
      }
    });
  threads.emplace_back([&] {
    start.arrive_and_wait();
    for (int round = 0; round < kRounds * 4; ++round) {
      state.record_read(Completion{});
      state.record_write(Completion{});
      mistakes[kRows] += !state.pending().empty();
      (void)state.exclusively_borrowed();
    }
  });
  for (auto& thread : threads) thread.join();
  for (int i = 0; i <= kRows; ++i) EXPECT_EQ(mistakes[i], 0) << "thread " << i;
  EXPECT_FALSE(state.exclusively_borrowed());
}

}  // namespace
}  // namespace cutile
