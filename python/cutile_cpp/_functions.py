"""The Python function of every op, made from its description (kernels/<family>/<op>.cpp, read from the
library as JSON): its signature, argument checks, views, output allocation, the call, its torch.library
op with schema and fake implementation, and its autograd formula when it has a backward op.

A function takes the op's input (and in-place) tensors in order, then its parameters with their
defaults, then its outputs as keyword-only arguments (`y=None`: allocated when not given). It returns its
outputs (one tensor, or a tuple), or its in-place tensors when it has no outputs.

- Checks: Python checks only what must be known before the library is called (that tensors are tensors,
  parameters' Python types and choice names); the library checks everything else against the
  description and its errors are raised as CutileCppTypeError / CutileCppValueError (TypeError /
  ValueError).
- Views: a `rows` tensor of any rank >= 1 is passed as (prod(leading), N), a `flat` one as its elements;
  outputs with such a view come back in the first viewed input's leading shape. A `leading_ones` input of
  a lower rank is passed with leading dims of extent 1.
- Lists: a listed tensor (its description's "list", the symbol of its length) is passed as a list or tuple
  of tensors, at least one; a listed output comes back as a list, one tensor per element of the input lists
  of its length, each of the shape its element's symbols give. torch.library types them Tensor[].
- Devices and streams: the kernels run on the inputs' device and its current stream (CPU tensors: the
  interpreter, before the call returns), with no copy and no synchronisation.
- torch.library: each op is torch.ops.cutile_cpp.<op> (on the viewed tensors) with a fake
  implementation that asks the library for the output shapes, so torch.compile traces through it; eager
  calls go to the library directly unless autograd needs the op.
- Autograd: an op with a backward op `b` gets its gradients from b, by names: b's input `d<y>` is the
  gradient of output y, b's other tensors and parameters are the op's of the same names, b's output `d<x>`
  is the gradient of input x. An in-place tensor x is both: b's in-place `d<x>` comes in as the gradient of
  the updated x and leaves as that of the x given. An op without a backward is forward-only: inputs that
  require grad are detached with a warning.
- In-place ops: an op with in-place tensors also has torch.ops.cutile_cpp.<op>_functional, which updates
  copies of them (laid out alike) and returns the copies after the outputs. Autograd goes through it: an
  in-place op whose inputs require grad leaves them as they are and returns the updated copies.
"""

from __future__ import annotations

import keyword
import math
import numbers
import re
import warnings
from typing import NamedTuple

import torch

from . import _call

_LIBRARY = torch.library.Library("cutile_cpp", "FRAGMENT")
_I32_MAX = 2**31 - 1
_TORCH_DTYPES = _call.TORCH_DTYPES


