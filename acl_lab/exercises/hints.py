"""How specific the next hint gets: per mistake, not per failed run.

A learner who makes the same mistake again gets that mistake's next, more specific hint; a
new mistake starts at its own first hint (a wall of text for a mistake seen once helps no
one). Once a mistake's hints have all been shown, the last one comes again with where the
answer is (when the course allows it). A pass, or ``forget()``, starts the exercise over.
"""
from __future__ import annotations

from acl_lab.i18n import _, join_sentences
from acl_lab.exercises.solutions import solutions_allowed

#: per exercise, how often each mistake was made since its last pass
_TRIES: dict[str, dict[object, int]] = {}


def next_hint(exercise_id: str, mistake: object, hints: tuple[str, ...]) -> str:
    """The hint for ``mistake`` (any hashable key: the same key is the same mistake) made
    once more: ``hints`` (least specific first, translated) at the level this mistake has
    reached, followed by where the answer is once they have all been shown."""
    seen = _TRIES.setdefault(exercise_id, {})
    level = seen.get(mistake, 0)
    seen[mistake] = level + 1
    return join_sentences([t for t in (hints[min(level, len(hints) - 1)],
                                       _last_resort(exercise_id, level, len(hints))) if t])


def _last_resort(exercise_id: str, level: int, levels: int) -> str:
    """Once every hint of a mistake has been shown: where the answer is (if allowed)."""
    if level < levels or not solutions_allowed():
        return ""
    return _("Still stuck? exercises.solution(\"{exercise}\") shows an answer.").format(
        exercise=exercise_id)


def passed(exercise_id: str) -> None:
    """The exercise passed: its next mistake starts from the first hint again."""
    _TRIES.pop(exercise_id, None)


def forget(exercise_id: str | None = None) -> None:
    """Hints of one exercise (or all) from the first, least specific one."""
    if exercise_id is None:
        _TRIES.clear()
    else:
        _TRIES.pop(exercise_id, None)
