"""acl.media's DVPP memory with a config, the channel descriptions' parameters (as pyACL
passes them) and ids, the callback getters, vdec_send_skipped_frame and VENC's getters
(issue 31), with pyACL's return shapes."""
from __future__ import annotations

import pytest

from acl_lab import constants as C

INVALID = C.ACL_ERROR_INVALID_PARAM


def test_dvpp_malloc_with_cfg_gives_dvpp_memory_and_reads_the_config_as_pyacl(acl, refused):
    m = acl.media
    ptr, ret = m.dvpp_malloc_with_cfg(1000, C.ACL_MEM_MALLOC_HUGE_FIRST, {})
    assert ret == 0 and ptr % 128 == 0
    cfg = {"numAttrs": 1, "attrs": [{"attr": 2, "value": {"deviceId": 0}}]}
    ptr2, ret = m.dvpp_malloc_with_cfg(64, C.ACL_MEM_MALLOC_HUGE_FIRST, cfg)
    assert ret == 0
    bad = {"numAttrs": 1, "attrs": [{"attr": 2, "value": {"deviceId": 99}}]}
    value, ret = m.dvpp_malloc_with_cfg(64, C.ACL_MEM_MALLOC_HUGE_FIRST, bad)
    refused(ret, C.ACL_ERROR_RT_PARAM_INVALID)       # spec/malloc_config.check_device
    assert value == 0
    with pytest.raises(KeyError):
        m.dvpp_malloc_with_cfg(64, 0, {"numAttrs": 2, "attrs": cfg["attrs"]})
    with pytest.raises(TypeError):
        m.dvpp_malloc_with_cfg(64, 0, [])
    assert m.dvpp_free(ptr) == 0 and m.dvpp_free(ptr2) == 0


def test_the_csc_matrix_is_the_only_channel_parameter_pyacl_can_pass(acl, refused):
    m = acl.media
    for create, set_, get in (("dvpp_create_channel_desc", "dvpp_set_channel_desc_param",
                               "dvpp_get_channel_desc_param"),
                              ("vdec_create_channel_desc", "vdec_set_channel_desc_param",
                               "vdec_get_channel_desc_param")):
        desc = getattr(m, create)()
        value, ret = getattr(m, set_)(desc, 0, C.ACL_DVPP_CSC_MATRIX_BT709_WIDE)
        if acl.get_soc_name() == "Ascend310":
            refused(ret, C.ACL_ERROR_FEATURE_UNSUPPORTED)
            continue
        assert (value, ret) == (desc, 0)
        assert getattr(m, get)(desc, 0) == (4, C.ACL_DVPP_CSC_MATRIX_BT709_WIDE, 0)
        refused(getattr(m, set_)(desc, 0, 9)[1], INVALID)              # no such matrix
        refused(getattr(m, set_)(desc, 1, 3)[1], INVALID)              # pyACL's length 0
        size, param, ret = getattr(m, get)(desc, 1)
        refused(ret, INVALID)
        assert (size, param) == (0, 0)
        assert getattr(m, get)(desc, 0)[1] == C.ACL_DVPP_CSC_MATRIX_BT709_WIDE


def test_a_channel_gets_its_id_when_created(acl):
    m = acl.media
    a, b = m.dvpp_create_channel_desc(), m.dvpp_create_channel_desc()
    assert m.dvpp_get_channel_desc_channel_id(a) == 0        # not created yet
    assert m.dvpp_create_channel(a) == 0 and m.dvpp_create_channel(b) == 0
    assert {m.dvpp_get_channel_desc_channel_id(a), m.dvpp_get_channel_desc_channel_id(b)} == \
        {0, 1}
    assert m.dvpp_get_channel_desc_channel_id(0) == 0 and acl.get_recent_err_msg()


def test_venc_getters_read_what_the_setters_wrote(acl):
    m = acl.media
    desc = m.venc_create_channel_desc()
    for field, value in (("buf_addr", 0x1000), ("buf_size", 4096), ("rc_mode", 1),
                         ("src_rate", 30), ("max_bit_rate", 2000)):
        assert getattr(m, f"venc_set_channel_desc_{field}")(desc, value) == 0
        assert getattr(m, f"venc_get_channel_desc_{field}")(desc) == value
    assert m.venc_get_channel_desc_channel_id(desc) == 0
    with pytest.raises(RuntimeError):
        m.venc_get_channel_desc_callback(desc)
    assert m.venc_get_channel_desc_rc_mode(0) == 0 and acl.get_recent_err_msg()


def test_a_skipped_frame_is_decoded_and_called_back_without_a_picture(acl):
    av = pytest.importorskip("av")
    import fractions

    import numpy as np
    m = acl.media
    if acl.get_soc_name().startswith("Ascend910"):
        pass                                                  # VDEC exists there too
    ctx, _ = acl.rt.get_context()
    seen, run = [], [True]

    def loop(_args):
        acl.rt.set_context(ctx)
        while run[0]:
            acl.rt.process_report(50)
    tid, _ = acl.util.start_thread(loop, [])
    desc = m.vdec_create_channel_desc()
    m.vdec_set_channel_desc_thread_id(desc, tid)
    with pytest.raises(RuntimeError):                          # pyACL: no callback yet
        m.vdec_send_skipped_frame(desc, 0, 0, None)

    def callback(stream_desc, pic, user_data):
        seen.append((pic, user_data))
    m.vdec_set_channel_desc_callback(desc, callback)
    assert m.vdec_get_channel_desc_callback(desc) is callback
    m.vdec_set_channel_desc_entype(desc, C.H264_MAIN_LEVEL)
    m.vdec_set_channel_desc_out_pic_format(desc, C.PIXEL_FORMAT_YUV_SEMIPLANAR_420)
    assert m.vdec_create_channel(desc) == 0, acl.get_recent_err_msg()
    enc = av.CodecContext.create("libx264", "w")
    enc.width, enc.height, enc.pix_fmt = 64, 48, "yuv420p"
    enc.time_base = fractions.Fraction(1, 25)
    enc.options = {"tune": "zerolatency", "preset": "ultrafast"}
    frame = av.VideoFrame.from_ndarray(np.full((72, 64), 90, np.uint8), format="yuv420p")
    frame.pts = 0
    packet = b"".join(bytes(p) for p in enc.encode(frame)) + \
        b"".join(bytes(p) for p in enc.encode(None))
    src, _ = m.dvpp_malloc(len(packet))
    host = np.frombuffer(packet, np.uint8).copy()
    assert acl.rt.memcpy(src, len(packet), acl.util.numpy_to_ptr(host), len(packet),
                         C.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    sd = m.dvpp_create_stream_desc()
    m.dvpp_set_stream_desc_data(sd, src)
    m.dvpp_set_stream_desc_size(sd, len(packet))
    assert m.vdec_send_skipped_frame(desc, sd, m.vdec_create_frame_config(), "skip") == 0
    assert m.vdec_destroy_channel(desc) == 0
    run[0] = False
    assert acl.util.stop_thread(tid) == 0
    assert seen == [(0, "skip")]
