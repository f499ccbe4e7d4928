"""VDEC and VENC: H.264 / H.265 to YUV420SP and back, delivered through the callback
thread the channel names, as CANN does it.

aclvdecCreateChannel / aclvencCreateChannel create a stream of their own and subscribe
the channel's thread to it (aclrtCreateStream + aclrtSubscribeReport inside, as the
reference says); each sent frame becomes a decode (encode) task and a host callback on
that stream (aclrtLaunchCallback inside). The engine runs on its own, so its stream runs
at once: the callback reaches the thread's next acl.rt.process_report without anyone
synchronizing. The codecs are FFmpeg's, through PyAV (``pip install acl_lab[media]``);
without PyAV creating a channel fails with ACL_ERROR_FEATURE_UNSUPPORTED and says so.
Frames go in and come out one for one (decoding with low delay, encoding with x264's
zero-latency tuning); a frame the codec holds back is delivered at end of stream.

FFmpeg's pictures are host RAM, so they count in the budget. Before a frame reaches the
decoder, the sequence parameter sets it carries are read (bitstream.py): a picture larger
than VDEC decodes on the device, or a parameter set that cannot be read, fails that frame
as the engine would (its output's ret code, nothing decoded); the decoder's pictures for
the sides declared (``decoder_bytes``) are asked of the budget first and held while the
channel lives, so a stream declaring huge pictures raises SimulatorLimit before FFmpeg
allocates anything, and the channel and the device stay as they were. FFmpeg itself is
told the largest picture (``max_pixels``), in case a parameter set escaped the reader.
"""
from __future__ import annotations

import contextlib
from collections import deque
from fractions import Fraction

import numpy as np

from acl_lab import constants as C
from acl_lab.align import align_up
from acl_lab.i18n import _
from acl_lab.errors import SimulatorLimit
from acl_lab.sim.simerror import SimError, TaskFailed
from acl_lab.sim.streams import Task
from acl_lab.sim.media import bitstream
from acl_lab.sim.media import formats as F
from acl_lab.sim.media import pixels
from acl_lab.sim.media import rules
from acl_lab.sim.media import state
from acl_lab.sim.media import timing
from acl_lab.sim.media.descriptors import FrameConfig, PicDesc, StreamDesc, VdecChannelDesc, VencChannelDesc

ENTYPES = (C.H265_MAIN_LEVEL, C.H264_BASELINE_LEVEL, C.H264_MAIN_LEVEL, C.H264_HIGH_LEVEL)
#: VENC's picture sides on the Atlas 200/300/500 inference products (128x128 .. 1920x1920)
VENC_MIN, VENC_MAX = 128, 1920
#: host RAM FFmpeg's H.264 decoder holds per pixel of each picture it keeps: the planes and
#: its per-block tables (measured: a 4096 x 4096 picture holds 41 MiB, 2.46 B per pixel)
DECODER_BYTES_PER_PIXEL = 2.5
#: pictures it keeps beyond the references: the one being decoded and one for output
DECODER_SPARE_PICTURES = 2
#: host RAM a decoded picture takes on its way out, per pixel (NV12 copy, then its array)
OUTPUT_BYTES_PER_PIXEL = 3


def decoder_bytes(sps: bitstream.Sps) -> int:
    """Host RAM FFmpeg's decoder holds for a stream of this parameter set."""
    pictures = sps.refs + DECODER_SPARE_PICTURES
    per_pixel = DECODER_BYTES_PER_PIXEL * (2 if sps.bit_depth > 8 else 1)
    return int(pictures * sps.width * sps.height * per_pixel)


def _av(call: str):
    try:
        import av
    except ImportError:
        raise SimError(C.ACL_ERROR_FEATURE_UNSUPPORTED, _(
            "{call}: video decoding and encoding in the simulator use FFmpeg through PyAV, "
            "which is not installed. Install it with: pip install 'acl_lab[media]' (or pip "
            "install av), then restart the kernel. JPEG and VPC calls work without it.")
            .format(call=call)) from None
    return av


@contextlib.contextmanager
def _codec_errors(call: str, av):
    """An error of FFmpeg (through PyAV) while making or feeding a codec becomes the call's
    failure code with FFmpeg's own words, never a Python exception for the program."""
    try:
        yield
    except (av.error.FFmpegError, ValueError, TypeError) as e:
        raise SimError(C.ACL_ERROR_INTERNAL_ERROR, _(
            "{call}: the simulator's video library (FFmpeg through PyAV) failed: {error}. "
            "Nothing was sent; check the channel description (format, sides).").format(
                call=call, error=f"{type(e).__name__}: {e}"[:300])) from None


