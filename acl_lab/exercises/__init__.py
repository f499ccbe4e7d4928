"""Exercises a learner can do in any order, at any time: each starts from a state it builds
itself, fails with hints that grow more specific, and has a solution shown only when asked.

How a chapter module registers an exercise
------------------------------------------
Each chapter has a module (``ch02.py`` ...) that registers its checks with ``@exercise``::

    def _blocks(acl):                        # setup: (acl) -> the handles start() returns
        return {"malloc": acl.rt.malloc(512, ACL_MEM_MALLOC_HUGE_FIRST)[0], ...}

    @exercise("02.2", "Free with the partner",
              "nudge: what to look at and which rule; never the code",     # 1st not-yet
              level="easy",                   # easy | medium | hard (the self-tests grade by it)
              more=("more specific, from the 2nd not-yet on",),
              setup=_blocks,                  # optional; without it start() returns None
              profile="910b",                 # the fresh simulated process start() builds
              needs="device",                 # "device" | "process" | None: what must still be
                                              # open when the check runs (None: 01.3 releases all)
              solution='''\\
    acl.rt.free(blocks["malloc"])             # each allocator has one partner
    ''')
    def freed_with_partner(acl, blocks: dict):
        ...                                   # return a success text, or raise NotYet(...)

- ``setup`` runs inside ``start()`` after ``acl_lab.reset(profile)``, ``acl.init()`` and
  ``acl.rt.set_device(0)`` (``device=False``: neither). Return one handle or a tuple.
- ``solution`` is the code that replaces the cell's placeholder line (``...  # your code``,
  ``x = ...``, ``return ...``), written at column 0; the test indents it to the placeholder.
  Its ``#`` comments are gettext ids (message_ids() lists them): write them in English and
  translate them in the room's .po. One code text per solution, for both editions.
- A check raises ``NotYet(first, more_specific, ...)``: the learner's 1st not-yet shows the
  first text, the 2nd the next, and so on (``NotYet(one)``: then ``one`` followed by each
  ``more``). Name the learner's variables with
  ``learner_name(obj, "default")``; read the calls made since start() with
  ``calls_since_start()`` and its handles with ``start_handles()``; say what released a
  handle with ``released_by(handle)``.
- The framework itself says "not yet" for an empty exercise (a ``...`` argument, or a
  placeholder line still in the cell and the check not passing) with ``hint`` then ``more``,
  and names the real cause first when the process or device the exercise needs is gone
  (acl.finalize(), acl.rt.reset_device(0), acl_lab.reset() since start()), or a handle
  start() gave and the learner passes to the check was released since (a freed buffer, a
  destroyed stream or model: released_by), or a pool passed to the check is closed. It does
  so only where start() and check() run in the same code (the exercise cell).
- Hints count the not-yets in a row per exercise, in the process; ``forget(id)`` starts an
  exercise over (unit tests call it, so no earlier test's start() or count leaks in).
  tests/chapters/test_exercises_anytime.py runs every chapter's solutions in a real kernel.

The notebook cell (tag ``exercise``)::

    # Exercise 02.2: release each block in `blocks` with its allocator's partner.
    blocks = exercises.start("02.2", acl)
    ...  # your code
    exercises.check("02.2", acl, blocks)

``exercises.solution("02.2")`` shows the answer (a code block in Jupyter, plain text
elsewhere), unless the course set ACL_LAB_SOLUTIONS=off. Checks see the runtime only through
the pyACL shape, ``acl_lab.snapshot()`` and the trace, so they work on hardware too.
"""
from __future__ import annotations

import importlib
import inspect
import io
import linecache
import numbers
import os
import re
import sys
import sysconfig
import tokenize
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from acl_lab.i18n import _, join_sentences

_CHECKS: dict[str, tuple[str, str, Callable]] = {}
WELL_DONE = "well done."


class NotYet(Exception):
    """Raised by a check to fail with specific hints, least specific first: the learner's
    n-th not-yet in a row shows the n-th (the last one once they run out)."""

    def __init__(self, *hints: str):
        super().__init__(*hints)
        self.hints = tuple(h for h in hints if h)

    def __str__(self) -> str:
        return self.hints[0] if self.hints else ""


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


