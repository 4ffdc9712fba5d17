// IR parity of every library kernel with cuTile Python, re-traced on every run: each parity case of each
// op's description (its launcher at the case's configuration, through op::run on a trace target) against
// the committed reference bytecode of the TileGym kernel it ports, with docs/ir-diff/<recipe>.explained.
// A kernel change that breaks parity fails here; so does an explanation that pins nothing any more, and
// a committed reference that no case compares with.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "cutile/op/registry.hpp"
#include "parity.hpp"

namespace {

namespace fs = std::filesystem;
namespace op = cutile::op;

const fs::path kReferences = fs::path(CUTILE_SOURCE_DIR) / "tests/data/reference/tilegym";
const fs::path kExplanations = fs::path(CUTILE_SOURCE_DIR) / "docs/ir-diff";

struct Case {
  const op::OpSpec* op;
  const op::ParityCase* parity;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const op::OpSpec* spec : op::registered_ops())
    for (const op::ParityCase& p : spec->parity) out.push_back({spec, &p});
  return out;
}

class Parity : public ::testing::TestWithParam<Case> {};

TEST_P(Parity, IsPassOrPassWithNotes) {
  const auto& [spec, parity] = GetParam();
  const cutile::tools::ParityResult r = cutile::tools::run_parity(*spec, *parity, {kReferences, kExplanations});
  EXPECT_NE(r.report.verdict, cutile::ir::Verdict::fail) << cutile::ir::format_diff_table(r.report);
  for (const cutile::ir::Explanation& e : r.stale)
    ADD_FAILURE() << "docs/ir-diff/" << cutile::tools::recipe_of(*parity) << ".explained pins no row of "
                  << e.reference_kernel << ": " << e.feature << " (" << e.reference << " vs " << e.generated << ")";
}

INSTANTIATE_TEST_SUITE_P(Ops, Parity, ::testing::ValuesIn(cases()), [](const auto& p) {
  std::string name(p.param.parity->reference);
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
});

TEST(ParityReferences, EveryCommittedReferenceIsCompared) {
  std::set<std::string> compared;
  for (const Case& c : cases()) compared.insert(std::string(c.parity->reference));
  for (const auto& entry : fs::directory_iterator(kReferences)) {
    if (entry.path().extension() != ".tileirbc") continue;
    EXPECT_TRUE(compared.contains(entry.path().stem().string()))
        << entry.path() << " is committed but no op's parity case compares with it";
  }
}

}  // namespace
