"""What exercises exist and the state each one builds for itself: registration (``@exercise``),
ids, levels and titles, ``start()`` and what a running check may ask about it (the calls
since start, its handles, the learner's names for them, what released a handle)."""
from __future__ import annotations

import importlib
import inspect
import sys
from dataclasses import dataclass, field
from typing import Callable

from acl_lab.i18n import _

_PACKAGE = "acl_lab.exercises"
_CHECKS: dict[str, tuple[str, str, Callable]] = {}


class NotYet(Exception):
    """Raised by a check to fail with specific hints, least specific first: the same mistake
    made again shows the next one (the last one once they run out)."""

    def __init__(self, *hints: str):
        super().__init__(*hints)
        self.hints = tuple(h for h in hints if h)

    def __str__(self) -> str:
        return self.hints[0] if self.hints else ""


@dataclass
class Spec:
    """Everything registered for one exercise (see the package docstring)."""
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

#: How hard an exercise is, as the chapter self-tests grade them.
LEVELS = ("easy", "medium", "hard")
_LEVELS: dict[str, str] = {}
NEEDS = ("device", "process", None)


def exercise(exercise_id: str, title: str, hint: str, level: str = "medium", *,
             more: tuple[str, ...] = (), setup: Callable | None = None,
             profile: str = "910b", device: bool = True, needs: str | None = "device",
             solution: str = ""):
    """Register a check (the package docstring shows every argument). The check returns a
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
            importlib.import_module(f"{_PACKAGE}.ch{chapter}")
        except ModuleNotFoundError:
            pass
    if exercise_id not in _CHECKS:
        raise KeyError(_("no exercise {exercise}; known: {known}").format(
            exercise=repr(exercise_id), known=", ".join(sorted(_CHECKS))))
    return _CHECKS[exercise_id]


def spec(exercise_id: str) -> Spec:
    """The registration of ``exercise_id`` (KeyError, in words, for an unknown one)."""
    title_, hint, fn = _lookup(exercise_id)
    found = _SPECS.get(exercise_id)
    if found is None or found.check is not fn:      # registered by hand into _CHECKS (tests)
        found = _SPECS[exercise_id] = Spec(title_, hint, fn, _LEVELS.get(exercise_id, "medium"))
    return found


def available(chapter: str | None = None) -> list[str]:
    """Every exercise id of every chapter module present, or of one chapter ("05")."""
    from importlib import resources
    for entry in resources.files(_PACKAGE).iterdir():
        if entry.name.startswith("ch") and entry.name.endswith(".py"):
            importlib.import_module(f"{_PACKAGE}.{entry.name[:-3]}")
    return sorted(e for e in _CHECKS if chapter is None or e.split(".")[0] == chapter)


def registered_specs() -> list[Spec]:
    """Every chapter's exercises (each chapter module imported)."""
    return [_SPECS[e] for e in available() if e in _SPECS]


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

    found = spec(exercise_id)
    simulated = acl_lab.snapshot()["backend"] == "sim"     # hardware is what it is
    acl_lab.reset(found.profile if simulated else None)
    if found.device:
        acl_lab.check(_accept_repeat(acl.init()), "acl.init()")
        acl_lab.check(acl.rt.set_device(0), "acl.rt.set_device(0)")
    handles = found.setup(acl) if found.setup is not None else None
    trace = acl_lab.tracer()
    calls = trace.calls
    _STARTED[exercise_id] = _Start(trace, trace.generation, calls[-1].seq if calls else 0,
                                   handles, origin(sys._getframe(1)))
    return handles


def origin(frame) -> str:
    """The file of the code that made a call: a notebook cell has one of its own."""
    return frame.f_code.co_filename if frame is not None else ""


def _accept_repeat(ret: int) -> int:
    """On hardware ``reset()`` leaves AscendCL initialized: a repeated init only says so."""
    from acl_lab.constants import ACL_ERROR_REPEAT_INITIALIZE
    return 0 if ret == ACL_ERROR_REPEAT_INITIALIZE else ret


def started_record(exercise_id: str) -> _Start | None:
    """What start() of this exercise recorded, whether or not its process still runs."""
    return _STARTED.get(exercise_id)


def started(exercise_id: str) -> _Start | None:
    """The start() of this exercise whose process is still the running one, or None."""
    import acl_lab
    record = _STARTED.get(exercise_id)
    trace = acl_lab.tracer()
    if record is None or record.trace is not trace or record.generation != trace.generation:
        return None
    return record


def forget_start(exercise_id: str | None = None) -> None:
    if exercise_id is None:
        _STARTED.clear()
    else:
        _STARTED.pop(exercise_id, None)


# ----- what a check may ask while it runs --------------------------------------------------
@dataclass
class Checking:
    exercise_id: str
    scope: dict = field(default_factory=dict)      # the learner's globals (the cell's module)


#: the checks running now, innermost last (checking.py pushes and pops)
NOW: list[Checking] = []


def calls_since_start() -> list:
    """The traced calls made since the running exercise's start() (every kept call when the
    check runs without one, as in unit tests)."""
    import acl_lab
    calls = acl_lab.tracer().calls
    record = started(NOW[-1].exercise_id) if NOW else None
    return calls if record is None else [c for c in calls if c.seq > record.mark]


def start_handles():
    """What the running exercise's start() returned (None without one)."""
    record = started(NOW[-1].exercise_id) if NOW else None
    return None if record is None else record.handles


#: ints Python shares between names (-5..256): a name bound to one says nothing
_SHARED_INTS = range(-5, 257)


def learner_name(obj, default: str) -> str:
    """The name the learner's cell bound ``obj`` to (found by identity in its globals),
    ``default`` when that is one of them or none is."""
    if not NOW or obj is None or isinstance(obj, bool) or \
            (isinstance(obj, int) and obj in _SHARED_INTS):
        return default
    names = [k for k, v in list(NOW[-1].scope.items()) if v is obj and not k.startswith("_")]
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
