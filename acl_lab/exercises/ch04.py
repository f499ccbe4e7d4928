"""Chapter 04 checks: memory info per attribute, footprints, run mode."""
from __future__ import annotations

from collections.abc import Iterable

import acl_lab
from acl_lab import constants as C
from acl_lab.align import malloc_footprint
from acl_lab.i18n import _

from acl_lab.exercises import NotYet, exercise, learner_name

#: The sizes exercise 04.1 asks about (bytes passed to aclrtMalloc).
FOOTPRINT_SIZES = (1, 32, 33, 100, 4096, 1048544)


def _allocation(ptr, what: str) -> dict:
    """The snapshot entry of the live allocation starting at ``ptr``."""
    for a in acl_lab.snapshot()["allocations"]:
        if a["ptr"] == ptr:
            return a
    raise NotYet(_("{what} ({ptr}) is not a live allocation: allocate it and do not free it "
                   "before the check.").format(what=what, ptr=f"0x{ptr:x}")
                 if isinstance(ptr, int) else
                 _("{what} must be the pointer (an int) the allocator returned.").format(
                     what=what))


def _pool_attr(a: dict) -> int:
    """The most specific aclrtMemAttr that counts the pool holding allocation ``a``."""
    pool = next(p for p in acl_lab.snapshot()["pools"]
                if p["device"] == a["device"] and a["pool"] == p["label"])
    name = f"ACL_{pool['kind']}_MEM{'_P2P' if pool['p2p'] else ''}_{pool['page'].upper()}"
    return getattr(C, name)


def _sizes(acl):
    """04.1: the sizes to measure."""
    return list(FOOTPRINT_SIZES)


@exercise("04.1", "How far free memory drops",
          "Measure, do not compute: read the free figure of ACL_HBM_MEM_NORMAL (free_bytes), "
          "allocate one block, read the figure again, and free the block; once per size.",
          level="easy",
          more=("For each size: note free_bytes(ACL_HBM_MEM_NORMAL), allocate with "
                "acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST), append how far the figure "
                "dropped to drops, then free the block.",),
          setup=_sizes,
          solution="""
          drops = []
          for size in sizes:
              before = free_bytes(ACL_HBM_MEM_NORMAL)
              ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
              drops.append(before - free_bytes(ACL_HBM_MEM_NORMAL))   # what the block takes
              acl.rt.free(ptr)
          print(drops)
          """)
def footprint_drops(drops: Iterable):
    drops = list(drops)
    if len(drops) != len(FOOTPRINT_SIZES):
        raise NotYet(_("give one drop per size: {count} numbers for sizes {sizes}, got "
                       "{got}.").format(count=len(FOOTPRINT_SIZES), sizes=list(FOOTPRINT_SIZES),
                                        got=len(drops)))
    for size, got in zip(FOOTPRINT_SIZES, drops):
        want = malloc_footprint(size)
        if got != want:
            raise NotYet(_("aclrtMalloc({size}) takes {want} B, not {got}: round {size} up to a "
                           "multiple of 32, then add 32.").format(size=size, want=want,
                                                                  got=repr(got)))
    return _("every aclrtMalloc takes ALIGN_UP(size, 32) + 32 bytes from the pool.")


@exercise("04.2", "Which attribute moved",
          "Read the free figure of every attribute in WATCHED before the malloc, keep the "
          "3 MiB block, and compare: the attribute whose figure dropped names the pool.",
          level="medium",
          more=("Note free_bytes(a) for each a in WATCHED in a dict before the malloc; after "
                "acl.rt.malloc(3 * MiB, ACL_MEM_MALLOC_HUGE_FIRST), attr is the one a whose "
                "free_bytes(a) is no longer the noted figure.",),
          solution="""
          before = {a: free_bytes(a) for a in WATCHED}
          ptr, ret = acl.rt.malloc(3 * MiB, ACL_MEM_MALLOC_HUGE_FIRST)     # keep it for the check
          attr = next(a for a in WATCHED if free_bytes(a) != before[a])
          print(MEM_ATTR_NAMES[attr])
          """)
