"""The op benchmark harness (bench/ops): run.py end to end on CPU tensors for one tiny softmax configuration
(cutile-cpp through the CPU interpreter, pytorch), the JSON schema, the ratio and geomean arithmetic, an op
that is not ported, a failing backend, budget cuts, and on a GPU a short run with every backend."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
import torch

pytest.importorskip("tilegym", reason="needs tilegym (scripts/python_env.sh installs it)")

BENCH = Path(__file__).resolve().parents[2] / "bench" / "ops"
sys.path.insert(0, str(BENCH))

import configs as C  # noqa: E402
import harness  # noqa: E402
import summary  # noqa: E402
from support import needs_gpu  # noqa: E402

CPU = torch.device("cpu")


def tiny(spec, **params):
    return replace(spec, configs=[C.Config(dict(spec.tiny, **params), quick=True)])


def test_cli_softmax_on_cpu_writes_the_report(tmp_path):
    out = tmp_path / "bench.json"
    result = subprocess.run([sys.executable, str(BENCH / "run.py"), "--op", "softmax", "--tiny", "--device", "cpu",
                             "--reps", "3", "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads(out.read_text())
    assert report["schema"] == harness.SCHEMA
    assert set(report) >= {"meta", "method", "ceilings", "ops", "families", "first_call", "table"}
    meta = report["meta"]
    for key in ("gpu", "sm_count", "driver", "cuda", "torch", "triton", "tileiras", "cuda_tile", "tilegym",
                "git_commit", "date_utc"):
        assert key in meta, key
    assert meta["date_utc"].endswith("Z") and meta["tilegym"]
    assert report["method"]["primary"] == "cpu-wall" and report["method"]["subset"] == "tiny"
    assert "skipped" in report["ceilings"] and "skipped" in report["first_call"]

    op = report["ops"]["softmax"]
    assert op["ported"] and op["family"] == "normalization" and op["metric"] == "GB/s" and "bench_softmax" in op["source"]
    assert op["backends"]["cutile-cpp"] == "ok" and op["backends"]["pytorch"] == "ok"
    assert op["backends"]["cutile"].startswith("unavailable") and "triton" not in op["backends"]
    [entry] = op["configs"]
    assert entry["params"] == {"M": 4, "N": 64, "dtype": "float32", "variant": "baseline"}
    assert entry["bytes"] == 2 * 4 * 64 * 4
    ours, torch_ = entry["results"]["cutile-cpp"], entry["results"]["pytorch"]
    for r in (ours, torch_):
        assert r["status"] == "ok" and r["reps"] == 3 and 0 < r["min_ms"] <= r["p10_ms"] <= r["median_ms"] <= r["p90_ms"]
        assert r["gbps"] == pytest.approx(entry["bytes"] / (r["median_ms"] * 1e6))
    assert entry["results"]["cutile"]["status"] == "unavailable"
    assert entry["ratio"] == {"pytorch": pytest.approx(torch_["median_ms"] / ours["median_ms"])}
    assert op["geomean"]["pytorch"] == {"value": pytest.approx(entry["ratio"]["pytorch"]), "n": 1}
    assert report["families"]["normalization"]["geomean"]["pytorch"]["value"] == pytest.approx(entry["ratio"]["pytorch"])
    assert op["largest_config"]["id"] == entry["id"]
    assert "softmax" in report["table"] and result.stdout.strip().endswith(report["table"].splitlines()[-1])


def test_a_run_without_cutile_cpp_does_not_load_the_library():
    """Measuring other backends alone (tilecpp against PyTorch, say) must not load, or in development mode
    build, libcutile_cpp_kernels.so."""
    code = ("import sys, torch; sys.path.insert(0, 'bench/ops'); import harness; "
            "harness.Backends(torch.device('cpu'), ('pytorch', 'tilecpp')); "
            "print('cutile_cpp.tilegym' in sys.modules, 'cutile_cpp' in sys.modules)")
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root / "python"), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "False"]


def test_ratio_and_geomean_arithmetic():
    def entry(ours, cutile, torch_ms, nbytes):
        ok = lambda ms: {"status": "ok", "median_ms": ms, "gbps": nbytes / (ms * 1e6)}  # noqa: E731
        results = {"cutile-cpp": ok(ours), "cutile": ok(cutile), "pytorch": ok(torch_ms) if torch_ms else
                   {"status": "failed", "reason": "AssertionError"}}
        return {"id": f"c{nbytes}", "bytes": nbytes, "results": results}

    op = {"family": "normalization", "metric": "GB/s",
          "configs": [entry(2.0, 3.0, 4.0, 1000), entry(1.0, 0.5, None, 8000)]}
    summary.summarize_op(op, {"copy": {"gbps": 0.004}})
    assert op["configs"][0]["ratio"] == {"cutile": 1.5, "pytorch": 2.0}
    assert op["configs"][1]["ratio"] == {"cutile": 0.5}  # a failed baseline gives no ratio
    assert op["geomean"]["cutile"] == {"value": pytest.approx(math.sqrt(1.5 * 0.5)), "n": 2}
    assert op["geomean"]["pytorch"] == {"value": pytest.approx(2.0), "n": 1}
    largest = op["largest_config"]
    assert largest["id"] == "c8000" and largest["gbps"]["cutile-cpp"] == pytest.approx(0.008)
    assert largest["fraction_of_copy"] == {"cutile-cpp": pytest.approx(2.0), "cutile": pytest.approx(4.0)}

    other = {"family": "elementwise", "metric": "GB/s", "configs": [entry(1.0, 4.0, 2.0, 100)]}
    summary.summarize_op(other, {})
    families = summary.summarize_families({"softmax": op, "relu": other})
    assert families["normalization"]["geomean"]["cutile"]["value"] == pytest.approx(math.sqrt(0.75))
    # each op weighs the same: geomean of the ops' geomeans
    assert families["elementwise_norm"]["geomean"]["cutile"] == {"value": pytest.approx((0.75 * 16) ** 0.25), "ops": 2}
    assert families["elementwise_norm"]["ops"] == ["softmax", "relu"]
    assert "fraction_of_copy" in other["largest_config"] and other["largest_config"]["fraction_of_copy"] == {}


def test_not_ported_op_still_measures_pytorch():
    spec = replace(tiny(C.OPS["relu"]), name="relu_unregistered", tilegym_op="no_such_op_for_the_harness_test")
    report = harness.run([spec], CPU, subset="full", reps=2, with_ceilings=False, with_launch=False)
    op = report["ops"]["relu_unregistered"]
    assert not op["ported"] and op["backends"]["cutile-cpp"] == "not ported"
    results = op["configs"][0]["results"]
    assert results["cutile-cpp"] == {"status": "not ported", "reason": "not ported"}
    assert results["pytorch"]["status"] == "ok" and op["configs"][0]["ratio"] == {} and op["geomean"] == {}


def test_a_wrong_result_is_recorded_as_failed_and_not_timed():
    def wrong(out, params, inputs):
        torch.testing.assert_close(out, torch.zeros_like(out))

    spec = replace(tiny(C.OPS["softmax"]), check=wrong)
    report = harness.run([spec], CPU, subset="full", reps=2, with_ceilings=False, with_launch=False)
    results = report["ops"]["softmax"]["configs"][0]["results"]
    for backend in ("cutile-cpp", "pytorch"):
        assert results[backend]["status"] == "failed" and "median_ms" not in results[backend]
        assert "not close" in results[backend]["reason"]


def test_an_exception_is_recorded_and_the_run_goes_on():
    def broken(backend, params, inputs):
        if backend == "cutile-cpp":
            raise RuntimeError("kernel exploded")
        return C.OPS["softmax"].call(backend, params, inputs)

    spec = replace(tiny(C.OPS["softmax"]), call=broken)
    report = harness.run([spec, tiny(C.OPS["relu"])], CPU, subset="full", reps=2, with_ceilings=False, with_launch=False)
    ours = report["ops"]["softmax"]["configs"][0]["results"]["cutile-cpp"]
    assert ours == {"status": "error", "reason": "RuntimeError: kernel exploded"}
    assert report["ops"]["relu"]["configs"][0]["results"]["pytorch"]["status"] == "ok"


def test_budget_and_order():
    specs = C.select(families=["elementwise_norm"])
    grouped = C.FAMILY_GROUPS["elementwise_norm"]
    assert [s.name for s in specs] == [n for n, s in C.OPS.items() if s.family in grouped] and len(specs) == 11
    order = harness.plan(specs, "full")
    n_quick = sum(c.quick for s in specs for c in s.configs)
    assert all(c.quick for _, c in order[:n_quick]) and not any(c.quick for _, c in order[n_quick:])
    assert len(order) == sum(len(s.configs) for s in specs)
    assert len({s.name for s, _ in order[n_quick:n_quick + 8]}) == 8  # the rest goes round-robin over the ops
    assert all(any(c.quick for c in s.configs) for s in specs)
    partials = []
    two = replace(C.OPS["softmax"], configs=[C.Config(dict(C.OPS["softmax"].tiny, N=n), quick=True) for n in (64, 32)])
    report = harness.run([two], CPU, subset="full", reps=2, budget_s=0.0, with_ceilings=False, with_launch=False,
                         progress=partials.append)
    assert [e["skipped"] for e in report["ops"]["softmax"]["configs"]] == ["time budget of 0.0 s spent"] * 2
    assert all(e["results"] == {} for e in report["ops"]["softmax"]["configs"])
    assert partials == []  # nothing measured, no checkpoint
    harness.run([two], CPU, subset="full", reps=2, with_ceilings=False, with_launch=False,
                progress=lambda p: partials.append((p["partial"], [e["id"] for e in p["ops"]["softmax"]["configs"]])))
    assert partials == [(True, ["M4-N64-float32-baseline"]), (True, ["M4-N64-float32-baseline", "M4-N32-float32-baseline"])]
    with pytest.raises(ValueError, match="unknown op"):
        C.select(["softmaxx"])


def test_every_op_builds_checks_and_counts_on_cpu_with_pytorch():
    """Every op's tiny configuration: inputs build, torch passes its own check, the byte formula is positive."""
    torch.manual_seed(0)
    for spec in C.OPS.values():
        inputs = spec.build(spec.tiny, CPU)
        fresh = C.in_place_inputs(spec, inputs)
        spec.check(spec.call("pytorch", spec.tiny, fresh)(), spec.tiny, fresh)
        assert spec.amount(spec.tiny, inputs) > 0, spec.name


