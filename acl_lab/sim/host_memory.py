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
V2_FLAGS = C.ACL_HOST_REG_MAPPED | C.ACL_HOST_REG_IOMEMORY | C.ACL_HOST_REG_READONLY | \
    C.ACL_HOST_REG_PINNED


def _location(type_: int, device: int, page: int) -> dict:
    return {"location": {"id": device, "type": type_}, "page_size": page, "rsv": [0, 0, 0, 0]}


def attributes(rt, ptr: int) -> dict:
    call = "aclrtPointerGetAttributes"
    if ptr == 0:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _("{call}: ptr is NULL (0).").format(call=call))
    block = rt.memory.map.find(ptr) or rt.vmm.mapping_at(ptr)   # mapped without access too
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


class Registration:
    """One registered host buffer: its block, the device address it got (None when
    registered pinned only, aclrtHostRegisterV2 without a mapping flag), its device."""

    def __init__(self, block, alias, device: int):
        self.block, self.alias, self.device = block, alias, device


class HostRegistry:
    """Host memory registered with aclrtHostRegister(V2): host block start -> Registration.

    ApiImpl::HostRegisterV2 (src/runtime/api/impl/api_impl.cc): a mapping flag (MAPPED,
    IOMEMORY, READONLY) gives the buffer a device address, PINNED page-locks it;
    ApiErrorDecorator::HostRegisterV2 refuses a flag outside those (107000), and
    ApiImpl::HostGetDevicePointer a buffer registered without a mapping (107000)."""

    def __init__(self, rt):
        self.rt = rt
        self.by_host: dict[int, Registration] = {}
        self._next = REGISTERED_BASE

    def get(self, host_ptr: int) -> Registration | None:
        reg = self.by_host.get(host_ptr)
        live = reg is not None and self.rt.memory.map.blocks.get(reg.block.ptr) is reg.block \
            and reg.block.alive()
        return reg if live else None

    def forget(self, device: int) -> None:
        """aclrtResetDevice: registrations made on the device end (their pages unlock)."""
        for host_ptr, reg in list(self.by_host.items()):
            if reg.device == device:
                self._drop(host_ptr, reg, _("the device was reset"))

    def register(self, ptr: int, size: int, type_: int) -> int:
        call = "aclrtHostRegister"
        self._arguments(call, ptr, size)
        if type_ not in REGISTER_TYPES:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: type {type} is not an aclrtHostRegisterType (ACL_HOST_REGISTER_MAPPED=0, "
                "_IOMEMORY=4, _READONLY=8).").format(call=call, type=type_))
        return self._register(call, ptr, size, mapped=True, pinned=True).alias.ptr

    def register_v2(self, ptr: int, size: int, flag: int) -> None:
        call = "aclrtHostRegisterV2"
        self._arguments(call, ptr, size)
        if not flag & V2_FLAGS or flag & ~V2_FLAGS:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: flag 0x{flag:x} is not an OR of ACL_HOST_REG_MAPPED (0x2), "
                "ACL_HOST_REG_IOMEMORY (0x4), ACL_HOST_REG_READONLY (0x8) and "
                "ACL_HOST_REG_PINNED (0x10000000).").format(call=call, flag=flag))
        self._register(call, ptr, size, mapped=bool(flag & ~C.ACL_HOST_REG_PINNED),
                       pinned=bool(flag & C.ACL_HOST_REG_PINNED))

    def _arguments(self, call: str, ptr: int, size: int) -> None:
        if ptr == 0 or size == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: {what} is 0. Pass the host buffer's address and its size.").format(
                    call=call, what="ptr" if ptr == 0 else "size"))

    def _register(self, call: str, ptr: int, size: int, mapped: bool,
                  pinned: bool) -> Registration:
        device = self.rt.require_ctx(call).device
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
        alias = None
        if mapped:
            alias = Alias(self._next, block, 0, block.size, self.rt.memory.map.blocks)
            alias.api, alias.device = "host_register", device
            self._next += -(-max(block.size, 1) // HOST_PAGE) * HOST_PAGE + HOST_PAGE
            self.rt.memory.map.add(alias)
        reg = self.by_host[block.ptr] = Registration(block, alias, device)
        block.pinned = pinned
        return reg

    def device_pointer(self, host_ptr: int, flag: int) -> int:
        call = "aclrtHostGetDevicePointer"
        if host_ptr == 0 or flag != 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: pHost must not be NULL and flag must be 0 (got 0x{ptr:x}, {flag})."
            ).format(call=call, ptr=host_ptr, flag=flag))
        self.rt.require_ctx(call)
        reg = self.get(host_ptr)
        if reg is None or reg.alias is None:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: 0x{ptr:x} has not been registered for device address mapping. "
                "Register it with acl.rt.host_register, or host_register_v2 with "
                "ACL_HOST_REG_MAPPED.").format(call=call, ptr=host_ptr))
        return reg.alias.ptr

    def unregister(self, ptr: int) -> None:
        call = "aclrtHostUnregister"
        if ptr == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _("{call}: ptr is NULL (0).").format(
                call=call))
        self.rt.require_ctx(call)
        reg = self.get(ptr)
        if reg is None:
            raise SimError(C.ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, _(
                "{call}: 0x{ptr:x} is not registered host memory. Pass the host address you "
                "gave acl.rt.host_register.").format(call=call, ptr=ptr))
        self._drop(ptr, reg, _("unregistered by {call}").format(call=call))

    def _drop(self, host_ptr: int, reg: Registration, why: str) -> None:
        del self.by_host[host_ptr]
        alias = reg.alias
        if alias is not None and self.rt.memory.map.blocks.get(alias.ptr) is alias:
            self.rt.memory.map.drop(alias, why)
        reg.block.pinned = False
