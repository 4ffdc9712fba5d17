"""cutile_cpp.tuning: an op's tuning space from its description, and cutile_cpp_tune's refusals on a
machine without a GPU (the tuning itself is timed on the GPU machine; tests/null_driver runs it end to end
on the null driver)."""

import pytest

import cutile_cpp.tuning as tuning
from cutile_cpp import CutileCppError, CutileCppValueError


def test_the_space_is_the_descriptions():
    assert tuning.space("softmax") == {"occupancy": [2, 4, 6, 8]}
    assert tuning.space("rms_norm") == {}
    with pytest.raises(ValueError, match="no op is named 'nope'"):
        tuning.space("nope")


def test_an_unknown_op_is_refused_by_name(tmp_path):
    with pytest.raises(CutileCppValueError, match="cutile_cpp_tune: no op is named 'nope'"):
        tuning.tune("nope", "N=8", tmp_path / "r.jsonl")
    assert not (tmp_path / "r.jsonl").exists()


def test_without_a_gpu_the_device_is_unavailable_and_nothing_is_written(tmp_path):
    import torch

    if torch.cuda.is_available():
        pytest.skip("skipped: a GPU is present; this checks the refusal where there is none")
    with pytest.raises(CutileCppError) as raised:
        tuning.tune("softmax", "M=64 N=2048 E=bf16 use_tma=1", tmp_path / "r.jsonl")
    assert raised.value.status_name == "CUTILE_CPP_ERROR_DEVICE_UNAVAILABLE"
    assert "cuda:0 is unavailable" in str(raised.value)
    assert not (tmp_path / "r.jsonl").exists()
