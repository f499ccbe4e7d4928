"""PoolView: a MemoryPool drawn as rows of bytes, with controls to allocate and free.

The picture shows, for every segment, its name, its payload, the ALIGN_UP rounding and the
+32 bytes (together the guard bytes), and between segments free space and alignment gaps.
The pool is cut into at most 8 rows of 800 pixels; a block smaller than a pixel is still
drawn one pixel wide, and the picture says so. A pool whose segments all sit in its first
half is drawn sized to them: their bytes at a finer scale, in at most two rows, and the
free rest of the pool as one last row, not to scale (a mostly empty pool was seven empty
rows with its alignment gaps a few pixels wide). Hover a block for its exact bytes.
"""
from __future__ import annotations

from html import escape

import ipywidgets as widgets

from acl_lab.align import MALLOC_PADDING, align_up
from acl_lab.errors import AclLabError
from acl_lab.i18n import _, pgettext
from acl_lab.pool import RULES, Block, MemoryPool, PoolStats, Segment
from acl_lab.widgets._base import GONE, View
from acl_lab.widgets._svg import COLORS, LABELS, MUTED, Svg, message, text_width

COLS, MAX_ROWS = 800, 8          # pixels across a row; rows at most
CONTENT_ROWS = 2                 # rows for the segments of a pool drawn sized to them
LEFT, TOP, ROW_H = 70, 44, 22    # row offsets column; two title lines; bar height
LABEL_H, MAX_LABELS = 13, 60     # one line of segment names under a row; more: hover only
LEGEND_KINDS = ("payload", "rounding", "extra", "gap", "free")


class PoolScene:
    """What the view shows and does, as plain data: the pool as of the last look (blocks,
    stats), the length and rule of the next allocation, the selected segment and the last
    action's message."""

    def __init__(self, pool: MemoryPool):
        self.pool = pool
        self.length = 100
        self.rule = pool.rule
        self.selected: int | None = None
        self.message = ""
        self.blocks: list[Block] = []
        self.stats: PoolStats | None = None
        self.closed = False
        self.look()

    def look(self) -> None:
        """Take the pool's state now; a closed pool keeps the last picture taken."""
        self.closed = self.pool.closed
        if not self.closed:
            self.blocks, self.stats = self.pool.blocks(), self.pool.stats()
        if self.selected not in {s.start for s in self.segments()}:
            self.selected = None

    def segments(self) -> list[Segment]:
        return [b.segment for b in self.blocks if b.kind == "segment"]

    def segments_end(self) -> int:
        """Where the last segment ends, as an offset into the pool (0: none)."""
        return max((s.start + s.size - self.pool.base for s in self.segments()), default=0)

    def note(self) -> str:
        if not self.closed:
            return ""
        return (_("the pool is closed: {gone}").format(gone=_(GONE)) if self.stats
                else _("the pool is closed"))

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
            self.look()
            self.message = f"alloc({self.length}) -> {self.describe(self.selected)}"

    def free_selected(self) -> None:
        ptr = self.selected
        if ptr is None:
            self.message = _("Select a segment to free first.")
        elif self._attempt(lambda: self.pool.free(ptr)):
            self.selected = None
            self.message = _("free({ptr}): done").format(ptr=f"0x{ptr:x}")

    def check_guards(self) -> None:
        if self._attempt(self.pool.check_guards):
            self.message = _("check_guards(): every guard byte is intact")

    def describe(self, ptr: int) -> str:
        """One line on the segment at ``ptr``: where it is and what its m bytes hold."""
        seg = next((s for s in self.segments() if s.start == ptr), None)
        if seg is None:
            return _("{ptr} is not a live segment").format(ptr=f"0x{ptr:x}")
        align = RULES[seg.rule]
        return _("segment {name} at {offset} ({rule} rule, start % {align} = {remainder}): "
                 "m = {size} B = payload {length} + rounding {rounding} + {padding}").format(
            name=seg.name, offset=f"+0x{seg.start - self.pool.base:x}", rule=seg.rule,
            align=align, remainder=seg.start % align, size=seg.size, length=seg.length,
            rounding=seg.rounding, padding=MALLOC_PADDING)

    def summary(self) -> str:
        p, s = self.pool, self.stats
        if s is None:
            return _("PoolView: <MemoryPool {capacity} B, closed>").format(capacity=p.capacity)
        if self.closed:
            return _("PoolView of a closed {capacity} B pool ({gone}): {segments} segments, "
                     "{used} B used, {free} B free").format(
                capacity=p.capacity, gone=_(GONE), segments=s.segments, used=s.used,
                free=s.free)
        return _("PoolView of <MemoryPool {capacity} B {rule}/{allocator}: {segments} "
                 "segments, {used} B used, {free} B free>").format(
            capacity=p.capacity, rule=p.rule, allocator=p.allocator, segments=s.segments,
            used=s.used, free=s.free)

    def state(self) -> tuple:
        """Changes whenever the picture would: cheap to compare, so refreshes can skip."""
        return (self.closed, self.selected, tuple((b.start, b.size, b.kind) for b in self.blocks))

    def svg(self) -> str:
        return draw_pool(self)


