"""Bundle models on the simulator (aclmdlBundleLoadFromFile / FromMem, aclmdlBundleUnload,
aclmdlBundleGetModelNum / GetModelId): the sub-models of a bundle (om/bundle.py) loaded
together, each an ordinary loaded model with its own model id.

As hicann/ge api/acl/acl_model/model/model.cpp: BundleLoadFromMem loads every sub-model
and, if one fails, unloads those loaded before it and returns that failure; data that is
not a bundle is ACL_ERROR_INVALID_PARAM (GetBundleNumAndOffset); an id that names no bundle
is ACL_ERROR_INVALID_BUNDLE_MODEL_ID (AclResourceManager::GetBundleInfo); an index past the
sub-models ACL_ERROR_INVALID_PARAM; aclmdlUnload of a sub-model's id is
ACL_ERROR_INVALID_PARAM (aclmdlUnloadImpl: IsBundleInnerId), the bundle unloads them.
"""
from __future__ import annotations

import os

import numpy as np

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.om import bundle as om_bundle
from acl_lab.sim.simerror import SimError

FIRST_ID = 0x1000          # bundle ids count from here (the model ids of its sub-models differ)


class Bundles:
    """The loaded bundles of one process: bundle id -> its sub-models' ids."""

    def __init__(self, rt):
        self.rt = rt
        self.loaded: dict[int, tuple] = {}
        self._next = FIRST_ID

    def load_file(self, path: str) -> int:
        call = "aclmdlBundleLoadFromFile"
        if not os.path.isfile(path) or os.path.getsize(path) == 0:
            raise SimError(C.ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID, _(
                "{call}: bundle file {path} does not exist or is empty.").format(
                    call=call, path=repr(path)))
        with open(path, "rb") as f:
            def read(offset: int, n: int) -> bytes:
                f.seek(offset)
                return f.read(n)
            return self._load(call, os.fstat(f.fileno()).st_size, read)

    def load_mem(self, ptr: int, size: int) -> int:
        call = "aclmdlBundleLoadFromMem"
        if ptr == 0 or size == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: model is NULL or modelSize is 0; pass the bundle's bytes.").format(
                    call=call))
        a = self.rt.memory.map.resolve(ptr, size, "model", call)

        def read(offset: int, n: int) -> bytes:
            out = np.empty(n, np.uint8)
            a.read_into(ptr - a.ptr + offset, n, out)
            return out.tobytes()
        return self._load(call, size, read)

    def _load(self, call: str, size: int, read) -> int:
        try:
            parts = om_bundle.entries(size, read)
        except om_bundle.NotABundle as e:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _("{call}: {reason}.").format(
                call=call, reason=e)) from None
        models, ids = self.rt.models, []
        try:
            for offset, n in parts:
                def part(o: int, k: int, base=offset) -> bytes:
                    return read(base + o, k)
                ids.append(models.load(models._read(n, part, call, True), call))
        except BaseException:           # a sub-model failed, or Ctrl-C: none stays loaded
            for model_id in ids:
                models.unload(model_id, call)
            raise
        bundle_id = self._next
        self._next += 1
        self.loaded[bundle_id] = tuple(ids)
        return bundle_id

    def models(self, bundle_id: int, call: str) -> tuple:
        found = self.loaded.get(bundle_id)
        if found is None:
            raise SimError(C.ACL_ERROR_INVALID_BUNDLE_MODEL_ID, _(
                "{call}: {bundle_id} is not the id of a loaded bundle (the id "
                "acl.mdl.bundle_load_from_file returned; a model's own id is not one)."
            ).format(call=call, bundle_id=bundle_id))
        return found

    def model_id(self, bundle_id: int, index: int) -> int:
        call = "aclmdlBundleGetModelId"
        ids = self.models(bundle_id, call)
        if index >= len(ids):
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: index {index} is past the bundle's {count} model(s).").format(
                    call=call, index=index, count=len(ids)))
        return ids[index]

    def unload(self, bundle_id: int) -> None:
        """Its sub-models go (those a device reset unloaded already are gone)."""
        for model_id in self.models(bundle_id, "aclmdlBundleUnload"):
            if model_id in self.rt.models.loaded:
                self.rt.models.unload(model_id, "aclmdlBundleUnload")
        del self.loaded[bundle_id]

    def check_not_inner(self, model_id: int) -> None:
        """aclmdlUnload refuses a bundle's sub-model."""
        for bundle_id, ids in self.loaded.items():
            if model_id in ids:
                raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                    "{call}: model {model_id} belongs to bundle {bundle_id}; unload the "
                    "bundle with acl.mdl.bundle_unload({bundle_id}).").format(
                        call="aclmdlUnload", model_id=model_id, bundle_id=bundle_id))


def of(rt) -> Bundles:
    found = getattr(rt, "bundles", None)
    if found is None:
        found = rt.bundles = Bundles(rt)
    return found
