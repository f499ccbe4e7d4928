"""Run a pyACL program unchanged on the simulator: ``import acl`` gives it the kit's acl.

The program runs in this Python process as ``python app.py args`` would run it:
``__main__``, ``sys.argv``, its folder first on ``sys.path``, the current folder kept. Its
``import acl`` (and every module it imports that does so) gets the watched simulator acl
from a fresh simulated process; afterwards the report says what went wrong.

However it ends, it gets its report: by itself, by an exception, by Ctrl-C (the
KeyboardInterrupt, which the kit delivers once the acl call it landed in has returned:
support/interrupts.py), or by SIGTERM, SIGHUP or SIGQUIT (each raises ``Stopped`` in the
program). What a program changed in the runner's own world is put back before the report
is made: the builtins, sys.stdout and sys.stderr, the working folder; further signals wait
until the report is out.
"""
from __future__ import annotations

import builtins
import contextlib
import os
import runpy
import signal
import sys
import threading
import traceback

from acl_lab.session import SESSION
from acl_lab.run.report import Report, build
from acl_lab.run.watch import Probe, Watch


@contextlib.contextmanager
def acl_module(acl):
    """``import acl`` resolves to ``acl`` inside the block (and to what it was after)."""
    missing = object()
    before = sys.modules.get("acl", missing)
    sys.modules["acl"] = acl
    try:
        yield
    finally:
        if before is missing:
            sys.modules.pop("acl", None)
        else:
            sys.modules["acl"] = before


def fresh_watch(profile: str | None = None) -> Watch:
    """A fresh simulated process (``profile``, else the current one) and its watched acl."""
    acl = SESSION.load("sim", profile)
    SESSION.reset(profile)
    return Watch(acl, Probe(SESSION))


@contextlib.contextmanager
def _as_main(path: str, args):
    argv, path0, cwd = sys.argv[:], sys.path[:], os.getcwd()
    kept = dict(builtins.__dict__)
    streams = sys.stdout, sys.stderr
    chdir = os.chdir
    sys.argv = [path, *args]
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        yield
    finally:
        builtins.__dict__.clear()          # a program that replaced print, len ...
        builtins.__dict__.update(kept)
        sys.stdout, sys.stderr = streams   # ... or sys.stderr
        sys.argv[:], sys.path[:] = argv, path0
        chdir(cwd)      # a program that changed folder leaves the runner where it was


def _ending(exc: BaseException) -> tuple[str, str]:
    """How an exception that left the program ended it: (status, one line)."""
    if isinstance(exc, SystemExit):
        code = exc.code
        if code in (None, 0):
            return "completed", ""
        return f"exit {code if isinstance(code, int) else 1}", "" if isinstance(code, int) \
            else str(code)
    frames = traceback.extract_tb(exc.__traceback__)
    outside = [f for f in frames if "acl_lab" not in f.filename.split(os.sep)[-3:-1]]
    where = outside[-1] if outside else (frames[-1] if frames else None)
    place = f" [{os.path.basename(where.filename)}:{where.lineno}]" if where else ""
    text = str(exc).splitlines()[0] if str(exc) else ""
    return "exception", f"{type(exc).__name__}{': ' + text if text else ''}{place}"


class Stopped(BaseException):
    """The runner was asked to stop by a signal: the program ends, its report is still
    made; ``signal_name`` says which ("SIGTERM")."""

    def __init__(self, signal_name: str):
        super().__init__(signal_name)
        self.signal_name = signal_name


#: signals that end a program with its report (Ctrl-C, SIGINT, is Python's KeyboardInterrupt)
STOPPING = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP", "SIGQUIT") if hasattr(signal, n))


@contextlib.contextmanager
def _handling(handler):
    """``handler`` for the STOPPING signals (and SIGINT if ``handler`` is SIG_IGN) inside
    the block, in the main thread; the previous handlers come back after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    wanted = STOPPING + ((signal.SIGINT,) if handler is signal.SIG_IGN else ())
    before = {s: signal.signal(s, handler) for s in wanted}
    try:
        yield
    finally:
        for s, h in before.items():
            signal.signal(s, h)


def _stop(signum, frame):
    raise Stopped(signal.Signals(signum).name)


def _stoppable():
    """A signal among STOPPING ends the program with Stopped (a program stuck in a loop
    still gets its report)."""
    return _handling(_stop)


def uninterrupted():
    """Signals wait while the report is made and printed (it takes milliseconds)."""
    return _handling(signal.SIG_IGN)


def run_program(path: str, args=(), profile: str | None = None) -> Report:
    """Run the program at ``path`` with ``args`` on a fresh simulated process; its report.
    The program's exception (if any) is printed as Python would, and noted in the report."""
    watch = fresh_watch(profile)
    status, error, raised = "completed", "", None
    with _stoppable(), acl_module(watch.acl), _as_main(path, args):
        try:
            runpy.run_path(path, run_name="__main__")
        except Stopped as stop:
            status, error = "stopped", stop.signal_name
        except KeyboardInterrupt as exc:
            status, error = "interrupted", _ending(exc)[1]
        except BaseException as exc:        # SystemExit too: the program's own ending
            status, error = _ending(exc)
            raised = exc if status == "exception" else None
    with uninterrupted():
        if raised is not None:          # as Python prints it, on the runner's own stderr
            tell("".join(traceback.format_exception(raised)))
        return build(os.path.basename(path), status, error, SESSION, watch)


def tell(text: str) -> None:
    """``text`` on stderr; on file descriptor 2 itself if the program closed sys.stderr."""
    try:
        print(text, file=sys.stderr, end="" if text.endswith("\n") else "\n")
        sys.stderr.flush()
    except (ValueError, OSError, AttributeError):
        os.write(2, (text.rstrip("\n") + "\n").encode("utf-8", "replace"))
