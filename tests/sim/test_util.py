"""acl.util (numpy / bytes <-> pointers), argument checking at the Python boundary, and
acl_lab.check / acl_lab.explain."""
from __future__ import annotations

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C

U8, F32 = np.dtype(np.uint8).num, np.dtype(np.float32).num
H2D, D2H, H2H = (C.ACL_MEMCPY_HOST_TO_DEVICE, C.ACL_MEMCPY_DEVICE_TO_HOST,
                 C.ACL_MEMCPY_HOST_TO_HOST)


# ----- numpy_to_ptr --------------------------------------------------------------------------
def test_numpy_to_ptr_same_array_same_pointer_views_share_it(acl):
    a = np.arange(64, dtype=np.float32).reshape(8, 8)
    p = acl.util.numpy_to_ptr(a)
    assert p != 0 and acl.util.numpy_to_ptr(a) == p
    assert acl.util.numpy_to_ptr(a[2]) == p + 2 * 8 * 4          # row 2 of the same buffer
    assert acl.util.numpy_to_ptr(a.reshape(-1)[5:]) == p + 5 * 4
    assert acl.util.numpy_to_ptr(a.reshape(64)) == p
    pageable = [x for x in acl_lab.snapshot()["allocations"] if x["api"] == "numpy"]
    assert len(pageable) == 1 and pageable[0]["size"] == a.nbytes   # one registration


def test_recent_err_msg_is_consumed_by_reading_it(acl):
    assert acl.rt.free(12345) == C.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.malloc(64, 0)[1] == 0                       # success does not clear it
    assert "0x3039" in acl.get_recent_err_msg()
    assert acl.get_recent_err_msg() == ""                     # as aclGetRecentErrMsg: read once


def test_numpy_to_ptr_refuses_non_contiguous_arrays(acl):
    a = np.zeros((4, 6), np.float32)
    for view in (a.T, a[:, ::2]):
        assert acl.util.numpy_to_ptr(view) == 0
        message = acl.get_recent_err_msg()
        assert "not C-contiguous" in message and "ascontiguousarray" in message


def test_numpy_round_trip_through_the_device(acl):
    src = np.linspace(0, 1, 256, dtype=np.float32)
    dst = np.zeros_like(src)
    dev, _ = acl.rt.malloc(src.nbytes, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memcpy(dev, src.nbytes, acl.util.numpy_to_ptr(src), src.nbytes, H2D) == 0
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(dst), dst.nbytes, dev, src.nbytes, D2H) == 0
    np.testing.assert_array_equal(dst, src)


# ----- ptr_to_numpy / ptr_to_bytes -------------------------------------------------------------
def test_ptr_to_numpy_views_pinned_host_memory(acl):
    host, _ = acl.rt.malloc_host(64)
    view = acl.util.ptr_to_numpy(host, (16,), F32)
    view[:] = np.arange(16, dtype=np.float32)
    assert acl.util.ptr_to_bytes(host, 64) == np.arange(16, dtype=np.float32).tobytes()
    assert acl.rt.memset(host, 64, 0, 8) == 0
    assert (view[:2] == 0).all() and view[2] == 2           # a view, not a copy
    assert acl.util.ptr_to_numpy(host + 16, [2, 2], F32).tolist() == [[4, 5], [6, 7]]


def test_ptr_to_numpy_on_registered_numpy_memory_shares_it(acl):
    a = np.arange(10, dtype=np.float32)
    view = acl.util.ptr_to_numpy(acl.util.numpy_to_ptr(a), (10,), F32)
    assert np.shares_memory(view, a)
    assert acl.util.ptr_to_bytes(acl.util.numpy_to_ptr(a) + 4, 8) == a[1:3].tobytes()


@pytest.mark.parametrize("reader", [
    lambda acl, p: acl.util.ptr_to_bytes(p, 16),
    lambda acl, p: acl.util.ptr_to_numpy(p, (4,), F32),
], ids=["ptr_to_bytes", "ptr_to_numpy"])
def test_reading_device_memory_from_the_host_raises_in_acl_host_mode(acl, reader):
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    with pytest.raises(acl_lab.AclLabError) as err:
        reader(acl, dev)
    assert err.value.code == C.ACL_ERROR_INVALID_PARAM
    assert "device memory" in str(err.value) and "ACL_MEMCPY_DEVICE_TO_HOST" in str(err.value)


