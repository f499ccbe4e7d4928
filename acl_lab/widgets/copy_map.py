"""CopyMap: the four copy directions (H2H, H2D, D2H, D2D) and what each copy did.

Every successful ``memcpy``, ``memcpy_async``, ``memcpy2d`` and ``memcpy2d_async`` of the
trace is one copy. Its direction is where its two addresses live (per
``acl_lab.snapshot()``), as the runtime decides it, whatever ``kind`` said; an address no
longer known (freed since) falls back to the ``kind`` passed. The picture draws the host
(pinned and pageable memory) and the device with one arrow per direction, each with its
copies, bytes, how many ran asynchronously on a stream, synchronously, or asynchronously
asked but run synchronously (pageable host memory), the host memory involved and the
modeled time; then the last copies one per line.
"""
from __future__ import annotations

from typing import NamedTuple

import ipywidgets as widgets

import acl_lab

from acl_lab import constants as C
from acl_lab.i18n import N_, _, join_list
from acl_lab.widgets._base import GONE, SceneView, generation
from acl_lab.widgets._places import PLACE_COLORS, Finder, place, place_short
from acl_lab.widgets._svg import INK, MUTED, Svg, format_bytes, message, text_width
from acl_lab.widgets._tasks import RefreshOnNewCalls, stream_label, stream_names, us

#: traced call -> (index of dst, src, kind in its arguments, how many bytes it moves)
CALLS = {
    "rt.memcpy": (0, 2, 4, lambda a: a[3]),
    "rt.memcpy_async": (0, 2, 4, lambda a: a[3]),
    "rt.memcpy2d": (0, 2, 6, lambda a: a[4] * a[5]),
    "rt.memcpy2d_async": (0, 2, 6, lambda a: a[4] * a[5]),
}
DIRECTIONS = ("H2H", "H2D", "D2H", "D2D")
KIND_DIRECTION = {C.ACL_MEMCPY_HOST_TO_HOST: "H2H", C.ACL_MEMCPY_HOST_TO_DEVICE: "H2D",
                  C.ACL_MEMCPY_DEVICE_TO_HOST: "D2H", C.ACL_MEMCPY_DEVICE_TO_DEVICE: "D2D"}
DIRECTION_COLORS = {"H2H": "#937860", "H2D": "#4c72b0", "D2H": "#c44e52", "D2D": "#55a868"}
MODES = {"sync": N_("sync"), "async": N_("async"), "async_sync": N_("async turned sync")}
LISTED = 8                          # copies listed one per line, the latest


class Copy(NamedTuple):
    seq: int                 # the call's number in the trace
    call: str                # "memcpy", "memcpy_async", ...
    direction: str           # where the addresses live: "H2D" ...
    declared: str            # the kind passed, as a direction ("DEFAULT" when inferred)
    nbytes: int
    mode: str                # "sync", "async" or "async_sync" (MODES)
    src: str | None          # place of the source ("pinned", "pageable", "device", "dvpp")
    dst: str | None
    stream: int | None       # where an async copy ran
    start_us: float          # the copy's modeled time: on its stream, or the host's call
    end_us: float
    as_declared: bool        # an address is no longer known: the direction is kind's


def _side(p: str | None) -> str | None:
    return None if p is None else "H" if p in ("pinned", "pageable") else "D"


def copies(calls, allocations, since: float | None = None) -> list[Copy]:
    """The successful copies of ``calls`` (the trace), located with ``allocations``."""
    find = Finder(allocations)
    out = []
    for c in calls:
        shape = CALLS.get(c.name)
        if shape is None or c.ret != 0 or (since is not None and c.start_us < since):
            continue
        di, si, ki, size = shape
        args = c.args
        try:
            nbytes, kind = int(size(args)), args[ki]
        except (IndexError, TypeError, ValueError):
            continue
        dst, src = find(args[di]), find(args[si])
        dst_p, src_p = dst and place(dst), src and place(src)
        declared = KIND_DIRECTION.get(kind, "DEFAULT")
        known = _side(src_p) and _side(dst_p)
        direction = f"{_side(src_p)}2{_side(dst_p)}" if known else declared
        if direction not in DIRECTIONS:
            continue
        is_async = c.name.endswith("_async")
        task = c.task if is_async else None
        mode = "sync" if not is_async else "async" if task else "async_sync"
        start, end = (task["start_us"], task["end_us"]) if task else (c.start_us, c.end_us)
        out.append(Copy(c.seq, c.name.removeprefix("rt."), direction, declared, nbytes, mode,
                        src_p, dst_p, task["stream"] if task else None, start, end,
                        not known))
    return out


