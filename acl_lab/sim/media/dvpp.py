"""DVPP's image engines on simulated memory: JPEGD, JPEGE and VPC (resize, crop, crop and
paste), plus the host-side JPEG helpers (image info, predicted sizes).

An ``..._async`` call checks on the host what ACL checks there (live descriptors, NULLs,
pixel formats, configs) and queues a task on the stream. The task does the pixel work when
the stream runs (deferred, like aclrtMemcpyAsync: the result appears at the synchronize),
checking first what the engine checks on the device (rules.py) — so it fails or writes the
whole picture, never half. It reads the descriptors when it runs: ACL copies them to the
device with async copies on the same stream (CopyDvppPicDescAsync), so a resize queued
right after a decode sees the width and height the decode wrote.
"""
from __future__ import annotations

import numpy as np

from acl_lab import constants as C
from acl_lab.align import align_up
from acl_lab.i18n import _
from acl_lab.sim.simerror import SimError, TaskFailed
from acl_lab.sim.streams import Task
from acl_lab.sim.media import formats as F
from acl_lab.sim.media import jpeg
from acl_lab.sim.media import pixels
from acl_lab.sim.media import rules
from acl_lab.sim.media import state
from acl_lab.sim.media import timing
from acl_lab.sim.media.descriptors import ChannelDesc, JpegeConfig, PicDesc, ResizeConfig, RoiConfig

#: acldvppJpegPredictEncSize: the picture's bytes + JPEG header + start alignment, rounded
#: up to 2 MiB (ACL image_processor.cpp)
_JPEGE_HEADER, _JPEGE_ROUND = 640 + 128, 2 * 1024 * 1024


# ----- host side ---------------------------------------------------------------------------
def _null(call: str, **pointers: int) -> None:
    for name, p in pointers.items():
        if p == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: {what} is NULL (0).").format(call=call, what=name))


def _format_in(call: str, fmt: int, allowed, what: str) -> None:
    if fmt not in allowed:
        raise SimError(C.ACL_ERROR_FORMAT_NOT_MATCH, _(
            "{call}: the {what} format is {fmt}; this DVPP takes {allowed}. Set it with "
            "acl.media.dvpp_set_pic_desc_format.").format(
                call=call, what=what, fmt=F.name(fmt), allowed=F.names(allowed)))


def _simulated(call: str, fmt: int, allowed=F.SIMULATED) -> None:
    if fmt not in allowed:
        raise SimError(C.ACL_ERROR_FEATURE_UNSUPPORTED, _(
            "{call}: {fmt} is valid for DVPP, but the simulator computes the pixels of {ok} "
            "only (the formats the official samples use). Convert to one of them first.")
            .format(call=call, fmt=F.name(fmt), ok=F.names(allowed)))


def _resize_config(m, call: str, handle: int) -> None:
    cfg = m.descs.get(handle, ResizeConfig, call, "resizeConfig")
    if cfg.interpolation > 4:     # ValidateDvppResizeConfig
        raise SimError(C.ACL_ERROR_FEATURE_UNSUPPORTED, _(
            "{call}: resize interpolation {value} is not supported; use 0..4.").format(
                call=call, value=cfg.interpolation))


def host_bytes(rt, ptr: int, size: int, call: str) -> bytes:
    """The ``size`` bytes at ``ptr`` that the host CPU parses (a JPEG header)."""
    _null(call, data=ptr)
    if size == 0:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _("{call}: size is 0.").format(call=call))
    a = rt.memory.map.resolve(ptr, size, "data", call)
    if a.location == "device" and rt.profile.run_mode == C.ACL_HOST:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: data {ptr} is device memory ({block}), but this call reads the JPEG on "
            "the host CPU; real pyACL would crash reading it. Pass the file's bytes in host "
            "memory (acl.util.bytes_to_ptr or numpy_to_ptr).").format(
                call=call, ptr=f"0x{ptr:x}", block=a.describe()))
    rt.memory.ram.need(2 * size + a.read_scratch(ptr - a.ptr, size), call,
                       _("a copy of the bytes it reads"))
    out = np.empty(size, np.uint8)
    a.read_into(ptr - a.ptr, size, out)
    return out.tobytes()


def _header(rt, data: int, size: int, call: str) -> jpeg.Header:
    try:
        return jpeg.header(host_bytes(rt, data, size, call))
    except jpeg.NotJpeg as e:
        raise SimError(C.ACL_ERROR_FAILURE, _(
            "{call}: the {size} bytes at {ptr} are not a JPEG libjpeg can read ({reason})."
        ).format(call=call, size=size, ptr=f"0x{data:x}", reason=e)) from None


