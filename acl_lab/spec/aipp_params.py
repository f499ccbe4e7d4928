"""Dynamic AIPP's parameters (aclmdlAIPP): what each aclmdlSetAIPP* setter accepts, the
checks aclmdlSetInputAIPP makes before it copies them to the device, and the bytes it
copies: one set of rules for the simulator, and the layout the model reads at execution.

Sources, hicann/ge: api/acl/acl_model/model/acl_aipp_om2.cpp (aclmdlCreateAIPP: batchSize 0
gives NULL; the setters' ranges, ACL_CHECK_RANGE_INT / _FLOAT: ACL_ERROR_INVALID_PARAM;
a batchIndex past the batch likewise; aclmdlGetAippDataSize), model_common.h (the limits),
aipp_param_check.cpp (AippParamsCheck, GetSrcImageSize, GetAippOutputHW) and, for the
layout of kAippDynamicPara (a 64-byte header, then one 96-byte kAippDynamicBatchPara per
image; little-endian), hicann/ge docs/zh/user_guides/atc_tools/AIPP/aipp_config_example.md.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field

import numpy as np

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.spec.refusal import Refusal

HEADER = struct.Struct("<Bbbbb3xii9h6x6B2x16x")
BATCH = struct.Struct("<bbbb4x12i4h8H16x")
HEADER_FIELDS = ("inputFormat", "cscSwitch", "rbuvSwapSwitch", "axSwapSwitch", "batchNum",
                 "srcImageSizeW", "srcImageSizeH",
                 *(f"cscMatrixR{r}C{c}" for r in range(3) for c in range(3)),
                 "cscOutputBiasR0", "cscOutputBiasR1", "cscOutputBiasR2",
                 "cscInputBiasR0", "cscInputBiasR1", "cscInputBiasR2")
BATCH_FIELDS = ("cropSwitch", "scfSwitch", "paddingSwitch", "rotateSwitch",
                "cropStartPosW", "cropStartPosH", "cropSizeW", "cropSizeH",
                "scfInputSizeW", "scfInputSizeH", "scfOutputSizeW", "scfOutputSizeH",
                "paddingSizeTop", "paddingSizeBottom", "paddingSizeLeft", "paddingSizeRight",
                *(f"dtcPixelMeanChn{k}" for k in range(4)),
                *(f"dtcPixelMinChn{k}" for k in range(4)),
                *(f"dtcPixelVarReciChn{k}" for k in range(4)))
#: aclAippInputFormat -> CceAippInputFormat (model_desc_internal.h), what the header holds
CCE_FORMATS = {C.ACL_YUV420SP_U8: 1, C.ACL_XRGB8888_U8: 2, C.ACL_RGB888_U8: 5,
               C.ACL_YUV400_U8: 10, C.ACL_NC1HWC0DI_FP16: 11, C.ACL_NC1HWC0DI_S8: 12,
               C.ACL_ARGB8888_U8: 13, C.ACL_YUYV_U8: 14, C.ACL_YUV422SP_U8: 15,
               C.ACL_AYUV444_U8: 16, C.ACL_RAW10: 17, C.ACL_RAW12: 18, C.ACL_RAW16: 19,
               C.ACL_RAW24: 20}
#: the CCE formats dynamic AIPP takes (AippInputFormatCheck), as aipp.cfg names them, and the
#: bytes one pixel of each takes (GetSrcImageSize)
USABLE = {1: ("YUV420SP_U8", 1.5), 2: ("XRGB8888_U8", 4), 5: ("RGB888_U8", 3),
          10: ("YUV400_U8", 1)}
CSC_MATRIX = (-32677, 32676)
IMAGE_SIZE = (1, 4096)
PADDING = (0, 32)
MEAN = (0, 255)
MIN = (0.0, 255.0)
VAR_RECI = (-65504.0, 65504.0)
PADDED_WIDTH_MAX = 1080     # GetAippOutputHW: after padding, on the Ascend 310/310P/910B
_ONE = int(np.float16(1.0).view(np.uint16))


def data_size(batch: int) -> int:
    """aclmdlGetAippDataSize: the header and one batch record per image."""
    return HEADER.size + batch * BATCH.size


@dataclass(eq=False)
class AippSet:
    """One aclmdlAIPP: the header's fields and each image's (only those set are stored)."""
    batch_size: int
    header: dict = field(default_factory=dict)
    batches: dict = field(default_factory=dict)        # index -> fields set

    def batch(self, i: int) -> dict:
        base = dict.fromkeys(BATCH_FIELDS, 0)
        base.update({f"dtcPixelVarReciChn{k}": _ONE for k in range(4)})
        base.update(self.batches.get(i, {}))
        return base

    def value(self, name: str) -> int:
        return self.header.get(name, 0)


def _in(call: str, name: str, value, low, high) -> None:
    if not low <= value <= high:
        raise Refusal(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: {name}={value} is outside {low}..{high}.").format(
                call=call, name=name, value=value, low=low, high=high))


def _switch(call: str, name: str, value: int) -> None:
    _in(call, name, value, 0, 1)


def check_batch_index(call: str, aipp: AippSet, index: int) -> None:
    if index >= aipp.batch_size:
        raise Refusal(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: batchIndex {index} is not below the batch size {batch} the aclmdlAIPP was "
            "created with.").format(call=call, index=index, batch=aipp.batch_size))


# ----- what each setter checks, then sets (the values as the C call receives them) -------------
def set_input_format(aipp: AippSet, fmt: int) -> None:
    if fmt not in CCE_FORMATS:
        raise Refusal(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: inputFormat {fmt} is not an aclAippInputFormat.").format(
                call="aclmdlSetAIPPInputFormat", fmt=fmt))
    aipp.header["inputFormat"] = CCE_FORMATS[fmt]


def set_csc(aipp: AippSet, switch: int, matrix: tuple, output_bias: tuple,
            input_bias: tuple) -> None:
    call = "aclmdlSetAIPPCscParams"
    _switch(call, "cscSwitch", switch)
    if switch:
        for (r, c), v in zip([(r, c) for r in range(3) for c in range(3)], matrix):
            _in(call, f"cscMatrixR{r}C{c}", v, *CSC_MATRIX)
    aipp.header["cscSwitch"] = switch
    if switch:
        aipp.header.update({f"cscMatrixR{r}C{c}": v for (r, c), v in
                            zip([(r, c) for r in range(3) for c in range(3)], matrix)})
        aipp.header.update({f"cscOutputBiasR{k}": v for k, v in enumerate(output_bias)})
        aipp.header.update({f"cscInputBiasR{k}": v for k, v in enumerate(input_bias)})


def set_switch(aipp: AippSet, name: str, value: int, call: str) -> None:
    _switch(call, name, value)
    aipp.header[name] = value


def set_src_image_size(aipp: AippSet, w: int, h: int) -> None:
    call = "aclmdlSetAIPPSrcImageSize"
    _in(call, "srcImageSizeW", w, IMAGE_SIZE[0] + 1, IMAGE_SIZE[1])
    _in(call, "srcImageSizeH", h, *IMAGE_SIZE)
    aipp.header.update(srcImageSizeW=w, srcImageSizeH=h)


def set_crop(aipp: AippSet, switch: int, x: int, y: int, w: int, h: int, index: int) -> None:
    call = "aclmdlSetAIPPCropParams"
    check_batch_index(call, aipp, index)
    _switch(call, "cropSwitch", switch)
    if switch:
        _in(call, "cropStartPosW", x, IMAGE_SIZE[0] - 1, IMAGE_SIZE[1] - 1)
        _in(call, "cropStartPosH", y, IMAGE_SIZE[0] - 1, IMAGE_SIZE[1] - 1)
        _in(call, "cropSizeW", w, *IMAGE_SIZE)
        _in(call, "cropSizeH", h, *IMAGE_SIZE)
    fields = aipp.batches.setdefault(index, {})
    fields["cropSwitch"] = switch
    if switch:
        fields.update(cropStartPosW=x, cropStartPosH=y, cropSizeW=w, cropSizeH=h)


def set_padding(aipp: AippSet, switch: int, top: int, bottom: int, left: int, right: int,
                index: int) -> None:
    call = "aclmdlSetAIPPPaddingParams"
    check_batch_index(call, aipp, index)
    _switch(call, "paddingSwitch", switch)
    sizes = {"paddingSizeTop": top, "paddingSizeBottom": bottom, "paddingSizeLeft": left,
             "paddingSizeRight": right}
    if switch:
        for name, v in sizes.items():
            _in(call, name, v, *PADDING)
    fields = aipp.batches.setdefault(index, {})
    fields["paddingSwitch"] = switch
    if switch:
        fields.update(sizes)


def set_channels(aipp: AippSet, what: str, values: tuple, index: int) -> None:
    """aclmdlSetAIPPDtcPixelMean ("Mean"), DtcPixelMin ("Min"), PixelVarReci ("VarReci"):
    the floats stored as float16, as ACL's Fp16Type rounds them."""
    call, limits = {"Mean": ("aclmdlSetAIPPDtcPixelMean", MEAN),
                    "Min": ("aclmdlSetAIPPDtcPixelMin", MIN),
                    "VarReci": ("aclmdlSetAIPPPixelVarReci", VAR_RECI)}[what]
    check_batch_index(call, aipp, index)
    for k, v in enumerate(values):
        _in(call, f"dtcPixel{what}Chn{k}", v, *limits)
    stored = values if what == "Mean" else [int(np.float16(v).view(np.uint16)) for v in values]
    aipp.batches.setdefault(index, {}).update(
        {f"dtcPixel{what}Chn{k}": v for k, v in enumerate(stored)})