class Op:
    """One op, ready to call."""

    def __init__(self, spec: dict, number: int, library: _call.Library):
        self.spec = spec
        self.name = spec["name"]
        self.number = number
        self.library = library
        tensors = spec["tensors"]
        self.names = tuple(t["name"] for t in tensors)
        self.roles = tuple(t["role"] for t in tensors)
        self.ranks = tuple(t["rank"] for t in tensors)
        self.views = tuple(t["view"] for t in tensors)
        self.optional = tuple(t["optional"] for t in tensors)
        self.lists = tuple(t["list"] for t in tensors)  # the length symbol of a list, "" for a tensor
        self.inputs = tuple(i for i, r in enumerate(self.roles) if r != "out")
        # Per list, an input list of its length (the description has one for every length).
        self.length_of = {i: next(j for j in self.inputs if self.lists[j] == length)
                          for i, length in enumerate(self.lists) if length}
        self.outputs = tuple(i for i, r in enumerate(self.roles) if r == "out")
        self.inouts = tuple(i for i, r in enumerate(self.roles) if r == "inout")
        self.produced = self.outputs + self.inouts  # what the functional form returns
        self.like = {i: self.names.index(t["like"]) for i, t in enumerate(tensors) if t["like"]}
        self.plans = allocation_plans(spec, self.like, self.inputs, self.outputs)
        # What each call reads per input and per output, looked up once (the call is on the hot path).
        self.input_facts = tuple(
            (i, self.names[i], self.views[i], self.ranks[i], self.optional[i], self.roles[i], i in self.length_of)
            for i in self.inputs
        )
        # Per output: the plan, the input it is shaped like when its plan reads that input alone, the input
        # whose layout it copies (`like`), and its rank.
        self.output_facts = tuple(
            (i, plan, plan.same_as if plan is not None and plan.sources == {plan.same_as} else None, self.like.get(i),
             self.ranks[i])
            for i, plan in zip(self.outputs, self.plans)
        )
        self.scalars = spec["scalars"]
        self.kinds = b"".join(b"r" if s["type"] == "real" else b"i" for s in self.scalars)
        self.backward: Op | None = None
        self.output_shapes_seen: dict = {}  # remembered_output_shapes' answers

    # ---- arguments

    def prepare(self, tensors: list) -> tuple:
        """Checks the input tensors and applies their views in place; returns (the first input, the leading
        shape to give viewed outputs, or None, whether an input requires grad). Viewed inputs must agree:
        every `rows` input has the first one's leading shape, every `flat` input its shape."""
        first, lead, viewed, grad = None, None, None, False
        for i, name, view, rank, optional, role, listed in self.input_facts:
            t = tensors[i]
            if t is None:
                if optional:
                    continue
                raise TypeError(f"cutile_cpp.{self.name}: {name} is required")
            if listed:
                tensors[i] = t = self.elements(t, name)
                if first is None:
                    first = t[0]
                grad = grad or any(e.requires_grad for e in t)
                continue
            self.check_tensor(t, name)
            if view == "exact":
                pass
            elif view == "leading_ones":
                if t.dim() < rank:
                    tensors[i] = t = t.view((1,) * (rank - t.dim()) + tuple(t.shape))
            else:
                dim = t.dim()
                if view == "rows" and dim == 0:
                    raise ValueError(f"cutile_cpp.{self.name}: {name} needs a last axis, got a 0-dim tensor")
                shape = t.shape[:-1] if view == "rows" else t.shape
                if viewed is None:
                    viewed = (name, shape)
                elif shape != viewed[1]:
                    raise ValueError(
                        f"cutile_cpp.{self.name}: {name} has shape {tuple(t.shape)}, which does not match "
                        f"{viewed[0]}'s {tuple(viewed[1])}" + (" in its leading dims" if view == "rows" else "")
                    )
                if dim != rank:
                    lead = shape
                    flat_shape = (-1, t.shape[-1]) if view == "rows" else (-1,)
                    if role != "inout":
                        t = t.reshape(flat_shape)
                    else:
                        try:
                            t = t.view(flat_shape)
                        except RuntimeError:
                            raise ValueError(
                                f"cutile_cpp.{self.name}: {name} (shape {tuple(t.shape)}, strides "
                                f"{t.stride()}) is updated in place, so it must have a {view} view"
                            ) from None
                    tensors[i] = t
            if first is None:
                first = t
            grad = grad or t.requires_grad
        return first, lead, grad

    def check_tensor(self, t, name: str) -> None:
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"cutile_cpp.{self.name}: {name} must be a torch.Tensor, got {type(t).__name__}")
        if t.dtype not in _TORCH_DTYPES:
            raise TypeError(f"cutile_cpp.{self.name}: {name} has dtype {t.dtype}, which no op takes")
        if not (t.is_cuda or t.is_cpu) and not torch.compiler.is_compiling():
            raise ValueError(f"cutile_cpp.{self.name}: {name} is on {t.device}; the ops take CUDA or CPU tensors")

    def elements(self, value, name: str) -> tuple:
        """A list argument's tensors, checked, as the tuple the library is called with. An empty list is
        refused here, as the library refuses it: the call needs a tensor to take its device from."""
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"cutile_cpp.{self.name}: {name} must be a list of torch.Tensors, got {type(value).__name__}")
        if not value:
            raise ValueError(f"cutile_cpp.{self.name}: {name} is an empty list: a list holds at least one tensor")
        for g, t in enumerate(value):
            self.check_tensor(t, f"{name}[{g}]")
        return tuple(value)

    def values(self, scalars: tuple) -> tuple:
        """The parameters as the library takes them: floats for reals, ints for the others."""
        out = []
        for s, v in zip(self.scalars, scalars):
            kind = s["type"]
            # The common cases first: a float for a real, an int or a bool for the others.
            if type(v) is float and kind == "real" or type(v) is int and kind != "real":
                out.append(v)
                continue
            if type(v) is bool and kind == "flag":
                out.append(int(v))
                continue
            if v is None and kind != "choice":
                if s["default"] is None:
                    raise TypeError(f"cutile_cpp.{self.name}: {s['name']} is required")
                v = s["default"]  # None means the default
            if kind == "real":
                if type(v) is not float:
                    if isinstance(v, bool) or not isinstance(v, numbers.Real):
                        raise TypeError(f"cutile_cpp.{self.name}: {s['name']} must be a real number, got {type(v).__name__}")
                    v = float(v)
            elif kind == "choice":
                if v is None:
                    v = int(s["default"])
                elif isinstance(v, str):
                    if v not in s["choices"]:
                        raise ValueError(
                            f"cutile_cpp.{self.name}: {s['name']} {v!r} is none of {', '.join(map(repr, s['choices']))}"
                        )
                    v = s["choices"].index(v)
                elif not (isinstance(v, int) and not isinstance(v, bool)):
                    raise TypeError(f"cutile_cpp.{self.name}: {s['name']} must be one of {s['choices']}, got {v!r}")
            elif kind == "flag":
                if not isinstance(v, (bool, int)):
                    raise TypeError(f"cutile_cpp.{self.name}: {s['name']} must be a bool, got {type(v).__name__}")
                v = int(v)
            elif type(v) is not int:
                if isinstance(v, bool) or not isinstance(v, numbers.Integral):
                    raise TypeError(f"cutile_cpp.{self.name}: {s['name']} must be an integer, got {type(v).__name__}")
                v = int(v)
            out.append(v)
        return tuple(out)

    # ---- the call

    def allocate(self, tensors: list, values: tuple, first: torch.Tensor, derived: bool = True) -> None:
        """Fills the missing outputs of `tensors` with new ones: of the shapes their plans derive from the
        inputs when `derived` (the call then checks everything), else of the shapes the library derives and
        checks first (for fake tensors, whose checks must come before any call)."""
        shapes = None
        for k, (i, plan, shaped_like, like, rank) in enumerate(self.output_facts):
            if tensors[i] is not None:
                continue
            if i in self.length_of:
                made = self.allocate_list(i, plan, tensors, first) if derived else None
                if made is None:
                    if shapes is None:
                        shapes = (self.remembered_output_shapes(tensors, values) if derived
                                  else self.library_output_shapes(tensors, values))
                    made = tuple(first.new_empty(shape, dtype=dtype) for dtype, shape in shapes[k])
                tensors[i] = made
                continue
            # An extent past the kernels' i32 indices is refused by the library, naming the input, before
            # anything is allocated (fake tensors have no memory to spare). Fewer elements than that bound
            # every extent, the one check on the common path.
            if like is not None:
                source = tensors[like]
                if not derived or source.numel() <= _I32_MAX or max(source.shape) <= _I32_MAX:
                    tensors[i] = torch.empty_like(source)
                    continue
            if derived and shaped_like is not None:
                source = tensors[shaped_like]
                if source is not None and source.dim() == rank and 0 < source.numel() <= _I32_MAX:
                    tensors[i] = (torch.empty_like(source) if source.is_contiguous()
                                  else torch.empty_like(source, memory_format=torch.contiguous_format))
                    continue
            if derived and plan is not None and all(tensors[s] is not None for s in plan.sources):
                try:
                    shape = [tensors[s].shape[d] * m for s, d, m in plan.dims]
                except IndexError:  # an input of too low a rank: the library says so
                    shape = None
                if shape is not None and (not shape or max(shape) <= _I32_MAX):
                    if plan.same_as is not None:
                        tensors[i] = torch.empty_like(tensors[plan.same_as], memory_format=torch.contiguous_format)
                    else:
                        dtype = plan.dtype if isinstance(plan.dtype, torch.dtype) else tensors[plan.dtype].dtype
                        tensors[i] = first.new_empty(shape, dtype=dtype)
                    continue
            if shapes is None:
                shapes = (self.remembered_output_shapes(tensors, values) if derived
                          else self.library_output_shapes(tensors, values))
            dtype, shape = shapes[k]
            tensors[i] = first.new_empty(shape, dtype=dtype)

    def allocate_list(self, i: int, plan, tensors: list, first: torch.Tensor):
        """The elements of list output i, of the shapes its plan derives from each element of the inputs, or
        None where it cannot (the library derives them then)."""
        if plan is None or any(tensors[s] is None for s in plan.sources):
            return None
        made = []
        for g in range(len(tensors[self.length_of[i]])):
            try:
                shape = [_element(tensors[s], g).shape[d] * m for s, d, m in plan.dims]
            except IndexError:  # an input of too low a rank: the library says so
                return None
            if shape and max(shape) > _I32_MAX:
                return None
            dtype = plan.dtype if isinstance(plan.dtype, torch.dtype) else _element(tensors[plan.dtype], 0).dtype
            made.append(first.new_empty(shape, dtype=dtype))
        return tuple(made)

    def library_output_shapes(self, tensors: list, values: tuple) -> list:
        """The outputs' (dtype, shape) as the library derives them from the inputs (no data read), which
        also checks them; a list output's as a list of them."""
        probe = tuple(None if r == "out" else t for r, t in zip(self.roles, tensors))
        lengths = [len(tensors[self.length_of[i]]) if i in self.length_of else None for i in self.outputs]
        status, coded = self.library.native.output_shapes(
            self.number, probe, self.names, values, self.kinds, sum(n or 1 for n in lengths), False
        )
        if status:
            _call.raise_for(status)
        shapes = [(self.library.dtype_of_code[code], shape) for code, shape in coded]
        if not self.length_of:
            return shapes
        grouped, at = [], 0
        for n in lengths:
            grouped.append(shapes[at] if n is None else shapes[at : at + n])
            at += n or 1
        return grouped

    def remembered_output_shapes(self, tensors: list, values: tuple) -> list:
        """library_output_shapes, asked once per key: the shapes depend on nothing but the inputs' shapes
        and dtypes and the parameters. For eager calls only: fake tensors' sizes may be symbolic."""
        key = (values, *(_shape_key(tensors[i]) for i in self.inputs))
        shapes = self.output_shapes_seen.get(key)
        if shapes is None:
            if len(self.output_shapes_seen) >= 256:  # a bound for a process that sees endless shapes
                self.output_shapes_seen.clear()
            shapes = self.output_shapes_seen[key] = self.library_output_shapes(tensors, values)
        return shapes

    def launch(self, tensors: list, values: tuple, first: torch.Tensor) -> None:
        if first.is_cuda:
            index = first.get_device()
            stream = torch._C._cuda_getCurrentRawStream(index) or None
        else:
            index, stream = 0, None
        status = self.library.native.call(self.number, tuple(tensors), self.names, values, self.kinds, index, stream)
        if status:
            _call.raise_for(status)

    def results(self, tensors: list, lead):
        """The outputs (else the in-place tensors), viewed outputs in the leading shape."""
        chosen = self.outputs or self.inouts
        if lead is None and len(chosen) == 1:
            t = tensors[chosen[0]]
            return list(t) if chosen[0] in self.length_of else t
        out = []
        for i in chosen:
            t = tensors[i]
            if i in self.length_of:
                t = list(t)
            elif lead is not None and self.views[i] == "rows":
                t = t.view(*lead, t.shape[-1])
            elif lead is not None and self.views[i] == "flat":
                t = t.view(lead)
            out.append(t)
        return out[0] if len(out) == 1 else tuple(out)

    def __call__(self, tensors: list, scalars: tuple):
        """The public function's body: tensors in the description's order (outputs None unless given)."""
        first, lead, grad = self.prepare(tensors)
        values = self.values(scalars) if scalars else ()
        for i in self.outputs:
            if tensors[i] is not None:
                tensors[i] = (self.elements(tensors[i], self.names[i]) if i in self.length_of
                              else self.output_view(tensors[i], lead, i))
        if grad and torch.is_grad_enabled():
            if self.backward is not None:
                return self.through_torch(tensors, values, lead, functional=bool(self.inouts))
            warnings.warn(
                f"cutile_cpp.{self.name} is forward-only: its inputs are detached and its result has no gradient",
                stacklevel=3,
            )
            for i in self.inputs:
                if tensors[i] is not None and self.roles[i] == "in":
                    t = tensors[i]
                    tensors[i] = tuple(e.detach() for e in t) if i in self.length_of else t.detach()
        if torch.compiler.is_compiling():
            return self.through_torch(tensors, values, lead)
        self.allocate(tensors, values, first)
        self.launch(tensors, values, first)
        return self.results(tensors, lead)

    def output_view(self, t, lead, i):
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"cutile_cpp.{self.name}: {self.names[i]} must be a torch.Tensor, got {type(t).__name__}")
        if lead is None or self.views[i] == "exact":
            return t
        return t.view(-1, t.shape[-1]) if self.views[i] == "rows" else t.view(-1)

    def through_torch(self, tensors: list, values: tuple, lead, functional: bool = False):
        """The call as torch.ops.cutile_cpp.<op> (or its functional form), for autograd and torch.compile;
        given outputs are copied into."""
        op = getattr(torch.ops.cutile_cpp, self.name + "_functional" if functional else self.name)
        result = op(*(tensors[i] for i in self.inputs), *values)
        if not self.outputs and not functional:
            return self.results(tensors, lead)
        chosen = self.produced if functional else self.outputs
        produced = [result] if len(chosen) == 1 else list(result)
        for k, i in enumerate(chosen):
            if k < len(self.outputs) and tensors[i] is not None:  # an output given
                if i in self.length_of:
                    for given, made in zip(tensors[i], produced[k]):
                        given.copy_(made)
                else:
                    tensors[i].copy_(produced[k])
            else:
                tensors[i] = produced[k]
        return self.results(tensors, lead)

    # ---- torch.library

    def schema(self, functional: bool = False) -> str:
        """The torch.library schema; the functional form's mutates nothing and returns the in-place tensors'
        copies after the outputs."""
        types = {"real": "float", "integer": "int", "flag": "int", "choice": "int"}
        params = []
        for alias, i in enumerate(self.inputs):
            mutable = f"({chr(ord('a') + alias)}!)" if self.roles[i] == "inout" and not functional else ""
            kind = "Tensor[]" if self.lists[i] else "Tensor"
            params.append(f"{kind}{mutable}{'?' if self.optional[i] else ''} {self.names[i]}")
        for s in self.scalars:
            kind, default = types[s["type"]], ""
            if s["default"] is not None and s["type"] == "real" and math.isnan(s["default"]):
                kind, default = "float?", "=None"  # a schema has no NaN; None stands for it
            elif s["default"] is not None:
                default = f"={float(s['default'])!r}" if s["type"] == "real" else f"={int(s['default'])}"
            params.append(f"{kind} {s['name']}{default}")
        results = self.produced if functional else self.outputs
        returns = ", ".join("Tensor[]" if self.lists[i] else "Tensor" for i in results)
        returns = f"({returns})" if len(results) != 1 else returns
        return f"({', '.join(params)}) -> {returns}"

    def from_op_arguments(self, args: tuple, kwargs: dict) -> tuple[list, tuple]:
        """The torch.library op's arguments, in the description's order. The dispatcher may leave out
        trailing parameters at their defaults, or pass parameters by name."""
        tensors = [None] * len(self.names)
        for k, i in enumerate(self.inputs):
            tensors[i] = args[k] if k < len(args) else kwargs[self.names[i]]
            if i in self.length_of:
                tensors[i] = tuple(tensors[i])
        given = args[len(self.inputs) :]
        values = []
        for k, s in enumerate(self.scalars):
            value = given[k] if k < len(given) else kwargs.get(s["name"])
            if value is None:  # left out, or None for a NaN default
                value = float(s["default"]) if s["type"] == "real" else int(s["default"])
            values.append(value)
        return tensors, tuple(values)

    def register(self) -> None:
        self.define(self.name, functional=False)
        if self.inouts:
            self.define(self.name + "_functional", functional=True)

    def define(self, name: str, functional: bool) -> None:
        """Defines torch.ops.cutile_cpp.<name>, the op or its functional form, with its fake implementation."""
        _LIBRARY.define(name + self.schema(functional))

        def body(launch: bool):
            def run(*args, **kwargs):
                tensors, values = self.from_op_arguments(args, kwargs)
                if functional:
                    for i in self.inouts:
                        tensors[i] = tensors[i].clone()
                first = next(_element(tensors[i], 0) for i in self.inputs if tensors[i] is not None)
                self.allocate(tensors, values, first, derived=launch)
                if launch:
                    self.launch(tensors, values, first)
                produced = tuple(list(tensors[i]) if i in self.length_of else tensors[i]
                                 for i in (self.produced if functional else self.outputs))
                return produced[0] if len(produced) == 1 else (produced if produced else None)

            return run

        _LIBRARY.impl(name, body(True), "CompositeExplicitAutograd")
        torch.library.register_fake(f"cutile_cpp::{name}", body(False), lib=_LIBRARY)

    def register_autograd(self, backward: "Op") -> None:
        """Wires `backward`, by the naming convention above, onto the op (its functional form when it has
        in-place tensors; the backward's too)."""
        self.backward = backward
        forward_tensors = {name: i for i, name in enumerate(self.names)}
        forward_scalars = {s["name"]: k for k, s in enumerate(self.scalars)}
        forward_results = self.produced if self.inouts else self.outputs
        backward_results = backward.produced if backward.inouts else backward.outputs
        plan = []  # per backward input: ("grad", result k) | ("saved", saved index); then scalars
        saved = []  # forward tensor indices to save
        for i in backward.inputs:
            name = backward.names[i]
            if name.startswith("d") and forward_tensors.get(name[1:]) in forward_results:
                plan.append(("grad", forward_results.index(forward_tensors[name[1:]])))
            elif name in forward_tensors:
                plan.append(("saved", len(saved)))
                saved.append(forward_tensors[name])
            else:
                raise RuntimeError(f"{backward.name}: input {name} is neither d<output> nor a tensor of {self.name}")
        scalar_sources = []
        for s in backward.scalars:
            if s["name"] not in forward_scalars:
                raise RuntimeError(f"{backward.name}: parameter {s['name']} is not a parameter of {self.name}")
            scalar_sources.append(forward_scalars[s["name"]])
        gradient_of = []  # per forward input: the index of its gradient among the backward's results, or None
        for i in self.inputs:
            name = "d" + self.names[i]
            index = backward.names.index(name) if name in backward.names else None
            gradient_of.append(backward_results.index(index) if index in backward_results else None)

        def setup_context(ctx, inputs, output):
            produced = output if isinstance(output, (tuple, list)) else (output,)
            everything, values = self.from_op_arguments(tuple(inputs), {})
            for k, i in enumerate(self.outputs):
                everything[i] = produced[k]
            ctx.save_for_backward(*(everything[i] for i in saved))
            ctx.scalars = tuple(values[k] for k in scalar_sources)

        backward_op = backward.name + "_functional" if backward.inouts else backward.name

        def backward_formula(ctx, *grads):
            tensors = ctx.saved_tensors
            args = [grads[where] if kind == "grad" else tensors[where] for kind, where in plan]
            result = getattr(torch.ops.cutile_cpp, backward_op)(*args, *ctx.scalars)
            result = result if isinstance(result, (tuple, list)) else (result,)
            return (*(None if g is None else result[g] for g in gradient_of), *(None for _ in self.scalars))

        forward_op = self.name + "_functional" if self.inouts else self.name
        torch.library.register_autograd(
            f"cutile_cpp::{forward_op}", backward_formula, setup_context=setup_context, lib=_LIBRARY
        )

    # ---- the public function

    def python_default(self, s: dict) -> str:
        if s["default"] is None:
            return ""
        if s["type"] == "real":
            return "None" if math.isnan(s["default"]) else repr(float(s["default"]))
        if s["type"] == "flag":
            return repr(bool(s["default"]))
        if s["type"] == "choice":
            return repr(s["choices"][int(s["default"])])
        return repr(int(s["default"]))

    def function(self):
        """The public function, with a real signature (exec of its def line) and the description's doc."""
        params, seen_default, keyword_only = [], False, False
        entries = [(self.names[i], "None" if self.optional[i] else "") for i in self.inputs]
        entries += [(s["name"], self.python_default(s)) for s in self.scalars]
        for name, default in entries:
            if keyword.iskeyword(name):
                raise RuntimeError(f"{self.name}: the parameter name {name} is a Python keyword")
            if default:
                seen_default = True
            elif seen_default and not keyword_only:
                params.append("*")
                keyword_only = True
            params.append(f"{name}={default}" if default else name)
        outputs = [self.names[i] for i in self.outputs]
        if outputs:
            if not keyword_only:
                params.append("*")
            params += [f"{name}=None" for name in outputs]
        tensor_list = ", ".join(self.names) + ("," if len(self.names) == 1 else "")
        scalar_list = ", ".join(s["name"] for s in self.scalars) + ("," if len(self.scalars) == 1 else "")
        source = (
            f"def {self.name}({', '.join(params)}):\n"
            f"    return _call([{tensor_list}], ({scalar_list}))\n"
        )
        namespace = {"_op": self, "_call": self.__call__}  # the bound method: one lookup less per call
        exec(source, namespace)  # noqa: S102 (the source is made from the library's own descriptions)
        fn = namespace[self.name]
        fn.__doc__ = self.docstring()
        fn.__module__ = "cutile_cpp.ops"
        fn.__qualname__ = self.name
        return fn

    def docstring(self) -> str:
        lines = [self.spec["doc"], ""]
        for t in self.spec["tensors"]:
            view = {
                "rows": " (any rank >= 1, as rows)",
                "flat": " (any shape, as its elements)",
                "leading_ones": " (lower ranks with leading dims of 1)",
            }.get(t["view"], "")
            lines.append(f"    {t['role']:<5} {t['name']}: {t['type']}{view}{' (optional)' if t['optional'] else ''}"
                         + (f" (a list of {t['list']})" if t["list"] else "") + (f" - {t['doc']}" if t["doc"] else ""))
        for var, dtypes in self.spec["dtypes"].items():
            lines.append(f"    {var}: {', '.join(dtypes)}")
        for s in self.scalars:
            choices = f" one of {s['choices']}" if s["choices"] else ""
            lines.append(f"    {s['name']}: {s['type']}{choices}" + (f", valid when {s['valid']}" if s["valid"] else "")
                         + (f" - {s['doc']}" if s["doc"] else ""))
        for r in self.spec["rules"]:
            lines.append(f"    requires {r['condition']}: {r['why']}")
        lines.append("    Differentiable through " + self.spec["backward"] + "." if self.spec["backward"] else "    Forward-only.")
        if self.spec["provenance"]:
            lines.append(f"    Ports {self.spec['provenance']}.")
        return "\n".join(lines)


