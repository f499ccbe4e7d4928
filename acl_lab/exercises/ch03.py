"""Chapter 03 checks: copies in the right direction, a source left alone while its async
copy is in flight, pinned staging for truly asynchronous uploads."""
from __future__ import annotations

import numpy as np

import acl_lab
from acl_lab import constants as C

from . import NotYet, exercise
from ..i18n import _
from ..trace import untraced
from .ch02 import live_allocation


def device_bytes(acl, ptr: int, n: int) -> np.ndarray:
    """``n`` bytes at device address ``ptr``, read the way a host program must: a synchronous
    DEVICE_TO_HOST copy into a scratch pinned buffer."""
    malloc_host, free_host = untraced(acl.rt.malloc_host), untraced(acl.rt.free_host)
    memcpy, ptr_to_bytes = untraced(acl.rt.memcpy), untraced(acl.util.ptr_to_bytes)
    scratch, ret = malloc_host(n)
    assert ret == C.ACL_SUCCESS
    try:
        assert memcpy(scratch, n, ptr, n, C.ACL_MEMCPY_DEVICE_TO_HOST) == C.ACL_SUCCESS
        return np.frombuffer(ptr_to_bytes(scratch, n), dtype=np.uint8)
    finally:
        free_host(scratch)


def _as_bytes(array) -> np.ndarray:
    return np.ascontiguousarray(array).reshape(-1).view(np.uint8)


ROUND_TRIP_HINT = ("Two synchronous copies: acl.rt.memcpy(dev_buf, data.nbytes, "
                   "acl.util.numpy_to_ptr(data), data.nbytes, ACL_MEMCPY_HOST_TO_DEVICE), then "
                   "acl.rt.memcpy(acl.util.numpy_to_ptr(result), result.nbytes, dev_buf, "
                   "data.nbytes, ACL_MEMCPY_DEVICE_TO_HOST).")


@exercise("03.1", "Round trip", ROUND_TRIP_HINT)
def round_trip(acl, dev_buf: int, result: np.ndarray, data: np.ndarray):
    want = _as_bytes(data)
    if not np.array_equal(device_bytes(acl, dev_buf, want.size), want):
        raise NotYet(_("dev_buf does not hold the data yet. {hint}").format(
            hint=_(ROUND_TRIP_HINT)))
    if not np.array_equal(_as_bytes(result), want):
        raise NotYet(_("dev_buf holds the data, but result does not: "
                       "acl.rt.memcpy(acl.util.numpy_to_ptr(result), result.nbytes, dev_buf, "
                       "data.nbytes, ACL_MEMCPY_DEVICE_TO_HOST)."))
    return _("{count} bytes went to the device and came back unchanged.").format(
        count=want.size)


@exercise("03.2", "Don't overwrite a buffer in flight",
          "memcpy_async reads its source when the stream runs the copy, not when you call "
          "it: add acl.rt.synchronize_stream(stream) after the first copy, before "
          "`staging` is refilled.")
def staged_twice(acl, dev_a: int, dev_b: int, first: np.ndarray, second: np.ndarray):
    got_a = device_bytes(acl, dev_a, _as_bytes(first).size)
    if np.array_equal(got_a, _as_bytes(second)):
        raise NotYet(_("dev_a received the *second* batch: the first copy ran only after you "
                       "had refilled the staging buffer. Wait for it with "
                       "acl.rt.synchronize_stream(stream) right after the first memcpy_async "
                       "(or synchronize_event on an event recorded after it)."))
    if not np.array_equal(got_a, _as_bytes(first)):
        raise NotYet(_("dev_a does not hold the first batch: keep the first copy and let it "
                       "finish before the staging buffer changes."))
    if not np.array_equal(device_bytes(acl, dev_b, _as_bytes(second).size), _as_bytes(second)):
        raise NotYet(_("dev_b does not hold the second batch: synchronize the stream at the "
                       "end."))
    return _("each batch reached its buffer: the staging buffer changed only after its copy "
             "ran.")


@exercise("03.3", "A truly asynchronous upload",
          "Stage the array in pinned memory first: host_view(staging, payload.nbytes)[:] = "
          "payload, then acl.rt.memcpy_async(dev_in, payload.nbytes, staging, payload.nbytes, "
          "ACL_MEMCPY_HOST_TO_DEVICE, stream), then acl.rt.synchronize_stream(stream).")
def pinned_upload(acl, dev_in: int, payload: np.ndarray, stream: int):
    want = _as_bytes(payload)
    uploads = [c for c in acl_lab.tracer().calls if c.name == "rt.memcpy_async"
               and c.args[:1] == (dev_in,) and c.args[-1:] == (stream,) and c.ret == 0]
    if not uploads:
        raise NotYet(_("no successful acl.rt.memcpy_async into dev_in on the stream yet. "
                       "Stage the array in pinned memory first: host_view(staging, "
                       "payload.nbytes)[:] = payload, then acl.rt.memcpy_async(dev_in, "
                       "payload.nbytes, staging, payload.nbytes, ACL_MEMCPY_HOST_TO_DEVICE, "
                       "stream), then acl.rt.synchronize_stream(stream)."))
    source = live_allocation(uploads[-1].args[2])
    if source is None or not source["pinned"]:
        raise NotYet(_("the async copy read pageable memory (a numpy array), so ACL ran it "
                       "synchronously. Stage the data in the pinned buffer first "
                       "(host_view(staging, payload.nbytes)[:] = payload) and copy from "
                       "staging."))
    if not np.array_equal(device_bytes(acl, dev_in, want.size), want):
        raise NotYet(_("dev_in does not hold the payload: fill the staging buffer before the "
                       "copy, and synchronize the stream before checking."))
    return _("the upload ran on the stream from pinned memory, and dev_in holds the "
             "payload.")
