"""acl.media on the simulator: JPEGD, VPC and JPEGE do real pixel work on DVPP memory, as
queued stream tasks, and refuse broken pictures with the real codes (acl_lab/media)."""
from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

import acl_lab
from acl_lab import constants as C
from acl_lab.align import align_up
from mediahelpers import (NV12, channel, decode, dvpp_copy, jpeg_bytes, pic_desc,
                          picture_rgb, scene)
from simhelpers import fresh, read

AICPU = C.ACL_ERROR_RT_AICPU_EXCEPTION
NV21, RGB = C.PIXEL_FORMAT_YVU_SEMIPLANAR_420, C.PIXEL_FORMAT_RGB_888


def _host(acl, data: bytes) -> int:
    host = np.frombuffer(data, np.uint8).copy()
    _host.keep.append(host)
    return acl.util.numpy_to_ptr(host)


_host.keep = []


# ----- host-side JPEG helpers --------------------------------------------------------------
def test_image_info_and_predicted_decode_size_follow_acl(acl):
    data = jpeg_bytes(scene(150, 100))
    w, h, comp, ret = acl.media.dvpp_jpeg_get_image_info(_host(acl, data), len(data))
    assert (w, h, comp, ret) == (150, 100, 3, 0)
    *_, css, ret = acl.media.dvpp_jpeg_get_image_info_v2(_host(acl, data), len(data))
    assert (css, ret) == (C.ACL_JPEG_CSS_420, 0)
    size, ret = acl.media.dvpp_jpeg_predict_dec_size(_host(acl, data), len(data), NV12)
    assert ret == 0 and size == align_up(150, 64) * align_up(100, 16) * 3 // 2   # Atlas A2


#: JPEGD's output width stride per product line (JPEGD 功能及约束说明, table 2, CANN 8.0.RC1:
#: 64 on Atlas A2, Atlas inference and 200I/500 A2; 128 on Atlas 200/300/500)
JPEGD_WIDTH_ALIGN = {"910b": 64, "310p": 64, "310b": 64, "310": 128, "200dk": 128}


@pytest.mark.parametrize("profile", sorted(JPEGD_WIDTH_ALIGN))
def test_jpegd_output_strides_follow_the_soc(profile):
    acl = fresh(profile)
    stream, _ = acl.rt.create_stream()
    data = jpeg_bytes(scene(150, 100))
    size, ret = acl.media.dvpp_jpeg_predict_dec_size(_host(acl, data), len(data), NV12)
    align = JPEGD_WIDTH_ALIGN[profile]
    assert ret == 0 and size == align_up(150, align) * align_up(100, 16) * 3 // 2
    _out, desc = decode(acl, data, stream)
    assert (acl.media.dvpp_get_pic_desc_width_stride(desc),
            acl.media.dvpp_get_pic_desc_height_stride(desc)) == (align_up(150, align), 112)


def test_not_a_jpeg_and_a_bad_output_format_are_refused_with_their_codes(acl):
    junk = b"not a jpeg at all, just bytes" * 4
    assert acl.media.dvpp_jpeg_get_image_info(_host(acl, junk), len(junk))[-1] == \
        C.ACL_ERROR_FAILURE
    assert "not a JPEG" in acl.get_recent_err_msg()
    data = jpeg_bytes(scene(64, 64))
    size, ret = acl.media.dvpp_jpeg_predict_dec_size(_host(acl, data), len(data), RGB)
    assert (size, ret) == (0, C.ACL_ERROR_FORMAT_NOT_MATCH)
    tiny = jpeg_bytes(scene(16, 16))
    assert acl.media.dvpp_jpeg_predict_dec_size(_host(acl, tiny), len(tiny), NV12)[1] == \
        C.ACL_ERROR_INVALID_PARAM
    assert "32x32" in acl.get_recent_err_msg()


def test_reading_a_header_in_device_memory_on_the_host_is_refused_not_a_crash(acl):
    data = jpeg_bytes(scene(64, 64))
    dev = dvpp_copy(acl, data)
    assert acl.media.dvpp_jpeg_get_image_info(dev, len(data))[-1] == C.ACL_ERROR_INVALID_PARAM
    assert "crash" in acl.get_recent_err_msg()