def skipped_for(block: Block, after: Block | None) -> Segment | None:
    """The segment whose aligned start made the free ``block`` be skipped: the block ends
    where that segment starts and lies wholly below it, past the previous multiple of its
    alignment. Those bytes are an alignment gap (they stay free)."""
    if block.kind != "free" or after is None or after.kind != "segment":
        return None
    seg = after.segment
    if block.start + block.size == seg.start and align_up(block.start, RULES[seg.rule]) == seg.start:
        return seg
    return None


def _pieces(scene: PoolScene) -> list[tuple[int, int, str, str]]:
    """(offset, size, kind, hover text) of every stretch of the pool, in address order."""
    base, out = scene.pool.base, []
    blocks = scene.blocks
    for i, b in enumerate(blocks):
        off = b.start - base
        skipped = skipped_for(b, blocks[i + 1] if i + 1 < len(blocks) else None)
        if skipped is not None:
            out.append((off, b.size, "gap", _(
                "{label}: {size} B at {offset}, skipped to start {name} on a multiple of "
                "{align} (still free)").format(label=_(LABELS["gap"]), size=b.size,
                                              offset=f"+0x{off:x}", name=skipped.name,
                                              align=RULES[skipped.rule])))
            continue
        if b.kind != "segment":
            out.append((off, b.size, b.kind, _("{label}: {size} B at {offset}").format(
                label=_(LABELS[b.kind]), size=b.size, offset=f"+0x{off:x}")))
            continue
        s = b.segment
        head = _("segment {name} at {offset}: m = {size} B").format(
            name=s.name, offset=f"+0x{off:x}", size=s.size)
        out.append((off, s.length, "payload",
                    _("{head}, payload {length} B").format(head=head, length=s.length)))
        if s.rounding:
            out.append((off + s.length, s.rounding, "rounding",
                        _("{head}, ALIGN_UP rounding {rounding} B (guard bytes)").format(
                            head=head, rounding=s.rounding)))
        out.append((off + s.length + s.rounding, MALLOC_PADDING, "extra",
                    _("{head}, +{padding} B (guard bytes)").format(head=head,
                                                                   padding=MALLOC_PADDING)))
    return out


def _row_spans(off: int, size: int, per_px: int, row_bytes: int):
    """(row, x, width) of the bytes [off, off + size) cut into rows; at least 1 px wide."""
    end = off + size
    while off < end:
        row, start = divmod(off, row_bytes)
        stop = min(end, (row + 1) * row_bytes) - row * row_bytes
        yield row, start / per_px, max((stop - start) / per_px, 1.0)
        off = (row + 1) * row_bytes


def _label_lines(placed: list[tuple[float, float]]) -> list[int]:
    """For labels (x, width) in x order: the line under the row each goes on, so that no two
    labels on one line overlap."""
    ends: list[float] = []
    lines = []
    for x, w in placed:
        line = next((i for i, end in enumerate(ends) if x >= end + 6), len(ends))
        if line == len(ends):
            ends.append(0.0)
        ends[line] = x + w
        lines.append(line)
    return lines