# ----- aclmdlSetInputAIPP's checks ------------------------------------------------------------------
def src_image_size(aipp: AippSet) -> int:
    """GetSrcImageSize: the bytes of the batch's source images (0 for a format it omits)."""
    usable = USABLE.get(aipp.value("inputFormat"))
    if usable is None:
        return 0
    return int(aipp.batch_size * aipp.value("srcImageSizeW") * aipp.value("srcImageSizeH")
               * usable[1])


def output_hw(aipp: AippSet, i: int) -> tuple[int, int]:
    """GetAippOutputHW: (height, width) AIPP gives image ``i`` (crop, then padding)."""
    b = aipp.batch(i)
    if b["cropSwitch"] == 1:
        w, h = b["cropSizeW"], b["cropSizeH"]
    else:
        w, h = aipp.value("srcImageSizeW"), aipp.value("srcImageSizeH")
    if b["paddingSwitch"] == 1:
        w += b["paddingSizeLeft"] + b["paddingSizeRight"]
        h += b["paddingSizeTop"] + b["paddingSizeBottom"]
    return h, w


def problem(aipp: AippSet) -> str | None:
    """What AippParamsCheck finds wrong (format, CSC, source size, then every image's crop,
    resize and output size), in words; None if nothing."""
    fmt = aipp.value("inputFormat")
    if fmt not in USABLE:
        return _("the input format is not set, or dynamic AIPP does not take it (it takes "
                 "ACL_YUV420SP_U8, ACL_XRGB8888_U8, ACL_RGB888_U8, ACL_YUV400_U8).")
    if fmt == 10 and aipp.value("cscSwitch") == 1:
        return _("YUV400 has no colour to convert: cscSwitch must be 0.")
    w, h = aipp.value("srcImageSizeW"), aipp.value("srcImageSizeH")
    if not w or not h:
        return _("the source image size is not set (acl.mdl.set_aipp_src_image_size).")
    if fmt == 1 and (w % 2 or h % 2):
        return _("YUV420SP needs an even width and height, not {w}x{h}.").format(w=w, h=h)
    first = None
    for i in range(aipp.batch_size):
        b = aipp.batch(i)
        if b["scfSwitch"] == 1:
            return _("dynamic AIPP does not resize (scf).")
        if b["cropSwitch"] == 1:
            if b["cropStartPosW"] + b["cropSizeW"] > w or b["cropStartPosH"] + b["cropSizeH"] > h:
                return _("image {i}'s crop leaves the {w}x{h} source image.").format(
                    i=i, w=w, h=h)
            if fmt == 1 and (b["cropStartPosW"] % 2 or b["cropStartPosH"] % 2):
                return _("image {i}'s crop must start at even positions for YUV420SP.").format(
                    i=i)
        out = output_hw(aipp, i)
        if b["paddingSwitch"] == 1 and out[1] > PADDED_WIDTH_MAX:
            return _("image {i} is {w} wide after padding; at most {most}.").format(
                i=i, w=out[1], most=PADDED_WIDTH_MAX)
        if first is not None and out != first:
            return _("image {i}'s output ({h}x{w}) differs from image 0's ({h0}x{w0}); every "
                     "image of the batch gives the same size.").format(
                         i=i, h=out[0], w=out[1], h0=first[0], w0=first[1])
        first = first or out
    return None


