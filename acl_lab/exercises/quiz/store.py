"""Where a learner's passes are kept: one JSON file under ``$ACL_LAB_HOME``, surviving restarts.

The home is ``$ACL_LAB_HOME``; else, in a browser tab (JupyterLite: acl_lab.support.pyodide), ``.acl_lab``
at the root of the drive JupyterLite mounts at /drive, whose files it keeps in the browser's
storage (IndexedDB), one home for both editions (or in the working directory where there is
no drive); else the platform's user data directory (platformdirs: ``~/.local/share/acl_lab``
on Linux).

A pass is a fact that stays true, so the file holds two sets (exercise ids, question ids) and
every write is read-merge-write: union with what is on disk, so two kernels (two notebooks
open at once) never drop each other's passes. Where the OS offers it (fcntl), a lock file
serialises the merge. The file is replaced atomically (temporary file + ``os.replace``): an
interrupted write leaves the old file whole. A missing file reads as no passes; so does
one that is not what the store wrote — corrupt JSON, nesting beyond reason, a FIFO, a
device, a file of more than ``MAX_BYTES``, a symlink out of the home (support/files.py
reads it, bounded and typed) — and the store says so once; the next write replaces it. A
home that cannot be written never raises into the notebook: the store says so once and
keeps the passes in memory for this process.
"""
from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
import tempfile
from pathlib import Path

from acl_lab.support import files
from acl_lab.support import pyodide as wasm
from acl_lab.i18n import _

HOME_SETTING = "ACL_LAB_HOME"
#: where JupyterLite's kernel mounts the site's files (its browser storage); a notebook's
#: working directory lies below it when the drive works
DRIVE = Path("/drive")
FILE_NAME = "progress.json"
KINDS = ("exercises", "questions")
FORMAT = 1
#: a progress file holds a few hundred ids: anything much larger is not one
MAX_BYTES = 1 << 20


def home() -> Path:
    """The directory the progress file lives in (see the module docstring)."""
    configured = os.environ.get(HOME_SETTING, "").strip()
    if configured:
        return Path(configured).expanduser()
    if wasm.pyodide():
        cwd = Path.cwd()
        return (DRIVE if DRIVE == cwd or DRIVE in cwd.parents else cwd) / ".acl_lab"
    import platformdirs
    return Path(platformdirs.user_data_dir("acl_lab", appauthor=False))


class Store:
    """The passes of one home: what the file says, merged with what this process recorded."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.path = directory / FILE_NAME
        self.memory: dict[str, set[str]] = {kind: set() for kind in KINDS}
        self.warned = False
        self.unreadable_told = False

    def passed(self, kind: str) -> set[str]:
        """Ids of ``kind`` ("exercises" or "questions") passed here or in any earlier session."""
        return self._read()[kind] | self.memory[kind]

    def record(self, kind: str, item: str) -> None:
        """Remember that ``item`` passed, on disk if the home allows it."""
        if item in self.memory[kind] and item in self._read()[kind]:
            return
        self.memory[kind].add(item)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            with self._locked():
                merged = self._read()
                for k in KINDS:
                    merged[k] |= self.memory[k]
                self._write(merged)
        except OSError as error:
            self._warn_once(error)

    def _read(self) -> dict[str, set[str]]:
        empty = {kind: set() for kind in KINDS}
        if not os.path.lexists(self.path):
            return empty
        try:
            data = files.parse_json(files.read(self.path, MAX_BYTES, within=self.directory))
        except files.Refused as why:
            self._tell_unreadable(why)
            return empty
        if not isinstance(data, dict):
            return empty
        lists = {kind: data.get(kind) for kind in KINDS}
        return {kind: {i for i in items if isinstance(i, str)}
                if isinstance(items, list) else set() for kind, items in lists.items()}

    def _write(self, passes: dict[str, set[str]]) -> None:
        text = json.dumps({"format": FORMAT, **{k: sorted(passes[k]) for k in KINDS}},
                          indent=1) + "\n"
        fd, temporary = tempfile.mkstemp(dir=self.directory, prefix=".progress-",
                                         suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(temporary, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise

    @contextlib.contextmanager
    def _locked(self):
        """Hold the home's lock file while merging, where the OS can lock (fcntl; not on
        Windows, nor in Pyodide's in-memory file system). Without a lock the merge still
        keeps this process's passes, and its next write restores any another dropped."""
        try:
            import fcntl
        except ImportError:
            fcntl = None
        lock = _open_lock(self.directory / ".progress.lock")
        if lock is None:          # not a lock file the store can use: merge without one
            yield
            return
        try:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX)
            except (AttributeError, OSError):      # no fcntl, or a file system without locks
                yield
                return
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)
        finally:
            os.close(lock)

    def _tell_unreadable(self, why: files.Refused) -> None:
        if self.unreadable_told:
            return
        self.unreadable_told = True
        print("[acl_lab] " + _("your progress file {path} cannot be read ({reason}); it "
                               "counts as no passes, and your next pass replaces it.").format(
                                   path=self.path, reason=why), file=sys.stderr)

    def _warn_once(self, error: OSError) -> None:
        if self.warned:
            return
        self.warned = True
        print("[acl_lab] " + _("cannot save your progress in {home} ({reason}); it is kept "
                               "for this session only. Set ACL_LAB_HOME to a folder you can "
                               "write to, then restart the kernel.").format(
                                   home=self.directory, reason=error.strerror or error),
              file=sys.stderr)


def _open_lock(path: Path) -> int | None:
    """A descriptor of the regular lock file at ``path`` (made if missing), or None: a FIFO
    or device there would block or never end, a symlink could point anywhere."""
    flags = (os.O_WRONLY | os.O_CREAT | getattr(os, "O_NONBLOCK", 0)
             | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        fd = os.open(path, flags, 0o644)
    except OSError:
        return None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    return fd


_STORES: dict[Path, Store] = {}


def current_store() -> Store:
    """The store of the current home (``$ACL_LAB_HOME`` is read each time)."""
    try:
        directory = home()
    except OSError:                   # the working directory was deleted under the kernel
        directory = Path(os.environ.get(HOME_SETTING) or ".acl_lab")
    if directory not in _STORES:
        _STORES[directory] = Store(directory)
    return _STORES[directory]