@dataclass
class Spec:
    """Everything registered for one exercise (see the module docstring)."""
    title: str
    hint: str
    check: Callable
    level: str = "medium"
    more: tuple[str, ...] = ()
    setup: Callable | None = None
    profile: str = "910b"
    device: bool = True
    needs: str | None = "device"
    solution: str = ""

    @property
    def hints(self) -> tuple[str, ...]:
        return (self.hint, *self.more)


_SPECS: dict[str, Spec] = {}


def message_ids() -> set[str]:
    """The texts of every chapter's checks (titles, hints, solution comments) and of the
    results, as gettext message ids."""
    for module in sorted(_KIT.joinpath("exercises").glob("ch*.py")):
        importlib.import_module(f"{__name__}.{module.stem}")
    ids = {"passed", "not yet", WELL_DONE, PLACEHOLDER_LINE,
           "{mark} Exercise {exercise} ({title}) {verdict}: {message}"}
    for spec in (_SPECS[e] for e in _CHECKS if e in _SPECS):
        ids |= {spec.title, *spec.hints}
        ids |= {text for _line, _col, text in _comments(spec.solution)}
    return ids


#: How hard an exercise is, as the chapter self-tests grade them.
LEVELS = ("easy", "medium", "hard")
_LEVELS: dict[str, str] = {}
NEEDS = ("device", "process", None)


def exercise(exercise_id: str, title: str, hint: str, level: str = "medium", *,
             more: tuple[str, ...] = (), setup: Callable | None = None,
             profile: str = "910b", device: bool = True, needs: str | None = "device",
             solution: str = ""):
    """Register a check (the module docstring shows every argument). The check returns a
    success message, or raises NotYet(hints...) / fails an assert (then ``hint``, ``more``
    are shown). ``level`` is one of LEVELS."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, not {level!r}")
    if needs not in NEEDS:
        raise ValueError(f"needs must be one of {NEEDS}, not {needs!r}")

    def register(fn: Callable) -> Callable:
        _CHECKS[exercise_id] = (title, hint, fn)
        _LEVELS[exercise_id] = level
        _SPECS[exercise_id] = Spec(title, hint, fn, level, tuple(more), setup, profile,
                                   device, needs, inspect.cleandoc("\n" + solution)
                                   if solution else "")
        return fn
    return register


#: The setting a course's image or hub sets to keep solutions (and the self-tests' answers)
#: from its learners: ACL_LAB_SOLUTIONS=off.
SOLUTIONS_SETTING = "ACL_LAB_SOLUTIONS"


def solutions_allowed() -> bool:
    """Whether solutions and self-test answers may be shown: yes, unless the course set
    ACL_LAB_SOLUTIONS to off (or 0, no, false)."""
    return os.environ.get(SOLUTIONS_SETTING, "on").strip().lower() not in (
        "off", "0", "no", "false")


def switch_solutions_off() -> None:
    """Keep solutions from this process, as ACL_LAB_SOLUTIONS=off does (a student copy's
    first cell calls it)."""
    os.environ[SOLUTIONS_SETTING] = "off"


def level(exercise_id: str) -> str:
    """'easy', 'medium' or 'hard': how the chapter's self-test grades the exercise."""
    _lookup(exercise_id)
    return _LEVELS[exercise_id]


def title(exercise_id: str) -> str:
    """The exercise's title in the current language."""
    return _(_lookup(exercise_id)[0])


def _lookup(exercise_id: str):
    if exercise_id not in _CHECKS:
        chapter = str(exercise_id).split(".")[0]
        try:
            importlib.import_module(f"{__name__}.ch{chapter}")
        except ModuleNotFoundError:
            pass
    if exercise_id not in _CHECKS:
        raise KeyError(_("no exercise {exercise}; known: {known}").format(
            exercise=repr(exercise_id), known=", ".join(sorted(_CHECKS))))
    return _CHECKS[exercise_id]


def _spec(exercise_id: str) -> Spec:
    title, hint, fn = _lookup(exercise_id)
    spec = _SPECS.get(exercise_id)
    if spec is None or spec.check is not fn:      # registered by hand into _CHECKS (tests)
        spec = _SPECS[exercise_id] = Spec(title, hint, fn, _LEVELS.get(exercise_id, "medium"))
    return spec


# ----- start: the state an exercise builds for itself -------------------------------------
@dataclass
class _Start:
    trace: object           # the tracer start() saw (a new backend is a new tracer)
    generation: int         # its clears at start(): a later acl_lab.reset() changes it
    mark: int               # the sequence number of the last call start() made
    handles: object
    origin: str             # the code (a cell's file) that called start()


