"""Chapter 06 checks: capture rules, capturing and replaying a model, timing a replay."""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

import acl_lab
from acl_lab import constants as C
from acl_lab.i18n import N_, _

from . import NotYet, exercise

#: Exercise 06.2: the calls made during a GLOBAL capture on ``stream``, in the order the
#: notebook lists them, with the code each returns and the rule behind it.
CAPTURE_QUIZ = (
    (C.ACL_ERROR_RT_STREAM_CAPTURED,
     N_("synchronizing a capturing stream is illegal in every mode")),
    (C.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
     N_("a synchronous copy is illegal while a GLOBAL capture is active")),
    (C.ACL_SUCCESS, N_("an async copy with pinned (malloc_host) memory on the capturing stream "
                       "is simply recorded")),
    (C.ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
     N_("the default stream cannot be used during capture")),
    (C.ACL_ERROR_RT_STREAM_CAPTURED, N_("an async copy with pageable memory would need a stream "
                                        "synchronize, which a capturing stream refuses")),
    (C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, N_("an aclrtCreateEvent event cannot be recorded into a "
                                            "capture (it is refused; the capture stays "
                                            "ACTIVE)")),
)
#: Exercise 06.1: what x holds before any replay.
DOUBLING_START = np.arange(1, 9, dtype=np.float32)


@exercise("06.2", "Legal during capture?",
          "Run the six calls listed in the cell, in order, between "
          "acl.mdl.ri_capture_begin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) and "
          "acl.mdl.ri_capture_end(s), and put their return codes in codes "
          "(0 for a call that is allowed): codes = [acl.rt.synchronize_stream(s), ...].")
def capture_quiz(codes: Iterable):
    codes = list(codes)
    if len(codes) != len(CAPTURE_QUIZ):
        raise NotYet(_("give one code per call: {count} codes, got {got}.").format(
            count=len(CAPTURE_QUIZ), got=len(codes)))
    for i, (got, (want, why)) in enumerate(zip(codes, CAPTURE_QUIZ), 1):
        if got != want:
            raise NotYet(_("call {i} returns {want}, not {got}: {why}.").format(
                i=i, want=want, got=repr(got), why=_(why)))
    return _("you know which calls a capture accepts, records or refuses.")


def _model(handle) -> dict:
    for m in acl_lab.snapshot()["models"]:
        if m["handle"] == handle:
            return m
    raise NotYet(_("model must be the handle acl.mdl.ri_capture_end returned, not destroyed "
                   "yet."))


def _read_floats(acl, ptr, n: int) -> np.ndarray:
    host = np.zeros(n, dtype=np.float32)
    ret = acl.rt.memcpy(acl.util.numpy_to_ptr(host), host.nbytes, ptr, host.nbytes,
                        C.ACL_MEMCPY_DEVICE_TO_HOST)
    if ret != 0:
        raise NotYet(_("reading x back failed ({ret}): {message}").format(
            ret=ret, message=acl.get_recent_err_msg()))
    return host


@exercise("06.1", "Capture once, double many times",
          "ws, ex, ret = acl.nn.add_get_workspace_size(x_t, x_t, one, x_t); "
          "acl.mdl.ri_capture_begin(s2, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL); "
          "acl.nn.add(0, ws, ex, s2); doubling, ret = acl.mdl.ri_capture_end(s2); "
          "then acl.mdl.ri_execute_async(doubling, s2) a few times and "
          "acl.rt.synchronize_stream(s2).")
def doubling_model(acl, model: int, x_dev: int):
    m = _model(model)
    if not m["ready"]:
        raise NotYet(_("the capture has not ended: call acl.mdl.ri_capture_end(stream)."))
    ops = [t for t in m["tasks"] if t["kind"] == "op"]
    if [t.get("op") for t in ops] != ["Add"]:
        raise NotYet(_("the model should hold exactly one Add; it holds {kinds}.").format(
            kinds=[t["kind"] for t in m["tasks"]]))
    if ops[0]["out"] != x_dev:
        raise NotYet(_("the Add must write x itself (out = x): create the output tensor over "
                       "x_dev."))
    if m["executions"] == 0:
        raise NotYet(_("the model was captured but never replayed: acl.mdl.ri_execute_async("
                       "model, stream), then synchronize the stream."))
    if acl.rt.synchronize_device() != 0:
        raise NotYet(_("synchronizing failed: {message} End every capture first.").format(
            message=acl.get_recent_err_msg()))
    got = _read_floats(acl, x_dev, DOUBLING_START.size)
    want = DOUBLING_START * 2.0 ** m["executions"]
    if not np.array_equal(got, want):
        raise NotYet(_("after {n} replay(s) x should be {want}, but it is {got}. Capture only "
                       "the Add (not the upload), with out = x.").format(
            n=m["executions"], want=want.tolist(), got=got.tolist()))
    return _("{n} replays of one captured Add doubled x {n} times.").format(n=m["executions"])


@exercise("06.3", "Time one replay",
          "acl.rt.record_event(t0, s); acl.mdl.ri_execute_async(graph, s); "
          "acl.rt.record_event(t1, s); acl.rt.synchronize_event(t1); "
          "ms, ret = acl.rt.event_elapsed_time(t0, t1).")
def replay_time(acl, start: int, end: int, ms):
    elapsed, ret = acl.rt.event_elapsed_time(start, end)
    if ret != 0:
        raise NotYet(_("event_elapsed_time(start, end) fails ({ret}): {message}").format(
            ret=ret, message=acl.get_recent_err_msg()))
    events = {e["handle"]: e for e in acl_lab.snapshot()["events"]}
    a, b = events[start], events[end]
    if a["stream"] != b["stream"]:
        raise NotYet(_("record both events on the stream the model replays on."))
    replays = [t for t in acl_lab.snapshot()["timeline"]
               if t["stream"] == a["stream"] and t["kind"] == "model"
               and a["recorded_at_us"] <= t["start_us"] and t["end_us"] <= b["recorded_at_us"]]
    if not replays:
        raise NotYet(_("no model replay ran between the two events: record start, "
                       "acl.mdl.ri_execute_async(model, stream), record end."))
    if not isinstance(ms, float) or abs(ms - elapsed) > 1e-9:
        raise NotYet(_("ms should be what event_elapsed_time returns for these events "
                       "({elapsed:.6f}), not {ms}.").format(elapsed=elapsed, ms=repr(ms)))
    return _("{n} replay(s) between the events: {elapsed:.4f} ms of modeled time.").format(
        n=len(replays), elapsed=elapsed)
