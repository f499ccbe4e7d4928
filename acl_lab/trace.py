"""Records every API call (name, arguments, result, thread, modeled time) in a bounded buffer.

``load()`` wraps whichever backend in a Traced facade: same namespaces, same functions, each
call appended to the trace. Big arguments (arrays, bytes) are summarised when recorded so
the trace never keeps a learner's data alive.
"""
from __future__ import annotations

import itertools
import operator
import threading
import types
from collections import deque
from html import escape
from typing import Callable, NamedTuple

from acl_lab.spec import pyacl_functions as pyacl_table
from acl_lab.support import interrupts, threads
from acl_lab.i18n import N_, _, columns
from acl_lab.faults import Faults

NAMESPACES = ("rt", "util", "media", "mdl", "nn", "op", "blas",
              "prof")   # the simulator's; pyACL's are modules
DEFAULT_LIMIT = 10_000
_SCALARS = (int, float, str, bool, type(None))
_PLAIN = frozenset(_SCALARS)   # exact types that need no summary (the common case)
_SEQ = operator.itemgetter(0)
_NO_TIMING = types.SimpleNamespace(now_us=0.0, timeline=())   # a trace of an untimed backend


class Call(NamedTuple):
    """One recorded call. The trace keeps plain tuples in this field order (cheapest to
    build) and hands them out as Calls."""
    seq: int
    name: str           # e.g. "rt.malloc"
    args: tuple
    result: object
    thread: str
    start_us: float     # modeled host clock before / after the call
    end_us: float
    task: dict | None = None   # stream work the call issued: stream, kind, start_us, end_us
    injected: bool = False     # acl_lab.inject made it fail; it never ran

    @property
    def ret(self):
        """The ACL return code, where the call returns one."""
        r = self.result
        if isinstance(r, tuple) and r and isinstance(r[-1], int):
            return r[-1]
        return r if isinstance(r, int) and not self.name.startswith("util.") else None


def _task_info(task) -> dict:
    """The stream work a call issued, as the trace keeps it."""
    return {"stream": task.stream, "kind": task.kind, "start_us": task.start_us,
            "end_us": task.end_us}


def _summary(value):
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, tuple):
        return tuple(_summary(v) for v in value)
    shape = getattr(value, "shape", None)
    if shape is not None:
        return f"<{type(value).__name__} {getattr(value, 'dtype', '')}{list(shape)}>"
    if isinstance(value, (bytes, bytearray, memoryview)):
        return f"<{type(value).__name__} {len(value)} B>"
    return f"<{type(value).__name__}>"


def _fmt(value) -> str:
    if isinstance(value, bool) or not isinstance(value, int):
        return repr(value) if not isinstance(value, tuple) else ", ".join(_fmt(v) for v in value)
    return hex(value) if value > 0xFFFF else str(value)


