"""Static pictures for the widgets: matplotlib's Agg renderer, no pyplot, same bytes every run.

Each picture is drawn on a fresh ``matplotlib.figure.Figure`` under matplotlib's default
style (a learner's ``plt.style.use`` cannot change it) and saved as PNG without the
software-version stamp, so the same state always gives the same bytes.
"""
from __future__ import annotations

import io
from typing import Callable

import matplotlib.style
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

DPI = 100

#: One colour per kind of byte, shared by every picture so a legend means the same everywhere.
COLORS = {
    "payload": "#4c72b0",    # bytes the caller asked for
    "rounding": "#f2a65a",   # ALIGN_UP(len, 32) - len
    "extra": "#c44e52",      # the +32 of m = ALIGN_UP(len,32)+32 (holds guard bytes)
    "gap": "#7f7f7f",        # free, but too small to hold any aligned segment
    "free": "#e9e9e9",
    "outside": "#ffffff",    # past the end of the picture's subject
    "used": "#4c72b0",
}
LABELS = {
    "payload": "payload (len)",
    "rounding": "ALIGN_UP rounding",
    "extra": "+32 bytes",
    "gap": "alignment gap",
    "free": "free",
}


def render(width_in: float, height_in: float, draw: Callable[[Figure], None]) -> bytes:
    """PNG bytes of a ``width_in`` x ``height_in`` inch figure that ``draw`` fills."""
    with matplotlib.style.context("default"):
        fig = Figure(figsize=(width_in, height_in), dpi=DPI)
        FigureCanvasAgg(fig)
        draw(fig)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    return buf.getvalue()


def legend_handles(kinds) -> list:
    from matplotlib.patches import Patch
    return [Patch(facecolor=COLORS[k], edgecolor="#555555", linewidth=0.5, label=LABELS[k])
            for k in kinds]


def format_bytes(n: int) -> str:
    """Exact bytes below 10 KiB (alignment is visible there), binary units above."""
    if n < 10 * 1024:
        return f"{n} B"
    value, unit = n / 1024, "KiB"
    for bigger in ("MiB", "GiB"):
        if value < 1024:
            break
        value, unit = value / 1024, bigger
    return f"{value:.1f} {unit}"