def which_attribute(ptr: int, attr: int):
    a = _allocation(ptr, "ptr")
    if a["size"] != 3 * 1024 * 1024:
        raise NotYet(_("the block at {ptr} is {size} B; allocate exactly 3 MiB "
                       "(3 * 1024 * 1024).").format(ptr=f"0x{ptr:x}", size=a["size"]))
    name_of_attr = learner_name(attr, "attr")
    want = _pool_attr(a)
    want_name = C.MEM_ATTR_NAMES[want]
    if attr == want:
        return _("{attr} dropped: the block lives in '{pool}'.").format(attr=want_name,
                                                                         pool=a["pool"])
    name = C.MEM_ATTR_NAMES.get(attr, repr(attr))
    broad = name in ("ACL_DDR_MEM", "ACL_HBM_MEM") or name.startswith("ACL_MEM_")
    if broad:
        raise NotYet(_("{attr} sums several pools; name the one pool the block came from "
                       "('{pool}'): its kind and its page type.").format(attr=name,
                                                                         pool=a["pool"]))
    raise NotYet(_("{name} is {attr}, not the pool the block came from ('{pool}'). Compare "
                   "the free figure of each attribute before and after the malloc.").format(
        name=name_of_attr, attr=name, pool=a["pool"]))


@exercise("04.3", "No host side on the board",
          "On the board (run mode ACL_DEVICE) malloc_host memory is device memory: fill it "
          "in place through acl.util.ptr_to_numpy, then copy it into an aclrtMalloc buffer "
          "with the device-to-device kind.",
          level="medium",
          more=("host_buf from acl.rt.malloc_host(64); write np.arange(64) into "
                "acl.util.ptr_to_numpy(host_buf, (64,), np.dtype(np.uint8).num); dev_buf from "
                "acl.rt.malloc(64, ACL_MEM_MALLOC_HUGE_FIRST); then acl.rt.memcpy with "
                "ACL_MEMCPY_DEVICE_TO_DEVICE.",),
          profile="200dk",
          solution="""
          host_buf, ret = acl.rt.malloc_host(64)               # on the board: device memory
          acl.util.ptr_to_numpy(host_buf, (64,), np.dtype(np.uint8).num)[:] = np.arange(64)
          dev_buf, ret = acl.rt.malloc(64, ACL_MEM_MALLOC_HUGE_FIRST)
          acl.rt.memcpy(dev_buf, 64, host_buf, 64, ACL_MEMCPY_DEVICE_TO_DEVICE)
          """)
def device_mode_copy(acl, host_buf: int, dev_buf: int):
    mode, ret = acl.rt.get_run_mode()
    if ret != 0 or mode != C.ACL_DEVICE:
        raise NotYet(_("this runs on the board (run mode ACL_DEVICE): run the exercise cell "
                       "from its first line, exercises.start(\"04.3\", acl), which opens "
                       "it."))
    h, d = _allocation(host_buf, "host_buf"), _allocation(dev_buf, "dev_buf")
    if h["api"] != "malloc_host":
        raise NotYet(_("host_buf must come from acl.rt.malloc_host(64)."))
    if d["api"] not in ("malloc", "malloc_align32") or d["size"] < 64:
        raise NotYet(_("dev_buf must come from acl.rt.malloc(64, ACL_MEM_MALLOC_HUGE_FIRST)."))
    if h["location"] != "device":
        raise NotYet(_("in ACL_DEVICE mode malloc_host memory is device memory; this one is "
                       "not."))
    got = list(acl.util.ptr_to_bytes(dev_buf, 64))
    if got != list(range(64)):
        raise NotYet(_("dev_buf holds {first}...; it should hold 0, 1, ..., 63: fill host_buf "
                       "first, then copy it device to device.").format(first=got[:8]))
    return _("on the board, 'host' memory is device memory: no host-to-device transfer "
             "needed.")
