#!/usr/bin/env bash
# The op benchmarks of this tree against a baseline commit's, in one call on one GPU: runs the baseline
# tree's own scripts/gpu_bench.sh, then this tree's, each benchmark-only (no python tests, no first-call
# processes) in half the wall time, with the same run.py arguments; then per op the geomean over the
# configurations both measured of (this tree's cutile-cpp median / the baseline's), and each run's geomean
# against cuTile Python, which was measured in the same process as each.
#   usage: scripts/gpu_bench_against.sh PACK_DIR OUT_DIR BASELINE_TARBALL
# BASELINE_TARBALL: `git archive <commit>` of the baseline (its bench/, python/ and sources; xz or gzip),
# with the commit in BASELINE_COMMIT. PACK_DIR as for scripts/gpu_bench.sh. BENCH_ARGS goes to both runs
# (default "--quick --backends cutile-cpp cutile"). OUT_DIR gets baseline.json, current.json, the logs of
# both and against.json (the comparison), whose table is printed last.
set -uo pipefail
pack=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
baseline=/tmp/cutile-baseline
export BENCH_ARGS=${BENCH_ARGS:---quick --backends cutile-cpp cutile}
export BENCH_PYTEST_S=0 BENCH_FIRST_CALL_S=0 BENCH_TOTAL_S=${BENCH_TOTAL_S:-270}

rm -rf "$baseline" && mkdir -p "$baseline"
tar -C "$baseline" -xf "$3" || { echo "cannot unpack $3"; exit 1; }
# Each run uses gpu_bench.sh's work directory; the baseline's is moved aside so that the second run
# configures a fresh build.
BENCH_GIT_COMMIT=${BASELINE_COMMIT:-baseline} bash "$baseline/scripts/gpu_bench.sh" "$pack" "$out/baseline" \
  >"$out/baseline.log" 2>&1
rm -rf /tmp/cutile-bench-baseline && mv /tmp/cutile-bench /tmp/cutile-bench-baseline
bash "$repo/scripts/gpu_bench.sh" "$pack" "$out/current" >"$out/current.log" 2>&1
mv "$out/baseline/bench.json" "$out/baseline.json"
mv "$out/baseline/logs.tgz" "$out/baseline_logs.tgz"
mv "$out/current/bench.json" "$out/current.json"
mv "$out/current/logs.tgz" "$out/current_logs.tgz"
rm -rf "$out/baseline" "$out/current"

python3 - "$out" <<'PY'
import json, math, pathlib, sys
out = pathlib.Path(sys.argv[1])
runs = {name: json.loads((out / f"{name}.json").read_text()) for name in ("baseline", "current")}

def medians(report, op, backend):
    return {c["id"]: c["results"][backend]["median_ms"] for c in report.get("ops", {}).get(op, {}).get("configs", [])
            if c.get("results", {}).get(backend, {}).get("status") == "ok"}

def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None

ops, lines = {}, ["op | configs | current/baseline time | baseline vs cuTile Python | current vs cuTile Python"]
for op in sorted(set(runs["baseline"].get("ops", {})) | set(runs["current"].get("ops", {}))):
    base, cur = medians(runs["baseline"], op, "cutile-cpp"), medians(runs["current"], op, "cutile-cpp")
    shared = sorted(set(base) & set(cur))
    entry = {"configs": len(shared), "time_ratio": geomean([cur[c] / base[c] for c in shared])}
    for name, report in runs.items():
        theirs, ours = medians(report, op, "cutile"), medians(report, op, "cutile-cpp")
        both = sorted(set(theirs) & set(ours))
        entry[f"{name}_speedup_vs_cutile"] = geomean([theirs[c] / ours[c] for c in both])
    ops[op] = entry
    fmt = lambda v: "-" if v is None else f"{v:.3f}"
    lines.append(f"{op} | {len(shared)} | {fmt(entry['time_ratio'])} | {fmt(entry['baseline_speedup_vs_cutile'])} | "
                 f"{fmt(entry['current_speedup_vs_cutile'])}")
ratios = [e["time_ratio"] for e in ops.values() if e["time_ratio"]]
lines.append(f"all | {sum(e['configs'] for e in ops.values())} | {geomean(ratios) and f'{geomean(ratios):.3f}'} | | ")
summary = {"commits": {n: r.get("meta", {}).get("git_commit") for n, r in runs.items()},
           "gpu": runs["current"].get("meta", {}).get("gpu"), "ops": ops, "time_ratio_geomean": geomean(ratios),
           "table": "\n".join(lines)}
(out / "against.json").write_text(json.dumps(summary, indent=1))
print(summary["table"])
PY
