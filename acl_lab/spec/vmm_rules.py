"""Virtual memory management's argument rules: the physical memory property pyACL reads from
a dict, what ACL checks in it before the driver, and the granularity each page kind has.

Sources (hicann/runtime at socs.CHECKED_AGAINST): src/acl/aclrt_impl/memory.cpp
(aclrtMallocPhysicalImpl, aclrtMemGetAllocationGranularityImpl: handleType NONE,
allocationType PINNED, location types UNREGISTERED / MANAGED refused, DDR attributes only for
host locations, an unknown memAttr refused — each ACL_ERROR_INVALID_PARAM; memAttrHandlers:
which page kind each attribute takes); hicann/runtime docs/zh/api_ref/11-04_virtual_memory_management.md
(ACL_HBM_MEM_NORMAL is allocated as huge pages, 2 MiB granularity; HUGE1G 1 GiB, device only);
pyACL python/pyACL/rt/rt_memory.cpp GetPhysicalMemPropFromPydict (the dict's keys).
"""
from __future__ import annotations

from typing import NamedTuple

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.spec.refusal import Refusal, as_int

MIB, GIB = 1 << 20, 1 << 30
#: the dict pyACL reads an aclrtPhysicalMemProp from, with a location dict inside
PROP_KEYS = ("handleType", "allocationType", "memAttr", "location", "reserve")
_DDR_ONLY = (C.ACL_DDR_MEM_HUGE, C.ACL_DDR_MEM_NORMAL, C.ACL_DDR_MEM_P2P_HUGE,
             C.ACL_DDR_MEM_P2P_NORMAL)
#: memAttr -> (page kind, P2P) on the device (memory.cpp memAttrHandlers)
DEVICE_PAGES = {
    C.ACL_HBM_MEM_HUGE: ("huge", False), C.ACL_HBM_MEM_NORMAL: ("huge", False),
    C.ACL_HBM_MEM_HUGE1G: ("huge1g", False), C.ACL_HBM_MEM_P2P_HUGE: ("huge", True),
    C.ACL_HBM_MEM_P2P_NORMAL: ("huge", True), C.ACL_HBM_MEM_P2P_HUGE1G: ("huge1g", True),
    C.ACL_MEM_NORMAL: ("huge", False), C.ACL_MEM_HUGE: ("huge", False),
    C.ACL_MEM_HUGE1G: ("huge1g", False), C.ACL_MEM_P2P_NORMAL: ("huge", True),
    C.ACL_MEM_P2P_HUGE: ("huge", True), C.ACL_MEM_P2P_HUGE1G: ("huge1g", True),
}
GRANULARITY = {"huge": 2 * MIB, "huge1g": GIB}


class Prop(NamedTuple):
    """An aclrtPhysicalMemProp as C receives it."""
    handle_type: int
    allocation_type: int
    mem_attr: int
    location_id: int
    location_type: int
    reserve: int

    @property
    def page(self) -> str:
        return DEVICE_PAGES[self.mem_attr][0]

    @property
    def p2p(self) -> bool:
        return DEVICE_PAGES[self.mem_attr][1]

    @property
    def granularity(self) -> int:
        return GRANULARITY[self.page]


def read_prop(call: str, prop) -> Prop:
    """pyACL's dict as C's struct: a TypeError for what is not a dict, a KeyError for a
    missing key (pyACL's GetPhysicalMemPropFromPydict raises where it cannot read one)."""
    if not isinstance(prop, dict):
        raise TypeError(f"{call}: the aclrtPhysicalMemProp argument is not dict "
                        f"({type(prop).__name__})")
    location = prop.get("location", {})
    if not isinstance(location, dict):
        raise TypeError(f"{call}: prop['location'] must be a dict {{'id': ..., 'type': ...}}")
    missing = [k for k in PROP_KEYS if k not in prop] + [
        f"location.{k}" for k in ("id", "type") if k not in location]
    if missing:
        raise KeyError(f"{call}: prop has no {', '.join(missing)} (keys: "
                       f"{', '.join(PROP_KEYS)})")
    return Prop(*(as_int(call, k, prop[k]) for k in ("handleType", "allocationType",
                                                     "memAttr")),
                as_int(call, "location.id", location["id"]),
                as_int(call, "location.type", location["type"]),
                as_int(call, "reserve", prop["reserve"]))


def check_prop(call: str, p: Prop) -> None:
    """What ACL refuses in a property before the driver sees it (ACL_ERROR_INVALID_PARAM)."""
    why = None
    if p.handle_type != C.ACL_MEM_HANDLE_TYPE_NONE:
        why = _("handleType must be ACL_MEM_HANDLE_TYPE_NONE (0), not {v}.").format(
            v=p.handle_type)
    elif p.allocation_type != C.ACL_MEM_ALLOCATION_TYPE_PINNED:
        why = _("allocationType must be ACL_MEM_ALLOCATION_TYPE_PINNED (0), not {v}.").format(
            v=p.allocation_type)
    elif p.location_type in (C.ACL_MEM_LOCATION_TYPE_UNREGISTERED,
                             C.ACL_MEM_LOCATION_TYPE_MANAGED):
        why = _("location type {name} cannot hold physical memory; use "
                "ACL_MEM_LOCATION_TYPE_DEVICE (1).").format(
                    name=C.MEM_LOCATION_TYPE_NAMES[p.location_type])
    elif p.location_type == C.ACL_MEM_LOCATION_TYPE_DEVICE and p.mem_attr in _DDR_ONLY:
        why = _("memAttr {name} is host memory only (location HOST or HOST_NUMA); on the "
                "device use ACL_HBM_MEM_HUGE or ACL_MEM_HUGE.").format(
                    name=C.MEM_ATTR_NAMES[p.mem_attr])
    elif p.mem_attr not in DEVICE_PAGES and p.mem_attr not in _DDR_ONLY:
        why = _("memAttr {v} is not an attribute physical memory takes (ACL_HBM_MEM_HUGE=4, "
                "ACL_MEM_HUGE=13, ...).").format(v=p.mem_attr)
    if why:
        raise Refusal(C.ACL_ERROR_INVALID_PARAM, f"{call}: {why}")


