"""VirtualMemoryView: reserved address ranges, which granules are mapped to which physical
handle, handles shared by two mappings or exported, and frees deferred until the unmap.

A reserved range is drawn as a row of granules (2 MiB each; a long range is drawn to scale,
its mapped parts at least a few pixels wide); each piece of physical memory gets a letter
and a colour, used wherever it is mapped, so one handle mapped twice shows as the same
letter in two places. Below, one line per piece of physical memory: its handles, size,
pool, where it is mapped, whether it is exported and whether aclrtFreePhysical came while
it was still mapped (its pages stay until the last unmap). A mapping its device may not
touch yet (aclrtMemMapNoAccess before aclrtMemSetAccess) is drawn faded. Everything comes from
``acl_lab.snapshot()["virtual_memory"]``, as of the last look.
"""
from __future__ import annotations

import string

import ipywidgets as widgets

import acl_lab
from acl_lab import constants as C
from acl_lab.i18n import N_, _, join_list, pgettext
from acl_lab.widgets._base import GONE, SceneView, device_open, generation
from acl_lab.widgets._svg import COLORS, MUTED, Svg, format_bytes, message, text_width

TITLE = N_("Virtual memory: reserved ranges, mapped granules, physical handles")
GRANULE = 2 << 20
LEFT, BAR_W, ROW = 150, 520, 34
PALETTE = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3",
           "#8c8c8c", "#ccb974", "#64b5cd")
MAX_RANGES = 12          # ranges drawn; the rest are counted
DEFERRED = "#c44e52"     # the outline of a mapping whose physical memory was freed
NO_ACCESS_OPACITY = 0.3  # a mapping without its device's access: faded


