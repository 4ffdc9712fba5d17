"""The summaries of a benchmark report: per-config ratios against each baseline, their geomeans per op
and per family, the share of the copy ceiling, and the text table printed last."""

from __future__ import annotations

import configs as C

BASELINES = ("cutile", C.UNTUNED, "triton", "tilecpp", "pytorch")


def ratios(entry: dict) -> dict:
    """Speed-up of cutile-cpp over each baseline: baseline median / cutile-cpp median (> 1: ours is faster)."""
    ours = entry["results"].get("cutile-cpp", {})
    out = {}
    for baseline in BASELINES:
        theirs = entry["results"].get(baseline, {})
        if ours.get("status") == "ok" and theirs.get("status") == "ok":
            out[baseline] = theirs["median_ms"] / ours["median_ms"]
    return out


def summarize_op(op: dict, copy_gbps: float | None) -> None:
    """Fills the op's per-config ratios, their geomeans and the largest config's share of the copy ceiling."""
    for entry in op["configs"]:
        entry["ratio"] = ratios(entry)
    op["geomean"] = {}
    for baseline in BASELINES:
        values = [e["ratio"][baseline] for e in op["configs"] if baseline in e.get("ratio", {})]
        if values:
            op["geomean"][baseline] = {"value": C.geomean(values), "n": len(values)}
    measured = [e for e in op["configs"] if "bytes" in e]
    if op["metric"] == "GB/s" and measured:
        largest = max(measured, key=lambda e: e["bytes"])
        op["largest_config"] = {"id": largest["id"], "bytes": largest["bytes"], "gbps": {}, "fraction_of_copy": {}}
        for backend, result in largest["results"].items():
            if result.get("status") == "ok":
                op["largest_config"]["gbps"][backend] = result["gbps"]
                if copy_gbps:
                    op["largest_config"]["fraction_of_copy"][backend] = result["gbps"] / copy_gbps


def summarize_families(ops: dict) -> dict:
    """Per family (and per --family group): geomean of the ops' geomeans, so that each op weighs the same."""
    families = {}
    groups = {f: (f,) for f in C.FAMILIES}
    groups.update(C.FAMILY_GROUPS)
    for name, members in groups.items():
        names = [n for n, op in ops.items() if op["family"] in members]
        if not names:
            continue
        summary = {"ops": names, "geomean": {}}
        for baseline in BASELINES:
            values = [ops[n]["geomean"][baseline]["value"] for n in names if baseline in ops[n]["geomean"]]
            if values:
                summary["geomean"][baseline] = {"value": C.geomean(values), "ops": len(values)}
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
                     f"{fmt(geo[C.UNTUNED]):>9} {fmt(geo['triton']):>9} {fmt(geo['tilecpp']):>10} "
                     f"{fmt(geo['pytorch']):>9} {fmt(frac.get('cutile-cpp'), '{:.0%}'):>10} {fmt(frac.get('cutile'), '{:.0%}'):>12}")
    for name, family in report["families"].items():
        geo = {b: family["geomean"].get(b, {}).get("value") for b in BASELINES}
        lines.append(f"{'[' + name + ']':22} {'':11} {'':7} {fmt(geo['cutile']):>9} {fmt(geo[C.UNTUNED]):>9} "
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
    copy_gbps = report.get("ceilings", {}).get("copy", {}).get("gbps")
    for op in ops.values():
        summarize_op(op, copy_gbps)
    report["ops"] = ops
    report["families"] = summarize_families(ops)
    report.pop("partial", None)
    return report
