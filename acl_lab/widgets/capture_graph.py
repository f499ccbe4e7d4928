"""CaptureGraph: the tasks a capture recorded into a model RI, the data flowing between
them, and the model's replays.

The recorded tasks (``acl_lab.snapshot()["models"]``) are drawn as boxes in the order a
replay runs them. An arc joins two tasks when one reads bytes the other wrote: above the
boxes within one replay, dashed below when the read happens at the next replay (the loop
by which docs/rules.md#rule-24 turns 1.1 into 8.8). Task byte ranges come from the recorded
pointers and sizes; an operator's tensors count as their whole allocation. Below, each
replay on modeled time: asynchronous ones on the stream that ran them, synchronous
``aclmdlRIExecute`` calls on the host lane (from the trace). A task picker shows every
recorded field of one task as a small table.
"""
from __future__ import annotations

from html import escape
from typing import NamedTuple

import ipywidgets as widgets

import acl_lab

from acl_lab.i18n import N_, _, join_list, pgettext
from acl_lab.widgets._base import GONE, generation
from acl_lab.widgets._svg import MUTED, Svg, format_bytes, message, num, text_width
from acl_lab.widgets._tasks import (LANE_H, PLOT_W, RefreshOnNewCalls, color, count, draw_lanes, duration,
                     lanes_width, no_timeline_note, short_ptr, span_text, stream_label,
                     stream_names, task_legend)

COLUMNS = 7                          # boxes across; a longer model shows a window of them
BOX_W, BOX_H, GAP, CHANNEL = 112, 86, 24, 34   # CHANNEL: the room above, between, below lanes
POINTERS = ("dst", "src", "ptr", "out", "workspace")   # recorded fields that hold addresses
HANDLES = ("event", "model")                           # recorded fields that hold handles
FLOW, LOOP, EVENT = "#2a7ab9", "#8172b3", "#c44e52"


def _direction(name: str) -> str:
    """ACL_MEMCPY_HOST_TO_DEVICE -> H2D."""
    parts = name.removeprefix("ACL_MEMCPY_").split("_TO_")
    return "2".join(p[0] for p in parts) if len(parts) == 2 else name.removeprefix("ACL_MEMCPY_")


def task_name(t: dict) -> str:
    return f"#{t['seq']} {t['kind']}" + (f" {t['op']}" if "op" in t else "")


def task_lines(t: dict) -> list[str]:
    """What a box says about a recorded task: name, bytes, the pointers it will touch at
    every replay, modeled cost."""
    if "direction" in t:
        lines = [f"{_direction(t['direction'])} {format_bytes(t['nbytes'])}",
                 f"src {short_ptr(t['src'])}", f"dst {short_ptr(t['dst'])}"]
    elif "value" in t:
        lines = [f"{format_bytes(t['nbytes'])} = 0x{t['value']:02x}",
                 _("at {ptr}").format(ptr=short_ptr(t["ptr"]))]
    elif "out" in t:
        lines = [f"{format_bytes(t['nbytes'])} {t.get('shape', '')}", f"out {short_ptr(t['out'])}"]
    else:
        lines = [format_bytes(t["nbytes"])]
    return [task_name(t), *lines, duration(t["duration_us"])]


def _value(key: str, v, names: dict[int, str]) -> str:
    if key == "stream" and isinstance(v, int):
        return f"{names[v]} (0x{v:x})" if v in names else stream_label(v, names)
    if key in POINTERS + HANDLES and isinstance(v, int):
        return f"0x{v:x}"
    if key == "inputs" and isinstance(v, list):
        return ", ".join(f"0x{p:x}" for p in v)
    if key == "duration_us":
        return _("{duration} (modeled)").format(duration=duration(v))
    if isinstance(v, bool):
        return _("yes") if v else _("no")
    return str(v)


