// The C++ rows of docs/reliability.md's bad-input table: each case is a misuse of the public C++ API,
// run here; its row holds the error class and the message it gave. The test fails if a case is not
// refused with a cutile error, if the process is not usable after it, or if the committed table differs
// (CUTILE_REGENERATE_GOLDEN=1 rewrites it; review the diff).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "01_vector_add/vector_add.hpp"
#include "cutile/bytecode/reader.hpp"
#include "cutile/error.hpp"
#include "cutile/host/launch.hpp"

namespace {

namespace ct = cutile;

struct Case {
  std::string what;
  std::function<void()> misuse;
};

const ct::Device& cpu() {
  static const ct::Device device = ct::Device::cpu();
  return device;
}

auto vadd = examples::vector_add<float, 1024>;

std::vector<Case> cases() {
  return {
      {"tensor of rank 6", [] { ct::Tensor<float>::meta({1, 2, 1, 2, 1, 2}); }},
      {"negative stride", [] { ct::Tensor<float>::meta({4, 4}, {4, -1}); }},
      {"view reaching outside its storage", [] { ct::Tensor<float>::meta({4, 4}).as_strided({4}, {1}, 13); }},
      {"host data of the wrong length", [] { ct::from_host<float>(std::vector<float>(5), {2, 3}, cpu()); }},
      {"partition tile that is not a power of two", [] { ct::Tensor<float>::meta({100}).partition({10}); }},
      {"partition of a rank-4 tensor", [] { ct::Tensor<float>::meta({2, 2, 2, 2}).partition({1, 1, 1, 1}); }},
      {"a tensor of f16 taken as one of f32 (a launch with it does not compile)",
       [] {
         ct::AnyTensor half = ct::empty<ct::f16>({4096}, cpu());
         ct::Tensor<float>{half};
       }},
      {"input of another rank",
       [] {
         auto c = ct::empty<float>({4096}, cpu());
         ct::launch(vadd, c.partition({1024}), ct::empty<float>({64, 64}, cpu()), ct::empty<float>({4096}, cpu()));
       }},
      {"partition tile other than the kernel's",
       [] {
         auto c = ct::empty<float>({4096}, cpu());
         ct::launch(vadd, c.partition({512}), ct::empty<float>({4096}, cpu()), ct::empty<float>({4096}, cpu()));
       }},
      {"input sharing elements with the output partition",
       [] {
         auto buffer = ct::empty<float>({6144}, cpu());
         auto a = buffer.as_strided({4096}, {1}, 2048);
         ct::launch(vadd, buffer.as_strided({4096}, {1}).partition({1024}), a, a);
       }},
      {"reading elements a live partition holds",
       [] {
         auto y = ct::empty<float>({4096}, cpu());
         auto held = y.partition({1024});
         y.to_host();
       }},
      {"a partition used after it was moved from",
       [] {
         auto y = ct::empty<float>({4096}, cpu());
         auto held = y.partition({1024});
         auto moved = std::move(held);
         ct::launch(vadd, held, y, y);  // NOLINT(bugprone-use-after-move): the misuse under test
       }},
      {"launching a meta tensor",
       [] {
         auto c = ct::Tensor<float>::meta({4096});
         ct::launch(vadd, c.partition({1024}), ct::Tensor<float>::meta({4096}), ct::Tensor<float>::meta({4096}));
       }},
      {"extent past the kernels' i32 indices",
       [] {
         const int64_t n = int64_t{1} << 31;
         auto c = ct::Tensor<float>::meta({n});
         ct::compile_only("sm_90", {}, vadd, c.partition({1024}), ct::Tensor<float>::meta({n}),
                          ct::Tensor<float>::meta({n}));
       }},
      {"bytecode that is not Tile IR",
       [] {
         const std::vector<uint8_t> bytes{'n', 'o', 't', ' ', 'b', 'y', 't', 'e', 'c', 'o', 'd', 'e'};
         ct::bytecode::read_bytecode(bytes);
       }},
  };
}

const char* class_name(ct::ErrorClass error_class) {
  switch (error_class) {
    case ct::ErrorClass::user: return "UserError";
    case ct::ErrorClass::runtime: return "RuntimeError";
    case ct::ErrorClass::internal: return "InternalError";
  }
  return "?";
}

std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return out;
}

// Replaces the text between the section's two markers in `doc`; a test failure if they are missing.
std::string with_section(const std::string& doc, const std::string& begin, const std::string& end,
                         const std::string& body) {
  const size_t from = doc.find(begin), to = doc.find(end);
  if (from == std::string::npos || to == std::string::npos || to < from) {
    ADD_FAILURE() << "docs/reliability.md lacks the markers " << begin << " and " << end;
    return doc;
  }
  return doc.substr(0, from + begin.size()) + "\n" + body + doc.substr(to);
}

TEST(BadInputTable, EveryCppMisuseIsRefusedWithTheCommittedMessage) {
  std::string table = "| case | error | message |\n|---|---|---|\n";
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.what);
    std::string row;
    try {
      c.misuse();
      ADD_FAILURE() << "not refused";
      row = "| " + c.what + " | accepted | |";
    } catch (const ct::Error& error) {
      EXPECT_EQ(error.error_class(), ct::ErrorClass::user) << error.what();
      row = "| " + c.what + " | `" + class_name(error.error_class()) + "` | " + cell(error.message()) + " |";
    }
    table += row + "\n";
  }
  // The process is intact: a good launch still runs and computes.
  auto a = ct::from_host<float>(std::vector<float>(3000, 1.5f), {3000}, cpu());
  auto c = ct::empty<float>({3000}, cpu());
  ct::launch(vadd, c.partition({1024}), a, a).sync();
  EXPECT_EQ(c.to_host()[2999], 3.0f);

  const auto path = std::filesystem::path(CUTILE_SOURCE_DIR) / "docs/reliability.md";
  std::stringstream committed;
  committed << std::ifstream(path).rdbuf();
  const std::string doc = with_section(committed.str(), "<!-- bad-input C++ begin -->", "<!-- bad-input C++ end -->", table);
  if (std::getenv("CUTILE_REGENERATE_GOLDEN")) std::ofstream(path) << doc;
  EXPECT_EQ(doc, committed.str()) << "the C++ rows of " << path << " differ; CUTILE_REGENERATE_GOLDEN=1 rewrites them";
}

}  // namespace
