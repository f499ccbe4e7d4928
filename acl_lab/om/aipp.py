"""Static AIPP (AI pre-processing), compiled into a model by `atc --insert_op_conf=aipp.cfg`.

The aipp.cfg format and its defaults are ATC's (hicann/ge docs/zh/user_guides/atc_tools/
AIPP/config_file_template.md, CSC_config.md): ``aipp_op { aipp_mode: static  input_format:
YUV420SP_U8 ... }``. The model's input then takes the raw image — ``input_format`` at
``src_image_size_w`` x ``src_image_size_h``, NHWC uint8 (YUV420SP: NV12, w*h*3/2 bytes) —
and AIPP runs before the network, in the hardware's order: channel swap (rbuv_swap_switch),
crop, colour-space conversion (csc_switch: ``(matrix · (x - input_bias)) >> 8`` from YUV,
``(matrix · x) >> 8 + output_bias`` from RGB, clipped to 0..255), then per channel
``(x - mean_chn_i - min_chn_i) * var_reci_chn_i`` in float16, then padding. Its output is
the network's NCHW input. Dynamic AIPP (aipp_mode: dynamic): om/aipp_dynamic.py.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

from acl_lab import constants as C
from acl_lab.i18n import _

#: input_format -> channels the raw image has in memory (NHWC), bytes per pixel as a fraction
FORMATS = {"YUV420SP_U8": (1, 1.5), "RGB888_U8": (3, 3), "YUV400_U8": (1, 1),
           "XRGB8888_U8": (4, 4)}
OUTPUT_CHANNELS = {"YUV420SP_U8": 3, "RGB888_U8": 3, "YUV400_U8": 1, "XRGB8888_U8": 3}
DEFAULTS = {
    "aipp_mode": "", "related_input_rank": 0, "input_format": "",
    "src_image_size_w": 0, "src_image_size_h": 0,
    "crop": False, "load_start_pos_w": 0, "load_start_pos_h": 0,
    "crop_size_w": 0, "crop_size_h": 0,
    "padding": False, "left_padding_size": 0, "right_padding_size": 0,
    "top_padding_size": 0, "bottom_padding_size": 0, "padding_value": 0.0,
    "csc_switch": False, "rbuv_swap_switch": False,
    "matrix_r0c0": 298, "matrix_r0c1": 516, "matrix_r0c2": 0,
    "matrix_r1c0": 298, "matrix_r1c1": -100, "matrix_r1c2": -208,
    "matrix_r2c0": 298, "matrix_r2c1": 0, "matrix_r2c2": 409,
    "input_bias_0": 16, "input_bias_1": 128, "input_bias_2": 128,
    "output_bias_0": 16, "output_bias_1": 128, "output_bias_2": 128,
    **{f"mean_chn_{i}": 0 for i in range(4)}, **{f"min_chn_{i}": 0.0 for i in range(4)},
    **{f"var_reci_chn_{i}": 1.0 for i in range(4)},
}
#: fields ATC reserves ("暂不支持"): accepted at their defaults only
RESERVED = {"resize": False, "resize_output_w": 0, "resize_output_h": 0, "rotation_angle": 0,
            "single_line_mode": False, "cpadding_value": 0.0, "support_rotation": False,
            "ax_swap_switch": False, "related_input_name": "", "max_src_image_size": 0,
            "raw_rgbir_to_f16_n": 8}
_TOKEN = re.compile(r'\s*(?:(#[^\n]*)|([A-Za-z_][A-Za-z_0-9]*)|(\{)|(\})|(:)|'
                    r'("[^"\n]*")|([-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?))')


class AippError(ValueError):
    """The aipp.cfg breaks a rule; the message says which."""


@dataclass(frozen=True)
class Aipp:
    """One static AIPP before the network input ``network`` (its TensorDesc), all fields at
    their values."""
    network: object
    params: dict = field(hash=False)

    @property
    def input(self) -> str:
        return self.network.name

    def as_json(self) -> dict:
        return {"network": self.network.as_json(), "params": dict(self.params)}

    # ----- the raw image the model now takes ----------------------------------------------
    def image(self) -> tuple[int, int]:
        """(height, width) of the raw image."""
        return self.params["src_image_size_h"], self.params["src_image_size_w"]

    def input_desc(self):
        """The model input's description: the raw image, NHWC uint8, sized by its format."""
        from acl_lab.om.container import TensorDesc
        graph_desc = self.network
        n = graph_desc.dims[0]
        h, w = self.image()
        channels, per_pixel = FORMATS[self.params["input_format"]]
        return TensorDesc(graph_desc.name, (n, h, w, channels), C.ACL_UINT8,
                          C.ACL_FORMAT_NHWC, graph_desc.onnx_dtype,
                          nbytes=int(n * h * w * per_pixel))

    # ----- the computation ----------------------------------------------------------------
    def apply(self, raw: np.ndarray, dtype) -> np.ndarray:
        """The network input (NCHW, ``dtype``) AIPP makes of the raw bytes."""
        p = self.params
        graph_dims = self.network.dims
        n = graph_dims[0]
        h, w = self.image()
        fmt = p["input_format"]
        per_image = raw.size // n
        out = np.empty(graph_dims, dtype)
        for i in range(n):
            img = _unpack(fmt, raw[i * per_image:(i + 1) * per_image], h, w,
                          p["rbuv_swap_switch"])
            if p["crop"]:
                y, x = p["load_start_pos_h"], p["load_start_pos_w"]
                ch, cw = self.crop_size(graph_dims)
                img = img[y:y + ch, x:x + cw]
            if p["csc_switch"] and fmt != "YUV400_U8":
                img = self._csc(img, yuv=fmt.startswith("YUV"))
            out[i] = self._normalize_and_pad(img, graph_dims).astype(dtype)
        return out

    def crop_size(self, graph_dims) -> tuple[int, int]:
        """(h, w) of the crop: crop_size, or what the network takes (less the padding)."""
        p = self.params
        h = p["crop_size_h"] or graph_dims[2] - p["top_padding_size"] - p["bottom_padding_size"]
        w = p["crop_size_w"] or graph_dims[3] - p["left_padding_size"] - p["right_padding_size"]
        return h, w

    def _csc(self, img: np.ndarray, yuv: bool) -> np.ndarray:
        p = self.params
        m = np.array([[p[f"matrix_r{r}c{c}"] for c in range(3)] for r in range(3)], np.int64)
        x = img.astype(np.int64)
        if yuv:
            x = x - np.array([p[f"input_bias_{k}"] for k in range(3)], np.int64)
            y = (x @ m.T) >> 8
        else:
            y = ((x @ m.T) >> 8) + np.array([p[f"output_bias_{k}"] for k in range(3)], np.int64)
        return np.clip(y, 0, 255).astype(np.uint8)

    def _normalize_and_pad(self, img: np.ndarray, graph_dims) -> np.ndarray:
        p = self.params
        c = img.shape[2]
        mean = np.array([p[f"mean_chn_{k}"] for k in range(c)], np.float16)
        low = np.array([p[f"min_chn_{k}"] for k in range(c)], np.float16)
        scale = np.array([p[f"var_reci_chn_{k}"] for k in range(c)], np.float16)
        with np.errstate(over="ignore"):   # float16 saturates as the hardware's does
            v = ((img.astype(np.float16) - mean - low) * scale).transpose(2, 0, 1)
        if not p["padding"]:
            return v
        out = np.full((c,) + tuple(graph_dims[2:]), p["padding_value"], np.float16)
        top, left = p["top_padding_size"], p["left_padding_size"]
        out[:, top:top + v.shape[1], left:left + v.shape[2]] = v
        return out