def device_location(call: str, p: Prop, device_count: int) -> int:
    """The device a property names; physical memory on the host is not simulated (the kit's
    limit: ACL_ERROR_RT_FEATURE_NOT_SUPPORT, said so), a device id out of range is the
    runtime's RT_ERROR_DEVICE_ID (ACL_ERROR_RT_INVALID_DEVICEID)."""
    if p.location_type != C.ACL_MEM_LOCATION_TYPE_DEVICE:
        raise Refusal(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, _(
            "{call}: the simulator keeps physical memory on the device only (location type "
            "ACL_MEM_LOCATION_TYPE_DEVICE); host physical memory ({name}) runs on hardware."
        ).format(call=call, name=C.MEM_LOCATION_TYPE_NAMES.get(p.location_type,
                                                               p.location_type)))
    if not 0 <= p.location_id < device_count:
        raise Refusal(C.ACL_ERROR_RT_INVALID_DEVICEID, _(
            "{call}: location.id {device} is not a device of this board (0 to {last})."
        ).format(call=call, device=p.location_id, last=device_count - 1))
    return p.location_id


# ----- access rights on a mapping (aclrtMemSetAccess / aclrtMemGetAccess) -----------------
#: where an access right applies: (aclrtMemLocationType, id); a host location's id is 0
Where = tuple[int, int]


def read_location(call: str, name: str, location) -> tuple[int, int]:
    """An aclrtMemLocation from its dict {"id", "type"}: TypeError / KeyError as for prop."""
    if not isinstance(location, dict):
        raise TypeError(f"{call}: {name} must be a dict {{'id': ..., 'type': ...}}")
    missing = [k for k in ("id", "type") if k not in location]
    if missing:
        raise KeyError(f"{call}: {name} has no {', '.join(missing)} (keys: id, type)")
    return (as_int(call, f"{name}.type", location["type"]),
            as_int(call, f"{name}.id", location["id"]))


def read_access_descs(call: str, desc) -> list[tuple[int, int, int]]:
    """aclrtMemAccessDesc entries from a list of dicts {"flags", "location": {"id", "type"}}
    (count is the list's length): (flags, location type, location id) each."""
    if not isinstance(desc, (list, tuple)):
        raise TypeError(f"{call}: desc must be a list of dicts {{'flags': ..., 'location': "
                        f"{{'id': ..., 'type': ...}}}}, not {type(desc).__name__}")
    out = []
    for i, d in enumerate(desc):
        if not isinstance(d, dict) or "flags" not in d or "location" not in d:
            raise TypeError(f"{call}: desc[{i}] must be a dict with 'flags' and 'location'")
        out.append((as_int(call, f"desc[{i}].flags", d["flags"]),
                    *read_location(call, f"desc[{i}].location", d["location"])))
    return out


def location_refusal(call: str, kind: int, ident: int, device_count: int) -> str | None:
    """Why the driver refuses a location (hicann/runtime docs/zh/api_ref/
    11-04_virtual_memory_management.md, aclrtMemGetAccess, and 25-04_Structs.md,
    aclrtMemAccessDesc: only ACL_MEM_LOCATION_TYPE_HOST or _DEVICE; a device id of the board)."""
    if kind not in (C.ACL_MEM_LOCATION_TYPE_HOST, C.ACL_MEM_LOCATION_TYPE_DEVICE):
        return _("{call}: location type {kind} is not supported; use "
                 "ACL_MEM_LOCATION_TYPE_DEVICE (1) or ACL_MEM_LOCATION_TYPE_HOST (0).").format(
                     call=call, kind=C.MEM_LOCATION_TYPE_NAMES.get(kind, kind))
    if kind == C.ACL_MEM_LOCATION_TYPE_DEVICE and not 0 <= ident < device_count:
        return _("{call}: location.id {device} is not a device of this board (0 to {last})."
                 ).format(call=call, device=ident, last=device_count - 1)
    return None


def access_refusal(call: str, descs: list[tuple[int, int, int]], device_count: int
                   ) -> str | None:
    """Why aclrtMemSetAccess's descriptors are refused: an empty list; flags other than
    ACL_RT_MEM_ACCESS_FLAGS_READWRITE, the only value the runtime supports today
    (25-04_Structs.md, aclrtMemAccessDesc.flags: "当前仅支持ACL_RT_MEM_ACCESS_FLAGS_READWRITE");
    a location the driver does not take."""
    if not descs:
        return _("{call}: the desc list is empty; give at least one "
                 "{{'flags': ACL_RT_MEM_ACCESS_FLAGS_READWRITE, 'location': {{'id': device, "
                 "'type': ACL_MEM_LOCATION_TYPE_DEVICE}}}}.").format(call=call)
    for i, (flags, kind, ident) in enumerate(descs):
        if flags != C.ACL_RT_MEM_ACCESS_FLAGS_READWRITE:
            return _("{call}: desc[{i}].flags is {flags}; the runtime supports only "
                     "ACL_RT_MEM_ACCESS_FLAGS_READWRITE (3) today (READ and NONE are declared "
                     "in acl_rt.h but not supported). To take access away, unmap the range."
                     ).format(call=call, i=i, flags=flags)
        why = location_refusal(call, kind, ident, device_count)
        if why:
            return why
    return None