def _channel_rules(call: str, d, fmt_name: str, fmt: int) -> None:
    if d.channel is not None:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: this channel description already has a live channel; destroy it "
            "first.").format(call=call))
    if d.callback is None or d.thread_id == 0:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: set the callback and the callback thread first (…_set_channel_desc_"
            "callback and …_thread_id with the id acl.util.start_thread returned).")
            .format(call=call))
    if d.entype not in ENTYPES:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: entype {entype} is not a video format; use H265_MAIN_LEVEL (0), "
            "H264_BASELINE_LEVEL (1), H264_MAIN_LEVEL (2) or H264_HIGH_LEVEL (3).").format(
                call=call, entype=d.entype))
    if fmt not in F.YUV420SP:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: the {what} format is {fmt}; use PIXEL_FORMAT_YUV_SEMIPLANAR_420 (1) or "
            "PIXEL_FORMAT_YVU_SEMIPLANAR_420 (2).").format(call=call, what=fmt_name,
                                                           fmt=F.name(fmt)))


def _open_stream(rt, call: str, thread: int) -> int:
    """The channel's own stream, its callbacks going to ``thread``."""
    stream = rt.create_stream(call=call)
    try:
        rt.callbacks.subscribe(thread, stream)
    except BaseException:
        rt.destroy_stream(stream)
        raise
    return stream


def _close_stream(rt, thread: int, stream: int) -> None:
    """Wait until the thread has taken every callback, then drop the stream."""
    rt.callbacks.unsubscribe(thread, stream)
    rt.destroy_stream(stream)


def _deliver(rt, call: str, stream: int, engine: str, pixels_: int, callback, args: tuple,
             user_data, after=None) -> None:
    """Queue the engine's work and the host callback on the channel's stream and run them:
    the thread gets ``callback(*args, user_data)`` at its next process_report."""
    s = rt.stream(stream, call)
    rt.issue(s, Task(engine, timing.duration_us(engine, pixels_)), call)

    def run(data) -> None:
        try:
            callback(*args, data)
        finally:
            if after is not None:
                with rt.lock:
                    after()
    rt.callbacks.launch(run, user_data, C.ACL_CALLBACK_NO_BLOCK, stream)
    rt.sched.run_until(s)


# ----- VDEC ------------------------------------------------------------------------------
class VdecChannel:
    def __init__(self, codec, stream: int, hevc: bool):
        self.codec, self.stream, self.hevc = codec, stream, hevc
        self.pending: deque = deque()     # sends waiting for their picture
        self.held = 0                     # host RAM the decoder holds (counted in ram.held)
        self.picture = 0                  # pixels of the largest picture declared so far

    def decode(self, av, data: bytes | None) -> list:
        """Pictures the codec gives back for one access unit (None: the rest, at the end)."""
        try:
            if data is None:
                return list(self.codec.decode(None))
            return list(self.codec.decode(av.Packet(data)))
        except (av.error.FFmpegError, ValueError):      # not a stream of this codec
            return []


def vdec_create(rt, handle: int) -> None:
    c = "aclvdecCreateChannel"
    d = state.of(rt).descs.get(handle, VdecChannelDesc, c, "channelDesc")
    _channel_rules(c, d, _("output picture"), d.out_pic_format)
    av = _av(c)
    hevc = d.entype == C.H265_MAIN_LEVEL
    w, h = rules.vdec_max_sides(rt.profile.soc_name, hevc)
    with _codec_errors(c, av):
        codec = av.CodecContext.create("hevc" if hevc else "h264", "r")
        codec.thread_count = 1               # no frame threading: a picture per access unit
        codec.flags |= getattr(av.codec.context.Flags, "low_delay", 0)
        codec.options = {"max_pixels": str(w * h)}
    d.channel = VdecChannel(codec, _open_stream(rt, c, d.thread_id), hevc)


