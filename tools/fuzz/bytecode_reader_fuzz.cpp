// libFuzzer target for the bytecode reader. Any input must either decode or throw UserError. Whatever
// decodes and the writer accepts must reach a fixed point after one write/read step: writing canonicalizes
// (e.g. a function without a location gets its first op's, as tileiras requires), after that a round
// trip changes neither the module nor the bytes.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "cutile/bytecode/reader.hpp"
#include "cutile/bytecode/writer.hpp"
#include "cutile/error.hpp"
#include "cutile/ir_diff/equivalence.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  cutile::bytecode::ReadResult read;
  try {
    read = cutile::bytecode::read_bytecode(std::span<const uint8_t>(data, size));
  } catch (const cutile::UserError&) {
    return 0;
  }
  std::vector<uint8_t> written;
  try {
    written = cutile::bytecode::write_bytecode(*read.module, {read.version});
  } catch (const cutile::UserError&) {
    return 0;  // the reader is more lenient than the writer (e.g. a `default` hints key in a 13.1 file)
  }
  try {
    cutile::bytecode::ReadResult first = cutile::bytecode::read_bytecode(written);
    const std::vector<uint8_t> rewritten = cutile::bytecode::write_bytecode(*first.module, {read.version});
    cutile::bytecode::ReadResult second = cutile::bytecode::read_bytecode(rewritten);
    std::string difference;
    if (!cutile::ir::modules_equivalent(*first.module, *second.module, &difference)) {
      std::fprintf(stderr, "round trip changed the module: %s\n", difference.c_str());
      std::abort();
    }
    if (rewritten != written) {
      std::fprintf(stderr, "round trip changed the bytes\n");
      std::abort();
    }
  } catch (const cutile::UserError& e) {
    std::fprintf(stderr, "our own output does not read back: %s\n", e.what());
    std::abort();
  }
  return 0;
}
