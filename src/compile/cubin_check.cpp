#include "cutile/compile/cubin_check.hpp"

#include <elf.h>

#include <bit>
#include <cstring>
#include <set>

#include "cutile/bytecode/reader.hpp"

namespace cutile::compile {
namespace {

// The ELF structures are read in place; cubins are little-endian, as are the hosts cutile runs on.
static_assert(std::endian::native == std::endian::little);

template <class T>
T read_at(std::span<const uint8_t> bytes, uint64_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

// Whether [offset, offset + size) lies within a file of `file_size` bytes, without overflow.
bool within(uint64_t offset, uint64_t size, uint64_t file_size) {
  return offset <= file_size && size <= file_size - offset;
}

}  // namespace

std::optional<std::string> cubin_problem(std::span<const uint8_t> cubin,
                                         std::span<const std::string> entries) {
  const uint64_t size = cubin.size();
  if (size < sizeof(Elf64_Ehdr))
    return "truncated: " + std::to_string(size) + " bytes, shorter than an ELF header";
  if (std::memcmp(cubin.data(), ELFMAG, SELFMAG) != 0) return std::string("not an ELF file (bad magic)");
  if (cubin[EI_CLASS] != ELFCLASS64)
    return "ELF class " + std::to_string(cubin[EI_CLASS]) + ", expected 64-bit (" +
           std::to_string(ELFCLASS64) + ")";
  if (cubin[EI_DATA] != ELFDATA2LSB) return std::string("not a little-endian ELF file");
  const auto header = read_at<Elf64_Ehdr>(cubin, 0);
  if (header.e_machine != EM_CUDA)
    return "ELF machine " + std::to_string(header.e_machine) + ", expected EM_CUDA (" +
           std::to_string(EM_CUDA) + ")";
  if (header.e_shnum == 0) return std::string("no section table");
  if (header.e_shentsize != sizeof(Elf64_Shdr))
    return "section header size " + std::to_string(header.e_shentsize) + ", expected " +
           std::to_string(sizeof(Elf64_Shdr));
  const auto past_end = [&](const std::string& what, uint64_t offset) {
    return what + " at byte " + std::to_string(offset) + " runs past the end of the " + std::to_string(size) +
           "-byte file";
  };
  if (!within(header.e_shoff, uint64_t{header.e_shnum} * sizeof(Elf64_Shdr), size))
    return past_end("the section table (" + std::to_string(header.e_shnum) + " entries)", header.e_shoff);
  if (header.e_phnum != 0 && header.e_phentsize != sizeof(Elf64_Phdr))
    return "program header size " + std::to_string(header.e_phentsize) + ", expected " +
           std::to_string(sizeof(Elf64_Phdr));
  if (!within(header.e_phoff, uint64_t{header.e_phnum} * sizeof(Elf64_Phdr), size))
    return past_end("the program header table (" + std::to_string(header.e_phnum) + " entries)",
                    header.e_phoff);

  std::vector<Elf64_Shdr> sections(header.e_shnum);
  for (size_t i = 0; i < sections.size(); ++i) {
    sections[i] = read_at<Elf64_Shdr>(cubin, header.e_shoff + i * sizeof(Elf64_Shdr));
    if (sections[i].sh_type != SHT_NOBITS && !within(sections[i].sh_offset, sections[i].sh_size, size))
      return past_end("section " + std::to_string(i) + " (" + std::to_string(sections[i].sh_size) + " bytes)",
                      sections[i].sh_offset);
  }

  const Elf64_Shdr* symbols = nullptr;
  for (const auto& section : sections)
    if (section.sh_type == SHT_SYMTAB) symbols = &section;
  if (symbols == nullptr) return std::string("no symbol table");
  if (symbols->sh_entsize != sizeof(Elf64_Sym) || symbols->sh_link >= sections.size() ||
      sections[symbols->sh_link].sh_type != SHT_STRTAB)
    return std::string("the symbol table is malformed");
  const Elf64_Shdr& strings = sections[symbols->sh_link];
  const auto names = cubin.subspan(strings.sh_offset, strings.sh_size);

  std::set<std::string, std::less<>> functions;
  for (uint64_t i = 0; i < symbols->sh_size / sizeof(Elf64_Sym); ++i) {
    const auto symbol = read_at<Elf64_Sym>(cubin, symbols->sh_offset + i * sizeof(Elf64_Sym));
    if (ELF64_ST_TYPE(symbol.st_info) != STT_FUNC || symbol.st_shndx == SHN_UNDEF ||
        symbol.st_name >= names.size())
      continue;
    const auto* name = reinterpret_cast<const char*>(names.data() + symbol.st_name);
    functions.emplace(name, ::strnlen(name, names.size() - symbol.st_name));
  }
  for (const auto& entry : entries)
    if (!functions.contains(entry)) return "no function symbol for entry '" + entry + "' in the symbol table";
  return std::nullopt;
}

std::vector<std::string> entry_names(std::span<const uint8_t> bytecode) {
  const bytecode::ReadResult read = bytecode::read_bytecode(bytecode);
  std::vector<std::string> names;
  for (const auto& function : read.module->functions()) names.push_back(function->name());
  return names;
}

}  // namespace cutile::compile