def _decodable(rt, call: str, d: VdecChannelDesc, ch: VdecChannel, data: bytes) -> str:
    """Why the engine cannot decode access unit ``data`` ("" if it can). Asks the budget
    for what the decoder will hold for it and for the pictures on their way out
    (SimulatorLimit before anything changes), and holds the first for the channel."""
    try:
        declared = bitstream.declared(data, ch.hevc)
    except bitstream.Unreadable as e:
        return _("its sequence parameter set cannot be read ({reason})").format(reason=e)
    max_w, max_h = rules.vdec_max_sides(rt.profile.soc_name, ch.hevc)
    for sps in declared:
        if sps.width > max_w or sps.height > max_h:
            return _("it declares {w}x{h} pictures; VDEC on {soc} decodes at most "
                     "{max_w}x{max_h}").format(w=sps.width, h=sps.height,
                                               soc=rt.profile.soc_name, max_w=max_w,
                                               max_h=max_h)
    grow = max([decoder_bytes(sps) - ch.held for sps in declared] + [0])
    picture = max([ch.picture] + [sps.width * sps.height for sps in declared])
    rt.memory.ram.need(grow + OUTPUT_BYTES_PER_PIXEL * picture, call,
                       _("the video decoder's pictures"))
    rt.memory.ram.held += grow
    ch.held += grow
    ch.picture = picture
    return ""


def vdec_send(rt, handle: int, in_desc: int, out_desc: int, config: int, user_data,
              c: str = "aclvdecSendFrame") -> None:
    """aclvdecSendFrame; aclvdecSendSkippedFrame (``c``) decodes the frame as a reference
    for the next ones and hands the callback no picture (output NULL)."""
    skipped = c == "aclvdecSendSkippedFrame"
    m = state.of(rt)
    d = m.descs.get(handle, VdecChannelDesc, c, "channelDesc")
    if d.callback is None:      # pyACL's own check (WrapAclVdecSendFrame)
        raise RuntimeError("did not set callback, failed")
    ch = d.channel
    if ch is None:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: the channel is not created; call acl.media.{create} first.").format(
                call=c, create="vdec_create_channel"))
    sd = m.descs.get(in_desc, StreamDesc, c, "input")
    m.descs.get(config, FrameConfig, c, "config")
    out = None if skipped or (sd.eos and not out_desc) else \
        m.descs.get(out_desc, PicDesc, c, "output")
    data = None
    if not sd.eos or sd.size:
        if sd.data == 0 or sd.size == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: the input stream description has no data (data {data}, size "
                "{size}). Only an end-of-stream packet (dvpp_set_stream_desc_eos(desc, 1)) "
                "may be empty.").format(call=c, data=f"0x{sd.data:x}", size=sd.size))
        try:
            a, off = rules.dvpp_memory(rt, sd.data, sd.size, c, _("the stream data"))
        except TaskFailed as e:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, e.message) from None
        rt.memory.ram.need(2 * sd.size, c)
        buf = np.empty(sd.size, np.uint8)
        a.read_into(off, sd.size, buf)
        data = buf.tobytes()
    av = _av(c)
    refused = _decodable(rt, c, d, ch, data) if data is not None else ""
    entry = (in_desc, out_desc, out, user_data, bool(sd.eos))
    if refused and not sd.eos:       # the engine fails this frame at once
        _vdec_deliver(rt, c, d, ch, entry, None, refused)
        return
    frames = ch.decode(av, None if refused else data) if data is not None else []
    if sd.eos:
        frames += ch.decode(av, None)
    ch.pending.append(entry)
    for frame in frames:
        if not ch.pending:
            break
        _vdec_deliver(rt, c, d, ch, ch.pending.popleft(), frame)
    while sd.eos and ch.pending:
        _vdec_deliver(rt, c, d, ch, ch.pending.popleft(), None)


def _vdec_deliver(rt, call: str, d: VdecChannelDesc, ch: VdecChannel, entry, frame,
                  refused: str = "") -> None:
    """The callback of one sent frame: its picture written, or its failure (``refused``:
    why the engine would not decode it)."""
    in_desc, out_desc, out, user_data, eos = entry
    w = h = 0
    if out is not None and frame is not None:
        w, h = F.even(frame.width), F.even(frame.height)
        try:
            _write_picture(rt, call, out, d.out_pic_format, frame)
            out.ret_code = 0
        except TaskFailed as e:
            out.ret_code = rules.DEVICE_FAILURE
            rt.report(e.message)
        except SimulatorLimit as e:       # the budget ran out between the check and now
            out.ret_code = rules.DEVICE_FAILURE
            rt.report(str(e))
    elif out is not None and refused:
        out.ret_code = rules.DEVICE_FAILURE
        rt.report(_("{call}: channel {id} cannot decode the frame: {why}. Its output's ret "
                    "code says so; nothing was decoded.").format(call=call, id=d.channel_id,
                                                                  why=refused))
    elif out is not None and not eos:
        out.ret_code = rules.DEVICE_FAILURE
        rt.report(_("{call}: the decoder gave no picture for a frame sent to channel {id} "
                    "(the stream ended first, or the data is not {kind}).").format(
                        call=call, id=d.channel_id, kind=C.STREAM_FORMAT_NAMES[d.entype]))
    _deliver(rt, call, ch.stream, "vdec", w * h, d.callback, (in_desc, out_desc), user_data)


