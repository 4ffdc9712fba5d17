// The `cutile-ops` command: the kernel library's ops as their descriptions state them.
#include <cstdio>
#include <map>
#include <optional>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "cutile/bytecode/writer.hpp"
#include "cutile/error.hpp"
#include "cutile/ir/printer.hpp"
#include "cutile/op/configuration.hpp"
#include "cutile/op/describe.hpp"
#include "cutile/op/registry.hpp"
#include "parity.hpp"
#include "tune.hpp"

namespace {

namespace fs = std::filesystem;
using namespace cutile;

constexpr std::string_view kUsage =
    "usage:\n"
    "  cutile-ops list\n"
    "      every op: family, tensors, parity cases\n"
    "  cutile-ops json\n"
    "      every op's description as JSON (what the C ABI's cutile_cpp_op_specs returns)\n"
    "  cutile-ops trace OP CONFIG --out DIR [--gpu sm_90] [--sms 132]\n"
    "      runs OP's launcher at CONFIG (\"M=4096 N=4096 E=bf16 mode=static_persistent\") on a trace target and\n"
    "      writes each kernel it launches as DIR/<kernel>.tileirbc and DIR/<kernel>.mlir (a later launch of a\n"
    "      kernel of the same name gets a numbered suffix)\n"
    "  cutile-ops parity [--op OP | --recipe RECIPE] [--references DIR] [--explanations DIR] [--out DIR]\n"
    "      runs the parity cases (all, one op's, or those against one recipe's references: the IR diff of the\n"
    "      kernel the launcher launches at its policy, tuning records left out, against cuTile Python's); prints\n"
    "      one line per case; with --out writes\n"
    "      DIR/<reference>.txt (the table), .json and .gen (our kernel's name). Default references:\n"
    "      tests/data/reference/tilegym; explanations: docs/ir-diff\n"
    "  cutile-ops tune OP CONFIG... [--out FILE] [--jobs 2] [--runs 50] [--for GPU --sms 132]\n"
    "      autotunes OP at each configuration (sets expanded) on GPU 0: every point of its tuning space traced,\n"
    "      compiled on --jobs threads and timed (device time, L2 emptied, median of --runs); the fastest is\n"
    "      appended to FILE (default tuning/OP.jsonl), and configurations it holds for this GPU and tileiras\n"
    "      are skipped. With --for GPU (e.g. sm_90), only traces and compiles the space and reports it\n"
    "  cutile-ops tuning [--op OP] [--gpu sm_90] [--sms 132]\n"
    "      the tunables of each op and its compiled-in records, each with whether it holds for GPU or why not\n"
    "exit status: 0 success / every case PASS, 2 PASS_WITH_NOTES, 1 a FAIL, 3 bad arguments\n";

constexpr int kExitUsage = 3;

struct UsageError {
  std::string message;
};

struct Args {
  std::vector<std::string> positional;
  std::vector<std::pair<std::string, std::string>> options;

  std::optional<std::string> get(std::string_view flag) const {
    for (const auto& [f, v] : options)
      if (f == flag) return v;
    return std::nullopt;
  }
};

Args parse(int argc, char** argv, int first) {
  Args args;
  for (int i = first; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.starts_with("--")) {
      if (i + 1 >= argc) throw UsageError{"option " + a + " needs a value"};
      args.options.emplace_back(a, argv[++i]);
    } else {
      args.positional.push_back(a);
    }
  }
  return args;
}

const op::OpSpec& op_named(const std::string& name) {
  const op::OpSpec* spec = op::find_op(name);
  if (!spec) {
    std::string names;
    for (const op::OpSpec* s : op::registered_ops()) names += (names.empty() ? "" : ", ") + std::string(s->name);
    throw UsageError{"no op '" + name + "'; ops: " + names};
  }
  return *spec;
}

void write_file(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw RuntimeError("cannot write " + path.string());
}

int list() {
  for (const op::OpSpec* spec : op::registered_ops()) {
    std::cout << spec->name << " (" << spec->family << ")";
    for (const op::TensorSpec& t : spec->tensors)
      std::cout << "  " << t.name << ": " << t.type << (t.is_list() ? " (a list of " + std::string(t.list_length) + ")" : "");
    std::cout << "\n";
    for (const op::ParityCase& p : spec->parity)
      std::cout << "    parity " << p.kernel << " against " << p.reference << " at " << p.config << "\n";
  }
  return 0;
}

