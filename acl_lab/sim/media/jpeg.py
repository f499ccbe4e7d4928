"""JPEG in and out with Pillow: read a header, decode to YUV 4:2:0, encode from it.

Pillow is imported when a JPEG is first touched (not at ``import acl_lab``). Decoding asks
libjpeg for YCbCr directly (``Image.draft("YCbCr")``), so the Y plane is the file's own and
only the chroma is averaged down to 4:2:0; an EXIF orientation of 5..8 swaps width and
height as JPEGD does (ACL's ``JudgeNeedOrientation``), and every orientation is applied.
"""
from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np

from acl_lab import constants as C
from acl_lab.sim.media.pixels import Frame, half, to_rgb

#: what JPEGD and JPEGE take (ACL image_processor.cpp: jpegd/jpege Min/Max Width/Height)
MIN_SIDE, MAX_SIDE = 32, 8192
_ORIENTATION = 0x0112


@dataclass(frozen=True)
class Header:
    width: int
    height: int
    components: int
    css: int            # acldvppJpegFormat


class NotJpeg(ValueError):
    """The bytes are not a JPEG libjpeg can read the header of."""


def _open(data: bytes):
    from PIL import Image
    try:
        im = Image.open(io.BytesIO(data), formats=["JPEG"])
    except Exception as e:  # noqa: BLE001 - Pillow raises many kinds for broken input
        raise NotJpeg(str(e) or type(e).__name__) from None
    return im


def header(data: bytes) -> Header:
    im = _open(data)
    w, h = im.size
    try:
        orientation = im.getexif().get(_ORIENTATION, 1)
    except Exception:  # noqa: BLE001 - a broken EXIF block: ACL ignores it too
        orientation = 1
    if 5 <= orientation <= 8:
        w, h = h, w
    return Header(w, h, len(im.getbands()), _css(im))


def _css(im) -> int:
    """acldvppJpegFormat from the sampling factors (ACL's GetImageFormat)."""
    layers = getattr(im, "layer", None) or []
    if im.mode == "L" or len(layers) == 1:
        return C.ACL_JPEG_CSS_GRAY
    if len(layers) != 3 or im.mode not in ("RGB", "YCbCr"):
        return C.ACL_JPEG_CSS_UNKNOWN
    (_, yh, yv, _), (_, uh, uv, _), (_, vh, vv, _) = layers
    if (uh, uv) != (vh, vv):
        return C.ACL_JPEG_CSS_UNKNOWN
    return {(2, 2): C.ACL_JPEG_CSS_420, (2, 1): C.ACL_JPEG_CSS_422,
            (1, 1): C.ACL_JPEG_CSS_444, (1, 2): C.ACL_JPEG_CSS_440,
            (4, 1): C.ACL_JPEG_CSS_411}.get((yh // uh, yv // uv), C.ACL_JPEG_CSS_UNKNOWN)


def decode(data: bytes) -> Frame:
    """The picture as YUV 4:2:0, its sides rounded down to even (JPEGD's YUV420SP output)."""
    from PIL import ImageOps
    im = _open(data)
    if im.mode not in ("L", "RGB", "YCbCr"):
        raise NotJpeg(f"colour space {im.mode} (JPEGD decodes YUV / grey JPEGs only)")
    if im.mode == "RGB":
        im.draft("YCbCr", im.size)
    try:
        im.load()
        im = ImageOps.exif_transpose(im)
    except Exception as e:  # noqa: BLE001 - truncated or corrupt data
        raise NotJpeg(str(e) or type(e).__name__) from None
    px = np.asarray(im)
    h, w = px.shape[0] & ~1, px.shape[1] & ~1
    if px.ndim == 2:
        return Frame(y=px[:h, :w].copy(), uv=np.full((h // 2, w // 2, 2), 128, np.uint8))
    if im.mode == "RGB":       # draft could not keep YCbCr: convert ourselves
        from acl_lab.sim.media.pixels import to_yuv420
        return to_yuv420(Frame(rgb=px[:h, :w]))
    uv = np.stack([half(px[:h, :w, 1]), half(px[:h, :w, 2])], axis=-1)
    return Frame(y=px[:h, :w, 0].copy(), uv=uv)


#: host RAM a decode needs for a moment, per pixel: Pillow's YCbCr picture, the Y copy
#: and the chroma sums
DECODE_BYTES_PER_PIXEL = 6


def encode(frame: Frame, level: int) -> bytes:
    """A baseline 4:2:0 JPEG of ``frame``; ``level`` as acldvppSetJpegeConfigLevel (1..100,
    higher is better; 0 encodes like 100, as the reference says)."""
    from PIL import Image
    quality = 100 if level == 0 else max(1, min(level, 100))
    h, w = frame.shape
    if frame.rgb is None:
        uv = np.repeat(np.repeat(frame.uv, 2, axis=0), 2, axis=1)[:h, :w]
        im = Image.fromarray(np.dstack([frame.y, uv]), mode="YCbCr")
    else:
        im = Image.fromarray(to_rgb(frame), mode="RGB")
    out = io.BytesIO()
    im.save(out, format="JPEG", quality=quality, subsampling=2)
    return out.getvalue()
