"""Chapter 03 checks: copies in the right direction, a source left alone while its async
copy is in flight, pinned staging for truly asynchronous uploads."""
from __future__ import annotations

import numpy as np

import acl_lab
from acl_lab import constants as C

from acl_lab.exercises import NotYet, calls_since_start, exercise, learner_name
from acl_lab.i18n import _
from acl_lab.trace import untraced
from acl_lab.exercises.ch02 import live_allocation


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


def _round_trip(acl):
    """03.1: data (64 bytes), dev_buf to hold them, result to get them back into."""
    data = (np.arange(64) * 3).astype(np.uint8)
    dev_buf, _r = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    return data, dev_buf, np.zeros(64, dtype=np.uint8)


@exercise("03.1", "Round trip",
          "Two synchronous copies (aclrtMemcpy): host to device, then device to host. "
          "acl.util.numpy_to_ptr(array) gives a numpy array's address, and the kind names "
          "the direction.",
          level="easy",
          more=("acl.rt.memcpy(dst, dest_max, src, count, kind): first into dev_buf from the "
                "address of data with ACL_MEMCPY_HOST_TO_DEVICE, then into the address of "
                "result from dev_buf with ACL_MEMCPY_DEVICE_TO_HOST; count is data.nbytes.",),
          setup=_round_trip,
          solution="""
          acl.rt.memcpy(dev_buf, data.nbytes, acl.util.numpy_to_ptr(data), data.nbytes,
                        ACL_MEMCPY_HOST_TO_DEVICE)           # host -> device
          acl.rt.memcpy(acl.util.numpy_to_ptr(result), result.nbytes, dev_buf, data.nbytes,
                        ACL_MEMCPY_DEVICE_TO_HOST)           # and back
          """)
def round_trip(acl, dev_buf: int, result: np.ndarray, data: np.ndarray):
    names = {"dev_buf": learner_name(dev_buf, "dev_buf"),
             "result": learner_name(result, "result"), "data": learner_name(data, "data")}
    want = _as_bytes(data)
    if not np.array_equal(device_bytes(acl, dev_buf, want.size), want):
        raise NotYet(_("{dev_buf} does not hold {data} yet: copy it host to device "
                       "first.").format(**names))
    if not np.array_equal(_as_bytes(result), want):
        raise NotYet(_("{dev_buf} holds {data}, but {result} does not: copy it back, device "
                       "to host, into the address of {result}.").format(**names))
    wrong = _wrong_kinds(dev_buf)
    if wrong:
        call, kind = wrong[0]
        raise NotYet(_("the bytes arrived, but copy #{seq} (acl_lab.tracer().table() shows it) "
                       "says {said} while its addresses go {really}: the runtime followed the "
                       "addresses, and the kind misleads whoever reads the code. The kind "
                       "names the direction: pass {really} (or ACL_MEMCPY_DEFAULT).").format(
                           seq=call.seq, said=C.MEMCPY_KIND_NAMES.get(call.args[4], call.args[4]),
                           really=C.MEMCPY_KIND_NAMES[kind]))
    return _("{count} bytes went to the device and came back unchanged.").format(
        count=want.size)


def _wrong_kinds(dev_buf: int) -> list:
    """The copies since start() into or out of ``dev_buf`` whose kind names another direction
    than their addresses (the runtime corrects the kind silently; the chapter teaches that
    the kind names the direction), each with the kind it should have said."""
    wrong = []
    for call in calls_since_start():
        if call.name not in ("rt.memcpy", "rt.memcpy_async") or call.ret != 0:
            continue
        dst, _max, src, _count, kind = call.args[:5]
        should = (C.ACL_MEMCPY_HOST_TO_DEVICE if dst == dev_buf and src != dev_buf else
                  C.ACL_MEMCPY_DEVICE_TO_HOST if src == dev_buf and dst != dev_buf else None)
        if should is not None and kind not in (should, C.ACL_MEMCPY_DEFAULT):
            wrong.append((call, should))
    return wrong


def _staged(acl):
    """03.2: a stream, a pinned staging buffer, and two device buffers."""
    stream, _r = acl.rt.create_stream()
    staging, _r = acl.rt.malloc_host(4096)
    dev_a, _r = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    dev_b, _r = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    return stream, staging, dev_a, dev_b


