"""MemoryMap: where every live block of memory is, host or device, pool by pool.

The host side holds pinned memory (``malloc_host``) and pageable memory (the numpy arrays
and ``bytes`` handed to ``numpy_to_ptr`` / ``bytes_to_ptr``); each device holds its page
pools (HBM or DDR, huge or normal pages) with the blocks ``malloc``, ``malloc_align32``,
``malloc_cached``, ``dvpp_malloc`` and loaded models took from them. Only copies cross from
one side to the other. In run mode ``ACL_DEVICE`` there is no host side of its own:
``malloc_host`` blocks show in the device's pools. Everything comes from
``acl_lab.snapshot()``; blocks are listed, not drawn to scale (their sizes span bytes to
gigabytes), each with what it asked for and what it took.
"""
from __future__ import annotations


import ipywidgets as widgets

import acl_lab

from acl_lab.i18n import N_, _, join_list
from acl_lab.widgets._base import GONE, SceneView, device_open, generation
from acl_lab.widgets._places import PLACE_COLORS, place, place_label, place_short
from acl_lab.widgets._svg import MUTED, Svg, format_bytes, message, text_width

MAIN_POOLS = ("huge", "normal")     # always shown; other pools (huge1g, P2P) when used
MAX_LISTED = 8                      # blocks listed per pool; the rest are counted
PAGES = {"huge": N_("huge pages"), "normal": N_("normal pages"), "huge1g": N_("1 GiB pages")}


class MemoryMapScene:
    """The snapshot's pools and allocations as of the last look, grouped by side and pool,
    and the names learners gave pointers (``acl_lab.name``)."""

    def __init__(self):
        self.pools: list[dict] = []
        self.allocations: list[dict] = []
        self.names: dict[int, str] = {}
        self.run_mode: str | None = None
        self.note = ""
        self.generation = None

    def refresh(self) -> None:
        now = generation()
        if self.generation not in (None, now) and self.pools:
            self.note = _("{gone} (the process was reset since)").format(gone=_(GONE))
            return
        snap = acl_lab.snapshot()
        if not device_open(snap):
            if self.pools:             # reset or finalized since: keep the last look
                self.note = _("no device open now: {gone}").format(gone=_(GONE))
            else:
                self.note = _("no device open: call acl.init() and acl.rt.set_device(0) to "
                              "see memory")
            return
        self.generation = now
        self.pools = list(snap.get("pools") or [])
        self.allocations = sorted(snap.get("allocations") or [], key=lambda a: a["ptr"])
        self.names = dict(acl_lab.tracer().names)
        self.run_mode = snap.get("run_mode")
        self.note = ""

    def host_groups(self) -> list[tuple[str, str, list[dict], dict | None]]:
        """(place, title, blocks, pool row) of the host side: pinned, then pageable."""
        host_pools = [p for p in self.pools if p["kind"] == "host"]
        pinned = [a for a in self.allocations if a["location"] == "host" and a["pinned"]]
        pageable = [a for a in self.allocations if a["location"] == "host" and not a["pinned"]]
        groups = []
        if self.run_mode != "ACL_DEVICE":
            groups.append(("pinned", _("pinned (page-locked): malloc_host"), pinned,
                           host_pools[0] if host_pools else None))
        groups.append(("pageable", _("pageable: numpy arrays, bytes"), pageable, None))
        return groups

    def devices(self) -> list[int]:
        return sorted({p["device"] for p in self.pools if p["device"] is not None})

    def device_groups(self, device: int) -> list[tuple[str, str, list[dict], dict]]:
        """(place, title, blocks, pool row) per pool of ``device`` worth showing: the huge
        and normal pools of each memory kind, and any other pool that holds a block."""
        out = []
        for p in self.pools:
            if p["device"] != device or p["kind"] == "host":
                continue
            blocks = [a for a in self.allocations if a["pool"] == p["label"]]
            if (p["page"] in MAIN_POOLS and not p["p2p"]) or blocks or p["used"]:
                title = " ".join([p["kind"], "P2P"] if p["p2p"] else [p["kind"]]) + " " + \
                    _(PAGES.get(p["page"], p["page"]))
                out.append(("device", title, blocks, p))
        return out

    def heading(self) -> str:
        if not self.pools:
            return self.note
        n = len(self.allocations)
        text = _("{blocks} on the host and device {devices} ({mode})").format(
            blocks=_count_blocks(n), devices=", ".join(map(str, self.devices())),
            mode=self.run_mode or "?")
        return _("{note}: {text}").format(note=self.note, text=text) if self.note else text

    def summary(self) -> str:
        if not self.pools:
            return _("MemoryMap: {note}").format(note=self.note)
        per = {k: [0, 0] for k in PLACE_COLORS}
        for a in self.allocations:
            per[place(a)][0] += 1
            per[place(a)][1] += a["size"]
        parts = [_("{place} {n} ({bytes})").format(place=place_short(k), n=n,
                                                   bytes=format_bytes(b))
                 for k, (n, b) in per.items() if n]
        blocks = _count_blocks(len(self.allocations))
        text = _("MemoryMap: {blocks}: {parts}").format(blocks=blocks, parts=join_list(parts)) \
            if parts else _("MemoryMap: {note}").format(note=blocks)
        return _("{text} ({gone})").format(text=text, gone=_(GONE)) if self.note else text

    def state(self) -> tuple:
        return (self.note, self.run_mode, tuple(tuple(a.values()) for a in self.allocations),
                tuple((p["label"], p["used"]) for p in self.pools), tuple(self.names.items()))

    def svg(self) -> str:
        return draw_memory_map(self)


