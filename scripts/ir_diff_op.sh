#!/usr/bin/env bash
# Diffs our kernels for a TileGym op against cuTile Python's, at the op's benchmark configuration:
#   1. exports TileGym's kernels with cuTile Python afresh (scripts/export_reference.sh; no GPU, no torch),
#   2-3. runs the parity cases of our ops against them (`cutile-ops parity --recipe RECIPE`: each op's
#      launcher at the case's configuration, the kernel it launches diffed against the reference variant),
#   4. writes docs/ir-diff/<op>.md (tables and verdicts) and docs/ir-diff/<op>.json (the diffs' JSON).
# docs/ir-diff/<op>.notes.md (prose, copied into the report) and <op>.explained (the CRITICAL rows the port
# keeps on purpose, pinned with their reasons: cutile-ir diff --explained) are written by hand.
# Needs a configured and built tree (cmake --preset default && cmake --build build) and tileiras
# (scripts/install_toolchain.sh). The exit status is the worst verdict: 0 PASS, 2 PASS_WITH_NOTES, 1 FAIL.
#   usage: scripts/ir_diff_op.sh RECIPE [--config KEY=VALUE ...]
#          (RECIPE: a tools/reference recipe with parity cases, e.g. softmax, rms_norm, attention)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${CUTILE_BUILD_DIR:-$repo/build}
op=${1:?usage: scripts/ir_diff_op.sh RECIPE [--config KEY=VALUE ...]}
shift

work=$build/reference/$op
rm -rf "$work"
mkdir -p "$work/ref" "$work/diff"

# 1. The reference, at the benchmark configuration unless --config overrides it.
"$repo/scripts/export_reference.sh" "$op" "$@" --out "$work/ref" > /dev/null

# 2-3. Ours at the same configuration, one diff per reference variant: the parity cases of our ops'
# descriptions against this recipe (cutile-ops parity: each runs the op's launcher at its configuration
# and diffs the kernel it launches; docs/ir-diff/<recipe>.explained pins the CRITICAL rows kept on purpose).
cmake --build "$build" --target cutile-ops > /dev/null
status=0
"$build/tools/cutile-ops/cutile-ops" parity --recipe "$op" --references "$work/ref" --out "$work/diff" > "$work/parity.txt" || status=$?
cat "$work/parity.txt"
if (( status == 3 )); then
  echo "error: no op's parity case compares with $op's references" >&2
  exit 1
fi
primary=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["kernels"][0]["variant"])' "$work/ref/$op.json")
gen_kernel=$(cat "$work/diff/$op.$primary.gen" 2> /dev/null || echo "?")

# 4. The report.
mkdir -p "$repo/docs/ir-diff"
python3 - "$op" "$work" "$primary" "$gen_kernel" "$repo/docs/ir-diff" <<'PY'
import json, os, sys
op, work, primary, gen_kernel, out = sys.argv[1:]
manifest = json.load(open(os.path.join(work, "ref", f"{op}.json")))
config = " ".join(f"{k}={v}" for k, v in manifest["config"].items())
kernels = sorted(manifest["kernels"], key=lambda k: k["variant"] != primary)
md = [f"# IR diff: {op}",
      "",
      f"Ours against TileGym {manifest['tilegym']}'s "
      f"cuTile Python kernels (cuda-tile {manifest['cuda_tile']}, bytecode {manifest['bytecode_version']}), "
      f"at `{config}`: each TileGym kernel against the kernel our op's launcher launches at its parity case.",
      f"Regenerate with `scripts/ir_diff_op.sh {op}`; the JSON next to this file holds every row; "
      "the parity test of the ir tier re-traces the same cases on every run.",
      f"The primary comparison is `{primary}`.", ""]
notes = os.path.join(out, f"{op}.notes.md")  # hand-written explanations, kept across regenerations
if os.path.exists(notes):
    md += [open(notes).read().rstrip(), ""]
report = {"op": op, "config": manifest["config"], "reference": manifest, "primary": primary,
          "generated_kernel": gen_kernel, "diffs": {}}
for k in kernels:
    variant = k["variant"]
    base = os.path.join(work, "diff", f"{op}.{variant}")
    if not os.path.exists(base + ".json"):
        md += [f"## {variant}: `{k['symbol']}` — not ported", "", k["mirrors"] + ".", ""]
        report["diffs"][variant] = None
        continue
    diff = json.load(open(base + ".json"))
    report["diffs"][variant] = diff
    ours = open(base + ".gen").read().strip()
    md += [f"## {variant}{' (primary)' if variant == primary else ''}: `{k['symbol']}` against our `{ours}` — "
           f"{diff['verdict']}", "", k["mirrors"] + ".",
           "", "```", open(base + ".txt").read().rstrip(), "```", ""]
open(os.path.join(out, f"{op}.md"), "w").write("\n".join(md))
with open(os.path.join(out, f"{op}.json"), "w") as f:
    json.dump(report, f, indent=1)
    f.write("\n")
print(f"wrote {os.path.join(out, op + '.md')} and {op}.json")
PY
exit "$status"
