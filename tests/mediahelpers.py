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


# ----- H.264 streams that declare other picture sides (a crafted sequence parameter set) -----
def _ue(value: int) -> str:
    bits = bin(value + 1)[2:]
    return "0" * (len(bits) - 1) + bits


def _escaped(rbsp: bytes) -> bytes:
    out, zeros = bytearray(), 0
    for b in rbsp:
        if zeros >= 2 and b <= 3:
            out.append(3)
            zeros = 0
        out.append(b)
        zeros = zeros + 1 if b == 0 else 0
    return bytes(out)


def _resized_sps(nal: bytes, width: int, height: int) -> bytes:
    """A baseline-profile SPS NAL unit (libx264's, no emulation bytes in its fields) whose
    pic_width_in_mbs / pic_height_in_map_units say ``width`` x ``height``."""
    bits = "".join(f"{b:08b}" for b in nal[1:])
    pos = 24                                         # profile, constraints, level

    def ue() -> int:
        nonlocal pos
        zeros = bits.index("1", pos) - pos
        value = int(bits[pos + zeros:pos + 2 * zeros + 1], 2) - 1
        pos += 2 * zeros + 1
        return value
    assert nal[1] == 66, "a baseline profile SPS"
    ue(), ue()                                       # sps id, log2_max_frame_num_minus4
    if ue() == 0:                                    # pic_order_cnt_type
        ue()
    ue()                                             # max_num_ref_frames
    pos += 1                                         # gaps_in_frame_num_allowed_flag
    start = pos
    ue(), ue()
    body = bits.rstrip("0")[:-1]                     # the fields, without the stop bit
    body = body[:start] + _ue(width // 16 - 1) + _ue(height // 16 - 1) + body[pos:] + "1"
    body += "0" * (-len(body) % 8)
    return nal[:1] + _escaped(bytes(int(body[i:i + 8], 2) for i in range(0, len(body), 8)))


def h264_declaring(width: int, height: int, frames: int = 1) -> bytes:
    """A real 64 x 64 H.264 stream (libx264, baseline) whose SPS says its pictures are
    ``width`` x ``height``: a decoder allocates for the declared sides."""
    import av
    from fractions import Fraction
    enc = av.CodecContext.create("libx264", "w")
    enc.width = enc.height = 64
    enc.pix_fmt, enc.time_base = "yuv420p", Fraction(1, 25)
    enc.options = {"tune": "zerolatency", "preset": "ultrafast", "profile": "baseline"}
    data = b""
    for i in range(frames):
        frame = av.VideoFrame.from_ndarray(np.full((96, 64), 100 + i, np.uint8),
                                           format="yuv420p")
        frame.pts = i
        data += b"".join(bytes(p) for p in enc.encode(frame))
    data += b"".join(bytes(p) for p in enc.encode(None))
    out = []
    for nal in data.split(b"\x00\x00\x01")[1:]:
        nal = nal.rstrip(b"\x00")
        out.append(_resized_sps(nal, width, height) if nal[0] & 0x1F == 7 else nal)
    return b"".join(b"\x00\x00\x00\x01" + n for n in out)
