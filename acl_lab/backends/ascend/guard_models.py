"""What the guard knows about offline models on real hardware.

Loaded models are recorded from the results of acl.mdl.load_* (which memory they run on:
the application's, for the ..._with_mem loads, or ACL's), of acl.mdl.load_with_config (the
work and weight memory the config handle's options named) and of acl.mdl.bundle_load_* (the
bundle's models, asked of the runtime), and forgotten at acl.mdl.unload / bundle_unload or
when the device is reset. While a model runs on the application's work or weight memory,
freeing that memory is refused: the model would go on writing into memory that belongs to
someone else (the simulator refuses the next execution instead; on hardware nothing does).
``acl_lab.snapshot()["offline_models"]`` reads the record.
"""
from __future__ import annotations

from dataclasses import dataclass

from acl_lab import constants as C
from acl_lab.errors import Refusal
from acl_lab.i18n import N_, _
from acl_lab.spec.snapshot_schema import OfflineModelRow

#: pyACL load call -> positions of (work_ptr, work_size, weight_ptr, weight_size) in its args
_WITH_MEM = {"load_from_file_with_mem": 1, "load_from_mem_with_mem": 2}
_LOADS = ("load_from_file", "load_from_mem", *_WITH_MEM)


@dataclass
class LoadedModel:
    model_id: int
    device: int | None
    work: tuple[int, int] | None        # (ptr, size) the application passed, None: ACL's
    weight: tuple[int, int] | None

    def row(self) -> OfflineModelRow:
        """What the guard saw passed to the load: the model's own description is not read."""
        parts = [p for p in (self.work, self.weight) if p]
        return {"model_id": self.model_id, "device": self.device, "soc_version": None,
                "memory": {2: "app", 1: "mixed", 0: "acl"}[len(parts)],
                "work_ptr": self.work[0] if self.work else None,
                "work_size": self.work[1] if self.work else None,
                "weight_ptr": self.weight[0] if self.weight else None,
                "weight_size": self.weight[1] if self.weight else None,
                "inputs": None, "outputs": None, "executions": None}


class ModelWatch:
    def __init__(self, guard):
        self.guard = guard
        self.loaded: dict[int, LoadedModel] = {}
        self.configs: dict[int, dict] = {}      # config handle -> {attr: value} set on it
        self.bundles: dict[int, tuple] = {}     # bundle id -> its models' ids

    def hooks(self) -> dict[str, dict]:
        """(check, after) hooks for the guard's ``mdl`` namespace."""
        mdl = {name: (None, self._note_load(name)) for name in _LOADS}
        mdl["unload"] = (None, self._note_unload)
        mdl["set_config_opt"] = (None, self._note_config)
        mdl["destroy_config_handle"] = (None, self._note_config_gone)
        mdl["load_with_config"] = (None, self._note_config_load)
        for name in ("bundle_load_from_file", "bundle_load_from_mem"):
            mdl[name] = (None, self._note_bundle)
        mdl["bundle_unload"] = (None, self._note_bundle_unload)
        return {"mdl": mdl}

    def _device(self) -> int | None:
        refs = self.guard.device_refs    # one device open: no need to ask the runtime
        return next(iter(refs)) if len(refs) == 1 else self.guard._current_device()

    def _note_config(self, ret, handle, attr, value, *_rest):
        if ret == C.ACL_SUCCESS:
            self.configs.setdefault(handle, {})[attr] = value

    def _note_config_gone(self, ret, handle, *_rest):
        if ret == C.ACL_SUCCESS:
            self.configs.pop(handle, None)

    def _note_config_load(self, result, handle, *_rest):
        if not isinstance(result, tuple) or len(result) != 2 or result[1] != C.ACL_SUCCESS:
            return
        v = self.configs.get(handle, {})
        parts = [(v[p], v.get(n, 0)) if v.get(p) else None
                 for p, n in ((C.ACL_MDL_WORKSPACE_ADDR_PTR, C.ACL_MDL_WORKSPACE_SIZET),
                              (C.ACL_MDL_WEIGHT_ADDR_PTR, C.ACL_MDL_WEIGHT_SIZET))]
        if v.get(C.ACL_MDL_LOAD_TYPE_SIZET) not in (C.ACL_MDL_LOAD_FROM_FILE_WITH_MEM,
                                                    C.ACL_MDL_LOAD_FROM_MEM_WITH_MEM):
            parts = [None, None]
        self.loaded[result[0]] = LoadedModel(result[0], self._device(), *parts)

    def _note_bundle(self, result, *_args):
        if not isinstance(result, tuple) or len(result) != 2 or result[1] != C.ACL_SUCCESS:
            return
        mdl, device = self.guard.real.mdl, self._device()
        count, ret = mdl.bundle_get_model_num(result[0])
        ids = tuple(mdl.bundle_get_model_id(result[0], i)[0] for i in range(count if
                                                                           ret == 0 else 0))
        self.bundles[result[0]] = ids
        for model_id in ids:
            self.loaded[model_id] = LoadedModel(model_id, device, None, None)

    def _note_bundle_unload(self, ret, bundle_id, *_rest):
        if ret == C.ACL_SUCCESS:
            for model_id in self.bundles.pop(bundle_id, ()):
                self.loaded.pop(model_id, None)

    def _note_load(self, name: str):
        def after(result, *args):
            if not isinstance(result, tuple) or len(result) != 2 or result[1] != C.ACL_SUCCESS:
                return
            at = _WITH_MEM.get(name)
            parts = [None, None]
            if at is not None and len(args) >= at + 4:
                parts = [(args[at], args[at + 1]) if args[at] else None,
                         (args[at + 2], args[at + 3]) if args[at + 2] else None]
            self.loaded[result[0]] = LoadedModel(result[0], self._device(), *parts)
        return after

    def _note_unload(self, ret, model_id, *_rest):
        if ret == C.ACL_SUCCESS:
            self.loaded.pop(model_id, None)

    def guard_free(self, check):
        """Wrap the guard's aclrtFree check: memory a loaded model runs on stays."""
        def guarded(ptr):
            for m in self.loaded.values():
                for what, part in ((N_("work memory"), m.work), (N_("weight memory"), m.weight)):
                    if part and part[0] <= ptr < part[0] + max(part[1], 1):
                        raise Refusal(C.ACL_ERROR_RT_PARAM_INVALID,
                                      _("{call}: {ptr} is the {what} of model {model}, which is "
                                        "still loaded. Unload it first "
                                        "(acl.mdl.unload({model})): the model would keep writing "
                                        "into freed memory.").format(
                                          call="aclrtFree", ptr=f"0x{ptr:x}", what=_(what),
                                          model=m.model_id))
            check(ptr)
        return guarded

    def forget(self, device: int | None) -> None:
        """A device was reset (None: every device, at finalize): its models are gone."""
        for model_id in [i for i, m in self.loaded.items()
                         if device is None or m.device == device]:
            del self.loaded[model_id]

    def snapshot(self) -> list[OfflineModelRow]:
        return [m.row() for m in self.loaded.values()]