def _unpack(fmt: str, raw: np.ndarray, h: int, w: int, swap: bool) -> np.ndarray:
    """One raw image as an HxWxC uint8 array (YUV420SP: chroma repeated over 2x2)."""
    if fmt == "YUV420SP_U8":
        y = raw[:h * w].reshape(h, w)
        uv = raw[h * w:h * w * 3 // 2].reshape(h // 2, w // 2, 2)
        if swap:                                  # NV21 (VU) given: back to NV12 (UV)
            uv = uv[..., ::-1]
        uv = uv.repeat(2, axis=0).repeat(2, axis=1)
        return np.concatenate([y[..., None], uv], axis=2)
    if fmt in ("RGB888_U8", "XRGB8888_U8"):
        img = raw[:h * w * 3].reshape(h, w, 3) if fmt == "RGB888_U8" else \
            raw[:h * w * 4].reshape(h, w, 4)[..., 1:]        # the X byte first: dropped
        return img[..., ::-1] if swap else img    # BGR given: back to RGB
    return raw[:h * w].reshape(h, w, 1)


# ----- reading aipp.cfg ---------------------------------------------------------------------
def parse(text: str) -> list[dict]:
    """The aipp_op blocks of an aipp.cfg, each a dict of the fields it sets; AippError."""
    tokens, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            if text[pos:].strip() == "":
                break
            raise AippError(_("cannot read the text at {where!r}").format(
                where=text[pos:pos + 20].strip()))
        pos = m.end()
        if m.group(1) is None:
            tokens.append(next(g for g in m.groups()[1:] if g is not None))
    blocks, i = [], 0
    while i < len(tokens):
        if tokens[i:i + 2] != ["aipp_op", "{"]:
            raise AippError(_("expected aipp_op {{ ... }}, found {token!r}").format(
                token=tokens[i]))
        i += 2
        block = {}
        while i < len(tokens) and tokens[i] != "}":
            if i + 2 >= len(tokens) or tokens[i + 1] != ":":
                raise AippError(_("expected field : value, found {token!r}").format(
                    token=tokens[i]))
            key, value = tokens[i], tokens[i + 2]
            if key in block:
                raise AippError(_("field {key} is set twice").format(key=key))
            block[key] = _value(key, value)
            i += 3
        if i >= len(tokens):
            raise AippError(_("aipp_op {{ is not closed with }}"))
        i += 1
        blocks.append(block)
    if not blocks:
        raise AippError(_("the file holds no aipp_op {{ ... }} block"))
    return blocks


def _value(key: str, text: str):
    if key not in DEFAULTS and key not in RESERVED:
        raise AippError(_("unknown field {key}").format(key=key))
    default = DEFAULTS.get(key, RESERVED.get(key))
    try:
        if isinstance(default, bool):
            if text not in ("true", "false"):
                raise ValueError
            return text == "true"
        if isinstance(default, int):
            return int(text)
        if isinstance(default, float):
            v = float(text)
            if not math.isfinite(v):
                raise ValueError
            return v
        return text.strip('"')
    except ValueError:
        raise AippError(_("field {key} cannot be {value}").format(key=key, value=text)) from None


def build(block: dict, inputs: list) -> Aipp:
    """The Aipp of one aipp_op block for the graph ``inputs`` (TensorDescs), checked against
    ATC's rules; AippError says which rule."""
    p = dict(DEFAULTS)
    p.update({k: v for k, v in block.items() if k in DEFAULTS})
    for key, default in RESERVED.items():
        if key in block and block[key] != default and key not in ("related_input_name",
                                                                  "max_src_image_size"):
            raise AippError(_("{key} is reserved in ATC (not supported)").format(key=key))
    if p["aipp_mode"] == "dynamic":
        from acl_lab.om.aipp_dynamic import build_dynamic
        return build_dynamic(block, inputs)
    if p["aipp_mode"] != "static":
        raise AippError(_("aipp_mode is required: static or dynamic"))
    fmt = p["input_format"]
    if fmt not in FORMATS:
        raise AippError(_("input_format must be one of {formats}").format(
            formats=", ".join(FORMATS)))
    rank = p["related_input_rank"]
    if not 0 <= rank < len(inputs):
        raise AippError(_("related_input_rank {rank} names no input (the model has {count})")
                        .format(rank=rank, count=len(inputs)))
    graph = inputs[rank]
    dims = graph.dims
    if len(dims) != 4 or dims[1] != OUTPUT_CHANNELS[fmt]:
        raise AippError(_("input {name} must be NCHW with {channels} channel(s) for {format}; "
                          "it is {dims}").format(name=graph.name, channels=OUTPUT_CHANNELS[fmt],
                                                 format=fmt, dims=list(dims)))
    if graph.onnx_dtype not in (C.ACL_FLOAT, C.ACL_FLOAT16):
        raise AippError(_("input {name} must be float to take AIPP's output").format(
            name=graph.name))
    _ranges(p)
    if not p["src_image_size_h"] and not p["src_image_size_w"] and not (p["crop"] or
                                                                        p["padding"]):
        p["src_image_size_h"], p["src_image_size_w"] = dims[2], dims[3]
    h, w = p["src_image_size_h"], p["src_image_size_w"]
    if not 1 <= h <= 4096 or not 2 <= w <= 4096:
        raise AippError(_("src_image_size_w/h must be given (w 2..4096, h 1..4096)"))
    if fmt == "YUV420SP_U8" and (h % 2 or w % 2 or (p["crop"] and (
            p["load_start_pos_h"] % 2 or p["load_start_pos_w"] % 2))):
        raise AippError(_("YUV420SP_U8 needs even image sizes and even load_start_pos_w/h"))
    aipp = Aipp(graph, p)
    ch, cw = aipp.crop_size(dims) if p["crop"] else (h, w)
    if p["crop"] and (p["load_start_pos_h"] + ch > h or p["load_start_pos_w"] + cw > w):
        raise AippError(_("the crop ({crop_h}x{crop_w} at {y},{x}) leaves the {h}x{w} "
                          "image").format(crop_h=ch, crop_w=cw, y=p["load_start_pos_h"],
                                          x=p["load_start_pos_w"], h=h, w=w))
    pad_h = p["top_padding_size"] + p["bottom_padding_size"] if p["padding"] else 0
    pad_w = p["left_padding_size"] + p["right_padding_size"] if p["padding"] else 0
    if (ch + pad_h, cw + pad_w) != tuple(dims[2:]):
        raise AippError(_("AIPP's output ({out_h}x{out_w} after crop and padding) must be the "
                          "network's input {h}x{w}").format(out_h=ch + pad_h, out_w=cw + pad_w,
                                                           h=dims[2], w=dims[3]))
    return aipp


def _ranges(p: dict) -> None:
    limits = {"load_start_pos_w": (0, 4095), "load_start_pos_h": (0, 4095),
              "crop_size_w": (0, 4096), "crop_size_h": (0, 4096),
              "src_image_size_w": (0, 4096), "src_image_size_h": (0, 4096),
              **{f"{s}_padding_size": (0, 32) for s in ("left", "right", "top", "bottom")},
              **{f"matrix_r{r}c{c}": (-32677, 32676) for r in range(3) for c in range(3)},
              **{f"{b}_bias_{k}": (0, 255) for b in ("input", "output") for k in range(3)},
              **{f"mean_chn_{k}": (0, 255) for k in range(4)},
              **{f"min_chn_{k}": (0, 255) for k in range(4)},
              **{f"var_reci_chn_{k}": (-65504, 65504) for k in range(4)},
              "padding_value": (-65504, 65504), "related_input_rank": (0, 1 << 20)}
    for key, (low, high) in limits.items():
        if not low <= p[key] <= high:
            raise AippError(_("{key}={value} is outside {low}..{high}").format(
                key=key, value=p[key], low=low, high=high))


def from_header(value, network) -> Aipp:
    """One entry of the header's "aipp" list (``network``: its network input's TensorDesc,
    already checked), checked again as atc checked it; ValueError if not."""
    if (not isinstance(value, dict) or set(value) != {"network", "params"}
            or not isinstance(value["params"], dict)
            or set(value["params"]) != set(DEFAULTS)):
        raise ValueError("aipp")
    params = value["params"]
    for key, default in DEFAULTS.items():
        v = params[key]
        if type(v) is not type(default) and not (isinstance(default, float)
                                                   and v.__class__ is int):
            raise ValueError(f"aipp.{key}")
    block = dict(params, related_input_rank=0)
    try:
        aipp = build(block, [network])
    except AippError as e:
        raise ValueError(f"aipp ({e})") from None
    if aipp.params != block:
        raise ValueError("aipp")
    return Aipp(network, params)