def test_reading_unknown_or_overrun_memory_raises(acl):
    host, _ = acl.rt.malloc_host(64)
    with pytest.raises(acl_lab.AclLabError, match="crash"):
        acl.util.ptr_to_bytes(0xDEAD_0000, 4)
    with pytest.raises(acl_lab.AclLabError, match="past the end"):
        acl.util.ptr_to_bytes(host, 65)


# ----- bytes_to_ptr --------------------------------------------------------------------------
def test_bytes_to_ptr_memory_is_written_in_place(acl):
    """pyACL's documented pattern (Ascend/samples' memory samples): copy into a fresh bytes
    object through bytes_to_ptr, read it back with np.frombuffer."""
    data = bytes(range(64))
    ptr = acl.util.bytes_to_ptr(data)
    assert acl.util.bytes_to_ptr(data) == ptr
    host, _ = acl.rt.malloc_host(64)
    assert acl.rt.memcpy(host, 64, ptr, 64, H2H) == 0
    assert acl.util.ptr_to_bytes(host, 64) == bytes(range(64))

    assert acl.rt.memset(host, 64, 7, 64) == 0
    assert acl.rt.memcpy(ptr, 64, host, 64, H2H) == 0
    assert np.frombuffer(data, np.uint8).tolist() == [7] * 64
    assert acl.rt.memset(ptr, 64, 9, 64) == 0
    assert data == b"\x09" * 64


def test_one_byte_bytes_objects_are_shared_and_read_only(acl):
    shared = bytes([7])       # CPython hands every program the same one-byte object
    host, _ = acl.rt.malloc_host(64)
    assert acl.rt.memset(acl.util.bytes_to_ptr(shared), 1, 0, 1) == C.ACL_ERROR_RT_PARAM_INVALID
    assert "read-only" in acl.get_recent_err_msg()
    view = acl.util.ptr_to_numpy(acl.util.bytes_to_ptr(shared), (1,), np.dtype(np.uint8).num)
    assert not view.flags.writeable
    assert shared == b"\x07"


def test_read_only_numpy_array_is_refused_as_destination(acl):
    frozen = np.zeros(64, np.uint8)
    frozen.flags.writeable = False
    host, _ = acl.rt.malloc_host(64)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(frozen), 64, host, 64, H2H) \
        == C.ACL_ERROR_RT_PARAM_INVALID
    assert "read-only" in acl.get_recent_err_msg()


def test_bytearray_is_writable(acl):
    buf = bytearray(64)
    ptr = acl.util.bytes_to_ptr(buf)
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memset(dev, 64, 0x5A, 64) == 0
    assert acl.rt.memcpy(ptr, 64, dev, 64, D2H) == 0
    assert buf == bytearray(b"\x5a" * 64)


# ----- the Python boundary -----------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda acl: acl.util.numpy_to_ptr([1, 2, 3]),
    lambda acl: acl.util.bytes_to_ptr("text"),
    lambda acl: acl.util.ptr_to_numpy(0x1000, (4,), "float32"),
    lambda acl: acl.rt.malloc(1.5, 0),
    lambda acl: acl.rt.malloc("64", 0),
    lambda acl: acl.rt.free(None),
    lambda acl: acl.rt.memcpy(0x1000, 4, 0x2000, 4, 1.0),
    lambda acl: acl.rt.set_device("0"),
], ids=["numpy_to_ptr_list", "bytes_to_ptr_str", "npy_type_str", "malloc_float",
        "malloc_str", "free_none", "memcpy_float_kind", "set_device_str"])
def test_wrong_python_types_raise_type_error(acl, call):
    with pytest.raises(TypeError):
        call(acl)


