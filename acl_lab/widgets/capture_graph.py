"""CaptureGraph: the tasks a capture recorded into a model RI, and the model's replays.

The recorded tasks (``acl_lab.snapshot()["models"]``) are drawn as a chain of boxes in the
order a replay runs them: kind, bytes, operator, the pointers the task will touch again at
every replay. Below, each replay on modeled time: asynchronous ones on the stream that ran
them (``snapshot()["timeline"]``), synchronous ``aclmdlRIExecute`` calls on the host lane
(from the trace). A task picker shows every recorded field of one task.
"""
from __future__ import annotations

from html import escape

import ipywidgets as widgets

import acl_lab

from ._base import StaticPicture
from ._figure import format_bytes, render
from ._tasks import (RefreshOnNewCalls, color, count, draw_lanes, duration, message_picture,
                     no_timeline_note, short_ptr, stream_label)

PER_ROW, MAX_ROWS = 6, 2            # boxes of the chain; a longer model shows a window of it
WIDTH_IN, ROW_IN, LANE_IN, TOP_IN, AXIS_IN = 9.0, 1.05, 0.4, 0.35, 0.45
POINTERS = ("dst", "src", "ptr", "out", "workspace")   # recorded fields that hold addresses
SYNC_LANE = "host\naclmdlRIExecute"


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
        lines = [f"{format_bytes(t['nbytes'])} = 0x{t['value']:02x}", f"at {short_ptr(t['ptr'])}"]
    elif "out" in t:
        lines = [f"{format_bytes(t['nbytes'])} {t.get('shape', '')}", f"out {short_ptr(t['out'])}"]
    else:
        lines = [format_bytes(t["nbytes"])]
    return [task_name(t), *lines, duration(t["duration_us"])]


def task_details(t: dict) -> list[tuple[str, str]]:
    """Every recorded field of a task, addresses in hex."""
    return [(k, f"0x{v:x}" if k in POINTERS and isinstance(v, int) else str(v))
            for k, v in t.items()]


