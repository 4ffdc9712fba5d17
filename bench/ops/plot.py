#!/usr/bin/env python3
"""Plots a bench/ops/run.py report: one PNG per op family, DIR/<family>.png, with two panels: the speed-up
of cutile-cpp over cuTile Python per configuration (baseline time / ours, log scale, 1 = parity), and
the achieved GB/s of every backend per configuration against the measured copy ceiling.
    python3 bench/ops/plot.py FILE.json --out DIR
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLOURS = {"cutile-cpp": "tab:red", "cutile": "tab:blue", "triton": "tab:orange", "pytorch": "tab:green"}


def family_rows(report: dict, family: str) -> list[tuple[str, dict]]:
    return [(f"{name} {entry['id']}", entry) for name, op in report["ops"].items() if op["family"] == family
            for entry in op["configs"] if entry.get("results")]


def plot_family(report: dict, family: str, path: Path) -> bool:
    rows = family_rows(report, family)
    if not rows:
        return False
    labels = [label for label, _ in rows]
    x = range(len(rows))
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(max(8, 0.28 * len(rows) + 3), 10), sharex=True)
    speedups = [entry.get("ratio", {}).get("cutile") for _, entry in rows]
    top.bar([i for i, s in zip(x, speedups) if s], [s for s in speedups if s],
            color=["tab:green" if s >= 1 else "tab:red" for s in speedups if s])
    top.axhline(1.0, color="black", linewidth=0.8)
    top.axhline(0.95, color="grey", linewidth=0.8, linestyle=":")
    top.set_yscale("log")
    top.set_ylabel("cutile-cpp speed-up over cuTile Python")
    geo = report["families"].get(family, {}).get("geomean", {}).get("cutile", {}).get("value")
    meta = report["meta"]
    top.set_title(f"{family}: {meta.get('gpu')}, {meta.get('date_utc')}, commit {str(meta.get('git_commit'))[:10]}"
                  + (f"; geomean {geo:.3f}" if geo else ""))
    width = 0.2
    for k, backend in enumerate(COLOURS):
        values = [entry["results"].get(backend, {}).get("gbps") for _, entry in rows]
        if not any(values):
            continue
        bottom.bar([i + (k - 1.5) * width for i, v in zip(x, values) if v], [v for v in values if v], width,
                   label=backend, color=COLOURS[backend])
    copy = report.get("ceilings", {}).get("copy", {}).get("gbps")
    if copy:
        bottom.axhline(copy, color="black", linestyle="--", linewidth=1, label=f"copy {copy:.0f} GB/s")
    bottom.set_ylabel("GB/s")
    bottom.legend(fontsize=8)
    bottom.set_xticks(list(x))
    bottom.set_xticklabels(labels, rotation=90, fontsize=6)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    report = json.loads(args.report.read_text())
    if "ops" not in report:
        print(f"plot.py: {args.report} holds no op results", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    families = sorted({op["family"] for op in report["ops"].values()})
    for family in families:
        path = args.out / f"{family}.png"
        if plot_family(report, family, path):
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
