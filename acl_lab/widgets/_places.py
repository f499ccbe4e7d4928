"""Where a block of memory lives, from ``acl_lab.snapshot()["allocations"]``: what the memory
map and the copy map share.

A block is pinned host memory (``malloc_host`` in ``ACL_HOST`` mode), pageable host memory
(numpy arrays and ``bytes`` the learner handed to ``numpy_to_ptr`` / ``bytes_to_ptr``),
media-processing memory (``dvpp_malloc``) or other device memory. Each place has one colour,
shared by both pictures.
"""
from __future__ import annotations

import bisect

from acl_lab.i18n import N_, _

#: place -> colour; a legend means the same in both pictures
PLACE_COLORS = {"pinned": "#dd8452", "pageable": "#9a9a9a", "device": "#4c72b0",
                "dvpp": "#55a868"}
PLACE_LABELS = {"pinned": N_("pinned host memory"), "pageable": N_("pageable host memory"),
                "device": N_("device memory"), "dvpp": N_("DVPP memory (128-byte starts)")}
PLACE_SHORT = {"pinned": N_("pinned"), "pageable": N_("pageable"), "device": N_("device"),
               "dvpp": "DVPP"}
DVPP_APIS = ("dvpp_malloc",)


def place(row: dict) -> str:
    """The place of an allocation row: "pinned", "pageable", "device" or "dvpp"."""
    if row["location"] == "host":
        return "pinned" if row["pinned"] else "pageable"
    return "dvpp" if row["api"] in DVPP_APIS else "device"


def place_label(p: str) -> str:
    return _(PLACE_LABELS[p])


def place_short(p: str) -> str:
    """"pinned", "pageable", "device", "DVPP": a place in a word, for short texts."""
    return _(PLACE_SHORT[p]) if p != "dvpp" else PLACE_SHORT[p]


class Finder:
    """The allocation holding an address (a start or any byte inside), by bisection over
    the blocks sorted by start."""

    def __init__(self, allocations: list[dict]):
        self.rows = sorted(allocations, key=lambda a: a["ptr"])
        self.starts = [a["ptr"] for a in self.rows]

    def __call__(self, ptr) -> dict | None:
        if not isinstance(ptr, int):
            return None
        i = bisect.bisect_right(self.starts, ptr) - 1
        if i < 0:
            return None
        row = self.rows[i]
        return row if ptr < row["ptr"] + max(row["size"], row["footprint"]) else None
