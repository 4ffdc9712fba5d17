"""TileGym's own benchmark scripts (its tests/benchmark/bench_*.py) with a cutile-cpp line beside each
cuTile Python line, so that our backend is measured by TileGym's method in the same process as cuTile
Python. Each script is copied, its backend table gets the extra line (a `("cutile", "CuTile", style)`
entry gains `("cutile-cpp", "cutile-cpp", style)`; rms_norm's `("cutile", mode, "CuTile <mode>", style)`
entries gain `("cutile-cpp", mode, "cutile-cpp <mode>", style)`), and it runs in its own process with the
cutile_cpp TileGym plugin imported and triton's perf_report writing its tables as CSV. The report holds
every table, and per script and table the ratio cutile-cpp / cuTile Python of each configuration
(rates: GB/s, TFLOPS; higher is better), their geomean, the count below 0.95 and the lowest.

    python3 bench/ops/tilegym_bench.py --bench-dir TILEGYM/tests/benchmark --out report.json \
        [--timeout-s 120] [--max-x 16384] bench_softmax bench_rmsnorm ...

Needs torch, triton, tilegym and cuda.tile importable, and cutile_cpp with its library (PYTHONPATH=python,
CUTILE_CPP_MODE=development, CUTILE_CPP_BUILD_DIR=build).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

OURS = "cutile-cpp"
_BACKEND_LINE = re.compile(
    r'^(?P<indent>\s*)\("cutile", "CuTile", (?P<style>\([^)]*\))\) if is_backend_available\("cutile"\) else None,$',
    re.MULTILINE,
)
_MODE_LINE = re.compile(r'^(?P<indent>\s*)\("cutile", (?P<mode>"\w+"), "CuTile (?P<label>[^"]*)", (?P<style>\([^)]*\))\),$',
                        re.MULTILINE)

# Runs one copied script with the plugin registered and perf_report's tables saved as CSV in argv[2]; with
# argv[3] > 0, only the x values of at most that (kept_x_values, imported from argv[4]).
_RUNNER = """
import runpy, sys
import triton.testing
import cutile_cpp.tilegym  # registers the cutile-cpp backend
script, save_path, max_x = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, sys.argv[4])
from tilegym_bench import kept_x_values
run = triton.testing.Mark.run
def run_saving(self, *args, **kwargs):
    import json, pathlib
    for b in self.benchmarks if isinstance(self.benchmarks, list) else [self.benchmarks]:
        all_x = list(b.x_vals)
        b.x_vals = kept_x_values(all_x, max_x)
        meta = {"x_names": list(b.x_names), "args": {k: str(v) for k, v in b.args.items()}, "ylabel": str(b.ylabel),
                "x_vals_left_out": [x for x in all_x if x not in b.x_vals]}
        pathlib.Path(save_path, b.plot_name + ".meta.json").write_text(json.dumps(meta))
    kwargs["save_path"] = save_path
    kwargs["print_data"] = True
    return run(self, *args, **kwargs)
triton.testing.Mark.run = run_saving
sys.path.insert(0, str(__import__("pathlib").Path(script).parent))
runpy.run_path(script, run_name="__main__")
"""


def kept_x_values(x_vals: list, max_x: int) -> list:
    """The x values (numbers, or tuples of them) with no number above `max_x`; all of them when it is 0."""
    if max_x <= 0:
        return list(x_vals)
    return [x for x in x_vals if all(v <= max_x for v in (x if isinstance(x, (list, tuple)) else (x,)))]


def with_our_line(source: str) -> tuple[str, int]:
    """The script's text with a cutile-cpp entry after each cuTile Python entry, and how many were added."""
    source, plain = _BACKEND_LINE.subn(
        lambda m: f'{m[0]}\n{m["indent"]}("{OURS}", "{OURS}", {m["style"]}) if is_backend_available("{OURS}") else None,',
        source,
    )
    source, modes = _MODE_LINE.subn(
        lambda m: f'{m[0]}\n{m["indent"]}("{OURS}", {m["mode"]}, "{OURS} {m["label"]}", {m["style"]}),', source
    )
    return source, plain + modes


def ratios(rows: list[dict], meta: dict) -> list[dict]:
    """Per row, cutile-cpp over cuTile Python for every pair of columns that differ only in that name; the
    configuration is the table's fixed arguments and the row's x values (`meta`, as the runner saved it)."""
    out = []
    for row in rows:
        for column, value in row.items():
            if not column.startswith("CuTile") or column.endswith(("-min", "-max")):
                continue
            ours = OURS + column.removeprefix("CuTile")
            try:
                theirs_value, ours_value = float(value), float(row.get(ours, "nan"))
            except ValueError:
                continue
            if theirs_value > 0 and ours_value > 0:
                config = {**meta.get("args", {}), **{k: row[k] for k in meta.get("x_names", []) if k in row}}
                out.append({"config": config, "line": column, "cutile": theirs_value, OURS: ours_value,
                            "ratio": ours_value / theirs_value})
    return out


def summary(pairs: list[dict]) -> dict:
    if not pairs:
        return {"configurations": 0}
    values = [p["ratio"] for p in pairs]
    return {
        "configurations": len(values),
        "geomean": math.exp(sum(math.log(v) for v in values) / len(values)),
        "below_0.95": sum(v < 0.95 for v in values),
        "lowest": min(values),
    }


def run_script(script: Path, work: Path, timeout_s: float, max_x: int = 0) -> dict:
    patched, added = with_our_line(script.read_text())
    if not added:
        return {"error": "no cuTile Python entry to add a cutile-cpp line beside"}
    copy = work / script.name
    copy.write_text(patched)
    tables = work / (script.stem + "_tables")
    tables.mkdir()
    try:
        done = subprocess.run(
            [sys.executable, "-c", _RUNNER, str(copy), str(tables), str(max_x), str(Path(__file__).resolve().parent)],
            capture_output=True, text=True, timeout=timeout_s, cwd=work)
        log, status = done.stdout + done.stderr, done.returncode
    except subprocess.TimeoutExpired as e:
        log = (e.stdout or b"").decode(errors="replace") + (e.stderr or b"").decode(errors="replace")
        status = f"stopped after {timeout_s:.0f} s"
    result = {"status": status, "log_tail": log.strip().splitlines()[-8:], "tables": {}}
    all_pairs = []
    for table in sorted(tables.glob("*.csv")):
        with table.open() as f:
            rows = list(csv.DictReader(f))
        meta_file = table.with_suffix(".meta.json")
        meta = json.loads(meta_file.read_text()) if meta_file.exists() else {}
        pairs = ratios(rows, meta)
        all_pairs += pairs
        result["tables"][table.stem] = {"meta": meta, "rows": rows, "pairs": pairs, "summary": summary(pairs)}
    result["summary"] = summary(all_pairs)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench-dir", type=Path, required=True, help="TileGym's tests/benchmark")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--timeout-s", type=float, default=120.0, help="per script")
    parser.add_argument("--max-x", type=int, default=0,
                        help="leave out the configurations with an x value above this (cuTile Python autotunes "
                        "bench_persistent_matmul's 32768 for minutes)")
    parser.add_argument("scripts", nargs="+", help="bench_<name> of the scripts to run")
    args = parser.parse_args()
    report = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copy(args.bench_dir / "bench_utils.py", work)
        for name in args.scripts:
            report[name] = run_script(args.bench_dir / f"{name}.py", work, args.timeout_s, args.max_x)
            args.out.write_text(json.dumps(report, indent=1) + "\n")
            print(name, json.dumps(report[name]["summary"] if "summary" in report[name] else report[name]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
