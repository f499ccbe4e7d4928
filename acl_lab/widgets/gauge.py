"""MemoryGauge: acl.rt.get_mem_info per memory attribute (DDR/HBM, all/huge/normal pages).

The gauge is a passive observer. It queries through the function behind the trace, so
the learner's trace shows only the learner's calls, and it asks only while a device is
open (per ``acl_lab.snapshot()``), so a failing query never replaces the message
``acl.get_recent_err_msg()`` holds for the learner's own last error. Once no device is
open it keeps the readings last taken, and says so.
"""
from __future__ import annotations

import ipywidgets as widgets

import acl_lab

from acl_lab import constants as C
from acl_lab.i18n import N_, _, join_list
from acl_lab.trace import untraced
from acl_lab.widgets._base import GONE, SceneView, device_open
from acl_lab.widgets._svg import COLORS, MUTED, Svg, format_bytes, message, text_width

KINDS = ("HBM", "DDR")


def attrs_for(kinds) -> list[str]:
    """aclrtMemAttr names the gauge shows for these memory kinds: all pages, huge, normal."""
    return [f"ACL_{kind}_MEM{page}" for kind in kinds for page in ("", "_HUGE", "_NORMAL")]


def _present_kinds(snap: dict) -> tuple[str, ...]:
    """Kinds the active backend has device pools of; both when it does not say."""
    pools = snap.get("pools")
    if pools is None:
        return KINDS
    return tuple(k for k in KINDS if any(p["kind"] == k for p in pools))


class GaugeScene:
    """Readings of get_mem_info: attribute name -> (free, total), and a note when the
    gauge could not read (no device open, or the query's error message).

    ``attrs`` (aclrtMemAttr names) fixes what is read; by default it follows the memory
    kinds of the device in use (HBM and DDR on a 910B, DDR only on a 310).
    """

    def __init__(self, acl, attrs: list[str] | None = None):
        self._query = untraced(acl.rt.get_mem_info)
        unknown = [a for a in attrs or () if a not in C.MEM_ATTR_NAMES.values()]
        if unknown:
            raise ValueError(_("unknown memory attribute(s) {names}; use aclrtMemAttr names "
                               "such as ACL_HBM_MEM_HUGE").format(names=", ".join(unknown)))
        self._fixed = list(attrs) if attrs else None
        self.attrs: list[str] = self._fixed or []
        self.readings: dict[str, tuple[int, int]] = {}
        self.note = ""
        self.gone = False          # the readings are the last taken: no device is open now

    def refresh(self) -> None:
        snap = acl_lab.snapshot()
        if not device_open(snap):
            self.gone = bool(self.readings)
            self.note = (_("no device open now: {gone}").format(gone=_(GONE)) if self.gone
                         else _("no device open: call acl.init() and acl.rt.set_device(0) to "
                                "see memory"))
            return
        self.gone = False
        self.attrs = self._fixed or attrs_for(_present_kinds(snap))
        readings, notes = {}, []
        for name in self.attrs:
            free, total, ret = self._query(getattr(C, name))
            if ret == 0:
                readings[name] = (free, total)
            else:
                notes.append(f"{name}: {acl_lab.explain(ret)}")
        self.readings, self.note = readings, "; ".join(notes)

    def rows(self) -> list[tuple[str, int, int]]:
        """(attribute, used, total) per reading, in the gauge's order."""
        return [(name, total - free, total) for name, (free, total) in self.readings.items()]

    def state(self) -> tuple:
        """What the picture shows: redrawn only when this changes."""
        return tuple(self.attrs), tuple(self.rows()), self.note

    def svg(self) -> str:
        return draw_gauge(self.rows(), self.note)

    def summary(self) -> str:
        rows = self.rows()
        totals = [r for r in rows if r[0].endswith("_MEM")] or rows   # "all" rows, if read
        parts = [f"{_label(n)} {format_bytes(u)}/{format_bytes(t)}" for n, u, t in totals]
        if not parts:
            return _("MemoryGauge: {note}").format(note=self.note)
        if self.gone:
            return _("MemoryGauge: {readings} used ({gone})").format(readings=join_list(parts),
                                                                     gone=_(GONE))
        return _("MemoryGauge: {readings} used").format(readings=join_list(parts))