@pytest.mark.parametrize("call, code, words", [
    (lambda acl: acl.rt.malloc(-1, 0), C.ACL_ERROR_INVALID_PARAM, "negative"),
    (lambda acl: acl.rt.malloc(1 << 64, 0), C.ACL_ERROR_INVALID_PARAM, "64 bits"),
    (lambda acl: acl.rt.malloc((1 << 64) - 1, 0), C.ACL_ERROR_INVALID_PARAM, "overflows"),
    (lambda acl: acl.rt.malloc(1 << 62, 0), C.ACL_ERROR_RT_MEMORY_ALLOCATION, "cannot take"),
    (lambda acl: acl.rt.free(1 << 64), C.ACL_ERROR_INVALID_PARAM, "64 bits"),
    (lambda acl: acl.rt.free((1 << 64) - 1), C.ACL_ERROR_RT_PARAM_INVALID, "not returned"),
    (lambda acl: acl.rt.memcpy(-8, 4, 0x1000, 4, 1), C.ACL_ERROR_INVALID_PARAM, "negative"),
    (lambda acl: acl.rt.set_device(1 << 63), C.ACL_ERROR_RT_INVALID_DEVICEID, "does not exist"),
    (lambda acl: acl.rt.get_mem_info(-(1 << 70)), C.ACL_ERROR_INVALID_PARAM, "64 bits"),
    (lambda acl: acl.rt.destroy_stream(-3), C.ACL_ERROR_INVALID_PARAM, "negative"),
], ids=["malloc_negative", "malloc_2_64", "malloc_max", "malloc_2_62", "free_2_64", "free_max",
        "memcpy_negative", "set_device_2_63", "mem_info_huge_negative", "destroy_stream_neg"])
def test_any_int_however_wrong_gets_a_code(acl, call, code, words):
    result = call(acl)
    assert (result[-1] if isinstance(result, tuple) else result) == code
    assert words in acl.get_recent_err_msg()


# ----- check / explain -------------------------------------------------------------------------
def test_check_raises_with_the_backend_explanation(acl):
    assert acl_lab.check(acl.rt.malloc(64, 0)) is None
    with pytest.raises(acl_lab.AclLabError) as err:
        acl_lab.check(acl.rt.free(0))
    assert err.value.code == C.ACL_ERROR_INVALID_PARAM
    assert str(err.value).startswith("ACL_ERROR_INVALID_PARAM (100000): aclrtFree")
    assert "NULL" in str(err.value)
    with pytest.raises(acl_lab.AclLabError, match="freeing the buffer: aclrtFree: 0x") as err:
        acl_lab.check(acl.rt.free(0xDEAD_0000), "freeing the buffer")
    assert err.value.code == C.ACL_ERROR_RT_PARAM_INVALID
    with pytest.raises(acl_lab.AclLabError) as err:
        acl_lab.check(acl.rt.malloc_host(0))                 # (ptr, ret) tuples too
    assert err.value.code == C.ACL_ERROR_INVALID_PARAM


def test_explain_names_and_explains_codes():
    text = acl_lab.explain(C.ACL_ERROR_RT_PARAM_INVALID)
    assert text.startswith("ACL_ERROR_RT_PARAM_INVALID (107000): ")
    assert len(text) > 60
    assert acl_lab.explain(0).startswith("ACL_SUCCESS (0)")
    assert acl_lab.explain(C.ACL_ERROR_RT_MEMORY_ALLOCATION).startswith(
        "ACL_ERROR_RT_MEMORY_ALLOCATION (207001)")
    assert "not an ACL error code" in acl_lab.explain(123456)


def test_numpy_to_ptr_of_a_ptr_to_numpy_view_is_the_original_pointer(acl):
    host, _ = acl.rt.malloc_host(256)
    view = acl.util.ptr_to_numpy(host + 64, (16,), np.dtype(np.float32).num)
    assert acl.util.numpy_to_ptr(view) == host + 64          # pinned memory stays pinned
    assert acl.util.numpy_to_ptr(view[4:]) == host + 80


