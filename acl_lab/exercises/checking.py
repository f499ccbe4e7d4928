"""Running a check on the learner's answer: ``check()`` turns what the check says (a success
text, ``NotYet``, a failed assert, an error in the learner's own code, a state released since
start()) into a ``Result``, records a pass, and keeps the last result for nbgrader."""
from __future__ import annotations

import importlib
import inspect
import linecache
import numbers
import re
import sys
import sysconfig
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from acl_lab.i18n import _, join_sentences
from acl_lab.exercises import hints
from acl_lab.exercises.registry import (NOW, Checking, NotYet, Spec, calls_since_start,
                                        learner_name, origin, released_by, spec,
                                        start_handles, started, started_record)
from acl_lab.exercises.solutions import PLACEHOLDER_LINE

WELL_DONE = "well done."

#: a line the learner has not written yet: ``...  # your code``, ``x = ...``, ``return ...``
PLACEHOLDER = re.compile(
    r"^(?P<indent>\s*)(?:return\s+|(?:[\w, \[\]'\"]+=\s*)+)?\.\.\.(?:\s*#.*)?$")

#: the mistake of an answer not written yet (or one the check's asserts refuse): the
#: exercise's own hints, from the nudge on
UNFINISHED = "unfinished"


@dataclass(frozen=True)
class Result:
    exercise: str
    title: str
    passed: bool
    message: str

    def __bool__(self) -> bool:
        return self.passed

    def __repr__(self) -> str:
        mark = "✅" if self.passed else "❌"
        verdict = _("passed") if self.passed else _("not yet")
        return _("{mark} Exercise {exercise} ({title}) {verdict}: {message}").format(
            mark=mark, exercise=self.exercise, title=_(self.title), verdict=verdict,
            message=_(self.message))


MESSAGE_IDS = {"passed", "not yet", WELL_DONE, PLACEHOLDER_LINE,
               "{mark} Exercise {exercise} ({title}) {verdict}: {message}"}

_LAST: dict[str, Result] = {}


def check(exercise_id: str, *args, **kwargs) -> Result:
    """Run the check for ``exercise_id`` on the learner's answer (see ``_run``); the result
    is kept for ``last``."""
    caller = sys._getframe(1)
    result = _LAST[exercise_id] = _run(exercise_id, caller, *args, **kwargs)
    if result.passed:
        hints.passed(exercise_id)
        importlib.import_module("acl_lab.exercises.quiz").record_exercise(exercise_id)
    return result


def last(exercise_id: str) -> Result | None:
    """The result of the latest check of ``exercise_id`` in this process, None before any:
    an nbgrader grade cell asserts the result of the exercise cell's own check with it
    (acl_lab.cli.assignments) rather than checking a second time."""
    return _LAST.get(exercise_id)


def _run(exercise_id: str, caller, *args, **kwargs) -> Result:
    """Run the check for ``exercise_id`` on the learner's answer. An unfinished answer (a
    ``...`` argument; the placeholder line still in the cell, unless the check passes) gets
    the exercise's next hint, never the check's specific one; a wrong one (a value
    of the wrong type, code of the learner's that raises, a state the check refuses) fails
    with a hint; an exception inside the check itself is a bug in the kit and propagates,
    so it cannot pass for "not yet"."""
    found = spec(exercise_id)
    title, fn = found.title, found.check

    def not_yet(*texts: str) -> Result:
        return Result(exercise_id, title, False, join_sentences([t for t in texts if t]))

    def registered_hint() -> Result:
        return not_yet(hints.next_hint(exercise_id, UNFINISHED,
                                       tuple(_(h) for h in found.hints)))

    if any(a is Ellipsis for a in (*args, *kwargs.values())):
        return registered_hint()
    # the placeholder line still in the cell: the check runs (code typed next to it may
    # pass), but a failure gets the exercise's own hints, never the check's specific ones
    unfinished = _placeholder_in(caller)
    wrong = _wrong_arguments(fn, args, kwargs)
    if wrong:
        return registered_hint() if unfinished else not_yet(wrong, _(found.hint))
    NOW.append(Checking(exercise_id, caller.f_globals if caller is not None else {}))
    try:
        cause = _real_cause(exercise_id, found, (*args, *kwargs.values()), origin(caller))
        if cause:
            return not_yet(cause)
        message = fn(*args, **kwargs)
        return Result(exercise_id, title, True, message or WELL_DONE)
    except NotYet as e:
        if unfinished:
            return registered_hint()
        texts = e.hints or tuple(_(h) for h in found.hints)
        if len(e.hints) == 1:       # one specific text: then it plus the registered `more`
            texts += tuple(join_sentences([e.hints[0], _(m)]) for m in found.more)
        return not_yet(hints.next_hint(exercise_id, _raised_at(e), texts))
    except AssertionError:
        return registered_hint()
    except Exception as e:
        if not _raised_in_learner_code(e, fn):
            _blame_the_check(e, exercise_id)
            raise
        if unfinished:
            return registered_hint()
        return not_yet(_("your code raised {error}: {message}. {hint}").format(
            error=type(e).__name__, message=e, hint=_(found.hint)))
    finally:
        NOW.pop()


