"""Whatever a learner puts in a picture description, VPC never raises and never half-writes:
the call returns a code, and the synchronize either succeeds with the output written or
fails with ACL_ERROR_RT_AICPU_EXCEPTION and every output byte as it was (hypothesis)."""
from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, event, given, settings, strategies as st

import acl_lab
from acl_lab import constants as C
from mediahelpers import NV12, channel, dvpp_copy, pic_desc
from simhelpers import fresh, read

FORMATS = st.sampled_from([C.PIXEL_FORMAT_YUV_SEMIPLANAR_420, C.PIXEL_FORMAT_YVU_SEMIPLANAR_420,
                           C.PIXEL_FORMAT_RGB_888, C.PIXEL_FORMAT_BGR_888,
                           C.PIXEL_FORMAT_YUV_400, C.PIXEL_FORMAT_YUYV_PACKED_422, 999])
SIDE = st.integers(0, 80)
STRIDE = st.one_of(st.sampled_from([16, 32, 48, 64, 96, 144, 192, 240]), SIDE)
SIZE = st.one_of(st.just(1 << 14), st.integers(0, 1 << 14))
SIMULATED = [C.PIXEL_FORMAT_YUV_SEMIPLANAR_420, C.PIXEL_FORMAT_YVU_SEMIPLANAR_420,
             C.PIXEL_FORMAT_RGB_888, C.PIXEL_FORMAT_BGR_888, C.PIXEL_FORMAT_YUV_400]


