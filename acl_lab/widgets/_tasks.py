"""What the stream timeline and the capture graph share: one colour per kind of stream task,
how streams and pointers are named, where the trace stands, and the drawing of tasks as
boxes on one lane per stream against modeled time.

The tasks come from ``acl_lab.snapshot()["timeline"]`` (and a model's recorded tasks from
``snapshot()["models"]``); the host's own time comes from the trace. On hardware both
lists are empty: ``no_timeline_note`` says why instead of drawing nothing.
"""
from __future__ import annotations

from collections import defaultdict

import acl_lab

from ._base import RefreshAfterCells
from ._figure import render

#: One colour per task kind (and per kind of host time), shared by both pictures.
TASK_COLORS = {
    "memcpy": "#4c72b0", "memcpy2d": "#64b5cd", "memset": "#55a868", "op": "#dd8452",
    "model": "#8172b3", "record": "#c44e52", "wait": "#937860",
    "inference": "#da8bc3", "callback": "#ccb974",     # offline model execution, host callback
    "launch": "#b0b0b0",     # host time in a call that issued a task to a stream
    "blocking": "#595959",   # host time in any other call: waits, synchronous work, capture
}
TASK_LABELS = {
    "memcpy": "memcpy", "memcpy2d": "memcpy2d", "memset": "memset", "op": "operator (aclnn)",
    "model": "model replay", "record": "event record", "wait": "event wait",
    "inference": "offline model execution", "callback": "host callback",
    "launch": "host: issuing a task", "blocking": "host: other calls",
}
OTHER_COLOR = "#999999"      # a kind this table does not know yet
MARKERS = {"record": "v", "wait": "^"}   # zero-length tasks: drawn as marks, not boxes
MIN_BOX = 1 / 600            # of the time span: a task shorter than ~1 pixel stays visible
MARKS_DRAWN = 300            # per lane and kind; more get their line without the triangle
LINKS_DRAWN = 40             # more record -> wait arrows than this would hide the tasks: none


def stream_label(handle: int) -> str:
    """Stream 0 is the current context's default stream; others by handle."""
    return "default" if handle == 0 else f"0x{handle:x}"


def short_ptr(ptr: int) -> str:
    """0x12ce40000080 -> 0x12ce…0080: enough to tell buffers apart in a small box."""
    text = f"{ptr:x}"
    return f"0x{text}" if len(text) <= 8 else f"0x{text[:4]}…{text[-4:]}"


def us(value: float) -> str:
    return f"{value:,.1f} µs"


def duration(value_us: float) -> str:
    """A task's modeled cost: small copies take nanoseconds, which "0.0 µs" would hide."""
    return f"{value_us:,.2f} µs" if value_us >= 1 or value_us == 0 else f"{value_us * 1e3:.1f} ns"


def count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def trace_position() -> tuple:
    """Changes whenever a traced call is made or the trace is cleared: the refresh after a
    cell compares it to skip rebuilding a snapshot when the learner made no call."""
    trace = acl_lab.tracer()
    calls = trace.calls
    return id(trace), len(calls), calls[-1].seq if calls else 0


def no_timeline_note(snap: dict, what: str) -> str:
    backend = snap.get("backend", "this")
    return (f"the {backend} backend does not report {what} (snapshot() leaves it empty on "
            f"hardware): the simulator (acl_lab.load(backend='sim')) shows it")


def message_picture(title: str, text: str) -> bytes:
    """PNG of a title and one line: the picture of an empty state."""
    def draw(fig):
        fig.text(0.01, 0.62, title, fontsize=9, weight="bold")
        fig.text(0.01, 0.22, text, fontsize=8)
    return render(9, 0.7, draw)


def color(kind: str) -> str:
    return TASK_COLORS.get(kind, OTHER_COLOR)


def task_legend(kinds) -> list:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    return [Line2D([], [], color=color(k), marker=MARKERS[k], linestyle="none",
                   label=TASK_LABELS[k]) if k in MARKERS else
            Patch(facecolor=color(k), label=TASK_LABELS.get(k, k)) for k in kinds]


def draw_lanes(ax, lanes: list[tuple[str, list[tuple[float, float, str]]]],
               t0: float, t1: float, links=(), labels=()) -> list[str]:
    """Draw ``lanes`` (name, [(start_us, end_us, kind)]) top to bottom on ``ax`` over
    [t0, t1]; ``links`` is a list of ((lane, t), (lane, t)) arrows, ``labels`` (lane, start, end,
    text) names boxes. Returns the kinds drawn, in TASK_COLORS order, for a legend."""
    n, min_w = len(lanes), (t1 - t0) * MIN_BOX
    kinds = set()
    for i, (_, spans) in enumerate(lanes):
        y = n - 1 - i
        by_kind = defaultdict(list)
        for start, end, kind in spans:
            by_kind[kind].append((start, max(end - start, min_w)))
        for kind, bars in by_kind.items():
            kinds.add(kind)
            if kind in MARKERS:       # under the boxes, so that crowded marks hide no task
                xs = [start for start, _ in bars]
                ax.vlines(xs, y + 0.12, y + 0.88, colors=color(kind), linewidth=0.8, zorder=1)
                if len(xs) <= MARKS_DRAWN:
                    ax.plot(xs, [y + 0.88 if kind == "record" else y + 0.12] * len(xs),
                            linestyle="none", marker=MARKERS[kind], color=color(kind), ms=5,
                            zorder=1)
            else:
                ax.broken_barh(bars, (y + 0.22, 0.56), facecolors=color(kind),
                               edgecolor="none", zorder=2)
    for (a, ta), (b, tb) in links if len(links) <= LINKS_DRAWN else ():
        ax.annotate("", xy=(tb, n - 1 - b + 0.5), xytext=(ta, n - 1 - a + 0.5),
                    arrowprops={"arrowstyle": "->", "color": color("record"), "lw": 0.8,
                                "linestyle": "--", "shrinkA": 0, "shrinkB": 0})
    for lane, start, end, text in labels:
        ax.text((start + end) / 2, n - 1 - lane + 0.5, text, ha="center", va="center",
                fontsize=7, color="white", clip_on=True)
    pad = (t1 - t0) * 0.01
    ax.set_xlim(t0 - pad, t1 + pad)
    ax.set_ylim(0, max(n, 1))
    ax.set_yticks([n - 1 - i + 0.5 for i in range(n)], [name for name, _ in lanes], fontsize=7)
    ax.set_xlabel("modeled time (µs)", fontsize=8, labelpad=1)
    ax.tick_params(axis="x", labelsize=7)
    ax.grid(axis="x", color="#dddddd", linewidth=0.5)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    return [k for k in TASK_COLORS if k in kinds] + sorted(kinds - set(TASK_COLORS))


class RefreshOnNewCalls(RefreshAfterCells):
    """Refresh after cells only when a traced call was made since the last refresh (the
    picture is costly); ``refresh(force=True)`` (the button) always redraws. Widgets using
    it have ``model.refresh()``, ``_redraw()`` and start with ``_seen = None``."""

    def refresh(self, force: bool = False) -> None:
        seen = trace_position()
        if seen == self._seen and not force:
            return
        self._seen = seen
        self.model.refresh()
        self._redraw()
