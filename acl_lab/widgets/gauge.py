"""MemoryGauge: acl.rt.get_mem_info per memory attribute (DDR/HBM, all/huge/normal pages).

The gauge is a passive observer. It queries through the function behind the trace, so
the learner's trace shows only the learner's calls, and it asks only while a device is
open (per ``acl_lab.snapshot()``), so a failing query never replaces the message
``acl.get_recent_err_msg()`` holds for the learner's own last error.
"""
from __future__ import annotations

from html import escape

import ipywidgets as widgets

import acl_lab

from .. import constants as C
from ..trace import untraced
from ._base import RefreshAfterCells, StaticPicture
from ._figure import COLORS, format_bytes, render

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


def _device_open(snap: dict) -> bool:
    devices = snap.get("devices")
    if devices is None:        # a backend that does not say: just ask
        return True
    return bool(snap.get("initialized")) and any(d["open"] for d in devices.values())


class GaugeModel:
    """Readings of get_mem_info: attribute name -> (free, total), and a note when the
    gauge could not read (no device open, or the query's error message).

    ``attrs`` (aclrtMemAttr names) fixes what is read; by default it follows the memory
    kinds of the device in use (HBM and DDR on a 910B, DDR only on a 310).
    """

    def __init__(self, acl, attrs: list[str] | None = None):
        self._query = untraced(acl.rt.get_mem_info)
        unknown = [a for a in attrs or () if a not in C.MEM_ATTR_NAMES.values()]
        if unknown:
            raise ValueError(f"unknown memory attribute(s) {', '.join(unknown)}; use "
                             f"aclrtMemAttr names such as ACL_HBM_MEM_HUGE")
        self._fixed = list(attrs) if attrs else None
        self.attrs: list[str] = self._fixed or []
        self.readings: dict[str, tuple[int, int]] = {}
        self.note = ""

    def refresh(self) -> None:
        snap = acl_lab.snapshot()
        if not _device_open(snap):
            self.readings, self.note = {}, ("no device open: call acl.init() and "
                                            "acl.rt.set_device(0) to see memory")
            return
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

    def picture(self) -> bytes:
        return draw_gauge(self.rows(), self.note)


def _label(name: str) -> str:
    """ACL_HBM_MEM_HUGE -> "HBM huge", ACL_HBM_MEM -> "HBM all"."""
    words = [w if w in KINDS else w.lower() for w in name.split("_")[1:] if w != "MEM"]
    return " ".join(words if len(words) > 1 else words + ["all"])


def draw_gauge(rows: list[tuple[str, int, int]], note: str = "") -> bytes:
    """PNG: one horizontal bar per attribute, the used share filled."""
    height = 0.32 * max(len(rows), 1) + 0.8

    def draw(fig):
        if not rows:
            fig.text(0.5, 0.5, note or "no readings", ha="center", va="center", fontsize=9)
            return
        ax = fig.add_axes((0.14, 0.35 / height, 0.52, 1 - 0.75 / height))
        fig.text(0.01, 1 - 0.22 / height, "acl.rt.get_mem_info: used and total per attribute",
                 fontsize=9, weight="bold")
        for y, (_, used, total) in enumerate(reversed(rows)):
            share = used / total if total else 0.0
            ax.barh(y, 1, color=COLORS["free"], height=0.7)
            ax.barh(y, share, color=COLORS["used"], height=0.7)
            ax.text(1.02, y, f"{format_bytes(used)} used of {format_bytes(total)} "
                             f"({share:.1%})", va="center", fontsize=8)
        ax.set_yticks(range(len(rows)), [_label(n) for n, _, _ in reversed(rows)], fontsize=8)
        ax.set_xlim(0, 1)
        ax.set_xticks([0, 0.5, 1], ["0", "50%", "100%"], fontsize=7)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)

    return render(7.5, height, draw)


class MemoryGauge(StaticPicture, RefreshAfterCells, widgets.VBox):
    """get_mem_info per attribute as progress bars; refreshes after every cell inside
    IPython (and on ``refresh()`` or its button)."""

    def __init__(self, acl, attrs: list[str] | None = None):
        self.model = GaugeModel(acl, attrs)
        self._shown = None
        self.bars: dict[str, widgets.FloatProgress] = {}
        self.texts: dict[str, widgets.Label] = {}
        self.rows = widgets.VBox()
        self.refresh_button = widgets.Button(description="refresh")
        self.note = widgets.HTML()
        super().__init__(children=[widgets.HTML("<b>get_mem_info</b>"), self.rows,
                                   widgets.HBox([self.refresh_button, self.note])])
        self.refresh_button.on_click(lambda _: self.refresh())
        self.refresh()
        self._watch_cells()

    def _build_rows(self) -> None:
        """One label + bar + text per attribute (rebuilt when the attributes change)."""
        names = self.model.attrs
        self.bars = {n: widgets.FloatProgress(min=0.0, max=1.0, layout={"width": "300px"})
                     for n in names}
        self.texts = {n: widgets.Label() for n in names}
        self.rows.children = [widgets.HBox([widgets.Label(_label(n), layout={"width": "90px"}),
                                            self.bars[n], self.texts[n]]) for n in names]

    def refresh(self) -> None:
        """Query get_mem_info again and update the bars (nothing is sent if unchanged)."""
        m = self.model
        m.refresh()
        state = (tuple(m.attrs), tuple(m.rows()), m.note)
        if state == self._shown:
            return
        if self._shown is None or self._shown[0] != state[0]:
            self._build_rows()
        self._shown = state
        for name in m.attrs:
            reading = m.readings.get(name)
            if reading is None:
                self.bars[name].value, self.texts[name].value = 0.0, "-"
                continue
            free, total = reading
            self.bars[name].value = (total - free) / total if total else 0.0
            self.texts[name].value = f"{format_bytes(total - free)} used of {format_bytes(total)}"
        self.note.value = f"<i>{escape(m.note)}</i>" if m.note else ""

    def show_error(self, text: str) -> None:
        self.note.value = f"<i>{escape(text)}</i>"

    def summary(self) -> str:
        parts = [f"{_label(n)} {format_bytes(u)}/{format_bytes(t)}" for n, u, t in
                 self.model.rows() if n.endswith("_MEM")]
        return "MemoryGauge: " + (", ".join(parts) + " used" if parts else self.model.note)

    def picture(self) -> bytes:
        return self.model.picture()
