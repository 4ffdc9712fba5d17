#include "cutile/op/tuning.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdio>
#include <deque>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "cutile/bytecode/writer.hpp"
#include "cutile/compile/cubin_cache.hpp"
#include "cutile/op/configuration.hpp"
#include "cutile/op/run.hpp"

namespace cutile::op {
namespace {

struct RecordRegistry {
  std::mutex mutex;
  std::vector<const TuningRecord*> records;
  std::atomic<uint64_t> generation{0};  // changes with every registration: built tables are then stale
};

RecordRegistry& record_registry() {
  static RecordRegistry r;  // constructed on first use: registrations run in no fixed order
  return r;
}

constexpr uint64_t kFnvOffset = 14695981039346656037ull;
constexpr uint64_t kFnvPrime = 1099511628211ull;

void mix(uint64_t& h, uint64_t value) {
  for (int i = 0; i < 8; ++i) h = (h ^ ((value >> (8 * i)) & 0xff)) * kFnvPrime;
}

uint64_t round_up_pow2(int64_t extent) {
  return extent <= 0 ? 0 : std::bit_ceil(static_cast<uint64_t>(extent));
}

// A configuration made and checked as op::run checks a call.
struct Checked {
  Configured configured;
  ElementTable tensors;
  std::vector<Scalar> scalars;

  Checked(const OpSpec& spec, std::string_view config)
      : configured(configure(spec, config)),
        tensors(configured.tensors),
        scalars(check_call(spec, tensors.elements(), configured.scalars).scalars) {}
  Arguments arguments() const { return {tensors.elements(), scalars}; }
};

// One op's records that hold on one GPU, by bucket; built once per process, then only read.
struct Table {
  std::unordered_map<uint64_t, const Choice*> choices;
  std::vector<RecordStatus> status;
};

// kernels_hash of the launcher's trace at a checked configuration.
std::string kernels_hash_at(const OpSpec& spec, const Checked& c, std::string_view gpu, int sm_count,
                            const Choice* choice) {
  Target target = Target::trace_for(std::string(gpu), sm_count);
  const Choice launcher_policy;
  target.force(choice ? choice : &launcher_policy);
  spec.launch.function(target, c.arguments());  // not launch(): no record applies
  return kernels_hash(target.traced());
}

Table build_table(const OpSpec& spec, const std::string& gpu, int sm_count) {
  Table table;
  std::vector<uint64_t> buckets;  // of the held records, in the order of table.status; 0 for the others
  for (const TuningRecord* r : tuning_records()) {
    if (r->op != spec.name) continue;
    std::string why;
    uint64_t bucket = 0;
    if (r->gpu != gpu) {
      why = "measured on " + r->gpu + ", this target is " + gpu;
    } else if (gpu == "interpret") {
      why = "the interpreter takes no tuning: its launches keep the launchers' policy";
    } else if (tileiras_release()
                   .empty()) {  // asked only here: a process with no record for its GPU never is
      why =
          "no tileiras found, so the release of the kernels is unknown (the record's is " + r->tileiras + ")";
    } else if (r->tileiras != tileiras_release()) {
      why = "measured with tileiras " + r->tileiras + ", this process compiles with " + tileiras_release();
    } else {
      try {
        const Checked c(spec, r->bucket);
        if (kernels_hash_at(spec, c, gpu, sm_count, &r->choice) != r->kernels) {
          why = "the kernels at its bucket changed since it was measured";
        } else {
          bucket = bucket_key(spec, c.arguments());
          table.choices.insert_or_assign(bucket, &r->choice);  // a later line replaces
        }
      } catch (const std::exception& e) {
        why = std::string("its bucket or choice no longer launches: ") + e.what();
      }
    }
    table.status.push_back({r, why});
    buckets.push_back(bucket);
  }
  for (size_t i = 0; i < table.status.size(); ++i)
    if (table.status[i].ignored_because.empty() &&
        table.choices.at(buckets[i]) != &table.status[i].record->choice)
      table.status[i].ignored_because = "a later record of the same bucket replaces it";
  return table;
}

// One table per op, GPU and generation of the records, built once by the first call that needs it,
// outside the lock: the first call of one op never waits for another op's traces.
struct TableSlot {
  std::string op;  // by name: a test's copy of a description shares its op's records
  std::string gpu;
  uint64_t generation;
  std::once_flag built;
  std::unique_ptr<Table> table;
};

const Table& table_for(const OpSpec& spec, const Target& target) {
  static std::mutex mutex;
  static std::deque<TableSlot> slots;  // never shrinks: a table stays valid while calls read it
  const uint64_t generation = record_registry().generation;
  TableSlot* slot = nullptr;
  {
    std::lock_guard lock(mutex);
    for (TableSlot& s : slots)
      if (s.op == spec.name && s.gpu == target.gpu() && s.generation == generation) slot = &s;
    if (!slot) slot = &slots.emplace_back(std::string(spec.name), target.gpu(), generation);
  }
  std::call_once(slot->built, [&] {
    slot->table = std::make_unique<Table>(build_table(spec, target.gpu(), target.sm_count()));
  });
  return *slot->table;
}

}  // namespace

TuningRegistration::TuningRegistration(std::span<const TuningRecord> records) : records_(records) {
  RecordRegistry& r = record_registry();
  std::lock_guard lock(r.mutex);
  for (const TuningRecord& record : records) r.records.push_back(&record);
  ++r.generation;
}

TuningRegistration::~TuningRegistration() {
  RecordRegistry& r = record_registry();
  std::lock_guard lock(r.mutex);
  std::erase_if(r.records, [&](const TuningRecord* p) {
    return p >= records_.data() && p < records_.data() + records_.size();
  });
  ++r.generation;
}

std::vector<const TuningRecord*> tuning_records() {
  RecordRegistry& r = record_registry();
  std::lock_guard lock(r.mutex);
  return r.records;
}

uint64_t bucket_key(const OpSpec& spec, const Arguments& args) {
  uint64_t h = kFnvOffset;
  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    if (spec.tensors[i].role == Role::out) continue;
    const Elements<AnyTensor> elements = args.tensors[i];
    if (spec.tensors[i].is_list()) {
      // Its length and per dim the largest extent of its elements, as one tensor's dims.
      mix(h, round_up_pow2(static_cast<int64_t>(elements.size())));
      mix(h, static_cast<uint64_t>(elements[0]->element_type()));
      for (size_t d = 0; d < elements[0]->shape().size(); ++d) {
        int64_t largest = 0;
        for (const AnyTensor* t : elements) largest = std::max(largest, t->shape()[d]);
        mix(h, round_up_pow2(largest));
      }
      continue;
    }
    const AnyTensor* t = elements[0];
    if (!t) {
      mix(h, ~uint64_t{0});
      continue;
    }
    mix(h, static_cast<uint64_t>(t->element_type()));
    for (const int64_t extent : t->shape()) mix(h, round_up_pow2(extent));
  }
  for (size_t i = 0; i < spec.scalars.size(); ++i) {
    const ScalarType type = spec.scalars[i].type;
    if (type == ScalarType::flag || type == ScalarType::choice)
      mix(h, static_cast<uint64_t>(args.scalars[i].integer));
  }
  return h;
}

