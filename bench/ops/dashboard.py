#!/usr/bin/env python3
"""The performance dashboard: docs/performance.md, and beside it docs/performance/<gpu>-<family>.png, from the
op benchmark reports in bench/results.
    python3 bench/ops/dashboard.py [--results DIR] [--out FILE.md]

It reads the reports of schema cutile-cpp-ops-bench/1 measured on a GPU; other JSON files are skipped and
named in one line. The runs of one commit on one GPU are merged: per configuration and backend, the result
of the newest run (meta.date_utc) that ran the call, so that partial runs add up and a backend measured in a
run of its own (tilecpp, which runs without tileiras) still meets cutile-cpp. A commit is meta.git_commit,
short or in full alike: a `-dirty` tree ran code that no commit holds, so it is not merged into its base. Per op and GPU
the page shows the commit whose newest run measured cutile-cpp on the op last, and names it. Ratios,
geomeans and roofline shares are summary.py's. Needs matplotlib, not torch.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import plot  # noqa: E402
import summary  # noqa: E402
from names import SCHEMA, UNTUNED  # noqa: E402

REPO = HERE.parents[1]
RAN = ("ok", "failed", "error")  # "not ported" and "unavailable" say that nothing ran: no measurement


@dataclass(eq=False)
class Run:
    """One report file."""

    name: str
    commit: str
    gpu: str
    date: str
    report: dict


@dataclass(eq=False)
class View:
    """One op as one commit measured it on one GPU: summary.py's op dict over the merged configurations."""

    name: str
    commit: str
    op: dict
    sources: dict = field(default_factory=dict)  # (config id, backend) -> the Run whose result it is
    ceilings_from: Run | None = None  # the run of cutile-cpp's result at the largest configuration

    def runs(self) -> list[Run]:
        return sorted(set(self.sources.values()), key=lambda run: (run.date, run.name))

    def measured(self) -> str | None:
        """The date of the newest run in which cutile-cpp measured a configuration, if any did."""
        dates = [self.sources[entry["id"], "cutile-cpp"].date for entry in self.op["configs"]
                 if entry["results"].get("cutile-cpp", {}).get("status") == "ok"]
        return max(dates, default=None)


def load(results: Path) -> tuple[list[Run], list[str]]:
    """The GPU reports of SCHEMA in `results`, and the names of the other JSON files there."""
    runs, skipped = [], []
    for path in sorted(results.glob("*.json")):
        try:
            report = json.loads(path.read_text())
        except (OSError, ValueError):
            report = None
        meta = report.get("meta") if isinstance(report, dict) else None
        if (not isinstance(meta, dict) or report.get("schema") != SCHEMA or meta.get("device") != "cuda"
                or not isinstance(report.get("ops"), dict)):
            skipped.append(path.name)
            continue
        runs.append(Run(path.name, short_commit(str(meta.get("git_commit"))), str(meta.get("gpu")),
                        str(meta.get("date_utc")), report))
    return runs, skipped



def short_commit(commit: str) -> str:
    """A commit as its first 7 hex digits (reports name it short or in full), with any suffix kept."""
    return re.sub(r"^([0-9a-f]{7})[0-9a-f]*", r"\1", commit)


def merge(runs: list[Run]) -> dict[str, View]:
    """One commit's runs on one GPU as one view per op: per configuration and backend, the newest run's result."""
    views, configs = {}, defaultdict(dict)
    for run in sorted(runs, key=lambda r: (r.date, r.name)):  # a newer run overwrites what an older one measured
        for name, measured in run.report["ops"].items():
            view = views.setdefault(name, View(name, run.commit, {}))
            view.op.update(family=measured["family"], metric=measured["metric"])
            for entry in measured["configs"]:
                merged = configs[name].setdefault(entry["id"], {"id": entry["id"], "results": {}})
                for backend, result in entry["results"].items():
                    if result.get("status") in RAN:
                        merged["results"][backend] = result
                        merged.update({key: entry[key] for key in ("bytes", "flops") if key in entry})
                        view.sources[entry["id"], backend] = run
    for name, view in views.items():
        amount = summary.ROOFLINE[view.op["metric"]][0]
        view.op["configs"] = sorted((e for e in configs[name].values() if e["results"]),
                                    key=lambda e: (e.get(amount, 0), e["id"]))
    return views


