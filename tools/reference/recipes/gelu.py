"""The gelu recipe."""

from __future__ import annotations

from signatures import Array, dtype
from recipes import Launch, Recipe

_GELU_MODES = {"none": 0, "tanh": 1}  # GELU_EXACT, GELU_TANH of activation/gelu.py


# gelu: activation/gelu.py; test_gelu's configuration (256, 2048), flattened.
def build(c):
    n, e, mode = c["M"] * c["N"], dtype(c["dtype"]), _GELU_MODES[c["approximate"]]
    block = 4096 if n >= 1 << 24 else 1024
    return [
        Launch("forward", "_gelu_kernel", (Array(e, (n,)), Array(e, (n,)), n, block, mode), {},
               f"forward: gather/scatter of BLOCK_SIZE {block} (4096 from 2^24 elements)"),
        Launch("backward", "_gelu_kernel_backward", (Array(e, (n,)), Array(e, (n,)), Array(e, (n,)), n, 1024, mode),
               {}, "backward: gather/scatter of BLOCK_SIZE 1024, computed in f32"),
    ]


RECIPE = Recipe("activation.gelu", {"M": 256, "N": 2048, "dtype": "f16", "approximate": "tanh"}, build,
                "GELU, flattened: forward, backward")