def test_predicted_encode_size_is_acls_formula(acl):
    desc = pic_desc(acl, 0, 0, NV12, 100, 50, 112, 50)
    cfg = acl.media.dvpp_create_jpege_config()
    size, ret = acl.media.dvpp_jpeg_predict_enc_size(desc, cfg)
    assert ret == 0 and size == align_up(112 * 50 * 3 // 2 + 640 + 128, 2 * 1024 * 1024)
    acl.media.dvpp_set_pic_desc_width_stride(desc, 100)         # not a multiple of 16
    assert acl.media.dvpp_jpeg_predict_enc_size(desc, cfg) == (0, C.ACL_ERROR_INVALID_PARAM)


# ----- JPEGD -> VPC round trip --------------------------------------------------------------
def test_decode_then_resize_matches_pillow(acl, stream):
    rgb = scene(160, 120)
    data = jpeg_bytes(rgb)
    ch = channel(acl)
    out, desc = decode(acl, data, stream, ch)
    m = acl.media
    assert (m.dvpp_get_pic_desc_width(desc), m.dvpp_get_pic_desc_height(desc)) == (160, 120)
    assert (m.dvpp_get_pic_desc_width_stride(desc),
            m.dvpp_get_pic_desc_height_stride(desc)) == (192, 128)     # ALIGN_UP(160, 64)
    assert m.dvpp_get_pic_desc_ret_code(desc) == 0
    decoded = picture_rgb(acl, out, NV12, 160, 120, 192, 128)
    pillow = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))
    assert np.abs(decoded.astype(int) - pillow).mean() < 2

    ow, oh = 96, 72
    osize = ow * oh * 3 // 2
    res, _ = m.dvpp_malloc(osize)
    rdesc = pic_desc(acl, res, osize, NV12, ow, oh, 96, 72)
    cfg = m.dvpp_create_resize_config()
    assert m.dvpp_vpc_resize_async(ch, desc, rdesc, cfg, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    resized = picture_rgb(acl, res, NV12, ow, oh, 96, 72)
    want = np.asarray(Image.open(io.BytesIO(data)).convert("RGB").resize((ow, oh),
                                                                         Image.BILINEAR))
    diff = np.abs(resized.astype(int) - want)
    assert diff.mean() < 3 and np.percentile(diff, 99) < 20


def test_results_appear_at_the_synchronize_not_before(acl, stream):
    data = jpeg_bytes(scene(64, 64))
    size, _ = acl.media.dvpp_jpeg_predict_dec_size(_host(acl, data), len(data), NV12)
    src, out = dvpp_copy(acl, data), acl.media.dvpp_malloc(size)[0]
    desc = pic_desc(acl, out, size)
    before = read(acl, out, size)
    assert acl.media.dvpp_jpeg_decode_async(channel(acl), src, len(data), desc, stream) == 0
    assert acl.media.dvpp_get_pic_desc_width(desc) == 0          # not run yet
    assert read(acl, out, size) == before
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.media.dvpp_get_pic_desc_width(desc) == 64
    assert read(acl, out, size) != before


def test_a_resize_queued_right_after_a_decode_sees_what_the_decode_wrote(acl, stream):
    """ACL copies descriptors to the device in stream order: no synchronize needed between."""
    m = acl.media
    data = jpeg_bytes(scene(96, 64))
    size, _ = m.dvpp_jpeg_predict_dec_size(_host(acl, data), len(data), NV12)
    src, out = dvpp_copy(acl, data), m.dvpp_malloc(size)[0]
    desc = pic_desc(acl, out, size)                     # width and height left to JPEGD
    res, _ = m.dvpp_malloc(48 * 32 * 3 // 2)
    rdesc = pic_desc(acl, res, 48 * 32 * 3 // 2, NV12, 48, 32, 48, 32)
    ch = channel(acl)
    assert m.dvpp_jpeg_decode_async(ch, src, len(data), desc, stream) == 0
    assert m.dvpp_vpc_resize_async(ch, desc, rdesc, m.dvpp_create_resize_config(), stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0, acl.get_recent_err_msg()
    got = picture_rgb(acl, res, NV12, 48, 32, 48, 32)
    want = np.asarray(Image.open(io.BytesIO(data)).convert("RGB").resize((48, 32),
                                                                         Image.BILINEAR))
    assert np.abs(got.astype(int) - want).mean() < 4


def test_crop_and_paste_writes_only_the_paste_area(acl, stream):
    m = acl.media
    rgb = scene(128, 96)
    data = jpeg_bytes(rgb)
    ch = channel(acl)
    out, desc = decode(acl, data, stream, ch)
    size = 64 * 64 * 3 // 2
    dst = dvpp_copy(acl, bytes([77]) * size)
    ddesc = pic_desc(acl, dst, size, NV12, 64, 64, 64, 64)
    crop = m.dvpp_create_roi_config(32, 95, 16, 79)           # 64 x 64 from the middle
    paste = m.dvpp_create_roi_config(16, 47, 0, 31)           # into 32 x 32 at (16, 0)
    assert m.dvpp_vpc_crop_and_paste_async(ch, desc, ddesc, crop, paste, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0, acl.get_recent_err_msg()
    y = np.frombuffer(read(acl, dst, size), np.uint8)[:64 * 64].reshape(64, 64)
    assert (y[32:, :] == 77).all() and (y[:, :16] == 77).all() and (y[:, 48:] == 77).all()
    assert (y[:32, 16:48] != 77).any()
    got = picture_rgb(acl, dst, NV12, 64, 64, 64, 64)[:32, 16:48]
    want = np.asarray(Image.fromarray(rgb[16:80, 32:96]).resize((32, 32), Image.BILINEAR))
    assert np.abs(got.astype(int) - want).mean() < 6


def test_nv21_output_swaps_the_chroma_of_nv12(acl, stream):
    m = acl.media
    data = jpeg_bytes(scene(64, 64))
    ch = channel(acl)
    out, desc = decode(acl, data, stream, ch)
    planes = {}
    for fmt in (NV12, NV21):
        size = 64 * 64 * 3 // 2
        dst, _ = m.dvpp_malloc(size)
        ddesc = pic_desc(acl, dst, size, fmt, 64, 64, 64, 64)
        assert m.dvpp_vpc_resize_async(ch, desc, ddesc, m.dvpp_create_resize_config(),
                                       stream) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        planes[fmt] = np.frombuffer(read(acl, dst, size), np.uint8)
    uv12 = planes[NV12][64 * 64:].reshape(-1, 2)
    uv21 = planes[NV21][64 * 64:].reshape(-1, 2)
    assert (planes[NV12][:64 * 64] == planes[NV21][:64 * 64]).all()
    assert (uv12[:, ::-1] == uv21).all()


def test_packed_rgb_input_is_converted_to_yuv420sp(acl, stream):
    m = acl.media
    rgb = scene(48, 32)
    ws = align_up(48 * 3, 16)
    rows = np.zeros((32, ws), np.uint8)
    rows[:, :48 * 3] = rgb.reshape(32, -1)
    src = dvpp_copy(acl, rows.tobytes())
    sdesc = pic_desc(acl, src, rows.size, RGB, 48, 32, ws, 32)
    size = 48 * 32 * 3 // 2
    dst, _ = m.dvpp_malloc(size)
    ddesc = pic_desc(acl, dst, size, NV12, 48, 32, 48, 32)
    assert m.dvpp_vpc_resize_async(channel(acl), sdesc, ddesc, m.dvpp_create_resize_config(),
                                   stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0, acl.get_recent_err_msg()
    back = picture_rgb(acl, dst, NV12, 48, 32, 48, 32)
    assert np.abs(back.astype(int) - rgb).mean() < 4


# ----- JPEGE -------------------------------------------------------------------------------
def test_encode_writes_a_jpeg_and_its_size(acl, stream):
    m = acl.media
    rgb = scene(128, 96)
    ch = channel(acl)
    out, desc = decode(acl, jpeg_bytes(rgb), stream, ch)
    cfg = m.dvpp_create_jpege_config()
    assert m.dvpp_set_jpege_config_level(cfg, 95) == 0
    assert m.dvpp_get_jpege_config_level(cfg) == 95
    size, ret = m.dvpp_jpeg_predict_enc_size(desc, cfg)
    assert ret == 0
    dst, _ = m.dvpp_malloc(size)
    slot = np.array([size], np.uint32)
    assert m.dvpp_jpeg_encode_async(ch, desc, dst, acl.util.numpy_to_ptr(slot), cfg,
                                    stream) == 0
    assert slot[0] == size                                     # deferred
    assert acl.rt.synchronize_stream(stream) == 0, acl.get_recent_err_msg()
    assert 0 < slot[0] < size
    jpg = read(acl, dst, int(slot[0]))
    back = np.asarray(Image.open(io.BytesIO(jpg)).convert("RGB"))
    assert back.shape == (96, 128, 3) and np.abs(back.astype(int) - rgb).mean() < 4


def test_encode_into_a_buffer_said_too_small_fails_at_the_synchronize(acl, stream):
    m = acl.media
    ch = channel(acl)
    out, desc = decode(acl, jpeg_bytes(scene(64, 64)), stream, ch)
    dst, _ = m.dvpp_malloc(4096)
    before = read(acl, dst, 64)
    slot = np.array([64], np.uint32)
    assert m.dvpp_jpeg_encode_async(ch, desc, dst, acl.util.numpy_to_ptr(slot),
                                    m.dvpp_create_jpege_config(), stream) == 0
    assert acl.rt.synchronize_stream(stream) == AICPU
    assert "predict_enc_size" in acl.get_recent_err_msg()
    assert slot[0] == 64 and read(acl, dst, 64) == before
    assert acl.rt.synchronize_stream(stream) == 0                # the failed task is gone


# ----- misuse: refused on the device, at the synchronize ----------------------------------
def _resize_setup(acl, stream):
    m = acl.media
    ch = channel(acl)
    out, desc = decode(acl, jpeg_bytes(scene(64, 64)), stream, ch)
    size = 32 * 32 * 3 // 2
    dst, _ = m.dvpp_malloc(size)
    ddesc = pic_desc(acl, dst, size, NV12, 32, 32, 32, 32)
    return ch, desc, dst, ddesc, size


@pytest.mark.parametrize("breaks, words", [
    (lambda acl, d, dst: acl.media.dvpp_set_pic_desc_width_stride(d, 40), "multiple of 16"),
    (lambda acl, d, dst: acl.media.dvpp_set_pic_desc_height_stride(d, 31), "multiple of 2"),
    (lambda acl, d, dst: acl.media.dvpp_set_pic_desc_size(d, 100), "takes 1536"),
    (lambda acl, d, dst: acl.media.dvpp_set_pic_desc_data(d, dst + 64), "128-byte"),
    (lambda acl, d, dst: acl.media.dvpp_set_pic_desc_data(
        d, acl.rt.malloc(4096, 0)[0]), "dvpp_malloc"),
    (lambda acl, d, dst: acl.media.dvpp_set_pic_desc_data(d, 0), "NULL"),
    (lambda acl, d, dst: acl.media.dvpp_set_pic_desc_width(d, 8), "10x6"),
])
def test_a_broken_output_picture_fails_the_stream_and_writes_nothing(acl, stream, breaks,
                                                                     words):
    m = acl.media
    ch, desc, dst, ddesc, size = _resize_setup(acl, stream)
    before = read(acl, dst, size)
    breaks(acl, ddesc, dst)
    assert m.dvpp_vpc_resize_async(ch, desc, ddesc, m.dvpp_create_resize_config(),
                                   stream) == 0
    assert acl.rt.synchronize_stream(stream) == AICPU
    msg = acl.get_recent_err_msg()
    assert words in msg and "acldvppVpcResizeAsync" in msg, msg
    assert m.dvpp_get_pic_desc_ret_code(ddesc) == AICPU
    assert read(acl, dst, size) == before


def test_crop_edges_must_be_even_then_odd(acl, stream):
    m = acl.media
    ch, desc, dst, ddesc, size = _resize_setup(acl, stream)
    crop = m.dvpp_create_roi_config(1, 32, 0, 31)
    assert m.dvpp_vpc_crop_async(ch, desc, ddesc, crop, stream) == 0
    assert acl.rt.synchronize_stream(stream) == AICPU
    assert "even" in acl.get_recent_err_msg()
    assert m.dvpp_set_roi_config(crop, 0, 31, 0, 31) == 0
    assert m.dvpp_vpc_crop_async(ch, desc, ddesc, crop, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert m.dvpp_get_pic_desc_ret_code(ddesc) == 0


def test_a_channel_never_created_fails_on_the_device(acl, stream):
    m = acl.media
    _, desc, dst, ddesc, _ = _resize_setup(acl, stream)
    raw = m.dvpp_create_channel_desc()
    assert m.dvpp_vpc_resize_async(raw, desc, ddesc, m.dvpp_create_resize_config(),
                                   stream) == 0
    assert acl.rt.synchronize_stream(stream) == AICPU
    assert "dvpp_create_channel" in acl.get_recent_err_msg()


def test_host_side_refusals_come_from_the_call_itself(acl_on):
    acl = acl_on("310")
    m = acl.media
    stream, _ = acl.rt.create_stream()
    ch, desc, dst, ddesc, _ = _resize_setup(acl, stream)
    assert m.dvpp_set_pic_desc_format(ddesc, RGB) == 0      # VPC on Ascend 310: NV12/NV21 out
    assert m.dvpp_vpc_resize_async(ch, desc, ddesc, m.dvpp_create_resize_config(),
                                   stream) == C.ACL_ERROR_FORMAT_NOT_MATCH
    assert "PIXEL_FORMAT_RGB_888" in acl.get_recent_err_msg()
    cfg = m.dvpp_create_resize_config()
    assert m.dvpp_set_resize_config_interpolation(cfg, 5) == C.ACL_ERROR_INVALID_PARAM
    assert m.dvpp_vpc_resize_async(ch, desc, 0x6000_0000, cfg, stream) == \
        C.ACL_ERROR_INVALID_PARAM
    assert acl.rt.synchronize_stream(stream) == 0             # nothing was queued


# ----- descriptors -------------------------------------------------------------------------
def test_descriptors_hold_what_is_set_and_refuse_dead_handles(acl):
    m = acl.media
    d = m.dvpp_create_pic_desc()
    assert m.dvpp_set_pic_desc_width(d, 1920) == 0 and m.dvpp_get_pic_desc_width(d) == 1920
    assert m.dvpp_set_pic_desc_width(d, 1 << 32) == C.ACL_ERROR_INVALID_PARAM
    assert m.dvpp_get_pic_desc_width(d) == 1920                # a failed call changed nothing
    roi = m.dvpp_create_roi_config(0, 1, 2, 3)
    assert m.dvpp_get_pic_desc_width(roi) == 0
    assert "acldvppRoiConfig, not a acldvppPicDesc" in acl.get_recent_err_msg()
    assert m.dvpp_destroy_pic_desc(d) == 0
    assert m.dvpp_get_pic_desc_width(d) == 0
    assert "destroyed" in acl.get_recent_err_msg()
    assert m.dvpp_destroy_pic_desc(d) == C.ACL_ERROR_INVALID_PARAM
    assert m.dvpp_destroy_pic_desc(0) == 0                     # ACL: destroying NULL is fine
    with pytest.raises(TypeError):
        m.dvpp_set_pic_desc_width(roi, "wide")


def test_handles_are_deterministic_across_a_reset():
    acl = fresh()
    first = [acl.media.dvpp_create_pic_desc() for _ in range(3)]
    acl = fresh()
    assert [acl.media.dvpp_create_pic_desc() for _ in range(3)] == first


# ----- modeled time and budgets ------------------------------------------------------------
def test_jpegd_time_is_modeled_from_the_published_rate(acl, stream):
    from acl_lab.sim.media import timing
    from acl_lab.sim.profiles import get_profile
    m = acl.media
    data = jpeg_bytes(scene(64, 64))
    size, _ = m.dvpp_jpeg_predict_dec_size(_host(acl, data), len(data), NV12)
    src, out = dvpp_copy(acl, data), m.dvpp_malloc(size)[0]
    desc = pic_desc(acl, out, size)
    ch = channel(acl)
    start, end = acl.rt.create_event()[0], acl.rt.create_event()[0]
    acl.rt.record_event(start, stream)
    assert m.dvpp_jpeg_decode_async(ch, src, len(data), desc, stream) == 0
    acl.rt.record_event(end, stream)
    acl.rt.synchronize_stream(stream)
    ms, ret = acl.rt.event_elapsed_time(start, end)
    assert ret == 0
    launch = get_profile("910b").rates.launch_us          # the host issues it after the record
    assert ms == pytest.approx((launch + timing.duration_us("jpegd", size * 2 // 3)) / 1000)


def test_an_oversized_jpeg_is_refused_before_its_pixels_are_decoded(acl, stream):
    big = jpeg_bytes(np.zeros((16, 9000, 3), np.uint8), quality=10)
    host = _host(acl, big)
    assert acl.media.dvpp_jpeg_predict_dec_size(host, len(big), NV12)[1] == \
        C.ACL_ERROR_INVALID_PARAM
    src, out = dvpp_copy(acl, big), acl.media.dvpp_malloc(1 << 20)[0]
    desc = pic_desc(acl, out, 1 << 20)
    assert acl.media.dvpp_jpeg_decode_async(channel(acl), src, len(big), desc, stream) == 0
    assert acl.rt.synchronize_stream(stream) == AICPU
    assert "8192" in acl.get_recent_err_msg()
    acl_lab.reset()


def test_channel_mode_is_refused_on_310_and_limits_the_engines_elsewhere(acl_on):
    acl = acl_on("310")
    ch = acl.media.dvpp_create_channel_desc()
    assert acl.media.dvpp_set_channel_desc_mode(ch, 1) == C.ACL_ERROR_FEATURE_UNSUPPORTED
    acl = acl_on("910b")
    m = acl.media
    stream, _ = acl.rt.create_stream()
    ch = m.dvpp_create_channel_desc()
    assert m.dvpp_set_channel_desc_mode(ch, 16) == C.ACL_ERROR_INVALID_PARAM   # 8: PNGD
    assert m.dvpp_set_channel_desc_mode(ch, 2) == 0           # JPEGD only
    assert m.dvpp_create_channel(ch) == 0
    out, desc = decode(acl, jpeg_bytes(scene(64, 64)), stream, ch)
    size = 32 * 32 * 3 // 2
    ddesc = pic_desc(acl, m.dvpp_malloc(size)[0], size, NV12, 32, 32, 32, 32)
    assert m.dvpp_vpc_resize_async(ch, desc, ddesc, m.dvpp_create_resize_config(), stream) == 0
    assert acl.rt.synchronize_stream(stream) == AICPU
    assert "leaves out VPC" in acl.get_recent_err_msg()


def test_vpc_rounds_an_odd_yuv420sp_input_down_to_even(acl, stream):
    """CANN: "if the input's width or height is odd, VPC rounds it down to even"."""
    m = acl.media
    ws, hs = 16, 16
    src = dvpp_copy(acl, bytes(range(256)) * 2)
    sdesc = pic_desc(acl, src, ws * hs * 3 // 2, NV12, 15, 15, ws, hs)
    size = 16 * 16 * 3 // 2
    dst, _ = m.dvpp_malloc(size)
    ddesc = pic_desc(acl, dst, size, NV12, 14, 14, 16, 16)
    assert m.dvpp_vpc_resize_async(channel(acl), sdesc, ddesc, m.dvpp_create_resize_config(),
                                   stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0, acl.get_recent_err_msg()
    y = np.frombuffer(read(acl, dst, size), np.uint8)[:256].reshape(16, 16)
    assert (y[:14, :14] == np.arange(256, dtype=np.uint8).reshape(16, 16)[:14, :14]).all()


def test_a_description_changed_after_the_call_is_judged_when_the_task_runs(acl, stream):
    """Tasks read their descriptions when they run; a format changed in between is the
    engine's refusal, never a crash."""
    m = acl.media
    ch, desc, dst, ddesc, size = _resize_setup(acl, stream)
    before = read(acl, dst, size)
    assert m.dvpp_vpc_resize_async(ch, desc, ddesc, m.dvpp_create_resize_config(), stream) == 0
    assert m.dvpp_set_pic_desc_format(ddesc, C.PIXEL_FORMAT_YUYV_PACKED_422) == 0
    assert acl.rt.synchronize_stream(stream) == AICPU
    assert "YUYV" in acl.get_recent_err_msg()
    assert read(acl, dst, size) == before