class CopyMapScene:
    """The copies as of the last look (those starting after ``since_us``, all if None),
    and the stream names."""

    def __init__(self, since_us: float | None = None):
        self.since_us = since_us
        self.copies: list[Copy] = []
        self.names: dict[int, str] = {}
        self.note = ""
        self.generation = None

    def refresh(self) -> None:
        now = generation()
        if self.generation not in (None, now) and self.copies:
            self.note = _("{gone} (the process was reset since)").format(gone=_(GONE))
            return
        self.generation = now
        snap = acl_lab.snapshot()
        self.copies = copies(acl_lab.tracer().calls, snap.get("allocations") or [],
                             self.since_us)
        self.names = stream_names()
        self.note = "" if self.copies else _(
            "no copy yet: acl.rt.memcpy and acl.rt.memcpy_async calls that succeed show here")

    def per_direction(self, direction: str) -> list[Copy]:
        return [c for c in self.copies if c.direction == direction]

    def direction_lines(self, direction: str) -> list[str]:
        """What the copies of one direction did, in three short lines."""
        done = self.per_direction(direction)
        if not done:
            return [_("{direction}: no copy").format(direction=direction)]
        first = _("{direction}: {copies}, {bytes}").format(
            direction=direction, copies=_count(len(done)),
            bytes=format_bytes(sum(c.nbytes for c in done)))
        modes = join_list([f"{sum(c.mode == m for c in done)} {_(MODES[m])}" for m in MODES
                           if any(c.mode == m for c in done)])
        host = [p for c in done for p in (c.src, c.dst) if p in ("pinned", "pageable")]
        if host:
            modes += " · " + _("host memory: {places}").format(places=join_list(
                [f"{host.count(p)} {place_short(p)}" for p in ("pinned", "pageable")
                 if p in host]))
        time = _("modeled {time} in all").format(
            time=us(sum(c.end_us - c.start_us for c in done)))
        return [first, modes, time]

    def line(self, c: Copy) -> str:
        """One copy: its call, direction, bytes, mode, memory and modeled time."""
        where = " → ".join(place_short(p) if p else "?" for p in (c.src, c.dst))
        said = "" if c.declared in (c.direction, "DEFAULT") else " " + _(
            "(kind said {declared})").format(declared=c.declared)
        if c.as_declared:
            said = " " + _("(as kind said: an address is gone)")
        if c.mode == "async":
            time = _("on {stream} {start} to {end}").format(
                stream=stream_label(c.stream, self.names), start=us(c.start_us),
                end=us(c.end_us))
        else:
            time = _("host waited {time}").format(time=us(c.end_us - c.start_us))
        return (f"#{c.seq} {c.call} {c.direction}{said} {format_bytes(c.nbytes)} · "
                f"{_(MODES[c.mode])} · {where} · {time}")

    def heading(self) -> str:
        if not self.copies:
            return self.note
        text = _("{copies}, {bytes}").format(
            copies=_count(len(self.copies)),
            bytes=format_bytes(sum(c.nbytes for c in self.copies)))
        return _("{note}: {text}").format(note=self.note, text=text) if self.note else text

    def summary(self) -> str:
        if not self.copies:
            return _("CopyMap: {note}").format(note=self.note)
        parts = [f"{d} {len(self.per_direction(d))}" for d in DIRECTIONS
                 if self.per_direction(d)]
        return _("CopyMap: {heading} ({parts})").format(heading=self.heading(),
                                                        parts=join_list(parts))

    def state(self) -> tuple:
        return self.note, tuple(self.copies), tuple(self.names.items())

    def svg(self) -> str:
        return draw_copy_map(self)


def _count(n: int) -> str:
    return (_("{n} copy") if n == 1 else _("{n} copies")).format(n=n)


BOX_W, BOX_H, MID = 190, 150, 520     # a side's box; the room between them


def _side_box(svg: Svg, x: float, y: float, title: str, places: list[str]) -> None:
    svg.rect(x, y, BOX_W, BOX_H, "#ffffff", stroke="#555555", stroke_width=1.2, rx=6)
    svg.text(x + BOX_W / 2, y + 20, title, size=12, weight="bold", anchor="middle")
    h = (BOX_H - 40) / len(places)
    for k, p in enumerate(places):
        py = y + 30 + k * h
        svg.rect(x + 12, py, BOX_W - 24, h - 8, PLACE_COLORS[p], opacity="0.18",
                 stroke=PLACE_COLORS[p], rx=3)
        svg.text(x + BOX_W / 2, py + (h - 8) / 2 + 4, place_short(p), size=10.5,
                 anchor="middle")