_STARTED: dict[str, _Start] = {}


def start(exercise_id: str, acl):
    """A fresh simulated process for exercise ``exercise_id``: reset to its profile, init,
    set device 0 and whatever the exercise works on (on hardware: what the kit saw taken is
    given back, and the machine stays what it is). Returns those handles (one, a tuple, or
    None), for the cell to name. Calls made after it are what the check reads."""
    import acl_lab

    spec = _spec(exercise_id)
    simulated = acl_lab.snapshot()["backend"] == "sim"     # hardware is what it is
    acl_lab.reset(spec.profile if simulated else None)
    if spec.device:
        acl_lab.check(_accept_repeat(acl.init()), "acl.init()")
        acl_lab.check(acl.rt.set_device(0), "acl.rt.set_device(0)")
    handles = spec.setup(acl) if spec.setup is not None else None
    trace = acl_lab.tracer()
    calls = trace.calls
    _STARTED[exercise_id] = _Start(trace, trace.generation, calls[-1].seq if calls else 0,
                                   handles, _origin(sys._getframe(1)))
    return handles


def _origin(frame) -> str:
    """The file of the code that made a call: a notebook cell has one of its own."""
    return frame.f_code.co_filename if frame is not None else ""


def _accept_repeat(ret: int) -> int:
    """On hardware ``reset()`` leaves AscendCL initialized: a repeated init only says so."""
    from acl_lab.constants import ACL_ERROR_REPEAT_INITIALIZE
    return 0 if ret == ACL_ERROR_REPEAT_INITIALIZE else ret


def _started(exercise_id: str) -> _Start | None:
    """The start() of this exercise whose process is still the running one, or None."""
    import acl_lab
    record = _STARTED.get(exercise_id)
    trace = acl_lab.tracer()
    if record is None or record.trace is not trace or record.generation != trace.generation:
        return None
    return record


# ----- what a check may ask while it runs --------------------------------------------------
@dataclass
class _Checking:
    exercise_id: str
    scope: dict = field(default_factory=dict)      # the learner's globals (the cell's module)


_NOW: list[_Checking] = []


def calls_since_start() -> list:
    """The traced calls made since the running exercise's start() (every kept call when the
    check runs without one, as in unit tests)."""
    import acl_lab
    calls = acl_lab.tracer().calls
    record = _started(_NOW[-1].exercise_id) if _NOW else None
    return calls if record is None else [c for c in calls if c.seq > record.mark]


def start_handles():
    """What the running exercise's start() returned (None without one)."""
    record = _started(_NOW[-1].exercise_id) if _NOW else None
    return None if record is None else record.handles


#: ints Python shares between names (-5..256): a name bound to one says nothing
_SHARED_INTS = range(-5, 257)


def learner_name(obj, default: str) -> str:
    """The name the learner's cell bound ``obj`` to (found by identity in its globals),
    ``default`` when that is one of them or none is."""
    if not _NOW or obj is None or isinstance(obj, bool) or \
            (isinstance(obj, int) and obj in _SHARED_INTS):
        return default
    names = [k for k, v in list(_NOW[-1].scope.items()) if v is obj and not k.startswith("_")]
    return default if not names or default in names else names[0]


#: Calls that release the handle they get first, by traced name.
RELEASES = ("finalize", "rt.reset_device", "rt.reset_device_force", "rt.free", "rt.free_host",
            "media.dvpp_free", "rt.destroy_stream", "rt.destroy_stream_force",
            "rt.destroy_event", "rt.destroy_context", "mdl.ri_destroy", "mdl.unload",
            "mdl.destroy_desc", "mdl.destroy_dataset", "nn.destroy_tensor",
            "nn.destroy_scalar")


def released_by(handle) -> object | None:
    """The last successful call since start() that released ``handle`` (a trace Call), or
    None. ``handle`` None: the last finalize."""
    for call in reversed(calls_since_start()):
        if call.name in RELEASES and call.ret == 0 and (
                handle is None and call.name == "finalize" or
                handle is not None and call.args[:1] == (handle,)):
            return call
    return None


def _shown(call) -> str:
    return f"acl.{call.name}({', '.join(_arg(a) for a in call.args)})"


def _arg(value) -> str:
    return f"0x{value:x}" if isinstance(value, int) and value > 0xffff else repr(value)


