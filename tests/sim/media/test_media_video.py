"""VDEC and VENC on the simulator: frames go through the channel's own stream to the
callback thread the channel names (acl.util.start_thread + acl.rt.process_report), as the
acllite samples drive them; without PyAV a channel is refused with a clear message."""
from __future__ import annotations

import builtins
import threading

import numpy as np
import pytest

from acl_lab import constants as C
from mediahelpers import NV12, dvpp_copy, pic_desc
from simhelpers import read

av = pytest.importorskip("av")
W, H = 64, 48


class CallbackThread:
    """The samples' callback thread: set the context, loop on process_report until told."""

    def __init__(self, acl):
        self.acl, self.run, self.got = acl, True, []
        self.ctx, _ = acl.rt.get_context()
        self.tid, ret = acl.util.start_thread(self._loop, [])
        assert ret == 0

    def _loop(self, _args):
        self.acl.rt.set_context(self.ctx)
        while self.run:
            self.acl.rt.process_report(50)

    def stop(self):
        self.run = False
        assert self.acl.util.stop_thread(self.tid) == 0


def elementary(frames, width=W, height=H, codec="libx264") -> list[bytes]:
    """An H.264 (H.265) elementary stream of grey frames, one access unit per packet."""
    import fractions
    enc = av.CodecContext.create(codec, "w")
    enc.width, enc.height, enc.pix_fmt = width, height, "yuv420p"
    enc.time_base = fractions.Fraction(1, 25)
    enc.options = {"tune": "zerolatency", "preset": "ultrafast"}
    if codec == "libx265":
        enc.options = {**enc.options, "x265-params": "log-level=none"}
    out = []
    for i, level in enumerate(frames):
        f = av.VideoFrame.from_ndarray(np.full((height * 3 // 2, width), level, np.uint8),
                                       format="yuv420p")
        f.pts = i
        out += [bytes(p) for p in enc.encode(f)]
    return out + [bytes(p) for p in enc.encode(None)]


def _vdec(acl, thread, callback, fmt=NV12, entype=C.H264_MAIN_LEVEL):
    m = acl.media
    desc = m.vdec_create_channel_desc()
    assert m.vdec_set_channel_desc_channel_id(desc, 0) == 0
    assert m.vdec_set_channel_desc_thread_id(desc, thread.tid) == 0
    assert m.vdec_set_channel_desc_callback(desc, callback) == 0
    assert m.vdec_set_channel_desc_entype(desc, entype) == 0
    assert m.vdec_set_channel_desc_out_pic_format(desc, fmt) == 0
    assert m.vdec_get_channel_desc_out_mode(desc) == 0
    return desc


@pytest.mark.parametrize("entype, codec", [(C.H264_MAIN_LEVEL, "libx264"),
                                           (C.H265_MAIN_LEVEL, "libx265")])
def test_vdec_decodes_each_frame_into_the_output_and_calls_back_on_the_thread(acl, entype,
                                                                             codec):
    m = acl.media
    thread = CallbackThread(acl)
    seen = []

    def callback(input_stream_desc, output_pic_desc, user_data):
        seen.append((user_data, threading.get_ident(),
                     m.dvpp_get_pic_desc_ret_code(output_pic_desc),
                     m.dvpp_get_pic_desc_width(output_pic_desc),
                     m.dvpp_get_pic_desc_width_stride(output_pic_desc)))
        m.dvpp_destroy_stream_desc(input_stream_desc)
        m.dvpp_destroy_pic_desc(output_pic_desc)

    desc = _vdec(acl, thread, callback, entype=entype)
    assert m.vdec_create_channel(desc) == 0, acl.get_recent_err_msg()
    config = m.vdec_create_frame_config()
    outs = []
    for i, packet in enumerate(elementary([20, 80, 140, 200], codec=codec)):
        src = dvpp_copy(acl, packet)
        sd = m.dvpp_create_stream_desc()
        assert m.dvpp_set_stream_desc_data(sd, src) == 0
        assert m.dvpp_set_stream_desc_size(sd, len(packet)) == 0
        out, _ = m.dvpp_malloc(W * H * 3 // 2)
        outs.append(out)
        assert m.vdec_send_frame(desc, sd, pic_desc(acl, out, W * H * 3 // 2), config, i) == 0
    assert m.vdec_destroy_channel(desc) == 0        # waits for every callback to run
    thread.stop()
    assert [s[0] for s in seen] == [0, 1, 2, 3]
    assert {s[1] for s in seen} == {thread.tid}
    assert all(s[2:] == (0, W, W) for s in seen)
    lumas = [np.frombuffer(read(acl, o, W * H), np.uint8).mean() for o in outs]
    assert lumas == pytest.approx([20, 80, 140, 200], abs=3)


def test_vdec_output_buffer_too_small_sets_the_ret_code_and_the_callback_still_comes(acl):
    m = acl.media
    thread = CallbackThread(acl)
    codes = []
    desc = _vdec(acl, thread, lambda i, o, u: codes.append(m.dvpp_get_pic_desc_ret_code(o)))
    assert m.vdec_create_channel(desc) == 0
    packet = elementary([50])[0]
    sd = m.dvpp_create_stream_desc()
    m.dvpp_set_stream_desc_data(sd, dvpp_copy(acl, packet))
    m.dvpp_set_stream_desc_size(sd, len(packet))
    small, _ = m.dvpp_malloc(256)
    m.dvpp_set_stream_desc_eos(sd, 1)
    assert m.vdec_send_frame(desc, sd, pic_desc(acl, small, 256), m.vdec_create_frame_config(),
                             None) == 0
    assert m.vdec_destroy_channel(desc) == 0
    thread.stop()
    assert codes == [C.ACL_ERROR_RT_AICPU_EXCEPTION]


def test_vdec_refuses_sends_it_cannot_take(acl):
    m = acl.media
    desc = m.vdec_create_channel_desc()
    with pytest.raises(RuntimeError):          # pyACL: "did not set callback, failed"
        m.vdec_send_frame(desc, 0, 0, 0, None)
    assert m.vdec_create_channel(desc) == C.ACL_ERROR_INVALID_PARAM
    assert "callback" in acl.get_recent_err_msg()
    with pytest.raises(TypeError):
        m.vdec_set_channel_desc_callback(desc, "not a function")


def test_without_pyav_a_video_channel_says_how_to_get_it(acl, monkeypatch):
    real_import = builtins.__import__

    def no_av(name, *args, **kwargs):
        if name == "av":
            raise ImportError("No module named 'av'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_av)
    thread = CallbackThread(acl)
    desc = _vdec(acl, thread, lambda *a: None)
    assert acl.media.vdec_create_channel(desc) == C.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "acl_lab[media]" in acl.get_recent_err_msg()
    thread.stop()


@pytest.mark.parametrize("entype, codec", [(C.H264_MAIN_LEVEL, "h264"),
                                           (C.H265_MAIN_LEVEL, "hevc")])
def test_venc_encodes_frames_that_vdec_decodes_back(acl_on, entype, codec):
    acl = acl_on("310p")
    m = acl.media
    side = 128
    thread = CallbackThread(acl)
    chunks = []

    def on_encoded(input_pic_desc, output_stream_desc, user_data):
        n = m.dvpp_get_stream_desc_size(output_stream_desc)
        chunks.append((user_data, read(acl, m.dvpp_get_stream_desc_data(output_stream_desc), n)))

    desc = m.venc_create_channel_desc()
    for name, value in (("thread_id", thread.tid), ("entype", entype),
                        ("pic_format", NV12), ("pic_width", side), ("pic_height", side)):
        assert getattr(m, f"venc_set_channel_desc_{name}")(desc, value) == 0
    assert m.venc_set_channel_desc_callback(desc, on_encoded) == 0
    assert m.venc_create_channel(desc) == 0, acl.get_recent_err_msg()
    config = m.venc_create_frame_config()
    size = side * side * 3 // 2
    for i, level in enumerate((30, 90, 150)):
        frame = np.full(size, 128, np.uint8)
        frame[:side * side] = level
        pic = pic_desc(acl, dvpp_copy(acl, frame.tobytes()), size, NV12, side, side, side,
                       side)
        assert m.venc_send_frame(desc, pic, 0, config, i) == 0, acl.get_recent_err_msg()
    assert m.venc_destroy_channel(desc) == 0
    thread.stop()
    assert [u for u, _ in chunks] == [0, 1, 2]
    dec = av.CodecContext.create(codec, "r")
    frames = [f for _, data in chunks for f in dec.decode(av.Packet(data))] + \
        list(dec.decode(None))
    lumas = [f.reformat(format="nv12").to_ndarray()[:side].mean() for f in frames]
    assert lumas == pytest.approx([30, 90, 150], abs=3)


def test_venc_refuses_a_picture_size_it_cannot_encode(acl_on):
    acl = acl_on("310")
    m = acl.media
    thread = CallbackThread(acl)
    desc = m.venc_create_channel_desc()
    m.venc_set_channel_desc_thread_id(desc, thread.tid)
    m.venc_set_channel_desc_callback(desc, lambda *a: None)
    m.venc_set_channel_desc_pic_width(desc, 64)
    m.venc_set_channel_desc_pic_height(desc, 64)
    assert m.venc_create_channel(desc) == C.ACL_ERROR_INVALID_PARAM
    assert "128x128" in acl.get_recent_err_msg()
    thread.stop()


def test_vdec_fed_bytes_that_are_not_video_reports_each_frame_failed(acl):
    m = acl.media
    thread = CallbackThread(acl)
    codes = []
    desc = _vdec(acl, thread, lambda i, o, u: codes.append((u, m.dvpp_get_pic_desc_ret_code(o))))
    assert m.vdec_create_channel(desc) == 0
    config = m.vdec_create_frame_config()
    for i in range(2):
        junk = bytes(range(7, 250)) * 3
        sd = m.dvpp_create_stream_desc()
        m.dvpp_set_stream_desc_data(sd, dvpp_copy(acl, junk))
        m.dvpp_set_stream_desc_size(sd, len(junk))
        out, _ = m.dvpp_malloc(W * H * 3 // 2)
        assert m.vdec_send_frame(desc, sd, pic_desc(acl, out, W * H * 3 // 2), config, i) == 0
    assert m.vdec_destroy_channel(desc) == 0
    thread.stop()
    assert codes == [(0, C.ACL_ERROR_RT_AICPU_EXCEPTION), (1, C.ACL_ERROR_RT_AICPU_EXCEPTION)]


def test_venc_is_refused_on_a_chip_without_it(acl):
    m = acl.media                                   # the fixture's profile: Ascend910B3
    thread = CallbackThread(acl)
    desc = m.venc_create_channel_desc()
    m.venc_set_channel_desc_thread_id(desc, thread.tid)
    m.venc_set_channel_desc_callback(desc, lambda *a: None)
    assert m.venc_create_channel(desc) == C.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "no VENC" in acl.get_recent_err_msg()
    thread.stop()


def test_a_video_library_failure_is_a_code_not_an_exception(acl_on, monkeypatch):
    """FFmpeg refusing a codec (an encoder this build lacks) must not reach the program as a
    Python exception: the call fails with a code and says what the library said."""
    acl = acl_on("310p")
    m = acl.media
    thread = CallbackThread(acl)
    desc = m.venc_create_channel_desc()
    for name, value in (("thread_id", thread.tid), ("entype", C.H264_MAIN_LEVEL),
                        ("pic_format", NV12), ("pic_width", 128), ("pic_height", 128)):
        assert getattr(m, f"venc_set_channel_desc_{name}")(desc, value) == 0
    assert m.venc_set_channel_desc_callback(desc, lambda *a: None) == 0

    def unknown(name, mode=None):
        raise av.codec.codec.UnknownCodecError(name)

    monkeypatch.setattr(av.CodecContext, "create", unknown)
    assert m.venc_create_channel(desc) == C.ACL_ERROR_INTERNAL_ERROR
    assert "libx264" in acl.get_recent_err_msg()
    thread.stop()