def _write_picture(rt, call: str, out: PicDesc, fmt: int, frame) -> None:
    """A decoded picture into the output description's buffer: width stride up to 16,
    height stride up to 2 (VDEC's YUV420SP output)."""
    w, h = F.even(frame.width), F.even(frame.height)
    ws, hs = align_up(w, 16), align_up(h, 2)
    need = ws * hs * 3 // 2
    rules.buffer_size(call, PicDesc(size=out.size, format=fmt, width_stride=ws,
                                    height_stride=hs), need, _("the output picture"))
    a, off = rules.dvpp_memory(rt, out.data, need, call, _("the output picture"))
    nv12 = frame.reformat(format="nv12").to_ndarray()
    fh = frame.height
    pic = pixels.Frame(y=nv12[:h, :w], uv=nv12[fh:fh + h // 2, :w].reshape(h // 2, w // 2, 2))
    rt.memory.ram.need(a.fresh_bytes(off, need), call)
    pixels.write(a.view(off, need, call), fmt, ws, hs, pic)
    out.format, out.width, out.height, out.width_stride, out.height_stride = fmt, w, h, ws, hs


def vdec_destroy(rt, handle: int) -> None:
    c = "aclvdecDestroyChannel"
    d = state.of(rt).descs.get(handle, VdecChannelDesc, c, "channelDesc")
    ch = d.channel
    if ch is None:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: the channel was never created (or is destroyed already).").format(
                call=c))
    if ch.pending:                      # frames the codec still holds come out now
        av = _av(c)
        for frame in ch.decode(av, None):
            if ch.pending:
                _vdec_deliver(rt, c, d, ch, ch.pending.popleft(), frame)
        while ch.pending:
            _vdec_deliver(rt, c, d, ch, ch.pending.popleft(), None)
    _close_stream(rt, d.thread_id, ch.stream)
    rt.memory.ram.held -= ch.held
    d.channel = None


# ----- VENC ------------------------------------------------------------------------------
class VencChannel:
    def __init__(self, codec, stream: int, buffer: int, buffer_size: int):
        self.codec, self.stream = codec, stream
        self.buffer, self.buffer_size, self.offset = buffer, buffer_size, 0
        self.frames = 0

    def place(self, n: int) -> int:
        """Where the next ``n`` bytes of output go in the channel's buffer (a ring)."""
        if self.offset + n > self.buffer_size:
            self.offset = 0
        at, self.offset = self.offset, align_up(self.offset + n, 128)
        return at


def venc_create(rt, handle: int) -> None:
    c = "aclvencCreateChannel"
    d = state.of(rt).descs.get(handle, VencChannelDesc, c, "channelDesc")
    if rt.profile.soc_name.startswith("Ascend910"):     # the reference's support table
        raise SimError(C.ACL_ERROR_FEATURE_UNSUPPORTED, _(
            "{call}: {soc} has no VENC (the Atlas training and A2 products do not support "
            "video encoding). Use a 310 or 310P profile.").format(
                call=c, soc=rt.profile.soc_name))
    _channel_rules(c, d, _("input picture"), d.pic_format)
    if not (VENC_MIN <= d.pic_width <= VENC_MAX and VENC_MIN <= d.pic_height <= VENC_MAX) \
            or d.pic_width % 2 or d.pic_height % 2:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: the picture is {w}x{h}; VENC encodes even sides from {lo}x{lo} to "
            "{hi}x{hi}. Set them with venc_set_channel_desc_pic_width / _height.").format(
                call=c, w=d.pic_width, h=d.pic_height, lo=VENC_MIN, hi=VENC_MAX))
    av = _av(c)
    with _codec_errors(c, av):
        codec = av.CodecContext.create(
            "libx265" if d.entype == C.H265_MAIN_LEVEL else "libx264", "w")
        # libx264 takes NV12 as VENC does; libx265 only planar 4:2:0 (frames are converted)
        codec.width, codec.height = d.pic_width, d.pic_height
        codec.pix_fmt = "yuv420p" if d.entype == C.H265_MAIN_LEVEL else "nv12"
        codec.time_base = Fraction(1, d.src_rate or 25)
        codec.gop_size = d.key_frame_interval or 16
        codec.options = {"tune": "zerolatency", "preset": "ultrafast"}
    size = max(d.buf_size, align_up(d.pic_width * d.pic_height * 3 // 2, 128))
    buffer = rt.malloc(size, C.ACL_MEM_MALLOC_HUGE_FIRST, "dvpp_malloc")
    try:
        stream = _open_stream(rt, c, d.thread_id)
    except BaseException:
        rt.free(buffer, "dvpp_free")
        raise
    d.channel = VencChannel(codec, stream, buffer, size)


def venc_send(rt, handle: int, pic_desc: int, config: int, user_data) -> None:
    c = "aclvencSendFrame"
    m = state.of(rt)
    d = m.descs.get(handle, VencChannelDesc, c, "channelDesc")
    ch = d.channel
    if ch is None:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: the channel is not created; call acl.media.{create} first.").format(
                call=c, create="venc_create_channel"))
    cfg = m.descs.get(config, FrameConfig, c, "config")
    av = _av(c)
    frames = []
    if pic_desc or not cfg.eos:
        pic = m.descs.get(pic_desc, PicDesc, c, "input")
        frames.append(_read_picture(rt, c, av, d, ch, pic, cfg))
    with _codec_errors(c, av):
        packets = [p for f in frames for p in ch.codec.encode(f)]
        if cfg.eos:
            packets += list(ch.codec.encode(None))
    for packet in packets:
        _venc_deliver(rt, c, m, d, ch, pic_desc, bytes(packet), user_data)


