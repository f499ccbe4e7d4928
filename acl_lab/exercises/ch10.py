"""Chapter 10 exercises: map a chunk into a reserved range, take virtual memory apart in the
right order, make the start of a range usable for a tensor that spans chunks.

Each setup builds what its exercise works on in the fresh process ``exercises.start`` opens
(the 910b profile: virtual memory management, 2 MiB granularity). The checks read the
runtime through ``acl_lab.snapshot()["virtual_memory"]`` and the learner's calls.
"""
from __future__ import annotations

import numpy as np

import acl_lab
from acl_lab import constants as C
from acl_lab.errors import explain
from acl_lab.i18n import _
from acl_lab.trace import untraced

from acl_lab.exercises import NotYet, calls_since_start, exercise, learner_name

G = 2 << 20                  # the granularity of ACL_HBM_MEM_HUGE
PROP = {"handleType": C.ACL_MEM_HANDLE_TYPE_NONE,
        "allocationType": C.ACL_MEM_ALLOCATION_TYPE_PINNED, "memAttr": C.ACL_HBM_MEM_HUGE,
        "location": {"id": 0, "type": C.ACL_MEM_LOCATION_TYPE_DEVICE}, "reserve": 0}
PATTERN = np.arange(256, dtype=np.uint8)
TENSOR = 5 << 20             # exercise 10.3: a 5 MiB tensor at the start of the range


def _vm() -> dict:
    return acl_lab.snapshot()["virtual_memory"]


def _read(acl, ptr: int, n: int) -> np.ndarray | None:
    out = np.zeros(n, np.uint8)
    ret = untraced(acl.rt.memcpy)(untraced(acl.util.numpy_to_ptr)(out), n, ptr, n,
                                  C.ACL_MEMCPY_DEVICE_TO_HOST)
    return out if ret == 0 else None


def _failed(name: str) -> str | None:
    """The learner's last failing call of ``name`` since start, explained."""
    bad = [c for c in calls_since_start() if c.name == name and c.ret not in (0, None)]
    if not bad:
        return None
    return _("your acl.{call} returned {ret}: {meaning}. acl.get_recent_err_msg() right "
             "after the call says which rule.").format(call=name, ret=bad[-1].ret,
                                                       meaning=explain(bad[-1].ret))


def _range_and_handle(acl):
    va, ret = acl.rt.reserve_mem_address(4 * G, 0, 0, 0)
    acl_lab.check(ret)
    handle, ret = acl.rt.malloc_physical(G, PROP, 0)
    acl_lab.check(ret)
    return va, handle


@exercise("10.1", "Map a chunk, then use it",
          "A reserved range has addresses but no memory: map the physical handle into it "
          "with acl.rt.map_mem(address, size, 0, handle, 0), and only then copy into it.",
          level="easy",
          more=("The second granule starts at va + 2 MiB (2 << 20). size is the handle's "
                "size, 2 MiB; offset and flags are 0. Then copy data there: "
                "acl.rt.memcpy(va + (2 << 20), 256, acl.util.numpy_to_ptr(data), 256, "
                "ACL_MEMCPY_HOST_TO_DEVICE).",),
          setup=_range_and_handle,
          solution="""
          target = va + (2 << 20)                          # the second 2 MiB granule
          acl_lab.check(acl.rt.map_mem(target, 2 << 20, 0, handle, 0))   # the whole handle
          acl_lab.check(acl.rt.memcpy(target, 256, acl.util.numpy_to_ptr(data), 256,
                                      ACL_MEMCPY_HOST_TO_DEVICE))        # now it holds bytes
          """)
def map_a_chunk(acl, va: int, handle: int):
    name = learner_name(va, "va")
    target = va + G
    mapped = [m for r in _vm()["reservations"] for m in r["mappings"] if m["handle"] == handle]
    if not mapped:
        raise NotYet(_failed("rt.map_mem") or _(
            "handle is not mapped anywhere yet: call acl.rt.map_mem({name} + (2 << 20), "
            "2 << 20, 0, handle, 0).").format(name=name))
    if all(m["va"] != target for m in mapped):
        raise NotYet(_("handle is mapped at {name} + {offset}, not at the second granule "
                       "({name} + 2 MiB). Unmap it (acl.rt.unmap_mem) and map it at "
                       "{name} + (2 << 20).").format(name=name, offset=mapped[0]["va"] - va))
    got = _read(acl, target, PATTERN.size)
    if got is None or not np.array_equal(got, PATTERN):
        raise NotYet(_failed("rt.memcpy") or _(
            "the chunk is mapped, but its first 256 bytes are not data (0, 1, ..., 255) yet: "
            "copy them with acl.rt.memcpy(..., ACL_MEMCPY_HOST_TO_DEVICE)."))
    return _("mapped at {name} + 2 MiB and holding data: reserve, map, then use.").format(
        name=name)


def _mapped_range(acl):
    va, handle = _range_and_handle(acl)
    acl_lab.check(acl.rt.map_mem(va, G, 0, handle, 0))
    acl_lab.check(acl.rt.memset(va, G, 0, G))
    return va, handle


