"""Helpers the media tests share: JPEGs made with Pillow, DVPP pictures set up the way the
samples set them up, and reading a YUV420SP picture back as RGB."""
from __future__ import annotations

import io

import numpy as np
from PIL import Image

from acl_lab import constants as C
from acl_lab.sim.media import pixels
from simhelpers import read, write

NV12 = C.PIXEL_FORMAT_YUV_SEMIPLANAR_420


def scene(width: int, height: int) -> np.ndarray:
    """A smooth RGB picture with a few edges (gradients and a disc): resizers agree on it."""
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    r = xx * 255 / max(width - 1, 1)
    g = yy * 255 / max(height - 1, 1)
    disc = ((xx - width / 2) ** 2 + (yy - height / 2) ** 2) < (min(width, height) / 4) ** 2
    b = np.where(disc, 220.0, 40.0)
    return np.dstack([r, g, b]).astype(np.uint8)


def jpeg_bytes(rgb: np.ndarray, quality: int = 95) -> bytes:
    out = io.BytesIO()
    Image.fromarray(rgb).save(out, format="JPEG", quality=quality)
    return out.getvalue()


def dvpp_copy(acl, data: bytes) -> int:
    """``data`` in fresh DVPP memory."""
    ptr, ret = acl.media.dvpp_malloc(len(data))
    assert ret == 0, acl.get_recent_err_msg()
    write(acl, ptr, data)
    return ptr


def pic_desc(acl, data: int, size: int, fmt: int = NV12, width: int = 0, height: int = 0,
             width_stride: int = 0, height_stride: int = 0) -> int:
    m = acl.media
    desc = m.dvpp_create_pic_desc()
    assert desc
    for name, value in (("data", data), ("size", size), ("format", fmt), ("width", width),
                        ("height", height), ("width_stride", width_stride),
                        ("height_stride", height_stride)):
        assert getattr(m, f"dvpp_set_pic_desc_{name}")(desc, value) == 0
    return desc


def channel(acl) -> int:
    desc = acl.media.dvpp_create_channel_desc()
    assert acl.media.dvpp_create_channel(desc) == 0, acl.get_recent_err_msg()
    return desc


def picture_rgb(acl, ptr: int, fmt: int, width: int, height: int, ws: int, hs: int):
    """The picture at ``ptr`` (device memory) as RGB."""
    n = ws * hs * 3 // 2 if fmt in (C.PIXEL_FORMAT_YUV_SEMIPLANAR_420,
                                    C.PIXEL_FORMAT_YVU_SEMIPLANAR_420) else ws * hs
    buf = np.frombuffer(read(acl, ptr, n), np.uint8)
    return pixels.to_rgb(pixels.read(buf, fmt, width, height, ws, hs))


def decode(acl, data: bytes, stream: int, ch: int | None = None):
    """JPEGD the way the samples do it: (output ptr, output desc) after a synchronize."""
    m = acl.media
    host = np.frombuffer(data, np.uint8).copy()
    size, ret = m.dvpp_jpeg_predict_dec_size(acl.util.numpy_to_ptr(host), len(data), NV12)
    assert ret == 0, acl.get_recent_err_msg()
    src = dvpp_copy(acl, data)
    out, ret = m.dvpp_malloc(size)
    assert ret == 0
    desc = pic_desc(acl, out, size)
    ch = ch or channel(acl)
    assert m.dvpp_jpeg_decode_async(ch, src, len(data), desc, stream) == 0, \
        acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(stream) == 0, acl.get_recent_err_msg()
    return out, desc