def image_info(rt, data: int, size: int) -> tuple:
    """acldvppJpegGetImageInfoV2: (width, height, components, acldvppJpegFormat)."""
    h = _header(rt, data, size, "acldvppJpegGetImageInfo")
    return h.width, h.height, h.components, h.css


def predict_dec_size(rt, data: int, size: int, fmt: int) -> int:
    c = "acldvppJpegPredictDecSize"
    _null(c, data=data)
    _format_in(c, fmt, F.jpegd_outputs(), _("output picture"))
    h = _header(rt, data, size, c)
    why = _jpeg_sides(h.width, h.height)
    if why:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, f"{c}: {why}")
    ws, hs = F.jpegd_strides(rt.profile.soc, h.width, h.height)
    if fmt in F.YUV420SP:
        return ws * hs * 3 // 2
    per = {C.ACL_JPEG_CSS_444: 3, C.ACL_JPEG_CSS_422: 2, C.ACL_JPEG_CSS_440: 2,
           C.ACL_JPEG_CSS_GRAY: 1}.get(h.css, 3 / 2)
    return int(ws * hs * per)


def _jpeg_sides(w: int, h: int) -> str | None:
    """Why JPEGD cannot decode a w x h JPEG, or None (ACL: jpegdMin/MaxWidth/Height)."""
    lo, hi = jpeg.MIN_SIDE, jpeg.MAX_SIDE
    if lo <= w <= hi and lo <= h <= hi:
        return None
    return _("the JPEG is {w}x{h}; JPEGD decodes {lo}x{lo} to {hi}x{hi}.").format(
        w=w, h=h, lo=lo, hi=hi)


def predict_enc_size(rt, in_desc: int, config: int) -> int:
    c = "acldvppJpegPredictEncSize"
    m = state.of(rt)
    pic = m.descs.get(in_desc, PicDesc, c, "inputDesc")
    m.descs.get(config, JpegeConfig, c, "config")
    _format_in(c, pic.format, F.JPEGE_IN, _("input picture"))
    need = rules.jpege_picture(c, pic)
    return align_up(need + _JPEGE_HEADER, _JPEGE_ROUND)


# ----- queued work ------------------------------------------------------------------------
def _queue(rt, call: str, stream: int, engine: str, pixels_: int, run, outputs, pointers,
           detail: dict) -> None:
    """Queue ``run`` on the stream. ``outputs``: the descriptors whose ret code the engine
    sets (0, or the failure); ``pointers``: the memory it touches (a free waits for it)."""
    s = rt.stream(stream, call)

    def device() -> None:
        try:
            run()
        except TaskFailed:
            for d in outputs:
                d.ret_code = rules.DEVICE_FAILURE
            raise
        for d in outputs:
            d.ret_code = 0

    uses = tuple(a for a in (rt.memory.map.find(p) for p in pointers if p) if a is not None)
    rt.issue(s, Task(engine, timing.duration_us(engine, pixels_), run=device, uses=uses,
                     detail=detail), call)


def _channel(m, call: str, handle: int) -> ChannelDesc:
    return m.descs.get(handle, ChannelDesc, call, "channelDesc")


#: acldvppChannelMode: the engines a channel may use (0: every one)
CHANNEL_MODES = {"vpc": 1, "jpegd": 2, "jpege": 4, "pngd": 8}


def check_channel_mode(rt, call: str, mode: int) -> None:
    """acldvppSetChannelDescMode: not on Ascend 310 (ImageProcessorV100), else a mix of
    DVPP_CHNMODE_VPC (1), _JPEGD (2), _JPEGE (4), _PNGD (8) (ImageProcessorV200)."""
    if state.of(rt).gen == "v100":
        raise SimError(C.ACL_ERROR_FEATURE_UNSUPPORTED, _(
            "{call}: a channel's mode cannot be set on {soc}; its channels serve VPC, JPEGD "
            "and JPEGE alike.").format(call=call, soc=rt.profile.soc_name))
    if not 1 <= mode <= 15:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: mode {mode} is not a mix of DVPP_CHNMODE_VPC (1), DVPP_CHNMODE_JPEGD (2), "
            "DVPP_CHNMODE_JPEGE (4) and DVPP_CHNMODE_PNGD (8).").format(call=call, mode=mode))


def _created(call: str, ch: ChannelDesc, engine: str) -> None:
    if not ch.created:
        raise rules.failed(call, _("the channel was never created: call "
                                   "acl.media.dvpp_create_channel(channel_desc) first."))
    if ch.mode and not ch.mode & CHANNEL_MODES[engine]:
        raise rules.failed(call, _("the channel was created for mode {mode} "
                                   "(dvpp_set_channel_desc_mode), which leaves out "
                                   "{engine}.").format(mode=ch.mode, engine=engine.upper()))


