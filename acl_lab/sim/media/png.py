"""PNGD: PNG pictures decoded into DVPP memory (acldvppPngDecodeAsync) and the host-side
helpers (acldvppPngGetImageInfo, acldvppPngPredictDecSize); on the Atlas inference
products' DVPP (the Atlas 200/300/500's has none: ACL_ERROR_FEATURE_UNSUPPORTED).

Figures from the reference's "PNGD functions and restrictions" (aclpythondevg_01_0405):
pictures of 32x32 to 4096x4096; output RGB888 (width stride the width rounded up to 128,
times 3) or RGBA8888 (times 4), height stride the height rounded up to 16, no alignment of
width and height; PIXEL_FORMAT_UNKNOWN keeps the source's kind (RGB / grey: RGB888, with
alpha: RGBA8888). Pillow (already the JPEG codec) decodes; it is imported on first use.
"""
from __future__ import annotations

import io

import numpy as np

from acl_lab import constants as C
from acl_lab.align import align_up
from acl_lab.i18n import _
from acl_lab.sim.media import dvpp, rules, state
from acl_lab.sim.media.descriptors import PicDesc
from acl_lab.sim.simerror import SimError

MIN_SIDE, MAX_SIDE = 32, 4096
RGBA = C.PIXEL_FORMAT_RGBA_8888
OUTPUTS = frozenset({C.PIXEL_FORMAT_RGB_888, RGBA, C.PIXEL_FORMAT_UNKNOWN})


class NotPng(ValueError):
    """The bytes are not a PNG the decoder can read."""


def _open(data: bytes):
    from PIL import Image
    try:
        return Image.open(io.BytesIO(data), formats=["PNG"])
    except Exception as e:  # noqa: BLE001 - Pillow raises many kinds for broken input
        raise NotPng(str(e) or type(e).__name__) from None


def _alpha(im) -> bool:
    return im.mode in ("RGBA", "LA", "PA") or "transparency" in im.info


def _v200(rt, call: str) -> None:
    if state.of(rt).gen == "v100":
        raise SimError(C.ACL_ERROR_FEATURE_UNSUPPORTED, _(
            "{call}: the DVPP of {soc} (Atlas 200/300/500 inference products) has no PNG "
            "decoder; the Atlas inference products' (310P) has.").format(
                call=call, soc=rt.profile.soc_name))


def _header(rt, data: int, size: int, call: str):
    _v200(rt, call)
    try:
        im = _open(dvpp.host_bytes(rt, data, size, call))
    except NotPng as e:
        raise SimError(C.ACL_ERROR_FAILURE, _(
            "{call}: the {size} bytes at {ptr} are not a PNG ({reason}).").format(
                call=call, size=size, ptr=f"0x{data:x}", reason=e)) from None
    return im


def image_info(rt, data: int, size: int) -> tuple:
    """acldvppPngGetImageInfo: (width, height, components)."""
    im = _header(rt, data, size, "acldvppPngGetImageInfo")
    return im.size[0], im.size[1], len(im.getbands()) + (1 if "transparency" in im.info
                                                          and im.mode != "P" else 0)


def output_format(im, fmt: int) -> int:
    """The format a decode to ``fmt`` writes (UNKNOWN: the source's kind)."""
    if fmt != C.PIXEL_FORMAT_UNKNOWN:
        return fmt
    return RGBA if _alpha(im) else C.PIXEL_FORMAT_RGB_888


def strides(width: int, height: int, fmt: int) -> tuple[int, int]:
    return align_up(width, 128) * (4 if fmt == RGBA else 3), align_up(height, 16)


def _sides(w: int, h: int) -> str | None:
    if MIN_SIDE <= w <= MAX_SIDE and MIN_SIDE <= h <= MAX_SIDE:
        return None
    return _("the PNG is {w}x{h}; PNGD decodes {lo}x{lo} to {hi}x{hi}.").format(
        w=w, h=h, lo=MIN_SIDE, hi=MAX_SIDE)


def predict_dec_size(rt, data: int, size: int, fmt: int) -> int:
    c = "acldvppPngPredictDecSize"
    dvpp._format_in(c, fmt, OUTPUTS, _("output picture"))
    im = _header(rt, data, size, c)
    why = _sides(*im.size)
    if why:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, f"{c}: {why}")
    ws, hs = strides(*im.size, output_format(im, fmt))
    return ws * hs


def decode(rt, channel: int, data: int, size: int, out_desc: int, stream: int) -> None:
    c = "acldvppPngDecodeAsync"
    _v200(rt, c)
    m = state.of(rt)
    ch = dvpp._channel(m, c, channel)
    out = m.descs.get(out_desc, PicDesc, c, "outputDesc")
    dvpp._null(c, data=data)
    if size == 0:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _("{call}: size is 0.").format(call=c))

    def host_checks() -> None:
        dvpp._format_in(c, out.format, OUTPUTS, _("output picture"))

    host_checks()

    def run() -> None:
        dvpp._on_device(c, host_checks)
        dvpp._created(c, ch, "pngd")
        a_in, off = rules.dvpp_memory(rt, data, size, c, _("the PNG data"))
        rt.memory.ram.need(2 * size, c)
        try:
            im = _open(dvpp._read(rt, c, a_in, off, size).tobytes())
        except NotPng as e:
            raise rules.failed(c, _("the data is not a PNG ({reason}).").format(
                reason=e)) from None
        w, h = im.size
        why = _sides(w, h)
        if why:
            raise rules.failed(c, why)
        fmt = output_format(im, out.format)
        ws, hs = strides(w, h, fmt)
        need = ws * hs
        rules.buffer_size(c, PicDesc(size=out.size, format=fmt, width_stride=ws,
                                     height_stride=hs), need, _("the output picture"))
        a_out, o_off = rules.dvpp_memory(rt, out.data, need, c, _("the output picture"))
        channels = 4 if fmt == RGBA else 3
        rt.memory.ram.need(a_out.fresh_bytes(o_off, need) + w * h * 8, c)
        try:
            px = np.asarray(im.convert("RGBA" if channels == 4 else "RGB"), np.uint8)
        except Exception as e:  # noqa: BLE001 - truncated or corrupt data
            raise rules.failed(c, _("the data is not a PNG ({reason}).").format(
                reason=str(e) or type(e).__name__)) from None
        view = a_out.view(o_off, need, c)
        view.reshape(hs, ws)[:h, :w * channels] = px.reshape(h, w * channels)
        out.format, out.width, out.height = fmt, w, h
        out.width_stride, out.height_stride = ws, hs

    dvpp._queue(rt, c, stream, "pngd", max(out.size, 1) // 3, run, (out,), (data, out.data),
                {"data": data, "size": size, "output": out.data})
