"""AIPP at run time (aclmdlCreateAIPP and its setters, aclmdlSetInputAIPP /
SetAIPPByInputIndex) and what a model says of its AIPP (aclmdlGetAippType,
aclmdlGetFirstAippInfo): the aclmdlAIPP objects of one process and the checks GE makes
before it copies one into a model's ``ascend_dynamic_aipp_data`` input.

As hicann/ge api/acl/acl_model/model/acl_aipp.cpp: aclmdlSetInputAIPPImpl (NULL dataset or
aipp ACL_ERROR_INVALID_PARAM; VerifyIndex: an index past the model's inputs likewise;
CheckAippDataIndex: an index that is not the dynamic AIPP data input likewise;
GetAndCheckAippParams: the images' bytes over max_src_image_size, a batch or output size
other than the network input's, then AippParamsCheck (spec/aipp_params.py); a buffer with
no address ACL_ERROR_INVALID_PARAM; GeExecutor::SetDynamicAippData: a buffer smaller than
the parameters ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID, then a copy to the device),
aclmdlSetAIPPByInputIndexImpl (an index past the dataset ACL_ERROR_INVALID_PARAM, an input
without dynamic AIPP ACL_ERROR_FAILURE), aclmdlGetFirstAippInfoImpl (an input without AIPP
ACL_ERROR_GE_AIPP_NOT_EXIST) and model_common.cpp SetAippInfo.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.om import aipp as om_aipp
from acl_lab.om.aipp_dynamic import DynamicAipp
from acl_lab.sim.simerror import SimError
from acl_lab.spec import aipp_params as P
from acl_lab.spec import handles
from acl_lab.spec.io_dims import io_dims

AIPP_BASE, STEP = 0x6A00_0000, 0x40
#: aipp.cfg's input_format -> aclAippInputFormat (GE's AippConfigInfo keeps the enum value)
INPUT_FORMATS = {"YUV420SP_U8": C.ACL_YUV420SP_U8, "XRGB8888_U8": C.ACL_XRGB8888_U8,
                 "RGB888_U8": C.ACL_RGB888_U8, "YUV400_U8": C.ACL_YUV400_U8}


def data_size(batch: int) -> int:
    """aclmdlGetAippDataSize (ACL_REQUIRES_POSITIVE, then a size_t that must not wrap)."""
    call = "aclmdlGetAippDataSize"
    if batch == 0:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _("{call}: batchSize is 0.").format(call=call))
    size = P.data_size(batch)
    if size >= 1 << 64:
        raise SimError(C.ACL_ERROR_FAILURE, _(
            "{call}: {batch} images' parameters do not fit in size_t.").format(
                call=call, batch=batch))
    return size


@dataclass(eq=False)
class AippObjects:
    rt: object
    sets: dict = field(default_factory=dict)
    made: int = 0

    # ----- aclmdlAIPP ---------------------------------------------------------------------
    def create(self, batch: int) -> int:
        if batch == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: batchSize is 0; give the number of images the model's input takes. "
                "NULL (0) came back.").format(call="aclmdlCreateAIPP"))
        self.made += 1
        handle = AIPP_BASE + self.made * STEP
        self.sets[handle] = P.AippSet(batch)
        return handle

    def get(self, handle: int, call: str) -> P.AippSet:
        return handles.live(self.sets, handle, call, _(
            "{call}: {handle} is not a live aclmdlAIPP (destroyed, or never created). Create "
            "one with acl.mdl.create_aipp(batch_size)."), _(
            "{call}: aippParmsSet is NULL. Create one with acl.mdl.create_aipp(batch_size)."))

    def destroy(self, handle: int) -> None:
        self.get(handle, "aclmdlDestroyAIPP")
        del self.sets[handle]

    # ----- the model's inputs ---------------------------------------------------------------
    def _input(self, model_id: int, index: int, call: str):
        """VerifyIndex: the loaded model and its ``index``-th input's description."""
        lm = self.rt.models.model(model_id, call)
        if index >= len(lm.om.inputs):
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: index {index} is not below the model's {count} inputs.").format(
                    call=call, index=index, count=len(lm.om.inputs)))
        return lm, lm.om.inputs[index]

    def aipp_type(self, model_id: int, index: int, call: str = "aclmdlGetAippType") -> tuple:
        """(aclmdlInputAippType, the index of its dynamic AIPP data input or
        ACL_INVALID_NODE_INDEX)."""
        lm, desc = self._input(model_id, index, call)
        names = [t.name for t in lm.om.inputs]
        if desc.name == C.ACL_DYNAMIC_AIPP_NAME:
            return C.ACL_DYNAMIC_AIPP_NODE, C.ACL_INVALID_NODE_INDEX
        for a in lm.om.aipp:
            if a.input == desc.name:
                if isinstance(a, DynamicAipp):
                    return C.ACL_DATA_WITH_DYNAMIC_AIPP, names.index(C.ACL_DYNAMIC_AIPP_NAME)
                return C.ACL_DATA_WITH_STATIC_AIPP, C.ACL_INVALID_NODE_INDEX
        return C.ACL_DATA_WITHOUT_AIPP, C.ACL_INVALID_NODE_INDEX

    # ----- aclmdlSetInputAIPP / SetAIPPByInputIndex ------------------------------------------
    def set_input(self, model_id: int, dataset: int, index: int, handle: int,
                  call: str = "aclmdlSetInputAIPP") -> None:
        if dataset == 0 or handle == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _("{call}: {what} is NULL.").format(
                call=call, what="dataset" if dataset == 0 else "aippParmsSet"))
        aipp = self.get(handle, call)
        ds = self.rt.models.dataset(dataset, call)
        lm, desc = self._input(model_id, index, call)
        if desc.name != C.ACL_DYNAMIC_AIPP_NAME:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: input {index} ({name}) is not the dynamic AIPP data input; the "
                "parameters go into {data} (acl.mdl.get_aipp_type names its index).").format(
                    call=call, index=index, name=desc.name, data=C.ACL_DYNAMIC_AIPP_NAME))
        dynamic = next(a for a in lm.om.aipp if isinstance(a, DynamicAipp))
        self._fits(aipp, dynamic, call)
        P.check(aipp, call)
        if index >= len(ds.buffers):
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: the dataset has no buffer {index} (it holds {count}).").format(
                    call=call, index=index, count=len(ds.buffers)))
        buf = self.rt.models.buffer(ds.buffers[index], call)
        if buf.addr == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: data buffer {index} has no address.").format(call=call, index=index))
        data = P.encode(aipp)
        if len(data) > buf.size:
            raise SimError(C.ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID, _(
                "{call}: the parameters take {need} bytes; data buffer {index} holds {size} "
                "(acl.mdl.get_aipp_data_size({batch}) gives the size).").format(
                    call=call, need=len(data), index=index, size=buf.size,
                    batch=aipp.batch_size))
        block = self.rt.memory.map.resolve(buf.addr, len(data), "dynamic AIPP data", call)
        self.rt.memory.ram.need(block.fresh_bytes(buf.addr - block.ptr, len(data)), call)
        block.view(buf.addr - block.ptr, len(data))[:] = np.frombuffer(data, np.uint8)

    def _fits(self, aipp: P.AippSet, dynamic: DynamicAipp, call: str) -> None:
        """GetAndCheckAippParams: the images fit max_src_image_size, and AIPP's output is
        what the network takes (batch, height, width)."""
        size = P.src_image_size(aipp)
        if size > dynamic.max_src_image_size:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: the images take {size} bytes, more than the model's "
                "max_src_image_size {most}.").format(call=call, size=size,
                                                     most=dynamic.max_src_image_size))
        n, _c, h, w = dynamic.network.dims
        out = P.output_hw(aipp, 0)
        if (aipp.batch_size, *out) != (n, h, w):
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: AIPP would give {batch} image(s) of {out_h}x{out_w}; the network input "
                "{name} takes {n} of {h}x{w}. Match the batch size, crop and padding to "
                "it.").format(call=call, batch=aipp.batch_size, out_h=out[0], out_w=out[1],
                              name=dynamic.input, n=n, h=h, w=w))

    def set_by_input_index(self, model_id: int, dataset: int, index: int, handle: int) -> None:
        call = "aclmdlSetAIPPByInputIndex"
        if handle == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _("{call}: aippParmsSet is NULL.").format(
                call=call))
        count = len(self.rt.models.datasets[dataset].buffers) \
            if dataset in self.rt.models.datasets else None
        if dataset == 0 or count is None or index >= count:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: the dataset is NULL, not live, or has no buffer {index}.").format(
                    call=call, index=index))
        kind, attached = self.aipp_type(model_id, index, call)
        if kind != C.ACL_DATA_WITH_DYNAMIC_AIPP:
            raise SimError(C.ACL_ERROR_FAILURE, _(
                "{call}: input {index} of model {model_id} has no dynamic AIPP.").format(
                    call=call, index=index, model_id=model_id))
        self.set_input(model_id, dataset, attached, handle, call)

    # ----- aclmdlGetFirstAippInfo -------------------------------------------------------------
    def first_info(self, model_id: int, index: int) -> dict:
        """pyACL's dict of the aclAippInfo of input ``index``'s AIPP."""
        call = "aclmdlGetFirstAippInfo"
        lm, desc = self._input(model_id, index, call)
        a = next((a for a in lm.om.aipp if a.input == desc.name), None)
        if a is None:
            raise SimError(C.ACL_ERROR_GE_AIPP_NOT_EXIST, _(
                "{call}: input {index} ({name}) of model {model_id} has no AIPP.").format(
                    call=call, index=index, name=desc.name, model_id=model_id))
        info = _info(a.params if isinstance(a, om_aipp.Aipp) else {})
        net = a.network
        info.update(srcFormat=net.fmt, srcDatatype=net.onnx_dtype, srcDimNum=len(net.dims),
                    shapeCount=1, outDims=[{
                        "srcDims": io_dims(desc.name, desc.dims), "srcSize": desc.size,
                        "aippOutdims": io_dims(net.name, net.dims), "aippOutSize": net.size}])
        return info


