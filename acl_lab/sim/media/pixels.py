"""The pixel work of DVPP on numpy arrays: read a picture out of its bytes (strides and
all), convert between YUV 4:2:0 and RGB, resize, write it back into padded rows.

A picture in flight is a ``Frame``: either YUV 4:2:0 (a full-size Y plane and a
half-size interleaved U,V plane) or packed RGB. Colour conversion is BT.601 full range
(the JFIF equations, what JPEG uses). Resizing is bilinear with pixel centres at +0.5 and
no anti-alias filter: OpenCV's INTER_LINEAR, which is what acldvppSetResizeConfigInterpolation
calls "1: bilinear (opencv)"; the simulator uses it for every interpolation value.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from acl_lab.sim.media.formats import BGR, NV21, RGB, YUV400


@dataclass
class Frame:
    """A picture: ``y`` (h, w) and ``uv`` (h/2, w/2, 2: U then V), or ``rgb`` (h, w, 3)."""
    y: np.ndarray | None = None
    uv: np.ndarray | None = None
    rgb: np.ndarray | None = None

    @property
    def shape(self) -> tuple[int, int]:
        return (self.y if self.rgb is None else self.rgb).shape[:2]


def rows(buf: np.ndarray, offset: int, count: int, stride: int, width: int) -> np.ndarray:
    """``count`` rows of ``width`` bytes, ``stride`` apart, from ``offset``: a view."""
    return buf[offset:offset + count * stride].reshape(count, stride)[:, :width]


def read(buf: np.ndarray, fmt: int, width: int, height: int, ws: int, hs: int) -> Frame:
    """The picture ``buf`` holds (``buf``: its bytes from the start of the picture)."""
    if fmt in (RGB, BGR):
        px = rows(buf, 0, height, ws, width * 3).reshape(height, width, 3)
        return Frame(rgb=px[..., ::-1].copy() if fmt == BGR else px.copy())
    y = rows(buf, 0, height, ws, width).copy()
    if fmt == YUV400:
        return Frame(y=y, uv=np.full((height // 2, width // 2, 2), 128, np.uint8))
    half = width // 2            # an odd last column has no chroma pair of its own
    uv = rows(buf, ws * hs, height // 2, ws, half * 2).reshape(height // 2, half, 2)
    return Frame(y=y, uv=(uv[..., ::-1] if fmt == NV21 else uv).copy())


def write(buf: np.ndarray, fmt: int, ws: int, hs: int, frame: Frame, left: int = 0,
          top: int = 0) -> None:
    """Write ``frame`` into the picture ``buf`` holds at (``left``, ``top``); bytes outside
    it (row padding, the rest of the picture) keep what they held."""
    h, w = frame.shape
    if fmt in (RGB, BGR):
        px = to_rgb(frame)
        rows(buf, top * ws + left * 3, h, ws, w * 3)[:] = \
            (px[..., ::-1] if fmt == BGR else px).reshape(h, w * 3)
        return
    f = to_yuv420(frame)
    rows(buf, top * ws + left, h, ws, w)[:] = f.y
    if fmt == YUV400:
        return
    uv = f.uv[..., ::-1] if fmt == NV21 else f.uv
    rows(buf, ws * hs + (top // 2) * ws + left, h // 2, ws, w)[:] = uv.reshape(h // 2, w)


def to_rgb(frame: Frame) -> np.ndarray:
    if frame.rgb is not None:
        return frame.rgb
    h, w = frame.y.shape
    uv = np.repeat(np.repeat(frame.uv, 2, axis=0), 2, axis=1)[:h, :w].astype(np.float32) - 128
    y = frame.y.astype(np.float32)
    r = y + 1.402 * uv[..., 1]
    g = y - 0.344136 * uv[..., 0] - 0.714136 * uv[..., 1]
    b = y + 1.772 * uv[..., 0]
    return _u8(np.stack([r, g, b], axis=-1))


def to_yuv420(frame: Frame) -> Frame:
    if frame.rgb is None:
        return frame
    rgb = frame.rgb.astype(np.float32)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    y = 0.299 * r + 0.587 * g + 0.114 * b
    u = -0.168736 * r - 0.331264 * g + 0.5 * b + 128
    v = 0.5 * r - 0.418688 * g - 0.081312 * b + 128
    return Frame(y=_u8(y), uv=_u8(np.stack([half(u), half(v)], axis=-1)))


def half(plane: np.ndarray) -> np.ndarray:
    """Each 2x2 block averaged (chroma subsampling to 4:2:0); uint8 stays in 16 bits."""
    h, w = plane.shape[0] // 2 * 2, plane.shape[1] // 2 * 2
    p = plane[:h, :w]
    if p.dtype == np.uint8:
        s = p[0::2, 0::2].astype(np.uint16)
        s += p[1::2, 0::2]
        s += p[0::2, 1::2]
        s += p[1::2, 1::2]
        s += 2
        return (s >> 2).astype(np.uint8)
    return (p[0::2, 0::2] + p[1::2, 0::2] + p[0::2, 1::2] + p[1::2, 1::2]) / 4


def _u8(a: np.ndarray) -> np.ndarray:
    return np.clip(np.rint(a), 0, 255).astype(np.uint8)


def crop(frame: Frame, left: int, top: int, width: int, height: int) -> Frame:
    """The part of ``frame`` at (left, top) of width x height (even edges for 4:2:0)."""
    if frame.rgb is not None:
        return Frame(rgb=frame.rgb[top:top + height, left:left + width])
    return Frame(y=frame.y[top:top + height, left:left + width],
                 uv=frame.uv[top // 2:(top + height) // 2, left // 2:(left + width) // 2])


def resize(frame: Frame, width: int, height: int) -> Frame:
    """``frame`` resized to width x height, bilinear (see the module docstring)."""
    if frame.rgb is not None:
        return Frame(rgb=_bilinear(frame.rgb, height, width))
    return Frame(y=_bilinear(frame.y, height, width),
                 uv=_bilinear(frame.uv, height // 2, width // 2))


def _bilinear(plane: np.ndarray, out_h: int, out_w: int) -> np.ndarray:
    in_h, in_w = plane.shape[:2]
    if (in_h, in_w) == (out_h, out_w):
        return plane.copy()
    y0, y1, fy = _taps(in_h, out_h)
    x0, x1, fx = _taps(in_w, out_w)
    p = plane.astype(np.float32)
    if p.ndim == 3:
        fy, fx = fy[:, None, None], fx[None, :, None]
    else:
        fy, fx = fy[:, None], fx[None, :]
    top = p[y0][:, x0] * (1 - fx) + p[y0][:, x1] * fx
    bottom = p[y1][:, x0] * (1 - fx) + p[y1][:, x1] * fx
    return _u8(top * (1 - fy) + bottom * fy)


def _taps(n_in: int, n_out: int):
    """Source indices either side of each output pixel centre and the weight of the second."""
    pos = (np.arange(n_out, dtype=np.float32) + 0.5) * (n_in / n_out) - 0.5
    pos = np.clip(pos, 0, n_in - 1)
    i0 = np.floor(pos).astype(np.intp)
    i1 = np.minimum(i0 + 1, n_in - 1)
    return i0, i1, (pos - i0).astype(np.float32)


def scratch_bytes(width: int, height: int) -> int:
    """Host RAM the pixel work on a width x height picture needs for a moment (a float
    copy of a plane and the bilinear temporaries, per colour channel, 12 bytes a pixel
    in all): what a task asks the budget for before it runs."""
    return width * height * 12