def check(aipp: AippSet, call: str) -> None:
    """AippParamsCheck: Refusal (ACL_ERROR_INVALID_PARAM) with ``problem``'s words."""
    why = problem(aipp)
    if why:
        raise Refusal(C.ACL_ERROR_INVALID_PARAM, "{call}: {why}".format(call=call, why=why))


# ----- the bytes ---------------------------------------------------------------------------
def encode(aipp: AippSet) -> bytes:
    header = [aipp.value(n) for n in HEADER_FIELDS]
    header[HEADER_FIELDS.index("batchNum")] = ((aipp.batch_size & 0xFF) ^ 0x80) - 0x80  # int8
    out = [HEADER.pack(*header)]
    out += [BATCH.pack(*(aipp.batch(i)[n] for n in BATCH_FIELDS))
            for i in range(aipp.batch_size)]
    return b"".join(out)


def decode(data: bytes, batch: int) -> tuple[dict, list[dict]]:
    """The header and ``batch`` image records of kAippDynamicPara bytes; ValueError if there
    are fewer bytes than that."""
    if len(data) < data_size(batch):
        raise ValueError(f"{len(data)} bytes of AIPP parameters; {data_size(batch)} needed")
    header = dict(zip(HEADER_FIELDS, HEADER.unpack_from(data)))
    batches = [dict(zip(BATCH_FIELDS, BATCH.unpack_from(data, HEADER.size + i * BATCH.size)))
               for i in range(batch)]
    return header, batches
