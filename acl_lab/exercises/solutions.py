"""The answers: ``solution(id)`` gives the code that replaces an exercise's placeholder line,
comments in the learner's language, unless the course keeps answers from its learners
(ACL_LAB_SOLUTIONS=off, which the self-tests' answers follow too)."""
from __future__ import annotations

import io
import os
import tokenize
from dataclasses import dataclass

from acl_lab.i18n import _
from acl_lab.exercises.registry import spec

#: The setting a course's image or hub sets to keep solutions (and the self-tests' answers)
#: from its learners: ACL_LAB_SOLUTIONS=off.
SOLUTIONS_SETTING = "ACL_LAB_SOLUTIONS"

#: the placeholder line of an exercise cell, as the chapters write it (gettext id)
PLACEHOLDER_LINE = "...  # your code"


def solutions_allowed() -> bool:
    """Whether solutions and self-test answers may be shown: yes, unless the course set
    ACL_LAB_SOLUTIONS to off (or 0, no, false)."""
    return os.environ.get(SOLUTIONS_SETTING, "on").strip().lower() not in (
        "off", "0", "no", "false")


def switch_solutions_off() -> None:
    """Keep solutions from this process, as ACL_LAB_SOLUTIONS=off does (a student copy's
    first cell calls it)."""
    os.environ[SOLUTIONS_SETTING] = "off"


def comments(code: str) -> list[tuple[int, int, str]]:
    """(line, column, text) of each ``# text`` comment of ``code`` (tokenize: never a ``#``
    inside a string)."""
    if not code:
        return []
    tokens = tokenize.generate_tokens(io.StringIO(code).readline)
    return [(t.start[0], t.start[1], t.string[1:].strip()) for t in tokens
            if t.type == tokenize.COMMENT and t.string[1:].strip()]


def translated(code: str) -> str:
    """``code`` with each comment in the current language."""
    lines = code.split("\n")
    for row, col, text in reversed(comments(code)):
        line = lines[row - 1]
        lines[row - 1] = line[:col] + "# " + _(text)
    return "\n".join(lines)


@dataclass(frozen=True)
class Solution:
    """What ``solution()`` gives: a code block in Jupyter, plain text elsewhere; ``code`` is
    "" when the course switched solutions off."""
    exercise: str
    code: str
    text: str

    def __str__(self) -> str:
        return self.code or self.text

    def __repr__(self) -> str:
        return f"{self.text}\n\n{self.code}" if self.code else self.text

    def _repr_markdown_(self) -> str:
        if not self.code:
            return self.text
        placeholder = _(PLACEHOLDER_LINE)            # as code: markdown keeps its two spaces
        intro = self.text.replace(placeholder, f"`{placeholder}`")
        return f"{intro}\n\n```python\n{self.code}\n```"


def solution(exercise_id: str) -> Solution:
    """One answer to exercise ``exercise_id``: the code to type in place of its placeholder
    line (``...  # your code``), comments in the current language."""
    found = spec(exercise_id)
    if not solutions_allowed():
        return Solution(exercise_id, "", _(
            "Solutions are switched off in this course (its setting {setting}=off): ask your "
            "instructor, or follow the hints the check gives.").format(setting=SOLUTIONS_SETTING))
    if not found.solution:
        raise KeyError(_("exercise {exercise} has no solution").format(exercise=exercise_id))
    return Solution(exercise_id, translated(found.solution), _(
        "Exercise {exercise} ({title}): type this in place of the placeholder line "
        "({placeholder}), then run the cell.").format(
            exercise=exercise_id, title=_(found.title), placeholder=_(PLACEHOLDER_LINE)))
