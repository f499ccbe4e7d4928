"""AlignmentExplorer: ALIGN_UP(len, k) as arithmetic and as a picture, for k = 32, 64, 128.

Rule 10 (docs/rules.md#rule-10) defines ALIGN_UP[len, k] = ((len-1)/k+1)*k. The picture
draws ``len`` bytes against blocks of k bytes for each k the rules use (32: the size
rounding; 64: runtime segment starts; 128: media-processing starts), then the pool segment
m = ALIGN_UP(len,32)+32.
It shows no runtime state, so it has nothing to freeze: only its sliders change it.
"""
from __future__ import annotations

from html import escape

import ipywidgets as widgets

from acl_lab.align import DVPP_ALIGN, MALLOC_PADDING, RUNTIME_ALIGN, align_up, segment_size
from acl_lab.i18n import _
from acl_lab.widgets._base import View
from acl_lab.widgets._svg import COLORS, LABELS, MUTED, Svg, text_width

KS = (32, RUNTIME_ALIGN, DVPP_ALIGN)
MAX_LENGTH = 1024


class AlignmentScene:
    """The length and k being explored, and everything derived from them."""

    def __init__(self, length: int = 100, k: int = 32):
        self.length, self.k = length, k

    @property
    def aligned(self) -> int:
        return align_up(self.length, self.k)

    def arithmetic(self) -> str:
        n, k = self.length, self.k
        q = (n - 1) // k
        return (f"ALIGN_UP({n}, {k}) = (({n} - 1) // {k} + 1) × {k} = ({q} + 1) × {k} = "
                f"{self.aligned}  " + _("({padding} B of padding)").format(
                    padding=self.aligned - n))

    def segment(self) -> str:
        n = self.length
        formula = (f"ALIGN_UP({n}, 32) + {MALLOC_PADDING} = {align_up(n, 32)} + "
                   f"{MALLOC_PADDING} = {segment_size(n)}")
        return _("pool segment: m = {formula} B, starting on a multiple of {runtime} (runtime) "
                 "or {dvpp} (dvpp)").format(formula=formula, runtime=RUNTIME_ALIGN,
                                            dvpp=DVPP_ALIGN)

    def svg(self) -> str:
        return draw_alignment(self.length, self.k)


PLOT_W, ROW_H = 600, 30


def draw_alignment(length: int, k: int) -> str:
    """SVG: one row per k in KS (``k`` highlighted), then the segment m, on one byte axis."""
    m = segment_size(length)
    right = align_up(max(align_up(length, max(KS)), m), max(KS)) * 1.08
    rows = [(f"ALIGN_UP(len, {kk})", kk) for kk in KS] + [(_("segment m"), None)]
    left = max(text_width(label, 11) for label, _ in rows) + 24   # bold labels fit too
    width = left + PLOT_W + 60
    svg = Svg(width, 0)

    def x(b: float) -> float:
        return left + b / right * PLOT_W

    for i, (label, kk) in enumerate(rows):
        y = 8 + i * ROW_H
        if kk is None:
            end = m
            parts = [(0, length, "payload"), (length, align_up(length, 32) - length, "rounding"),
                     (align_up(length, 32), MALLOC_PADDING, "extra")]
        else:
            end = align_up(length, kk)
            parts = [(0, length, "payload"), (length, end - length, "rounding")]
        if kk == k:
            svg.rect(4, y, width - 8, ROW_H, "#fff1c1")
        svg.text(left - 8, y + 19, label, size=10.5, anchor="end",
                 weight="bold" if kk == k else None)
        for start, size, kind in parts:
            if size:
                svg.rect(x(start), y + 5, x(start + size) - x(start), ROW_H - 10, COLORS[kind],
                         title=_("{label}: {size} B").format(label=_(LABELS[kind]),
                                                             size=size))
        if kk is not None:   # the k-byte blocks ALIGN_UP counts in
            for b in range(0, end + 1, kk):
                svg.line(x(b), y + 3, x(b), y + ROW_H - 3, stroke="#333333", width=0.7)
        svg.text(x(end) + 5, y + 19, f"{end}", size=10.5)
    axis = 8 + len(rows) * ROW_H + 14
    svg.text(left, axis, _("bytes (len = {length}; ticks mark the k-byte blocks)").format(
        length=length), size=10, fill=MUTED)
    svg.height = axis + 6 + svg.legend(left, axis + 8, [(COLORS[c], _(LABELS[c])) for c in
                                                         ("payload", "rounding", "extra")],
                                       width=PLOT_W)
    return str(svg)


class AlignmentExplorer(View, widgets.VBox):
    """Sliders for len and k; ALIGN_UP shown as arithmetic and as a picture."""

    def __init__(self, length: int = 100, k: int = 32):
        if length.__class__ is not int or not 1 <= length <= MAX_LENGTH or k not in KS:
            raise ValueError(_("AlignmentExplorer(length, k): length is a whole number from 1 "
                               "to {max_length} and k one of {ks}; got length={length}, "
                               "k={k}.").format(max_length=MAX_LENGTH,
                                                ks=", ".join(map(str, KS)),
                                                length=repr(length), k=repr(k)))
        self.scene = AlignmentScene(length, k)
        self.length = widgets.IntSlider(value=length, min=1, max=MAX_LENGTH, description="len",
                                        continuous_update=False, layout={"width": "420px"})
        self.k = widgets.SelectionSlider(options=KS, value=k, description="k")
        self.arithmetic = widgets.HTML()
        self.picture = widgets.HTML()
        super().__init__(children=[widgets.HBox([self.length, self.k]), self.arithmetic,
                                   self.picture])
        self.length.observe(self._on_change, "value")
        self.k.observe(self._on_change, "value")
        self.refresh()

    def _on_change(self, _change) -> None:
        self.scene.length, self.scene.k = self.length.value, self.k.value
        self.refresh()

    def refresh(self) -> None:
        m = self.scene
        self.arithmetic.value = (f"<code>{escape(m.arithmetic())}</code><br>"
                                 f"<code>{escape(m.segment())}</code>")
        self.picture.value = m.svg()

    def summary(self) -> str:
        m = self.scene
        return _("AlignmentExplorer: {align}; segment m = {segment}").format(
            align=f"ALIGN_UP({m.length}, {m.k}) = {m.aligned}",
            segment=f"ALIGN_UP({m.length},32)+32 = {segment_size(m.length)}")

    def svg(self) -> str:
        return self.scene.svg()
