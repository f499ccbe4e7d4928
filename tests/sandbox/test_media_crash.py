"""The sandbox promise for acl.media, input by input, each in its own Python process with a
512 MiB host-RAM budget (the crash suite's harness): the largest pictures the engines take,
data that is not a picture, and video that is not video end in a code or SimulatorLimit,
never a signal, and the process stays within budget + headroom."""
from __future__ import annotations

import pytest

from test_crash_suite import _check, _run

MEDIA = """
from acl_lab.sim.media import pixels
NV12 = C.PIXEL_FORMAT_YUV_SEMIPLANAR_420
m = acl.media
ch = m.dvpp_create_channel_desc()
assert m.dvpp_create_channel(ch) == 0

def desc(data, size, fmt=NV12, w=0, h=0, ws=0, hs=0):
    d = m.dvpp_create_pic_desc()
    for name, value in (("data", data), ("size", size), ("format", fmt), ("width", w),
                        ("height", h), ("width_stride", ws), ("height_stride", hs)):
        assert getattr(m, "dvpp_set_pic_desc_" + name)(d, value) == 0
    return d

def dvpp(data):
    p, ret = m.dvpp_malloc(len(data))
    assert ret == 0
    h = np.frombuffer(data, np.uint8).copy()
    assert acl.rt.memcpy(p, len(data), acl.util.numpy_to_ptr(h), len(data), 1) == 0
    return p
"""