def _on_device(call: str, check):
    """``check()``'s result, as the engine sees it when the task runs: a refusal there is the
    engine's failure (TaskFailed: the stream reports it), not the call's. The host's checks
    run once more this way, since the descriptors they read may have changed since the call."""
    try:
        return check()
    except TaskFailed:
        raise
    except SimError as e:
        raise rules.failed(call, e.message) from None


def _read(rt, call: str, a, offset: int, nbytes: int) -> np.ndarray:
    out = np.empty(nbytes, np.uint8)
    a.read_into(offset, nbytes, out)
    return out


def jpeg_decode(rt, channel: int, data: int, size: int, out_desc: int, stream: int) -> None:
    c = "acldvppJpegDecodeAsync"
    m = state.of(rt)
    ch = _channel(m, c, channel)
    out = m.descs.get(out_desc, PicDesc, c, "outputDesc")
    _null(c, data=data)
    if size == 0:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _("{call}: size is 0.").format(call=c))

    def host_checks() -> None:
        _format_in(c, out.format, F.jpegd_outputs(), _("output picture"))
        _simulated(c, out.format, F.YUV420SP)

    host_checks()

    def run() -> None:
        _on_device(c, host_checks)
        _created(c, ch, "jpegd")
        a_in, off = rules.dvpp_memory(rt, data, size, c, _("the JPEG data"))
        rt.memory.ram.need(2 * size, c)
        raw = _read(rt, c, a_in, off, size).tobytes()
        try:
            h = jpeg.header(raw)
        except jpeg.NotJpeg as e:
            raise rules.failed(c, _("the data is not a JPEG JPEGD can read ({reason}).")
                               .format(reason=e)) from None
        why = _jpeg_sides(h.width, h.height)
        if why:
            raise rules.failed(c, why)
        ws, hs = F.jpegd_strides(rt.profile.soc, h.width, h.height)
        need = ws * hs * 3 // 2
        rules.buffer_size(c, PicDesc(size=out.size, format=out.format, width_stride=ws,
                                     height_stride=hs), need, _("the output picture"))
        a_out, o_off = rules.dvpp_memory(rt, out.data, need, c, _("the output picture"))
        rt.memory.ram.need(a_out.fresh_bytes(o_off, need)
                           + h.width * h.height * jpeg.DECODE_BYTES_PER_PIXEL, c)
        try:
            frame = jpeg.decode(raw)
        except jpeg.NotJpeg as e:
            raise rules.failed(c, _("the data is not a JPEG JPEGD can read ({reason}).")
                               .format(reason=e)) from None
        pixels.write(a_out.view(o_off, need, c), out.format, ws, hs, frame)
        out.width, out.height = frame.shape[1], frame.shape[0]
        out.width_stride, out.height_stride = ws, hs

    _queue(rt, c, stream, "jpegd", out.size * 2 // 3, run, (out,), (data, out.data),
           {"data": data, "size": size, "output": out.data})


def vpc(rt, call: str, channel: int, in_desc: int, out_desc: int, crop: int | None,
        paste: int | None, resize_config: int | None, stream: int) -> None:
    """acldvppVpcResizeAsync (no crop, no paste), acldvppVpcCropAsync (crop) and
    acldvppVpcCropAndPasteAsync (both), acldvppVpcCropResizeAsync and
    acldvppVpcCropResizePasteAsync (with a resize config): crop, resize to the paste area,
    write it there."""
    m = state.of(rt)
    ch = _channel(m, call, channel)
    inp = m.descs.get(in_desc, PicDesc, call, "inputDesc")
    out = m.descs.get(out_desc, PicDesc, call, "outputDesc")
    crop_roi = m.descs.get(crop, RoiConfig, call, "cropArea") if crop is not None else None
    paste_roi = m.descs.get(paste, RoiConfig, call, "pasteArea") if paste is not None else None
    if resize_config is not None:
        _resize_config(m, call, resize_config)

    def host_checks() -> None:
        vpc_formats(call, m.gen, inp, out)

    host_checks()

    def run() -> None:
        _on_device(call, host_checks)
        _created(call, ch, "vpc")
        vpc_picture_work(rt, call, inp, out, crop_roi, paste_roi)

    _queue(rt, call, stream, "vpc", max(inp.width * inp.height, out.width * out.height), run,
           (out,), (inp.data, out.data), {"input": inp.data, "output": out.data})


def vpc_formats(call: str, gen: str, inp: PicDesc, out: PicDesc) -> None:
    """What ACL checks of a VPC picture pair on the host: formats VPC takes and the
    simulator computes."""
    _format_in(call, inp.format, F.vpc_inputs(gen), _("input picture"))
    _format_in(call, out.format, F.vpc_outputs(gen), _("output picture"))
    _simulated(call, inp.format)
    _simulated(call, out.format)