def _count_blocks(n: int) -> str:
    return (_("{n} block") if n == 1 else _("{n} blocks")).format(n=n)


def block_line(a: dict, names: dict[int, str]) -> str:
    """One block: its name if given, the call that made it, what it asked and took, where."""
    what = f"{a['api']} {format_bytes(a['size'])}"
    if a["footprint"] != a["size"]:
        what = _("{what}, takes {footprint}").format(what=what,
                                                      footprint=format_bytes(a["footprint"]))
    if _whole_pages(a):
        what = _("{what}, occupies {occupied} (whole huge pages)").format(
            what=what, occupied=format_bytes(a["occupied"]))
    text = _("{what} at {ptr}").format(what=what, ptr=f"0x{a['ptr']:x}")
    return f"{names[a['ptr']]}: {text}" if a["ptr"] in names else text


def _whole_pages(a: dict) -> bool:
    """Does the block hold more of its pool than it takes (huge pages are taken whole)?"""
    return a.get("occupied") is not None and a["occupied"] != a["footprint"]


def block_hover(a: dict) -> str:
    lines = [f"{a['api']} -> 0x{a['ptr']:x}",
             _("asked {size} B, took {footprint} B").format(size=a["size"],
                                                            footprint=a["footprint"])]
    if _whole_pages(a):
        lines.append(_("occupies {occupied} B of the pool: huge pages are taken whole").format(
            occupied=a["occupied"]))
    return "\n".join(lines + [f"0x{a['ptr']:x} % 64 = {a['ptr'] % 64}, "
                               f"% 128 = {a['ptr'] % 128}"])


PANEL_W, GAP, LINE, HEAD = 430, 64, 17, 34


def _group_height(blocks: list[dict]) -> float:
    listed = min(len(blocks), MAX_LISTED)
    return HEAD + max(listed, 1) * LINE + (LINE if len(blocks) > MAX_LISTED else 0) + 6


def _draw_group(svg: Svg, x: float, y: float, w: float, group, names) -> float:
    """One pool as a box: its title and use, then a line per block; returns its height."""
    kind, title, blocks, pool = group
    h = _group_height(blocks)
    svg.rect(x, y, w, h, "#fafafa", stroke="#bbbbbb", rx=4)
    svg.text(x + 8, y + 15, title, size=11, weight="bold")
    if pool is not None:
        use = _("{used} used of {total}").format(used=format_bytes(pool["used"]),
                                                 total=format_bytes(pool["total"]))
        svg.text(x + w - 8, y + 15, use, size=9.5, anchor="end", fill=MUTED)
    for k, a in enumerate(blocks[:MAX_LISTED]):
        by = y + HEAD - 8 + k * LINE
        color = PLACE_COLORS[place(a)]
        svg.rect(x + 8, by, w - 16, LINE - 3, color, opacity="0.18", stroke=color,
                 stroke_width=0.8, rx=2, title=block_hover(a))
        svg.text(x + 14, by + 10.5, block_line(a, names), size=9.5, title=block_hover(a))
    if not blocks:
        svg.text(x + 10, y + HEAD + 3, _("no block"), size=9.5, fill=MUTED, italic=True)
    elif len(blocks) > MAX_LISTED:
        svg.text(x + 10, y + HEAD - 8 + MAX_LISTED * LINE + 10,
                 _("... and {n} more").format(n=len(blocks) - MAX_LISTED), size=9.5,
                 fill=MUTED, italic=True)
    return h