def newest(runs: list[Run]) -> dict[str, dict[str, View]]:
    """Per GPU and op, the summarised view of the commit whose newest run measured cutile-cpp on the op last."""
    groups = defaultdict(list)
    for run in runs:
        groups[run.gpu, run.commit].append(run)
    pages = defaultdict(dict)
    for (gpu, _), members in sorted(groups.items()):
        for name, view in merge(members).items():
            best = pages[gpu].get(name)
            if view.measured() and (best is None or view.measured() > best.measured()):
                pages[gpu][name] = view
    for views in pages.values():
        for view in views.values():
            largest = summary.largest_config(view.op)
            view.ceilings_from = view.sources.get((largest["id"], "cutile-cpp")) if largest else None
            summary.summarize_op(view.op, view.ceilings_from.report.get("ceilings", {}) if view.ceilings_from else {})
    return {gpu: dict(sorted(views.items())) for gpu, views in sorted(pages.items())}


# --- the page ------------------------------------------------------------------------------------------------


def spread(entries: list[dict], baseline: str) -> tuple[int, float, int]:
    """Of the configurations' ratios against `baseline`: how many there are, the lowest, how many are below
    summary.SLOWER."""
    values = [e["ratio"][baseline] for e in entries if baseline in e["ratio"]]
    return len(values), min(values), sum(v < summary.SLOWER for v in values)


def cell(geomean: dict, entries: list[dict], baseline: str) -> str:
    """summary.py's geomean against `baseline` (an op's, or a family's over its ops), with the spread of the
    configurations behind it."""
    if baseline not in geomean:
        return "–"
    n, low, below = spread(entries, baseline)
    ops = f"{count(geomean[baseline]['ops'], 'op')}, " if "ops" in geomean[baseline] else ""
    return f"**{geomean[baseline]['value']:.3f}** ({ops}{count(n, 'config')}, min {low:.3f}, {below} below)"


def count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("s" if n != 1 else "")


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def plot_family(views: list[View], gpu: str, family: str, path: Path) -> None:
    """Per configuration of the family's ops, cutile-cpp's ratio against each baseline (log scale, 1 = parity)."""
    rows = plot.family_rows({"ops": {view.name: view.op for view in views}}, family)
    fig, ax = plot.figure(len(rows), panels=1, height=6.5)
    plot.grouped_bars(ax, {b: [entry["ratio"].get(b) for _, entry in rows] for b in summary.BASELINES})
    plot.parity_axis(ax, "baseline time / cutile-cpp time")
    commits = ", ".join(sorted({view.commit for view in views}))
    ax.set_title(f"{family} on {gpu}: cutile-cpp against each baseline per configuration (commits {commits})",
                 fontsize=9)
    ax.legend(fontsize=8)
    plot.config_ticks(ax, [label for label, _ in rows])
    plot.save(fig, path)


def families(views: dict[str, View]) -> list[str]:
    return sorted({view.op["family"] for view in views.values()})


def files(runs) -> str:
    return ", ".join(f"`{run.name}`" for run in runs)


def gpu_section(gpu: str, views: dict[str, View], runs: list[Run], images: str) -> list[str]:
    """The GPU's families, ops and roofline shares, and its PNGs; `runs`: the GPU's reports."""
    baselines = [b for b in summary.BASELINES if any(b in view.op["geomean"] for view in views.values())]
    head = " | ".join(f"vs {b}" for b in baselines)
    rule = "|---" * len(baselines)
    lines = [f"## {gpu}", "", "### Families", "", f"| family | ops | commits | {head} |", f"|---|---|---{rule}|"]
    family_geomeans = summary.summarize_families({name: view.op for name, view in views.items()})
    for family in families(views):
        members = [view for view in views.values() if view.op["family"] == family]
        entries = [entry for view in members for entry in view.op["configs"]]
        cells = " | ".join(cell(family_geomeans[family]["geomean"], entries, b) for b in baselines)
        commits = ", ".join(sorted({view.commit for view in members}))
        lines.append(f"| {family} | {len(members)} | {commits} | {cells} |")
    lines += ["", "### Ops", "", f"| op | family | commit | {head} | reports |", f"|---|---|---{rule}|---|"]
    for name, view in views.items():
        cells = " | ".join(cell(view.op["geomean"], view.op["configs"], b) for b in baselines)
        lines.append(f"| {name} | {view.op['family']} | {view.commit} | {cells} | {files(view.runs())} |")
    lines += ["", "### Share of the roofline", "",
              "At each op's largest configuration (the most bytes moved, or flops for a TFLOP/s op), cutile-cpp's "
              "rate as a share of the ceiling measured in the run that measured it: the copy bandwidth for the "
              "memory-bound ops, the bf16 matmul rate for the matrix products.", "",
              "| op | largest configuration | cutile-cpp | ceiling | share | report | commit | date (UTC) |",
              "|---|---|---|---|---|---|---|---|"]
    for name, view in views.items():
        largest, run = view.op.get("largest_config"), view.ceilings_from
        if largest is None or run is None:
            continue
        _, rate, ceiling_name = summary.ROOFLINE[view.op["metric"]]
        unit = view.op["metric"]
        ceiling = run.report.get("ceilings", {}).get(ceiling_name, {}).get(rate)
        ours = largest[rate].get("cutile-cpp")
        share = largest[f"fraction_of_{ceiling_name}"].get("cutile-cpp")
        status = summary.largest_config(view.op)["results"]["cutile-cpp"]["status"]  # where `ours` is None
        lines.append(f"| {name} | `{largest['id']}` | {f'{ours:.4g} {unit}' if ours else status} | "
                     f"{f'{ceiling:.4g} {unit}' if ceiling else 'not measured'} ({ceiling_name}) | "
                     f"{f'{share:.0%}' if share else '–'} | `{run.name}` | {run.commit} | {run.date} |")
    unmeasured = sorted({name for run in runs for name in run.report["ops"]} - set(views))
    if unmeasured:
        lines += ["", f"No report measured cutile-cpp on {', '.join(unmeasured)}."]
    lines += ["", "### Per configuration", ""]
    lines += [f"![{family} on {gpu}]({images}/{slug(gpu)}-{family}.png)" for family in families(views)]
    return lines


