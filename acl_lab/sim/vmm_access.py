"""Access rights on mapped virtual memory: aclrtMemSetAccess and aclrtMemGetAccess (not in
pyACL), over the mappings of sim/vmm.py.

hicann/runtime: src/acl/aclrt_impl/memory.cpp aclrtMemSetAccessImpl (no ACL check; the
runtime's ApiErrorDecorator::MemSetAccess in src/runtime/api/impl/api_error.cc refuses a NULL
virPtr or desc with RT_ERROR_INVALID_VALUE, ACL_ERROR_RT_PARAM_INVALID) and
aclrtMemGetAccessImpl (NULL virPtr, location or flag: ACL_ERROR_INVALID_PARAM); both then go
to the driver (NpuDriver::MemSetAccess / MemGetAccess in src/runtime/driver/npu_driver_mem.cc,
halMemSetAccess / halMemGetAccess), whose refusals are ACL_ERROR_RT_PARAM_INVALID. The rules
are the docs' (hicann/runtime docs/zh/api_ref/11-04_virtual_memory_management.md): virPtr
and size repeat a mapping's exactly; flags only READWRITE today; locations HOST or DEVICE.
A mapping's own device gaining access puts it into the address map (copies, memset and
views reach it); docs/rules.md#rule-35.
"""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.simerror import SimError
from acl_lab.spec import vmm_rules


def _mapping(vmm, call: str, va: int, size: int | None = None):
    """The mapping that starts at ``va`` (and is ``size`` long, when given)."""
    r = vmm.reservation_of(va)
    m = r.mappings.get(va) if r else None
    if m is None or (size is not None and size != m.size):
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
            "{call}: {what}. Pass the virPtr and size you gave acl.rt.map_mem or "
            "acl.rt.mem_map_no_access.").format(call=call, what=_(
                "nothing is mapped at 0x{va:x}").format(va=va) if m is None else _(
                "size {size} differs from the mapping at 0x{va:x} ({msize} B)").format(
                    size=size, va=va, msize=m.size)))
    return r, m


def set_access(vmm, va: int, size: int, desc) -> None:
    call = "aclrtMemSetAccess"
    descs = vmm_rules.read_access_descs(call, desc)
    if va == 0:
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _("{call}: virPtr is NULL (0).").format(
            call=call))
    vmm.supported(call)
    r, m = _mapping(vmm, call, va, size)
    why = vmm_rules.access_refusal(call, descs, vmm.rt.profile.device_count)
    if why:
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, why)
    reachable = m.reachable
    for flags, kind, ident in descs:
        m.access[kind, ident if kind == C.ACL_MEM_LOCATION_TYPE_DEVICE else 0] = flags
    if m.reachable != reachable:
        vmm.rejoin(r, _("access granted by {call}").format(call=call))


def get_access(vmm, va: int, location) -> int:
    call = "aclrtMemGetAccess"
    kind, ident = vmm_rules.read_location(call, "location", location)
    if va == 0:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _("{call}: virPtr is NULL (0).").format(
            call=call))
    vmm.supported(call)
    _r, m = _mapping(vmm, call, va)
    why = vmm_rules.location_refusal(call, kind, ident, vmm.rt.profile.device_count)
    if why:
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, why)
    where = (kind, ident if kind == C.ACL_MEM_LOCATION_TYPE_DEVICE else 0)
    return m.access.get(where, C.ACL_RT_MEM_ACCESS_FLAGS_NONE)