def letter(i: int) -> str:
    """A, B, ..., Z, AA, AB, ...: the name of the i-th piece of physical memory."""
    letters = string.ascii_uppercase
    return letters[i] if i < 26 else letters[i // 26 - 1] + letters[i % 26]


class VirtualMemoryScene:
    def __init__(self):
        self.reservations: list[dict] = []
        self.physical: list[dict] = []
        self.note = ""
        self.generation = None
        self.seen = False

    def refresh(self) -> None:
        now = generation()
        if self.generation not in (None, now) and self.seen:
            self.note = _("{gone} (the process was reset since)").format(gone=_(GONE))
            return
        snap = acl_lab.snapshot()
        if not device_open(snap):
            self.note = _("no device open now: {gone}").format(gone=_(GONE)) if self.seen \
                else _("no device open: call acl.init() and acl.rt.set_device(0) first")
            return
        vm = snap.get("virtual_memory") or {"reservations": [], "physical": []}
        self.generation, self.seen, self.note = now, True, ""
        self.reservations, self.physical = vm["reservations"], vm["physical"]

    def names(self) -> dict[int, tuple[str, str, bool]]:
        """Virtual address of every mapping -> (letter, colour, freed already) of the memory
        behind it."""
        out = {}
        for i, p in enumerate(self.physical):
            for va in p["mapped_at"]:
                out[va] = (letter(i), PALETTE[i % len(PALETTE)], p["deferred_free"])
        return out

    def state(self) -> tuple:
        return repr((self.reservations, self.physical)), self.note

    def svg(self) -> str:
        return draw(self.reservations, self.physical, self.names(), self.note)

    def summary(self) -> str:
        mapped = sum(len(r["mappings"]) for r in self.reservations)
        deferred = sum(p["deferred_free"] for p in self.physical)
        text = _("VirtualMemoryView: {ranges} range(s), {maps} mapping(s), {phys} physical "
                 "({bytes}), {deferred} deferred free(s)").format(
                     ranges=len(self.reservations), maps=mapped, phys=len(self.physical),
                     bytes=format_bytes(sum(p["occupied"] for p in self.physical)),
                     deferred=deferred)
        return f"{text} — {self.note}" if self.note else text


def _physical_line(i: int, p: dict) -> str:
    where = join_list([f"0x{va:x}" for va in p["mapped_at"]]) or _("not mapped")
    parts = [_("{name}: {size} on device {device} ({attr}), handle(s) {handles}").format(
        name=letter(i), size=format_bytes(p["size"]), device=p["device"], attr=p["mem_attr"],
        handles=join_list([f"0x{h:x}" for h in p["handles"]]) or "-"),
        _("mapped at {where}").format(where=where)]
    if len(p["mapped_at"]) > 1 or len(p["handles"]) > 1:
        parts.append(_("shared"))
    if p["shareable"] is not None:
        parts.append(_("exported as 0x{s:x}").format(s=p["shareable"]))
    if p["deferred_free"]:
        parts.append(_("freed: its pages go at the last unmap"))
    return pgettext("clause separator", "; ").join(parts)


def _reachable(m: dict) -> bool:
    """Its own device has access (aclrtMapMem, or aclrtMemSetAccess after
    aclrtMemMapNoAccess)."""
    own = {"type": C.ACL_MEM_LOCATION_TYPE_DEVICE, "id": m["device"],
           "flags": C.ACL_RT_MEM_ACCESS_FLAGS_READWRITE}
    return own in m.get("access", ())


def draw(reservations: list[dict], physical: list[dict], names: dict, note: str) -> str:
    title = _(TITLE)
    if not reservations and not physical:
        return message(title, note or _("nothing reserved or allocated: "
                                        "acl.rt.reserve_mem_address / malloc_physical"))
    lines = [_physical_line(i, p) for i, p in enumerate(physical)]
    width = max(LEFT + BAR_W + 20, text_width(title, 12) + 16,
                *(text_width(t, 10.5) + 36 for t in lines + [note]))
    svg = Svg(width, 0)
    svg.text(8, 18, title, size=12, weight="bold")
    y, faded = 32, False
    for r in reservations[:MAX_RANGES]:
        granules = max(r["size"] // GRANULE, 1)
        scale = BAR_W / r["size"]
        svg.text(LEFT - 8, y + 13, f"0x{r['va']:x}", size=10.5, anchor="end")
        svg.text(LEFT - 8, y + 26, format_bytes(r["size"]), size=9.5, anchor="end", fill=MUTED)
        svg.rect(LEFT, y + 2, BAR_W, ROW - 12, COLORS["free"], stroke=MUTED, stroke_width=0.5,
                 title=_("reserved, not mapped: addresses without memory"))
        if granules <= 64:
            for g in range(1, granules):
                x = LEFT + g * BAR_W / granules
                svg.line(x, y + 2, x, y + ROW - 10, stroke="#ffffff", width=1)
        for m in r["mappings"]:
            name, color, deferred = names.get(m["va"], ("?", MUTED, False))
            x, w = LEFT + (m["va"] - r["va"]) * scale, max(m["size"] * scale, 4)
            title = _("0x{va:x}: {size} mapped to {name} (handle 0x{h:x})").format(
                va=m["va"], size=format_bytes(m["size"]), name=name, h=m["handle"])
            reachable = _reachable(m)
            if not reachable:
                faded = True
                title = pgettext("clause separator", "; ").join(
                    [title, _("no access yet: copies are refused until acl.rt.mem_set_access")])
            svg.rect(x, y + 2, w, ROW - 12, color, stroke=DEFERRED if deferred else None,
                     stroke_width=2.5, dash="4,2" if deferred else None, title=title,
                     opacity=None if reachable else NO_ACCESS_OPACITY)
            if w >= 14:
                svg.text(x + w / 2, y + 17, name, size=10.5, anchor="middle",
                         fill="#ffffff" if reachable else MUTED, weight="bold")
        y += ROW
    if len(reservations) > MAX_RANGES:
        svg.text(LEFT, y + 8, _("... and {n} more range(s)").format(
            n=len(reservations) - MAX_RANGES), size=10, fill=MUTED, italic=True)
        y += 16
    legend = [(COLORS["free"], _("reserved, not mapped")),
              (PALETTE[0], _("mapped (one letter per physical allocation)")),
              (DEFERRED, _("freed, its pages kept until the unmap"))]
    if faded:
        legend.append(("#c9d5e7", _("faded: mapped without access (mem_map_no_access)")))
    y += svg.legend(8, y + 4, legend, width=width - 16) + 10
    for i, text in enumerate(lines):
        svg.rect(8, y, 11, 11, PALETTE[i % len(PALETTE)])
        svg.text(24, y + 9.5, text, size=10.5)
        y += 17
    if note:
        svg.text(8, y + 10, note, size=10.5, fill=MUTED, italic=True)
        y += 18
    svg.height = y + 6
    return str(svg)


class VirtualMemoryView(SceneView, widgets.VBox):
    """Reserved ranges, their mapped granules and the physical memory behind them, as they
    were when the cell ran; looks again on its button and ``refresh()``, and after every
    cell when ``live=True``."""

    def __init__(self, live: bool = False):
        self.scene = VirtualMemoryScene()
        self._build(live)
