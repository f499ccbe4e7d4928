"""PoolView: a MemoryPool drawn as a strip of bytes, with controls to allocate and free.

The strip shows, for every segment, its payload, the ALIGN_UP rounding and the +32 bytes
(together the guard bytes), and between segments free space and alignment gaps. It is a
raster: the pool is cut into at most 8 rows of 800 cells, one pixel each, so drawing costs
the same for 10 or 10,000 segments; anything smaller than a cell is still drawn one cell
wide.
"""
from __future__ import annotations

from html import escape

import ipywidgets as widgets
import numpy as np

from ..align import MALLOC_PADDING
from ..errors import AclLabError
from ..pool import RULES, MemoryPool, Segment
from ._base import RefreshAfterCells, StaticPicture
from ._figure import COLORS, DPI, legend_handles, render

COLS, MAX_ROWS = 800, 8       # cells per row = pixels across the strip
WIDTH_PX, LEFT_PX, ROW_PX = 900, 80, 30
TOP_PX, BOTTOM_PX = 56, 28    # room for the two title lines and the legend
_KINDS = ("free", "gap", "payload", "rounding", "extra", "outside")   # raster code = index


class PoolViewModel:
    """What the view shows and does, as plain data: the pool, the length and rule of the
    next allocation, the selected segment and the last action's message."""

    def __init__(self, pool: MemoryPool):
        self.pool = pool
        self.length = 100
        self.rule = pool.rule
        self.selected: int | None = None
        self.message = ""

    def segments(self) -> list[Segment]:
        return [] if self.pool.closed else \
            [b.segment for b in self.pool.blocks() if b.kind == "segment"]

    def _attempt(self, action) -> bool:
        """Run ``action``; a refusal becomes the message instead of an exception."""
        try:
            action()
        except AclLabError as e:
            self.message = str(e)
            return False
        return True

    def allocate(self) -> None:
        def alloc():
            self.selected = self.pool.alloc(self.length, rule=self.rule)
        if self._attempt(alloc):
            self.message = f"alloc({self.length}) -> {self.describe(self.selected)}"

    def free_selected(self) -> None:
        ptr = self.selected
        if ptr is None:
            self.message = "Select a segment to free first."
        elif self._attempt(lambda: self.pool.free(ptr)):
            self.selected = None
            self.message = f"free(0x{ptr:x}): done"

    def check_guards(self) -> None:
        if self._attempt(self.pool.check_guards):
            self.message = "check_guards(): every guard byte is intact"

    def describe(self, ptr: int) -> str:
        """One line on the segment at ``ptr``: where it is and what its m bytes hold."""
        seg = next((s for s in self.segments() if s.start == ptr), None)
        if seg is None:
            return f"0x{ptr:x} is not a live segment"
        align = RULES[seg.rule]
        return (f"segment {seg.name} at +0x{seg.start - self.pool.base:x} ({seg.rule} rule, "
                f"start % {align} = {seg.start % align}): m = {seg.size} B = payload "
                f"{seg.length} + rounding {seg.rounding} + {MALLOC_PADDING}")

    def readout(self) -> str:
        if self.pool.closed:
            return "the pool is closed"
        s = self.pool.stats()
        return (f"{s.segments} segments · used {s.used} B (asked {s.requested}, padding "
                f"{s.padding}) · free {s.free} B in {s.free_blocks} blocks, largest "
                f"{s.largest_free} B · fragmentation {s.fragmentation:.0%}")

    def state(self) -> tuple:
        """Changes whenever the picture would: cheap to compare, so refreshes can skip."""
        if self.pool.closed:
            return ("closed",)
        return (self.selected, tuple((b.start, b.size, b.kind) for b in self.pool.blocks()))

    def picture(self) -> bytes:
        return draw_pool(self.pool, self.selected)


