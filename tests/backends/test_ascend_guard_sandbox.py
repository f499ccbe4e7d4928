"""The guard's sandbox holes (issue 10, item 7), against the recording stand-in for pyACL:
use-after-free through ptr_to_numpy arrays, buffers captured models still use, frees under
queued async copies, negative sizes, read-only destinations, bytes registrations."""
import gc
import sys

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.errors import AclLabError
from acl_lab.spec.memory_rules import KEEP_DROPPED
from ascendhelpers import StandIn, acl, real, refused  # noqa: F401 (fixtures)

U8 = np.dtype(np.uint8).num
H2D, D2H = C.ACL_MEMCPY_HOST_TO_DEVICE, C.ACL_MEMCPY_DEVICE_TO_HOST


class CapturingStandIn(StandIn):
    """A pyACL that also binds the capture calls (acl.mdl.ri_*)."""

    def __init__(self):
        super().__init__()
        self.mdl = self._namespace("mdl", ["load_from_file", "ri_capture_begin",
                                           "ri_capture_end", "ri_execute", "ri_execute_async",
                                           "ri_destroy"])

    def _ri_capture_end(self, stream):
        return (0x4000_0040, 0)


@pytest.fixture
def stand_in():
    return CapturingStandIn


def test_free_host_under_a_live_ptr_to_numpy_array_warns(real, acl, capsys):
    host, _ = acl.rt.malloc_host(256)
    view = acl.util.ptr_to_numpy(host, (256,), U8)
    assert acl.rt.free_host(host) == 0          # pyACL code frees with arrays in scope
    err = capsys.readouterr().err
    assert hex(host) in err and "use-after-free" in err and "array.copy()" in err
    del view
    other, _ = acl.rt.malloc_host(256)
    acl.util.ptr_to_numpy(other, (256,), U8)   # dropped at once: no warning when freed
    gc.collect()
    assert acl.rt.free_host(other) == 0
    assert "use-after-free" not in capsys.readouterr().err


def test_reset_with_a_live_ptr_to_numpy_array_warns(real, acl, capsys):
    host, _ = acl.rt.malloc_host(64)
    view = acl.util.ptr_to_numpy(host, (64,), U8)
    acl_lab.reset()
    assert "use-after-free" in capsys.readouterr().err
    assert ("rt.free_host", (host,)) in real.calls
    del view


