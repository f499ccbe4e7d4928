"""StreamTimeline: the modeled time of every stream, task by task, with the host above them.

One lane per stream (the default stream is "default"), one box per task coloured by kind,
event records and waits as marks with an arrow from a record to the wait it releases, and
on top the host's own time from the trace: issuing tasks, or in any other call (waiting for
a stream, copying synchronously, recording into a capture). A slider keeps the picture to
the last N tasks; ``since_us`` drops what came before a moment of interest
(``acl_lab.snapshot()["now_us"]`` taken before the work). Lanes carry the names given with
``acl_lab.name(stream, "copy")``; hover a box for its kind, bytes and modeled time.
``profile=`` draws a profile a program wrote instead (the PROF_* folder acl.prof.stop
wrote, spec/profile_data.py): its tasks, and its msproftx ranges and marks as the host.
"""
from __future__ import annotations

from html import escape
from typing import NamedTuple

import ipywidgets as widgets

import acl_lab

from acl_lab.i18n import N_, _
from acl_lab.spec import profile_data
from acl_lab.widgets._base import GONE, generation
from acl_lab.widgets._svg import message
from acl_lab.widgets._tasks import (RefreshOnNewCalls, count, duration, kind_label, lane_name,
                     lanes_picture, no_timeline_note, span_text, stream_label, stream_names, us)

DEFAULT_LAST = 1_000
LABELLED_BOXES = 200                    # model replays are named when the window is this small
READOUT_HEADER = (N_("stream"), N_("tasks"), N_("busy (modeled)"), N_("from – to"))


class HostSpan(NamedTuple):
    """Modeled host time in one traced call: its thread, and what the host did."""
    start: float
    end: float
    kind: str          # "launch", "waiting" or "blocking" (TASK_COLORS)
    thread: str
    name: str          # the call, e.g. "rt.synchronize_stream"
    task: tuple | None     # _task_key of the task it issued


def _task_key(row: dict) -> tuple:
    return row["stream"], row["kind"], row["start_us"], row["end_us"]


def _waits(name: str) -> bool:
    """Calls whose host time is waiting: for a stream, the device, an event, or a report
    (``process_report``: the callback worker's wait, its callbacks' calls drawn inside)."""
    return name.startswith("rt.synchronize") or name == "rt.process_report"


def host_time(calls, since: float | None) -> list[HostSpan]:
    """The host's busy spans from the trace, each call kept by what it did: a launch (the
    trace gives a task only to the call that issued it), a wait, or blocking work."""
    out = []
    for c in calls:
        if c.end_us <= c.start_us or (since is not None and c.start_us < since):
            continue
        if c.task:
            key, kind = _task_key(c.task), "launch"
        else:
            key, kind = None, "waiting" if _waits(c.name) else "blocking"
        out.append(HostSpan(c.start_us, c.end_us, kind, c.thread, c.name, key))
    return out


def _busy(spans: list[HostSpan], t0: float, t1: float) -> float:
    """Host time in [t0, t1] that a call of the lane spent working, not waiting (nested
    calls count once)."""
    total, reach = 0.0, t0
    for h in sorted((h for h in spans if h.kind != "waiting"), key=lambda h: h.start):
        start, end = max(h.start, reach), min(h.end, t1)
        if end > start:
            total += end - start
            reach = end
    return total


