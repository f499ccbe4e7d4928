"""Resident memory after allocating 60 GiB of the 910b profile's device memory, untouched.

Device bytes live in lazy storage, so an allocation costs address space, not RAM, until
written. Measured in a fresh interpreter so the reading is not blurred by earlier work.
"""
from __future__ import annotations

from . import PROFILE, Row, run_python

GiB, MiB = 1 << 30, 1 << 20
ALLOCATIONS = 60          # x 1 GiB: HBM huge pages first, then the fallbacks HUGE_FIRST allows
GOAL = 64 * MiB

_CODE = f"""
import os, sys
import acl_lab
from acl_lab.constants import ACL_MEM_MALLOC_HUGE_FIRST

def rss():
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        import resource   # peak, not current: still an upper bound on the growth
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024

acl = acl_lab.load(backend="sim", profile={PROFILE!r})
acl_lab.check(acl.init())
acl_lab.check(acl.rt.set_device(0))
before = rss()
for _ in range({ALLOCATIONS}):
    ptr, ret = acl.rt.malloc({GiB}, ACL_MEM_MALLOC_HUGE_FIRST)
    acl_lab.check(ret)
print(before, rss())
"""


def run() -> list[Row]:
    before, after = map(int, run_python(_CODE).stdout.split())
    growth = after - before
    return [Row(f"RSS growth, {ALLOCATIONS} GiB malloc'd untouched ({PROFILE})",
                f"{growth / MiB:+.1f} MiB", f"RSS before {before / MiB:.0f} MiB",
                None, f"< {GOAL // MiB} MiB", growth < GOAL)]
