"""Ordinary arguments get an answer, not a raw Python exception (issue 24): a return code
with an explanation where ACL has one, a clear TypeError/ValueError from the kit's own
helpers."""
from __future__ import annotations

import numpy as np
import pytest

from acl_lab import constants as C


def _short(v) -> str:
    return f"2**{v.bit_length() - 1}" if isinstance(v, int) and v > 1 << 64 else repr(v)


@pytest.mark.parametrize("value, dtype", [
    (1000, C.ACL_INT8), (-129, C.ACL_INT8), (256, C.ACL_UINT8), (-1, C.ACL_UINT8),
    (float("nan"), C.ACL_INT32), (float("inf"), C.ACL_INT64), (10**30, C.ACL_INT64),
    (10**400, C.ACL_FLOAT), (10**5000, C.ACL_INT32)], ids=_short)
def test_a_scalar_its_type_cannot_hold_is_refused(acl, value, dtype):
    assert acl.nn.create_scalar(value, dtype) == 0
    assert "does not fit" in acl.get_recent_err_msg()


@pytest.mark.parametrize("value, dtype, kept", [
    (127, C.ACL_INT8, 127), (-2.7, C.ACL_INT32, -2), (1e300, C.ACL_FLOAT, float("inf")),
    (True, C.ACL_INT32, 1), (2**63 - 1, C.ACL_INT64, 2**63 - 1)])
def test_a_scalar_its_type_holds_is_made(acl, value, dtype, kept):
    from acl_lab.session import SESSION
    h = acl.nn.create_scalar(value, dtype)
    assert h != 0
    assert SESSION.simulator.rt.aclnn.scalars[h][0] == kept


@pytest.mark.parametrize("dims", [9, 33, 70])
def test_an_operator_on_a_tensor_of_many_dimensions_is_refused(acl, dims):
    d, _ = acl.rt.malloc(1024, 0)
    t = acl.nn.create_tensor([1] * dims, C.ACL_FLOAT, [1] * dims, 0, C.ACL_FORMAT_ND,
                             [1] * dims, d)
    alpha = acl.nn.create_scalar(1.0, C.ACL_FLOAT)
    assert acl.nn.add_get_workspace_size(t, t, alpha, t)[2] == C.ACLNN_ERR_PARAM_INVALID
    assert acl.nn.inplace_copy_get_workspace_size(t, t)[2] == C.ACLNN_ERR_PARAM_INVALID
    assert "at most 8" in acl.get_recent_err_msg()


def test_float_to_float16_of_a_huge_int_is_infinity(acl):
    assert acl.float_to_float16(10**400) == 0x7C00
    assert acl.float_to_float16(-10**400) == 0xFC00
    assert acl.float_to_float16(1.0) == 0x3C00


def test_data_type_size_of_a_value_beyond_64_bits_is_0(acl):
    assert acl.data_type_size(2**70) == 0
    assert "64 bits" in acl.get_recent_err_msg()
    assert acl.data_type_size(C.ACL_FLOAT) == 4


def test_deeply_nested_json_config_is_a_parse_error(bare_acl, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert bare_acl.init(str(path)) == C.ACL_ERROR_PARSE_FILE
    assert bare_acl.init() == 0
    assert bare_acl.mdl.init_dump() == 0
    assert bare_acl.mdl.set_dump(str(path)) == C.ACL_ERROR_PARSE_FILE


def test_synchronizing_the_end_of_a_long_event_chain(acl):
    """2,000 streams, each waiting on an event recorded on the one before: no RecursionError."""
    d, _ = acl.rt.malloc(1024, 0)
    streams = [acl.rt.create_stream()[0] for _ in range(2000)]
    events = [acl.rt.create_event()[0] for _ in range(2000)]
    for i, s in enumerate(streams):
        assert acl.rt.memset_async(d, 1024, i % 256, 64, s) == 0
        assert acl.rt.record_event(events[i], s) == 0
        if i + 1 < len(streams):
            assert acl.rt.stream_wait_event(streams[i + 1], events[i]) == 0
    assert acl.rt.synchronize_stream(streams[-1]) == 0
    h, _ = acl.rt.malloc_host(64)
    assert acl.rt.memcpy(h, 64, d, 64, C.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert acl.util.ptr_to_bytes(h, 1) == bytes([1999 % 256])


def test_views_refuse_arguments_they_cannot_show():
    from acl_lab.widgets import AlignmentExplorer, PoolView
    with pytest.raises(TypeError, match="MemoryPool"):
        PoolView(None)
    for length, k in ((-5, 0), (0, 32), (100, 48), (2000, 64), (1.5, 32)):
        with pytest.raises(ValueError, match="AlignmentExplorer"):
            AlignmentExplorer(length, k)
    AlignmentExplorer(100, 64)