def _real_cause(exercise_id: str, spec: Spec, args: tuple = (), origin: str = "") -> str:
    """Why the check cannot see the state the exercise's start() built, in plain words, or
    "" (also when this code never started the exercise: a check called on its own, as in
    tests)."""
    import acl_lab
    record = _STARTED.get(exercise_id)
    if record is None or record.origin != origin:
        return ""
    again = _("Run the exercise cell again from its first line, "
              "exercises.start(\"{exercise}\", acl), without that call.").format(
                  exercise=exercise_id)
    if _started(exercise_id) is None:
        return join_sentences([_(
            "acl_lab.reset() (or a new acl_lab.load()) ran after exercises.start(\"{exercise}\", "
            "acl): the process it built, and every handle it gave you, are gone.").format(
                exercise=exercise_id), again])
    if spec.needs is None:
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
    if spec.needs == "device" and not any(d.get("open") for d in snap["devices"].values()):
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


# ----- check -------------------------------------------------------------------------------
#: not-yets in a row per exercise, since its last pass: how specific the next hint gets
_TRIES: dict[str, int] = {}

#: the placeholder line of an exercise cell, as the chapters write it (gettext id)
PLACEHOLDER_LINE = "...  # your code"

#: a line the learner has not written yet: ``...  # your code``, ``x = ...``, ``return ...``
PLACEHOLDER = re.compile(
    r"^(?P<indent>\s*)(?:return\s+|(?:[\w, \[\]'\"]+=\s*)+)?\.\.\.(?:\s*#.*)?$")


def forget(exercise_id: str | None = None) -> None:
    """Start one exercise (or all) over: hints from the first, least specific one, and no
    start() remembered (a check then reads whatever state there is, as in unit tests)."""
    for memory in (_TRIES, _STARTED):
        if exercise_id is None:
            memory.clear()
        else:
            memory.pop(exercise_id, None)


def check(exercise_id: str, *args, **kwargs) -> Result:
    """Run the check for ``exercise_id`` on the learner's answer (see ``_run``); the result
    is kept for ``last``."""
    caller = sys._getframe(1)
    result = _LAST[exercise_id] = _run(exercise_id, caller, *args, **kwargs)
    if result.passed:
        importlib.import_module("acl_lab.exercises.quiz").record_exercise(exercise_id)
    return result


def last(exercise_id: str) -> Result | None:
    """The result of the latest check of ``exercise_id`` in this process, None before any.
    (A grade cell does not trust it, nor anything else a cell can set: grading.py.)"""
    return _LAST.get(exercise_id)


_LAST: dict[str, Result] = {}


def _run(exercise_id: str, caller, *args, **kwargs) -> Result:
    """Run the check for ``exercise_id`` on the learner's answer. An unfinished answer (a
    ``...`` argument; the placeholder line still in the cell, unless the check passes) gets
    the exercise's next hint, never the check's specific one; a wrong one (a value
    of the wrong type, code of the learner's that raises, a state the check refuses) fails
    with a hint; an exception inside the check itself is a bug in the kit and propagates,
    so it cannot pass for "not yet"."""
    spec = _spec(exercise_id)
    title, fn = spec.title, spec.check
    tries = _TRIES.get(exercise_id, 0)

    def not_yet(*texts: str) -> Result:
        _TRIES[exercise_id] = tries + 1
        return Result(exercise_id, title, False, join_sentences([t for t in texts if t]))

    def registered_hint() -> Result:
        return not_yet(_(spec.hints[min(tries, len(spec.hints) - 1)]),
                       _last_resort(exercise_id, tries, len(spec.hints)))

    if any(a is Ellipsis for a in (*args, *kwargs.values())):
        return registered_hint()
    # the placeholder line still in the cell: the check runs (code typed next to it may
    # pass), but a failure gets the exercise's own hints, never the check's specific ones
    unfinished = _placeholder_in(caller)
    wrong = _wrong_arguments(fn, args, kwargs)
    if wrong:
        return registered_hint() if unfinished else not_yet(wrong, _(spec.hint))
    _NOW.append(_Checking(exercise_id, caller.f_globals if caller is not None else {}))
    try:
        cause = _real_cause(exercise_id, spec, (*args, *kwargs.values()), _origin(caller))
        if cause:
            return not_yet(cause)
        message = fn(*args, **kwargs)
        _TRIES[exercise_id] = 0
        return Result(exercise_id, title, True, message or WELL_DONE)
    except NotYet as e:
        if unfinished:
            return registered_hint()
        hints = e.hints or tuple(_(h) for h in spec.hints)
        if len(e.hints) == 1:       # one specific text: then it plus the registered `more`
            hints += tuple(join_sentences([e.hints[0], _(m)]) for m in spec.more)
        return not_yet(hints[min(tries, len(hints) - 1)],
                       _last_resort(exercise_id, tries, len(hints)))
    except AssertionError:
        return registered_hint()
    except Exception as e:
        if not _raised_in_learner_code(e, fn):
            _blame_the_check(e, exercise_id)
            raise
        if unfinished:
            return registered_hint()
        return not_yet(_("your code raised {error}: {message}. {hint}").format(
            error=type(e).__name__, message=e, hint=_(spec.hint)))
    finally:
        _NOW.pop()


