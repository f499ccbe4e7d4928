"""What the guard records of the runtime's further memory calls on real hardware, so the
memory they hand out passes its pointer checks like aclrtMalloc's: the WithCfg and
task-scheduler allocators, the address an IPC import maps (with the size its key was
exported with), and a kernel argument list's placeholder buffer (host memory the program
writes its arguments into).
"""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.i18n import _


class MemoryExtrasWatch:
    def __init__(self, guard, entry):
        self.guard, self.entry = guard, entry     # entry: the guard's Entry class
        self.keys: dict[str, int] = {}            # IPC key -> the size exported
        self.imports: dict[str, list[int]] = {}   # IPC key -> addresses imported, oldest first

    def hooks(self) -> dict[str, dict]:
        g = self.guard
        rt = {api: (g._check_size(api), g._note_malloc(api))
              for api in ("malloc_with_cfg", "malloc_for_task_scheduler", "malloc_host_with_cfg")}
        rt.update(ipc_mem_get_export_key=(None, self._note_export),
                  ipc_mem_import_by_key=(None, self._note_import),
                  ipc_mem_close=(None, self._note_close),
                  kernel_args_get_place_holder_buffer=(None, self._note_place_holder))
        return {"rt": rt}

    def _note_export(self, result, dev_ptr, size, *_rest):
        key, ret = result
        if ret == C.ACL_SUCCESS:
            self.keys[key] = size

    def _note_import(self, result, key, *_rest):
        ptr, ret = result
        if ret == C.ACL_SUCCESS and ptr and key in self.keys:
            self.guard.registry.add(self.entry(ptr, self.keys[key], "ipc_import", "device",
                                               self.guard._current_device()))
            self.imports.setdefault(key, []).append(ptr)

    def _note_close(self, ret, key):
        if ret != C.ACL_SUCCESS:
            return
        mapped = self.imports.get(key)
        if mapped:       # the importing side's close unmaps its oldest mapping
            e = self.guard.registry.entries.get(mapped.pop(0))
            if e is not None:
                self.guard.registry.drop(e, _("unmapped by {call}").format(
                    call="aclrtIpcMemClose"))
        else:
            self.keys.pop(key, None)

    def _note_place_holder(self, result, args_handle, param_handle, data_size):
        addr, ret = result
        if ret == C.ACL_SUCCESS and addr:
            on_host = self.guard.run_mode() != C.ACL_DEVICE
            self.guard.registry.add(self.entry(addr, data_size, "kernel_args",
                                               "host" if on_host else "device", None))
