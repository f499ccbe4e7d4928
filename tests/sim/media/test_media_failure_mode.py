"""A task that fails on the device, and the stream's failure mode (aclrtSetStreamFailureMode,
hicann/runtime 06_stream_management.md and the FAQ 遇错即停模式下错误定位方法): the error
surfaces at the next synchronize; ACL_CONTINUE_ON_FAILURE runs the tasks after it,
ACL_STOP_ON_FAILURE drops them and the stream takes no new task."""
from __future__ import annotations

import pytest

from acl_lab import constants as C
from mediahelpers import channel, dvpp_copy, jpeg_bytes, pic_desc, scene

AICPU = C.ACL_ERROR_RT_AICPU_EXCEPTION


def _failing_decode_then_copy(acl, mode):
    stream, _ = acl.rt.create_stream()
    assert acl.rt.set_stream_failure_mode(stream, mode) == 0
    data = jpeg_bytes(scene(64, 48))
    out, _ = acl.media.dvpp_malloc(100)                       # far too small for the picture
    host, _ = acl.rt.malloc_host(64)
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memset(host, 64, 0, 64) == 0 and acl.rt.memset(dev, 64, 7, 64) == 0
    assert acl.media.dvpp_jpeg_decode_async(channel(acl), dvpp_copy(acl, data), len(data),
                                            pic_desc(acl, out, 100), stream) == 0
    assert acl.rt.memcpy_async(host, 64, dev, 64, C.ACL_MEMCPY_DEVICE_TO_HOST, stream) == 0
    assert acl.rt.synchronize_stream(stream) == AICPU          # the fault surfaces here
    return stream, host, dev


def test_continue_on_failure_runs_the_tasks_after_the_failed_one(acl):
    stream, host, dev = _failing_decode_then_copy(acl, C.ACL_CONTINUE_ON_FAILURE)
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.util.ptr_to_bytes(host, 4) == b"\x07" * 4
    assert acl.rt.memset_async(dev, 64, 1, 64, stream) == 0


def test_stop_on_failure_drops_the_rest_and_refuses_new_tasks(acl):
    stream, host, dev = _failing_decode_then_copy(acl, C.ACL_STOP_ON_FAILURE)
    assert acl.rt.synchronize_stream(stream) == AICPU          # the stream stays stopped
    assert acl.util.ptr_to_bytes(host, 4) == b"\x00" * 4       # the copy never ran
    assert acl.rt.memset_async(dev, 64, 1, 64, stream) == AICPU
    assert "ACL_STOP_ON_FAILURE" in acl.get_recent_err_msg()
    assert acl.rt.peek_at_last_error(C.ACL_RT_THREAD_LEVEL) == AICPU
    assert acl.rt.get_last_error(C.ACL_RT_THREAD_LEVEL) == AICPU
    assert acl.rt.get_last_error(C.ACL_RT_THREAD_LEVEL) == 0
    assert acl.rt.destroy_stream_force(stream) == 0


def test_stop_mode_cannot_go_back_on_the_stream_it_was_set_on(acl):
    """ApiImpl::StreamSetMode compares with the stream's own mode: stop back to continue is
    RT_ERROR_FEATURE_NOT_SUPPORT; the same mode again is 0."""
    a, _ = acl.rt.create_stream()
    assert acl.rt.set_stream_failure_mode(a, C.ACL_STOP_ON_FAILURE) == 0
    assert acl.rt.set_stream_failure_mode(a, C.ACL_STOP_ON_FAILURE) == 0
    assert acl.rt.set_stream_failure_mode(a, C.ACL_CONTINUE_ON_FAILURE) == \
        C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT


@pytest.mark.parametrize("later", [False, True])
def test_stop_mode_covers_every_stream_of_the_context(acl, later):
    """"当Stream上设置了遇错即停模式，该Stream所在的Context下的其它Stream也是遇错即停"
    (06_stream_management.md): a sibling, made before or after, stops on a failure even if
    continue was set on it (its own mode, which StreamSetMode compares with, stays continue)."""
    a, _ = acl.rt.create_stream()
    b, _ = acl.rt.create_stream() if not later else (None, 0)
    assert acl.rt.set_stream_failure_mode(a, C.ACL_STOP_ON_FAILURE) == 0
    if later:
        b, _ = acl.rt.create_stream()
    assert acl.rt.set_stream_failure_mode(b, C.ACL_CONTINUE_ON_FAILURE) == 0
    data = jpeg_bytes(scene(64, 48))
    out, _ = acl.media.dvpp_malloc(100)
    host, _ = acl.rt.malloc_host(64)
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memset(host, 64, 0, 64) == 0 and acl.rt.memset(dev, 64, 7, 64) == 0
    assert acl.media.dvpp_jpeg_decode_async(channel(acl), dvpp_copy(acl, data), len(data),
                                            pic_desc(acl, out, 100), b) == 0
    assert acl.rt.memcpy_async(host, 64, dev, 64, C.ACL_MEMCPY_DEVICE_TO_HOST, b) == 0
    assert acl.rt.synchronize_stream(b) == AICPU
    assert acl.util.ptr_to_bytes(host, 4) == b"\x00" * 4       # dropped: b stops too