def _raster(pool: MemoryPool) -> tuple[np.ndarray, int]:
    """(rows x COLS cell codes, bytes per cell): the pool's bytes in order, each cell a
    whole number of bytes; cells past the end of the pool are "outside"."""
    cap = pool.capacity
    per_cell = -(-cap // (COLS * MAX_ROWS))
    rows = -(-cap // (COLS * per_cell))
    codes = np.full(rows * COLS, _KINDS.index("outside"), dtype=np.uint8)
    codes[:-(-cap // per_cell)] = _KINDS.index("free")

    def paint(offset: int, size: int, kind: str) -> None:
        lo = offset // per_cell
        codes[lo:max(lo + 1, -(-(offset + size) // per_cell))] = _KINDS.index(kind)

    for b in pool.blocks():
        off = b.start - pool.base
        if b.kind == "gap":
            paint(off, b.size, "gap")
        elif b.kind == "segment":
            s = b.segment
            paint(off, s.length, "payload")
            if s.rounding:
                paint(off + s.length, s.rounding, "rounding")
            paint(off + s.length + s.rounding, MALLOC_PADDING, "extra")
    return codes.reshape(rows, COLS), per_cell


def _pixels(codes: np.ndarray, outline: tuple[int, int] | None) -> np.ndarray:
    """RGB pixels of the strip: ROW_PX pixels per row (the last two white, as a separator),
    and a black frame around the cells [first, last) of ``outline``."""
    from matplotlib.colors import to_rgb

    palette = (np.array([to_rgb(COLORS[k]) for k in _KINDS]) * 255).astype(np.uint8)
    img = np.repeat(palette[codes], ROW_PX, axis=0)
    for sep in (ROW_PX - 2, ROW_PX - 1):
        img[sep::ROW_PX] = 255
    if outline is not None:
        first, last = outline
        for r in range(first // COLS, (last - 1) // COLS + 1):
            c0, c1 = max(first - r * COLS, 0), min(last - r * COLS, COLS)
            top, bottom = r * ROW_PX, (r + 1) * ROW_PX - 2
            img[top:top + 2, c0:c1] = img[bottom - 2:bottom, c0:c1] = 0
            if r == first // COLS:
                img[top:bottom, c0:c0 + 2] = 0
            if r == (last - 1) // COLS:
                img[top:bottom, max(c1 - 2, 0):c1] = 0
    return img


def draw_pool(pool: MemoryPool, selected: int | None = None) -> bytes:
    """PNG of the pool as rows of bytes, the ``selected`` segment framed in black."""
    if pool.closed:
        return render(WIDTH_PX / DPI, 0.6, lambda fig: fig.text(0.01, 0.4, repr(pool)))
    codes, per_cell = _raster(pool)
    seg = next((b for b in pool.blocks() if b.start == selected), None)
    outline = None if seg is None else ((seg.start - pool.base) // per_cell,
                                        -(-(seg.start - pool.base + seg.size) // per_cell))
    img = _pixels(codes, outline)
    rows = codes.shape[0]
    height_px = ROW_PX * rows + TOP_PX + BOTTOM_PX
    s = pool.stats()

    def draw(fig):
        fig.figimage(img, LEFT_PX, BOTTOM_PX)
        for r in range(rows):       # each row's first byte offset, left of the row
            y = BOTTOM_PX + (rows - r - 0.5) * ROW_PX - 1
            fig.text((LEFT_PX - 6) / WIDTH_PX, y / height_px, f"+{r * COLS * per_cell}",
                     ha="right", va="center", fontsize=7)
        fig.text(0.01, 1 - 20 / height_px,
                 f"MemoryPool {pool.capacity} B at 0x{pool.base:x} - {pool.rule} rule "
                 f"({pool.align}-byte starts), {pool.allocator}", fontsize=9, weight="bold")
        fig.text(0.01, 1 - 40 / height_px,
                 f"{s.segments} segments, {s.used} B used ({s.padding} B padding), "
                 f"{s.free} B free, largest {s.largest_free} B, fragmentation "
                 f"{s.fragmentation:.0%}   [1 pixel = {per_cell} B, {COLS * per_cell} B "
                 f"per row]", fontsize=8)
        fig.legend(handles=legend_handles(_KINDS[-2::-1]), loc="lower center", ncol=5,
                   fontsize=7, frameon=False, borderaxespad=0.1)

    return render(WIDTH_PX / DPI, height_px / DPI, draw)


class PoolView(StaticPicture, RefreshAfterCells, widgets.VBox):
    """A MemoryPool as a picture, with controls: allocate (length, rule), select a segment
    to inspect or free, check guards. Refreshes after each cell inside IPython, so
    ``pool.alloc`` calls made in code show up too; ``refresh()`` does it by hand."""

    def __init__(self, pool: MemoryPool):
        self.model = PoolViewModel(pool)
        self._shown = None
        self._syncing = False
        self.title = widgets.HTML()
        self.image = widgets.Image(format="png")
        self.length = widgets.BoundedIntText(value=self.model.length, min=1, max=pool.capacity,
                                             description="length", layout={"width": "180px"})
        self.rule = widgets.Dropdown(
            options=[(f"{r} ({a})", r) for r, a in RULES.items()],
            value=pool.rule, description="rule", layout={"width": "200px"})
        self.alloc_button = widgets.Button(description="allocate", button_style="primary")
        self.segment = widgets.Dropdown(options=[], description="segment",
                                        layout={"width": "300px"})
        self.free_button = widgets.Button(description="free")
        self.check_button = widgets.Button(description="check guards")
        self.status = widgets.HTML()
        super().__init__(children=[
            self.title, self.image,
            widgets.HBox([self.length, self.rule, self.alloc_button]),
            widgets.HBox([self.segment, self.free_button, self.check_button]),
            self.status])
        self.length.observe(self._on_length, "value")
        self.rule.observe(self._on_rule, "value")
        self.segment.observe(self._on_select, "value")
        self.alloc_button.on_click(lambda _: self._act(self.model.allocate))
        self.free_button.on_click(lambda _: self._act(self.model.free_selected))
        self.check_button.on_click(lambda _: self._act(self.model.check_guards))
        self.refresh()
        self._watch_cells()

    def _on_length(self, change) -> None:
        self.model.length = change["new"]

    def _on_rule(self, change) -> None:
        self.model.rule = change["new"]

    def _on_select(self, change) -> None:
        if self._syncing:
            return
        self.model.selected = change["new"]
        if change["new"] is not None:
            self.model.message = self.model.describe(change["new"])
        self.refresh()

    def _act(self, action) -> None:
        action()
        self.refresh()

    def refresh(self) -> None:
        """Redraw from the pool (skipped when nothing changed since the last draw)."""
        m = self.model
        self.title.value = f"<b>{escape(m.readout())}</b>"
        self.status.value = f"<code>{escape(m.message)}</code>" if m.message else ""
        state = m.state()
        if state == self._shown:
            return
        self._shown = state
        segments = m.segments()
        if m.selected not in {s.start for s in segments}:
            m.selected = None
        self._syncing = True
        try:
            self.segment.options = [(f"{s.name} +0x{s.start - m.pool.base:x} ({s.length} B)",
                                     s.start) for s in segments]
            self.segment.value = m.selected
        finally:
            self._syncing = False
        for control in (self.alloc_button, self.free_button, self.check_button):
            control.disabled = m.pool.closed
        self.image.value = m.picture()

    def show_error(self, text: str) -> None:
        self.status.value = f"<code>{escape(text)}</code>"

    def summary(self) -> str:
        return f"PoolView of {self.model.pool!r}"

    def picture(self) -> bytes:
        return self.model.picture()