CASES = {
    # the largest JPEG JPEGD decodes (8192 x 8192): decoded within the budget, or refused
    # by it with the task still queued (then dropped with the stream)
    "jpegd_8192": ("ok", """
        import io
        from PIL import Image
        out = io.BytesIO()
        Image.new("L", (8192, 8192), 90).save(out, "JPEG", quality=50)
        data = out.getvalue()
        size, ret = m.dvpp_jpeg_predict_dec_size(acl.util.bytes_to_ptr(data), len(data), NV12)
        assert ret == 0 and size == 8192 * 8192 * 3 // 2
        own, _ = acl.rt.create_stream()
        yuv, ret = m.dvpp_malloc(size)
        assert ret == 0
        assert m.dvpp_jpeg_decode_async(ch, dvpp(data), len(data), desc(yuv, size), own) == 0
        if refused_by_limit(acl.rt.synchronize_stream, own):
            assert acl.rt.destroy_stream_force(own) == 0
        else:
            assert acl.rt.destroy_stream(own) == 0
        assert m.dvpp_free(yuv) == 0
        outcome("ok")
    """),
    # VPC's largest picture, 4096 x 4096 NV12, resized to itself and crop-pasted
    "vpc_4096": ("ok", """
        n = 4096 * 4096 * 3 // 2
        a, _ = m.dvpp_malloc(n)
        b, _ = m.dvpp_malloc(n)
        assert acl.rt.memset(a, n, 7, n) == 0
        da, db = desc(a, n, NV12, 4096, 4096, 4096, 4096), desc(b, n, NV12, 4096, 4096, 4096, 4096)
        assert m.dvpp_vpc_resize_async(ch, da, db, m.dvpp_create_resize_config(), stream) == 0
        crop = m.dvpp_create_roi_config(0, 4095, 0, 4095)
        paste = m.dvpp_create_roi_config(16, 1039, 0, 1023)
        assert m.dvpp_vpc_crop_and_paste_async(ch, da, db, crop, paste, stream) == 0
        ok = not refused_by_limit(acl.rt.synchronize_stream, stream)
        if not ok:
            assert acl.rt.destroy_stream_force(stream) == 0
            stream, _ = acl.rt.create_stream()
        assert m.dvpp_free(a) == 0 and m.dvpp_free(b) == 0
        outcome("ok")
    """),
    # sides far beyond VPC's: refused by the engine before any pixel is touched
    "vpc_absurd_sides": ("refused", """
        a, _ = m.dvpp_malloc(4096)
        big = desc(a, 4096, NV12, 1 << 31, 1 << 31, 1 << 31, 1 << 31)
        assert m.dvpp_vpc_resize_async(ch, big, big, m.dvpp_create_resize_config(), stream) == 0
        assert acl.rt.synchronize_stream(stream) == C.ACL_ERROR_RT_AICPU_EXCEPTION
        outcome("refused")
    """),
    # random bytes as a JPEG and as H.264
    "not_a_picture": ("refused", """
        rng = np.random.default_rng(3)
        junk = rng.integers(0, 256, 1 << 16, dtype=np.uint8).tobytes()
        junk = b"\\xff\\xd8\\xff\\xe0" + junk          # a JPEG's first marker, then noise
        out, _ = m.dvpp_malloc(1 << 20)
        assert m.dvpp_jpeg_decode_async(ch, dvpp(junk), len(junk), desc(out, 1 << 20),
                                        stream) == 0
        assert acl.rt.synchronize_stream(stream) == C.ACL_ERROR_RT_AICPU_EXCEPTION
        try:
            import av  # noqa: F401
        except ImportError:
            av = None
        if av is None:                  # VDEC refuses with a message: nothing more to try
            v = m.vdec_create_channel_desc()
            m.vdec_set_channel_desc_thread_id(v, 1)
            m.vdec_set_channel_desc_callback(v, print)
            assert m.vdec_create_channel(v) == C.ACL_ERROR_FEATURE_UNSUPPORTED
            outcome("refused")
        ctx, _ = acl.rt.get_context()
        state = {"run": True, "codes": []}

        def loop(args):
            acl.rt.set_context(ctx)
            while state["run"]:
                acl.rt.process_report(50)

        tid, _ = acl.util.start_thread(loop, [])
        v = m.vdec_create_channel_desc()
        m.vdec_set_channel_desc_thread_id(v, tid)
        m.vdec_set_channel_desc_callback(
            v, lambda i, o, u: state["codes"].append(m.dvpp_get_pic_desc_ret_code(o)))
        m.vdec_set_channel_desc_entype(v, C.H264_MAIN_LEVEL)
        assert m.vdec_create_channel(v) == 0
        frame = m.vdec_create_frame_config()
        for i in range(8):
            sd = m.dvpp_create_stream_desc()
            m.dvpp_set_stream_desc_data(sd, dvpp(junk[i * 4096:(i + 1) * 4096]))
            m.dvpp_set_stream_desc_size(sd, 4096)
            o, _ = m.dvpp_malloc(64 * 64 * 3 // 2)
            assert m.vdec_send_frame(v, sd, desc(o, 64 * 64 * 3 // 2), frame, i) == 0
        assert m.vdec_destroy_channel(v) == 0
        state["run"] = False
        assert acl.util.stop_thread(tid) == 0
        assert len(state["codes"]) == 8
        outcome("refused")
    """),
}


#: a VDEC channel whose callback thread records each frame's ret code; streams the test
#: wrote into the case's folder (``stream(name)``)
VDEC = """
state = {"run": True, "codes": []}
ctx, _ = acl.rt.get_context()

def loop(args):
    acl.rt.set_context(ctx)
    while state["run"]:
        acl.rt.process_report(50)

tid, _ = acl.util.start_thread(loop, [])

def channel():
    v = m.vdec_create_channel_desc()
    m.vdec_set_channel_desc_thread_id(v, tid)
    m.vdec_set_channel_desc_callback(
        v, lambda i, o, u: state["codes"].append(m.dvpp_get_pic_desc_ret_code(o)))
    m.vdec_set_channel_desc_entype(v, C.H264_MAIN_LEVEL)
    assert m.vdec_create_channel(v) == 0, acl.get_recent_err_msg()
    return v

def send(v, name, out_size=1 << 20):
    data = open(name, "rb").read()
    sd = m.dvpp_create_stream_desc()
    m.dvpp_set_stream_desc_data(sd, dvpp(data))
    m.dvpp_set_stream_desc_size(sd, len(data))
    out, _ = m.dvpp_malloc(out_size)
    return m.vdec_send_frame(v, sd, desc(out, out_size), m.vdec_create_frame_config(), None)

def grown_mib(before):
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmHWM")) / 1024 - before

def hwm():
    return grown_mib(0)

def stop_thread():
    state["run"] = False
    assert acl.util.stop_thread(tid) == 0
"""

