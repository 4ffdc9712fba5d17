// cutile_cpp_tune end to end on the null driver (bench/null_driver): the space traced, compiled with the
// real tileiras and "timed" (the null driver's events measure 0 ms, so every point ties and the launcher's
// policy, tried first, is kept); one record line appended per configuration, then skipped when asked
// again. What the times mean is the GPU machine's to say; this holds the plumbing.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>

#include "cutile/op/tuning.hpp"
#include "cutile_cpp/kernels.h"
#include "support/temp_dir.hpp"
#include "support/toolchain_fixture.hpp"

namespace {

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class TuneOnNullDriver : public cutile::test_support::ToolchainTest {};

TEST_F(TuneOnNullDriver, EachConfigurationAppendsOneRecordAndIsSkippedOnceRecorded) {
  const cutile::test_support::TempDir dir;
  const std::string records = (dir.path() / "softmax.jsonl").string();
  const char* config = "M=64 N={4096,8192} E=bf16 use_tma=1";
  ASSERT_EQ(cutile_cpp_tune("softmax", config, records.c_str(), 2, 3, 0), CUTILE_CPP_OK)
      << cutile_cpp_last_error();
  const std::string text = read_all(records);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2) << text;
  const std::string release = cutile::op::tileiras_release();
  for (const char* bucket : {"M=64 N=4096 E=bf16 use_tma=1", "M=64 N=8192 E=bf16 use_tma=1"}) {
    const std::string expected = std::string("{\"op\": \"softmax\", \"gpu\": \"sm_90\", \"tileiras\": \"") +
                                 release + "\", \"kernels\": \"";
    EXPECT_NE(text.find(expected), std::string::npos) << text;
    EXPECT_NE(text.find(std::string("\"bucket\": \"") + bucket + "\", \"choice\": {}, \"us\": 0.000"),
              std::string::npos)
        << text;
  }
  ASSERT_EQ(cutile_cpp_tune("softmax", config, records.c_str(), 2, 3, 0), CUTILE_CPP_OK)
      << cutile_cpp_last_error();
  EXPECT_EQ(read_all(records), text) << "recorded configurations are skipped";
}

TEST_F(TuneOnNullDriver, RefusalsNameTheirCause) {
  const cutile::test_support::TempDir dir;
  const std::string records = (dir.path() / "r.jsonl").string();
  EXPECT_EQ(cutile_cpp_tune("rms_norm", "M=64 N=256 E=bf16", records.c_str(), 1, 1, 0),
            CUTILE_CPP_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(cutile_cpp_last_error()).find("rms_norm has no tuning space"), std::string::npos)
      << cutile_cpp_last_error();
  EXPECT_EQ(cutile_cpp_tune("softmax", "M=64 E=bf16", records.c_str(), 1, 1, 0),
            CUTILE_CPP_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(cutile_cpp_last_error()).find("dim N is not given by it"), std::string::npos)
      << cutile_cpp_last_error();
  EXPECT_EQ(cutile_cpp_tune("softmax", "M=64 N=256 E=bf16", records.c_str(), 0, 1, 0),
            CUTILE_CPP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(cutile_cpp_tune("softmax", "M=64 N=256 E=bf16", records.c_str(), 1, 1, 7),
            CUTILE_CPP_ERROR_DEVICE_UNAVAILABLE);
  EXPECT_EQ(cutile_cpp_tune(nullptr, "M=64", records.c_str(), 1, 1, 0), CUTILE_CPP_ERROR_NULL_POINTER);
  EXPECT_FALSE(std::filesystem::exists(records)) << "a refused tuning writes nothing";
}

}  // namespace
