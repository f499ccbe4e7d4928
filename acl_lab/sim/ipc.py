"""IPC memory by key (aclrtIpcMem*) in one simulated process that plays both sides.

The runtime's flow (hicann/runtime src/acl/aclrt_impl/memory.cpp, api/impl/api_error.cc
IpcSetMemoryName / SetIpcMemPid / IpcOpenMemory / IpcCloseMemoryByName, api_impl_standard_soc.cc):
process A exports device memory under a key and lists the processes allowed to import it
(unless it exported with ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION); process B
imports the key and gets its own address for the same bytes; B closes first, then A (close
by key unmaps B's mapping, or, in the exporting process, destroys the key).

The simulator is one process, so that process is both A and B: its pid (PROCESS_ID, what
aclrtDeviceGetBareTgid reports) must be on the key's list, and an import maps the exported
bytes at a second address (an Alias: same storage, its own range, no bytes of its own). The
exporting block cannot be freed while a mapping of it is open: on hardware B would go on
using memory A gave back (stricter than hardware only there). Two real processes are not
simulated: a learner runs both halves of the official example in one program.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from acl_lab import constants as C
from acl_lab.align import align_up
from acl_lab.i18n import _
from acl_lab.sim.memory import DEVICE_BASE, DEVICE_STRIDE, Allocation
from acl_lab.sim.simerror import SimError
from acl_lab.spec import rt_features

PROCESS_ID = 4096            # the simulated process's pid (aclrtDeviceGetBareTgid)
KEY_LEN = 64                 # characters of a key (the documented key buffer is 65 bytes)
MAPPED_OFFSET = 0xC0_0000_0000   # where a device's imported mappings are placed (modeled)
MAP_ALIGN = 2 << 20


class Alias(Allocation):
    """Another address for bytes of an exported block: reads and writes reach the block."""

    __slots__ = ("target", "offset", "blocks")

    def __init__(self, ptr: int, target: Allocation, offset: int, size: int, blocks: dict):
        super().__init__(ptr, size, 0, "ipc_import", target.location, target.device,
                         target.pool, target.pinned, target.policy)
        self.target, self.offset, self.blocks = target, offset, blocks

    def alive(self) -> bool:
        """The address map forgets a mapping whose exported block was released."""
        return self.blocks.get(self.target.ptr) is self.target

    def gone_why(self) -> str:
        return _("the device memory it mapped was released")

    def view(self, offset, n, call=""):
        return self.target.view(self.offset + offset, n, call)

    def window(self, offset, n, call=""):
        return self.target.window(self.offset + offset, n, call)

    def write(self, offset, n, writer, call=""):
        self.target.write(self.offset + offset, n, writer, call)

    def read_into(self, offset, n, out):
        self.target.read_into(self.offset + offset, n, out)

    def read_scratch(self, offset, n):
        return self.target.read_scratch(self.offset + offset, n)

    def touch_edges(self, offset, n, call=""):
        self.target.touch_edges(self.offset + offset, n, call)

    def fresh_bytes(self, offset, n):
        return self.target.fresh_bytes(self.offset + offset, n)


@dataclass(eq=False)
class Export:
    key: str
    block: Allocation
    offset: int
    size: int
    check_pid: bool
    pids: set = field(default_factory=set)
    mappings: list = field(default_factory=list)     # Alias blocks open in this process


class IpcMemory:
    def __init__(self, rt):
        self.rt = rt
        self.exports: dict[str, Export] = {}
        self._count = 0
        self._next: dict[int, int] = {}      # device -> next mapped address

    def _supported(self, call: str) -> int:
        ctx = self.rt.require_ctx(call)
        if not rt_features.has(self.rt.profile.soc_name, rt_features.IPC):
            raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, _(
                "{call}: {soc} has no IPC memory (RT_FEATURE_IPC_MEMORY); Atlas A2 and Atlas "
                "inference (310P) products have it.").format(call=call,
                                                             soc=self.rt.profile.soc_name))
        return ctx.device

    def export_key(self, ptr: int, size: int, length: int, flags: int,
                   call: str = "aclrtIpcMemGetExportKey") -> str:
        if ptr == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: devPtr is NULL.").format(call=call))
        if size == 0 or length == 0 or flags > C.ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: size and len must be above 0 and flags 0 or "
                "ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION (1); got size {size}, len "
                "{length}, flags {flags}.").format(call=call, size=size, length=length,
                                                   flags=flags))
        self._supported(call)
        block = self.rt.memory.map.resolve(ptr, size, "devPtr", call)
        if block.location != "device" or isinstance(block, Alias) or block.python_owned:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: {ptr} is {block}; only device memory this process allocated "
                "(acl.rt.malloc) is shared by key.").format(call=call, ptr=f"0x{ptr:x}",
                                                          block=block.describe()))
        if length <= KEY_LEN:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: len {length} has no room for a key of {chars} characters and its NUL; "
                "pass 65.").format(call=call, length=length, chars=KEY_LEN))
        self._count += 1
        key = f"acl_lab_ipc_{self._count:0{KEY_LEN - 12}x}"
        self.exports[key] = Export(key, block, ptr - block.ptr, size,
                                   not flags & C.ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
        return key

    def _export(self, key: str, call: str) -> Export:
        e = self.exports.get(key)
        if e is not None and self.rt.memory.map.blocks.get(e.block.ptr) is not e.block:
            del self.exports[key]       # its memory was released (a device reset)
            e = None
        if e is None:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: no memory is shared under key {key!r} (never exported, or closed "
                "already). Use the key acl.rt.ipc_mem_get_export_key returned.").format(
                    call=call, key=key))
        return e

    def set_import_pid(self, key: str, pids: list[int], call: str = "aclrtIpcMemSetImportPid") -> None:
        if not pids:     # pyACL passes an empty list's data as NULL
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: the pid list is empty; list the processes that may import the key "
                "(acl.rt.device_get_bare_tgid gives a process's pid).").format(call=call))
        self._supported(call)
        self._export(key, call).pids.update(pids)

    def import_key(self, key: str, flags: int, call: str = "aclrtIpcMemImportByKey") -> int:
        if flags > C.ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: flags {flags} is neither ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT (0) nor "
                "_ENABLE_PEER_ACCESS (1).").format(call=call, flags=flags))
        device = self._supported(call)
        e = self._export(key, call)
        if e.check_pid and PROCESS_ID not in e.pids:
            raise SimError(C.ACL_ERROR_RT_NO_PERMISSION, _(
                "{call}: this process (pid {pid}) is not on key {key!r}'s list of importers. "
                "The exporting process adds it with acl.rt.ipc_mem_set_import_pid(key, "
                "[pid]), or exports with ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION."
            ).format(call=call, pid=PROCESS_ID, key=key))
        if e.block.device != device and not flags & C.ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: key {key!r} is memory of device {owner}, and this context is on device "
                "{device}; import with ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS to reach "
                "it.").format(call=call, key=key, owner=e.block.device, device=device))
        base = DEVICE_BASE + device * DEVICE_STRIDE + MAPPED_OFFSET
        ptr = self._next.get(device, base)
        alias = Alias(ptr, e.block, e.offset, e.size, self.rt.memory.map.blocks)
        self.rt.memory.map.add(alias)
        self._next[device] = ptr + align_up(e.size, MAP_ALIGN)
        e.mappings.append(alias)
        return ptr

    def close(self, key: str, call: str = "aclrtIpcMemClose") -> None:
        """IpcCloseMemoryByName: an open mapping of the key is unmapped first; with none,
        the key itself is destroyed (the exporting side's close)."""
        self._supported(call)
        e = self._export(key, call)
        blocks = self.rt.memory.map.blocks
        e.mappings = [a for a in e.mappings if blocks.get(a.ptr) is a]
        if e.mappings:
            alias = e.mappings.pop(0)
            self.rt.memory.map.drop(alias, _("unmapped by {call}").format(call=call))
        else:
            del self.exports[key]

    def before_free(self, block: Allocation, call: str) -> None:
        """aclrtFree of an exported block is refused while a mapping of it is open (its keys
        go with it once freed: _export forgets a key whose block is gone)."""
        blocks = self.rt.memory.map.blocks
        if any(e.block is block and blocks.get(a.ptr) is a
               for e in self.exports.values() for a in e.mappings):
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: {block} is shared by IPC key and still imported. Close the importing "
                "side first (acl.rt.ipc_mem_close(key)), then the exporting side, then free "
                "it.").format(call=call, block=block.describe()))

    def snapshot(self) -> list[dict]:
        blocks = self.rt.memory.map.blocks
        live = [e for e in self.exports.values() if blocks.get(e.block.ptr) is e.block]
        return [{"key": e.key, "ptr": e.block.ptr + e.offset, "size": e.size,
                 "pids": sorted(e.pids), "check_pid": e.check_pid,
                 "mappings": [a.ptr for a in e.mappings if blocks.get(a.ptr) is a]}
                for e in live]