class Trace:
    """Calls are kept as plain tuples in Call's field order, appended without a lock:
    numbering (``next`` on a counter) and appending are each atomic, so threads never share
    a number, and readers put the few calls two threads appended out of turn back in order."""

    def __init__(self, timing: Callable[[], object] = lambda: _NO_TIMING,
                 limit: int = DEFAULT_LIMIT, faults: Faults | None = None):
        self._faults = Faults() if faults is None else faults   # the session's
        self._records: deque[tuple] = deque(maxlen=limit)
        self._timing = timing     # the backend's: .now_us and .timeline (backends.Backend)
        self._seq = itertools.count(1)
        # the newest task a call has claimed: a call that only waited while another thread
        # (or a call nested in it, such as a callback's copy) issued that task claims nothing
        self._claimed: list = [None]
        self._threads: dict[int, str] = {}
        self._names_lock = threading.Lock()    # two new threads must not get the same name
        self.names: dict[int, str] = {}        # handle -> the name a learner gave it
        self.generation = 0                    # counts clear()s: views tell a reset by it

    @property
    def calls(self) -> list[Call]:
        """Every kept call, oldest first."""
        records = list(self._records)          # one C call: safe while threads append
        records.sort(key=_SEQ)
        return [Call._make(r) for r in records]

    def position(self) -> tuple[int, int]:
        """Changes whenever a call is recorded or the trace is cleared (cheap: views poll it)."""
        records = self._records
        return len(records), (records[-1][0] if records else 0)

    def _thread_name(self) -> str:
        ident = threads.get_ident()
        with self._names_lock:
            name = self._threads.get(ident)
            if name is None:
                name = ("main" if threads.is_main() else
                        f"thread-{sum(n != 'main' for n in self._threads.values()) + 1}")
                self._threads[ident] = name
        return name

    def wrap(self, name: str, fn: Callable) -> Callable:
        append, timing, seq, thread_names, faults, claimed = (
            self._records.append, self._timing, self._seq, self._threads, self._faults,
            self._claimed)
        plain = _PLAIN
        noted, returning = interrupts.state, interrupts.returning

        def traced(*args, **kwargs):
            __tracebackhide__ = True      # noqa: F841 - read by IPython and pytest
            try:            # a critical call: Ctrl-C comes once the call and its record are done
                if kwargs or faults.armed:
                    return slow(args, kwargs)
                clock = timing()
                t0, timeline = clock.now_us, clock.timeline
                before = timeline[-1] if timeline else None
                result = fn(*args)
                task = timeline[-1] if timeline else None
                if task is before or task is claimed[0]:
                    task = None
                else:
                    claimed[0] = task
                for v in args:              # plain scalars are kept as they are (checked inline:
                    if v.__class__ not in plain:     # this runs on every call)
                        args = _summary(args)
                        break
                if result.__class__ is tuple:       # (value, ret): the usual result
                    summary = result
                    for v in result:
                        if v.__class__ not in plain:
                            summary = _summary(result)
                            break
                else:
                    summary = result if result.__class__ in plain else _summary(result)
                thread = thread_names.get(threads.get_ident()) or self._thread_name()
                append((next(seq), name, args, summary, thread, t0, clock.now_us,
                        None if task is None else _task_info(task), False))
                return result
            finally:
                if noted.noted:
                    returning()

        def slow(args, kwargs):
            clock = timing()
            t0, timeline = clock.now_us, clock.timeline
            before = timeline[-1] if timeline else None
            result, injected = faults.call(name, fn, args, kwargs)
            task = timeline[-1] if timeline else None
            if task is before or task is claimed[0]:
                task = None
            else:
                claimed[0] = task
            thread = thread_names.get(threads.get_ident()) or self._thread_name()
            append((next(seq), name, _summary(args + tuple(kwargs.values())), _summary(result),
                    thread, t0, clock.now_us, None if task is None else _task_info(task),
                    injected))
            return result

        interrupts.register(traced)
        traced.__name__ = getattr(fn, "__name__", name)
        traced.__doc__ = getattr(fn, "__doc__", None)
        traced.__wrapped__ = fn
        return traced

    def clear(self) -> None:
        """Forget every call and name: a fresh process reuses the same handles, and its
        threads are numbered from thread-1 again (so a re-run chapter prints the same names)."""
        self._records.clear()
        self.names.clear()
        with self._names_lock:
            self._threads.clear()
        self.generation += 1

    def name(self, handle: int, label: str) -> None:
        """Call stream ``handle`` ``label`` in every view and in ``table()``."""
        if not isinstance(handle, int) or isinstance(handle, bool):
            raise TypeError(f"acl_lab.name(handle, label): pass a stream handle (an int), "
                            f"not {type(handle).__name__}")
        if not isinstance(label, str) or not label.strip():
            raise ValueError("acl_lab.name(handle, label): label must be a non-empty string, "
                             "such as 'copy'")
        self.names[handle] = label.strip()

    def table(self, last: int | None = 20, name: str | None = None) -> "TraceTable":
        rows = [c for c in self.calls if name is None or name in c.name]
        return TraceTable(rows[-last:] if last else rows, dict(self.names))

    def __repr__(self) -> str:
        return repr(self.table())


class TraceTable:
    """A readable table of calls for notebooks (text and HTML), in the learner's language."""

    HEADER = ("#", N_("call"), N_("args"), N_("ret"), N_("thread"), "t_us", N_("task"))

    def __init__(self, calls: list[Call], names: dict[int, str] | None = None):
        self.calls, self.names = calls, names or {}

    def header(self) -> tuple[str, ...]:
        return tuple(_(h) if h not in ("#", "t_us") else h for h in self.HEADER)

    def rows(self) -> list[tuple[str, ...]]:
        out, injected = [], " " + _("injected")
        for c in self.calls:
            stream = c.task and c.task["stream"]
            task = "" if c.task is None else _("{kind} on {stream}").format(
                kind=c.task["kind"], stream=self.names.get(stream) or _fmt(stream)) + (
                f" [{c.task['start_us']:.1f}-{c.task['end_us']:.1f}]")
            ret = c.ret
            out.append((str(c.seq), c.name, _fmt(c.args),
                        "" if ret is None else str(ret) + (injected if c.injected else ""),
                        c.thread, f"{c.start_us:.1f}", task))
        return out

    def __repr__(self) -> str:
        rows = [self.header()] + self.rows()
        widths = [min(max(columns(r[i]) for r in rows), 48) for i in range(len(self.HEADER))]
        return "\n".join("  ".join(_fit(cell, w) for cell, w in zip(r, widths)).rstrip()
                         for r in rows)

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{escape(h)}</th>" for h in self.header())
        body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in r) + "</tr>"
                       for r in self.rows())
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _fit(cell: str, width: int) -> str:
    """``cell`` cut to ``width`` terminal columns and padded to them (CJK takes two)."""
    if cell.isascii():
        return cell[:width].ljust(width)
    out, used = [], 0
    for ch in cell:
        if used + columns(ch) > width:
            break
        out.append(ch)
        used += columns(ch)
    return "".join(out) + " " * (width - used)


