"""SVG pictures built as text: one renderer for the live widget and the static fallback.

The same string goes into the widget (an HTML child) and beside it in the saved notebook
(``image/svg+xml``), so the picture a learner sees without a kernel is the one the live view
showed. Numbers are printed with fixed precision and nothing depends on the machine, so
the same state always gives the same text (nbval compares it). Hover details are SVG
``<title>`` elements. No plotting library is imported: the first view costs little.
"""
from __future__ import annotations

import re
from html import escape

from acl_lab.i18n import N_, wide_count

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
#: for pictures with Chinese text: the Latin fonts first (digits and names look the same as
#: in English), then CJK fonts the browser takes the glyphs they lack from (Noto Sans CJK
#: is what fonts-noto-cjk installs on Linux, PingFang and Microsoft YaHei come with macOS
#: and Windows)
FONT_CJK = ("DejaVu Sans, Verdana, Arial, Noto Sans CJK SC, Source Han Sans SC, PingFang SC, "
            "Microsoft YaHei, sans-serif")
CHAR_EM = 0.62       # a generous average glyph width, in font sizes: text never clips
WIDE_EM = 1.0        # a CJK glyph fills its em square: about twice a Latin one
#: CJK text (ideographs, kana, hangul, full-width punctuation): a picture holding some needs
#: FONT_CJK
CJK = re.compile("[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff"
                  "\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60"
                  "\uffe0-\uffe6]")
INK, MUTED, GRID = "#222222", "#555555", "#dddddd"

#: One colour per kind of byte, shared by every picture so a legend means the same everywhere.
COLORS = {
    "payload": "#4c72b0",    # bytes the caller asked for
    "rounding": "#f2a65a",   # ALIGN_UP(len, 32) - len
    "extra": "#c44e52",      # the +32 of m = ALIGN_UP(len,32)+32 (holds guard bytes)
    "gap": "#7f7f7f",        # free, but too small to hold any aligned segment
    "free": "#e9e9e9",
    "used": "#4c72b0",
}
#: What each colour means; translated where shown (``_(LABELS[kind])``).
LABELS = {
    "payload": N_("payload (len)"),
    "rounding": N_("ALIGN_UP rounding"),
    "extra": N_("+32 bytes"),
    "gap": N_("alignment gap"),
    "free": N_("free"),
}


def num(v: float) -> str:
    """A coordinate with at most one decimal: short, and the same on every machine."""
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def text_width(text: str, size: float) -> float:
    """Pixels ``text`` takes at ``size`` (an upper estimate, so layouts leave room); a wide
    character counts as WIDE_EM."""
    return len(text) * size * CHAR_EM + wide_count(text) * size * (WIDE_EM - CHAR_EM)


class Svg:
    """An SVG document built element by element, then ``str(svg)``."""

    def __init__(self, width: float, height: float):
        self.width, self.height = width, height
        self.parts: list[str] = []

    @staticmethod
    def _title(title: str | None) -> str:
        return f"<title>{escape(title)}</title>" if title else ""

    def rect(self, x, y, w, h, fill, *, title=None, stroke=None, stroke_width=1.0,
             rx=0.0, opacity=None, dash=None) -> None:
        attrs = f'x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" fill="{fill}"'
        if stroke:
            attrs += f' stroke="{stroke}" stroke-width="{num(stroke_width)}"'
        if dash:
            attrs += f' stroke-dasharray="{dash}"'
        if rx:
            attrs += f' rx="{num(rx)}"'
        if opacity is not None:
            attrs += f' fill-opacity="{opacity}"'
        self.parts.append(f"<rect {attrs}>{self._title(title)}</rect>" if title
                          else f"<rect {attrs}/>")

    def text(self, x, y, text, *, size=11.0, anchor="start", weight=None, fill=INK,
             title=None, italic=False) -> None:
        attrs = f'x="{num(x)}" y="{num(y)}" font-size="{num(size)}"'
        if anchor != "start":
            attrs += f' text-anchor="{anchor}"'
        if weight:
            attrs += f' font-weight="{weight}"'
        if italic:
            attrs += ' font-style="italic"'
        if fill != INK:
            attrs += f' fill="{fill}"'
        self.parts.append(f"<text {attrs}>{self._title(title)}{escape(text)}</text>")

    def line(self, x1, y1, x2, y2, *, stroke=INK, width=1.0, dash=None) -> None:
        attrs = (f'x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}" '
                 f'stroke="{stroke}" stroke-width="{num(width)}"')
        if dash:
            attrs += f' stroke-dasharray="{dash}"'
        self.parts.append(f"<line {attrs}/>")

    def path(self, d: str, *, stroke=INK, width=1.0, fill="none", dash=None, title=None) -> None:
        attrs = f'd="{d}" stroke="{stroke}" stroke-width="{num(width)}" fill="{fill}"'
        if dash:
            attrs += f' stroke-dasharray="{dash}"'
        self.parts.append(f"<path {attrs}>{self._title(title)}</path>" if title
                          else f"<path {attrs}/>")

    def arrow(self, x1, y1, x2, y2, *, stroke=INK, width=1.0, dash=None, title=None) -> None:
        """A straight line from (x1, y1) with a small head at (x2, y2)."""
        self.path(f"M{num(x1)},{num(y1)} L{num(x2)},{num(y2)}", stroke=stroke, width=width,
                  dash=dash, title=title)
        self.head(x2, y2, x2 - x1, y2 - y1, stroke)

    def head(self, x, y, dx, dy, fill) -> None:
        """A filled triangle at (x, y) pointing along (dx, dy)."""
        length = (dx * dx + dy * dy) ** 0.5 or 1.0
        ux, uy = dx / length, dy / length
        bx, by = x - 7 * ux, y - 7 * uy
        px, py = -uy * 3.5, ux * 3.5
        self.parts.append(f'<path d="M{num(x)},{num(y)} L{num(bx + px)},{num(by + py)} '
                          f'L{num(bx - px)},{num(by - py)} Z" fill="{fill}"/>')

    def legend(self, x, y, items: list[tuple[str, str]], *, width: float) -> float:
        """Colour swatches with labels, wrapped to ``width``; returns the height used."""
        cx, cy = x, y
        for color, label in items:
            w = 16 + text_width(label, 10) + 14
            if cx + w > x + width and cx > x:
                cx, cy = x, cy + 16
            self.rect(cx, cy, 11, 11, color, stroke=MUTED, stroke_width=0.5)
            self.text(cx + 15, cy + 9.5, label, size=10)
            cx += w
        return cy + 16 - y

    def __str__(self) -> str:
        w, h = num(self.width), num(self.height)
        body = "".join(self.parts)
        font = FONT_CJK if CJK.search(body) else FONT
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                f'viewBox="0 0 {w} {h}" font-family="{font}" style="max-width: 100%; '
                f'height: auto; background: #ffffff">' + body + "</svg>")


def message(title: str, text: str, width: float = 900) -> str:
    """The picture of an empty or gone state: a title and one line."""
    width = max(width, text_width(title, 12) + 20, text_width(text, 11) + 20)
    svg = Svg(width, 48)
    svg.text(8, 18, title, size=12, weight="bold")
    svg.text(8, 38, text, size=11)
    return str(svg)


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