class TimelineScene:
    """The tasks the timeline shows, as plain data: every task that starts after
    ``since_us`` (all if None), of which the last ``last`` are drawn, and the host's busy
    spans from then on. Work issued after reading ``snapshot()["now_us"]`` starts after it
    (a launch takes time), so it is all there, and work that had started by then is not."""

    def __init__(self, since_us: float | None = None, last: int = DEFAULT_LAST,
                 profile=None):
        if last < 1:
            raise ValueError(_("last must be at least 1 task, not {last}").format(last=last))
        self.since_us, self.last = since_us, last
        self.tasks: list[dict] = []
        self.host: list[HostSpan] = []      # from the trace
        self.names: dict[int, str] = {}
        self.note = ""
        self.generation = None     # of the process at the last look
        #: a profile's folder and contents (ValueError if it is not one): drawn, not the process
        self.profile = None if profile is None else (profile, profile_data.read(profile))

    def refresh(self) -> None:
        """Look again; after a reset the tasks last seen stay, and the note says so."""
        if self.profile is not None:
            self._show_profile(*self.profile)
            return
        now = generation()
        if self.generation not in (None, now) and self.tasks:
            self.note = _("{gone} (the process was reset since)").format(gone=_(GONE))
            return
        self.generation = now
        snap = acl_lab.snapshot()
        rows, since = snap.get("timeline") or [], self.since_us
        if since is not None:
            rows = [r for r in rows if r["start_us"] > since]
        self.tasks = rows
        self.host = host_time(acl_lab.tracer().calls, since)
        self.names = stream_names()
        if rows:
            self.note = ""
        elif snap.get("backend", "sim") != "sim":
            self.note = no_timeline_note(snap, N_("stream time"))
        elif since is None:
            self.note = _("no task on any stream yet: async copies and memsets, aclnn "
                          "operators, event records and model replays put tasks here")
        else:
            self.note = _("no task on any stream after {time} yet: async copies and memsets, "
                          "aclnn operators, event records and model replays put tasks "
                          "here").format(time=us(since))

    def _show_profile(self, path, profile: profile_data.Profile) -> None:
        """A written profile: its tasks, its msproftx marks (zero long) and ranges."""
        since = self.since_us
        self.tasks = [r for r in profile.tasks if since is None or r["start_us"] > since]
        self.host = [HostSpan(m.start_us, m.end_us, "range" if m.end_us > m.start_us
                              else "mark", m.thread, m.message, None)
                     for m in profile.marks if since is None or m.start_us > since]
        self.names = {}
        self.note = "" if self.tasks else _(
            "no task in the profile {path}: a collection records tasks with "
            "ACL_PROF_TASK_TIME in its dataTypeConfig").format(path=path)

    def window(self) -> list[dict]:
        return self.tasks[-self.last:]

    def span(self) -> tuple[float, float]:
        """Modeled start of the window's first task and end of its last (never empty)."""
        window = self.window()
        if not window:
            return 0.0, 1.0
        t0 = min(r["start_us"] for r in window)
        return t0, max(max(r["end_us"] for r in window), t0 + 1e-3)

    def axis(self) -> tuple[float, float]:
        """The time the picture covers: the window's tasks, from the launch of the first
        (a launch ends where its task may start) to the end of the host calls still
        running when the last task ended (the wait for it)."""
        t0, t1 = self.span()
        issued = {_task_key(r) for r in self.window()}
        starts = [h.start for h in self.host if h.kind == "launch" and h.task in issued]
        ends = [h.end for h in self.host if h.start < t1 and h.end > t0]
        return min([t0, *starts]), max([t1, *ends])

    def streams(self) -> list[tuple[int, int, float, float, float]]:
        """(stream, tasks, busy µs, first start, last end) per stream of the window."""
        per: dict[int, list] = {}
        for r in self.window():
            s = per.setdefault(r["stream"], [0, 0.0, r["start_us"], r["end_us"]])
            s[0] += 1
            s[1] += r["end_us"] - r["start_us"]
            s[3] = max(s[3], r["end_us"])
        return [(h, *per[h]) for h in sorted(per)]

    def host_spans(self) -> list[HostSpan]:
        """The host calls the picture's time axis covers."""
        t0, t1 = self.axis()
        return [h for h in self.host if h.end > t0 and h.start < t1]

    def host_lanes(self) -> list[tuple[str, list[HostSpan]]]:
        """One lane per thread that made calls in the window, the main thread first:
        "host" alone, or "host (thread-1)" beside "host (main)"."""
        per: dict[str, list[HostSpan]] = {}
        for h in self.host_spans():
            per.setdefault(h.thread, []).append(h)
        threads = sorted(per, key=lambda t: (t != "main", t))
        if len(threads) == 1:
            return [(_("host"), per[threads[0]])]
        return [(_("host ({thread})").format(thread=t), per[t]) for t in threads]

    def label(self, stream: int) -> str:
        return stream_label(stream, self.names)

    def lanes(self) -> list[tuple[str, list[tuple[float, float, str, str]]]]:
        """The host (when the trace has time in the window), then one lane per stream:
        (name, [(start_us, end_us, kind, hover text)])."""
        by_stream: dict[int, list] = {}
        for r in self.window():
            by_stream.setdefault(r["stream"], []).append(
                (r["start_us"], r["end_us"], r["kind"], self.hover(r)))
        t0, t1 = self.axis()
        noun = "call" if self.profile is None else "msproftx"
        lanes = [(lane_name(name, count(len(spans), noun), _busy(spans, t0, t1)),
                  [(h.start, h.end, h.kind, span_text(f"{h.name} ({kind_label(h.kind)})",
                                                      h.start, h.end)) for h in spans])
                 for name, spans in self.host_lanes()]
        return lanes + [(lane_name(self.label(h), count(n, "task"), busy), by_stream[h])
                        for h, n, busy, _first, _last in self.streams()]

    def hover(self, r: dict) -> str:
        """A task's kind, bytes, stream and modeled time, for its box's hover text."""
        what = kind_label(r["kind"])
        if r.get("nbytes"):
            what += f" {r['nbytes']} B"
        if r.get("model") is not None:
            what = _("{what} of model {model}").format(what=what, model=f"0x{r['model']:x}")
        return _("{what} on {stream}: {start} to {end} ({duration})").format(
            what=what, stream=self.label(r["stream"]), start=us(r["start_us"]),
            end=us(r["end_us"]), duration=duration(r["end_us"] - r["start_us"]))

    def lane_of(self) -> dict[int, int]:
        """stream -> its lane's index in ``lanes()``."""
        first = len(self.host_lanes())
        return {h: i for i, (h, *_) in enumerate(self.streams(), start=first)}

    def links(self) -> list[tuple[tuple[int, float], tuple[int, float]]]:
        """(lane, time) of an event's record -> (lane, time) of each wait it releases."""
        lane = self.lane_of()
        recorded, out = {}, []
        for r in self.window():
            event = r.get("event")
            if r["kind"] == "record":
                recorded[event] = (lane[r["stream"]], r["end_us"])
            elif r["kind"] == "wait" and event in recorded:
                out.append((recorded[event], (lane[r["stream"]], r["start_us"])))
        return out

    def labels(self) -> list[tuple[int, float, float, str]]:
        """Model replays wide enough to carry the model's handle."""
        window = self.window()
        if len(window) > LABELLED_BOXES:
            return []
        t0, t1 = self.span()
        lane = self.lane_of()
        return [(lane[r["stream"]], r["start_us"], r["end_us"], f"0x{r['model']:x}")
                for r in window if r["kind"] == "model" and r.get("model") is not None
                and r["end_us"] - r["start_us"] >= 0.12 * (t1 - t0)]

    def heading(self) -> str:
        if not self.window():
            return self.note
        n, total = len(self.window()), len(self.tasks)
        t0, t1 = self.span()
        tasks, streams = count(n, "task"), count(len(self.streams()), "stream")
        if n < total:
            text = _("{tasks} on {streams} (the last {n} of {total}), modeled {start} to "
                     "{end}").format(tasks=tasks, streams=streams, n=n, total=total,
                                     start=us(t0), end=us(t1))
        else:
            text = _("{tasks} on {streams}, modeled {start} to {end}").format(
                tasks=tasks, streams=streams, start=us(t0), end=us(t1))
        return _("{note}: {text}").format(note=self.note, text=text) if self.note else text

    def state(self) -> tuple:
        """Changes whenever the picture would: cheap to compare, so refreshes can skip."""
        return (self.last, len(self.tasks), tuple(self.tasks[-1].values()) if self.tasks else (),
                len(self.host), tuple(self.host[-1:]), self.note, tuple(self.names.items()))


    def svg(self) -> str:
        return draw_timeline(self)