def vpc_picture_work(rt, call: str, inp: PicDesc, out: PicDesc, crop_roi, paste_roi,
                     finish=None) -> None:
    """One picture of VPC on the device: the engine's rules (rules.py), then crop, resize to
    the paste area and write. ``finish(part, dst)`` may change the resized part and where it
    goes (make-border)."""
    in_bytes = rules.vpc_picture(call, inp, _("the input picture"))
    out_bytes = rules.vpc_picture(call, out, _("the output picture"))
    a_in, i_off = rules.dvpp_memory(rt, inp.data, in_bytes, call, _("the input picture"))
    a_out, o_off = rules.dvpp_memory(rt, out.data, out_bytes, call, _("the output picture"))
    whole_in = RoiConfig(0, F.even(inp.width) - 1, 0, F.even(inp.height) - 1)
    whole_out = RoiConfig(0, F.even(out.width) - 1, 0, F.even(out.height) - 1)
    src = rules.area(call, crop_roi or whole_in, inp, _("crop"), paste=False)
    dst = rules.area(call, paste_roi or whole_out, out, _("paste"), paste=True)
    if finish is not None:
        dst = finish(None, dst)
    rules.scale(call, src, dst)
    rt.memory.ram.need(in_bytes + a_out.fresh_bytes(o_off, out_bytes)
                       + pixels.scratch_bytes(max(src[2], dst[2]), max(src[3], dst[3])), call)
    frame = pixels.read(_read(rt, call, a_in, i_off, in_bytes), inp.format, inp.width,
                        inp.height, inp.width_stride, inp.height_stride)
    part = pixels.resize(pixels.crop(frame, *src), dst[2], dst[3])
    if finish is not None:
        part, dst = finish(part, dst)
    pixels.write(a_out.view(o_off, out_bytes, call), out.format, out.width_stride,
                 out.height_stride, part, left=dst[0], top=dst[1])


def jpeg_encode(rt, channel: int, in_desc: int, data: int, size_ptr: int, config: int,
                stream: int) -> None:
    c = "acldvppJpegEncodeAsync"
    m = state.of(rt)
    ch = _channel(m, c, channel)
    inp = m.descs.get(in_desc, PicDesc, c, "inputDesc")
    cfg = m.descs.get(config, JpegeConfig, c, "config")
    _null(c, data=data, size=size_ptr)

    def host_checks() -> None:
        _format_in(c, inp.format, F.JPEGE_IN, _("input picture"))
        _simulated(c, inp.format, F.YUV420SP)
        if cfg.level > 100:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: the JPEG encode level is {level}; use 0..100.").format(
                    call=c, level=cfg.level))

    host_checks()

    def run() -> None:
        _on_device(c, host_checks)
        _created(c, ch, "jpege")
        in_bytes, slot = _on_device(c, lambda: (rules.jpege_picture(c, inp),
                                                rt.memory.map.resolve(size_ptr, 4, "size", c)))
        a_in, i_off = rules.dvpp_memory(rt, inp.data, in_bytes, c, _("the input picture"))
        rt.memory.ram.need(in_bytes + pixels.scratch_bytes(inp.width, inp.height), c)
        frame = pixels.read(_read(rt, c, a_in, i_off, in_bytes), inp.format, inp.width,
                            inp.height, inp.width_stride, inp.height_stride)
        capacity = int(_read(rt, c, slot, size_ptr - slot.ptr, 4).view("<u4")[0])
        encoded = jpeg.encode(frame, cfg.level)
        if len(encoded) > capacity:
            raise rules.failed(c, _("the encoded JPEG takes {n} bytes, but *size says the "
                                    "output buffer holds {cap}. Size the buffer with "
                                    "acl.media.dvpp_jpeg_predict_enc_size.").format(
                                        n=len(encoded), cap=capacity))
        a_out, o_off = rules.dvpp_memory(rt, data, len(encoded), c, _("the output buffer"))
        rt.memory.ram.need(a_out.fresh_bytes(o_off, len(encoded)), c)
        a_out.view(o_off, len(encoded), c)[:] = np.frombuffer(encoded, np.uint8)
        slot.write(size_ptr - slot.ptr, 4,
                   lambda v: v.__setitem__(slice(None), np.array([len(encoded)], "<u4")
                                           .view(np.uint8)), c)

    _queue(rt, c, stream, "jpege", inp.width * inp.height, run, (), (inp.data, data, size_ptr),
           {"input": inp.data, "output": data})
