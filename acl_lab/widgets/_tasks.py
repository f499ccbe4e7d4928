"""What the stream timeline and the capture graph share: one colour per kind of stream task,
how streams and pointers are named, where the trace stands, and the drawing of tasks as
boxes on one lane per stream against modeled time (SVG).

The tasks come from ``acl_lab.snapshot()["timeline"]`` (and a model's recorded tasks from
``snapshot()["models"]``); the host's own time and the names learners gave streams
(``acl_lab.name(stream, "copy")``) come from the trace. On hardware both lists are empty:
``no_timeline_note`` says why instead of drawing nothing.
"""
from __future__ import annotations

import math

import acl_lab

from acl_lab.i18n import N_, _
from acl_lab.widgets._base import View
from acl_lab.widgets._svg import GRID, MUTED, Svg, text_width

#: One colour per task kind (and per kind of host time), shared by both pictures.
TASK_COLORS = {
    "memcpy": "#4c72b0", "memcpy2d": "#64b5cd", "memset": "#55a868", "op": "#dd8452",
    "model": "#8172b3", "record": "#c44e52", "wait": "#937860",
    "inference": "#da8bc3", "callback": "#ccb974",     # offline model execution, host callback
    "notify_record": "#8c613c", "notify_wait": "#dc7ec0", "overflow": "#797979",
    "launch": "#b0b0b0",     # host time in a call that issued a task to a stream
    "waiting": "#ffffff",    # host time waiting for streams, events or reports (outlined)
    "blocking": "#595959",   # host time in any other call: synchronous work, capture
    "mark": "#2ca02c", "step": "#17becf",   # msproftx mark (MarkEx, Mark), step timestamp
    "range": "#98df8a",      # host time in an msproftx range (Push / Pop, RangeStart / Stop)
}
#: What each kind is called in legends and hover texts; translated where shown (``kind_label``).
TASK_LABELS = {
    "memcpy": "memcpy", "memcpy2d": "memcpy2d", "memset": "memset", "op": N_("operator (aclnn)"),
    "model": N_("model replay"), "record": N_("event record"), "wait": N_("event wait"),
    "inference": N_("offline model execution"), "callback": N_("host callback"),
    "notify_record": N_("notify record"), "notify_wait": N_("notify wait"),
    "overflow": N_("overflow status"),
    "launch": N_("host: issuing a task"), "waiting": N_("host: waiting"),
    "blocking": N_("host: other calls"),
    "mark": N_("msproftx mark"), "step": N_("step timestamp"),
    "range": N_("host: msproftx range"),
}
OTHER_COLOR = "#999999"      # a kind this table does not know yet
#: zero-length tasks, drawn as marks, not boxes
MARKS = ("record", "wait", "notify_record", "notify_wait", "mark", "step")
_ARROWS = ("record", "wait", "notify_record", "notify_wait")   # marks that point a way
_UP = ("record", "notify_record")                            # marks whose arrow points up
OUTLINE = "#595959"          # the edge of a "waiting" box (its fill is white)
LINKS_DRAWN = 40             # more record -> wait arrows than this would hide the tasks: none
HOVER_DRAWN = 2_000          # boxes with hover text; more are drawn plain (the picture stays small)
LANE_H, PLOT_W, AXIS_H = 34, 720, 30


def kind_label(kind: str) -> str:
    """A task kind in words, in the learner's language (an unknown kind as it is)."""
    return _(TASK_LABELS[kind]) if kind in TASK_LABELS else kind


def stream_names() -> dict[int, str]:
    """The names learners gave streams (``acl_lab.name``), as of now."""
    return dict(acl_lab.tracer().names)


def stream_label(handle: int, names: dict[int, str]) -> str:
    """A named stream by its name; stream 0 is the current context's default stream."""
    if handle in names:
        return names[handle]
    return _("default") if handle == 0 else f"0x{handle:x}"


def short_ptr(ptr: int) -> str:
    """0x12ce40000080 -> 0x12ce…0080: enough to tell buffers apart in a small box."""
    text = f"{ptr:x}"
    return f"0x{text}" if len(text) <= 8 else f"0x{text[:4]}…{text[-4:]}"


def us(value: float) -> str:
    return f"{value:,.1f} µs"


