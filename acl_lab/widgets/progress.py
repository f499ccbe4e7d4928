"""Progress: what a learner has passed, chapter by chapter, as of the moment it was asked.

A plain object, no widget: it has nothing to click, so it shows the same picture in
JupyterLab, JupyterLite, VS Code and on GitHub (SVG, also as an <img> in HTML for untrusted
notebooks), and its text repr says the same in a table.
"""
from __future__ import annotations

import base64
from dataclasses import dataclass
from html import escape

from acl_lab.i18n import _, columns
from acl_lab.widgets._svg import COLORS, GRID, MUTED, Svg, text_width


@dataclass(frozen=True)
class ChapterProgress:
    chapter: str
    exercises: tuple[str, ...]           # every exercise of the chapter
    exercises_passed: tuple[str, ...]
    questions: int                       # how many self-test questions it has
    questions_right: tuple[str, ...]


BAR_W = 120


class Progress:
    """``acl_lab.progress()``: per chapter, exercises passed (of how many, which) and
    self-test questions answered right (of how many), from the rows the quiz room gives."""

    def __init__(self, chapters: list[ChapterProgress]):
        self.chapters = list(chapters)

    def _labels(self) -> tuple[str, str, str]:
        return _("chapter"), _("exercises passed"), _("questions answered right")

    def __repr__(self) -> str:
        head = self._labels()
        lines = [_("Your progress")]
        rows = [head] + [(c.chapter, _fraction(len(c.exercises_passed), len(c.exercises),
                                                c.exercises_passed),
                          _fraction(len(c.questions_right), c.questions))
                         for c in self.chapters]
        widths = [max(columns(r[i]) for r in rows) for i in range(2)]
        for r in rows:
            lines.append("  ".join(t + " " * (w - columns(t)) for t, w in zip(r, widths))
                         + "  " + r[2])
        return "\n".join(lines)

    def svg(self) -> str:
        head = self._labels()
        x_ex = 16 + max(text_width(head[0], 11), 50)
        x_q = x_ex + BAR_W + 230
        width = x_q + max(BAR_W + 80, text_width(head[2], 11) + 10)
        svg = Svg(width, 42 + 22 * len(self.chapters))
        svg.text(10, 18, _("Your progress"), size=13, weight="bold")
        for x, label in zip((10, x_ex, x_q), head):
            svg.text(x, 36, label, size=11, fill=MUTED)
        for n, c in enumerate(self.chapters):
            y = 44 + 22 * n
            svg.line(10, y - 3, width - 10, y - 3, stroke=GRID)
            svg.text(10, y + 12, c.chapter, size=12, weight="bold")
            _bar(svg, x_ex, y, len(c.exercises_passed), len(c.exercises),
                 ", ".join(c.exercises_passed))
            _bar(svg, x_q, y, len(c.questions_right), c.questions, "")
        return str(svg)

    def _repr_mimebundle_(self, **kwargs):
        svg = self.svg()
        image = base64.b64encode(svg.encode()).decode("ascii")
        text = repr(self)
        return {"text/plain": text, "image/svg+xml": svg,
                "text/html": f'<img src="data:image/svg+xml;base64,{image}" '
                             f'alt="{escape(text)}"/>'}


def _fraction(done: int, total: int, ids=()) -> str:
    text = _("{done} of {total}").format(done=done, total=total) if total else "—"
    return f"{text} ({', '.join(ids)})" if ids else text


def _bar(svg: Svg, x: float, y: float, done: int, total: int, ids: str) -> None:
    if not total:
        svg.text(x, y + 12, "—", size=11, fill=MUTED)
        return
    svg.rect(x, y + 2, BAR_W, 12, COLORS["free"], stroke=MUTED, stroke_width=0.5)
    if done:
        svg.rect(x, y + 2, BAR_W * done / total, 12, COLORS["used"])
    label = _("{done} of {total}").format(done=done, total=total)
    svg.text(x + BAR_W + 8, y + 12, f"{label}  {ids}".rstrip(), size=11)
