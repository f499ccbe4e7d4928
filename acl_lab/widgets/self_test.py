"""SelfTest: a chapter's questions to answer with instant feedback, then its exercises by
level, as the official CANN courses end a chapter.

Each question shows its choices as text (A, B, C, D) and one button per letter. A click
says at once whether the pick is right, with the explanation of that pick (a course without
solutions hears only "not right, try again" for a wrong one: see acl_lab.exercises.quiz); a right
answer is recorded in the learner's progress. Below, the chapter's exercises grouped easy /
medium / hard, each passed or not, as of the moment the cell ran.

Without a kernel the output falls back to a picture of the same questions and choices, with
no sign of which choice is right, and the exercises with their state.

The view is given its data (the questions, which were answered right, a function that lists
the exercises by level, a judge of a pick): it knows nothing of the exercises room, which
builds it (``acl_lab.exercises.quiz.self_test``).
"""
from __future__ import annotations

from typing import Callable

import ipywidgets as widgets

from acl_lab.i18n import N_, _
from acl_lab.widgets._base import View
from acl_lab.widgets._svg import INK, MUTED, Svg, text_width
from acl_lab.widgets.quiz_text import html, plain, wrap

LETTERS = "ABCD"
LEVEL_NAMES = {"easy": N_("Easy"), "medium": N_("Medium"), "hard": N_("Hard")}
WIDTH = 760
GREEN, RED = "#1a7f37", "#b42318"


#: the exercises by level: [(level, [(id, title, passed)])], easy first
ExerciseRows = list[tuple[str, list[tuple[str, str, bool]]]]


class SelfTest(View, widgets.VBox):
    """The self-test of one chapter ("05"): ``questions`` (each with ``id``, ``text``,
    ``choices``), the ids of those ``right`` already, ``rows()`` the exercises by level as of
    now, and ``judge(question, choice) -> (right, explanation or None)``."""

    def __init__(self, chapter: str, questions: list, right: set[str],
                 rows: Callable[[], ExerciseRows],
                 judge: Callable[[object, int], tuple[bool, str | None]]):
        self.chapter = chapter
        self.questions = list(questions)
        self.right = set(right)
        self._rows, self._judge = rows, judge
        self.feedback = [widgets.HTML() for _q in self.questions]
        self.buttons = [[widgets.Button(description=LETTERS[c], layout={"width": "48px"},
                                        tooltip=plain(_(text)))
                         for c, text in enumerate(q.choices)] for q in self.questions]
        for n, row in enumerate(self.buttons):
            for c, button in enumerate(row):
                button.on_click(lambda _b, n=n, c=c: self.choose(n, c))
        self.exercise_list = widgets.HTML()
        blocks = [widgets.HTML(f"<h4>{html(self.title())}</h4>")]
        for n, q in enumerate(self.questions):
            blocks += [widgets.HTML(self._question_html(n, q)),
                       widgets.HBox(self.buttons[n]), self.feedback[n]]
        super().__init__(children=[*blocks, self.exercise_list])
        self.refresh()

    def title(self) -> str:
        return _("Self-test · chapter {chapter}").format(chapter=self.chapter)

    def choose(self, n: int, choice: int) -> bool:
        """Pick choice ``choice`` (0 = A) of question ``n`` (0 = the first), as a click on
        its button does; returns whether it is right."""
        question = self.questions[n]
        right, why = self._judge(question, choice)
        verdict = (_("Right.") if right else
                   _("Not right.") if why else _("Not right, try again."))
        color = GREEN if right else RED
        self.feedback[n].value = (f'<div style="color:{color}"><b>{LETTERS[choice]}: '
                                  f'{"✓" if right else "✗"} {html(verdict)}</b> '
                                  f'{html(why or "")}</div>')
        for c, button in enumerate(self.buttons[n]):
            button.button_style = ("success" if right else "danger") if c == choice else ""
        if right:
            self.right.add(question.id)
        return right

    def refresh(self) -> None:
        """Look again at which exercises are passed."""
        self.rows = self._rows()
        self.exercise_list.value = self.exercises_svg()

    def _question_html(self, n: int, q) -> str:
        choices = "".join(f"<li><b>{LETTERS[c]}</b>&nbsp; {html(_(text))}</li>"
                          for c, text in enumerate(q.choices))
        return (f"<div><b>{n + 1}.</b> {html(_(q.text))}"
                f'<ul style="list-style:none; margin:4px 0">{choices}</ul></div>')

    def summary(self) -> str:
        done = sum(ok for _level, rows in self.rows for *_x, ok in rows)
        total = sum(len(rows) for _level, rows in self.rows)
        return _("{title}: {right} of {questions} questions answered right, {done} of "
                 "{total} exercises passed").format(
                     title=self.title(), right=len(self.right),
                     questions=len(self.questions), done=done, total=total)

    def svg(self) -> str:
        """The questions and choices (no sign of the right ones), which were answered right,
        and the exercises by level."""
        lines = Lines()
        lines.add(10, self.title(), 14, weight="bold")
        for n, q in enumerate(self.questions):
            lines.gap(6)
            lines.add(10, f"{n + 1}. {_(q.text)}", weight="bold")
            for c, text in enumerate(q.choices):
                lines.add(46, _(text), letter=LETTERS[c])
            if q.id in self.right:
                lines.add(28, "✓ " + _("answered right"), 11, fill=GREEN)
        lines.gap(8)
        self._exercise_lines(lines)
        return lines.svg()

    def exercises_svg(self) -> str:
        """The exercises part of the picture, as the live view shows it under the buttons."""
        lines = Lines()
        self._exercise_lines(lines)
        return lines.svg()

    def _exercise_lines(self, lines: "Lines") -> None:
        lines.add(10, _("Exercises of this chapter"), 13, weight="bold")
        for level, items in self.rows:
            lines.add(10, _(LEVEL_NAMES[level]), 12, weight="bold", fill=MUTED)
            for i, t, ok in items:
                state = _("passed") if ok else _("not yet")
                lines.add(28, f"{'✓' if ok else '○'} {i}  {t} · {state}",
                          fill=GREEN if ok else INK)

    def show_error(self, text: str) -> None:
        self.exercise_list.value = html(text)


class Lines:
    """Text laid out top to bottom, wrapped to the picture's width, then drawn as SVG."""

    def __init__(self):
        self.rows: list[tuple[float, str, dict]] = []

    def add(self, x: float, text: str, size: float = 12, letter: str = "", **style) -> None:
        """``text`` from ``x``, wrapped; ``letter`` (a choice's A, B ...) before its first
        line."""
        for line in wrap(text, WIDTH - x - 10, size):
            self.rows.append((x, line, {"size": size, "letter": letter, **style}))
            letter = ""

    def gap(self, size: float) -> None:
        self.rows.append((0, "", {"size": size}))

    def svg(self) -> str:
        width = max([WIDTH] + [x + text_width(t, s["size"]) + 10 for x, t, s in self.rows])
        svg = Svg(width, 0)
        y = 6.0
        for x, text, style in self.rows:
            y += style["size"] * 1.45
            if style.get("letter"):
                svg.text(28, y, style["letter"], size=style["size"], weight="bold")
            if text:
                svg.text(x, y, text, size=style["size"], weight=style.get("weight"),
                         fill=style.get("fill", INK))
        svg.height = y + 10
        return str(svg)