def _info(p: dict) -> dict:
    """SetAippInfo's fields of an AIPP's configuration (a dynamic one has none set)."""
    def get(key, default=0):
        return p.get(key, default)
    out = {"cscSwitch": int(get("csc_switch"))}
    for r, c in ((0, 0), (0, 1), (1, 0), (1, 1), (1, 2), (2, 2)):   # pyACL's own selection
        out[f"matrixR{r}C{c}"] = get(f"matrix_r{r}c{c}")
    out.update({f"outputBias{k}": get(f"output_bias_{k}") for k in range(3)})
    out.update({f"inputBias{k}": get(f"input_bias_{k}") for k in range(3)})
    out.update(rbuvSwapSwitch=int(get("rbuv_swap_switch")), axSwapSwitch=0, singleLineMode=0,
               srcImageSizeW=get("src_image_size_w"), srcImageSizeH=get("src_image_size_h"),
               inputFormat=INPUT_FORMATS.get(get("input_format", ""), 0), aippExtend=0,
               cropSwitch=int(get("crop")), loadStartPosW=get("load_start_pos_w"),
               loadStartPosH=get("load_start_pos_h"), cropSizeW=get("crop_size_w"),
               cropSizeH=get("crop_size_h"), resizeSwitch=0, resizeOutputW=0, resizeOutputH=0,
               paddingSwitch=int(get("padding")))
    out.update({f"{side}PaddingSize": get(f"{side}_padding_size")
                for side in ("left", "right", "top", "bottom")})
    out.update({f"meanChn{k}": get(f"mean_chn_{k}") for k in range(4)})
    out.update({f"minChn{k}": float(get(f"min_chn_{k}", 0.0)) for k in range(4)})
    out.update({f"varReciChn{k}": float(get(f"var_reci_chn_{k}", 0.0)) for k in range(4)})
    return out


def of(rt) -> AippObjects:
    found = getattr(rt, "model_aipp", None)
    if found is None:
        found = rt.model_aipp = AippObjects(rt)
    return found
