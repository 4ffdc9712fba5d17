// Misused lists of tensors are refused with their own messages, before anything is enqueued: when the
// list is made (empty, mixed ranks or devices), when it is partitioned (a member twice), and at
// launch (a member's tile, an input member whose storage an output member holds, a 2-D grid, meta lists),
// and when the kernel is traced (a tile of one output list stored into another).
// Aliasing through foreign memory, which only the byte ranges reveal, is in the gpu tier.
#include <gtest/gtest.h>

#include "cutile/host/launch.hpp"
#include "gemm/group_gemm.hpp"
#include "support/error_of.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;
using cutile::test_support::error_of;

constexpr auto kGroupGemm = lib::group_gemm<ct::f16, 16, 16, 16, false>;

// Misuse the schedule cannot rule out by types: a tile of one output list stored into another.
void store_into_the_other_list(ct::OutTilesList<float, ct::Shape<16>> a, ct::OutTilesList<float, ct::Shape<16>> b) {
  ct::for_each_tile(a, ct::linear, [&](const ct::Int&) {
    return [&](const ct::ListTileIndex<float, ct::Shape<16>>& t) { b.store(t, ct::zeros<float, 16>()); };
  });
}

TEST(ListChecks, AListTileIndexFitsOnlyItsOwnList) {
  ct::TensorList<float> a({ct::Tensor<float>::meta({64})}), b({ct::Tensor<float>::meta({64})});
  const std::string message = error_of(
      [&] { ct::compile_only("sm_90", {}, store_into_the_other_list, a.partition({16}), b.partition({16})); });
  EXPECT_NE(message.find("list_error_test.cpp:"), std::string::npos) << message;
  EXPECT_NE(message.find("a ListTileIndex made by for_each_tile for one output list was used with another"),
            std::string::npos)
      << message;
}

TEST(ListChecks, AListNeedsAMember) {
  const std::string message = error_of([] { ct::TensorList<float> empty(std::vector<ct::Tensor<float>>{}); });
  EXPECT_NE(message.find("a TensorList needs at least one tensor"), std::string::npos) << message;
}

TEST(ListChecks, MembersShareTheirRank) {
  const std::string message = error_of(
      [] { ct::TensorList<float> mixed({ct::Tensor<float>::meta({4, 4}), ct::Tensor<float>::meta({16})}); });
  EXPECT_NE(message.find("member 1 of the TensorList (f32[16] on no device (meta)) has rank 1, member 0 has rank 2: "
                         "a list's members share their rank"),
            std::string::npos)
      << message;
}

TEST(ListChecks, MembersShareTheirDevice) {
  const ct::Device cpu = ct::Device::cpu();
  const std::string message = error_of(
      [&] { ct::TensorList<float> mixed({ct::empty<float>({4}, cpu), ct::Tensor<float>::meta({4})}); });
  EXPECT_NE(message.find("member 1 of the TensorList (f32[4] on no device (meta)) is not on the device of member 0"),
            std::string::npos)
      << message;
}

TEST(ListChecks, AnOutputListCannotHoldATensorTwice) {
  const ct::Device cpu = ct::Device::cpu();
  const auto c = ct::empty<ct::f16>({32, 32}, cpu);
  ct::TensorList<ct::f16> cs({c, c});
  const std::string message = error_of([&] { auto parts = cs.partition({16, 16}); });
  EXPECT_NE(message.find("partition tensor f16[32, 32] on cpu"), std::string::npos) << message;
}

TEST(ListChecks, AMembersTileMustBeTheKernels) {
  ct::TensorList<ct::f16> as({ct::Tensor<ct::f16>::meta({32, 32})}), bs({ct::Tensor<ct::f16>::meta({32, 32})});
  ct::TensorList<ct::f16> cs({ct::Tensor<ct::f16>::meta({32, 32}), ct::Tensor<ct::f16>::meta({64, 32})});
  const std::string message =
      error_of([&] { ct::compile_only("sm_90", {}, kGroupGemm, cs.partition({32, 16}), as, bs); });
  EXPECT_NE(message.find("argument 0 (OutTilesList<f16>) member 0: the partition's tile [32, 16] differs from the "
                         "kernel's output tile [16, 16]"),
            std::string::npos)
      << message;
}

TEST(ListChecks, AnOutputMemberSharingAnInputsStorageIsRefused) {
  const ct::Device cpu = ct::Device::cpu();
  const auto shared = ct::empty<ct::f16>({32, 32}, cpu);
  ct::TensorList<ct::f16> as({ct::empty<ct::f16>({32, 32}, cpu), shared}), bs({ct::empty<ct::f16>({32, 32}, cpu)});
  // A view of the input's second half: partitioning it borrows the storage both share.
  ct::TensorList<ct::f16> cs({ct::empty<ct::f16>({32, 32}, cpu), shared.as_strided({16, 32}, {32, 1}, 512)});
  const auto parts = cs.partition({16, 16});
  const std::string message = error_of([&] { ct::launch(kGroupGemm, parts, as, bs); });
  EXPECT_NE(message.find("cannot use argument 1 (InList<f16>) member 1 (f16[32, 32] on cpu) in a launch: a partition "
                         "of it (tile [16, 16]) is live"),
            std::string::npos)
      << message;
}

TEST(ListChecks, AnOutputListRunsOnAOneDimensionalGrid) {
  ct::TensorList<ct::f16> as({ct::Tensor<ct::f16>::meta({32, 32})}), bs({ct::Tensor<ct::f16>::meta({32, 32})});
  ct::TensorList<ct::f16> cs({ct::Tensor<ct::f16>::meta({32, 32})});
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{2, 2, 1};
  const std::string message =
      error_of([&] { ct::compile_only("sm_90", options, kGroupGemm, cs.partition({16, 16}), as, bs); });
  EXPECT_NE(message.find("a kernel with OutTiles or OutTilesList parameters runs on a 1-D grid"), std::string::npos)
      << message;
}

TEST(ListChecks, MetaListsDoNotLaunch) {
  ct::TensorList<ct::f16> as({ct::Tensor<ct::f16>::meta({32, 32})}), bs({ct::Tensor<ct::f16>::meta({32, 32})});
  ct::TensorList<ct::f16> cs({ct::Tensor<ct::f16>::meta({32, 32})});
  const std::string message = error_of([&] { ct::launch(kGroupGemm, cs.partition({16, 16}), as, bs); });
  EXPECT_NE(message.find("argument 0 (OutTilesList<f16>) is a list of meta tensors without memory"), std::string::npos)
      << message;
}

}  // namespace