def _raised_at(error: BaseException) -> tuple[str, int]:
    """Which mistake a NotYet stands for: the place in the check that raised it (the same
    place again is the same mistake, whatever values its text names)."""
    tb = error.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return ("raised", tb.tb_frame.f_code.co_filename, tb.tb_lineno) if tb else ("raised", "", 0)


def _placeholder_in(frame) -> bool:
    """Does the code that called check (a notebook cell, a script: module level) still have
    a placeholder line?"""
    if frame is None or frame.f_code.co_name != "<module>":
        return False
    return any(PLACEHOLDER.match(line.rstrip("\n"))
               for line in linecache.getlines(frame.f_code.co_filename))


# ----- the real cause: a state released since start() -------------------------------------
def _shown(call) -> str:
    return f"acl.{call.name}({', '.join(_arg(a) for a in call.args)})"


def _arg(value) -> str:
    return f"0x{value:x}" if isinstance(value, int) and value > 0xffff else repr(value)


def _real_cause(exercise_id: str, found: Spec, args: tuple = (), where: str = "") -> str:
    """Why the check cannot see the state the exercise's start() built, in plain words, or
    "" (also when this code never started the exercise: a check called on its own, as in
    tests)."""
    import acl_lab
    record = started_record(exercise_id)
    if record is None or record.origin != where:
        return ""
    again = _("Run the exercise cell again from its first line, "
              "exercises.start(\"{exercise}\", acl), without that call.").format(
                  exercise=exercise_id)
    if started(exercise_id) is None:
        return join_sentences([_(
            "acl_lab.reset() (or a new acl_lab.load()) ran after exercises.start(\"{exercise}\", "
            "acl): the process it built, and every handle it gave you, are gone.").format(
                exercise=exercise_id), again])
    if found.needs is None:
        return ""
    snap = acl_lab.snapshot()
    if not snap["initialized"]:
        call = released_by(None)
        if call is None:
            return _("AscendCL is not initialized: run the exercise cell from its first line, "
                     "exercises.start(\"{exercise}\", acl), which opens a fresh process.").format(
                         exercise=exercise_id)
        return join_sentences([_("acl.finalize() ran after exercises.start(\"{exercise}\", acl): "
                                 "the process is closed, so nothing this exercise made is "
                                 "alive.").format(exercise=exercise_id), again])
    if found.needs == "device" and not any(d.get("open") for d in snap["devices"].values()):
        reset = next((c for c in reversed(calls_since_start())
                      if c.name.startswith("rt.reset_device") and c.ret == 0), None)
        if reset is None:
            return _("no device is set: run the exercise cell from its first line, "
                     "exercises.start(\"{exercise}\", acl), which sets device 0.").format(
                         exercise=exercise_id)
        return join_sentences([_("{call} ran after exercises.start(\"{exercise}\", acl): it "
                                 "released the device with every stream and block on it.").format(
                                     call=_shown(reset), exercise=exercise_id), again])
    return _released_answer(exercise_id, args, again)