uint64_t bucket_key(const OpSpec& spec, std::string_view config) {
  return bucket_key(spec, Checked(spec, config).arguments());
}

std::string kernels_hash(std::span<const TracedKernel> kernels) {
  uint64_t h = kFnvOffset;
  for (const TracedKernel& k : kernels)
    for (const uint8_t byte : bytecode::write_bytecode(*k.module, {.debug_info = false}))
      h = (h ^ byte) * kFnvPrime;
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

std::string kernels_hash(const OpSpec& spec, std::string_view config, std::string_view gpu, int sm_count,
                         const Choice* choice) {
  return kernels_hash_at(spec, Checked(spec, config), gpu, sm_count, choice);
}

const Choice* recorded_choice(const OpSpec& spec, const Target& target, const Arguments& args) {
  if (spec.tuning.empty()) return nullptr;
  const Table& table = table_for(spec, target);
  if (table.choices.empty()) return nullptr;
  const auto it = table.choices.find(bucket_key(spec, args));
  return it == table.choices.end() ? nullptr : it->second;
}

void launch(const OpSpec& spec, Target& target, const Arguments& args) {
  target.use_record(recorded_choice(spec, target, args));
  spec.launch.function(target, args);
}

std::string tileiras_release() {
  const auto& toolchain = compile::CubinCache::global().toolchain();  // the one that compiles the kernels
  return toolchain ? toolchain->release : std::string();
}

std::vector<RecordStatus> tuning_status(const OpSpec& spec, const Target& target) {
  return table_for(spec, target).status;
}

}  // namespace cutile::op