def test_a_column_of_a_fortran_ordered_array_is_its_own_bytes(acl):
    """A column of a Fortran-ordered array is C-contiguous: numpy_to_ptr gives its address,
    the device reads the column (not the row-major bytes of a copy) and a copy back writes
    into it (issue 24: the device got [4, 5, 6, 7] and writes were lost)."""
    f = np.asfortranarray(np.arange(16, dtype=np.int32).reshape(4, 4))
    col = f[:, 1]
    ptr = acl.util.numpy_to_ptr(col)
    d, _ = acl.rt.malloc(16, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memcpy(d, 16, ptr, 16, C.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    back = np.zeros(4, np.int32)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(back), 16, d, 16,
                         C.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert back.tolist() == [1, 5, 9, 13]
    assert acl.rt.memset(d, 16, 0, 16) == 0
    assert acl.rt.memcpy(ptr, 16, d, 16, C.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert f[:, 1].tolist() == [0, 0, 0, 0] and f[:, 0].tolist() == [0, 4, 8, 12]


def test_a_view_kept_after_free_is_its_own_bytes_and_counted(acl):
    """ptr_to_numpy's array reaches only its own bytes (its base was the pool's whole 64 GiB
    mapping); after free_host its pages count against the budget while it lives, and
    numpy_to_ptr of it registers those bytes alone (it registered the whole mapping)."""
    import gc

    from acl_lab.sim.hostram import STALE
    h, _ = acl.rt.malloc_host(4096)
    v = acl.util.ptr_to_numpy(h, (1024,), np.dtype(np.float32).num)
    assert np.asarray(v.base).nbytes == 4096
    assert acl.util.numpy_to_ptr(v) == h
    before = STALE.bytes
    assert acl.rt.free_host(h) == 0
    assert STALE.bytes == before + 4096
    ptr = acl.util.numpy_to_ptr(v)
    assert ptr != h
    rows = [a for a in acl_lab.snapshot()["allocations"] if a["ptr"] == ptr]
    assert rows and rows[0]["size"] == 4096 and rows[0]["api"] == "numpy"
    del v, rows
    gc.collect()
    assert STALE.bytes == before


def test_a_bytes_literal_is_not_rewritten_by_a_copy_into_it(acl):
    """A copy into bytes_to_ptr(<a bytes literal>) is refused (107000): the literal is a
    constant of the function, shared by every later call (the copy rewrote it). A bytes
    object made at run time is still written in place, as pyACL does."""
    h, _ = acl.rt.malloc_host(16)
    assert acl.rt.memset(h, 16, 7, 16) == 0

    def read_into_literal():
        data = b"0123456789abcdef"
        ret = acl.rt.memcpy(acl.util.bytes_to_ptr(data), 16, h, 16,
                            C.ACL_MEMCPY_HOST_TO_HOST)
        return ret, data

    for _ in range(2):
        ret, data = read_into_literal()
        assert ret == C.ACL_ERROR_RT_PARAM_INVALID and data == b"0123456789abcdef"
        assert "literal" in acl.get_recent_err_msg()
    fresh = bytes(16)
    assert acl.rt.memcpy(acl.util.bytes_to_ptr(fresh), 16, h, 16,
                         C.ACL_MEMCPY_HOST_TO_HOST) == 0
    assert fresh == b"\x07" * 16


def test_a_bytearray_resized_after_bytes_to_ptr_is_a_freed_pointer(acl):
    """A bytearray that shrank (or grew) after bytes_to_ptr may have moved: its old pointer
    gets 107000 with the reason, not a raw ValueError (or a memset of the 100 bytes left);
    bytes_to_ptr again gives a pointer that works."""
    ba = bytearray(4096)
    ptr = acl.util.bytes_to_ptr(ba)
    del ba[100:]
    h, _ = acl.rt.malloc_host(4096)
    assert acl.rt.memcpy(ptr, 4096, h, 4096, C.ACL_MEMCPY_HOST_TO_HOST) == \
        C.ACL_ERROR_RT_PARAM_INVALID
    assert "resized" in acl.get_recent_err_msg()
    assert acl.rt.memset(ptr, 4096, 1, 4096) == C.ACL_ERROR_RT_PARAM_INVALID
    with pytest.raises(acl_lab.AclLabError, match="resized"):
        acl.util.ptr_to_bytes(ptr, 4096)
    assert acl.rt.memset(h, 100, 7, 100) == 0
    assert acl.rt.memcpy(acl.util.bytes_to_ptr(ba), 100, h, 100,
                         C.ACL_MEMCPY_HOST_TO_HOST) == 0
    assert ba == bytearray(b"\x07" * 100)
