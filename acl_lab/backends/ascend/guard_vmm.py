"""What the guard records of chapter 10's calls on real hardware, so memory they make
addressable passes its pointer checks like aclrtMalloc's: a range aclrtMapMem mapped (until
aclrtUnmapMem), the device address aclrtHostRegister gave host memory (until
aclrtHostUnregister) and a block of a stream-ordered pool (until aclrtMemPoolFreeAsync). A reserved range holds no memory: the guard refuses copies into it
until it is mapped, as the runtime does (sim/vmm.py); a range aclrtMemMapNoAccess mapped
joins only when aclrtMemSetAccess grants the current device access (sim/vmm_access.py): until
then the device would fault on it."""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.i18n import _


class VmmWatch:
    def __init__(self, guard, entry):
        self.guard, self.entry = guard, entry     # entry: the guard's Entry class
        self.registered: dict[int, int] = {}      # host address -> its device address
        self.no_access: dict[int, int] = {}       # mapped without access: address -> size

    def hooks(self) -> dict[str, tuple]:
        return {"map_mem": (None, self._note_map), "unmap_mem": (None, self._note_unmap),
                "mem_map_no_access": (None, self._note_map_no_access),
                "mem_set_access": (None, self._note_set_access),
                "host_register": (None, self._note_register),
                "host_get_device_pointer": (None, self._note_device_pointer),
                "mem_pool_malloc_async": (None, self._note_pool_block),
                "mem_pool_free_async": (None, self._note_pool_free),
                "host_unregister": (None, self._note_unregister)}

    def _add(self, ptr: int, size: int, api: str) -> None:
        self.guard.registry.add(self.entry(ptr, size, api, "device",
                                           self.guard._current_device()))

    def _drop(self, ptr: int, why: str) -> None:
        e = self.guard.registry.entries.get(ptr)
        if e is not None:
            self.guard.registry.drop(e, why)

    def _note_map(self, ret, vir_ptr, size, *_rest):
        if ret == C.ACL_SUCCESS:
            self._add(vir_ptr, size, "map_mem")

    def _note_map_no_access(self, ret, vir_ptr, size, *_rest):
        if ret == C.ACL_SUCCESS:
            self.no_access[vir_ptr] = size

    def _note_set_access(self, ret, vir_ptr, _size, desc):
        device = self.guard._current_device()
        if ret == C.ACL_SUCCESS and vir_ptr in self.no_access and any(
                (d["location"]["type"], d["location"]["id"]) ==
                (C.ACL_MEM_LOCATION_TYPE_DEVICE, device) for d in desc):
            self._add(vir_ptr, self.no_access.pop(vir_ptr), "map_mem")

    def _note_unmap(self, ret, vir_ptr):
        if ret == C.ACL_SUCCESS:
            self.no_access.pop(vir_ptr, None)
            self._drop(vir_ptr, _("unmapped by {call}").format(call="aclrtUnmapMem"))

    def _note_register(self, result, ptr, size, *_rest):
        dev_ptr, ret = result
        if ret == C.ACL_SUCCESS and dev_ptr:
            self._add(dev_ptr, size, "host_register")
            self.registered[ptr] = dev_ptr

    def _note_device_pointer(self, result, p_host, *_rest):
        """aclrtHostRegisterV2 gives no address; aclrtHostGetDevicePointer does: the host
        buffer's size, as the guard registered it, is the device address's."""
        dev_ptr, ret = result
        host = self.guard.registry.entries.get(p_host)
        if ret == C.ACL_SUCCESS and dev_ptr and host is not None \
                and dev_ptr not in self.guard.registry.entries:
            self._add(dev_ptr, host.size, "host_register")
            self.registered[p_host] = dev_ptr

    def _note_pool_block(self, result, size, *_rest):
        ptr, ret = result
        if ret == C.ACL_SUCCESS and ptr:
            self._add(ptr, size, "mem_pool")

    def _note_pool_free(self, ret, ptr, *_rest):
        if ret == C.ACL_SUCCESS:
            self._drop(ptr, _("given back by {call}").format(call="aclrtMemPoolFreeAsync"))

    def _note_unregister(self, ret, ptr):
        if ret == C.ACL_SUCCESS and ptr in self.registered:
            self._drop(self.registered.pop(ptr),
                       _("unregistered by {call}").format(call="aclrtHostUnregister"))