def _field_labels() -> dict[str, str]:
    """What each recorded field of a task is called in the learner's language (English: the
    snapshot's own keys, spec/snapshot_schema.TaskRow)."""
    return {"seq": pgettext("task field", "seq"), "stream": pgettext("task field", "stream"),
            "kind": pgettext("task field", "kind"), "nbytes": pgettext("task field", "nbytes"),
            "duration_us": pgettext("task field", "duration_us"),
            "ptr": pgettext("task field", "ptr"), "value": pgettext("task field", "value"),
            "size": pgettext("task field", "size"), "dst": pgettext("task field", "dst"),
            "src": pgettext("task field", "src"),
            "direction": pgettext("task field", "direction"),
            "pinned": pgettext("task field", "pinned"), "width": pgettext("task field", "width"),
            "height": pgettext("task field", "height"), "event": pgettext("task field", "event"),
            "op": pgettext("task field", "op"), "inputs": pgettext("task field", "inputs"),
            "out": pgettext("task field", "out"), "shape": pgettext("task field", "shape"),
            "workspace": pgettext("task field", "workspace"),
            "model": pgettext("task field", "model"), "tasks": pgettext("task field", "tasks"),
            "execution": pgettext("task field", "execution"),
            "task": pgettext("task field", "task"), "updated": pgettext("task field", "updated"),
            "offline_model": pgettext("task field", "offline_model"),
            "block": pgettext("task field", "block")}


def task_details(t: dict, names: dict[int, str]) -> list[tuple[str, str]]:
    """Every recorded field of a task, named in the learner's language, addresses and
    handles in hex, a named stream by its name (``acl_lab.name``), yes / no for flags."""
    labels = _field_labels()
    return [(labels.get(k, k), _value(k, v, names)) for k, v in t.items()]


def accesses(t: dict, allocations: list[tuple[int, int]]) -> tuple[list, list]:
    """(reads, writes) of a recorded task, as [start, end) byte ranges."""
    n = t.get("nbytes", 0)

    def whole(ptr: int) -> tuple[int, int]:
        return next(((a, a + size) for a, size in allocations if a <= ptr < a + size),
                    (ptr, ptr + 1))
    if "src" in t and "dst" in t:
        return [(t["src"], t["src"] + n)], [(t["dst"], t["dst"] + n)]
    if "ptr" in t:
        return [], [(t["ptr"], t["ptr"] + n)]
    if "out" in t:
        return [whole(p) for p in t.get("inputs", [])], [whole(t["out"])]
    return [], []


def data_flow(tasks: list[dict], allocations) -> list[tuple[int, int, bool]]:
    """(writer seq, reader seq, next replay?) for every task that reads bytes another wrote
    and no task in between overwrote: earlier in the same replay, or (a loop) later, so the
    bytes reach it at the next replay."""
    ranges = [accesses(t, allocations) for t in tasks]
    n, out = len(tasks), []

    def overlap(a, b):
        lo, hi = max(a[0], b[0]), min(a[1], b[1])
        return (lo, hi) if lo < hi else None

    for j, (reads, _) in enumerate(ranges):
        for read in reads:
            # writers from the latest backwards, wrapping around into the previous replay
            for back in range(1, n + 1):
                i = (j - back) % n
                hits = [h for w in ranges[i][1] if (h := overlap(w, read))]
                between = [(j - b) % n for b in range(1, back)]
                if any(not any(lo <= h[0] and h[1] <= hi for k in between
                               for lo, hi in ranges[k][1]) for h in hits):
                    edge = (tasks[i]["seq"], tasks[j]["seq"], i >= j)
                    if edge not in out:
                        out.append(edge)
    return out