def draw_timeline(scene: TimelineScene) -> str:
    """SVG of the model's window: the host lane, then one lane per stream."""
    if not scene.window():
        return message(_("Stream timeline"), scene.note)
    t0, t1 = scene.axis()
    return lanes_picture(_("Stream timeline: {heading}").format(heading=scene.heading()),
                         scene.lanes(), t0, t1, scene.links(), scene.labels())


class StreamTimeline(RefreshOnNewCalls, widgets.VBox):
    """Modeled time per stream, from ``acl_lab.snapshot()["timeline"]`` and the trace, as
    it was when the cell ran.

    ``since_us``: show only tasks that start after this modeled time; ``last``: how
    many of the latest tasks to draw (the slider changes it). Looks again on its button and
    ``refresh()``, and after every cell when ``live=True``. ``profile``: the PROF_* folder
    a program's acl.prof.stop wrote, drawn in place of the process."""

    def __init__(self, since_us: float | None = None, last: int = DEFAULT_LAST,
                 live: bool = False, profile=None):
        self.scene = TimelineScene(since_us, last, profile)
        self._seen = self._shown = None
        self._syncing = False
        self.picture = widgets.HTML()
        self.last = widgets.IntSlider(value=1, min=1, max=1, description=_("last tasks"),
                                      continuous_update=False, layout={"width": "420px"})
        self.refresh_button = widgets.Button(description=_("refresh"))
        self.readout = widgets.HTML()
        super().__init__(children=[self.picture,
                                   widgets.HBox([self.last, self.refresh_button]), self.readout])
        self.last.observe(self._on_last, "value")
        self.refresh_button.on_click(lambda _: self.refresh(force=True))
        self.refresh()
        self._follow_cells(live)

    def _on_last(self, change) -> None:
        if not self._syncing:
            self.scene.last = change["new"]
            self._redraw()

    def _redraw(self) -> None:
        m = self.scene
        state = m.state()
        if state == self._shown:
            return
        self._shown = state
        n = len(m.tasks)
        self._syncing = True
        try:   # widen before moving the value, narrow after: the slider never clamps it
            self.last.max = max(self.last.max, n, 1)
            self.last.value = max(1, min(m.last, n))
            self.last.max = max(n, 1)
        finally:
            self._syncing = False
        self.last.disabled = n <= 1
        self.readout.value = _readout_html(m)
        self.picture.value = m.svg()

    def show_error(self, text: str) -> None:
        self.readout.value = f"<code>{escape(text)}</code>"

    def summary(self) -> str:
        return _("StreamTimeline: {heading}").format(heading=self.scene.heading())

    def svg(self) -> str:
        return self.scene.svg()


def _readout_html(scene: TimelineScene) -> str:
    """Total modeled time per stream: busy (sum of its tasks) and span (first to last)."""
    rows = "".join(f"<tr><td>{escape(scene.label(h))}</td><td>{n}</td><td>{us(busy)}</td>"
                   f"<td>{us(first)} – {us(last)}</td></tr>"
                   for h, n, busy, first, last in scene.streams())
    if not rows:
        return ""
    head = "".join(f"<th>{escape(_(h))}</th>" for h in READOUT_HEADER)
    return f"<table style='border-spacing: 16px 0'><tr>{head}</tr>{rows}</table>"
