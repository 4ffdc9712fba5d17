#!/usr/bin/env python3
"""Plots a bench/ops/run.py report: one PNG per op family, DIR/<family>.png, with two panels: the speed-up
of cutile-cpp over cuTile Python per configuration (baseline time / ours, log scale, 1 = parity), and
the achieved GB/s of every backend per configuration against the measured copy ceiling. The drawing
pieces below are also the dashboard's (dashboard.py).
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
from matplotlib.ticker import FormatStrFormatter  # noqa: E402

from names import UNTUNED  # noqa: E402
from summary import SLOWER  # noqa: E402

COLOURS = {"cutile-cpp": "tab:red", "cutile": "tab:blue", UNTUNED: "tab:cyan", "triton": "tab:orange",
           "tilecpp": "tab:purple", "pytorch": "tab:green"}
DPI = 110


def family_rows(report: dict, family: str) -> list[tuple[str, dict]]:
    return [(f"{name} {entry['id']}", entry) for name, op in report["ops"].items() if op["family"] == family
            for entry in op["configs"] if entry.get("results")]


def figure(rows: int, panels: int, height: float):
    """A figure of `panels` panels over one x axis, wide enough for `rows` configurations side by side."""
    return plt.subplots(panels, 1, figsize=(max(8, 0.28 * rows + 3), height), sharex=True)


def parity_axis(ax, ylabel: str) -> None:
    """A ratio axis: log scale labelled in plain numbers, parity at 1 and the SLOWER line below it."""
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.axhline(SLOWER, color="grey", linewidth=0.8, linestyle=":")
    ax.set_yscale("log")
    # ratios span less than a decade, where the log axis would label only powers of ten
    ax.yaxis.set_major_formatter(FormatStrFormatter("%.2g"))
    ax.yaxis.set_minor_formatter(FormatStrFormatter("%.2g"))
    ax.set_ylabel(ylabel)


def grouped_bars(ax, series: dict[str, list]) -> None:
    """One bar per series and configuration, side by side, in each backend's colour; None leaves a gap."""
    present = {name: values for name, values in series.items() if any(values)}
    bar = 0.8 / max(len(present), 1)
    for k, (name, values) in enumerate(present.items()):
        offset = (k - (len(present) - 1) / 2) * bar
        ax.bar([i + offset for i, v in enumerate(values) if v], [v for v in values if v], bar, label=name,
               color=COLOURS[name])


def config_ticks(ax, labels: list[str]) -> None:
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=90, fontsize=6)


def save(fig, path: Path) -> None:
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def plot_family(report: dict, family: str, path: Path) -> bool:
    rows = family_rows(report, family)
    if not rows:
        return False
    x = range(len(rows))
    fig, (top, bottom) = figure(len(rows), panels=2, height=10)
    speedups = [entry.get("ratio", {}).get("cutile") for _, entry in rows]
    top.bar([i for i, s in zip(x, speedups) if s], [s for s in speedups if s],
            color=["tab:green" if s >= 1 else "tab:red" for s in speedups if s])
    parity_axis(top, "cutile-cpp speed-up over cuTile Python")
    geo = report["families"].get(family, {}).get("geomean", {}).get("cutile", {}).get("value")
    meta = report["meta"]
    top.set_title(f"{family}: {meta.get('gpu')}, {meta.get('date_utc')}, commit {str(meta.get('git_commit'))[:10]}"
                  + (f"; geomean {geo:.3f}" if geo else ""))
    grouped_bars(bottom, {backend: [entry["results"].get(backend, {}).get("gbps") for _, entry in rows]
                          for backend in COLOURS})
    copy = report.get("ceilings", {}).get("copy", {}).get("gbps")
    if copy:
        bottom.axhline(copy, color="black", linestyle="--", linewidth=1, label=f"copy {copy:.0f} GB/s")
    bottom.set_ylabel("GB/s")
    bottom.legend(fontsize=8)
    config_ticks(bottom, [label for label, _ in rows])
    save(fig, path)
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
