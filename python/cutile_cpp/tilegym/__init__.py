"""TileGym backend "cutile-cpp".

Importing this package registers every op of the library that TileGym has (an op description's
`tilegym` face: TileGym's name and signature) with TileGym's dispatcher (tilegym.backend.register_impl),
and adds the backend to TileGym's available set, so that `tilegym.set_backend("cutile-cpp")` and
`tilegym.ops.<op>(..., backend="cutile-cpp")` run our kernels.

Each registered function has TileGym's signature, made from the face: its parameters are passed to our
op by name (`renames` maps ours to theirs where they differ); `ignored` ones are accepted and unused;
`unsupported` ones must keep their default (NotImplementedError otherwise, as TileGym's cutile backend
has them); keyword arguments that name a parameter of our op are passed on, others are ignored, as in
TileGym; `returns` picks the outputs returned.

A TileGym entry whose behaviour is more than that (factories, modules, return conventions) is written by
hand in a module of this package named after the op; each such module registers its names itself, and
the generic registration leaves those names alone.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

from tilegym.backend import dispatcher, get_available_backends, register_impl

from .. import _call, ops

BACKEND = "cutile-cpp"


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def _face(spec: dict):
    """The TileGym function of the op described by `spec`."""
    face = spec["tilegym"]
    op = getattr(ops, spec["name"])
    ours = set(inspect.signature(op).parameters)
    renames = {}  # theirs -> ours
    for pair in _names(face["renames"]):
        mine, theirs = (part.strip() for part in pair.split("="))
        renames[theirs] = mine
    ignored, unsupported = set(_names(face["ignored"])), set(_names(face["unsupported"]))
    outputs = [t["name"] for t in spec["tensors"] if t["role"] == "out"]
    returns = [outputs.index(name) for name in _names(face["returns"])]
    namespace: dict = {}
    exec(f"def probe({face['signature']}): pass", namespace)  # noqa: S102 (TileGym's parameter list)
    parameters = inspect.signature(namespace["probe"]).parameters
    defaults = {name: p.default for name, p in parameters.items()}
    extra = next((name for name, p in parameters.items() if p.kind is p.VAR_KEYWORD), None)
    named = [name for name, p in parameters.items() if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
    name = face["name"]

    def apply(values: dict, keywords: dict):
        arguments = {}
        for theirs, value in values.items():
            if theirs in unsupported:
                default = defaults[theirs]
                if not (value is default or (type(value) is type(default) and value == default)):
                    raise NotImplementedError(
                        f"cutile-cpp {name}: {theirs} is not supported (nor by TileGym's cutile {name})"
                    )
            elif theirs not in ignored:
                arguments[renames.get(theirs, theirs)] = value
        arguments.update({k: v for k, v in keywords.items() if k in ours})
        result = op(**arguments)
        if not returns:
            return result
        produced = result if isinstance(result, tuple) else (result,)
        picked = tuple(produced[k] for k in returns)
        return picked[0] if len(picked) == 1 else picked

    body = "{" + ", ".join(f"{n!r}: {n}" for n in named) + "}"
    source = f"def {name}({face['signature']}):\n    return _apply({body}, {extra if extra else '{}'})\n"
    namespace = {"_apply": apply}
    exec(source, namespace)  # noqa: S102 (TileGym's parameter list, from the description)
    function = namespace[name]
    function.__doc__ = f"TileGym's {name} on cutile_cpp.{spec['name']}:\n\n" + (op.__doc__ or "")
    function.__module__ = __name__
    return function


def _register() -> tuple:
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
    for spec in _call.library().specs:
        name = spec["tilegym"]["name"]
        if name and not dispatcher.has_backend_impl(name, BACKEND):
            function = _face(spec)
            globals()[name] = function
            register_impl(name, backend=BACKEND)(function)
    get_available_backends().add(BACKEND)
    return tuple(sorted(op for op, impls in dispatcher._REGISTRY.items() if BACKEND in impls))


# The TileGym op names registered for the backend.
PORTED_OPS = _register()