def test_variant_free_baselines_are_measured_once():
    spec = replace(C.OPS["softmax"], configs=[C.Config(dict(C.OPS["softmax"].tiny, variant=v), quick=True) for v in ("baseline", "tma")])
    report = harness.run([spec], CPU, subset="full", reps=2, with_ceilings=False, with_launch=False)
    first, second = report["ops"]["softmax"]["configs"]
    assert second["results"]["pytorch"]["shared_with"] == first["id"]
    assert second["results"]["pytorch"]["median_ms"] == first["results"]["pytorch"]["median_ms"]
    assert "shared_with" not in second["results"]["cutile-cpp"]


@needs_gpu
def test_gpu_run_times_every_backend_and_measures_ceilings(tmp_path):
    out = tmp_path / "bench.json"
    result = subprocess.run([sys.executable, str(BENCH / "run.py"), "--op", "softmax", "rms_norm", "--tiny",
                             "--reps", "10", "--no-first-call", "--out", str(out)],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads(out.read_text())
    assert report["method"]["primary"] == "cuda-events" and report["meta"]["sm_count"] > 0
    assert report["ceilings"]["copy"]["gbps"] > 100 and report["ceilings"]["bf16_mm"]["tflops"] > 10
    softmax = report["ops"]["softmax"]
    assert softmax["configs"][0]["results"]["cutile-cpp"]["status"] == "ok"
    for backend, status in softmax["backends"].items():
        measured = softmax["configs"][0]["results"][backend]
        assert measured["status"] == ("ok" if status == "ok" else status.split(":")[0]), (backend, measured)
    assert softmax["host_launch_us"]["cutile-cpp"]["us_per_call_median"] > 0
    assert "triton" in report["ops"]["rms_norm"]["backends"]


def test_a_killed_run_leaves_a_checkpoint_that_finalize_completes(tmp_path):
    out = tmp_path / "bench.json"
    spec = replace(C.OPS["softmax"], configs=[C.Config(dict(C.OPS["softmax"].tiny, N=n), quick=True) for n in (64, 32)])
    checkpoints = []
    harness.run([spec], CPU, subset="full", reps=2, with_ceilings=False, with_launch=False,
                progress=lambda p: checkpoints.append(json.dumps(p)))
    out.write_text(checkpoints[0])  # as if the run had been killed after its first configuration
    assert json.loads(out.read_text())["partial"]
    result = subprocess.run([sys.executable, str(BENCH / "run.py"), "--finalize", "--out", str(out)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads(out.read_text())
    assert report["completed_from_checkpoint"] and "softmax" in report["table"]
    [entry] = report["ops"]["softmax"]["configs"]
    assert report["ops"]["softmax"]["geomean"]["pytorch"]["value"] == pytest.approx(entry["ratio"]["pytorch"])


def test_resume_keeps_the_checkpoint_and_records_the_configuration_that_killed_the_process():
    spec = replace(C.OPS["softmax"], configs=[C.Config(dict(C.OPS["softmax"].tiny, N=n), quick=True) for n in (64, 32, 16)])
    checkpoints = []
    harness.run([spec], CPU, subset="full", reps=2, with_ceilings=False, with_launch=False,
                progress=lambda p: checkpoints.append(json.loads(json.dumps(p))))
    died = checkpoints[0]  # the process died while measuring the second configuration
    report = harness.run([spec], CPU, subset="full", reps=2, with_ceilings=False, with_launch=False, resume=died)
    first, second, third = report["ops"]["softmax"]["configs"]
    assert first == died["ops"]["softmax"]["configs"][0]
    assert all(r["status"] == "error" and "process died" in r["reason"] for r in second["results"].values())
    assert third["results"]["cutile-cpp"]["status"] == "ok" and "ratio" in third
    assert report["resumed"] == {"kept": 1, "crashed": "softmax " + second["id"]}


def test_first_call_processes_run_cold_then_warm_with_their_own_caches():
    import run

    args = run.parse(["--op", "softmax", "--out", "unused.json", "--backends", "cutile-cpp", "pytorch"])
    out = run.first_call_processes(args, CPU)
    for phase in ("cold", "warm"):
        timing = out[phase]["softmax"]["cutile-cpp"]
        assert timing["first_ms"] > 0 and timing["second_ms"] > 0, out[phase]
        assert out[f"{phase}_process_s"] > 0


def toolchain_prefix():
    """The nvidia/cu13 prefix of the tileiras this checkout uses (CUTILE_TOOLCHAIN_DIR, else .toolchain)."""
    root = Path(os.environ.get("CUTILE_TOOLCHAIN_DIR") or Path(__file__).resolve().parents[2] / ".toolchain")
    cu13 = root / "python" / "nvidia" / "cu13"
    return cu13 if (cu13 / "bin" / "tileiras").exists() else None


@pytest.mark.skipif(toolchain_prefix() is None, reason="no tileiras here (scripts/install_toolchain.sh installs it)")
def test_cutile_python_compiles_through_the_wrapper_gpu_bench_installs(tmp_path):
    """What scripts/gpu_bench.sh does on the GPU machine: a tileiras wrapper first on PATH, no CUDA_HOME,
    an empty cuTile cache; cuda-tile then compiles a kernel to an sm_90 cubin with no GPU."""
    pytest.importorskip("cuda.tile", reason="needs cuda-tile")
    script = str(BENCH / "cutile_toolchain.py")
    subprocess.run([sys.executable, script, "--wrap", str(toolchain_prefix()), "--into", str(tmp_path / "bin")],
                   check=True, capture_output=True, timeout=60)
    env = {k: v for k, v in os.environ.items() if k not in ("CUDA_HOME", "CUDA_PATH")}
    env.update(PATH=f"{tmp_path / 'bin'}:/usr/bin:/bin", CUDA_TILE_CACHE_DIR=str(tmp_path / "cache"))
    result = subprocess.run([sys.executable, script], env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr[-2000:]
    report = json.loads(result.stdout)
    assert report["tileiras"] == str(tmp_path / "bin" / "tileiras") and report["cubin_bytes"] > 0
    assert "release 13." in report["tileiras_version"]


def test_tilegym_bench_adds_a_cutile_cpp_line_beside_each_cutile_one():
    import tilegym_bench

    source = (
        'ALL_BACKENDS = [\n'
        '    ("cutile", "CuTile", ("blue", "-")) if is_backend_available("cutile") else None,\n'
        '    ("torch", "PyTorch", ("green", "-")),\n'
        ']\n'
        'CONFIGS = [\n'
        '    ("cutile", "static_persistent", "CuTile static persistent", ("purple", "-")),\n'
        ']\n'
    )
    patched, added = tilegym_bench.with_our_line(source)
    assert added == 2
    assert '    ("cutile-cpp", "cutile-cpp", ("blue", "-")) if is_backend_available("cutile-cpp") else None,\n' in patched
    assert '    ("cutile-cpp", "static_persistent", "cutile-cpp static persistent", ("purple", "-")),\n' in patched
    compile(patched, "bench_patched.py", "exec")


def test_tilegym_bench_ratios_pair_columns_by_name():
    import tilegym_bench

    rows = [
        {"N": "1024", "CuTile": "200", "cutile-cpp": "220", "PyTorch": "100"},
        {"N": "2048", "CuTile static persistent": "400", "cutile-cpp static persistent": "200", "PyTorch": "1"},
        {"N": "4096", "CuTile": "300", "cutile-cpp": "nan"},
    ]
    pairs = tilegym_bench.ratios(rows, {"x_names": ["N"], "args": {"M": "4096"}})
    assert [(p["config"], p["line"], p["ratio"]) for p in pairs] == [
        ({"M": "4096", "N": "1024"}, "CuTile", 1.1),
        ({"M": "4096", "N": "2048"}, "CuTile static persistent", 0.5),
    ]
    s = tilegym_bench.summary(pairs)
    assert s["configurations"] == 2 and s["below_0.95"] == 1 and s["lowest"] == 0.5
    assert math.isclose(s["geomean"], math.sqrt(1.1 * 0.5))


def test_tilegym_bench_leaves_out_x_values_above_the_cap():
    import tilegym_bench

    squares = [2**i for i in range(10, 16)]
    assert tilegym_bench.kept_x_values(squares, 16384) == squares[:-1]
    assert tilegym_bench.kept_x_values(squares, 0) == squares
    shapes = [(1024, 64), (4096, 32768), [8, 8]]
    assert tilegym_bench.kept_x_values(shapes, 16384) == [(1024, 64), [8, 8]]


# --- tilecpp: TileGym's CUDA Tile C++ kernels from a pack of cubins built ahead of time ----------------------

import tilecpp_backend  # noqa: E402

STAND_IN = BENCH / "tilecpp_nvcc.py"
FAKE_NVCC = '''#!/usr/bin/env python3
import hashlib, sys
args = sys.argv[1:]
if args == ["--version"]:
    print("nvcc: fake\\nCuda compilation tools, release 13.4, V13.4.92\\nBuild fake"); sys.exit(0)
source = open(args[-1]).read()
if "boom" in source:
    print("error: boom in the kernel", file=sys.stderr); sys.exit(1)
open(args[args.index("-o") + 1], "wb").write(b"CUBIN " + hashlib.sha256(source.encode()).digest())
'''


def wrapper_source(directory, instantiation: str, name="op.tmp.cu", header="op.cuh"):
    """What TileGym's compile_cuda_to_cubin writes: the header included by name, one instantiation."""
    cu = directory / name
    cu.write_text(f'// Auto-generated wrapper for {header}\n#include "{header}"\n\n'
                  f"// Explicit template instantiations\n{instantiation}\n")
    return cu


def stand_in(env, *args, cwd=None):
    return subprocess.run([sys.executable, str(STAND_IN), *args], env=env, capture_output=True, text=True,
                          timeout=60, cwd=cwd)


def test_tilecpp_stand_in_serves_a_hit_and_fails_loudly_on_a_miss(tmp_path):
    """The pack is keyed by flags, wrapper text and header contents, not by paths: a hit from another include
    directory and output path gets the stored cubin; a recorded compile failure fails again the same way;
    another instantiation, another arch or a changed header is a miss (exit 2, one line naming it, a miss-log
    entry)."""
    fake = tmp_path / "nvcc"
    fake.write_text(FAKE_NVCC)
    fake.chmod(0o755)
    headers = tmp_path / "headers"
    headers.mkdir()
    (headers / "op.cuh").write_text("template <typename T, int B> __tile_global__ void k(T*);\n")
    pack, misses = tmp_path / "pack", tmp_path / "misses.jsonl"
    env = dict(os.environ, TILECPP_PACK_DIR=str(pack), TILECPP_PACK_MISSES=str(misses))
    env.pop("TILECPP_PACK_BUILD_NVCC", None)
    inst = "template __tile_global__ void k<float, 64>(float*);"
    flags = ["-tilecubin", "-arch=sm_90", "-std=c++20", "--tile-only"]

    build = dict(env, TILECPP_PACK_BUILD_NVCC=str(fake))
    cu = wrapper_source(tmp_path, inst)
    made = stand_in(build, *flags, "-o", str(tmp_path / "a.cubin"), "-I", str(headers), str(cu))
    assert made.returncode == 0, made.stderr
    boom = wrapper_source(tmp_path, "template __tile_global__ void k<float, 7>(float*); // boom", "boom.cu")
    assert stand_in(build, *flags, "-o", str(tmp_path / "b.cubin"), "-I", str(headers), str(boom)).returncode == 1
    assert "release 13.4" in stand_in(env, "--version").stdout

    # served on "another machine": other paths for the headers, the wrapper and the output
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "op.cuh").write_text((headers / "op.cuh").read_text())
    cu2 = wrapper_source(elsewhere, inst)
    hit = stand_in(env, *flags, "-o", str(elsewhere / "x.cubin"), "-I", str(elsewhere), str(cu2))
    assert hit.returncode == 0, hit.stderr
    assert (elsewhere / "x.cubin").read_bytes() == (tmp_path / "a.cubin").read_bytes()
    again = stand_in(env, *flags, "-o", str(elsewhere / "y.cubin"), "-I", str(headers), str(boom))
    assert again.returncode == 1 and "boom in the kernel" in again.stderr
    assert not misses.exists()

    other = wrapper_source(elsewhere, "template __tile_global__ void k<float, 128>(float*);", "other.cu")
    cases = [(flags, other), (["-tilecubin", "-arch=sm_100", "-std=c++20", "--tile-only"], cu2)]
    for case_flags, source in cases:
        miss = stand_in(env, *case_flags, "-o", str(elsewhere / "z.cubin"), "-I", str(elsewhere), str(source))
        assert miss.returncode == tilecpp_nvcc_miss_rc(), miss.stderr
        [line] = miss.stderr.strip().splitlines()
        assert line.startswith(f"tilecpp pack {pack} has no cubin for ") and "scripts/tilecpp_pack.sh" in line
    (elsewhere / "op.cuh").write_text("// another TileGym release\n" + (headers / "op.cuh").read_text())
    changed = stand_in(env, *flags, "-o", str(elsewhere / "z.cubin"), "-I", str(elsewhere), str(cu2))
    assert changed.returncode == tilecpp_nvcc_miss_rc()
    logged = [json.loads(line) for line in misses.read_text().splitlines()]
    assert [m["arch"] for m in logged] == ["sm_90", "sm_100", "sm_90"]
    assert logged[0]["instantiation"] == "template __tile_global__ void k<float, 128>(float*);"

    log = tilecpp_backend.MissLog({"TILECPP_PACK_MISSES": str(misses)})
    assert log.since(3) is None
    assert log.since(1) == ("the tilecpp pack has no cubin for sm_100 "
                            "`template __tile_global__ void k<float, 64>(float*);` (and 1 more)")


def tilecpp_nvcc_miss_rc() -> int:
    import tilecpp_nvcc

    return tilecpp_nvcc.MISS_RC


def test_tilecpp_is_unavailable_with_the_reason_without_a_pack(tmp_path):
    assert tilecpp_backend.unavailable_reason({}).startswith("no tilecpp pack (TILECPP_PACK_DIR")
    env = {"TILECPP_PACK_DIR": str(tmp_path)}
    tilecpp_backend.prepare(env)
    assert env["TILECPP_NVCC_PATH"] == str(STAND_IN) and env["TILECPP_PACK_MISSES"]
    assert "is not a tilecpp pack" in tilecpp_backend.unavailable_reason(env)
    (tmp_path / "nvcc-version.txt").write_text("Cuda compilation tools, release 13.4, V13.4.92\n")
    assert tilecpp_backend.unavailable_reason(env, available=lambda: True) is None
    assert "does not import (No module named 'cuda.core'" in tilecpp_backend.unavailable_reason(
        env, import_error=ImportError("No module named 'cuda.core'"))
    own = {"TILECPP_NVCC_PATH": "/usr/bin/true", "TILECPP_PACK_DIR": str(tmp_path)}
    tilecpp_backend.prepare(own)  # a caller's own nvcc is kept
    assert own["TILECPP_NVCC_PATH"] == "/usr/bin/true"
    assert "finds no nvcc >= 13.3 at TILECPP_NVCC_PATH=/usr/bin/true" in tilecpp_backend.unavailable_reason(
        own, available=lambda: False)

    # through run.py, in a fresh process (TileGym reads the variables when it is imported)
    out = tmp_path / "bench.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("TILECPP_")}
    result = subprocess.run([sys.executable, str(BENCH / "run.py"), "--op", "relu", "--tiny", "--device", "cpu",
                             "--reps", "2", "--backends", "tilecpp", "pytorch", "--out", str(out)],
                            env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    op = json.loads(out.read_text())["ops"]["relu"]
    assert op["backends"]["tilecpp"].startswith("unavailable: no tilecpp pack"), op["backends"]
    [entry] = op["configs"]
    assert entry["results"]["tilecpp"]["status"] == "unavailable" and entry["results"]["pytorch"]["status"] == "ok"


def test_tilecpp_softmax_is_measured_once_per_shape():
    """TileGym's tilecpp softmax takes no variant flags: its variants are one call, shared like pytorch's."""
    spec = C.OPS["softmax"]
    assert "tilecpp" in spec.variantless and "cutile" not in spec.variantless
    assert "tilecpp" in C.OPS["matmul"].backends and "tilecpp" in C.OPS["bmm"].backends
    assert "tilecpp" in summary.BASELINES and "vs tilecpp" in summary.table({"ops": {}, "families": {}})


def tilecpp_nvcc_path():
    """A real nvcc >= 13.3 for CUDA Tile C++: TILECPP_BUILD_NVCC, else scripts/tilecpp_pack.sh's install."""
    path = os.environ.get("TILECPP_BUILD_NVCC") or \
        Path(__file__).resolve().parents[2] / ".toolchain" / "tilecpp" / "python" / "nvidia" / "cu13" / "bin" / "nvcc"
    return str(path) if Path(path).is_file() else None


@pytest.mark.skipif(tilecpp_nvcc_path() is None,
                    reason="no CUDA Tile C++ nvcc here (scripts/tilecpp_pack.sh --install installs it)")
def test_tilecpp_pack_compiles_relu_to_an_sm_90_cubin_that_tilegym_is_then_served(tmp_path):
    """The AOT path without a GPU: TileGym's tilecpp relu wrapper, run on meta tensors, compiles its kernel with
    the real nvcc into the pack (an sm_90 CUDA ELF); a second pass with no compiler finds every compile in the
    pack (no miss)."""
    pytest.importorskip("tilegym.ops.tilecpp", reason="needs tilegym")
    pack = tmp_path / "pack"
    script = [sys.executable, str(BENCH / "tilecpp_pack.py"), "--pack", str(pack), "--op", "relu", "--tiny"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("TILECPP_")}
    made = subprocess.run([*script, "--nvcc", tilecpp_nvcc_path()], env=env, capture_output=True, text=True,
                          timeout=900)
    assert made.returncode == 0, made.stdout + made.stderr[-3000:]
    [line] = [json.loads(x) for x in made.stdout.splitlines() if x.startswith("{")]
    assert line["op"] == "relu" and line["calls"] == 2 and line["new_compiles"] == 1 and line["errors"] == []
    [cubin] = (pack / "entries").glob("*.cubin")
    data = cubin.read_bytes()
    assert data[:4] == b"\x7fELF" and int.from_bytes(data[18:20], "little") == 190  # EM_CUDA
    assert (int.from_bytes(data[48:52], "little") >> 8) & 0xFF == 90  # e_flags: the SM version in bits 8-15
    entry = json.loads(cubin.with_suffix(".json").read_text())
    assert entry["arch"] == "sm_90" and entry["rc"] == 0 and "relu" in entry["instantiation"]
    assert "release 13." in (pack / "nvcc-version.txt").read_text()

    misses = tmp_path / "misses.jsonl"
    served = subprocess.run([*script, "--nvcc", "serve"], env=dict(env, TILECPP_PACK_MISSES=str(misses)),
                            capture_output=True, text=True, timeout=300)
    assert served.returncode == 0, served.stdout + served.stderr[-3000:]
    assert not misses.exists() or misses.read_text() == ""