@st.composite
def good_picture(draw):
    """A picture VPC takes: (format, width, height, width stride, height stride, size, 0)."""
    fmt = draw(st.sampled_from(SIMULATED))
    w, h = draw(st.integers(10, 64)), draw(st.integers(6, 40))
    per = 3 if fmt in (C.PIXEL_FORMAT_RGB_888, C.PIXEL_FORMAT_BGR_888) else 1
    ws = -(-w * per // 16) * 16 + 16 * draw(st.integers(0, 1))
    hs = h + h % 2 + 2 * draw(st.integers(0, 1))
    return fmt, w, h, ws, hs, 1 << 14, 0


ANY_PICTURE = st.tuples(FORMATS, SIDE, SIDE, STRIDE, STRIDE, SIZE, st.sampled_from([0, 64, 128]))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(picture=st.one_of(good_picture(), good_picture(), ANY_PICTURE),
       crop=st.one_of(st.just((0, 9, 0, 5)), st.tuples(SIDE, SIDE, SIDE, SIDE)),
       use_crop=st.booleans(), out_fmt=st.one_of(st.sampled_from(SIMULATED), FORMATS),
       ow=st.integers(8, 40), oh=st.integers(4, 40))
def test_vpc_either_writes_the_picture_or_changes_nothing(picture, crop, use_crop, out_fmt, ow,
                                                         oh):
    fmt, w, h, ws, hs, size, offset = picture
    acl = fresh()
    m = acl.media
    stream, _ = acl.rt.create_stream()
    ch = channel(acl)
    src = dvpp_copy(acl, bytes(range(256)) * 80)
    sdesc = pic_desc(acl, src + offset, size, fmt, w, h, ws, hs)
    out_size = 144 * 40 * 3 // 2
    dst = dvpp_copy(acl, b"\x55" * out_size)
    ddesc = pic_desc(acl, dst, out_size, out_fmt, ow, oh, 144, 40)
    before = read(acl, dst, out_size)
    if use_crop:
        roi = m.dvpp_create_roi_config(*crop)
        ret = m.dvpp_vpc_crop_async(ch, sdesc, ddesc, roi, stream)
    else:
        ret = m.dvpp_vpc_resize_async(ch, sdesc, ddesc, m.dvpp_create_resize_config(), stream)
    if ret != 0:
        event("refused by the call")
        assert ret in (C.ACL_ERROR_FORMAT_NOT_MATCH, C.ACL_ERROR_FEATURE_UNSUPPORTED)
        assert acl.get_recent_err_msg()
        assert acl.rt.synchronize_stream(stream) == 0
        assert read(acl, dst, out_size) == before
    else:
        synced = acl.rt.synchronize_stream(stream)
        event("written" if synced == 0 else "failed on the device")
        if synced == 0:
            assert m.dvpp_get_pic_desc_ret_code(ddesc) == 0
            assert read(acl, dst, out_size) != before
        else:
            assert synced == C.ACL_ERROR_RT_AICPU_EXCEPTION
            assert m.dvpp_get_pic_desc_ret_code(ddesc) == synced
            assert read(acl, dst, out_size) == before
            assert acl.get_recent_err_msg()
        assert acl.rt.synchronize_stream(stream) == 0
    acl_lab.reset()


def test_an_interrupted_vpc_task_stays_queued_and_runs_whole_later(monkeypatch):
    """Ctrl-C while the engine writes: the task is still queued and the next synchronize
    writes the whole picture."""
    from acl_lab.sim.media import pixels
    acl = fresh()
    m = acl.media
    stream, _ = acl.rt.create_stream()
    ch = channel(acl)
    size = 32 * 32 * 3 // 2
    src = dvpp_copy(acl, np.arange(size, dtype=np.uint8).tobytes())
    dst = dvpp_copy(acl, b"\0" * size)
    sdesc = pic_desc(acl, src, size, NV12, 32, 32, 32, 32)
    ddesc = pic_desc(acl, dst, size, NV12, 32, 32, 32, 32)
    real = pixels.write

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(pixels, "write", interrupted)
    assert m.dvpp_vpc_resize_async(ch, sdesc, ddesc, m.dvpp_create_resize_config(), stream) == 0
    try:
        acl.rt.synchronize_stream(stream)
    except KeyboardInterrupt:
        pass
    monkeypatch.setattr(pixels, "write", real)
    assert acl.rt.synchronize_stream(stream) == 0
    assert read(acl, dst, size) == read(acl, src, size)       # same size: copied whole
    acl_lab.reset()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cut=st.one_of(st.just(1 << 20), st.integers(0, 2000)),
       flips=st.lists(st.tuples(st.integers(0, 1999), st.integers(0, 255)), max_size=8),
       out_size=st.sampled_from([0, 100, 128 * 64 * 3 // 2, 1 << 16]))
def test_jpegd_of_damaged_data_returns_codes_and_never_raises(cut, flips, out_size):
    """A JPEG cut short or with flipped bytes: the host helpers return a code, the queued
    decode either writes a picture or fails the synchronize with 507018."""
    from mediahelpers import jpeg_bytes, scene
    acl = fresh()
    m = acl.media
    stream, _ = acl.rt.create_stream()
    data = bytearray(jpeg_bytes(scene(64, 48), quality=80))
    for at, value in flips:
        data[at % len(data)] = value
    data = bytes(data[:max(cut, 1)])
    host = np.frombuffer(data, np.uint8).copy()
    size, ret = m.dvpp_jpeg_predict_dec_size(acl.util.numpy_to_ptr(host), len(data), NV12)
    assert ret in (0, C.ACL_ERROR_FAILURE, C.ACL_ERROR_INVALID_PARAM)
    src = dvpp_copy(acl, data)
    out = dvpp_copy(acl, b"\x11" * max(out_size, 1))
    desc = pic_desc(acl, out, out_size)
    before = read(acl, out, max(out_size, 1))
    assert m.dvpp_jpeg_decode_async(channel(acl), src, len(data), desc, stream) == 0
    synced = acl.rt.synchronize_stream(stream)
    event("decoded" if synced == 0 else "refused on the device")
    if synced:
        assert synced == C.ACL_ERROR_RT_AICPU_EXCEPTION
        assert read(acl, out, max(out_size, 1)) == before
    acl_lab.reset()