@exercise("03.2", "Don't overwrite a buffer in flight",
          "memcpy_async reads its source when the stream runs the copy, not when you call "
          "it. The cell refills staging right after issuing the first copy: what must have "
          "happened to that copy before staging changes?",
          level="medium",
          more=("Wait for the stream (aclrtSynchronizeStream) after the first copy, before "
                "staging is refilled.",),
          setup=_staged,
          solution="""
          acl.rt.synchronize_stream(stream)          # the first copy has read staging: now reuse it
          """)
def staged_twice(acl, dev_a: int, dev_b: int, first: np.ndarray, second: np.ndarray):
    names = {"dev_a": learner_name(dev_a, "dev_a"), "dev_b": learner_name(dev_b, "dev_b")}
    got_a = device_bytes(acl, dev_a, _as_bytes(first).size)
    if np.array_equal(got_a, _as_bytes(second)):
        raise NotYet(_("{dev_a} received the *second* batch: the first copy ran only after "
                       "the staging buffer was refilled.").format(**names),
                     _("{dev_a} received the *second* batch. Wait for the first copy with "
                       "acl.rt.synchronize_stream(stream) right after the first memcpy_async "
                       "(or synchronize_event on an event recorded after it).").format(**names))
    if not np.array_equal(got_a, _as_bytes(first)):
        raise NotYet(_("{dev_a} does not hold the first batch: keep the first copy and let it "
                       "finish before the staging buffer changes.").format(**names))
    if not np.array_equal(device_bytes(acl, dev_b, _as_bytes(second).size), _as_bytes(second)):
        raise NotYet(_("{dev_b} does not hold the second batch: synchronize the stream at the "
                       "end.").format(**names))
    return _("each batch reached its buffer: the staging buffer changed only after its copy "
             "ran.")


def _upload(acl):
    """03.3: a stream, a pinned staging buffer, a numpy payload and dev_in for it."""
    stream, _r = acl.rt.create_stream()
    staging, _r = acl.rt.malloc_host(4096)
    payload = (np.arange(4096) % 251).astype(np.uint8)
    dev_in, _r = acl.rt.malloc(4096, C.ACL_MEM_MALLOC_HUGE_FIRST)
    return stream, staging, payload, dev_in


@exercise("03.3", "A truly asynchronous upload",
          "ACL runs an async copy from pageable memory (a numpy array) synchronously. For a "
          "copy that really runs on the stream, the source must be pinned memory, like "
          "staging (from malloc_host). Then wait for the stream.",
          level="hard",
          more=("Put payload into host_view(staging, payload.nbytes) first; then memcpy_async "
                "from staging into dev_in with ACL_MEMCPY_HOST_TO_DEVICE on stream; then "
                "synchronize the stream.",),
          setup=_upload,
          solution="""
          host_view(staging, payload.nbytes)[:] = payload        # stage the data in pinned memory
          acl.rt.memcpy_async(dev_in, payload.nbytes, staging, payload.nbytes,
                              ACL_MEMCPY_HOST_TO_DEVICE, stream)
          acl.rt.synchronize_stream(stream)
          """)
def pinned_upload(acl, dev_in: int, payload: np.ndarray, stream: int):
    names = {"dev_in": learner_name(dev_in, "dev_in"),
             "payload": learner_name(payload, "payload"), "stream": learner_name(stream, "stream")}
    want = _as_bytes(payload)
    uploads = [c for c in calls_since_start() if c.name == "rt.memcpy_async"
               and c.args[:1] == (dev_in,) and c.args[-1:] == (stream,) and c.ret == 0]
    if not uploads:
        raise NotYet(_("no successful acl.rt.memcpy_async into {dev_in} on {stream} yet: "
                       "after a refused call, acl.get_recent_err_msg() says why.").format(
                           **names))
    source = live_allocation(uploads[-1].args[2])
    if source is None or not source["pinned"]:
        raise NotYet(_("the async copy read pageable memory (a numpy array), so ACL ran it "
                       "synchronously. Stage {payload} in the pinned buffer first and copy "
                       "from there.").format(**names))
    if not np.array_equal(device_bytes(acl, dev_in, want.size), want):
        raise NotYet(_("{dev_in} does not hold {payload}: fill the staging buffer before the "
                       "copy, and synchronize the stream before checking.").format(**names))
    return _("the upload ran on the stream from pinned memory, and dev_in holds the "
             "payload.")