#: page words of aclrtMemAttr names, in the gauge's labels
PAGES = {"HUGE": N_("huge"), "NORMAL": N_("normal"), "HUGE1G": N_("huge1g")}


def _label(name: str) -> str:
    """ACL_HBM_MEM_HUGE -> "HBM huge", ACL_HBM_MEM -> "HBM all"."""
    words = [w if w in KINDS else _(PAGES[w]) if w in PAGES else w.lower()
             for w in name.split("_")[1:] if w != "MEM"]
    return " ".join(words if len(words) > 1 else words + [_("all")])


TITLE = N_("acl.rt.get_mem_info: used and total per attribute")
LEFT, BAR_W, ROW, ZOOM_H = 90, 360, 24, 22
ZOOM_BELOW = 0.01        # a used share under 1% (under 4 px of the bar) gets a zoomed bar


def share_text(used: int, total: int) -> str:
    """The used share, with as many digits as it takes not to read 0% when bytes are used:
    "3.6%", "0.0076%"."""
    share = used / total if total else 0.0
    if used == 0 or share >= 0.001:
        return f"{share:.1%}"
    return f"{share * 100:.2g}%"


def zoom_scale(used: int) -> int:
    """The zoomed bar's full width in bytes: the power of two at or above ``used``, so the
    used part fills half of it or more."""
    return 1 << max(used - 1, 1).bit_length()


def draw_gauge(rows: list[tuple[str, int, int]], note: str = "") -> str:
    """SVG: one horizontal bar per attribute, the used share filled. A share too small to
    see (under 1%) gets a second, zoomed bar below, whose full width is a power of two
    bytes just above what is used, tied to the start of the first by two thin lines."""
    title = _(TITLE)
    if not rows:
        return message(title, note or _("no readings"), width=600)
    texts = [_("{used} used of {total} ({share})").format(
        used=format_bytes(used), total=format_bytes(total), share=share_text(used, total))
        for _name, used, total in rows]
    zooms = [_("zoomed: the bar is {scale}").format(scale=format_bytes(zoom_scale(used)))
             if used and total and used / total < ZOOM_BELOW else "" for _n, used, total in rows]
    width = max(LEFT + BAR_W + 16 + max(text_width(t, 10.5) for t in texts + zooms),
                text_width(title, 12) + 16, text_width(note, 10.5) + 16)
    svg = Svg(width, 0)
    svg.text(8, 18, title, size=12, weight="bold")
    y = 28
    for (name, used, total), text, zoom in zip(rows, texts, zooms):
        share = used / total if total else 0.0
        svg.text(LEFT - 8, y + 14, _label(name), size=10.5, anchor="end")
        svg.rect(LEFT, y + 2, BAR_W, ROW - 6, COLORS["free"], title=f"{name}: {text}")
        if used:
            svg.rect(LEFT, y + 2, max(BAR_W * share, 1.0), ROW - 6, COLORS["used"],
                     title=f"{name}: {text}")
        svg.text(LEFT + BAR_W + 8, y + 14, text, size=10.5)
        y += ROW
        if zoom:
            scale = zoom_scale(used)
            top, bar = y + 4, y + 6
            svg.line(LEFT, y - 4, LEFT, bar, stroke=MUTED, width=0.6)
            svg.line(LEFT + max(BAR_W * share, 1.0), y - 4, LEFT + BAR_W, bar, stroke=MUTED,
                     width=0.6)
            svg.rect(LEFT, bar, BAR_W, ZOOM_H - 10, COLORS["free"], stroke=MUTED,
                     stroke_width=0.5, title=f"{name}: {zoom}")
            svg.rect(LEFT, bar, BAR_W * used / scale, ZOOM_H - 10, COLORS["used"],
                     title=f"{name}: {text}")
            svg.text(LEFT + BAR_W + 8, top + 9, zoom, size=9.5, fill=MUTED, italic=True)
            y += ZOOM_H
    if note:
        svg.text(8, y + 10, note, size=10.5, fill=MUTED, italic=True)
    svg.height = y + (22 if note else 6)
    return str(svg)


class MemoryGauge(SceneView, widgets.VBox):
    """get_mem_info per attribute as bars, as it was when the cell ran; looks again on its
    button and ``refresh()``, and after every cell when ``live=True``."""

    def __init__(self, acl, attrs: list[str] | None = None, live: bool = False):
        self.scene = GaugeScene(acl, attrs)
        self._build(live)
