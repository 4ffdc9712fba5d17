"""The performance dashboard (bench/ops/dashboard.py) on small synthetic reports: two partial runs of one
commit merged per configuration and backend, a configuration measured twice (the newer run wins), a
backend that did not run in the newer run, an older commit, a dirty tree, a second GPU, files that are not
reports, a baseline missing for an op; the numbers, the sources the page names, the PNGs, and that it needs
no torch."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "ops"
sys.path.insert(0, str(BENCH))

import dashboard  # noqa: E402
from names import SCHEMA  # noqa: E402

H200 = "NVIDIA H200"


def ok(median_ms: float, amount: int, metric: str = "GB/s") -> dict:
    rate = {"GB/s": ("gbps", 1e6), "TFLOP/s": ("tflops", 1e9)}[metric]
    return {"status": "ok", "median_ms": median_ms, rate[0]: amount / (median_ms * rate[1])}


def config(cid: str, amount: int, metric: str = "GB/s", **medians) -> dict:
    """A config entry; medians by backend (cutile_cpp for cutile-cpp), or a result dict as it is."""
    results = {b.replace("_", "-"): m if isinstance(m, dict) else ok(m, amount, metric) for b, m in medians.items()}
    return {"id": cid, "params": {}, "quick": True, "bytes" if metric == "GB/s" else "flops": amount,
            "results": results}


def report(commit: str, date: str, ops: dict, gpu: str = H200, copy_gbps: float = 0.008, mm_tflops=None,
           device: str = "cuda") -> dict:
    ceilings = {"copy": {"gbps": copy_gbps}}
    if mm_tflops:
        ceilings["bf16_mm"] = {"tflops": mm_tflops}
    return {"schema": SCHEMA, "meta": {"git_commit": commit, "gpu": gpu, "date_utc": date, "device": device},
            "method": {"subset": "quick"}, "ceilings": ceilings, "ops": ops}


def op(family: str, *configs, metric: str = "GB/s") -> dict:
    return {"family": family, "metric": metric, "configs": list(configs)}


def skipped(cid: str) -> dict:
    return {"id": cid, "params": {}, "quick": False, "skipped": "time budget of 30 s spent", "results": {}}


@pytest.fixture
def results(tmp_path):
    out = tmp_path / "results"
    out.mkdir()
    files = {
        # commit new1234, first partial run: c2 past its budget
        "a.json": report("new1234", "2026-12-02T10:00:00Z", {
            "softmax": op("normalization", config("c1", 1000, cutile_cpp=1.0, cutile=2.0, pytorch=4.0, tilecpp=2.2),
                          skipped("c2")),
            "transpose": op("gemm", skipped("t1"))}),
        # second partial run: c1 again (newer: wins) without pytorch, tilecpp not runnable here; c2 measured
        "b.json": report("new1234", "2026-12-02T11:00:00Z", {
            "softmax": op("normalization",
                          config("c1", 1000, cutile_cpp=2.0, cutile=3.0,
                                 tilecpp={"status": "unavailable", "reason": "unavailable: no tilecpp pack"}),
                          config("c2", 4000, cutile_cpp=1.0, cutile=0.8))}, copy_gbps=0.008),
        # an older commit: softmax has a config the newer one lacks; rope and matmul only here
        "old.json": report("old5678", "2026-12-01T09:00:00Z", {
            "softmax": op("normalization", config("c1", 1000, cutile_cpp=1.0, cutile=9.0),
                          config("c3", 8000, cutile_cpp=1.0, cutile=9.0)),
            "rope": op("position", config("p1", 500, cutile_cpp=1.0, cutile=1.25, pytorch=2.0)),
            "matmul": op("gemm", config("m1", 10**9, "TFLOP/s", cutile_cpp=2.0, cutile=2.0), metric="TFLOP/s"),
        }, copy_gbps=0.002, mm_tflops=5.0),
        # a dirty tree of new1234, newest of all: its own commit, not merged into new1234
        "dirty.json": report("new1234-dirty", "2026-12-03T08:00:00Z", {
            "rope": op("position", config("p1", 500, cutile_cpp=1.0, cutile=1.1))}),
        # another GPU: not merged with the H200's runs; cutile-cpp failed at the largest config
        "b200.json": report("new1234", "2026-12-02T12:00:00Z", {
            "softmax": op("normalization", config("c1", 1000, cutile_cpp=1.0, cutile=4.0),
                          config("c9", 9000, cutile_cpp={"status": "failed", "reason": "not close"}, cutile=1.0))},
            gpu="NVIDIA B200"),
        "cpu.json": report("new1234", "2026-12-04T00:00:00Z", {
            "softmax": op("normalization", config("c1", 1000, cutile_cpp=1.0, cutile=100.0))}, device="cpu"),
        "legacy.json": {"gpu": H200, "commit": "abc", "softmax_bf16_4096x4096": {"ms": 0.1}},
    }
    for name, content in files.items():
        (out / name).write_text(json.dumps(content))
    (out / "broken.json").write_text("{not json")
    return out


def test_runs_of_a_commit_merge_and_the_newest_commit_per_op_is_shown(results):
    runs, skipped_files = dashboard.load(results)
    assert skipped_files == ["broken.json", "cpu.json", "legacy.json"]
    pages = dashboard.newest(runs)
    assert list(pages) == ["NVIDIA B200", H200]
    views = pages[H200]
    assert sorted(views) == ["matmul", "rope", "softmax"]  # transpose: cutile-cpp never ran

    softmax = views["softmax"]
    assert softmax.commit == "new1234"  # not old5678's c3: commits are not merged
    assert [e["id"] for e in softmax.op["configs"]] == ["c1", "c2"]
    c1, c2 = softmax.op["configs"]
    # c1: cutile-cpp and cutile from b.json (the newer run), pytorch and tilecpp from a.json, since b.json did
    # not run them
    assert c1["ratio"] == {"cutile": 1.5, "pytorch": 2.0, "tilecpp": 1.1}
    assert c2["ratio"] == {"cutile": 0.8}
    assert {key: run.name for key, run in softmax.sources.items()} == {
        ("c1", "cutile-cpp"): "b.json", ("c1", "cutile"): "b.json", ("c1", "pytorch"): "a.json",
        ("c1", "tilecpp"): "a.json", ("c2", "cutile-cpp"): "b.json", ("c2", "cutile"): "b.json"}
    assert softmax.op["geomean"]["cutile"] == {"value": pytest.approx(math.sqrt(1.5 * 0.8), rel=1e-12), "n": 2}
    assert softmax.op["geomean"]["pytorch"]["n"] == 1 and "triton" not in softmax.op["geomean"]
    assert dashboard.spread(softmax.op["configs"], "cutile") == (2, 0.8, 1)
    largest = softmax.op["largest_config"]
    assert largest["id"] == "c2" and softmax.ceilings_from.name == "b.json"
    assert largest["fraction_of_copy"]["cutile-cpp"] == pytest.approx(0.004 / 0.008, rel=1e-12)

    rope = views["rope"]  # the dirty tree is the newest commit that measured rope
    assert rope.commit == "new1234-dirty" and [r.name for r in rope.runs()] == ["dirty.json"]
    assert rope.op["configs"][0]["ratio"] == {"cutile": pytest.approx(1.1, rel=1e-12)}

    matmul = views["matmul"]
    assert matmul.commit == "old5678" and matmul.op["geomean"] == {"cutile": {"value": 1.0, "n": 1}}
    assert matmul.op["largest_config"]["tflops"]["cutile-cpp"] == pytest.approx(0.5, rel=1e-12)
    assert matmul.op["largest_config"]["fraction_of_bf16_mm"]["cutile-cpp"] == pytest.approx(0.1, rel=1e-12)

    assert pages["NVIDIA B200"]["softmax"].op["configs"][0]["ratio"] == {"cutile": 4.0}


def test_the_page_names_its_sources_and_the_pngs_are_written(results, tmp_path):
    out = tmp_path / "docs" / "performance.md"
    stale = out.with_suffix("") / "nvidia-h200-elementwise.png"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"from an older page")
    assert dashboard.main(["--results", str(results), "--out", str(out)]) == 0
    page = out.read_text()
    # the B200's section first, then the H200's, then the reports
    _, b200, h200, reports = page.split("\n## ")
    assert b200.startswith("NVIDIA B200") and h200.startswith("NVIDIA H200") and reports.startswith("Reports")
    assert "| softmax | normalization | new1234 | **4.000** (1 config, min 4.000, 0 below) | `b200.json` |" in b200
    assert "| softmax | `c9` | failed | 0.008 GB/s (copy) | – | `b200.json` |" in b200

    def row(start: str) -> str:
        [line] = [line for line in (h200 + reports).splitlines() if line.startswith(start)]
        return line

    softmax = row("| softmax | normalization | new1234 |")
    assert "**1.095** (2 configs, min 0.800, 1 below)" in softmax  # sqrt(1.5 * 0.8)
    assert "**2.000** (1 config, min 2.000, 0 below)" in softmax and softmax.endswith("| `a.json`, `b.json` |")
    assert "| vs cutile | vs tilecpp | vs pytorch |" in row("| op | family | commit |")  # triton: no column
    matmul = row("| matmul | gemm | old5678 |")
    assert [c.strip() for c in matmul.split("|")].count("–") == 2  # no tilecpp, no pytorch
    assert matmul.endswith("| `old.json` |")
    assert row("| position | 1 | new1234-dirty |")
    assert row("| normalization | 1 | new1234 |").count("1 op, ") == 3
    assert row("| softmax | `c2` |") == ("| softmax | `c2` | 0.004 GB/s | 0.008 GB/s (copy) | 50% | `b.json` | "
                                         "new1234 | 2026-12-02T11:00:00Z |")
    assert row("| matmul | `m1` |").endswith("| 0.5 TFLOP/s | 5 TFLOP/s (bf16_mm) | 10% | `old.json` | old5678 | "
                                              "2026-12-01T09:00:00Z |")
    assert "No report measured cutile-cpp on transpose." in page
    assert row("| `b.json` |") == "| `b.json` | new1234 | NVIDIA H200 | 2026-12-02T11:00:00Z | quick | softmax |"
    assert row("| `old.json` |").endswith("| matmul |")
    assert "Skipped, not GPU reports of schema `cutile-cpp-ops-bench/1`: broken.json, cpu.json, legacy.json." in page

    pngs = sorted(p.name for p in out.with_suffix("").iterdir())
    assert pngs == ["nvidia-b200-normalization.png", "nvidia-h200-gemm.png", "nvidia-h200-normalization.png",
                    "nvidia-h200-position.png"]  # the stale PNG is gone
    assert all(f"(performance/{name})" in page for name in pngs)
    assert all((out.with_suffix("") / name).read_bytes().startswith(b"\x89PNG") for name in pngs)


def test_the_dashboard_needs_no_torch(results, tmp_path):
    code = ("import sys; sys.modules['torch'] = None; sys.path.insert(0, sys.argv[1]); import dashboard; "
            "sys.exit(dashboard.main(['--results', sys.argv[2], '--out', sys.argv[3]]))")
    done = subprocess.run([sys.executable, "-c", code, str(BENCH), str(results), str(tmp_path / "p.md")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "skipped 3 files that are not GPU reports" in done.stderr


def test_a_commit_named_in_full_and_short_is_one_commit(tmp_path):
    out = tmp_path / "results"
    out.mkdir()
    full = "abcdef0123456789abcdef0123456789abcdef01"
    (out / "a.json").write_text(json.dumps(report(full, "2026-12-02T10:00:00Z",
                                                  {"relu": op("elementwise", config("c1", 8000, cutile_cpp=1.0, cutile=1.0))})))
    (out / "b.json").write_text(json.dumps(report("abcdef0-dirty", "2026-12-02T11:00:00Z",
                                                  {"relu": op("elementwise", config("c2", 8000, cutile_cpp=1.0, cutile=2.0))})))
    (out / "c.json").write_text(json.dumps(report("abcdef0", "2026-12-02T12:00:00Z",
                                                  {"relu": op("elementwise", config("c2", 8000, cutile_cpp=1.0, cutile=4.0))})))
    runs, _ = dashboard.load(out)
    assert sorted(r.commit for r in runs) == ["abcdef0", "abcdef0", "abcdef0-dirty"]
