#!/usr/bin/env bash
# Diffs our kernel for a TileGym op against cuTile Python's, at the op's benchmark configuration:
#   1. exports TileGym's kernels with cuTile Python (scripts/export_reference.sh; no GPU, no torch),
#   2. dumps our DSL kernel's bytecode at the same configuration (CUTILE_DUMP, through cutile-dsl-dump,
#      tools/reference/dsl_dump.cpp),
#   3. runs `cutile-ir diff REF GEN` once per reference kernel variant,
#   4. writes docs/ir-diff/<op>.md (tables and verdicts) and docs/ir-diff/<op>.json (the diffs' JSON).
# docs/ir-diff/<op>.notes.md (prose, copied into the report) and <op>.explained (the CRITICAL rows the port
# keeps on purpose, pinned with their reasons: cutile-ir diff --explained) are written by hand.
# Needs a configured and built tree (cmake --preset default && cmake --build build) and tileiras
# (scripts/install_toolchain.sh). The exit status is the diff's for the primary variant, the reference
# kernel ours is a port of: 0 PASS, 2 PASS_WITH_NOTES, 1 FAIL.
#   usage: scripts/ir_diff_op.sh OP [--config KEY=VALUE ...]
#          (OP: softmax, dropout, matmul, group_gemm, attention, relu, gelu, geglu, silu_and_mul, swiglu,
#           rms_norm, layer_norm_legacy, persistent_layer_norm, rope)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${CUTILE_BUILD_DIR:-$repo/build}
op=${1:?usage: scripts/ir_diff_op.sh OP [--config KEY=VALUE ...]}
shift
cutile_ir=$build/tools/cutile-ir/cutile-ir
[[ -x $cutile_ir ]] || { echo "error: $cutile_ir is not built (cmake --build build)" >&2; exit 1; }

work=$build/reference/$op
rm -rf "$work"
mkdir -p "$work/ref" "$work/gen" "$work/diff"

# 1. The reference, at the benchmark configuration unless --config overrides it.
"$repo/scripts/export_reference.sh" "$op" "$@" --out "$work/ref" > /dev/null
config() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["config"][sys.argv[2]])' "$work/ref/$op.json" "$1"; }

# 2. Ours at the same configuration; `primary` is the reference variant our kernel ports. A variant may
# be compared with another kernel of ours (variant_gen, variant_gen_kernel).
declare -A variant_gen=() variant_gen_kernel=()
cmake --build "$build" --target cutile-dsl-dump > /dev/null
dump() { CUTILE_DUMP=bytecode CUTILE_DUMP_DIR=$work/gen "$build/tools/cutile-dsl-dump" "$@"; }
case $op in
  softmax)
    dump softmax "$(config dtype)" "$(config M)" "$(config N)"
    # Each TileGym kernel against its port; the gather kernel is TileGym's (and our) default.
    gen=$work/gen/softmax_gather.tileirbc
    gen_kernel=softmax_gather
    variant_gen[multi_wave]=$work/gen/softmax_row.tileirbc
    variant_gen_kernel[multi_wave]=softmax_row
    variant_gen[tma]=$work/gen/softmax_tma.tileirbc
    variant_gen_kernel[tma]=softmax_tma
    variant_gen[chunked]=$work/gen/softmax_chunked.tileirbc
    variant_gen_kernel[chunked]=softmax_chunked
    primary=gather
    ;;
  dropout)
    dump dropout "$(config dtype)" "$(config M)"
    gen=$work/gen/dropout.tileirbc
    gen_kernel=dropout
    primary=dropout
    ;;
  matmul)
    dump matmul "$(config M)" "$(config N)" "$(config K)"
    dump persistent_matmul "$(config M)" "$(config N)" "$(config K)"
    gen=$work/gen/matmul.tileirbc
    gen_kernel=matmul
    # The persistent variant is compared with our persistent_matmul (OutTiles + grouped schedule).
    variant_gen[static_persistent]=$work/gen/persistent_matmul.tileirbc
    variant_gen_kernel[static_persistent]=persistent_matmul
    primary=matmul
    ;;
  group_gemm)
    dump group_gemm "$(config groups)" "$(config M)" "$(config N)" "$(config K)"
    gen=$work/gen/group_gemm.tileirbc
    gen_kernel=group_gemm
    primary=group_gemm
    ;;
  attention)
    dump fmha "$(config B)" "$(config H)" "$(config S)"
    gen=$work/gen/fmha.tileirbc
    gen_kernel=fmha
    primary=fmha
    ;;
  relu | gelu | geglu | silu_and_mul | swiglu)
    # Activations: the forward is primary; the backward variant is compared with our backward kernel.
    case $op in
      relu) dump relu "$(config dtype)" $(( $(config M) * $(config N) )) ;;
      gelu) dump gelu "$(config dtype)" $(( $(config M) * $(config N) )) "$(config approximate)" ;;
      geglu) dump geglu "$(config dtype)" "$(config M)" "$(config N)" "$(config approximate)" ;;
      silu_and_mul) dump silu_and_mul "$(config dtype)" "$(config M)" "$(config H)" ;;
      swiglu) dump swiglu "$(config dtype)" $(( $(config batch) * $(config M) )) "$(config N)" ;;
    esac
    gen=$work/gen/$op.tileirbc
    gen_kernel=$op
    if [[ $op != relu ]]; then
      variant_gen[backward]=$work/gen/${op}_backward.tileirbc
      variant_gen_kernel[backward]=${op}_backward
    fi
    primary=forward
    ;;
  rms_norm)
    dump rms_norm "$(config M)" "$(config N)"
    gen=$work/gen/rms_norm_static_persistent.tileirbc
    gen_kernel=rms_norm_static_persistent
    variant_gen[multi_wave_reload]=$work/gen/rms_norm_row_reload.tileirbc
    variant_gen_kernel[multi_wave_reload]=rms_norm_row_reload
    variant_gen[multi_wave_cached]=$work/gen/rms_norm_row_cached.tileirbc
    variant_gen_kernel[multi_wave_cached]=rms_norm_row_cached
    variant_gen[backward]=$work/gen/rms_norm_backward.tileirbc
    variant_gen_kernel[backward]=rms_norm_backward
    primary=static_persistent
    ;;
  layer_norm_legacy)
    dump layer_norm_legacy "$(config M)" "$(config N)"
    gen=$work/gen/layer_norm_legacy.tileirbc
    gen_kernel=layer_norm_legacy
    primary=legacy
    ;;
  persistent_layer_norm)
    dump persistent_layer_norm "$(config M)" "$(config N)"
    gen=$work/gen/persistent_layer_norm.tileirbc
    gen_kernel=persistent_layer_norm
    primary=persistent
    ;;
  rope)
    [[ $(config H_kv) == None || $(config H_kv) == "$(config H)" ]] || { echo "error: rope dumps H_kv = H" >&2; exit 1; }
    dump rope "$(config dtype)" "$(config H)" "$(config S)" "$(config D)"
    gen=$work/gen/rope.tileirbc
    gen_kernel=rope
    primary=rope
    ;;
  *)
    echo "error: no kernel of ours for '$op' yet; scripts/ir_diff_op.sh knows: softmax, dropout, matmul, attention," \
      "relu, gelu, geglu, silu_and_mul, swiglu, rms_norm, layer_norm_legacy, persistent_layer_norm, rope" >&2
    exit 1
    ;;
