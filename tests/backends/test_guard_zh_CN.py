"""The real-hardware guard speaks the learner's language too (a recording stand-in for
pyACL): its refusals and reports read in Chinese under zh_CN, with the same codes, the call
still stopped before the device, and no English sentence left in them."""
import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from ascendhelpers import StandIn, acl, real  # noqa: F401 (fixtures)
from langhelpers import CJK, english_words

U8 = np.dtype(np.uint8).num


class WithModels(StandIn):
    def __init__(self):
        super().__init__()
        self.mdl = self._namespace("mdl", ["load_from_file_with_mem", "unload"])

    def _load_from_file_with_mem(self, path, work, work_size, weight, weight_size):
        return (8, 0)


@pytest.fixture
def stand_in():
    return WithModels


@pytest.fixture
def chinese():
    acl_lab.set_language("zh_CN")
    yield
    acl_lab.set_language("en")


def chinese_refusal(acl, ret, code) -> str:
    assert ret == code
    message = acl.get_recent_err_msg()
    assert CJK.search(message), message
    assert not english_words(message), (english_words(message), message)
    return message


def overlapping_copy(acl):
    dev, _ = acl.rt.malloc(256, 0)
    return acl.rt.memcpy(dev + 64, 128, dev, 128, C.ACL_MEMCPY_DEVICE_TO_DEVICE), \
        C.ACL_ERROR_RT_PARAM_INVALID


def unaligned_async_copy(acl):
    dev, _ = acl.rt.malloc(256, 0)
    host, _ = acl.rt.malloc_host(256)
    return acl.rt.memcpy_async(dev + 32, 64, host, 64, C.ACL_MEMCPY_HOST_TO_DEVICE, 0), \
        C.ACL_ERROR_RT_ADDR_UNALIGNED


def memset_beyond_max(acl):
    dev, _ = acl.rt.malloc(64, 0)
    return acl.rt.memset(dev, 64, 0, 65), C.ACL_ERROR_RT_PARAM_INVALID


def double_free(acl):
    dev, _ = acl.rt.malloc(64, 0)
    acl.rt.free(dev)
    return acl.rt.free(dev), C.ACL_ERROR_RT_PARAM_INVALID


def negative_size(acl):
    return acl.rt.malloc(-1, 0)[-1], C.ACL_ERROR_INVALID_PARAM


def free_of_model_memory(acl):
    work, _ = acl.rt.malloc(4096, 0)
    weight, _ = acl.rt.malloc(1024, 0)
    assert acl.mdl.load_from_file_with_mem("m.om", work, 4096, weight, 1024) == (8, 0)
    return acl.rt.free(work), C.ACL_ERROR_RT_PARAM_INVALID


@pytest.mark.parametrize("provoke", [overlapping_copy, unaligned_async_copy, memset_beyond_max,
                                     double_free, negative_size, free_of_model_memory])
def test_a_guard_refusal_reads_in_chinese_and_keeps_its_code(real, acl, chinese, provoke):
    ret, code = provoke(acl)
    assert "防护层" in chinese_refusal(acl, ret, code)   # "the guard stopped this call"


def test_a_guard_refusal_reads_as_before_in_english(real, acl):
    ret, code = overlapping_copy(acl)
    assert ret == code
    assert acl.get_recent_err_msg().endswith(
        "overlap by 64 B. Copy through a separate buffer. (acl_lab's guard stopped this call "
        "before it reached the device.)")


def test_guard_reports_read_in_chinese(real, acl, chinese, capsys):
    host, _ = acl.rt.malloc_host(64)
    view = acl.util.ptr_to_numpy(host, (64,), U8)
    acl.rt.malloc(64, 0)                     # never freed: reset_device reports it
    assert acl.rt.free_host(host) == 0       # an array still views it: a use-after-free
    assert acl.rt.reset_device(0) == 0
    reports = [line for line in capsys.readouterr().err.splitlines() if line]
    assert len(reports) == 2
    for line in reports:
        assert CJK.search(line) and not english_words(line.removeprefix("[acl_lab] ")), line
    del view


def test_reading_device_memory_from_the_host_is_refused_in_chinese(real, acl, chinese):
    real.run_mode = C.ACL_HOST
    dev, _ = acl.rt.malloc(64, 0)
    with pytest.raises(acl_lab.AclLabError) as e:
        acl.util.ptr_to_numpy(dev, (64,), U8)
    assert e.value.code == C.ACL_ERROR_INVALID_PARAM
    assert CJK.search(e.value.message) and not english_words(e.value.message)
    with pytest.raises(ValueError, match="负数"):
        acl.util.ptr_to_bytes(dev, -1)