def _element(t, g: int):
    """Element g of a list argument (a tuple); a tensor is every element's."""
    return t[g] if isinstance(t, tuple) else t


def _shape_key(t):
    """What the output shapes depend on of an input: its shape and dtype, a list's per element."""
    if t is None:
        return None
    if isinstance(t, tuple):
        return tuple((e.shape, e.dtype) for e in t)
    return t.shape, t.dtype


class AllocationPlan(NamedTuple):
    """How an output's shape and dtype follow from the inputs: its dtype (fixed, or the index of the input
    whose dtype it shares) and per dim (input index, input dim, multiplier); `sources` are the inputs read;
    `same_as` an input whose shape and dtype it has (allocated like it, the fastest way), or None."""

    dtype: object  # torch.dtype | int
    dims: tuple
    sources: frozenset
    same_as: int | None


_DTYPE_OF_NAME = {name: dtype for dtype, name in _call.TORCH_DTYPES.items()}
_TYPE = re.compile(r"^(\w+)\[(.*)\]$")
_DIM = re.compile(r"^(?:(\d+)\s*\*\s*)?([A-Za-z_]\w*)$")


def parse_type(text: str) -> tuple[str, list[str]] | None:
    """'E[M, 2*N]' -> ('E', ['M', '2*N'])."""
    match = _TYPE.match(text.strip())
    if not match:
        return None
    inner = match.group(2).strip()
    return match.group(1), [d.strip() for d in inner.split(",")] if inner else []