def _last_resort(exercise_id: str, tries: int, levels: int) -> str:
    """Once every hint has been shown: where the answer is (if the course allows it)."""
    if tries < levels or not solutions_allowed():
        return ""
    return _("Still stuck? exercises.solution(\"{exercise}\") shows an answer.").format(
        exercise=exercise_id)


def _placeholder_in(frame) -> bool:
    """Does the code that called check (a notebook cell, a script: module level) still have
    a placeholder line?"""
    if frame is None or frame.f_code.co_name != "<module>":
        return False
    return any(PLACEHOLDER.match(line.rstrip("\n"))
               for line in linecache.getlines(frame.f_code.co_filename))


# ----- solutions ---------------------------------------------------------------------------
def _comments(code: str) -> list[tuple[int, int, str]]:
    """(line, column, text) of each ``# text`` comment of ``code`` (tokenize: never a ``#``
    inside a string)."""
    if not code:
        return []
    tokens = tokenize.generate_tokens(io.StringIO(code).readline)
    return [(t.start[0], t.start[1], t.string[1:].strip()) for t in tokens
            if t.type == tokenize.COMMENT and t.string[1:].strip()]


def _translated(code: str) -> str:
    """``code`` with each comment in the current language."""
    lines = code.split("\n")
    for row, col, text in reversed(_comments(code)):
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
    spec = _spec(exercise_id)
    if not solutions_allowed():
        return Solution(exercise_id, "", _(
            "Solutions are switched off in this course (its setting {setting}=off): ask your "
            "instructor, or follow the hints the check gives.").format(setting=SOLUTIONS_SETTING))
    if not spec.solution:
        raise KeyError(_("exercise {exercise} has no solution").format(exercise=exercise_id))
    return Solution(exercise_id, _translated(spec.solution), _(
        "Exercise {exercise} ({title}): type this in place of the placeholder line "
        "({placeholder}), then run the cell.").format(
            exercise=exercise_id, title=_(spec.title), placeholder=_(PLACEHOLDER_LINE)))


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
    hints = typing.get_type_hints(fn)
    for name, value in bound.arguments.items():
        kind = _KINDS.get(hints.get(name), hints.get(name))
        if isinstance(kind, type) and not isinstance(value, kind):
            expected = getattr(hints[name], "__name__", str(hints[name]))
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


def available(chapter: str | None = None) -> list[str]:
    """Every exercise id of every chapter module present, or of one chapter ("05")."""
    from importlib import resources
    for entry in resources.files(__name__).iterdir():
        if entry.name.startswith("ch") and entry.name.endswith(".py"):
            importlib.import_module(f"{__name__}.{entry.name[:-3]}")
    return sorted(e for e in _CHECKS if chapter is None or e.split(".")[0] == chapter)


# Chapter self-tests and progress: the quiz room (acl_lab/exercises/quiz) does the work.

def questions(chapter) -> list[dict]:
    """The chapter's self-test questions as data: question, choices, answer, explanation,
    explanations (see acl_lab.exercises.quiz.questions)."""
    return importlib.import_module("acl_lab.exercises.quiz").questions(chapter)


def self_test(chapter):
    """The chapter's self-test: questions with instant feedback, then its exercises by
    level, passed or not."""
    return importlib.import_module("acl_lab.exercises.quiz").self_test(chapter)


def passed(chapter=None) -> list[str]:
    """Ids of the exercises passed and the questions answered right, in this session or an
    earlier one (stored under $ACL_LAB_HOME)."""
    return importlib.import_module("acl_lab.exercises.quiz").passed(chapter)
