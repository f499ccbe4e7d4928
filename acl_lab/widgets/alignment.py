"""AlignmentExplorer: ALIGN_UP(len, k) as arithmetic and as a picture, for k = 32, 64, 128.

The seed defines ALIGN_UP[len, k] = ((len-1)/k+1)*k. The picture draws ``len`` bytes
against blocks of k bytes for each k the rules use (32: the size rounding; 64: runtime
segment starts; 128: media-processing starts), then the pool segment m = ALIGN_UP(len,32)+32.
"""
from __future__ import annotations

from html import escape

import ipywidgets as widgets

from ..align import DVPP_ALIGN, MALLOC_PADDING, RUNTIME_ALIGN, align_up, segment_size
from ._base import StaticPicture
from ._figure import COLORS, legend_handles, render

KS = (32, RUNTIME_ALIGN, DVPP_ALIGN)
MAX_LENGTH = 1024


class AlignmentModel:
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
                f"{self.aligned}  ({self.aligned - n} B of padding)")

    def segment(self) -> str:
        n = self.length
        return (f"pool segment: m = ALIGN_UP({n}, 32) + {MALLOC_PADDING} = {align_up(n, 32)} + "
                f"{MALLOC_PADDING} = {segment_size(n)} B, starting on a multiple of "
                f"{RUNTIME_ALIGN} (runtime) or {DVPP_ALIGN} (dvpp)")

    def picture(self) -> bytes:
        return draw_alignment(self.length, self.k)


def draw_alignment(length: int, k: int) -> bytes:
    """PNG: one row per k in KS (``k`` highlighted), then the segment m, on one byte axis."""
    m = segment_size(length)
    right = align_up(max(align_up(length, max(KS)), m), max(KS))

    def draw(fig):
        ax = fig.add_axes((0.17, 0.26, 0.8, 0.7))
        rows = [(f"ALIGN_UP(len, {kk})", kk) for kk in KS] + [("segment m", None)]
        for y, (_, kk) in enumerate(rows):
            top = len(rows) - 1 - y
            if kk is None:
                parts = [(0, length, "payload"), (length, align_up(length, 32) - length,
                         "rounding"), (align_up(length, 32), MALLOC_PADDING, "extra")]
                end = m
            else:
                end = align_up(length, kk)
                parts = [(0, length, "payload"), (length, end - length, "rounding")]
            ax.broken_barh([(x, w) for x, w, _ in parts], (top + 0.15, 0.7),
                           facecolors=[COLORS[c] for _, _, c in parts], edgecolor="none")
            if kk == k:
                ax.axhspan(top, top + 1, color="#fff1c1", zorder=0)
            if kk is not None:   # the k-byte blocks ALIGN_UP counts in
                ax.vlines(range(0, end + 1, kk), top + 0.1, top + 0.9, colors="#333333",
                          linewidth=0.6)
            ax.text(end + right * 0.01, top + 0.5, f"{end}", va="center", fontsize=8)
        ax.set_yticks([len(rows) - 1 - y + 0.5 for y in range(len(rows))],
                      [label for label, _ in rows], fontsize=8)
        for tick, (_, kk) in zip(ax.get_yticklabels(), rows):
            tick.set_fontweight("bold" if kk == k else "normal")
        ax.set_xlim(0, right * 1.08)
        ax.set_ylim(0, len(rows))
        ax.set_xlabel(f"bytes (len = {length}; ticks mark the k-byte blocks)", fontsize=8,
                      labelpad=1)
        ax.tick_params(axis="x", labelsize=7)
        fig.legend(handles=legend_handles(("payload", "rounding", "extra")), loc="lower center",
                   ncol=3, fontsize=7, frameon=False, borderaxespad=0.1)

    return render(7.5, 2.6, draw)


class AlignmentExplorer(StaticPicture, widgets.VBox):
    """Sliders for len and k; ALIGN_UP shown as arithmetic and as a picture."""

    def __init__(self, length: int = 100, k: int = 32):
        self.model = AlignmentModel(length, k)
        self.length = widgets.IntSlider(value=length, min=1, max=MAX_LENGTH, description="len",
                                        continuous_update=False, layout={"width": "420px"})
        self.k = widgets.SelectionSlider(options=KS, value=k, description="k")
        self.arithmetic = widgets.HTML()
        self.image = widgets.Image(format="png")
        super().__init__(children=[widgets.HBox([self.length, self.k]), self.arithmetic,
                                   self.image])
        self.length.observe(self._on_change, "value")
        self.k.observe(self._on_change, "value")
        self.refresh()

    def _on_change(self, _change) -> None:
        self.model.length, self.model.k = self.length.value, self.k.value
        self.refresh()

    def refresh(self) -> None:
        m = self.model
        self.arithmetic.value = (f"<code>{escape(m.arithmetic())}</code><br>"
                                 f"<code>{escape(m.segment())}</code>")
        self.image.value = m.picture()

    def summary(self) -> str:
        m = self.model
        return (f"AlignmentExplorer: ALIGN_UP({m.length}, {m.k}) = {m.aligned}; segment m = "
                f"ALIGN_UP({m.length},32)+32 = {segment_size(m.length)}")

    def picture(self) -> bytes:
        return self.model.picture()
