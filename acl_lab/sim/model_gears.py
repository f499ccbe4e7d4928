"""Gears of offline models (om/dynamic.py) on the simulator's side: picking one per dataset
(aclmdlSetDynamicBatchSize, aclmdlSetDynamicHWSize, aclmdlSetInputDynamicDims), asking which
there are (aclmdlGetInputDynamicGearCount, aclmdlGetInputDynamicDims) and the outputs of the
gear last set (aclmdlGetCurOutputDims). A part of OfflineModels (sim/models.py), which
holds the datasets, buffers, descriptions and loaded models these read.

Codes as hicann/ge gives them: api/acl/acl_model/model/model.cpp (a NULL dataset, a missing
buffer or address, a dimCount of 0: ACL_ERROR_INVALID_PARAM), runtime/v1/executor/
ge_executor.cc SetDynamicDims / GetCurDynamicDims (an unknown model 145003; dims that do not
cover every input, or differ where a dim is fixed, 145012; dims that are no gear 145013; a
buffer shorter than the gear 145012), model_om2.cpp aclmdlGetInputDynamicGearCount /
aclmdlGetInputDynamicDims (an index other than -1, fewer gears asked than the model has:
ACL_ERROR_INVALID_PARAM; more than ACL_MAX_DIM_CNT dims in all: ACL_ERROR_FAILURE).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.om import dynamic as om_dynamic
from acl_lab.sim.simerror import SimError
from acl_lab.spec.io_dims import ACL_MAX_DIM_CNT

if TYPE_CHECKING:
    from acl_lab.sim.models import DataBuffer, Dataset, LoadedModel

MINUS_ONE = (1 << 64) - 1     # size_t(-1): the index aclmdlGetInputDynamic* take


class ModelGears:
    """The gear calls of OfflineModels."""

    def cur_output_dims(self, handle: int, index: int, call: str) -> tuple:
        """aclmdlGetCurOutputDims: the output's dims at the gear last set on the model (the
        largest gear's, or a static model's, before any)."""
        t = self.tensor(handle, index, True, call)
        d = self.descs[handle]
        lm, gears = self.loaded.get(d.model_id), d.model.dynamic
        if gears is None or lm is None or lm.gear is None:
            return t.dims
        return gears.outputs[gears.gears.index(lm.gear)][index]

    def set_gear(self, call: str, model_id: int, ds: int, index: int, gear: tuple) -> None:
        """aclmdlSetDynamicBatchSize / aclmdlSetDynamicHWSize (hicann/ge model.cpp, then
        ge_executor.cc SetDynamicBatchSize / SetDynamicImageSize): the gear is checked
        against the model's, written into the dataset's buffer ``index`` (the
        ascend_mbatch_shape_data input) and used by the next executions of that dataset."""
        d = self.dataset(ds, call)
        if 0 in gear:
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: a gear value of 0 is invalid; use one of the model's "
                             "gears (acl.mdl.get_dynamic_batch / get_dynamic_hw).").format(
                               call=call))
        b = self._gear_buffer(call, d, index)
        if b.size < 4 * len(gear):
            raise SimError(C.ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID,
                           _("{call}: the buffer at index {index} is {size} B; the gear needs "
                             "at least {need} B.").format(call=call, index=index, size=b.size,
                                                          need=4 * len(gear)))
        lm = self.model(model_id, call)
        gears = lm.om.dynamic
        if gears is None or len(gears.gears[0]) != len(gear) or gear not in gears.gears:
            have = _("none: the model is static") if gears is None else [
                list(g) if len(g) > 1 else g[0] for g in gears.gears]
            raise SimError(C.ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID,
                           _("{call}: {gear} is not a gear of model {model_id} (its gears: "
                             "{gears}). Pick one of them (acl.mdl.get_dynamic_batch / "
                             "get_dynamic_hw).").format(
                               call=call, gear=list(gear) if len(gear) > 1 else gear[0],
                               model_id=model_id, gears=have))
        self._write_gear(call, d, b, lm, gear)

    def _gear_buffer(self, call: str, d: Dataset, index: int) -> DataBuffer:
        """The dataset's buffer ``index`` that takes the gear (ACL_ERROR_INVALID_PARAM
        without one, or with a NULL address: model.cpp)."""
        if index >= len(d.buffers) or self.buffer(d.buffers[index], call).addr == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: the dataset has no data buffer with an address at index "
                             "{index}. Give the {name} input (acl.mdl.get_input_index_by_name) "
                             "a buffer of get_input_size_by_index bytes first.").format(
                               call=call, index=index, name=om_dynamic.TENSOR_NAME))
        return self.buffer(d.buffers[index], call)

    def _write_gear(self, call: str, d: Dataset, b: DataBuffer, lm: LoadedModel,
                    gear: tuple) -> None:
        """Write ``gear`` into buffer ``b`` as GE does (uint64 values when they fit, else
        uint32) and make it the dataset's and the model's current gear."""
        width = 8 if b.size >= 8 * len(gear) else 4
        data = np.array(gear, np.uint64 if width == 8 else np.uint32).view(np.uint8)
        a = self.rt.memory.map.resolve(b.addr, data.size, f"{om_dynamic.TENSOR_NAME}", call,
                                       code=C.ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID)
        self.rt.memory.ram.need(a.fresh_bytes(b.addr - a.ptr, data.size), call)

        def writer(view):
            view[:] = data
        a.write(b.addr - a.ptr, data.size, writer, call)
        d.gear = lm.gear = gear

    # ----- aclmdlSetInputDynamicDims / aclmdlGetInputDynamicGearCount / Dims ---------------
    def set_dims(self, model_id: int, ds: int, index: int, dims: tuple) -> None:
        """aclmdlSetInputDynamicDims: ``dims`` is every input's dims, concatenated in the
        order --input_shape named them (the aclmdlIODims' "dims"; its name is not used).
        The values at the -1s must be a gear of the model; the gear is written into buffer
        ``index`` (ascend_mbatch_shape_data) and used by the dataset's next executions."""
        call = "aclmdlSetInputDynamicDims"
        d = self.dataset(ds, call)
        if not dims:
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: dimCount is 0; give every input's dims, concatenated "
                             "(acl.mdl.get_input_dynamic_dims lists them per gear).").format(
                               call=call))
        b = self._gear_buffer(call, d, index)
        lm = self.model(model_id, call)
        gears = lm.om.dynamic
        order = gears.order if gears is not None else ()
        expected = self._all_dims(lm.om, order)
        if len(dims) != len(expected):
            raise SimError(C.ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID,
                           _("{call}: dims holds {count} value(s), but the inputs {order} of "
                             "model {model_id} have {need} dims in all ({dims}, -1 where a "
                             "gear decides). Give all of them, concatenated.").format(
                               call=call, count=len(dims), order=list(order),
                               model_id=model_id, need=len(expected), dims=list(expected)))
        for k, (given, fixed) in enumerate(zip(dims, expected)):
            if fixed != -1 and given != fixed:
                raise SimError(C.ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID,
                               _("{call}: dims[{k}] is {given}, but that dim of the model is "
                                 "fixed at {fixed} ({dims}, -1 where a gear decides).").format(
                                   call=call, k=k, given=given, fixed=fixed,
                                   dims=list(expected)))
        gear = tuple(v for v, fixed in zip(dims, expected) if fixed == -1)
        if gear not in gears.gears:
            raise SimError(C.ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID,
                           _("{call}: {dims} is no gear of model {model_id}. Its gears are "
                             "{gears}; acl.mdl.get_input_dynamic_dims(desc, -1, count) gives "
                             "their dims.").format(
                               call=call, dims=list(dims), model_id=model_id,
                               gears=[list(g) for g in gears.gears]))
        if b.size < 4 * len(gear):
            raise SimError(C.ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID,
                           _("{call}: the buffer at index {index} is {size} B; the gear needs "
                             "at least {need} B.").format(call=call, index=index, size=b.size,
                                                          need=4 * len(gear)))
        self._write_gear(call, d, b, lm, gear)

    @staticmethod
    def _all_dims(m, order) -> tuple:
        """The model's inputs named in ``order``, their dims concatenated, -1 where a gear
        decides (GE's all_data_dims)."""
        gears, by_name = m.dynamic, {t.name: t.dims for t in m.inputs}
        return tuple(d for n in order for d in gears.reported(n, by_name[n]))

    def _dims_gears(self, handle: int, index: int, call: str):
        """The description's model's dims gears (None: it has none) after the checks of
        both queries: a live description, index -1."""
        d = self.desc(handle, call, filled=False)
        if index not in (-1, MINUS_ONE):
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: index must be -1 (the gears belong to the whole model), "
                             "not {index}.").format(call=call, index=index))
        gears = d.model.dynamic if d.model is not None else None
        return gears if gears is not None and gears.kind == "dims" else None

    def gear_count(self, handle: int, index: int) -> int:
        """aclmdlGetInputDynamicGearCount: how many --dynamic_dims gears the model has (0 for
        any other model, or an empty description)."""
        gears = self._dims_gears(handle, index, "aclmdlGetInputDynamicGearCount")
        return len(gears.gears) if gears is not None else 0

    def dynamic_dims(self, handle: int, index: int, gear_count: int) -> list:
        """aclmdlGetInputDynamicDims: per gear, every input's dims at that gear, concatenated
        in --input_shape order; ``gear_count`` entries (those past the model's gears are
        empty, as pyACL returns them)."""
        call = "aclmdlGetInputDynamicDims"
        gears = self._dims_gears(handle, index, call)
        have = len(gears.gears) if gears is not None else 0
        if gear_count < have:
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: gearCount is {count}, but the model has {have} gears; "
                             "ask acl.mdl.get_input_dynamic_gear_count(desc, -1) first.").format(
                               call=call, count=gear_count, have=have))
        out = [()] * gear_count
        if gears is None:
            return out
        m = self.descs[handle].model
        if len(self._all_dims(m, gears.order)) > ACL_MAX_DIM_CNT:
            raise SimError(C.ACL_ERROR_FAILURE,
                           _("{call}: the model's inputs have more than ACL_MAX_DIM_CNT "
                             "({most}) dims in all.").format(call=call, most=ACL_MAX_DIM_CNT))
        by_name = {t.name: t.dims for t in m.inputs}
        for k, gear in enumerate(gears.gears):
            out[k] = tuple(v for n in gears.order for v in gears.dims(n, by_name[n], gear))
        return out
