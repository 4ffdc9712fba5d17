"""The summaries of a benchmark report: per-config ratios against each baseline, their geomeans per op
and per family, the share of the copy (or bf16 matmul) ceiling, and the text table printed last. Needs no
torch: the dashboard summarises merged reports with it."""

from __future__ import annotations

import math

from names import FAMILY_GROUPS, UNTUNED

BASELINES = ("cutile", UNTUNED, "triton", "tilecpp", "pytorch")
SLOWER = 0.95  # a ratio below this counts as cutile-cpp being slower, not as noise
# Per metric: the amount a config entry records, the rate each result records, and the ceiling the rate is
# shared against (report["ceilings"][name][rate]).
ROOFLINE = {"GB/s": ("bytes", "gbps", "copy"), "TFLOP/s": ("flops", "tflops", "bf16_mm")}


def geomean(values) -> float | None:
    values = [v for v in values if v is not None and v > 0 and math.isfinite(v)]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def ratios(entry: dict) -> dict:
    """Speed-up of cutile-cpp over each baseline: baseline median / cutile-cpp median (> 1: ours is faster)."""
    ours = entry["results"].get("cutile-cpp", {})
    out = {}
    for baseline in BASELINES:
        theirs = entry["results"].get(baseline, {})
        if ours.get("status") == "ok" and theirs.get("status") == "ok":
            out[baseline] = theirs["median_ms"] / ours["median_ms"]
    return out


def largest_config(op: dict) -> dict | None:
    """The measured config with the largest amount (bytes or flops); the first of equals."""
    amount = ROOFLINE[op["metric"]][0]
    measured = [e for e in op["configs"] if amount in e]
    return max(measured, key=lambda e: e[amount]) if measured else None


def summarize_op(op: dict, ceilings: dict) -> None:
    """Fills the op's per-config ratios, their geomeans and the largest config's rate per backend with its
    share of `ceilings` (a report's) for the op's metric: largest_config.fraction_of_copy for GB/s,
    fraction_of_bf16_mm for TFLOP/s."""
    for entry in op["configs"]:
        entry["ratio"] = ratios(entry)
    op["geomean"] = {}
    for baseline in BASELINES:
        values = [e["ratio"][baseline] for e in op["configs"] if baseline in e.get("ratio", {})]
        if values:
            op["geomean"][baseline] = {"value": geomean(values), "n": len(values)}
    largest = largest_config(op)
    if largest is None:
        return
    amount, rate, ceiling_name = ROOFLINE[op["metric"]]
    ceiling = ceilings.get(ceiling_name, {}).get(rate)
    rates, fractions = {}, {}
    op["largest_config"] = {"id": largest["id"], amount: largest[amount], rate: rates,
                            f"fraction_of_{ceiling_name}": fractions}
    for backend, result in largest["results"].items():
        if result.get("status") == "ok":
            rates[backend] = result[rate]
            if ceiling:
                fractions[backend] = result[rate] / ceiling


def summarize_families(ops: dict) -> dict:
    """Per family (and per --family group): geomean of the ops' geomeans, so that each op weighs the same."""
    families = {}
    groups = {f: (f,) for f in sorted({op["family"] for op in ops.values()})}
    groups.update(FAMILY_GROUPS)
    for name, members in groups.items():
        names = [n for n, op in ops.items() if op["family"] in members]
        if not names:
            continue
        summary = {"ops": names, "geomean": {}}
        for baseline in BASELINES:
            values = [ops[n]["geomean"][baseline]["value"] for n in names if baseline in ops[n]["geomean"]]
            if values:
                summary["geomean"][baseline] = {"value": geomean(values), "ops": len(values)}
        families[name] = summary
    return families


def table(report: dict) -> str:
    """The short text table printed last."""
    head = (f"{'op':22} {'cutile-cpp':11} {'ok/cfg':7} {'vs cutile':>9} {'untuned':>9} {'vs triton':>9} "
            f"{'vs tilecpp':>10} {'vs torch':>9} {'%copy ours':>10} {'%copy cuTile':>12}")
    lines = [head, "-" * len(head)]

    def fmt(value, spec="{:.3f}"):
        return spec.format(value) if value is not None else "-"

    for name, op in report["ops"].items():
        ours = op["backends"].get("cutile-cpp", "?")
        ok = sum(1 for e in op["configs"] if e["results"].get("cutile-cpp", {}).get("status") == "ok")
        geo = {b: op["geomean"].get(b, {}).get("value") for b in BASELINES}
        frac = op.get("largest_config", {}).get("fraction_of_copy", {})
        lines.append(f"{name:22} {ours[:11]:11} {ok:>3}/{len(op['configs']):<3} {fmt(geo['cutile']):>9} "
                     f"{fmt(geo[UNTUNED]):>9} {fmt(geo['triton']):>9} {fmt(geo['tilecpp']):>10} "
                     f"{fmt(geo['pytorch']):>9} {fmt(frac.get('cutile-cpp'), '{:.0%}'):>10} {fmt(frac.get('cutile'), '{:.0%}'):>12}")
    for name, family in report["families"].items():
        geo = {b: family["geomean"].get(b, {}).get("value") for b in BASELINES}
        lines.append(f"{'[' + name + ']':22} {'':11} {'':7} {fmt(geo['cutile']):>9} {fmt(geo[UNTUNED]):>9} "
                     f"{fmt(geo['triton']):>9} {fmt(geo['tilecpp']):>10} {fmt(geo['pytorch']):>9}")
    ceil = report.get("ceilings", {})
    if "gbps" in ceil.get("copy", {}):
        lines.append(f"copy ceiling {ceil['copy']['gbps']:.0f} GB/s; bf16 mm "
                     f"{ceil.get('bf16_mm', {}).get('tflops', float('nan')):.0f} TFLOP/s")
    lines.append("ratios: baseline time / cutile-cpp time (> 1: cutile-cpp faster); untuned: TileGym's cutile "
                 "with autotuning off; tilecpp: TileGym's CUDA Tile C++ kernels; geomean over configs, "
                 "families over ops")
    return "\n".join(lines)


def finalize(report: dict, ops: dict) -> dict:
    """Ratios, geomeans, ceiling fractions and the family summaries of a (possibly partial) report."""
    for op in ops.values():
        summarize_op(op, report.get("ceilings", {}))
    report["ops"] = ops
    report["families"] = summarize_families(ops)
    report.pop("partial", None)
    return report
