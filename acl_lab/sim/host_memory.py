"""What a pointer is (aclrtPointerGetAttributes) and host memory made device-visible
(aclrtHostRegister / aclrtHostUnregister).

aclrtPointerGetAttributes (hicann/runtime src/runtime/driver/npu_driver_mem.cc,
NpuDriver::PtrGetAttributes): device memory of any allocator, and a mapped virtual address,
is ACL_MEM_LOCATION_TYPE_DEVICE with its device and page size; pinned host memory and host
memory registered with aclrtHostRegister are HOST (id 0); memory the program allocated
itself (a numpy array) is UNREGISTERED unless registered. The page size is the pool's: 4 KiB
normal, 2 MiB huge, 1 GiB huge1g pages.

aclrtHostRegister (src/acl/aclrt_impl/memory.cpp aclrtHostRegisterImpl: NULL and a zero
size are ACL_ERROR_INVALID_PARAM) page-locks host memory the program owns and gives the
device an address for it: from then on copies treat it as pinned (no staging, async copies
stay async), until aclrtHostUnregister. The device address is another address of the same
bytes (a block of api "host_register" in the address map).
"""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.ipc import Alias
from acl_lab.sim.simerror import SimError

HOST_PAGE = 4096
REGISTERED_BASE = 0x12A0_0000_0000      # device addresses of registered host memory (modeled)
REGISTER_TYPES = (C.ACL_HOST_REGISTER_MAPPED, C.ACL_HOST_REGISTER_IOMEMORY,
                  C.ACL_HOST_REGISTER_READONLY)


def _location(type_: int, device: int, page: int) -> dict:
    return {"location": {"id": device, "type": type_}, "page_size": page, "rsv": [0, 0, 0, 0]}


def attributes(rt, ptr: int) -> dict:
    call = "aclrtPointerGetAttributes"
    if ptr == 0:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _("{call}: ptr is NULL (0).").format(call=call))
    block = rt.memory.map.find(ptr)
    if block is None:
        r = rt.vmm.reservation_of(ptr)
        if r is not None:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: 0x{ptr:x} is inside reserved range 0x{start:x}, where nothing is "
                "mapped: no memory stands behind it yet (acl.rt.map_mem).").format(
                    call=call, ptr=ptr, start=r.va))
        return _location(C.ACL_MEM_LOCATION_TYPE_UNREGISTERED, 0, HOST_PAGE)
    if block.python_owned:
        registered = rt.host_registry.get(block.ptr) is not None
        return _location(C.ACL_MEM_LOCATION_TYPE_HOST if registered
                         else C.ACL_MEM_LOCATION_TYPE_UNREGISTERED, 0, HOST_PAGE)
    if block.api == "host_register":
        return _location(C.ACL_MEM_LOCATION_TYPE_HOST, 0, HOST_PAGE)
    page = block.pool.spec.page_size if block.pool is not None else HOST_PAGE
    if block.location == "host":
        return _location(C.ACL_MEM_LOCATION_TYPE_HOST, 0, page)
    return _location(C.ACL_MEM_LOCATION_TYPE_DEVICE, block.device or 0, page)


class HostRegistry:
    """Host memory registered with aclrtHostRegister: host block start -> its device address."""

    def __init__(self, rt):
        self.rt = rt
        self.by_host: dict[int, Alias] = {}
        self._next = REGISTERED_BASE

    def get(self, host_ptr: int):
        alias = self.by_host.get(host_ptr)
        live = alias is not None and alias.alive() and \
            self.rt.memory.map.blocks.get(alias.ptr) is alias
        return alias if live else None

    def forget(self, device: int) -> None:
        """aclrtResetDevice: registrations made on the device end (their pages unlock)."""
        for host_ptr, alias in list(self.by_host.items()):
            if alias.device == device:
                self.unregister_alias(host_ptr, alias, _("the device was reset"))

    def register(self, ptr: int, size: int, type_: int) -> int:
        call = "aclrtHostRegister"
        if ptr == 0 or size == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: {what} is 0. Pass the host buffer's address and its size.").format(
                    call=call, what="ptr" if ptr == 0 else "size"))
        device = self.rt.require_ctx(call).device
        if type_ not in REGISTER_TYPES:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: type {type} is not an aclrtHostRegisterType (ACL_HOST_REGISTER_MAPPED=0, "
                "_IOMEMORY=4, _READONLY=8).").format(call=call, type=type_))
        block = self.rt.memory.map.find(ptr)
        if block is None or not block.python_owned or ptr != block.ptr \
                or size > block.size:
            what = _("not a host buffer of this program") if block is None else \
                block.describe()
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: 0x{ptr:x} (+{size} B) is {what}. Register memory the program owns, from "
                "its start (a numpy array's acl.util.numpy_to_ptr address); memory from "
                "acl.rt.malloc_host is pinned already.").format(
                    call=call, ptr=ptr, size=size, what=what))
        if self.get(block.ptr) is not None:
            raise SimError(C.ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, _(
                "{call}: 0x{ptr:x} is registered already; unregister it first "
                "(acl.rt.host_unregister).").format(call=call, ptr=ptr))
        alias = Alias(self._next, block, 0, block.size, self.rt.memory.map.blocks)
        alias.api, alias.device = "host_register", device
        self._next += -(-max(block.size, 1) // HOST_PAGE) * HOST_PAGE + HOST_PAGE
        self.rt.memory.map.add(alias)
        self.by_host[block.ptr] = alias
        block.pinned = True
        return alias.ptr

    def unregister(self, ptr: int) -> None:
        call = "aclrtHostUnregister"
        if ptr == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _("{call}: ptr is NULL (0).").format(
                call=call))
        self.rt.require_ctx(call)
        alias = self.get(ptr)
        if alias is None:
            raise SimError(C.ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, _(
                "{call}: 0x{ptr:x} is not registered host memory. Pass the host address you "
                "gave acl.rt.host_register.").format(call=call, ptr=ptr))
        self.unregister_alias(ptr, alias, _("unregistered by {call}").format(call=call))

    def unregister_alias(self, host_ptr: int, alias, why: str) -> None:
        del self.by_host[host_ptr]
        if self.rt.memory.map.blocks.get(alias.ptr) is alias:
            self.rt.memory.map.drop(alias, why)
        alias.target.pinned = False