def _label(svg: Svg, x: float, y: float, lines: list[str], anchor: str, active: bool) -> None:
    for k, line in enumerate(lines):
        svg.text(x, y + k * 13, line, size=10.5 if k == 0 else 9.5, anchor=anchor,
                 weight="bold" if k == 0 and active else None, fill=INK if active else MUTED)


def draw_copy_map(scene: CopyMapScene) -> str:
    """SVG: the host and the device, an arrow per direction with what its copies did, then
    the last copies one per line."""
    title = _("Copies by direction: {heading}").format(heading=scene.heading())
    if not scene.copies:
        return message(_("Copies by direction"), scene.note)
    listed = [scene.line(c) for c in scene.copies[-LISTED:]]
    labels = {d: scene.direction_lines(d) for d in DIRECTIONS}
    mid = max([MID] + [text_width(t, 10.5) + 40 for d in ("H2D", "D2H") for t in labels[d]])
    width = max(2 * BOX_W + mid + 16, text_width(title, 12) + 16,
                max(text_width(t, 9.5) for t in listed) + 24,
                max(text_width(t, 10.5) for d in ("H2H", "D2D") for t in labels[d]) * 2 + 40)
    svg = Svg(width, 0)
    svg.text(8, 18, title, size=12, weight="bold")
    top, hx = 34, 8
    dx = width - 8 - BOX_W
    _side_box(svg, hx, top, _("Host"), ["pinned", "pageable"])
    _side_box(svg, dx, top, _("Device"), ["device"])
    cx = (hx + BOX_W + dx) / 2

    def arrow(direction, x1, y1, x2, y2):
        active = bool(scene.per_direction(direction))
        stroke = DIRECTION_COLORS[direction] if active else "#cccccc"
        svg.arrow(x1, y1, x2, y2, stroke=stroke, width=2.4 if active else 1.2,
                  title="\n".join(labels[direction]))
        return active

    y_h2d, y_d2h = top + 52, top + 104
    active = arrow("H2D", hx + BOX_W + 6, y_h2d, dx - 6, y_h2d)
    _label(svg, cx, y_h2d - 36, labels["H2D"], "middle", active)
    active = arrow("D2H", dx - 6, y_d2h, hx + BOX_W + 6, y_d2h)
    _label(svg, cx, y_d2h + 18, labels["D2H"], "middle", active)
    # H2H and D2D: a loop under each box, from its left into its right
    ly = top + BOX_H
    for direction, x0 in (("H2H", hx), ("D2D", dx)):
        active = bool(scene.per_direction(direction))
        stroke = DIRECTION_COLORS[direction] if active else "#cccccc"
        a, b = x0 + BOX_W * 0.3, x0 + BOX_W * 0.7
        svg.path(f"M{a:.1f},{ly:.1f} C{a:.1f},{ly + 30:.1f} {b:.1f},{ly + 30:.1f} "
                 f"{b:.1f},{ly + 8:.1f}", stroke=stroke, width=2.4 if active else 1.2,
                 title="\n".join(labels[direction]))
        svg.head(b, ly, 0, -1, stroke)
        anchor, lx = ("start", x0) if direction == "H2H" else ("end", x0 + BOX_W)
        _label(svg, lx, ly + 44, labels[direction], anchor, active)
    y = ly + 44 + 13 * 3 + 10
    svg.text(8, y, _("the last {n} of {total}").format(n=len(listed), total=len(scene.copies))
             if len(listed) < len(scene.copies) else _("every copy"), size=11, weight="bold")
    for k, (c, line) in enumerate(zip(scene.copies[-LISTED:], listed)):
        svg.rect(8, y + 8 + k * 15, 4, 11, DIRECTION_COLORS[c.direction])
        svg.text(16, y + 17 + k * 15, line, size=9.5)
    svg.height = y + 8 + len(listed) * 15 + 8
    return str(svg)


class CopyMap(RefreshOnNewCalls, SceneView, widgets.VBox):
    """The copies so far by direction, as they were when the cell ran (``since_us``: only
    those that start after this modeled time); looks again on its button and
    ``refresh()``, and after every cell when ``live=True``."""

    def __init__(self, since_us: float | None = None, live: bool = False):
        self.scene = CopyMapScene(since_us)
        self._seen = None
        self._build(live, force_on_click=True)