def _released_answer(exercise_id: str, args: tuple, again: str) -> str:
    """A handle start() gave that the learner passes to the check, released since (a freed
    buffer, a destroyed stream or model), or a pool passed in and closed: in plain words."""
    handles = start_handles()
    made = handles if isinstance(handles, tuple) else (handles,)
    made_ints = {h for h in made if isinstance(h, int) and not isinstance(h, bool)}
    for arg in args:
        name = learner_name(arg, "")
        if getattr(arg, "closed", None) is True:
            return join_sentences([_("{name} is closed: {name}.close() ran after "
                                     "exercises.start(\"{exercise}\", acl).").format(
                                         name=name or type(arg).__name__,
                                         exercise=exercise_id), again])
        if isinstance(arg, int) and not isinstance(arg, bool) and arg in made_ints:
            call = released_by(arg)
            if call is not None:
                return join_sentences([_("{call} released {name} after "
                                         "exercises.start(\"{exercise}\", acl), and the check "
                                         "needs it.").format(call=_shown(call),
                                                             name=name or _arg(arg),
                                                             exercise=exercise_id), again])
    return ""


# ----- answers that cannot be one: wrong arguments, errors in the learner's code ----------
#: Annotations of check functions, read as "any value of this kind" (numpy ints are ints).
_KINDS = {int: numbers.Integral, float: numbers.Real}


def _wrong_arguments(fn: Callable, args: tuple, kwargs: dict) -> str:
    """Why the arguments cannot be this check's answer (wrong count or type), or ""."""
    signature = inspect.signature(fn)
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        return _("pass ({parameters}) to the check.").format(
            parameters=", ".join(signature.parameters))
    annotations = typing.get_type_hints(fn)
    for name, value in bound.arguments.items():
        kind = _KINDS.get(annotations.get(name), annotations.get(name))
        if isinstance(kind, type) and not isinstance(value, kind):
            expected = getattr(annotations[name], "__name__", str(annotations[name]))
            text = (_("{name} should be an {kind}, not {type} ({value}).")
                    if expected[0] in "aeiou" else
                    _("{name} should be a {kind}, not {type} ({value})."))
            return text.format(name=name, kind=expected, type=type(value).__name__,
                               value=f"{value!r:.60}")
    return ""


_KIT = Path(__file__).resolve().parents[1]
_LIBRARIES = {Path(p).resolve() for key in ("stdlib", "platstdlib", "purelib", "platlib")
              if (p := sysconfig.get_paths().get(key))}

#: Code a learner types that has no file: a cell of a plain IPython shell (ipykernel gives
#: notebook cells a real path under /tmp/ipykernel_<pid>/), the interactive interpreter.
_TYPED_IN = ("<ipython-input-", "<stdin>")


def _raised_in_learner_code(error: BaseException, check_fn: Callable) -> bool:
    """Did a function of the learner's (passed to the check) raise ``error``? Frames of the
    check, the kit and installed libraries do not count, nor code without a file of its own
    (``<frozen importlib._bootstrap>``, ``<string>`` from exec or a dataclass): only a
    notebook cell or a script does."""
    own = Path(check_fn.__code__.co_filename).resolve()
    tb = error.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        path = Path(name)
        if path.is_absolute():
            learner = not any(root == path.resolve() or root in path.resolve().parents
                              for root in (_KIT, own, *_LIBRARIES))
        else:
            learner = name.startswith(_TYPED_IN)
        if learner:
            return True
        tb = tb.tb_next
    return False


def _blame_the_check(error: BaseException, exercise_id: str) -> None:
    """Say under the traceback that the check broke, not the answer (Python 3.11+ shows
    exception notes; 3.10 shows the traceback alone)."""
    add_note = getattr(error, "add_note", None)
    if add_note is not None:
        add_note(_("This error comes from the check of exercise {exercise}, not from your "
                   "answer: it is a bug in acl_lab. Please report it.").format(
                       exercise=exercise_id))