esac

# 3. One diff per reference variant; docs/ir-diff/<op>.explained pins the CRITICAL rows kept on purpose.
explained=()
[[ -f $repo/docs/ir-diff/$op.explained ]] && explained=(--explained "$repo/docs/ir-diff/$op.explained")
primary_status=
for variant in $(python3 -c 'import json,sys; print(" ".join(k["variant"] for k in json.load(open(sys.argv[1]))["kernels"]))' "$work/ref/$op.json"); do
  ref_kernel=$(python3 -c 'import json,sys; print(next(k["symbol"] for k in json.load(open(sys.argv[1]))["kernels"] if k["variant"] == sys.argv[2]))' "$work/ref/$op.json" "$variant")
  status=0
  "$cutile_ir" diff "$work/ref/$op.$variant.tileirbc" "${variant_gen[$variant]:-$gen}" --ref-kernel "$ref_kernel" \
    --gen-kernel "${variant_gen_kernel[$variant]:-$gen_kernel}" "${explained[@]}" \
    --json "$work/diff/$variant.json" > "$work/diff/$variant.txt" 2>&1 || status=$?
  echo "${variant_gen_kernel[$variant]:-$gen_kernel}" > "$work/diff/$variant.gen"
  if (( status == 3 )); then
    cat "$work/diff/$variant.txt" >&2
    echo "error: cutile-ir diff could not compare $variant" >&2
    exit 1
  fi
  echo "$status" > "$work/diff/$variant.status"
  [[ $variant == "$primary" ]] && primary_status=$status
done

# 4. The report.
mkdir -p "$repo/docs/ir-diff"
python3 - "$op" "$work" "$primary" "$gen_kernel" "$repo/docs/ir-diff" <<'PY'
import json, os, sys
op, work, primary, gen_kernel, out = sys.argv[1:]
manifest = json.load(open(os.path.join(work, "ref", f"{op}.json")))
verdicts = {0: "PASS", 2: "PASS_WITH_NOTES", 1: "FAIL"}
config = " ".join(f"{k}={v}" for k, v in manifest["config"].items())
kernels = sorted(manifest["kernels"], key=lambda k: k["variant"] != primary)
md = [f"# IR diff: {op}",
      "",
      f"Ours (`{gen_kernel}` at this configuration) against TileGym {manifest['tilegym']}'s "
      f"cuTile Python kernels (cuda-tile {manifest['cuda_tile']}, bytecode {manifest['bytecode_version']}), "
      f"at `{config}`.",
      f"Regenerate with `scripts/ir_diff_op.sh {op}`; the JSON next to this file holds every row.",
      f"The primary comparison is `{primary}`, the variant our kernel ports; the others show how far the "
      "remaining TileGym variants are from ours.", ""]
notes = os.path.join(out, f"{op}.notes.md")  # hand-written explanations, kept across regenerations
if os.path.exists(notes):
    md += [open(notes).read().rstrip(), ""]
report = {"op": op, "config": manifest["config"], "reference": manifest, "primary": primary,
          "generated_kernel": gen_kernel, "diffs": {}}
for k in kernels:
    variant = k["variant"]
    status = int(open(os.path.join(work, "diff", f"{variant}.status")).read())
    text = open(os.path.join(work, "diff", f"{variant}.txt")).read().rstrip()
    path = os.path.join(work, "diff", f"{variant}.json")
    report["diffs"][variant] = json.load(open(path)) if os.path.exists(path) else None
    ours = open(os.path.join(work, "diff", f"{variant}.gen")).read().strip()
    md += [f"## {variant}{' (primary)' if variant == primary else ''}: `{k['symbol']}` against our `{ours}` — "
           f"{verdicts.get(status, f'exit {status}')}", "", k["mirrors"] + ".",
           "", "```", text, "```", ""]
open(os.path.join(out, f"{op}.md"), "w").write("\n".join(md))
with open(os.path.join(out, f"{op}.json"), "w") as f:
    json.dump(report, f, indent=1)
    f.write("\n")
print(f"wrote {os.path.join(out, op + '.md')} and {op}.json")
PY
exit "${primary_status:-1}"