def test_free_host_waits_for_a_queued_async_copy_into_it(real, acl):
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(4096, 0)
    host, _ = acl.rt.malloc_host(4096)
    assert acl.rt.memcpy_async(host, 4096, dev, 4096, D2H, stream) == 0
    real.calls.clear()
    assert acl.rt.free_host(host) == 0
    assert real.names("rt.") == ["rt.synchronize_stream", "rt.free_host"]
    assert real.calls[0] == ("rt.synchronize_stream", (stream,))
    # once synchronized, nothing is waited for again
    other, _ = acl.rt.malloc_host(4096)
    assert acl.rt.memcpy_async(other, 4096, dev, 4096, D2H, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    real.calls.clear()
    assert acl.rt.free_host(other) == 0
    assert real.names("rt.") == ["rt.free_host"]


def test_a_model_whose_buffer_was_freed_is_not_executed(real, acl):
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(4096, 0)
    host, _ = acl.rt.malloc_host(4096)
    assert acl.mdl.ri_capture_begin(stream, 0) == 0
    assert acl.rt.memcpy_async(dev, 4096, host, 4096, H2D, stream) == 0
    model, ret = acl.mdl.ri_capture_end(stream)
    assert ret == 0
    assert acl.mdl.ri_execute_async(model, stream) == 0        # buffers alive: runs
    assert acl.rt.free(dev) == 0
    real.calls.clear()
    refused(real, acl, acl.mdl.ri_execute(model, -1), C.ACL_ERROR_RT_MODEL_EXECUTE,
            hex(dev), "aclmdlRIDestroy")
    refused(real, acl, acl.mdl.ri_execute_async(model, stream), C.ACL_ERROR_RT_MODEL_EXECUTE)
    assert "mdl.ri_execute" not in real.names() and "mdl.ri_execute_async" not in real.names()
    assert acl.mdl.ri_destroy(model) == 0


@pytest.mark.parametrize("call", [
    lambda acl, d, h: acl.rt.memset(d, 64, 0, -1),
    lambda acl, d, h: acl.rt.memset(d, -64, 0, 8),
    lambda acl, d, h: acl.rt.memcpy(d, 64, h, -8, H2D),
    lambda acl, d, h: acl.rt.memcpy_async(d, -1, h, 8, H2D, 0),
    lambda acl, d, h: acl.rt.memcpy2d(d, 8, h, 8, 8, -1, H2D),
    lambda acl, d, h: acl.rt.malloc(-1, 0)[1],
    lambda acl, d, h: acl.rt.malloc_host(-64)[1],
], ids=["memset_count", "memset_max", "memcpy_count", "memcpy_async_max", "memcpy2d_height",
        "malloc", "malloc_host"])
def test_negative_byte_counts_are_refused_before_the_runtime(real, acl, call):
    dev, _ = acl.rt.malloc(64, 0)
    host, _ = acl.rt.malloc_host(64)
    real.calls.clear()
    refused(real, acl, call(acl, dev, host), C.ACL_ERROR_INVALID_PARAM, "negative")
    assert real.calls == []


def test_ptr_to_numpy_and_ptr_to_bytes_refuse_negative_and_overflowing_sizes(real, acl):
    host, _ = acl.rt.malloc_host(64)
    real.calls.clear()
    for shape in ((-1,), (8, -1), (1 << 63,)):
        with pytest.raises(ValueError):
            acl.util.ptr_to_numpy(host, shape, U8)
    with pytest.raises(ValueError):
        acl.util.ptr_to_bytes(host, -1)
    with pytest.raises(AclLabError, match="past the end"):   # no int64 wrap-around to a small size
        acl.util.ptr_to_numpy(host, (1 << 32, 1 << 32), np.dtype(np.float64).num)
    assert real.calls == []


def test_read_only_views_are_refused_but_bytes_objects_are_written(real, acl):
    host, _ = acl.rt.malloc_host(64)
    base = np.zeros(64, np.uint8)
    view = base[8:40]
    view.flags.writeable = False
    real.calls.clear()
    refused(real, acl, acl.rt.memcpy(acl.util.numpy_to_ptr(view), 32, host, 32, 0),
            C.ACL_ERROR_RT_PARAM_INVALID, "read-only")
    refused(real, acl, acl.rt.memset(acl.util.numpy_to_ptr(view), 32, 0, 32),
            C.ACL_ERROR_RT_PARAM_INVALID, "read-only")
    assert "rt.memcpy" not in real.names() and "rt.memset" not in real.names()
    # the writable root, registered again, may be written; so may a fresh bytes object
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(base), 64, host, 64, 0) == 0
    data = np.ones(64, np.uint8).tobytes()
    assert acl.rt.memcpy(acl.util.bytes_to_ptr(data), 64, host, 64, 0) == 0
    assert real.names("rt.memcpy") == ["rt.memcpy", "rt.memcpy"]


def test_bytes_registrations_the_program_dropped_are_bounded(real, acl):
    """pyACL keeps no reference; the guard keeps the newest dropped ones (a temporary passed
    straight to bytes_to_ptr stays valid for the next calls) and releases the rest."""
    for _ in range(3000):
        acl.util.bytes_to_ptr(bytes(256))
        real.calls.clear()             # the stand-in's record would keep the object alive
    live = [a for a in acl_lab.snapshot()["allocations"] if a["api"] == "bytes"]
    assert KEEP_DROPPED <= len(live) <= 2 * KEEP_DROPPED + 1
    dev, _ = acl.rt.malloc(256, 0)
    tmp = acl.util.bytes_to_ptr(np.full(256, 7, np.uint8).tobytes())
    assert acl.rt.memcpy(dev, 256, tmp, 256, H2D) == 0          # not refused as unknown
