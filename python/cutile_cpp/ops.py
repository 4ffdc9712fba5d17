"""The kernel library's ops on torch.Tensors.

Each op checks its arguments in Python (TypeError/ValueError naming the argument), allocates its output
on the input's device, and runs the kernel through the C ABI: for CUDA tensors on that device's current
stream, without a copy or a synchronisation; for CPU tensors on the CPU interpreter, before it returns.
A failure of the library raises CutileCppError with its status. Each op is
also a torch.library custom op, `torch.ops.cutile_cpp.<op>`, with a fake implementation, so torch.compile
traces through it without a graph break (eager calls go to the library directly).

Ops without a backward kernel are forward-only: inputs that require grad are detached (with a warning)
and results carry no gradient. Ops with one register it with torch.library.register_autograd.

One module per op, cutile_cpp/_ops/<op>.py; each defines the public function, its torch.library custom op(s) and fake
implementation(s).
"""

from __future__ import annotations

from ._ops.dropout import dropout
from ._ops.geglu import geglu
from ._ops.gelu import gelu
from ._ops.layer_norm_legacy import layer_norm_legacy
from ._ops.persistent_layer_norm import persistent_layer_norm
from ._ops.relu import relu
from ._ops.rms_norm import rms_norm, rms_norm_backward
from ._ops.rope import rope
from ._ops.silu_and_mul import silu_and_mul
from ._ops.softmax import softmax
from ._ops.swiglu import swiglu
from ._ops.vector_add import vector_add

__all__ = [
    "dropout",
    "geglu",
    "gelu",
    "layer_norm_legacy",
    "persistent_layer_norm",
    "relu",
    "rms_norm",
    "rms_norm_backward",
    "rope",
    "silu_and_mul",
    "softmax",
    "swiglu",
    "vector_add",
]