def _panel(svg: Svg, x: float, y: float, w: float, title: str, groups, names,
           note: str = "") -> float:
    """A side (the host, a device) as a box of pool boxes; returns its height."""
    inner = y + 26
    if note:
        svg.text(x + 10, inner + 8, note, size=9.5, fill=MUTED, italic=True)
        inner += 18
    for group in groups:
        inner += _draw_group(svg, x + 10, inner, w - 20, group, names) + 8
    h = inner - y + 2
    svg.parts.insert(svg.parts.index(_MARK), _panel_frame(x, y, w, h))   # behind its pools
    svg.text(x + 10, y + 18, title, size=12, weight="bold")
    return h


_MARK = "<!-- panels -->"


def _panel_frame(x, y, w, h) -> str:
    frame = Svg(0, 0)
    frame.rect(x, y, w, h, "#ffffff", stroke="#555555", stroke_width=1.2, rx=6)
    return frame.parts[0]


def draw_memory_map(scene: MemoryMapScene) -> str:
    """SVG: the host panel on the left, one panel per device on the right, the blocks
    listed in the pool each came from."""
    title = _("Where memory lives: {heading}").format(heading=scene.heading())
    if not scene.pools:
        return message(_("Where memory lives"), scene.note)
    texts = [(block_line(a, scene.names), 9.5) for a in scene.allocations] + [
        (g[1], 11) for g in scene.host_groups()] + [
        (g[1], 11) for d in scene.devices() for g in scene.device_groups(d)]
    pw = max([PANEL_W] + [text_width(t, size) + 150 for t, size in texts])   # room for the use
    width = max(2 * pw + GAP + 16, text_width(title, 12) + 16)
    svg = Svg(width, 0)
    svg.text(8, 18, title, size=12, weight="bold")
    svg.parts.append(_MARK)
    top = 30
    note = _("ACL_DEVICE: no host memory of its own, malloc_host returns device memory") \
        if scene.run_mode == "ACL_DEVICE" else ""
    host_h = _panel(svg, 8, top, pw, _("Host"), scene.host_groups(), scene.names, note)
    dx, dy = 8 + pw + GAP, top
    for device in scene.devices():
        dy += _panel(svg, dx, dy, pw, _("Device {device}").format(device=device),
                     scene.device_groups(device), scene.names) + 10
    bottom = max(top + host_h, dy - 10)
    mid, ay = 8 + pw + GAP / 2, top + 40
    svg.line(mid, ay, mid, ay + 50, stroke=MUTED, width=1.2)
    svg.head(mid, ay, 0, -1, MUTED)
    svg.head(mid, ay + 50, 0, 1, MUTED)
    svg.text(mid, ay + 64, "memcpy", size=9.5, anchor="middle", fill=MUTED)
    svg.parts.remove(_MARK)
    keys = sorted({place(a) for a in scene.allocations}, key=list(PLACE_COLORS).index)
    legend = [(PLACE_COLORS[k], place_label(k)) for k in keys]
    svg.height = bottom + 10 + (svg.legend(8, bottom + 10, legend, width=width - 16)
                                if legend else 0) + 4
    return str(svg)


class MemoryMap(SceneView, widgets.VBox):
    """Where every live block is (host pinned or pageable, each device pool), as it was
    when the cell ran; looks again on its button and ``refresh()``, and after every cell
    when ``live=True``."""

    def __init__(self, live: bool = False):
        self.scene = MemoryMapScene()
        self._build(live)
