#!/usr/bin/env python3
"""Tests of the reference exporter (CTest: reference.export, label aot).

End to end: scripts/export_reference.sh installs cuda-tile and tilegym (no torch) if needed and
exports TileGym's softmax at the benchmark configuration (4096, 4096) bf16; every file must decode
with our reader (`cutile-ir dump`, when that tool is built) and with NVIDIA's tileirdisasm, and the
two texts must agree. Unit level: the specialisation facts the exporter assumes for an array.

    python3 tools/reference/test_export.py     (CUTILE_IR=path/to/cutile-ir to use a specific build)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(REPO, "scripts", "export_reference.sh")
SOFTMAX_VARIANTS = ["gather", "multi_wave", "tma", "chunked"]


def run(args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, timeout=300, **kwargs)


def site_dir():
    setup = run([SCRIPT, "--setup"])
    if setup.returncode != 0:
        raise RuntimeError(f"scripts/export_reference.sh --setup failed:\n{setup.stderr}")
    return setup.stdout.strip().splitlines()[-1]


def tileirdisasm():
    bundled = os.path.join(REPO, ".toolchain", "python", "nvidia", "cu13", "bin", "tileirdisasm")
    return bundled if os.access(bundled, os.X_OK) else shutil.which("tileirdisasm")


def cutile_ir():
    path = os.environ.get("CUTILE_IR") or os.path.join(REPO, "build", "tools", "cutile-ir", "cutile-ir")
    return path if os.access(path, os.X_OK) else None


def normalised(text):
    """Lines without indentation, blank lines or comments: `cutile-ir dump` nests the entries in a module."""
    return "\n".join(line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("//"))


class ExportSoftmax(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = tempfile.mkdtemp(prefix="reference-export-")
        result = run([SCRIPT, "softmax", "--config", "M=4096", "N=4096", "dtype=bf16", "--out", cls.out])
        if result.returncode != 0:
            raise RuntimeError(f"export failed ({result.returncode}):\n{result.stdout}{result.stderr}")
        with open(os.path.join(cls.out, "softmax.json")) as f:
            cls.manifest = json.load(f)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out, ignore_errors=True)

    def test_writes_every_variant_with_its_tilegym_name(self):
        kernels = {k["variant"]: k for k in self.manifest["kernels"]}
        self.assertEqual(sorted(kernels), sorted(SOFTMAX_VARIANTS))
        self.assertEqual(kernels["tma"]["symbol"], "_softmax_kernel_tma")
        self.assertEqual(kernels["tma"]["hints"], {"occupancy": 2})
        self.assertEqual(self.manifest["cuda_tile"], "1.7.0")
        self.assertEqual(self.manifest["tilegym"], "1.5.1")
        for variant in SOFTMAX_VARIANTS:
            with open(os.path.join(self.out, f"softmax.{variant}.tileirbc"), "rb") as f:
                self.assertEqual(f.read(8), b"\x7fTileIR\x00")

    def test_mirrors_the_launchers_arguments(self):
        tma = next(k for k in self.manifest["kernels"] if k["variant"] == "tma")
        x, y, *constants = tma["parameters"]
        # A contiguous (4096, 4096) bf16 tensor: unit innermost stride, 16-byte row stride and base,
        # both extents divisible by 16, no aliasing.
        for array in (x, y):
            self.assertIn("dtype=<DType 'bfloat16'>", array)
            self.assertIn("stride_constant=(None, 1)", array)
            self.assertIn("stride_divisible_by=(8, 1)", array)
            self.assertIn("shape_divisible_by=(16, 16)", array)
            self.assertIn("base_addr_divisible_by=16", array)
            self.assertIn("may_alias_internally=False", array)
            self.assertIn("alias_groups=()", array)
        # (n_rows, n_cols, TILE_SIZE = next_pow2(n_cols)) as ct.Constant ints.
        self.assertEqual(constants, ["ConstantConstraint(value=4096)"] * 3)

    def test_no_machine_paths_in_the_bytecode(self):
        with open(os.path.join(self.out, "softmax.tma.tileirbc"), "rb") as f:
            data = f.read()
        self.assertIn(b"tilegym/ops/cutile/softmax.py", data)
        self.assertNotIn(REPO.encode(), data)

    def test_decodes_with_our_reader_and_tileirdisasm(self):
        ours, theirs = cutile_ir(), tileirdisasm()
        if not ours and not theirs:
            self.fail("neither build/tools/cutile-ir/cutile-ir nor tileirdisasm (scripts/install_toolchain.sh) found")
        for variant in SOFTMAX_VARIANTS:
            path = os.path.join(self.out, f"softmax.{variant}.tileirbc")
            texts = {}
            for name, tool in (("cutile-ir dump", ours and [ours, "dump", path]), ("tileirdisasm", theirs and [theirs, path])):
                if not tool:
                    continue
                result = run(tool)
                self.assertEqual(result.returncode, 0, f"{name} rejected {path}:\n{result.stderr}")
                self.assertIn("entry @", result.stdout)
                texts[name] = normalised(result.stdout)
            if len(texts) == 2:
                self.assertIn(texts["tileirdisasm"], texts["cutile-ir dump"], f"{variant}: our text differs")


class ExportOwnKernels(unittest.TestCase):
    """cuTile Python exports kernels written in our own test suite (tests/data/reference/export_reference.py);
    our reader decodes them to the same text as the committed copies the bytecode tests use."""

    def test_exports_and_dumps_like_the_committed_bytecode(self):
        tool = cutile_ir()
        self.assertIsNotNone(tool, "build/tools/cutile-ir/cutile-ir is not built")
        script = os.path.join(REPO, "tests", "data", "reference", "export_reference.py")
        with tempfile.TemporaryDirectory(prefix="own-kernels-") as out:
            env = dict(os.environ, PYTHONPATH=site_dir())
            result = run([sys.executable, script], cwd=out, env=env)
            self.assertEqual(result.returncode, 0, result.stderr)
            for name in ("softmax_cutile_python_13_3.tileirbc", "gemm_cutile_python_13_3.tileirbc"):
                fresh = run([tool, "dump", os.path.join(out, name)])
                committed = run([tool, "dump", os.path.join(REPO, "tests", "data", "reference", name)])
                self.assertEqual(fresh.returncode, 0, fresh.stderr)
                self.assertIn("entry @", fresh.stdout)
                self.assertEqual(normalised(fresh.stdout), normalised(committed.stdout), name)


class ArrayFacts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        sys.path[:0] = [site_dir(), os.path.dirname(os.path.abspath(__file__))]
        import signatures
        cls.signatures = signatures

    def test_odd_extents_and_unit_dims(self):
        s = self.signatures
        c = s.Array(s.dtype("f16"), (37, 1, 1000)).constraint()
        self.assertEqual(c.stride_constant, (None, None, 1))  # stride of the unit dim is 1000, not 1
        self.assertEqual(c.shape_divisible_by, (1, 1, 1))
        self.assertEqual(c.stride_divisible_by, (8, 8, 1))   # 1000 halves = 2000 bytes, a multiple of 16
        self.assertEqual(c.shape_constant, (None, 1, None))
        self.assertEqual(str(s.calling_convention([c])), "CallingConvention('cutile_python_v2', 't2')")

    def test_scalars_follow_the_python_type(self):
        s = self.signatures
        import cuda.tile as ct
        self.assertEqual(s.Scalar(3).constraint().dtype, ct.int32)
        self.assertEqual(s.Scalar(0.5).constraint().dtype, ct.float32)
        self.assertEqual(s.Scalar(True).constraint().dtype, ct.bool_)

    def test_a_list_states_the_facts_its_members_share(self):
        s = self.signatures
        f16 = s.dtype("f16")
        c = s.ArrayList((s.Array(f16, (64, 32)), s.Array(f16, (48, 40)))).constraint()
        self.assertFalse(c.elements_may_alias)
        self.assertEqual(c.element.stride_constant, (None, 1))
        self.assertEqual(c.element.shape_divisible_by, (16, 1))   # 40 is not a multiple of 16
        self.assertEqual(c.element.stride_divisible_by, (8, 1))    # row strides of 64 and 80 bytes; unit 2

    def test_rejects_strides_past_int32(self):
        s = self.signatures
        with self.assertRaisesRegex(ValueError, "INT32_MAX"):
            s.Array(s.dtype("f32"), (2, 65536, 65536)).constraint()  # outer stride 2^32


if __name__ == "__main__":
    unittest.main(verbosity=2)
