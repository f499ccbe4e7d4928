"""The profile the simulator's profiler writes (aclprofStart .. aclprofStop) and the
StreamTimeline reads back: one format, written and read here.

msprof exports a collection as a timeline in the Chrome trace-event format
(``mindstudio_profiler_output/msprof_*.json``, readable in chrome://tracing or Perfetto); the
simulator writes the same kind of file into the folder aclprofInit named:

    <path>/PROF_<n>_sim/mindstudio_profiler_output/msprof.json

a JSON list of events: "X" (a span: ``ts``, ``dur`` in modeled µs) for each task a stream ran
(pid "device <d>", tid the stream's handle, args: kind, nbytes, model, event) and for each
msproftx push/pop or range (pid "host", tid the thread), "i" (an instant) for each mark,
and "M" (metadata) naming the processes. Reading is bounded: a folder or file that is not
such a profile, a file over MAX_BYTES or more than MAX_EVENTS events is refused with a
ValueError that says why.
"""
from __future__ import annotations

import json
import os
from typing import NamedTuple

OUTPUT_DIR = "mindstudio_profiler_output"
TIMELINE = "msprof.json"
MAX_BYTES = 64 << 20
MAX_EVENTS = 200_000
HOST = "host"


def folder_name(number: int) -> str:
    """The collection's folder (msprof's PROF_<pid>_<time>_<random>, deterministic here)."""
    return f"PROF_{number:06d}_sim"


class HostMark(NamedTuple):
    """An msproftx range (start < end) or mark (start == end) on a host thread."""
    start_us: float
    end_us: float
    thread: str
    message: str


class Profile(NamedTuple):
    tasks: list          # snapshot_schema.TimelineRow dicts
    marks: list          # HostMark


def encode(tasks: list, marks: list, device_of: dict) -> bytes:
    """The timeline file of ``tasks`` (TimelineRow dicts; ``device_of``: stream -> device)
    and ``marks`` (HostMark)."""
    events, pids = [], {}
    for t in tasks:
        pid = f"device {device_of.get(t['stream'], 0)}"
        pids.setdefault(pid, len(pids))
        events.append({"name": t["kind"], "ph": "X", "pid": pid, "tid": t["stream"],
                       "ts": round(t["start_us"], 3),
                       "dur": round(max(t["end_us"] - t["start_us"], 0.0), 3),
                       "args": {"kind": t["kind"], "nbytes": t["nbytes"],
                                "model": t.get("model"), "event": t.get("event")}})
    for m in marks:
        pids.setdefault(HOST, len(pids))
        span = m.end_us > m.start_us
        event = {"name": m.message, "ph": "X" if span else "i", "pid": HOST, "tid": m.thread,
                 "ts": round(m.start_us, 3)}
        if span:
            event["dur"] = round(m.end_us - m.start_us, 3)
        events.append(event)
    meta = [{"name": "process_name", "ph": "M", "pid": pid, "args": {"name": pid}}
            for pid in pids]
    return json.dumps(meta + events, sort_keys=True, separators=(",", ":")).encode()


def timeline_path(folder: str) -> str:
    return os.path.join(folder, OUTPUT_DIR, TIMELINE)


def read(path) -> Profile:
    """The profile at ``path``: a PROF_* folder, its output folder, or the msprof.json."""
    path = os.fspath(path)
    if os.path.isdir(path):
        inner = os.path.join(path, TIMELINE)
        path = inner if os.path.isfile(inner) else timeline_path(path)
    if not os.path.isfile(path):
        raise ValueError(f"{path}: no {TIMELINE} here (a profile is the PROF_* folder "
                         "acl.prof.stop wrote)")
    with open(path, "rb") as f:
        data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ValueError(f"{path}: larger than {MAX_BYTES >> 20} MiB")
    try:
        events = json.loads(data)
    except ValueError as e:
        raise ValueError(f"{path}: not JSON ({e})") from None
    if not isinstance(events, list) or len(events) > MAX_EVENTS:
        raise ValueError(f"{path}: not a list of at most {MAX_EVENTS} trace events")
    tasks, marks = [], []
    for e in events:
        if not isinstance(e, dict) or e.get("ph") == "M":
            continue
        try:
            if e.get("pid") == HOST:
                start = float(e["ts"])
                marks.append(HostMark(start, start + float(e.get("dur", 0.0)),
                                      str(e["tid"]), str(e["name"])))
            elif e.get("ph") == "X":
                args = e.get("args") or {}
                start = float(e["ts"])
                tasks.append({"stream": int(e["tid"]), "kind": str(args.get("kind", e["name"])),
                              "start_us": start, "end_us": start + float(e["dur"]),
                              "nbytes": int(args.get("nbytes") or 0),
                              "model": _optional_int(args.get("model")),
                              "event": _optional_int(args.get("event"))})
        except (KeyError, TypeError, ValueError):
            raise ValueError(f"{path}: an event is not a trace event: {str(e)[:80]}") from None
    return Profile(tasks, marks)


def _optional_int(value):
    return None if value is None else int(value)