class CaptureGraphScene:
    """The model RI ``handle`` as plain data, as of the last look: its snapshot entry and
    replays (kept once the model is gone, as last seen), the data flow between its tasks,
    the selected task (its seq) and a note on its state."""

    def __init__(self, handle: int):
        if not isinstance(handle, int) or isinstance(handle, bool):
            raise TypeError(_("CaptureGraph(model): pass the model handle (an int) that "
                              "acl.mdl.ri_capture_end returned, not {type}").format(
                type=type(handle).__name__))
        self.handle = handle
        self.info: dict | None = None
        self.flow: list[tuple[int, int, bool]] = []
        self.replays: list[tuple[int, float, float]] = []     # (stream, start_us, end_us)
        self.sync_replays: list[tuple[float, float]] = []     # host time of aclmdlRIExecute
        self.names: dict[int, str] = {}
        self.selected: int | None = None
        self.note = ""
        self.gone = False          # the model is gone: what is shown is as last seen
        self.generation = None

    def refresh(self) -> None:
        now = generation()
        if self.info is not None and now != self.generation:
            self.note, self.gone = _("the process was reset: {gone}").format(gone=_(GONE)), True
            return
        self.generation = now
        snap, h = acl_lab.snapshot(), self.handle
        info = next((m for m in snap.get("models") or [] if m["handle"] == h), None)
        if info is None and self.info is not None:
            self.note, self.gone = _("destroyed: {gone}").format(gone=_(GONE)), True
            return
        self.gone = False
        self.replays = [(r["stream"], r["start_us"], r["end_us"])
                        for r in snap.get("timeline") or []
                        if r["kind"] == "model" and r.get("model") == h]
        self.sync_replays = [(c.start_us, c.end_us) for c in acl_lab.tracer().calls
                             if c.name == "mdl.ri_execute" and c.args[:1] == (h,) and c.ret == 0]
        self.names = stream_names()
        if info is not None:
            self.info = info
            allocations = [(a["ptr"], a["size"]) for a in snap.get("allocations") or []]
            self.flow = data_flow(info["tasks"], allocations)
            self.note = "" if info["ready"] else _("still capturing: the tasks recorded so far")
        elif snap.get("backend", "sim") != "sim":
            self.note = no_timeline_note(snap, N_("captured models"))
        else:
            self.note = _("{handle} is not a captured model: pass the handle that "
                          "acl.mdl.ri_capture_end returned").format(handle=f"0x{h:x}")
        seqs = [t["seq"] for t in self.tasks()]
        if self.selected not in seqs:
            self.selected = seqs[0] if seqs else None

    def tasks(self) -> list[dict]:
        return self.info["tasks"] if self.info else []

    def task(self, seq: int | None) -> dict | None:
        return next((t for t in self.tasks() if t["seq"] == seq), None)

    def label(self, stream: int) -> str:
        return stream_label(stream, self.names)

    def shown(self) -> list[dict]:
        """The boxes drawn: every task, or a window of them around the selected one."""
        tasks, most = self.tasks(), COLUMNS
        if len(tasks) <= most:
            return tasks
        at = next((i for i, t in enumerate(tasks) if t["seq"] == self.selected), 0)
        first = min(max(at - most // 2, 0), len(tasks) - most)
        return tasks[first:first + most]

    def heading(self) -> str:
        if self.info is None:
            return _("model {handle}: {note}").format(handle=f"0x{self.handle:x}",
                                                      note=self.note)
        m, tasks = self.info, self.tasks()
        text = _("model RI {handle} captured on stream {stream} (device {device}): {tasks}, "
                 "{size}, {replays}").format(
            handle=f"0x{m['handle']:x}", stream=self.label(m["stream"]), device=m["device"],
            tasks=count(len(tasks), "task"), size=format_bytes(sum(t["nbytes"] for t in tasks)),
            replays=count(m["executions"], "replay"))
        return _("{heading} - {note}").format(heading=text, note=self.note) if self.note \
            else text

    def flow_text(self, seq: int) -> list[str]:
        """What the task ``seq`` reads from others and hands to others."""
        out = []
        for w, r, loop in self.flow:
            if r == seq:
                out.append((_("reads what #{writer} wrote at the next replay") if loop else
                            _("reads what #{writer} wrote")).format(writer=w))
            if w == seq:
                out.append((_("#{reader} reads what it wrote at the next replay") if loop else
                            _("#{reader} reads what it wrote")).format(reader=r))
        return out

    def replay_text(self) -> str:
        """The replays in one short line (the picture shows each): per stream how many, from
        when to when and how long each took, then the synchronous ones."""
        if not self.replays and not self.sync_replays:
            return _("not replayed yet")
        parts = []
        for stream in dict.fromkeys(s for s, _a, _b in self.replays):    # one part per stream
            spans = [(a, b) for s, a, b in self.replays if s == stream]
            parts.append(_("{n} on {stream}, {start:.1f}-{end:.1f} µs, {each:.1f} µs "
                           "each").format(n=len(spans), stream=self.label(stream),
                                          start=spans[0][0], end=spans[-1][1],
                                          each=sum(b - a for a, b in spans) / len(spans)))
        if self.sync_replays:
            parts.append(_("{n} synchronous (aclmdlRIExecute)").format(n=len(self.sync_replays)))
        return _("replays: {replays}").format(replays=join_list(parts))

    def details_html(self) -> str:
        """The selected task's recorded fields and data flow, as a small table."""
        t = self.task(self.selected)
        if t is None:
            return f"<i>{escape(self.note or _('no task recorded'))}</i>"
        rows = task_details(t, self.names) + [(_("data flow"), line) for line in self.flow_text(t["seq"])]
        body = "".join(f"<tr><th style='text-align: left; padding-right: 12px'>{escape(k)}</th>"
                       f"<td><code>{escape(v)}</code></td></tr>" for k, v in rows)
        return f"<table>{body}</table>"

    def state(self) -> tuple:
        """Changes whenever the picture would: cheap to compare, so refreshes can skip."""
        m = self.info
        return (self.selected, self.note, m and (m["executions"], len(m["tasks"])),
                tuple(self.replays), tuple(self.sync_replays), tuple(self.names.items()))

    def svg(self) -> str:
        return draw_capture_graph(self)


class Box(NamedTuple):
    x: float
    y: float
    w: float
    h: float


class Edge(NamedTuple):
    """An arrow of the chain: a polyline of horizontal and vertical steps that runs only
    through the gaps between columns and the channels between lanes, never over a box."""
    points: list[tuple[float, float]]
    kind: str          # "flow", "loop", "order" or "event"
    title: str


def _lane_streams(scene: "CaptureGraphScene") -> list[int]:
    """Streams of the model, one lane each: the origin first, then the others in the order
    their first task was recorded."""
    origin = scene.info["stream"] if scene.info else None
    seen = [origin] if origin is not None else []
    for t in scene.tasks():
        if t["stream"] not in seen:
            seen.append(t["stream"])
    return seen


def chain_layout(scene: "CaptureGraphScene", top: float, left: float):
    """Where the shown tasks go: one lane per stream, one column per task in replay order.
    Returns ({seq: Box}, [Edge], [(stream, lane top)], height)."""
    shown = scene.shown()
    streams = _lane_streams(scene)
    lane = {s: i for i, s in enumerate(streams)}
    used = sorted({lane[t["stream"]] for t in shown})
    row = {ln: k for k, ln in enumerate(used)}                  # lanes with a shown task
    boxes = {t["seq"]: Box(left + i * (BOX_W + GAP), top + CHANNEL + row[lane[t["stream"]]]
                           * (BOX_H + CHANNEL), BOX_W, BOX_H) for i, t in enumerate(shown)}
    column = {t["seq"]: i for i, t in enumerate(shown)}
    tracks: dict[tuple, int] = {}

    def track(key) -> int:
        tracks[key] = tracks.get(key, -1) + 1
        return tracks[key]

    def channel_y(k: int, t: int) -> float:
        """A track in channel k (k = 0 above the first lane, k = n below the last)."""
        return top + k * (BOX_H + CHANNEL) + CHANNEL / 2 - 8 + (t % 4) * 5

    def gap_x(col: int, t: int) -> float:
        """A track in the gap before column ``col``."""
        return left + col * (BOX_W + GAP) - GAP / 2 - 4 + (t % 3) * 4

    def route(a: Box, b: Box, ca: int, cb: int, below: bool, ka: int, kb: int):
        """From a's top (bottom when ``below``) to b's, through channel and gap tracks."""
        xa, xb = a.x + a.w * 0.62, b.x + b.w * 0.38
        ya, yb = (a.y + a.h, b.y + b.h) if below else (a.y, b.y)
        cha = row_of[ka] + (1 if below else 0)
        chb = row_of[kb] + (1 if below else 0)
        ty = channel_y(cha, track(("c", cha)))
        if cha == chb:
            return [(xa, ya), (xa, ty), (xb, ty), (xb, yb)]
        gx = gap_x(cb, track(("g", cb)))
        ty2 = channel_y(chb, track(("c", chb)))
        return [(xa, ya), (xa, ty), (gx, ty), (gx, ty2), (xb, ty2), (xb, yb)]

    row_of = {t["seq"]: row[lane[t["stream"]]] for t in shown}
    edges = []
    for w, r, loop in scene.flow:
        if w in boxes and r in boxes:
            what = (_("#{reader} reads what #{writer} wrote at the next replay") if loop else
                    _("#{reader} reads what #{writer} wrote")).format(reader=r, writer=w)
            edges.append(Edge(route(boxes[w], boxes[r], column[w], column[r], loop, w, r),
                              "loop" if loop else "flow", what))
    last_on: dict[int, int] = {}
    recorded: dict[int, int] = {}
    for t in shown:
        seq, b = t["seq"], boxes[t["seq"]]
        before = last_on.get(t["stream"])
        if before is not None:           # the next task on the same stream: straight along
            a = boxes[before]
            edges.append(Edge([(a.x + a.w + 2, a.y + a.h / 2), (b.x - 2, b.y + b.h / 2)],
                              "order", _("replay order")))
        last_on[t["stream"]] = seq
        if t["kind"] == "record" and t.get("event") is not None:
            recorded[t["event"]] = seq
        elif t["kind"] == "wait" and recorded.get(t.get("event")) is not None:
            src = recorded[t["event"]]
            a, ra, rb = boxes[src], row_of[src], row_of[seq]
            if ra != rb:                 # out of a's right side, into b's left side
                cha = max(ra, rb) if rb > ra else min(ra, rb) + 1   # the channel next to b
                gx = gap_x(column[src] + 1, track(("g", column[src] + 1)))
                ty = channel_y(cha, track(("c", cha)))
                gx2 = gap_x(column[seq], track(("g", column[seq])))
                ya, yb = a.y + a.h * 0.75, b.y + b.h * 0.75    # below the order arrows
                edges.append(Edge([(a.x + a.w, ya), (gx, ya), (gx, ty), (gx2, ty), (gx2, yb),
                                   (b.x, yb)], "event",
                                  _("event {event}: #{wait} waits for #{record}").format(
                                      event=f"0x{t['event']:x}", wait=seq, record=src)))
    lanes = [(streams[ln], top + CHANNEL + k * (BOX_H + CHANNEL)) for ln, k in row.items()]
    return boxes, edges, lanes, len(used) * (BOX_H + CHANNEL) + CHANNEL


EDGE_STYLE = {"flow": (FLOW, 1.4, None), "loop": (LOOP, 1.4, "5 3"),
              "order": ("#333333", 1.0, None), "event": (EVENT, 1.1, "4 3")}


def _draw_chain(svg: Svg, scene: CaptureGraphScene, top: float, left: float) -> float:
    """The shown tasks as boxes, one lane per stream, with the order, event and data-flow
    arrows; returns the height used."""
    boxes, edges, lanes, height = chain_layout(scene, top, left)
    for stream, y in lanes:
        first = scene.label(stream)
        role = _("origin stream") if scene.info and stream == scene.info["stream"] else _("joined stream")
        svg.text(left - 10, y + BOX_H / 2 - 2, first, size=10.5, anchor="end", weight="bold")
        svg.text(left - 10, y + BOX_H / 2 + 11, role, size=9, anchor="end", fill=MUTED)
    for t in scene.shown():
        b = boxes[t["seq"]]
        picked = t["seq"] == scene.selected
        hover = "\n".join(f"{k}: {v}" for k, v in task_details(t, scene.names))
        svg.rect(b.x, b.y, b.w, b.h, color(t["kind"]), opacity="0.18", rx=5,
                 stroke="#000000" if picked else color(t["kind"]),
                 stroke_width=2.2 if picked else 1.0, title=hover)
        for k, line in enumerate(task_lines(t)):
            svg.text(b.x + b.w / 2, b.y + 16 + k * 15, line, size=11 if k == 0 else 9.5,
                     anchor="middle", weight="bold" if k == 0 else None, title=hover)
    for e in edges:
        stroke, width, dash = EDGE_STYLE[e.kind]
        svg.path(" ".join(f"{'M' if i == 0 else 'L'}{num(x)},{num(y)}"
                          for i, (x, y) in enumerate(e.points)),
                 stroke=stroke, width=width, dash=dash, title=e.title)
        (x1, y1), (x2, y2) = e.points[-2:]
        svg.head(x2, y2, x2 - x1, y2 - y1, stroke)
    total = len(scene.tasks())
    shown = scene.shown()
    if len(shown) < total:
        svg.text(left + len(shown) * (BOX_W + GAP) - GAP, top + height + 4,
                 _("tasks {first}-{last} of {total}").format(
                     first=shown[0]["seq"], last=shown[-1]["seq"], total=total), size=10,
                 anchor="end", italic=True)
        height += 12
    return height


def _replay_lanes(scene: CaptureGraphScene):
    streams = sorted({s for s, _, _ in scene.replays})
    lanes = [(f"{scene.label(s)}\n{count(sum(r[0] == s for r in scene.replays), 'replay')}",
              [(a, b, "model", span_text(_("replay #{k} on {stream}").format(
                  k=k, stream=scene.label(r)), a, b))
               for k, (r, a, b) in enumerate(scene.replays, 1) if r == s]) for s in streams]
    if scene.sync_replays:
        lanes.append((_("host") + "\naclmdlRIExecute",
                      [(a, b, "model", span_text("aclmdlRIExecute", a, b))
                       for a, b in scene.sync_replays]))
    return lanes


def draw_capture_graph(scene: CaptureGraphScene) -> str:
    """SVG: the chain of recorded tasks with their data flow, then the replays on modeled
    time."""
    if not scene.tasks():
        return message(_("Capture graph"), scene.heading())
    title = scene.heading()
    lanes = _replay_lanes(scene)
    left = lanes_width(lanes) + 20 if lanes else 0
    chain_left = max([text_width(scene.label(s), 10.5) for s in _lane_streams(scene)]
                     + [text_width(_("origin stream"), 9), text_width(_("joined stream"), 9)]) + 22
    chain_w = chain_left + min(len(scene.tasks()), COLUMNS) * (BOX_W + GAP) - GAP + 12
    width = max(chain_w, left + PLOT_W + 24, text_width(title, 12) + 16)
    svg = Svg(width, 0)
    svg.text(8, 18, title, size=12, weight="bold")
    key = [(FLOW, _("data: a task reads what an earlier one wrote")),
           (LOOP, _("dashed: read at the next replay")), ("#333333", _("replay order"))]
    if any(t["kind"] == "wait" for t in scene.shown()):
        key.append((EVENT, _("event: a wait follows its record")))
    y = 24 + svg.legend(8, 26, key, width=width - 16)
    y += _draw_chain(svg, scene, y, chain_left)
    if not lanes:
        svg.text(8, y + 16, _("not replayed yet: acl.mdl.ri_execute_async(model, stream) runs "
                              "every task above with one launch"), size=10.5, fill=MUTED)
        svg.height = y + 26
        return str(svg)
    spans = [s for _, lane in lanes for s in lane]
    t0, t1 = min(s[0] for s in spans), max(s[1] for s in spans)
    lane = {s: i for i, s in enumerate(sorted({r[0] for r in scene.replays}))}
    labels = [(lane[s], a, b, f"#{k}") for k, (s, a, b) in enumerate(scene.replays, 1)] \
        if len(spans) <= 40 else []
    svg.text(8, y + 14, _("replays on modeled time"), size=11, weight="bold")
    kinds = draw_lanes(svg, y + 22, left, lanes, t0, max(t1, t0 + 1e-3), labels=labels)
    bottom = y + 22 + LANE_H * len(lanes) + 38
    svg.height = bottom + svg.legend(8, bottom, task_legend(kinds), width=width - 16) + 4
    return str(svg)


class CaptureGraph(RefreshOnNewCalls, widgets.VBox):
    """The recorded tasks of model RI ``model`` (the handle ``acl.mdl.ri_capture_end``
    returned), the data flowing between them, and its replays, as they were when the cell
    ran; pick a task to see all it recorded. Looks again on its button and ``refresh()``,
    and after every cell when ``live=True``."""

    def __init__(self, model: int, live: bool = False):
        self.scene = CaptureGraphScene(model)
        self._seen = self._shown = None
        self._syncing = False
        self.picture = widgets.HTML()
        self.task = widgets.Dropdown(options=[], description=_("task"),
                                     layout={"width": "360px"})
        self.refresh_button = widgets.Button(description=_("refresh"))
        self.replays = widgets.HTML()
        self.details = widgets.HTML()
        super().__init__(children=[self.picture, self.replays,
                                   widgets.HBox([self.task, self.refresh_button]), self.details])
        self.task.observe(self._on_pick, "value")
        self.refresh_button.on_click(lambda _: self.refresh(force=True))
        self.refresh()
        self._follow_cells(live)

    def _on_pick(self, change) -> None:
        if not self._syncing and change["new"] is not None:
            self.scene.selected = change["new"]
            self._redraw()

    def _redraw(self) -> None:
        m = self.scene
        state = m.state()
        if state == self._shown:
            return
        self._shown = state
        self._syncing = True
        try:
            options = [(f"{task_name(t)} · {format_bytes(t['nbytes'])}", t["seq"])
                       for t in m.tasks()]
            if list(self.task.options) != options:
                self.task.options = options
            self.task.value = m.selected
        finally:
            self._syncing = False
        self.replays.value = escape(m.replay_text())
        self.details.value = m.details_html()
        self.picture.value = m.svg()

    def show_error(self, text: str) -> None:
        self.details.value = f"<code>{escape(text)}</code>"

    def summary(self) -> str:
        m = self.scene
        if m.info is None:
            return _("CaptureGraph: {note}").format(note=m.note)
        names = [t.get("op", t["kind"]) for t in m.tasks()]
        chain = " → ".join(names[:4]) + (" → …" if len(names) > 4 else "")
        text = _("model {handle}, {tasks} ({chain}), {replays}").format(
            handle=f"0x{m.handle:x}", tasks=count(len(names), "task"), chain=chain,
            replays=count(m.info["executions"], "replay"))
        return _("CaptureGraph: {note}").format(
            note=_("{note}: {text}").format(note=m.note, text=text) if m.gone else text)

    def svg(self) -> str:
        return self.scene.svg()
