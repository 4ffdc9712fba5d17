#include "parity.hpp"

#include <fstream>
#include <sstream>

#include "cutile/bytecode/reader.hpp"
#include "cutile/error.hpp"
#include "cutile/op/configuration.hpp"

namespace cutile::tools {
namespace {

constexpr int kH200Sms = 132;

std::vector<ir::Explanation> explanations_of(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return {};
  std::ostringstream text;
  text << in.rdbuf();
  return ir::parse_explanations(text.str(), path.string());
}

}  // namespace

std::string recipe_of(const op::ParityCase& parity) {
  const std::string reference(parity.reference);
  return reference.substr(0, reference.find('.'));
}

ParityResult run_parity(const op::OpSpec& op, const op::ParityCase& parity, const ParitySources& sources) {
  const std::string what = std::string(op.name) + " against " + std::string(parity.reference);
  op::Target target = op::Target::trace_for("sm_90", kH200Sms);
  // Parity checks the port of TileGym's policy; a tuning record is a measured choice laid over it.
  const op::Choice launcher_policy;
  target.force(&launcher_policy);
  op::run_at(op, parity.config, target);
  const op::TracedKernel* generated = nullptr;
  std::string launched;
  for (const op::TracedKernel& k : target.traced()) {
    launched += (launched.empty() ? "" : ", ") + k.name;
    if (k.name == parity.kernel && !generated) generated = &k;
  }
  if (!generated)
    throw UserError(what + ": the launcher at '" + std::string(parity.config) + "' launches " +
                    (launched.empty() ? std::string("nothing") : launched) + ", not " + std::string(parity.kernel));
  const auto reference_file = sources.references / (std::string(parity.reference) + ".tileirbc");
  if (!std::filesystem::exists(reference_file)) throw UserError(what + ": " + reference_file.string() + " is missing");
  const bytecode::ReadResult reference = bytecode::read_bytecode_file(reference_file);
  ParityResult result;
  result.op = &op;
  result.parity = &parity;
  result.report = ir::diff_functions(ir::select_kernel(*reference.module, std::nullopt, "reference"),
                                     ir::select_kernel(*generated->module, std::string(parity.kernel), "generated"));
  result.stale = ir::explain(result.report, explanations_of(sources.explanations / (recipe_of(parity) + ".explained")));
  return result;
}

}  // namespace cutile::tools
