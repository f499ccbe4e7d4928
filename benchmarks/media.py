"""A 1080p JPEG decoded by the simulated JPEGD and resized to 224x224 by VPC (the official
samples' first two DVPP steps), against Pillow doing the same decode and bilinear resize:
the wall-time cost of simulating DVPP on the bytes of simulated memory. The modeled time,
what events measure in a notebook, is printed beside it."""
from __future__ import annotations

import io

import numpy as np

import acl_lab
from acl_lab import constants as C

from . import Row, best_of, fresh_acl, ms

W, H, OUT = 1920, 1080, 224
REPEAT = 5
GOAL = 3.0       # decode + resize at most this many times Pillow's own wall time

NV12 = C.PIXEL_FORMAT_YUV_SEMIPLANAR_420


def _jpeg() -> bytes:
    from PIL import Image
    yy, xx = np.mgrid[0:H, 0:W]
    rgb = np.dstack([xx * 255 // W, yy * 255 // H, (xx ^ yy) & 0xFF]).astype(np.uint8)
    out = io.BytesIO()
    Image.fromarray(rgb).save(out, format="JPEG", quality=90)
    return out.getvalue()


def _desc(m, data, size, width=0, height=0, ws=0, hs=0) -> int:
    d = m.dvpp_create_pic_desc()
    for name, value in (("data", data), ("size", size), ("format", NV12), ("width", width),
                        ("height", height), ("width_stride", ws), ("height_stride", hs)):
        acl_lab.check(getattr(m, f"dvpp_set_pic_desc_{name}")(d, value))
    return d


def run() -> list[Row]:
    from PIL import Image
    data = _jpeg()
    acl = fresh_acl()
    m = acl.media
    stream, ret = acl.rt.create_stream()
    acl_lab.check(ret)
    ch = m.dvpp_create_channel_desc()
    acl_lab.check(m.dvpp_create_channel(ch))
    host = np.frombuffer(data, np.uint8).copy()
    host_ptr = acl.util.numpy_to_ptr(host)
    size, ret = m.dvpp_jpeg_predict_dec_size(host_ptr, len(data), NV12)
    acl_lab.check(ret)
    src, _ = m.dvpp_malloc(len(data))
    acl_lab.check(acl.rt.memcpy(src, len(data), host_ptr, len(data),
                                C.ACL_MEMCPY_HOST_TO_DEVICE))
    yuv, _ = m.dvpp_malloc(size)
    small, _ = m.dvpp_malloc(OUT * OUT * 3 // 2)
    dec = _desc(m, yuv, size)
    res = _desc(m, small, OUT * OUT * 3 // 2, OUT, OUT, OUT, OUT)
    cfg = m.dvpp_create_resize_config()
    start, stop = acl.rt.create_event()[0], acl.rt.create_event()[0]

    def simulated() -> None:
        acl_lab.check(acl.rt.record_event(start, stream))
        acl_lab.check(m.dvpp_jpeg_decode_async(ch, src, len(data), dec, stream))
        acl_lab.check(m.dvpp_vpc_resize_async(ch, dec, res, cfg, stream))
        acl_lab.check(acl.rt.record_event(stop, stream))
        acl_lab.check(acl.rt.synchronize_stream(stream))

    def pillow() -> None:
        Image.open(io.BytesIO(data)).convert("RGB").resize((OUT, OUT), Image.BILINEAR)

    sim_s, ref_s = best_of(simulated, REPEAT), best_of(pillow, REPEAT)
    modeled, ret = acl.rt.event_elapsed_time(start, stop)
    acl_lab.check(ret)
    acl_lab.reset()
    ratio = sim_s / ref_s
    return [Row("JPEGD 1080p + VPC resize to 224x224 (wall)", ms(sim_s),
                f"Pillow decode + resize {ms(ref_s)}", ratio, f"<= {GOAL:.0f}x", ratio <= GOAL),
            Row("JPEGD 1080p + VPC resize (modeled)", f"{modeled:.3f} ms")]