def duration(value_us: float) -> str:
    """A task's modeled cost: sub-microsecond costs in ns, which "0.0 µs" would hide."""
    return f"{value_us:,.2f} µs" if value_us >= 1 or value_us == 0 else f"{value_us * 1e3:.1f} ns"


#: "{n} task" and "{n} tasks", per noun that ``count`` is asked for
NOUNS = {
    "call": (N_("{n} call"), N_("{n} calls")),
    "task": (N_("{n} task"), N_("{n} tasks")),
    "stream": (N_("{n} stream"), N_("{n} streams")),
    "replay": (N_("{n} replay"), N_("{n} replays")),
    "msproftx": (N_("{n} msproftx mark or range"), N_("{n} msproftx marks and ranges")),
}


def count(n: int, noun: str) -> str:
    """"1 task", "3 tasks" (in Chinese "3 个任务")."""
    one, many = NOUNS[noun]
    return _(one if n == 1 else many).format(n=n)


def lane_name(name: str, counted: str, busy_us: float) -> str:
    """A lane's name over its count and busy time: "copy\n3 tasks · 12.0 µs busy"."""
    return _("{name}\n{count} · {busy} busy").format(name=name, count=counted, busy=us(busy_us))


def span_text(what: str, start_us: float, end_us: float) -> str:
    """Hover text of a span of time: "aclmdlRIExecute: 1.0 µs to 9.0 µs"."""
    return _("{what}: {start} to {end}").format(what=what, start=us(start_us), end=us(end_us))


def trace_position() -> tuple:
    """Changes whenever a traced call is made, the trace is cleared or a stream is named:
    a refresh compares it to skip rebuilding a snapshot when the learner made no call."""
    trace = acl_lab.tracer()
    return id(trace), trace.position(), tuple(trace.names.items())


def no_timeline_note(snap: dict, what: str) -> str:
    """Why a picture is empty on hardware; ``what`` (an N_ id) is what it would show."""
    return _("the {backend} backend does not report {what} (snapshot() leaves it empty on "
             "hardware): the simulator (acl_lab.load(backend='sim')) shows it").format(
        backend=snap.get("backend", "this"), what=_(what))


def color(kind: str) -> str:
    return TASK_COLORS.get(kind, OTHER_COLOR)


def _ticks(t0: float, t1: float, most: int = 8) -> list[float]:
    """Round times (1, 2 or 5 × 10^k µs apart) between t0 and t1."""
    raw = (t1 - t0) / most
    step = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    for m in (1, 2, 5, 10):
        if step * m >= raw:
            step *= m
            break
    first = math.ceil(t0 / step) * step
    return [first + i * step for i in range(int((t1 - first) / step + 1e-9) + 1)]


def _tick_text(t: float) -> str:
    return f"{t:,.3f}".rstrip("0").rstrip(".")


def lanes_width(lanes) -> float:
    """Left column width: the longest lane name, line by line (as ``draw_lanes`` sizes them)."""
    return max([text_width(line, 10.5 if k == 0 else 9) for name, _ in lanes
                for k, line in enumerate(name.split("\n"))] + [40])


