"""Where the kit runs in a browser tab (JupyterLite's Pyodide kernel), and its limits there.

Pyodide (measured): threads cannot start (``Thread.start`` raises RuntimeError), one
anonymous ``mmap`` is capped below 2 GiB and is eager (every mapped byte is real memory), and
``sys.platform == "emscripten"``. ``ACL_LAB_PLATFORM=pyodide`` imitates those limits on
CPython, so the test suite can run every chapter as the browser would (``imitate()``).
"""
from __future__ import annotations

import os
import sys
import threading

from acl_lab.i18n import _

ENV = "ACL_LAB_PLATFORM"
#: the largest single buffer Pyodide maps (one anonymous mmap must stay below 2 GiB)
MAP_CAP = (1 << 31) - (1 << 16)
#: the default host-RAM budget there: a browser tab's WebAssembly memory is 4 GiB at most,
#: and Python, numpy and the page need their share
BUDGET = 1 << 30


def pyodide() -> bool:
    """Does this Python have Pyodide's limits (a browser tab, or their imitation)?"""
    return sys.platform == "emscripten" or os.environ.get(ENV, "").lower() == "pyodide"


def where() -> str:
    return _("Pyodide, in the browser") if sys.platform == "emscripten" else f"{ENV}=pyodide"


def no_threads(what: str) -> str:
    return _("threads cannot start in this Python ({where}): {what}. Use "
             "acl_lab.run_in_thread(fn, *args), which runs fn as another thread here, or run "
             "the notebook in JupyterLab (make lab) or on Binder.").format(where=where(),
                                                                            what=what)


def require(module: str, who: str) -> None:
    """Stop ``who`` at once, with the reason and the way out, when ``module`` cannot be
    imported (onnx has no WebAssembly build, so chapter 08 cannot run in a browser tab)."""
    import importlib.util
    if importlib.util.find_spec(module) is None:
        text = (_("{who} needs {module}, and {module} has no build for Pyodide, the Python of "
                  "this browser tab (JupyterLite). Open it in JupyterLab (make lab) or on "
                  "Binder; in a plain Python: pip install {module}.") if pyodide() else
                _("{who} needs {module}, and {module} is not installed. Open it in JupyterLab "
                  "(make lab) or on Binder; in a plain Python: pip install {module}."))
        raise ModuleNotFoundError(text.format(who=who, module=module), name=module)


_real_start = threading.Thread.start


def _start_refused(self):
    """Thread.start as Pyodide has it, for the learner's code and the kit's (the test
    kernel's own machinery, started before, keeps its threads)."""
    caller = sys._getframe(1).f_globals.get("__name__", "")
    if caller == "__main__" or caller.split(".")[0] == "acl_lab":
        raise RuntimeError(no_threads(_("{thread} was not started").format(thread=self.name)))
    return _real_start(self)


def imitate() -> None:
    """On CPython with ACL_LAB_PLATFORM=pyodide, refuse to start threads as Pyodide does
    (the storage caps follow ``pyodide()`` by themselves)."""
    if pyodide() and sys.platform != "emscripten":
        threading.Thread.start = _start_refused