def untraced(fn: Callable) -> Callable:
    """The backend call behind a traced function, for calls the kit makes on the learner's
    behalf (checks, gauges) that must stay out of the learner's trace."""
    return getattr(fn, "__wrapped__", fn)


def pyacl_functions(acl) -> dict[str, dict[str, Callable]]:
    """The functions of a pyACL-shaped ``acl`` by namespace ("" for the top level): what the
    trace and the real-hardware guard both wrap, found by one rule."""
    found: dict[str, dict[str, Callable]] = {"": {}}
    for attr in dir(acl):
        if attr.startswith("_"):
            continue
        value = getattr(acl, attr)
        if attr in NAMESPACES or isinstance(value, types.ModuleType):
            found[attr] = {name: fn for name in dir(value) if not name.startswith("_")
                           and callable(fn := getattr(value, name))}
        elif callable(value):
            found[""][attr] = value
    return found


def missing_call(name: str, simulated: bool) -> AttributeError:
    """A pyACL call the backend does not have, said in plain words (``hasattr`` stays
    False: it is an AttributeError)."""
    if simulated:
        namespace, _dot, call = name.rpartition(".")
        table = pyacl_table.bound()
        if call in table.mdc_only.get(namespace, ()):
            return AttributeError(_("acl.{name}: this call exists only in the pyACL built for "
                                    "the MDC products (USE_MDL in hicann/runtime's "
                                    "python/pyACL); the pyACL of every other product has no "
                                    "such function, and neither has the simulator.").format(
                                        name=name))
        if call not in table.names.get(namespace, ()):
            return AttributeError(_("acl.{name}: pyACL has no such call; check the name "
                                    "(docs/pyacl-coverage.md counts every function pyACL "
                                    "binds, docs/call-map.md lists the simulator's).").format(
                                        name=name))
        return AttributeError(_("acl.{name}: acl_lab does not simulate this pyACL call yet, so "
                                "a program that calls it cannot run on the simulator. Ask for "
                                "it in acl_lab's issue tracker (name the call and the program "
                                "that needs it); docs/call-map.md lists every call the "
                                "simulator has.").format(name=name))
    return AttributeError(_("acl.{name}: the pyACL installed here has no such call (it may "
                            "come with another CANN version); check the name in the pyACL "
                            "reference.").format(name=name))


class Namespace(types.SimpleNamespace):
    """One traced pyACL namespace (acl.rt, acl.mdl, ...): a missing call explains itself."""

    def __init__(self, prefix: str, simulated: bool):
        super().__init__()
        self.__dict__["_where"] = (prefix, simulated)

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        prefix, simulated = self.__dict__["_where"]
        raise missing_call(f"{prefix}.{name}", simulated)

    def __dir__(self):
        return [k for k in self.__dict__ if not k.startswith("_")]

    def __repr__(self) -> str:
        return f"<acl.{self.__dict__['_where'][0]} (traced)>"


class Traced:
    """A pyACL-shaped object whose every function records into ``trace``."""

    def __init__(self, target, trace: Trace, simulated: bool = True):
        self._target, self._simulated = target, simulated   # False: real pyACL's own calls
        for ns, functions in pyacl_functions(target).items():
            holder = Namespace(ns, simulated) if ns else self
            for name, fn in functions.items():
                setattr(holder, name, trace.wrap(f"{ns}.{name}" if ns else name, fn))
            if ns:
                setattr(self, ns, holder)

    def __getattr__(self, name: str):
        if name.startswith("__") or name in ("_target", "_simulated"):
            raise AttributeError(name)
        raise missing_call(name, self._simulated)

    def __repr__(self) -> str:
        return f"<acl (traced {type(self._target).__name__})>"
