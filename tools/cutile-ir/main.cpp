// The `cutile-ir` command: reads Tile IR bytecode from any front end (cutile, cuTile Python, cuTile Rust)
// and prints it, compiles it, or diffs a port against its reference kernel.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cutile/bytecode/reader.hpp"
#include "cutile/compile/tileiras.hpp"
#include "cutile/compile/toolchain.hpp"
#include "cutile/error.hpp"
#include "cutile/ir/printer.hpp"
#include "cutile/ir/verifier.hpp"
#include "cutile/ir_diff/diff.hpp"

namespace {

namespace fs = std::filesystem;
using namespace cutile;

constexpr std::string_view kUsage =
    "usage:\n"
    "  cutile-ir dump FILE [--kernel NAME]\n"
    "      print bytecode as Tile IR text (official syntax); the first line names the bytecode version\n"
    "  cutile-ir compile FILE --gpu sm_XX [-o OUT] [-O N]\n"
    "      compile bytecode to a cubin with tileiras (OUT defaults to FILE's name with .cubin, here)\n"
    "  cutile-ir diff REF GEN [--kernel NAME | --ref-kernel A --gen-kernel B] [--explained FILE] [--json "
    "OUT]\n"
    "      compare the generated kernel GEN against the reference REF feature by feature; FILE pins the\n"
    "      CRITICAL rows the port keeps on purpose, each with its reason (include/cutile/ir_diff/diff.hpp)\n"
    "exit status: 0 success / PASS, 2 PASS_WITH_NOTES, 1 FAIL or a failed compilation,\n"
    "             3 bad arguments, or input that cannot be read or does not verify\n";

constexpr int kExitInput = 3;

/// A command-line mistake: reported with a pointer to the usage text.
struct UsageError {
  std::string message;
};

struct Args {
  std::vector<std::string> positional;
  std::vector<std::pair<std::string, std::string>> options;  ///< (flag, value)

  std::optional<std::string> get(std::string_view flag) const {
    std::optional<std::string> value;
    for (const auto& [f, v] : options)
      if (f == flag) {
        if (value) throw UsageError{"option " + f + " given twice"};
        value = v;
      }
    return value;
  }
};

/// Splits arguments into positionals and `--flag VALUE` pairs; every flag takes a value.
Args parse(const std::vector<std::string>& argv, std::initializer_list<std::string_view> flags) {
  Args args;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a.size() > 1 && a[0] == '-') {
      bool known = false;
      for (std::string_view f : flags) known = known || a == f;
      if (!known) throw UsageError{"unknown option '" + a + "'"};
      if (i + 1 == argv.size()) throw UsageError{"option " + a + " needs a value"};
      args.options.emplace_back(a, argv[++i]);
    } else {
      args.positional.push_back(a);
    }
  }
  return args;
}

struct Input {
  std::vector<uint8_t> bytes;
  bytecode::ReadResult decoded;
};