@exercise("10.2", "Take it apart in order",
          "Virtual memory goes back in the reverse order it came: unmap, free the physical "
          "memory, release the range. Each call refuses what is still in use.",
          level="medium",
          more=("acl.rt.unmap_mem(va), then acl.rt.free_physical(handle), then "
                "acl.rt.release_mem_address(va); check each ret (acl_lab.check). A release "
                "while mapped returns 107000: unmap first.",),
          setup=_mapped_range,
          solution="""
          acl_lab.check(acl.rt.unmap_mem(va))               # the range has no memory now
          acl_lab.check(acl.rt.free_physical(handle))       # the pages go back
          acl_lab.check(acl.rt.release_mem_address(va))     # and the addresses
          """)
def take_apart(acl, va: int, handle: int):
    name = learner_name(va, "va")
    vm = _vm()
    ranges = {r["va"]: r for r in vm["reservations"]}
    held = [p for p in vm["physical"] if handle in p["handles"] or p["deferred_free"]]
    if va in ranges and ranges[va]["mappings"]:
        raise NotYet(_failed("rt.release_mem_address") or _(
            "{name} is still mapped: unmap it first with acl.rt.unmap_mem({name}).").format(
                name=name))
    if held:
        raise NotYet(_("the physical memory is still held: acl.rt.free_physical(handle) "
                       "gives its pages back."))
    if va in ranges:
        raise NotYet(_("the range at {name} is still reserved: acl.rt.release_mem_address("
                       "{name}) gives the addresses back.").format(name=name))
    calls = calls_since_start()
    done = {(c.name, c.args[:1]) for c in calls if c.ret == 0}
    for call, arg, words in (("rt.unmap_mem", va, "acl.rt.unmap_mem({name})"),
                             ("rt.free_physical", handle, "acl.rt.free_physical(handle)"),
                             ("rt.release_mem_address", va,
                              "acl.rt.release_mem_address({name})")):
        if (call, (arg,)) not in done:
            raise NotYet(_("your calls have not given everything back yet: {call} is "
                           "missing.").format(call=words.format(name=name)))
    refused = [c.name for c in calls if c.ret not in (0, None)
               and c.name in ("rt.unmap_mem", "rt.free_physical", "rt.release_mem_address")]
    if refused:
        return _("all three given back; on the way {count} call(s) were refused ({calls}): "
                 "the order is unmap, free_physical, release.").format(
                     count=len(refused), calls=", ".join(refused))
    return _("unmapped, freed and released, in order: nothing is left behind.")


def _big_range(acl):
    va, ret = acl.rt.reserve_mem_address(32 * G, 0, 0, 0)
    acl_lab.check(ret)
    return va, (np.arange(TENSOR) % 251).astype(np.uint8)


@exercise("10.3", "Grow a segment for one tensor",
          "An expandable segment maps granule-sized chunks under a tensor as it arrives: "
          "ceil(5 MiB / 2 MiB) chunks at the start of the range, each its own physical "
          "handle, then one copy of the whole tensor across them.",
          level="hard",
          more=("For i in 0, 1, 2: handle, ret = acl.rt.malloc_physical(2 << 20, PROP, 0), "
                "then acl.rt.map_mem(va + i * (2 << 20), 2 << 20, 0, handle, 0). Then "
                "acl.rt.memcpy(va, data.nbytes, acl.util.numpy_to_ptr(data), data.nbytes, "
                "ACL_MEMCPY_HOST_TO_DEVICE).",),
          setup=_big_range,
          solution="""
          chunk = 2 << 20
          for i in range(-(-data.nbytes // chunk)):          # 3 chunks cover 5 MiB
              handle, ret = acl.rt.malloc_physical(chunk, PROP, 0)
              acl_lab.check(ret)
              acl_lab.check(acl.rt.map_mem(va + i * chunk, chunk, 0, handle, 0))
          acl_lab.check(acl.rt.memcpy(va, data.nbytes, acl.util.numpy_to_ptr(data),
                                      data.nbytes, ACL_MEMCPY_HOST_TO_DEVICE))
          """)
def grow_segment(acl, va: int, data: np.ndarray):
    name = learner_name(va, "va")
    r = next((r for r in _vm()["reservations"] if r["va"] == va), None)
    if r is None:
        raise NotYet(_("the range at {name} is gone: run the exercise cell again from "
                       "exercises.start.").format(name=name))
    covered = 0
    for m in r["mappings"]:
        if m["va"] == va + covered:
            covered += m["size"]
    mapped = sum(m["size"] for m in r["mappings"])
    need = -(-data.nbytes // G) * G
    if covered < data.nbytes:
        raise NotYet(_failed("rt.map_mem") or _failed("rt.malloc_physical") or _(
            "the first {covered} B of {name} are mapped; the tensor needs {n} B there: map "
            "ceil(5 MiB / 2 MiB) = 3 chunks at {name}, {name} + 2 MiB, {name} + 4 MiB.").format(
                covered=covered, name=name, n=data.nbytes))
    if mapped > need:
        raise NotYet(_("{mapped} B are mapped, {need} B would do: an expandable segment maps "
                       "only the chunks a tensor touches. Unmap and free the extra ones."
                       ).format(mapped=mapped, need=need))
    got = _read(acl, va, data.nbytes)
    if got is None or not np.array_equal(got, data):
        raise NotYet(_failed("rt.memcpy") or _(
            "the chunks are mapped, but the tensor is not in them yet: copy data to {name} "
            "with one acl.rt.memcpy of data.nbytes.").format(name=name))
    return _("3 chunks mapped under one 5 MiB tensor, copied in one call across them: what "
             "torch_npu's expandable segments do.")