def allocation_plans(spec: dict, like: dict, inputs: tuple, outputs: tuple) -> list:
    """Per output, the plan that derives its shape and dtype from the inputs as the library's checks bind
    them (inputs first, then in-place tensors, each symbol by the first dim that is that symbol alone), or
    None where a dim is another expression or a symbol's first binder is no lone dim or is a dim of a tensor
    that a flag may transpose: those ask the library."""
    tensors = spec["tensors"]
    order = [i for i in inputs if tensors[i]["role"] == "in"] + [i for i in inputs if tensors[i]["role"] == "inout"]
    symbol_of, dtype_of = {}, {}
    for i in order:
        parsed = parse_type(tensors[i]["type"])
        if parsed is None:
            continue
        dtype, dims = parsed
        dtype_of.setdefault(dtype, i)
        if tensors[i]["transposed_by"]:  # which dim binds a symbol depends on a flag: the library knows
            dims = ["?"] * len(dims)
        for d, dim in enumerate(dims):
            match = _DIM.match(dim)
            if match and match.group(2) not in symbol_of:
                symbol_of[match.group(2)] = (i, d) if match.group(1) is None else None
    plans = []
    for i in outputs:
        parsed = parse_type(tensors[i]["type"])
        plan = None
        if parsed is not None and i not in like:
            dtype_name, dims = parsed
            dtype = _DTYPE_OF_NAME.get(dtype_name) if dtype_name not in spec["dtypes"] else dtype_of.get(dtype_name)
            plan_dims = []
            for dim in dims:
                match = _DIM.match(dim)
                source = symbol_of.get(match.group(2)) if match else None
                if source is None:
                    break
                plan_dims.append((*source, int(match.group(1) or 1)))
            if dtype is not None and len(plan_dims) == len(dims):
                sources = {s for s, _, _ in plan_dims} | ({dtype} if isinstance(dtype, int) else set())
                same_as = plan_dims[0][0] if plan_dims else None
                if not (isinstance(dtype, int) and same_as is not None and tensors[same_as]["rank"] == len(dims)
                        and plan_dims == [(same_as, d, 1) for d in range(len(dims))]):
                    same_as = None
                plan = AllocationPlan(dtype, tuple(plan_dims), frozenset(sources), same_as)
                # An element of a list is shaped by elements of lists of its length, a tensor by no list.
                if any(tensors[s]["list"] and tensors[s]["list"] != tensors[i]["list"] for s in sources):
                    plan = None
        plans.append(plan)
    return plans


def build() -> dict:
    """Every op's public function, by name, with its torch.library op registered."""
    library = _call.library()
    ops = {spec["name"]: Op(spec, number, library) for number, spec in enumerate(library.specs)}
    for op in ops.values():
        op.register()
    for op in ops.values():
        if op.spec["backward"]:
            op.register_autograd(ops[op.spec["backward"]])
    return {name: op.function() for name, op in ops.items()}