Input read_input(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw UserError(path + ": no such file");
  if (!fs::is_regular_file(path, ec)) throw UserError(path + ": not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError(path + ": cannot be opened for reading");
  Input input;
  input.bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  try {
    input.decoded = bytecode::read_bytecode(input.bytes);
  } catch (const Error& e) {
    throw UserError(path + ": " + e.message());
  }
  // The printer and the diff assume a verified module.
  const auto problems = ir::check_module(*input.decoded.module, input.decoded.version);
  if (!problems.empty())
    throw UserError(path + ": not a valid Tile IR module: " + problems.front().str() +
                    (problems.size() > 1 ? " (and " + std::to_string(problems.size() - 1) + " more)" : ""));
  return input;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw UserError(path + ": cannot be opened for reading");
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

int run_dump(const std::vector<std::string>& argv) {
  const Args args = parse(argv, {"--kernel"});
  if (args.positional.size() != 1) throw UsageError{"dump takes one FILE"};
  const Input input = read_input(args.positional[0]);
  const ir::Module& module = *input.decoded.module;
  std::cout << "// " << args.positional[0] << ": Tile IR bytecode " << input.decoded.version.str();
  if (module.producer()) std::cout << ", producer \"" << *module.producer() << "\"";
  std::cout << "\n";
  if (auto name = args.get("--kernel")) {
    std::cout << ir::print_function(ir::select_kernel(module, name, "input")) << "\n";
  } else {
    std::cout << ir::print_module(module);
  }
  return 0;
}

int run_compile(const std::vector<std::string>& argv) {
  const Args args = parse(argv, {"--gpu", "-o", "-O"});
  if (args.positional.size() != 1) throw UsageError{"compile takes one FILE"};
  const auto gpu = args.get("--gpu");
  if (!gpu) throw UsageError{"compile needs --gpu sm_XX"};
  compile::CompileOptions options;
  options.gpu_name = *gpu;
  if (auto level = args.get("-O")) {
    if (level->size() != 1 || (*level)[0] < '0' || (*level)[0] > '3')
      throw UsageError{"-O takes 0, 1, 2 or 3, not '" + *level + "'"};
    options.opt_level = (*level)[0] - '0';
  }
  const std::string file = args.positional[0];
  const Input input = read_input(file);  // a malformed file is reported here, not by tileiras
  const fs::path out = args.get("-o").value_or(fs::path(file).stem().string() + ".cubin");
  const auto& functions = input.decoded.module->functions();
  const std::string kernel = functions.empty() ? fs::path(file).stem().string() : functions.front()->name();

  const compile::Toolchain toolchain = compile::require_toolchain();
  const compile::CompileResult result = compile::compile_to_cubin(toolchain, input.bytes, options, kernel);
  std::ofstream os(out, std::ios::binary);
  os.write(reinterpret_cast<const char*>(result.cubin.data()), static_cast<std::streamsize>(result.cubin.size()));
  if (!os) throw RuntimeError("cannot write " + out.string());
  std::cout << "wrote " << out.string() << " (" << result.cubin.size() << " bytes, " << options.gpu_name << ", -O"
            << options.opt_level << "); tileiras " << result.seconds << " s\n";
  return 0;
}

int run_diff(const std::vector<std::string>& argv) {
  const Args args = parse(argv, {"--kernel", "--ref-kernel", "--gen-kernel", "--explained", "--json"});
  if (args.positional.size() != 2) throw UsageError{"diff takes REF and GEN"};
  const auto both = args.get("--kernel");
  auto ref_name = args.get("--ref-kernel");
  auto gen_name = args.get("--gen-kernel");
  if (both && (ref_name || gen_name)) throw UsageError{"--kernel cannot be combined with --ref-kernel/--gen-kernel"};
  if (both) ref_name = gen_name = both;
  const Input ref = read_input(args.positional[0]);
  const Input gen = read_input(args.positional[1]);
  const ir::Function& ref_kernel = ir::select_kernel(*ref.decoded.module, ref_name, "reference");
  const ir::Function& gen_kernel = ir::select_kernel(*gen.decoded.module, gen_name, "generated");
  ir::DiffReport report = ir::diff_functions(ref_kernel, gen_kernel);
  if (auto file = args.get("--explained")) {
    for (const ir::Explanation& e : ir::explain(report, ir::parse_explanations(read_text(*file), *file)))
      std::cerr << "cutile-ir: note: " << *file << " explains '" << e.feature << "' of @"
                << e.reference_kernel << " as " << e.reference << " against " << e.generated
                << ", which no row is now\n";
  }
  if (auto json = args.get("--json")) {
    std::ofstream os(*json);
    os << ir::format_diff_json(report);
    if (!os) throw UserError("cannot write the JSON report to " + *json);
  }
  std::cout << ir::format_diff_table(report);
  return ir::verdict_exit_code(report.verdict);
}

/// Error messages on one line, so that scripts can grep them.
std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n') c = ' ';
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> all(argv + 1, argv + argc);
  if (all.empty()) {
    std::cerr << kUsage;
    return kExitInput;
  }
  const std::string& command = all[0];
  const std::vector<std::string> rest(all.begin() + 1, all.end());
  try {
    if (command == "dump") return run_dump(rest);
    if (command == "compile") return run_compile(rest);
    if (command == "diff") return run_diff(rest);
    if (command == "help" || command == "--help" || command == "-h") {
      std::cout << kUsage;
      return 0;
    }
    throw UsageError{"unknown command '" + command + "'"};
  } catch (const UsageError& e) {
    std::cerr << "cutile-ir: error: " << e.message << " (usage: cutile-ir help)\n";
    return kExitInput;
  } catch (const RuntimeError& e) {
    // The toolchain or tileiras failed: not the input's fault; tileiras' diagnostics keep their lines.
    std::cerr << "cutile-ir: error: " << e.message() << "\n";
    return 1;
  } catch (const Error& e) {
    std::cerr << "cutile-ir: error: " << one_line(e.message()) << "\n";
    return kExitInput;
  } catch (const std::exception& e) {
    std::cerr << "cutile-ir: error: " << one_line(e.what()) << "\n";
    return kExitInput;
  }
}
