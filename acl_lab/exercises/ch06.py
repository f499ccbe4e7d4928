"""Chapter 06 exercises: capturing and replaying a model, the capture rules, timing a replay.

Each setup builds what its exercise works on in the fresh process ``exercises.start`` opens.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

import acl_lab
from acl_lab import constants as C
from acl_lab.errors import explain
from acl_lab.i18n import N_, _
from acl_lab.trace import untraced

from acl_lab.exercises import NotYet, calls_since_start, exercise, learner_name, released_by

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
    (C.ACL_ERROR_RT_PARAM_INVALID, N_("the runtime runs an async copy with pageable memory as "
                                      "'synchronize, then copy', which no capture can record: "
                                      "on the capturing stream it is an invalid parameter "
                                      "(ApiErrorDecorator::MemcpyAsync)")),
    (C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, N_("an aclrtCreateEvent event cannot be recorded into a "
                                            "capture (it is refused; the capture stays "
                                            "ACTIVE)")),
)
#: the six calls of 06.2, as the trace names them
QUIZ_CALLS = ("rt.synchronize_stream", "rt.memcpy", "rt.memcpy_async", "rt.memset_async",
              "rt.record_event")
#: Exercise 06.1: what x holds before any replay.
DOUBLING_START = np.arange(1, 9, dtype=np.float32)


def _tensor(acl, values: np.ndarray):
    """Device memory holding ``values`` (float32) and a 1-D tensor over it."""
    nbytes = values.nbytes
    dev, ret = acl.rt.malloc(nbytes, C.ACL_MEM_MALLOC_HUGE_FIRST)
    acl_lab.check(ret)
    acl_lab.check(acl.rt.memcpy(dev, nbytes, acl.util.numpy_to_ptr(values), nbytes,
                                C.ACL_MEMCPY_HOST_TO_DEVICE))
    n = values.size
    return dev, acl.nn.create_tensor([n], C.ACL_FLOAT, [1], 0, C.ACL_FORMAT_ND, [n], dev)


def _open_captures() -> list[dict]:
    return [m for m in acl_lab.snapshot()["models"] if not m["ready"]]


def _model(handle, name: str) -> dict:
    if isinstance(handle, tuple):
        raise NotYet(_("{name} is the whole (model, ret) tuple: unpack it, {name}, ret = "
                       "acl.mdl.ri_capture_end(stream).").format(name=name))
    for m in acl_lab.snapshot()["models"]:
        if m["handle"] == handle:
            return m
    destroyed = released_by(handle)
    if destroyed is not None:
        raise NotYet(_("{name} was destroyed by acl.mdl.ri_destroy: check the model before you "
                       "destroy it.").format(name=name))
    raise NotYet(_("{name} is not a captured model: pass the handle acl.mdl.ri_capture_end "
                   "returned.").format(name=name))


def _read_floats(acl, ptr, n: int) -> np.ndarray:
    host = np.zeros(n, dtype=np.float32)
    ret = untraced(acl.rt.memcpy)(untraced(acl.util.numpy_to_ptr)(host), host.nbytes, ptr,
                                  host.nbytes, C.ACL_MEMCPY_DEVICE_TO_HOST)
    if ret != 0:
        raise NotYet(_("reading x back failed ({ret}): {message}").format(
            ret=ret, message=acl.get_recent_err_msg()))
    return host


def _doubling(acl):
    x_dev, x_t = _tensor(acl, DOUBLING_START)
    one = acl.nn.create_scalar(1.0, C.ACL_FLOAT)
    s2, ret = acl.rt.create_stream()
    acl_lab.check(ret)
    return x_dev, x_t, one, s2


@exercise("06.1", "Capture once, double many times",
          "Prepare the Add before the capture (phase 1, add_get_workspace_size: x_t as self, "
          "other and out, alpha one). Between capture begin and end on s2, only launch it; "
          "then replay the model and wait for s2.",
          level="hard",
          more=("Phase 1 gives ws and an executor (acl.nn.add_get_workspace_size). "
                "Then, on s2: acl.mdl.ri_capture_begin, the launch acl.nn.add, and "
                "acl.mdl.ri_capture_end, which returns (model, ret): keep the model as "
                "doubling. acl.mdl.ri_execute_async replays it; "
                "acl.rt.synchronize_stream waits for the replays.",),
          setup=_doubling,
          solution="""
          ws, ex, ret = acl.nn.add_get_workspace_size(x_t, x_t, one, x_t)   # phase 1, before the capture
          acl_lab.check(ret)
          acl_lab.check(acl.mdl.ri_capture_begin(s2, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL))
          acl_lab.check(acl.nn.add(0, ws, ex, s2))                          # recorded, not run
          doubling, ret = acl.mdl.ri_capture_end(s2)
          acl_lab.check(ret)
          for _ in range(3):
              acl_lab.check(acl.mdl.ri_execute_async(doubling, s2))         # each replay doubles x
          acl_lab.check(acl.rt.synchronize_stream(s2))
          """)
def doubling_model(acl, doubling, x_dev: int):
    model, name = doubling, learner_name(doubling, "doubling")
    if _open_captures():
        raise NotYet(_("a capture is still open, so nothing can run: end it with {name}, ret = "
                       "acl.mdl.ri_capture_end(s2).").format(name=name))
    m = _model(model, name)
    ops = [t for t in m["tasks"] if t["kind"] == "op"]
    if [t.get("op") for t in ops] != ["Add"]:
        raise NotYet(_("the model should hold exactly one Add; it holds {kinds}.").format(
            kinds=[t.get("op", t["kind"]) for t in m["tasks"]]))
    if ops[0]["out"] != x_dev:
        raise NotYet(_("the Add must write x itself (out = x): create the output tensor over "
                       "x_dev."))
    if m["executions"] == 0:
        raise NotYet(_("{name} was captured but never replayed: acl.mdl.ri_execute_async("
                       "{name}, s2), then synchronize the stream.").format(name=name))
    if m["in_flight"]:
        raise NotYet(_("{n} replay(s) of {name} are queued but have not run: nothing waited for "
                       "the stream. Call acl.rt.synchronize_stream(s2) after the "
                       "replays.").format(n=m["in_flight"], name=name))
    got = _read_floats(acl, x_dev, DOUBLING_START.size)
    want = DOUBLING_START * 2.0 ** m["executions"]
    if not np.array_equal(got, want):
        raise NotYet(_("after {n} replay(s) x should be {want}, but it is {got}. Capture only "
                       "the Add (not the upload), with out = x.").format(
            n=m["executions"], want=want.tolist(), got=got.tolist()))
    return _("{n} replays of one captured Add doubled x {n} times.").format(n=m["executions"])


def _capture_quiz_handles(acl):
    s, ret = acl.rt.create_stream()
    acl_lab.check(ret)
    buf, ret = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    acl_lab.check(ret)
    pinned, ret = acl.rt.malloc_host(64)
    acl_lab.check(ret)
    ev, ret = acl.rt.create_event()
    acl_lab.check(ret)
    return s, buf, pinned, np.zeros(16, dtype=np.float32), ev


@exercise("06.2", "Legal during capture?",
          "Predict each code, then check: begin a GLOBAL capture on s, make the six calls in "
          "order, keep what each returns, and end the capture.",
          level="medium",
          more=("Collect the six return codes, in the order listed, in a list named "
                "codes, between acl.mdl.ri_capture_begin(s, "
                "ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) and acl.mdl.ri_capture_end(s); a "
                "call that is allowed returns 0.",),
          setup=_capture_quiz_handles,
          solution="""
          acl_lab.check(acl.mdl.ri_capture_begin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL))
          codes = [
              acl.rt.synchronize_stream(s),
              acl.rt.memcpy(buf, 64, pinned, 64, ACL_MEMCPY_HOST_TO_DEVICE),
              acl.rt.memcpy_async(buf, 64, pinned, 64, ACL_MEMCPY_HOST_TO_DEVICE, s),
              acl.rt.memset_async(buf, 64, 0, 64, 0),
              acl.rt.memcpy_async(buf, 64, acl.util.numpy_to_ptr(pageable), 64, ACL_MEMCPY_HOST_TO_DEVICE, s),
              acl.rt.record_event(ev, s),
          ]
          model, ret = acl.mdl.ri_capture_end(s)   # every refusal left the capture ACTIVE
          print(codes, "| end:", ret)
          """)
def capture_quiz(codes: Iterable):
    name = learner_name(codes, "codes")
    codes = list(codes)
    if len(codes) != len(CAPTURE_QUIZ):
        raise NotYet(_("give one code per call: {count} codes, got {got}.").format(
            count=len(CAPTURE_QUIZ), got=len(codes)))
    calls = calls_since_start()
    made = [c for c in calls if c.name in QUIZ_CALLS]
    if not made:
        raise NotYet(_("{name} holds codes that no call returned: since exercises.start() you "
                       "made none of the six calls. Make each call and keep what it "
                       "returns.").format(name=name))
    began = next((c for c in reversed(calls)
                  if c.name == "mdl.ri_capture_begin" and c.ret == 0), None)
    inside = [c for c in made if began is not None and c.seq > began.seq]
    if not inside:
        raise NotYet(_("you called acl.{call} before any capture began on s, so it met no "
                       "capture rule. Call acl.mdl.ri_capture_begin(s, "
                       "ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) before the six calls.").format(
                           call=made[0].name))
    returned = [c.ret for c in inside][:len(CAPTURE_QUIZ)]
    if codes != returned:
        raise NotYet(_("{name} is {codes}, but your calls returned {returned}: keep what each "
                       "call returns, in order.").format(name=name, codes=codes,
                                                         returned=returned))
    for i, (got, (want, why)) in enumerate(zip(codes, CAPTURE_QUIZ), 1):
        if got != want:
            raise NotYet(_("call {i} does not return {got}: which rule of capture does it "
                           "meet?").format(i=i, got=repr(got)),
                         _("call {i} returns {want}, not {got}: {why}.").format(
                             i=i, want=want, got=repr(got), why=_(why)))
    if _open_captures():
        raise NotYet(_("the codes are right; now end the capture: model, ret = "
                       "acl.mdl.ri_capture_end(s)."))
    return _("you know which calls a capture accepts, records or refuses.")


def _replay_to_time(acl):
    n = 256
    a_d, a_t = _tensor(acl, np.zeros(n, dtype=np.float32))
    b_d, b_t = _tensor(acl, np.ones(n, dtype=np.float32))
    one = acl.nn.create_scalar(1.0, C.ACL_FLOAT)
    s, ret = acl.rt.create_stream()
    acl_lab.check(ret)
    acl_lab.check(acl.mdl.ri_capture_begin(s, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL))
    for _i in range(32):
        ws, ex, ret = acl.nn.add_get_workspace_size(a_t, b_t, one, a_t)
        acl_lab.check(ret)
        acl_lab.check(acl.nn.add(0, ws, ex, s))
    graph, ret = acl.mdl.ri_capture_end(s)
    acl_lab.check(ret)
    t0, ret = acl.rt.create_event()
    acl_lab.check(ret)
    t1, ret = acl.rt.create_event()
    acl_lab.check(ret)
    return graph, s, t0, t1


@exercise("06.3", "Time one replay",
          "Record one event on s before the replay and one after it; wait for the second, "
          "then ask ACL for the time between them (aclrtEventElapsedTime).",
          level="medium",
          more=("Around one acl.mdl.ri_execute_async(graph, s): acl.rt.record_event on "
                "s with t0 before and t1 after. Then acl.rt.synchronize_event(t1), and "
                "ms from acl.rt.event_elapsed_time(t0, t1), which returns (ms, ret).",),
          setup=_replay_to_time,
          solution="""
          acl_lab.check(acl.rt.record_event(t0, s))
          acl_lab.check(acl.mdl.ri_execute_async(graph, s))   # one launch replays all 32 Adds
          acl_lab.check(acl.rt.record_event(t1, s))
          acl_lab.check(acl.rt.synchronize_event(t1))         # the time is known once t1 is reached
          ms, ret = acl.rt.event_elapsed_time(t0, t1)
          acl_lab.check(ret)
          print(f"one replay: {ms:.4f} ms")
          """)
def replay_time(acl, t0: int, t1: int, ms):
    first, second = learner_name(t0, "t0"), learner_name(t1, "t1")
    name = learner_name(ms, "ms")
    if isinstance(ms, tuple):
        raise NotYet(_("{name} is the whole (ms, ret) tuple: unpack it, {name}, ret = "
                       "acl.rt.event_elapsed_time({t0}, {t1}).").format(name=name, t0=first,
                                                                        t1=second))
    elapsed, ret = untraced(acl.rt.event_elapsed_time)(t0, t1)
    if ret != 0:
        raise NotYet(_("acl.rt.event_elapsed_time({t0}, {t1}) fails ({ret}): {message}").format(
            t0=first, t1=second, ret=ret, message=acl.get_recent_err_msg() or explain(ret)))
    snap = acl_lab.snapshot()
    events = {e["handle"]: e for e in snap["events"]}
    a, b = events[t0], events[t1]
    if a["stream"] != b["stream"]:
        raise NotYet(_("{t0} and {t1} were recorded on different streams: record both on s, "
                       "the stream the model replays on.").format(t0=first, t1=second))
    replays = [t for t in snap["timeline"]
               if t["stream"] == a["stream"] and t["kind"] == "model"
               and a["recorded_at_us"] <= t["start_us"] and t["end_us"] <= b["recorded_at_us"]]
    if not replays:
        raise NotYet(_("no model replay ran between {t0} and {t1}: record {t0}, "
                       "acl.mdl.ri_execute_async(graph, s), record {t1}.").format(
            t0=first, t1=second))
    if len(replays) > 1:
        raise NotYet(_("{n} replays ran between {t0} and {t1}: time one, so that the events "
                       "measure a single replay.").format(n=len(replays), t0=first, t1=second))
    if not isinstance(ms, float) or abs(ms - elapsed) > 1e-9:
        raise NotYet(_("{name} should be what acl.rt.event_elapsed_time({t0}, {t1}) returns "
                       "({elapsed:.6f} ms), not {ms}.").format(
            name=name, t0=first, t1=second, elapsed=elapsed, ms=repr(ms)))
    return _("one replay of {tasks} tasks between the events: {elapsed:.4f} ms of modeled "
             "time.").format(tasks=_replay_tasks(snap, replays[0]), elapsed=elapsed)


def _replay_tasks(snap, replay: dict) -> int:
    return next((len(m["tasks"]) for m in snap["models"] if m["handle"] == replay["model"]), 0)
