"""Dynamic AIPP, compiled into a model by `atc --insert_op_conf` with ``aipp_mode: dynamic``:
the AIPP before a network input takes its parameters at run time.

As ATC builds it (hicann/ge compiler/graph/preprocess/insert_op/aipp_op.cc): the input
becomes a raw image buffer of ``max_src_image_size`` bytes (dims N,-1,-1,-1: height, width
and channels are the parameters'), and the model gets one more input,
``ascend_dynamic_aipp_data`` (uint8, ND), of CalcMaxSize(N) bytes, where the program puts
the parameters with aclmdlSetInputAIPP (their layout: spec/aipp_params.py). At execution
each image goes through the same AIPP as a static one (om/aipp.py) with its own crop,
padding and normalisation; parameters a program never set make the execution fail.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.om import aipp as om_aipp
from acl_lab.spec import aipp_params as P

DATA_NAME = C.ACL_DYNAMIC_AIPP_NAME
MAX_SRC_IMAGE_SIZE = 1 << 31
_CONFIG = {"aipp_mode", "related_input_rank", "max_src_image_size"}


@dataclass(frozen=True)
class DynamicAipp:
    """The dynamic AIPP before the network input ``network`` (its TensorDesc)."""
    network: object
    max_src_image_size: int

    @property
    def input(self) -> str:
        return self.network.name

    @property
    def batch(self) -> int:
        return self.network.dims[0]

    def input_desc(self):
        """The model input: the raw images, up to max_src_image_size bytes."""
        return replace(self.network, dims=(self.batch, -1, -1, -1), dtype=C.ACL_UINT8,
                       fmt=C.ACL_FORMAT_NHWC, nbytes=self.max_src_image_size)

    def data_desc(self):
        """The input the parameters go into (aclmdlSetInputAIPP)."""
        from acl_lab.om.container import TensorDesc
        size = P.data_size(self.batch)
        return TensorDesc(DATA_NAME, (size,), C.ACL_UINT8, C.ACL_FORMAT_ND, C.ACL_UINT8)

    def as_json(self) -> dict:
        return {"mode": "dynamic", "network": self.network.as_json(),
                "max_src_image_size": self.max_src_image_size}

    def apply(self, raw: np.ndarray, dtype, params: np.ndarray | None = None) -> np.ndarray:
        """The network input (NCHW, ``dtype``) AIPP makes of the raw images with the
        parameters in ``params``; ValueError for parameters it cannot use."""
        header, batches = P.decode(bytes(params if params is not None else b""), self.batch)
        aipp = P.AippSet(self.batch, header, dict(enumerate(batches)))
        why = P.problem(aipp)
        if why:
            raise ValueError(_("the dynamic AIPP parameters in {name} are not usable: {why} "
                               "Set them with acl.mdl.set_input_aipp.").format(
                                   name=DATA_NAME, why=why))
        fmt, per_pixel = P.USABLE[header["inputFormat"]]
        h, w = header["srcImageSizeH"], header["srcImageSizeW"]
        one = int(h * w * per_pixel)
        if one * self.batch > raw.size:
            raise ValueError(f"{one * self.batch} bytes of images; the input holds {raw.size}")
        single = replace(self.network, dims=(1,) + tuple(self.network.dims[1:]))
        out = np.empty(self.network.dims, dtype)
        for i, b in enumerate(batches):
            image = raw[i * one:(i + 1) * one]
            if fmt == "XRGB8888_U8" and header["axSwapSwitch"]:     # RGBX given
                image = np.roll(image.reshape(-1, 4), 1, axis=1).reshape(-1)
            if P.output_hw(aipp, i) != tuple(self.network.dims[2:]) or \
                    om_aipp.OUTPUT_CHANNELS[fmt] != self.network.dims[1]:
                raise ValueError(f"image {i}: AIPP gives {om_aipp.OUTPUT_CHANNELS[fmt]}x"
                                 f"{P.output_hw(aipp, i)}, the network takes "
                                 f"{tuple(self.network.dims[1:])}")
            out[i] = om_aipp.Aipp(single, _static_params(fmt, header, b)).apply(image, dtype)[0]
        return out


def _static_params(fmt: str, header: dict, b: dict) -> dict:
    """One image's parameters as aipp.cfg names them (om/aipp.py computes with those)."""
    def half(bits: int) -> float:
        return float(np.uint16(bits).view(np.float16))
    p = dict(om_aipp.DEFAULTS, aipp_mode="static", input_format=fmt,
             src_image_size_w=header["srcImageSizeW"], src_image_size_h=header["srcImageSizeH"],
             csc_switch=bool(header["cscSwitch"]), rbuv_swap_switch=bool(header["rbuvSwapSwitch"]),
             crop=bool(b["cropSwitch"]), load_start_pos_w=b["cropStartPosW"],
             load_start_pos_h=b["cropStartPosH"], crop_size_w=b["cropSizeW"],
             crop_size_h=b["cropSizeH"], padding=bool(b["paddingSwitch"]),
             top_padding_size=b["paddingSizeTop"], bottom_padding_size=b["paddingSizeBottom"],
             left_padding_size=b["paddingSizeLeft"], right_padding_size=b["paddingSizeRight"])
    p.update({f"matrix_r{r}c{c}": header[f"cscMatrixR{r}C{c}"] for r in range(3)
              for c in range(3)})
    p.update({f"{kind}_bias_{k}": header[f"csc{kind.title()}BiasR{k}"]
              for kind in ("input", "output") for k in range(3)})
    p.update({f"mean_chn_{k}": b[f"dtcPixelMeanChn{k}"] for k in range(4)})
    p.update({f"min_chn_{k}": half(b[f"dtcPixelMinChn{k}"]) for k in range(4)})
    p.update({f"var_reci_chn_{k}": half(b[f"dtcPixelVarReciChn{k}"]) for k in range(4)})
    return p


