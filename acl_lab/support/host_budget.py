"""How much host RAM the kit lets simulated bytes (and the files it reads) use.

The budget is half of the tightest limit this process lives under — its cgroup's memory
limit (v2 or v1), its address-space rlimit (``ulimit -v``) and the machine's physical
memory — since Python, numpy and Jupyter need the rest; in a browser tab (Pyodide) a fixed
1 GiB. ``ACL_LAB_HOST_RAM`` ("1GiB", "512MiB", "2G", a byte count) overrides it. The
simulator counts its bytes against it (sim/hostram.py); `acl-lab atc` reads no model larger
than a part of it.
"""
from __future__ import annotations

import os
import re

from acl_lab.support import pyodide as wasm
from acl_lab.i18n import _

ENV = "ACL_LAB_HOST_RAM"
_UNITS = {"": 1, "b": 1, "k": 1 << 10, "kb": 1000, "kib": 1 << 10, "m": 1 << 20, "mb": 10**6,
          "mib": 1 << 20, "g": 1 << 30, "gb": 10**9, "gib": 1 << 30, "t": 1 << 40,
          "tb": 10**12, "tib": 1 << 40}
_NO_LIMIT = 1 << 60   # cgroup files say "max" or a huge number when nothing is set


def parse_size(text: str) -> int:
    """'1GiB' -> 1073741824; '512MiB', '2G', '1.5GiB', '1000000' likewise."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", text)
    unit = m and _UNITS.get(m.group(2).lower())
    if not unit:
        raise ValueError(f"{ENV}={text!r} is not a size; write e.g. 1GiB, 512MiB or 2000000000")
    return int(float(m.group(1)) * unit)


def _read_int(path: str) -> int | None:
    try:
        with open(path, encoding="ascii") as f:
            text = f.read().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() and int(text) < _NO_LIMIT else None


def _cgroup_limit() -> int | None:
    """The memory limit of this process's cgroup (v2 memory.max, else v1 limit_in_bytes)."""
    paths = ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]
    try:
        with open("/proc/self/cgroup", encoding="ascii") as f:
            for line in f:
                _hierarchy, controllers, path = line.rstrip("\n").split(":", 2)
                if controllers == "":
                    paths.insert(0, f"/sys/fs/cgroup{path}/memory.max")
                elif "memory" in controllers.split(","):
                    paths.insert(0, f"/sys/fs/cgroup/memory{path}/memory.limit_in_bytes")
    except (OSError, ValueError):
        pass
    found = [v for v in map(_read_int, paths) if v]
    return min(found) if found else None


def limits() -> dict[str, int]:
    """The limits the automatic budget is taken from: name -> bytes."""
    out = {}
    cgroup = _cgroup_limit()
    if cgroup:
        out["cgroup memory limit"] = cgroup
    try:
        import resource     # POSIX only
        soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            out["RLIMIT_AS (ulimit -v)"] = soft
    except (ImportError, OSError, ValueError):
        pass
    try:
        out["physical memory"] = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        pass
    return out


def budget() -> tuple[int, str]:
    """(bytes simulated memory may use, where that figure comes from)."""
    limit, source = current_budget()
    return limit, source()


def current_budget():
    """(bytes, a function saying in the learner's language where that figure comes from)."""
    text = os.environ.get(ENV)
    if text:
        return parse_size(text), lambda: f"{ENV}={text}"
    if wasm.pyodide():      # a browser tab: its own limits (wasm.py), none of the above
        return wasm.BUDGET, lambda: _("the browser-tab default of {size} ({where})").format(
            size=mib(wasm.BUDGET), where=wasm.where())
    found = limits()
    if not found:
        return 1 << 30, lambda: _("a default of 1 GiB (no limit could be read)")
    name = min(found, key=found.get)
    return found[name] // 2, lambda: _("half the {limit} of {size}").format(
        limit=_limit_name(name), size=mib(found[name]))


def _limit_name(name: str) -> str:
    """A name limits() uses, in the learner's language."""
    return {"cgroup memory limit": _("cgroup memory limit"),
            "physical memory": _("physical memory")}.get(name, name)


def mib(n: int) -> str:
    return f"{n / (1 << 20):,.0f} MiB" if n >= 1 << 20 else f"{n} B"