#: the streams VDEC_CASES send: sides the SPS declares (the pictures are 64 x 64)
STREAMS = {"small": (64, 64, 1), "8192": (8192, 8192, 3), "4096": (4096, 4096, 2)}

VDEC_CASES = {
    # sides VDEC cannot decode on this SoC: the frame fails, FFmpeg never allocates them
    "vdec_declares_pictures_beyond_vdec": ("refused", """
        v = channel()
        before = hwm()
        assert send(v, "8192") == 0
        assert grown_mib(before) < 64
        assert send(v, "small") == 0                 # the channel still decodes
        assert m.vdec_destroy_channel(v) == 0
        stop_thread()
        assert state["codes"] == [C.ACL_ERROR_RT_AICPU_EXCEPTION, 0], state["codes"]
        outcome("refused")
    """),
    # sides VDEC decodes, but the budget has no room for the decoder's pictures: refused
    # before FFmpeg sees the stream, nothing changed, the channel and the device usable
    "vdec_pictures_past_the_budget": ("limit", """
        filler, _ = acl.rt.malloc(400 * MiB, 0)
        assert acl.rt.memset(filler, 400 * MiB, 1, 400 * MiB) == 0
        v = channel()
        before, snap = hwm(), acl_lab.snapshot()
        assert refused_by_limit(send, v, "4096")
        assert grown_mib(before) < 64
        assert acl.rt.free(filler) == 0
        assert send(v, "small") == 0
        assert m.vdec_destroy_channel(v) == 0
        stop_thread()
        assert state["codes"] == [0], state["codes"]    # the refused send sent nothing
        assert acl.rt.reset_device(0) == 0
        assert acl.rt.set_device(0) == 0
        stream, _ = acl.rt.create_stream()
        outcome("limit")
    """),
    # the decoders' pictures stay counted while their channels live, and no longer after
    "vdec_channels_hold_their_pictures": ("limit", """
        channels = []
        while True:
            v = channel()
            channels.append(v)
            if refused_by_limit(send, v, "4096"):
                break
        assert 2 <= len(channels) <= 8, len(channels)
        big, _ = acl.rt.malloc(400 * MiB, 0)
        assert refused_by_limit(acl.rt.memset, big, 400 * MiB, 1, 400 * MiB)
        for v in channels:
            assert m.vdec_destroy_channel(v) == 0
        assert acl.rt.memset(big, 400 * MiB, 1, 400 * MiB) == 0
        assert acl.rt.free(big) == 0
        stop_thread()
        outcome("limit")
    """),
}


@pytest.mark.parametrize("name", list(VDEC_CASES))
def test_a_video_decoders_pictures_count_in_the_budget(name, tmp_path):
    pytest.importorskip("av")
    from mediahelpers import h264_declaring

    for stream_name, (w, h, frames) in STREAMS.items():
        (tmp_path / stream_name).write_bytes(h264_declaring(w, h, frames))
    expected, body = VDEC_CASES[name]
    import textwrap
    _check(name, expected, *_run(name, MEDIA + VDEC + textwrap.dedent(body), cwd=tmp_path,
                                 timeout=90))


@pytest.mark.parametrize("name", list(CASES))
def test_media_input_leaves_the_process_alive_and_within_budget(name):
    expected, body = CASES[name]
    import textwrap
    _check(name, expected, *_run(name, MEDIA + textwrap.dedent(body)))
