"""The relu recipe."""

from __future__ import annotations

from signatures import Array, dtype
from recipes import Launch, Recipe


# relu: activation/relu.py; test_relu's largest configuration, (256, 32768) f16, flattened.
def build(c):
    n, e = c["M"] * c["N"], dtype(c["dtype"])
    return [Launch("forward", "_relu_fwd_kernel", (Array(e, (n,)), Array(e, (n,)), n, 1024), {},
                   "the only kernel: gather/scatter of BLOCK_SIZE 1024 flattened elements")]


RECIPE = Recipe("activation.relu", {"M": 256, "N": 32768, "dtype": "f16"}, build, "ReLU, flattened: forward")