def draw_lanes(svg: Svg, top: float, left: float, lanes, t0: float, t1: float,
               links=(), labels=()) -> list[str]:
    """Draw ``lanes`` [(name, [(start_us, end_us, kind, hover)])] from ``top`` down, the plot
    starting at x = ``left`` over [t0, t1]; ``links`` ((lane, t), (lane, t)) arrows,
    ``labels`` (lane, start, end, text) names boxes. Returns the kinds drawn, in TASK_COLORS
    order, for a legend. The time axis is drawn under the last lane."""
    span = max(t1 - t0, 1e-9)
    pad = span * 0.01

    def x(t: float) -> float:
        return left + (t - t0 + pad) / (span + 2 * pad) * PLOT_W

    bottom = top + LANE_H * len(lanes)
    ticks = _ticks(t0, t1)
    for t in ticks:
        svg.line(x(t), top, x(t), bottom, stroke=GRID, width=0.6)
    kinds: set[str] = set()
    hover = sum(len(spans) for _, spans in lanes) <= HOVER_DRAWN
    for i, (name, spans) in enumerate(lanes):
        y = top + i * LANE_H
        first, *rest = name.split("\n")
        svg.text(left - 8, y + (14 if rest else 21), first, size=10.5, anchor="end",
                 weight="bold")
        for k, line in enumerate(rest):
            svg.text(left - 8, y + 27 + 11 * k, line, size=9, anchor="end", fill=MUTED)
        svg.line(left, y + LANE_H, left + PLOT_W, y + LANE_H, stroke=GRID, width=0.6)
        # the longest first: a call made inside another (a callback's copy inside
        # process_report) is drawn over it
        for start, end, kind, text in sorted(spans, key=lambda s: s[0] - s[1]):
            if end < t0 or start > t1:
                continue
            start, end = max(start, t0), min(end, t1)     # nothing leaves the plot
            kinds.add(kind)
            title = text if hover else None
            if kind in MARKS and end <= start:     # a wait that lasted (timed out) is a box
                xs = x(start)
                svg.line(xs, y + 5, xs, y + LANE_H - 5, stroke=color(kind), width=1.2)
                if kind in _ARROWS:                 # an event's or a notify's: which way
                    tip = y + 5 if kind in _UP else y + LANE_H - 5
                    svg.head(xs, tip, 0, 1 if kind in _UP else -1, color(kind))
                if title:
                    svg.rect(xs - 3, y + 4, 6, LANE_H - 8, "none", title=title)
            elif kind == "waiting":
                svg.rect(x(start), y + 10, max(x(end) - x(start), 1.0), LANE_H - 20,
                         color(kind), stroke=OUTLINE, stroke_width=0.8, dash="3 2",
                         title=title)
            else:
                w = max(x(end) - x(start), 1.0)
                # a hairline of white between boxes wide enough: back-to-back tasks or
                # launches stay apart
                svg.rect(x(start), y + 8, w, LANE_H - 16, color(kind), title=title,
                         stroke="#ffffff" if w >= 4 else None, stroke_width=0.6)
    for (a, ta), (b, tb) in links if len(links) <= LINKS_DRAWN else ():
        svg.arrow(x(ta), top + a * LANE_H + LANE_H / 2, x(tb), top + b * LANE_H + LANE_H / 2,
                  stroke=color("record"), width=0.9, dash="4 3")
    for lane, start, end, text in labels:
        if x(end) - x(start) >= text_width(text, 9) + 4:
            svg.text((x(start) + x(end)) / 2, top + lane * LANE_H + LANE_H / 2 + 3.5, text,
                     size=9, anchor="middle", fill="#ffffff")
    svg.line(left, bottom, left + PLOT_W, bottom, stroke=MUTED, width=0.8)
    for t in ticks:
        svg.line(x(t), bottom, x(t), bottom + 4, stroke=MUTED, width=0.8)
        svg.text(x(t), bottom + 14, _tick_text(t), size=9, anchor="middle", fill=MUTED)
    svg.text(left + PLOT_W / 2, bottom + 27, _("modeled time (µs)"), size=10, anchor="middle")
    return [k for k in TASK_COLORS if k in kinds] + sorted(kinds - set(TASK_COLORS))


def task_legend(kinds) -> list[tuple[str, str]]:
    return [(color(k), kind_label(k)) for k in kinds]


def lanes_picture(title: str, lanes, t0: float, t1: float, links=(), labels=()) -> str:
    """SVG: a bold title line, the lanes against modeled time, a legend of the kinds."""
    left = lanes_width(lanes) + 20
    width = max(left + PLOT_W + 24, text_width(title, 12) + 16)
    svg = Svg(width, 0)
    svg.text(8, 18, title, size=12, weight="bold")
    kinds = draw_lanes(svg, 28, left, lanes, t0, t1, links, labels)
    legend_top = 28 + LANE_H * len(lanes) + AXIS_H + 8
    svg.height = legend_top + svg.legend(8, legend_top, task_legend(kinds), width=width - 16) + 6
    return str(svg)


class RefreshOnNewCalls(View):
    """``refresh()`` looks again only when a traced call was made since the last look (the
    picture is costly); ``refresh(force=True)`` (the button) always does. Views using it
    have ``scene.refresh()``, ``_redraw()`` and start with ``_seen = None``."""

    def refresh(self, force: bool = False) -> None:
        seen = trace_position()
        if seen == self._seen and not force:
            return
        self._seen = seen
        self.scene.refresh()
        self._redraw()