def layout(capacity: int, segments_end: int) -> tuple[int, int]:
    """(bytes per pixel, bytes drawn to scale): the whole pool in at most MAX_ROWS rows, or,
    when every segment ends in the pool's first half, those bytes in at most CONTENT_ROWS
    rows at a finer scale (the free rest follows as one row, not to scale)."""
    per_px = -(-capacity // (COLS * MAX_ROWS))
    if not 0 < segments_end <= capacity // 2:
        return per_px, capacity
    finer = min(per_px, -(-segments_end // (COLS * CONTENT_ROWS)))
    drawn = min(capacity, -(-segments_end // (COLS * finer)) * COLS * finer)
    return finer, drawn


def draw_pool(scene: PoolScene) -> str:
    """SVG of the pool as rows of bytes, each segment named, the selected one framed."""
    pool = scene.pool
    if scene.stats is None:
        return message(f"MemoryPool {pool.capacity} B", scene.note())
    cap = pool.capacity
    per_px, drawn = layout(cap, scene.segments_end())
    row_bytes = COLS * per_px
    rows = -(-drawn // row_bytes)
    segments = scene.segments()

    # names: inside the payload when they fit, else on lines under their row
    inside, under = [], {r: [] for r in range(rows)}
    for s in segments if len(segments) <= MAX_LABELS else ():
        off = s.start - pool.base
        row, x = divmod(off, row_bytes)
        x /= per_px
        w = text_width(s.name, 10)
        if min(s.length, row_bytes - off % row_bytes) / per_px >= w + 6:   # its first row
            inside.append((row, x, s))
        else:
            under[row].append((x, w, s))
    lines = {r: _label_lines([(x, w) for x, w, _ in under[r]]) for r in range(rows)}
    row_y, y = [], TOP
    for r in range(rows):
        row_y.append(y)
        y += ROW_H + 4 + LABEL_H * (max(lines[r]) + 1 if lines[r] else 0)
    tail_y = y                   # the rest of the pool, when it is not drawn to scale
    if drawn < cap:
        y += ROW_H + 4

    s = scene.stats
    scale = _("1 px = {per_px} B, {row_bytes} B per row").format(per_px=per_px,
                                                                 row_bytes=row_bytes)
    if drawn < cap:
        scale += _("; from +{drawn} on not to scale").format(drawn=drawn)
    widened = any(size < per_px for _s, size, _k, _h in _pieces(scene)) if per_px > 1 else False
    if widened:
        scale += _("; stretches under 1 px drawn 1 px wide")
    title = (_("MemoryPool {capacity} B at {base} · {rule} rule ({align}-byte starts) · "
               "{allocator}").format(capacity=cap, base=f"0x{pool.base:x}", rule=pool.rule,
                                     align=pool.align, allocator=pool.allocator)
             + (f" · {scene.note()}" if scene.closed else ""))
    stats = _("{segments} segments, {used} B used ({padding} B padding), {free} B free, "
              "largest {largest} B, fragmentation {fragmentation:.0%} [{scale}]").format(
        segments=s.segments, used=s.used, padding=s.padding, free=s.free,
        largest=s.largest_free, fragmentation=s.fragmentation, scale=scale)
    width = max(LEFT + COLS + 20, text_width(title, 12) + 16, text_width(stats, 10.5) + 16)
    svg = Svg(width, y + 26)
    svg.text(8, 17, title, size=12, weight="bold")
    svg.text(8, 35, stats, size=10.5, fill=MUTED)
    for r in range(rows):
        svg.text(LEFT - 6, row_y[r] + 15, f"+{r * row_bytes}", size=9, anchor="end",
                 fill=MUTED)
        used = min(row_bytes, drawn - r * row_bytes) / per_px
        svg.rect(LEFT, row_y[r], used, ROW_H, COLORS["free"])
    if drawn < cap:
        rest = _("+{start} to the end: {size} B, free (not to scale)").format(
            start=drawn, size=cap - drawn)
        svg.text(LEFT - 6, tail_y + 15, f"+{drawn}", size=9, anchor="end", fill=MUTED)
        svg.rect(LEFT, tail_y, COLS, ROW_H, COLORS["free"], title=rest)
        svg.text(LEFT + 8, tail_y + 15, rest, size=10, fill=MUTED, italic=True)
    for off, size, kind, hover in _pieces(scene):
        if kind == "free" or off >= drawn:
            continue
        for row, x, w in _row_spans(off, min(size, drawn - off), per_px, row_bytes):
            svg.rect(LEFT + x, row_y[row], w, ROW_H, COLORS[kind], title=hover)
    for row, x, seg in inside:
        svg.text(LEFT + x + 3, row_y[row] + 15, seg.name, size=10, fill="#ffffff",
                 title=seg.label)
    for r in range(rows):
        for (x, w, seg), line in zip(under[r], lines[r]):
            ty = row_y[r] + ROW_H + 3 + LABEL_H * (line + 1) - 2
            svg.line(LEFT + x + 0.5, row_y[r] + ROW_H, LEFT + x + 0.5, ty - 8, stroke=MUTED,
                     width=0.8)
            svg.text(LEFT + x, ty, seg.name, size=10, title=seg.label)
    chosen = next((seg for seg in segments if seg.start == scene.selected), None)
    if chosen is not None:
        for row, x, w in _row_spans(chosen.start - pool.base, chosen.size, per_px, row_bytes):
            svg.rect(LEFT + x + 1, row_y[row] + 1, max(w - 2, 1), ROW_H - 2, "none",
                     stroke="#000000", stroke_width=2)
    svg.legend(8, y + 6, [(COLORS[k], _(LABELS[k])) for k in LEGEND_KINDS], width=width - 16)
    return str(svg)


class PoolView(View, widgets.VBox):
    """A MemoryPool as a picture, with controls: allocate (length, rule), select a segment
    to inspect or free, check guards. Shows the pool as it was when the cell ran; its own
    controls and ``refresh()`` look again, and so does every cell when ``live=True``."""

    def __init__(self, pool: MemoryPool, live: bool = False):
        if not isinstance(pool, MemoryPool):
            raise TypeError(_("PoolView shows an acl_lab.pool.MemoryPool, not {kind}: create "
                              "one with MemoryPool(acl, size) first.").format(
                                  kind=type(pool).__name__))
        self.scene = PoolScene(pool)
        self._shown = None
        self._syncing = False
        self.picture = widgets.HTML()
        self.length = widgets.IntText(value=self.scene.length, description=_("length"),
                                      layout={"width": "180px"})
        self.rule = widgets.Dropdown(
            options=[(f"{r} ({a})", r) for r, a in RULES.items()],
            value=pool.rule, description=_("rule"), layout={"width": "200px"})
        self.alloc_button = widgets.Button(description=_("allocate"), button_style="primary")
        self.segment = widgets.Dropdown(options=[], description=_("segment"),
                                        layout={"width": "300px"})
        self.free_button = widgets.Button(description=pgettext("button", "free"))
        self.check_button = widgets.Button(description=_("check guards"))
        self.refresh_button = widgets.Button(description=_("refresh"))
        self.status = widgets.HTML()
        super().__init__(children=[
            self.picture,
            widgets.HBox([self.length, self.rule, self.alloc_button]),
            widgets.HBox([self.segment, self.free_button, self.check_button,
                          self.refresh_button]),
            self.status])
        self.length.observe(self._on_length, "value")
        self.rule.observe(self._on_rule, "value")
        self.segment.observe(self._on_select, "value")
        self.alloc_button.on_click(lambda _: self._act(self.scene.allocate))
        self.free_button.on_click(lambda _: self._act(self.scene.free_selected))
        self.check_button.on_click(lambda _: self._act(self.scene.check_guards))
        self.refresh_button.on_click(lambda _: self.refresh())
        self._redraw()
        self._follow_cells(live)

    def _on_length(self, change) -> None:
        self.scene.length = change["new"]

    def _on_rule(self, change) -> None:
        self.scene.rule = change["new"]

    def _on_select(self, change) -> None:
        if self._syncing:
            return
        self.scene.selected = change["new"]
        if change["new"] is not None:
            self.scene.message = self.scene.describe(change["new"])
        self._redraw()

    def _act(self, action) -> None:
        action()
        self.refresh()

    def refresh(self) -> None:
        """Look at the pool again and redraw (skipped when nothing changed)."""
        self.scene.look()
        self._redraw()

    def _redraw(self) -> None:
        m = self.scene
        self.status.value = f"<code>{escape(m.message)}</code>" if m.message else ""
        state = m.state()
        if state == self._shown:
            return
        self._shown = state
        segments = m.segments()
        self._syncing = True
        try:
            self.segment.options = [(f"{s.name} +0x{s.start - m.pool.base:x} ({s.length} B)",
                                     s.start) for s in segments]
            self.segment.value = m.selected
        finally:
            self._syncing = False
        for control in (self.length, self.rule, self.alloc_button, self.segment,
                        self.free_button, self.check_button):
            control.disabled = m.closed
        self.picture.value = m.svg()

    def show_error(self, text: str) -> None:
        self.status.value = f"<code>{escape(text)}</code>"

    def summary(self) -> str:
        return self.scene.summary()

    def svg(self) -> str:
        return self.scene.svg()
