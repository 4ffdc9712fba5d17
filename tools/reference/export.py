#!/usr/bin/env python3
"""Writes cuTile Python's Tile IR bytecode for one TileGym op's kernels, with no GPU and no PyTorch.

    export.py OP [--config KEY=VALUE ...] [--kernels V1,V2] [--mangled-names] [--gpu sm_XX] --out DIR
    export.py --list

For each kernel variant of OP (see --list) it writes DIR/<op>.<variant>.tileirbc, one entry
function per file, named after TileGym's Python function (or, with --mangled-names, the symbol
cuTile's JIT would give it), and DIR/<op>.json describing what was exported: the configuration,
each kernel's constraints and hints, and the versions of cuda-tile and tilegym used.

Needs cuda-tile and tilegym importable (scripts/export_reference.sh installs both); see
tools/reference/README.md for how torch is avoided and which specialisation facts are assumed.
"""
import argparse
import json
import os
import sys

BYTECODE_VERSION = "13.3"  # the oldest version whose bytecode is architecture independent


def parse_value(text):
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "none":
        return None
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def parse_config(pairs, defaults, op):
    config = dict(defaults)
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SystemExit(f"export.py: --config expects KEY=VALUE, got '{pair}'")
        if key not in defaults:
            raise SystemExit(f"export.py: {op} has no configuration key '{key}'; keys: {', '.join(defaults)}")
        # A string-valued key keeps its text: gelu's approximate='none' is not Python's None.
        config[key] = value if isinstance(defaults[key], str) else parse_value(value)
    return config


def export(op, config_pairs, out_dir, variants=None, mangled_names=False, gpu=None):
    """Exports OP's kernels into out_dir; returns the manifest (also written as <op>.json)."""
    import tilegym_loader
    tilegym_loader.install()
    from cuda.tile.compilation import KernelSignature, export_kernel
    from importlib.metadata import version

    import recipes
    import signatures

    recipe = recipes.RECIPES[op]
    config = parse_config(config_pairs, recipe.defaults, op)
    module = tilegym_loader.load_cutile_module(recipe.module)
    launches = recipe.build(config)
    known = [launch.variant for launch in launches]
    if variants:
        unknown = [v for v in variants if v not in known]
        if unknown:
            raise SystemExit(f"export.py: {op} has no kernel variant {', '.join(unknown)}; variants: {', '.join(known)}")
        launches = [launch for launch in launches if launch.variant in variants]

    os.makedirs(out_dir, exist_ok=True)
    manifest = {"op": op, "config": config, "bytecode_version": BYTECODE_VERSION, "gpu": gpu,
                "cuda_tile": version("cuda-tile"), "tilegym": tilegym_loader.tilegym_version(), "kernels": []}
    for launch in launches:
        kernel = getattr(module, launch.kernel_name)
        if launch.hints:
            kernel = kernel.replace_hints(**launch.hints)
        params = signatures.constraints(launch.args)
        signature = KernelSignature(params, signatures.calling_convention(params))
        signature = (signature.with_mangled_symbol(launch.kernel_name) if mangled_names
                     else signature.with_symbol(launch.kernel_name))
        path = os.path.join(out_dir, f"{op}.{launch.variant}.tileirbc")
        export_kernel(kernel, [signature], path, gpu_code=gpu, output_format="tileir_bytecode",
                      bytecode_version=BYTECODE_VERSION)
        manifest["kernels"].append({
            "variant": launch.variant, "function": launch.kernel_name, "symbol": signature.symbol,
            "file": os.path.basename(path), "hints": launch.hints, "mirrors": launch.note,
            "calling_convention": str(signature.calling_convention),
            "parameters": [repr(p) for p in signature.parameters]})
        print(f"wrote {path}")
    with open(os.path.join(out_dir, f"{op}.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    return manifest


def main(argv=None):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    try:
        import recipes
    except ImportError as error:
        print(f"export.py: {error}; it needs cuda-tile and tilegym importable: run it through "
              "scripts/export_reference.sh, which installs both (without torch)", file=sys.stderr)
        return 2

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("op", nargs="?", help=f"one of {', '.join(sorted(recipes.RECIPES))}")
    parser.add_argument("--config", nargs="*", default=[], metavar="KEY=VALUE",
                        help="override the op's benchmark configuration (see --list)")
    parser.add_argument("--kernels", help="comma-separated variants to export (default: all)")
    parser.add_argument("--mangled-names", action="store_true",
                        help="name entries as cuTile's JIT does (<fn>_K...) instead of the Python function name")
    parser.add_argument("--gpu", help="compile for this target (e.g. sm_90) as the JIT does on that GPU: resolves per-target "
                        "(ByTarget) hints and options for it; default: architecture-independent bytecode")
    parser.add_argument("--out", help="output directory")
    parser.add_argument("--list", action="store_true", help="list the ops, their variants and configuration keys")
    args = parser.parse_args(argv)

    if args.list:
        for name, recipe in sorted(recipes.RECIPES.items()):
            print(f"{name}: {recipe.doc}\n  defaults: " + " ".join(f"{k}={v}" for k, v in recipe.defaults.items()))
        return 0
    if not args.op or not args.out:
        parser.error("OP and --out are required (or --list)")
    if args.op not in recipes.RECIPES:
        parser.error(f"unknown op '{args.op}'; ops: {', '.join(sorted(recipes.RECIPES))}")
    try:
        export(args.op, args.config, args.out, args.kernels.split(",") if args.kernels else None, args.mangled_names,
               args.gpu)
    except ImportError as error:
        print(f"export.py: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