def build_dynamic(block: dict, inputs: list) -> DynamicAipp:
    """The DynamicAipp of an aipp_op block with aipp_mode: dynamic; AippError says which
    rule it breaks (aipp_op.cc: a 4-dimensional NCHW input, max_src_image_size set)."""
    extra = sorted(set(block) - _CONFIG)
    if extra:
        raise om_aipp.AippError(_("{key} is set at run time for dynamic AIPP (acl.mdl.set_aipp_*); "
                                  "aipp_op takes only related_input_rank and "
                                  "max_src_image_size").format(key=extra[0]))
    rank = block.get("related_input_rank", 0)
    if not 0 <= rank < len(inputs):
        raise om_aipp.AippError(_("related_input_rank {rank} names no input (the model has "
                                  "{count})").format(rank=rank, count=len(inputs)))
    size = block.get("max_src_image_size", 0)
    if not 0 < size <= MAX_SRC_IMAGE_SIZE:
        raise om_aipp.AippError(_("max_src_image_size must be given for dynamic AIPP (1 to "
                                  "{most} bytes)").format(most=MAX_SRC_IMAGE_SIZE))
    graph = inputs[rank]
    if len(graph.dims) != 4 or graph.dims[1] not in (1, 3):
        raise om_aipp.AippError(_("input {name} must be NCHW with 1 or 3 channels for dynamic "
                                  "AIPP; it is {dims}").format(name=graph.name,
                                                               dims=list(graph.dims)))
    if graph.onnx_dtype not in (C.ACL_FLOAT, C.ACL_FLOAT16):
        raise om_aipp.AippError(_("input {name} must be float to take AIPP's output").format(
            name=graph.name))
    return DynamicAipp(graph, size)


def from_header(value, network) -> DynamicAipp:
    """One "mode": "dynamic" entry of the header's "aipp" list, checked as atc checked it."""
    if (not isinstance(value, dict) or set(value) != {"mode", "network", "max_src_image_size"}
            or value["mode"] != "dynamic" or value["max_src_image_size"].__class__ is not int):
        raise ValueError("aipp")
    try:
        return build_dynamic({"max_src_image_size": value["max_src_image_size"]}, [network])
    except om_aipp.AippError as e:
        raise ValueError(f"aipp ({e})") from None
