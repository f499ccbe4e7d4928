"""Where the CANN C libraries are, and which of them exports a symbol.

The CANN toolkit installs its libraries under ``$ASCEND_HOME_PATH/lib64`` (``set_env.sh``
sets ASCEND_HOME_PATH, and ASCEND_TOOLKIT_HOME on older toolkits). The runtime's calls are
in libascendcl.so, or in libacl_rt.so where the runtime is built apart (hicann/runtime
src/acl/aclrt/CMakeLists.txt builds libacl_rt.so; cmake/package.cmake packs
libascendcl.so); aclCreateTensor and the other aclnn basics in libnnopbase.so; the aclnn
operators in libopapi.so (hicann/runtime example/2_advanced_features/model_ri links all
three). Each symbol comes from whichever library exports it, tried in LIBRARIES' order; a
library is opened only when an earlier one lacks the symbol (libopapi.so is large).
Nothing here is loaded until a call needs it.
"""
from __future__ import annotations

import ctypes
import os
import threading
from pathlib import Path

from acl_lab.i18n import _

HOME_VARS = ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME")
LIBRARIES = ("libacl_rt.so", "libascendcl.so", "libnnopbase.so", "libopapi.so")

#: the earliest CANN release whose API reference (hiascend.com, "CANN commercial") was
#: found documenting a symbol (a prefix ending in "*", or a name): older toolkits may lack
#: it. Symbols not listed: the release is not recorded here.
SINCE = (
    # canncommercial/81RC1 apiref appdevgapi aclcppdevg_03_1782 (aclmdlRICaptureBegin) and
    # the pages it links: capture, execute, destroy, task groups, debug print
    ("aclmdlRI*", "CANN 8.1.RC1"),
    # canncommercial/800 apiref: the aclnn two-phase interface (aclnnXxxGetWorkspaceSize,
    # aclnnXxx) and the tensors and scalars it takes
    ("aclnn*", "CANN 8.0.0"),
    *((name, "CANN 8.0.0") for name in ("aclCreateTensor", "aclCreateScalar",
                                        "aclDestroyTensor", "aclDestroyScalar")),
)


class NativeUnavailable(RuntimeError):
    """A call pyACL does not bind needs a CANN library or symbol this machine lacks. The
    message says which call, which libraries were tried, and which CANN release added it."""


def since(symbol: str) -> str | None:
    """The first CANN release documenting ``symbol``, if recorded here."""
    for pattern, release in SINCE:
        if symbol == pattern or pattern.endswith("*") and symbol.startswith(pattern[:-1]):
            return release
    return None


def library_dir() -> Path | None:
    """``$ASCEND_HOME_PATH/lib64`` (or ASCEND_TOOLKIT_HOME's), None when neither is set."""
    home = next((os.environ[v] for v in HOME_VARS if os.environ.get(v)), None)
    return Path(home, "lib64") if home else None


def cann_version(folder: Path | None = None) -> str | None:
    """The toolkit's version as its install record says ("version=8.1.RC1" in
    ascend_toolkit_install.info, next to lib64), or None."""
    home = (folder or library_dir() or Path("/nonexistent")).parent
    for name in ("ascend_toolkit_install.info", "version.info", "version.cfg"):
        try:
            text = (home / name).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for line in text.splitlines():
            key, _sep, value = line.partition("=")
            if key.strip().lower() in ("version", "version_dir") and value.strip():
                return value.strip()
    return None


class Libraries:
    """The CANN libraries of one toolkit, opened on demand; one per backend load."""

    def __init__(self, folder: Path | None = None):
        self.folder = folder if folder is not None else library_dir()
        self._opened: dict[str, ctypes.CDLL | str] = {}    # name -> library, or why not
        self._lock = threading.Lock()

    def _open(self, name: str) -> ctypes.CDLL | str:
        if name not in self._opened:
            path = self.folder / name
            if not path.exists():
                self._opened[name] = _("not installed")
            else:
                try:
                    self._opened[name] = ctypes.CDLL(str(path))
                except OSError as e:
                    self._opened[name] = _("cannot be loaded: {error}").format(error=e)
        return self._opened[name]

    def find(self, symbol: str) -> tuple[object, str] | None:
        """(the C function, the library exporting it), or None."""
        if self.folder is None:
            return None
        with self._lock:
            for name in LIBRARIES:
                lib = self._open(name)
                if not isinstance(lib, str) and hasattr(lib, symbol):
                    return getattr(lib, symbol), name
        return None

    def short_missing(self, call: str, symbol: str) -> str:
        """One line: why ``symbol`` cannot be called here."""
        if self.folder is None:
            return _("{symbol}: ASCEND_HOME_PATH not set").format(symbol=symbol)
        release = since(symbol)
        text = _("{symbol} is in none of the CANN libraries in {folder}").format(
            symbol=symbol, folder=self.folder)
        return text + (_(" (it needs {release} or later)").format(release=release)
                       if release else "")

    def explain_missing(self, call: str, symbol: str) -> str:
        """Why ``symbol`` (behind pyACL-shaped ``call``) cannot be called here, and the fix."""
        head = _("acl.{call} needs {symbol} from the CANN C libraries (pyACL does not bind it; "
                 "acl_lab calls it through ctypes).").format(call=call, symbol=symbol)
        if self.folder is None:
            where = _("ASCEND_HOME_PATH is not set: source the toolkit's set_env.sh in the "
                      "shell that starts Python.")
        else:
            tried = "; ".join(
                f"{name} " + (self._opened[name] if isinstance(self._opened.get(name), str)
                              else _("does not export it"))
                for name in LIBRARIES)
            where = _("In {folder}: {tried}.").format(folder=self.folder, tried=tried)
        release = since(symbol)
        if release:
            when = _("{symbol} is in {release} or later; with an older CANN, upgrade the "
                     "toolkit or use the simulator for this chapter.").format(symbol=symbol,
                                                                             release=release)
        else:
            when = _("The CANN release that added {symbol} is not recorded here; see the "
                     "CANN API reference of your version.").format(symbol=symbol)
        return " ".join([head, where, when])
