// Tuning records: what the autotuner (autotune.hpp) measured best for an op at a shape bucket, committed
// as tuning/<op>.jsonl (one record per line) and compiled into the kernel library, where the launchers
// read them through Target::tuned.
//
// A record holds for a call when all of its key matches: the GPU architecture, the tileiras release that
// compiles the kernels, the hash of the kernels the launcher traces at the record's bucket with its choice
// (so that a changed kernel or launcher voids it), and the call's shape bucket. A record with a mismatched
// key is ignored; tuning_status says which and why (`cutile-ops tuning OP`).
//
// The shape bucket of a call: the dtype and each dim rounded up to a power of two of every input, and the
// value of every flag and choice. Reals and integers do not split buckets (a seed is no shape). A list of
// inputs counts as its length and, per dim, the largest extent of its elements, each rounded up alike.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cutile/op/choice.hpp"
#include "cutile/op/launcher.hpp"
#include "cutile/op/spec.hpp"

namespace cutile::op {

struct TuningRecord {
  std::string op;
  std::string gpu;       ///< "sm_90"
  std::string tileiras;  ///< "13.4.92"
  std::string kernels;   ///< kernels_hash() at the bucket with the choice
  std::string bucket;    ///< the configuration measured: "M=4096 N=2048 E=bf16 use_tma=1"
  Choice choice;
  double us = 0;          ///< its device time, microseconds
  double default_us = 0;  ///< the launcher's own policy's, in the same run
};

/// Adds records to the process's for its lifetime (the generated file of tuning/*.jsonl does, at static
/// initialisation; tests do it for a while). The records must outlive it, and registering records while
/// ops launch on other threads is not supported.
class TuningRegistration {
 public:
  explicit TuningRegistration(std::span<const TuningRecord> records);
  ~TuningRegistration();
  TuningRegistration(const TuningRegistration&) = delete;
  TuningRegistration& operator=(const TuningRegistration&) = delete;

 private:
  std::span<const TuningRecord> records_;
};

/// Every registered record.
std::vector<const TuningRecord*> tuning_records();

/// The shape bucket of a call (see above), as a hash.
uint64_t bucket_key(const OpSpec& spec, const Arguments& args);
/// The shape bucket of a configuration, "M=4096 N=2048 E=bf16 use_tma=1".
uint64_t bucket_key(const OpSpec& spec, std::string_view config);

/// The hash of traced kernels: their bytecode in launch order, without its debug section, whose source
/// paths depend on where the tree was built (and a moved comment is no new kernel).
std::string kernels_hash(std::span<const TracedKernel> kernels);
/// kernels_hash of the kernels `spec`'s launcher traces at `config` for `gpu`, with `choice` (null: the
/// launcher's policy).
std::string kernels_hash(const OpSpec& spec, std::string_view config, std::string_view gpu, int sm_count,
                         const Choice* choice);

/// The recorded choice that holds for this call on `target`, or null. The records of an op are checked
/// once per process and GPU; later calls cost a hash of the bucket and a map lookup.
const Choice* recorded_choice(const OpSpec& spec, const Target& target, const Arguments& args);

/// Calls the op's launcher with the recorded choice that holds for the call (after the description's
/// checks): what op::run and the C ABI do.
void launch(const OpSpec& spec, Target& target, const Arguments& args);

/// The tileiras release this process compiles with (a record's key); empty when none is found.
std::string tileiras_release();

/// Each record of `spec`, and whether it holds on `target` ("" when it does, else why not).
struct RecordStatus {
  const TuningRecord* record;
  std::string ignored_because;
};
std::vector<RecordStatus> tuning_status(const OpSpec& spec, const Target& target);

}  // namespace cutile::op
