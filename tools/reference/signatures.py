"""The kernel-signature facts cuTile Python's JIT would infer from TileGym's launch arguments.

ct.launch() specialises each compilation on facts about its arguments (cuTile Python's
cext/tile_kernel.cpp, compute_array_specialization_bits and parse_array_constraint). With no GPU
there are no arrays to infer them from, so `array()` recomputes them from a shape for the tensors
TileGym's launchers pass: contiguous (they call .contiguous()), row-major, from PyTorch's caching
allocator, so the base address is 16-byte aligned. Per array, for ndim <= 5:

- stride_constant[i] = 1 where stride[i] == 1 (the innermost axis of a contiguous tensor);
- stride_divisible_by[i] = 16 bytes / element size where stride[i] * element size % 16 == 0;
- shape_divisible_by[i] = 16 where shape[i] % 16 == 0, else 1;
- shape_constant[i] = 1 where shape[i] == 1 (this needs calling convention v2, which the JIT then picks);
- base_addr_divisible_by = 16; may_alias_internally = False (a contiguous tensor's elements are
  disjoint); alias_groups = () (the JIT assumes arguments never alias); stride_lower_bound_incl = 0;
- index_dtype int32 (the JIT's default; it refuses strides past INT32_MAX, and so does this).

Scalars follow the Python type the launcher passes: int -> int32, float -> float32, bool -> bool.
ct.Constant parameters are passed as plain Python values, whose type matters (1, 1.0 and True
are three different specialisations), so recipes pass exactly the Python type TileGym passes.
"""
from dataclasses import dataclass

import cuda.tile as ct
from cuda.tile.compilation import ArrayConstraint, CallingConvention, ListConstraint, ScalarConstraint

_INT32_MAX = 2**31 - 1
_MAX_SPECIALISED_NDIM = 5  # cuTile's TMA_MAX_NDIM: no per-axis facts above it

DTYPES = {
    "f32": ct.float32, "float32": ct.float32,
    "f16": ct.float16, "float16": ct.float16,
    "bf16": ct.bfloat16, "bfloat16": ct.bfloat16,
    "f8e4m3": ct.float8_e4m3fn, "float8_e4m3fn": ct.float8_e4m3fn,
    "f8e5m2": ct.float8_e5m2, "float8_e5m2": ct.float8_e5m2,
}


def dtype(name):
    try:
        return DTYPES[name]
    except KeyError:
        raise ValueError(f"unknown dtype '{name}'; expected one of {', '.join(sorted(DTYPES))}") from None


def contiguous_strides(shape):
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    return strides


@dataclass(frozen=True)
class Array:
    """A contiguous tensor argument as TileGym's launcher passes it."""
    dtype: object
    shape: tuple

    def constraint(self):
        shape = tuple(self.shape)
        strides = contiguous_strides(shape)
        if any(s > _INT32_MAX for s in strides) or any(d > _INT32_MAX for d in shape):
            raise ValueError(f"array of shape {shape} has a stride or extent past INT32_MAX; cuTile's JIT "
                             "refuses it with int32 indices, and so does the exporter")
        nbytes = self.dtype.bitwidth // 8 if self.dtype.bitwidth >= 8 else 0
        specialised = len(shape) <= _MAX_SPECIALISED_NDIM
        stride_divisor = 128 // self.dtype.bitwidth if 128 % self.dtype.bitwidth == 0 else 1
        stride_constant, stride_div, shape_div, shape_constant = [], [], [], []
        for extent, stride in zip(shape, strides):
            stride_constant.append(1 if specialised and stride == 1 else None)
            stride_div.append(stride_divisor if specialised and nbytes and (stride * nbytes) % 16 == 0 else 1)
            shape_div.append(16 if specialised and extent % 16 == 0 else 1)
            shape_constant.append(1 if specialised and extent == 1 else None)
        return ArrayConstraint(
            self.dtype, len(shape), index_dtype=ct.int32, stride_lower_bound_incl=0, alias_groups=(),
            may_alias_internally=False, stride_constant=stride_constant,
            shape_constant=shape_constant if any(c is not None for c in shape_constant) else None,
            stride_divisible_by=stride_div, shape_divisible_by=shape_div, base_addr_divisible_by=16)


@dataclass(frozen=True)
class Scalar:
    """A runtime scalar argument: the Python value's type decides the element type."""
    value: object

    def constraint(self):
        if isinstance(self.value, bool):
            return ScalarConstraint(ct.bool_)
        if isinstance(self.value, int):
            return ScalarConstraint(ct.int32)
        if isinstance(self.value, float):
            return ScalarConstraint(ct.float32)
        raise TypeError(f"no scalar constraint for {self.value!r}")


@dataclass(frozen=True)
class ArrayList:
    """A Python list of contiguous tensors of one dtype and rank (group GEMM's As, Bs, Cs). The JIT
    states no per-element fact the elements do not all share, so the exporter states those all share."""
    arrays: tuple

    def constraint(self):
        per_array = [a.constraint() for a in self.arrays]
        first = per_array[0]

        def common(values):
            return values[0] if all(v == values[0] for v in values) else None

        def common_div(values):
            return values[0] if all(v == values[0] for v in values) else 1

        rank = first.ndim
        element = ArrayConstraint(
            first.dtype, rank, index_dtype=ct.int32, stride_lower_bound_incl=0, alias_groups=(),
            may_alias_internally=False,
            stride_constant=[common([c.stride_constant[d] for c in per_array]) for d in range(rank)],
            stride_divisible_by=[common_div([c.stride_divisible_by[d] for c in per_array]) for d in range(rank)],
            shape_divisible_by=[common_div([c.shape_divisible_by[d] for c in per_array]) for d in range(rank)],
            base_addr_divisible_by=16)
        return ListConstraint(element, alias_groups=(), elements_may_alias=False)


def constraints(args):
    """Constraints for a launcher's argument tuple: Array, ArrayList and Scalar describe runtime
    arguments, anything else is a ct.Constant value passed through unchanged."""
    return [a.constraint() if isinstance(a, (Array, ArrayList, Scalar)) else a for a in args]


def calling_convention(params):
    needs_v2 = any(isinstance(p, ArrayConstraint) and any(c is not None for c in p.shape_constant)
                   for p in params)
    return CallingConvention.cutile_python_v2() if needs_v2 else CallingConvention.cutile_python_v1()