class CaptureGraphModel:
    """The model RI ``handle`` as plain data: its snapshot entry (kept once destroyed, as
    last seen), its replays, the selected task (its seq) and a note on its state."""

    def __init__(self, handle: int):
        if not isinstance(handle, int) or isinstance(handle, bool):
            raise TypeError(f"CaptureGraph(model): pass the model handle (an int) that "
                            f"acl.mdl.ri_capture_end returned, not {type(handle).__name__}")
        self.handle = handle
        self.info: dict | None = None
        self.replays: list[tuple[int, float, float]] = []     # (stream, start_us, end_us)
        self.sync_replays: list[tuple[float, float]] = []     # host time of aclmdlRIExecute
        self.selected: int | None = None
        self.note = ""

    def refresh(self) -> None:
        snap, h = acl_lab.snapshot(), self.handle
        info = next((m for m in snap.get("models") or [] if m["handle"] == h), None)
        self.replays = [(r["stream"], r["start_us"], r["end_us"])
                        for r in snap.get("timeline") or []
                        if r["kind"] == "model" and r.get("model") == h]
        self.sync_replays = [(c.start_us, c.end_us) for c in acl_lab.tracer().calls
                             if c.name == "mdl.ri_execute" and c.args[:1] == (h,) and c.ret == 0]
        if info is not None:
            self.info = info
            self.note = "" if info["ready"] else "still capturing: the tasks recorded so far"
        elif self.info is not None:
            self.note = "destroyed (aclmdlRIDestroy): shown as last seen"
        elif snap.get("backend", "sim") != "sim":
            self.note = no_timeline_note(snap, "captured models")
        else:
            self.note = (f"0x{h:x} is not a captured model: pass the handle that "
                         f"acl.mdl.ri_capture_end returned")
        seqs = [t["seq"] for t in self.tasks()]
        if self.selected not in seqs:
            self.selected = seqs[0] if seqs else None

    def tasks(self) -> list[dict]:
        return self.info["tasks"] if self.info else []

    def task(self, seq: int | None) -> dict | None:
        return next((t for t in self.tasks() if t["seq"] == seq), None)

    def shown(self) -> list[dict]:
        """The boxes drawn: every task, or a window of them around the selected one."""
        tasks, most = self.tasks(), PER_ROW * MAX_ROWS
        if len(tasks) <= most:
            return tasks
        at = next((i for i, t in enumerate(tasks) if t["seq"] == self.selected), 0)
        first = min(max(at - most // 2, 0), len(tasks) - most)
        return tasks[first:first + most]

    def heading(self) -> str:
        if self.info is None:
            return f"model 0x{self.handle:x}: {self.note}"
        m, tasks = self.info, self.tasks()
        where = f"captured on stream {stream_label(m['stream'])} (device {m['device']})"
        text = (f"model RI 0x{m['handle']:x} {where}: {count(len(tasks), 'task')}, "
                f"{format_bytes(sum(t['nbytes'] for t in tasks))}, "
                f"{count(m['executions'], 'replay')}")
        return text + (f" - {self.note}" if self.note else "")

    def replay_text(self, most: int = 8) -> str:
        """The replays' modeled start and end: asynchronous ones per stream, then the
        synchronous ones (host time)."""
        if not self.replays and not self.sync_replays:
            return "not replayed yet"
        parts = [f"#{k} on {stream_label(s)} {a:.1f}-{b:.1f} µs"
                 for k, (s, a, b) in enumerate(self.replays[:most], start=1)]
        if len(self.replays) > most:
            parts.append(f"... {len(self.replays) - most} more")
        if self.sync_replays:
            parts.append(f"{len(self.sync_replays)} synchronous (aclmdlRIExecute)")
        return "replays: " + ", ".join(parts)

    def describe(self) -> str:
        t = self.task(self.selected)
        if t is None:
            return self.note or "no task recorded"
        return "; ".join(f"{k} = {v}" for k, v in task_details(t))

    def state(self) -> tuple:
        """Changes whenever the picture would: cheap to compare, so refreshes can skip."""
        m = self.info
        return (self.selected, self.note, m and (m["executions"], len(m["tasks"])),
                tuple(self.replays), tuple(self.sync_replays))

    def picture(self) -> bytes:
        return draw_capture_graph(self)


def _draw_chain(ax, model: CaptureGraphModel) -> None:
    """The shown tasks as boxes, PER_ROW to a row, joined by arrows in replay order."""
    from matplotlib.patches import FancyBboxPatch

    shown, total = model.shown(), len(model.tasks())
    rows = max(1, -(-len(shown) // PER_ROW))
    ax.set_xlim(0, PER_ROW)
    ax.set_ylim(0, rows)
    ax.axis("off")
    for i, t in enumerate(shown):
        x, y = i % PER_ROW, rows - 1 - i // PER_ROW
        picked = t["seq"] == model.selected
        ax.add_patch(FancyBboxPatch((x + 0.04, y + 0.06), 0.8, 0.88, boxstyle="round,pad=0.01",
                                    facecolor=color(t["kind"]) + "33", linewidth=2.2 if picked
                                    else 1.0, edgecolor="black" if picked else color(t["kind"])))
        lines = task_lines(t)
        for k, line in enumerate(lines):
            ax.text(x + 0.44, y + 0.5 + (len(lines) / 2 - k - 0.5) * 0.16, line, ha="center",
                    va="center", fontsize=7.5 if k == 0 else 6.5,
                    weight="bold" if k == 0 else "normal")
        if i + 1 < len(shown) and (i + 1) % PER_ROW:
            ax.annotate("", xy=(x + 1.04, y + 0.5), xytext=(x + 0.84, y + 0.5),
                        arrowprops={"arrowstyle": "->", "color": "#333333"})
    if len(shown) < total:
        ax.text(PER_ROW - 0.02, -0.02, f"tasks {shown[0]['seq']}-{shown[-1]['seq']} of {total}",
                ha="right", va="top", fontsize=7, style="italic")


def _replay_lanes(model: CaptureGraphModel):
    streams = sorted({s for s, _, _ in model.replays})
    lanes = [(f"{stream_label(s)}\n{count(sum(r[0] == s for r in model.replays), 'replay')}",
              [(a, b, "model") for r, a, b in model.replays if r == s]) for s in streams]
    if model.sync_replays:
        lanes.append((SYNC_LANE, [(a, b, "model") for a, b in model.sync_replays]))
    return lanes


def draw_capture_graph(model: CaptureGraphModel) -> bytes:
    """PNG: the chain of recorded tasks, then the replays on modeled time."""
    if not model.tasks():
        return message_picture("Capture graph", model.heading())
    rows = max(1, -(-len(model.shown()) // PER_ROW))
    lanes = _replay_lanes(model)
    strip = LANE_IN * len(lanes) + AXIS_IN if lanes else 0.3
    height = TOP_IN + ROW_IN * rows + 0.15 + strip

    def draw(fig):
        fig.text(0.01, 1 - 0.22 / height, model.heading(), fontsize=9, weight="bold")
        chain = fig.add_axes((0.01, (strip + 0.15) / height, 0.98, ROW_IN * rows / height))
        _draw_chain(chain, model)
        if not lanes:
            fig.text(0.01, 0.1 / height, "not replayed yet: acl.mdl.ri_execute_async(model, "
                     "stream) runs every task above with one launch", fontsize=8)
            return
        spans = [s for _, lane in lanes for s in lane]
        t0, t1 = min(s[0] for s in spans), max(s[1] for s in spans)
        ax = fig.add_axes((1.6 / WIDTH_IN, AXIS_IN / height, 1 - 1.8 / WIDTH_IN,
                           LANE_IN * len(lanes) / height))
        lane = {s: i for i, s in enumerate(sorted({r[0] for r in model.replays}))}
        wide = 0.03 * max(t1 - t0, 1e-3)       # async replays numbered in issue order
        labels = [(lane[s], a, b, f"#{k}") for k, (s, a, b) in enumerate(model.replays, 1)
                  if b - a >= wide] if len(spans) <= 40 else []
        draw_lanes(ax, lanes, t0, max(t1, t0 + 1e-3), labels=labels)

    return render(WIDTH_IN, height, draw)


class CaptureGraph(StaticPicture, RefreshOnNewCalls, widgets.VBox):
    """The recorded tasks of model RI ``model`` (the handle ``acl.mdl.ri_capture_end``
    returned) and its replays; pick a task to see all it recorded. Refreshes after each
    cell inside IPython, and on its button."""

    def __init__(self, model: int):
        self.model = CaptureGraphModel(model)
        self._seen = self._shown = None
        self._syncing = False
        self.title = widgets.HTML()
        self.image = widgets.Image(format="png")
        self.task = widgets.Dropdown(options=[], description="task", layout={"width": "360px"})
        self.refresh_button = widgets.Button(description="refresh")
        self.replays = widgets.HTML()
        self.details = widgets.HTML()
        super().__init__(children=[self.title, self.image, self.replays,
                                   widgets.HBox([self.task, self.refresh_button]), self.details])
        self.task.observe(self._on_pick, "value")
        self.refresh_button.on_click(lambda _: self.refresh(force=True))
        self.refresh()
        self._watch_cells()

    def _on_pick(self, change) -> None:
        if not self._syncing and change["new"] is not None:
            self.model.selected = change["new"]
            self._redraw()

    def _redraw(self) -> None:
        m = self.model
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
        self.title.value = f"<b>{escape(m.heading())}</b>"
        self.replays.value = escape(m.replay_text())
        self.details.value = f"<code>{escape(m.describe())}</code>"
        self.image.value = m.picture()

    def show_error(self, text: str) -> None:
        self.details.value = f"<code>{escape(text)}</code>"

    def summary(self) -> str:
        m = self.model
        if m.info is None:
            return f"CaptureGraph: {m.note}"
        names = [t.get("op", t["kind"]) for t in m.tasks()]
        chain = " → ".join(names[:4]) + (" → …" if len(names) > 4 else "")
        gone = ", destroyed" if m.note.startswith("destroyed") else ""
        return (f"CaptureGraph: model 0x{m.handle:x}, {count(len(names), 'task')} ({chain}), "
                f"{count(m.info['executions'], 'replay')}{gone}")

    def picture(self) -> bytes:
        return self.model.picture()
