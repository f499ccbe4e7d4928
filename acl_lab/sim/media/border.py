"""Make-border on a picture in flight (acldvppVpcBatchCropResizeMakeBorderAsync): the border
an acldvppBorderConfig describes added around a resized crop.

The border types are OpenCV's, as the reference names them: BORDER_CONSTANT fills with
value[] (the Y, U, V components when the pictures are YUV, else R, G, B), BORDER_REPLICATE
repeats the edge pixel, BORDER_REFLECT mirrors including it (numpy's "symmetric"),
BORDER_REFLECT_101 mirrors around it (numpy's "reflect"). A YUV 4:2:0 picture takes even
border widths, so its chroma plane gets half of each.
"""
from __future__ import annotations

import numpy as np

from acl_lab import constants as C
from acl_lab.sim.media.pixels import Frame

MODES = {C.BORDER_REPLICATE: "edge", C.BORDER_REFLECT: "symmetric",
         C.BORDER_REFLECT_101: "reflect"}


def sides(cfg) -> tuple[int, int, int, int]:
    return cfg.top, cfg.bottom, cfg.left, cfg.right


def pad(frame: Frame, cfg, yuv_values: bool) -> Frame:
    """``frame`` with ``cfg``'s border; ``yuv_values``: value[] holds Y, U, V."""
    top, bottom, left, right = sides(cfg)
    if frame.rgb is not None:
        fill = _rgb(cfg.value, yuv_values)
        return Frame(rgb=_pad(frame.rgb, (top, bottom, left, right), cfg.border_type, fill))
    y, u, v = _yuv(cfg.value, yuv_values)
    plane = _pad(frame.y, (top, bottom, left, right), cfg.border_type, np.uint8(y))
    half = (top // 2, bottom // 2, left // 2, right // 2)
    chroma = _pad(frame.uv, half, cfg.border_type, np.array([u, v], np.uint8))
    return Frame(y=plane, uv=chroma)


def _pad(a: np.ndarray, widths, border_type: int, fill) -> np.ndarray:
    t, b, left, r = widths
    spec = ((t, b), (left, r)) + (((0, 0),) if a.ndim == 3 else ())
    mode = MODES.get(border_type)
    if mode is not None:
        if mode == "reflect" and min(a.shape[:2]) < 2:
            mode = "edge"            # nothing to reflect around in a one-pixel picture
        return np.pad(a, spec, mode=mode)
    out = np.empty((a.shape[0] + t + b, a.shape[1] + left + r) + a.shape[2:], np.uint8)
    out[...] = fill
    out[t:t + a.shape[0], left:left + a.shape[1]] = a
    return out


def _u8(values) -> list[int]:
    return [int(min(max(round(v), 0), 255)) for v in values]


def _rgb(value, yuv_values: bool) -> np.ndarray:
    if not yuv_values:
        return np.array(_u8(value[:3]), np.uint8)
    y, u, v = (float(x) for x in value[:3])
    return np.array(_u8((y + 1.402 * (v - 128), y - 0.344136 * (u - 128) - 0.714136 * (v - 128),
                         y + 1.772 * (u - 128))), np.uint8)


def _yuv(value, yuv_values: bool) -> list[int]:
    if yuv_values:
        return _u8(value[:3])
    r, g, b = (float(x) for x in value[:3])
    return _u8((0.299 * r + 0.587 * g + 0.114 * b,
                -0.168736 * r - 0.331264 * g + 0.5 * b + 128,
                0.5 * r - 0.418688 * g - 0.081312 * b + 128))