int trace(const Args& args) {
  if (args.positional.size() != 2 || !args.get("--out")) throw UsageError{"trace takes OP CONFIG --out DIR"};
  const op::OpSpec& spec = op_named(args.positional[0]);
  const int sms = std::stoi(args.get("--sms").value_or("132"));
  op::Target target = op::Target::trace_for(args.get("--gpu").value_or("sm_90"), sms);
  op::run_at(spec, args.positional[1], target);
  const fs::path out = *args.get("--out");
  fs::create_directories(out);
  std::map<std::string, int> seen;
  for (const op::TracedKernel& k : target.traced()) {
    const int n = seen[k.name]++;
    const std::string stem = n == 0 ? k.name : k.name + "." + std::to_string(n);
    const std::vector<uint8_t> bytes = bytecode::write_bytecode(*k.module);
    write_file(out / (stem + ".tileirbc"), {reinterpret_cast<const char*>(bytes.data()), bytes.size()});
    write_file(out / (stem + ".mlir"), ir::print_module(*k.module));
    std::cout << stem << ": " << bytes.size() << " bytes of bytecode\n";
  }
  return 0;
}

int parity(const Args& args) {
  const fs::path root = CUTILE_SOURCE_DIR;
  const tools::ParitySources sources{args.get("--references").value_or((root / "tests/data/reference/tilegym").string()),
                                     args.get("--explanations").value_or((root / "docs/ir-diff").string())};
  const auto only_op = args.get("--op");
  const auto only_recipe = args.get("--recipe");
  if (only_op) op_named(*only_op);
  const auto out = args.get("--out");
  if (out) fs::create_directories(*out);
  int worst = 0;  // 0 pass, 2 notes, 1 fail
  int cases = 0;
  for (const op::OpSpec* spec : op::registered_ops()) {
    if (only_op && spec->name != *only_op) continue;
    for (const op::ParityCase& p : spec->parity) {
      if (only_recipe && tools::recipe_of(p) != *only_recipe) continue;
      ++cases;
      const tools::ParityResult r = tools::run_parity(*spec, p, sources);
      const int code = ir::verdict_exit_code(r.report.verdict);
      worst = code == 1 || worst == 1 ? 1 : std::max(worst, code);
      std::cout << ir::verdict_name(r.report.verdict) << "  " << spec->name << ": " << p.kernel << " against "
                << p.reference << " at " << p.config << "\n";
      for (const ir::Explanation& e : r.stale)
        std::cerr << "stale explanation for " << e.reference_kernel << ": " << e.feature << "\n";
      if (out) {
        const fs::path base = fs::path(*out) / std::string(p.reference);
        write_file(base.string() + ".txt", ir::format_diff_table(r.report));
        write_file(base.string() + ".json", ir::format_diff_json(r.report));
        write_file(base.string() + ".gen", std::string(p.kernel) + "\n");
      }
    }
  }
  if (cases == 0) throw UsageError{"no parity case matches"};
  return worst;
}

int tune(const Args& args) {
  if (args.positional.size() < 2) throw UsageError{"tune takes OP CONFIG..."};
  const op::OpSpec& spec = op_named(args.positional[0]);
  tools::TuneOptions options;
  options.out = args.get("--out").value_or((fs::path(CUTILE_SOURCE_DIR) / "tuning" / (args.positional[0] + ".jsonl")).string());
  options.jobs = std::stoi(args.get("--jobs").value_or("2"));
  options.runs = std::stoi(args.get("--runs").value_or("50"));
  if (const auto gpu = args.get("--for")) {
    options.compile_only = true;
    options.gpu = *gpu;
    options.sm_count = std::stoi(args.get("--sms").value_or("132"));
  }
  if (options.jobs < 1 || options.runs < 1) throw UsageError{"--jobs and --runs take a positive count"};
  return tools::tune(spec, {args.positional.begin() + 1, args.positional.end()}, options);
}

int run(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  const Args args = parse(argc, argv, 2);
  if (command == "list" && args.positional.empty()) return list();
  if (command == "json" && args.positional.empty()) {
    std::cout << op::describe_all_json(0) << "\n";
    return 0;
  }
  if (command == "trace") return trace(args);
  if (command == "parity" && args.positional.empty()) return parity(args);
  if (command == "tune") return tune(args);
  if (command == "tuning" && args.positional.empty()) {
    const auto only = args.get("--op");
    tools::tuning_report(only ? &op_named(*only) : nullptr, args.get("--gpu").value_or("sm_90"),
                         std::stoi(args.get("--sms").value_or("132")));
    return 0;
  }
  throw UsageError{command.empty() ? "no command" : "unknown command or arguments for '" + command + "'"};
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "cutile-ops: " << e.message << "\n" << kUsage;
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "cutile-ops: " << e.what() << "\n";
    return 1;
  }
}
