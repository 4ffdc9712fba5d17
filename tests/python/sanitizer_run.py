"""Runs pytest under compute-sanitizer over a few GPU cases of each test file: the first
CUTILE_SANITIZE_CASES (default 4) selected cases of every module, so that each op is reached within
the tool's time. PyTorch's attention runs its math kernels: under the sanitizer on the H200 its cuDNN
attention (cudnnCreate's module load) and its flash attention (cudaFuncSetAttribute) failed with
CUDA_ERROR_INVALID_PC, which left the context unusable for every later case.
    compute-sanitizer --tool memcheck python3 tests/python/sanitizer_run.py [pytest arguments]
"""

import os
import sys

import pytest
import torch


class FirstCasesOfEachFile:
    def __init__(self, count: int):
        self.count = count

    @pytest.hookimpl(trylast=True)  # after -k has chosen the GPU cases
    def pytest_collection_modifyitems(self, config, items):
        kept, seen = [], {}
        for item in items:
            module = item.nodeid.split("::")[0]
            seen[module] = seen.get(module, 0) + 1
            if seen[module] <= self.count:
                kept.append(item)
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept


if __name__ == "__main__":
    torch.backends.cuda.enable_cudnn_sdp(False)
    torch.backends.cuda.enable_flash_sdp(False)
    torch.backends.cuda.enable_mem_efficient_sdp(False)
    sys.exit(pytest.main(sys.argv[1:], plugins=[FirstCasesOfEachFile(int(os.environ.get("CUTILE_SANITIZE_CASES", "4")))]))