def _read_picture(rt, call: str, av, d: VencChannelDesc, ch: VencChannel, pic: PicDesc,
                  cfg: FrameConfig):
    """The YUV420SP picture to encode (the channel's format and sides; the stride rules of
    VPC: width stride a multiple of 16, height stride a multiple of 2)."""
    seen = PicDesc(data=pic.data, size=pic.size, format=d.pic_format, width=d.pic_width,
                   height=d.pic_height, width_stride=pic.width_stride or d.pic_width,
                   height_stride=pic.height_stride or d.pic_height)
    try:
        need = rules.vpc_picture(call, seen, _("the input picture"))
        a, off = rules.dvpp_memory(rt, seen.data, need, call, _("the input picture"))
    except TaskFailed as e:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, e.message) from None
    rt.memory.ram.need(need + pixels.scratch_bytes(seen.width, seen.height), call)
    buf = np.empty(need, np.uint8)
    a.read_into(off, need, buf)
    f = pixels.read(buf, C.PIXEL_FORMAT_YUV_SEMIPLANAR_420, seen.width, seen.height,
                    seen.width_stride, seen.height_stride)
    uv = f.uv[..., ::-1] if d.pic_format == C.PIXEL_FORMAT_YVU_SEMIPLANAR_420 else f.uv
    frame = av.VideoFrame.from_ndarray(
        np.concatenate([f.y, uv.reshape(seen.height // 2, seen.width)]), format="nv12")
    if ch.codec.pix_fmt != "nv12":
        frame = frame.reformat(format=ch.codec.pix_fmt)
    frame.pts = ch.frames
    ch.frames += 1
    if cfg.force_i_frame:
        frame.pict_type = av.video.frame.PictureType.I
    return frame


def _venc_deliver(rt, call: str, m, d: VencChannelDesc, ch: VencChannel, pic_desc: int,
                  data: bytes, user_data) -> None:
    """One encoded packet into the channel's buffer, handed to the callback in a stream
    description the system owns (it is gone once the callback returned)."""
    at = ch.place(len(data))
    a = rt.memory.map.find(ch.buffer)
    rt.memory.ram.need(a.fresh_bytes(at, len(data)), call)
    a.view(at, len(data), call)[:] = np.frombuffer(data, np.uint8)
    out = StreamDesc(data=ch.buffer + at, size=len(data), format=d.entype,
                     timestamp=ch.frames)
    handle = m.descs.add(out)
    _deliver(rt, call, ch.stream, "venc", d.pic_width * d.pic_height, d.callback,
             (pic_desc, handle), user_data, after=lambda: m.descs.live.pop(handle, None))


def venc_destroy(rt, handle: int) -> None:
    c = "aclvencDestroyChannel"
    d = state.of(rt).descs.get(handle, VencChannelDesc, c, "channelDesc")
    ch = d.channel
    if ch is None:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: the channel was never created (or is destroyed already).").format(
                call=c))
    _close_stream(rt, d.thread_id, ch.stream)
    rt.free(ch.buffer, "dvpp_free")
    d.channel = None