def markdown(pages: dict[str, dict[str, View]], runs: list[Run], skipped: list[str], results: str,
             images: str) -> str:
    used = defaultdict(list)  # report name -> the ops it gives numbers to
    for views in pages.values():
        for name, view in views.items():
            for run in view.runs():
                used[run.name].append(name)
    lines = [
        "# Performance", "",
        f"Generated by `python3 bench/ops/dashboard.py` from the op benchmark reports in `{results}`: run it again "
        "after adding one. How the reports measure: [benchmarks.md](benchmarks.md).", "",
        "A ratio is a baseline's median device time over cutile-cpp's on one configuration (above 1: cutile-cpp "
        "is faster). Baselines: `cutile` (TileGym's cuTile Python kernels, autotuned), "
        f"`{UNTUNED}` (the same with TileGym's autotuning off), `triton`, `tilecpp` (TileGym's CUDA Tile "
        "C++ kernels) and `pytorch`. A cell is the geomean in bold, then (configurations, lowest ratio, how many "
        f"below {summary.SLOWER}); – where the baseline was not measured. A family's geomean is that of its ops' "
        "geomeans (each op weighs the same); its counts are over all its ops' configurations.", "",
        "Each op's numbers come from one commit, named in its row: the newest that measured the op with "
        "cutile-cpp (newest by the date of its runs). The runs of one commit on one GPU are merged: each "
        "configuration and backend is taken from the newest run that ran it ([benchmarks.md]"
        "(benchmarks.md#the-dashboard)). Each row names its reports; the last table gives their commit, GPU and "
        "date.", ""]
    for gpu, views in pages.items():
        lines += gpu_section(gpu, views, [run for run in runs if run.gpu == gpu], images) + [""]
    lines += ["## Reports", "", "| report | commit | GPU | date (UTC) | subset | gives numbers to |",
              "|---|---|---|---|---|---|"]
    for run in sorted(runs, key=lambda r: (r.date, r.name), reverse=True):
        ops = ", ".join(sorted(used[run.name])) or "–"
        subset = run.report.get("method", {}).get("subset", "?")
        lines.append(f"| `{run.name}` | {run.commit} | {run.gpu} | {run.date} | {subset} | {ops} |")
    if skipped:
        lines += ["", f"Skipped, not GPU reports of schema `{SCHEMA}`: {', '.join(skipped)}."]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--results", type=Path, default=REPO / "bench" / "results", help="the reports")
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "performance.md",
                        help="the page; its PNGs go to the folder of the same name beside it")
    args = parser.parse_args(argv)
    runs, skipped = load(args.results)
    if skipped:
        print(f"dashboard.py: skipped {len(skipped)} files that are not GPU reports of schema {SCHEMA}: "
              f"{', '.join(skipped)}", file=sys.stderr)
    pages = newest(runs)
    images = args.out.with_suffix("")
    images.mkdir(parents=True, exist_ok=True)
    written = set()
    for gpu, views in pages.items():
        for family in families(views):
            path = images / f"{slug(gpu)}-{family}.png"
            plot_family([view for view in views.values() if view.op["family"] == family], gpu, family, path)
            written.add(path)
    for stale in set(images.glob("*.png")) - written:  # a family or GPU the page no longer shows
        stale.unlink()
    results = args.results.resolve()
    shown = results.relative_to(REPO) if results.is_relative_to(REPO) else results
    args.out.write_text(markdown(pages, runs, skipped, f"{shown}/", images.name))
    print(f"wrote {args.out} and {len(written)} PNGs in {images}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
