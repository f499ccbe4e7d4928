"""acl.media's batch picture descriptions and batch VPC calls, crop-resize(-paste),
border configs and make-border, colour conversion, pyramid down and PNG decoding (issue
31), with pyACL's return shapes.

Compared: return codes, the pixels written (against numpy doing the same crop, resize and
border), what each output description says after the synchronize, and that a refused call
leaves every output byte as it was. On the Atlas 200/300/500's DVPP (Ascend310) the calls
it lacks answer ACL_ERROR_FEATURE_UNSUPPORTED."""
from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from acl_lab import constants as C
from acl_lab.sim.media import pixels
from mediahelpers import NV12, channel, dvpp_copy, pic_desc, scene
from simhelpers import read

INVALID = C.ACL_ERROR_INVALID_PARAM
W, H = 64, 48


def v100(acl) -> bool:
    return acl.get_soc_name() == "Ascend310"


def nv12(rgb: np.ndarray) -> bytes:
    """``rgb`` as NV12 bytes, width stride = width, height stride = height."""
    f = pixels.to_yuv420(pixels.Frame(rgb=rgb))
    return f.y.tobytes() + f.uv.tobytes()


@pytest.fixture
def source(acl):
    """A 64x48 NV12 picture in DVPP memory: (ptr, size, frame)."""
    data = nv12(scene(W, H))
    return dvpp_copy(acl, data), len(data), pixels.read(np.frombuffer(data, np.uint8), NV12,
                                                         W, H, W, H)


def out_picture(acl, desc, w, h, ws=None, hs=2):
    ws = ws or -(-w // 16) * 16
    size = ws * -(-h // hs) * hs * 3 // 2
    ptr, ret = acl.media.dvpp_malloc(size)
    assert ret == 0
    for name, value in (("data", ptr), ("size", size), ("format", NV12), ("width", w),
                        ("height", h), ("width_stride", ws), ("height_stride", h)):
        assert getattr(acl.media, f"dvpp_set_pic_desc_{name}")(desc, value) == 0
    return ptr, size


def y_plane(acl, ptr, w, h, ws):
    return np.frombuffer(read(acl, ptr, ws * h), np.uint8).reshape(h, ws)[:, :w]


def batch_of(acl, count):
    batch = acl.media.dvpp_create_batch_pic_desc(count)
    assert batch
    return batch, [acl.media.dvpp_get_pic_desc(batch, i) for i in range(count)]


def test_batch_crop_cuts_each_area_into_its_own_picture(acl, stream, source):
    m = acl.media
    ptr, size, frame = source
    src, (in_desc,) = batch_of(acl, 1)
    for name, value in (("data", ptr), ("size", size), ("format", NV12), ("width", W),
                        ("height", H), ("width_stride", W), ("height_stride", H)):
        getattr(m, f"dvpp_set_pic_desc_{name}")(in_desc, value)
    boxes = [(0, 31, 0, 23), (16, 47, 8, 39), (32, 63, 24, 47)]
    dst, outs = batch_of(acl, 3)
    ptrs = [out_picture(acl, d, 32, h)[0] for d, h in zip(outs, (24, 32, 24))]
    rois = [m.dvpp_create_roi_config(*b) for b in boxes]
    result, ret = m.dvpp_vpc_batch_crop_async(channel(acl), src, [3], dst, rois, stream)
    assert (result, ret) == (dst, 0), acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(stream) == 0, acl.get_recent_err_msg()
    for (l, r, t, b), d, p in zip(boxes, outs, ptrs):
        assert m.dvpp_get_pic_desc_ret_code(d) == 0
        np.testing.assert_array_equal(y_plane(acl, p, r - l + 1, b - t + 1, 32),
                                      frame.y[t:b + 1, l:r + 1])
    assert m.dvpp_destroy_batch_pic_desc(src) == 0 and m.dvpp_destroy_batch_pic_desc(dst) == 0


def test_a_batch_call_checks_its_counts_and_lists_before_queueing(acl, stream, source, refused):
    m = acl.media
    ch = channel(acl)
    src, (in_desc,) = batch_of(acl, 1)
    dst, outs = batch_of(acl, 2)
    roi = m.dvpp_create_roi_config(0, 31, 0, 23)
    ptr, size = out_picture(acl, outs[0], 32, 24)
    before = read(acl, ptr, size)
    refused(m.dvpp_vpc_batch_crop_async(ch, src, [3], dst, [roi] * 3, stream)[1], INVALID)
    refused(m.dvpp_vpc_batch_crop_async(ch, src, [1, 1], dst, [roi] * 2, stream)[1], INVALID)
    refused(m.dvpp_vpc_batch_crop_async(ch, src, [2], dst, [roi], stream)[1], INVALID)
    refused(m.dvpp_vpc_batch_crop_async(ch, 0, [1], dst, [roi], stream)[1], INVALID)
    refused(m.dvpp_vpc_batch_crop_resize_async(ch, src, [], dst, [roi], 0, stream), INVALID)
    with pytest.raises(TypeError):
        m.dvpp_vpc_batch_crop_async(ch, src, 1, dst, [roi], stream)
    with pytest.raises(ValueError):                      # pyACL: 1 to 256 areas
        m.dvpp_vpc_batch_crop_async(ch, src, [1], dst, [], stream)
    with pytest.raises(ValueError):
        m.dvpp_vpc_batch_crop_and_paste_async(ch, src, [1], dst, [roi], [roi, roi], stream)
    assert acl.rt.synchronize_stream(stream) == 0
    assert read(acl, ptr, size) == before


def test_batch_pic_descs_hold_1_to_256_pictures_which_go_with_the_batch(acl, refused):
    m = acl.media
    assert m.dvpp_create_batch_pic_desc(0) == 0 and acl.get_recent_err_msg()
    assert m.dvpp_create_batch_pic_desc(257) == 0
    batch, pics = batch_of(acl, 2)
    assert m.dvpp_get_pic_desc(batch, 2) == 0 and "out of bounds" in acl.get_recent_err_msg()
    refused(m.dvpp_destroy_pic_desc(pics[0]), INVALID)        # a batch's own picture
    assert m.dvpp_set_pic_desc_width(pics[0], 32) == 0
    assert m.dvpp_destroy_batch_pic_desc(batch) == 0
    refused(m.dvpp_set_pic_desc_width(pics[0], 32), INVALID)  # gone with the batch
    assert m.dvpp_destroy_batch_pic_desc(0) == 0              # NULL is accepted


def test_crop_resize_and_crop_resize_paste_use_the_resize_config(acl, stream, source):
    m = acl.media
    ptr, size, frame = source
    in_desc = pic_desc(acl, ptr, size, NV12, W, H, W, H)
    cfg = m.dvpp_create_resize_config()
    out_desc = m.dvpp_create_pic_desc()
    out, out_size = out_picture(acl, out_desc, 32, 24)
    roi = m.dvpp_create_roi_config(0, 63, 0, 47)
    assert m.dvpp_vpc_crop_resize_async(channel(acl), in_desc, out_desc, roi, cfg, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    expect = pixels.resize(frame, 32, 24).y
    np.testing.assert_array_equal(y_plane(acl, out, 32, 24, 32), expect)
    paste = m.dvpp_create_roi_config(16, 31, 0, 11)
    big_desc = m.dvpp_create_pic_desc()
    big, _ = out_picture(acl, big_desc, 48, 24)
    assert m.dvpp_vpc_crop_resize_paste_async(channel(acl), in_desc, big_desc, roi, paste, cfg,
                                              stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    np.testing.assert_array_equal(y_plane(acl, big, 48, 24, 48)[0:12, 16:32],
                                  pixels.resize(frame, 16, 12).y)
    assert m.dvpp_vpc_crop_resize_async(channel(acl), in_desc, out_desc, roi, 0, stream) == \
        INVALID                                                   # a NULL resize config


def test_make_border_adds_the_border_around_the_resized_crop(acl, stream, source, refused):
    m = acl.media
    ptr, size, frame = source
    if v100(acl):
        assert m.dvpp_create_border_config() == 0
        return
    cfg = m.dvpp_create_border_config()
    for setter, value in (("top", 4), ("bottom", 4), ("left", 8), ("right", 8)):
        assert getattr(m, f"dvpp_set_border_config_{setter}")(cfg, value) == 0
    assert m.dvpp_set_border_config_value(cfg, 0, 16.0) == 0
    assert m.dvpp_set_border_config_value(cfg, 1, 128.0) == 0
    assert m.dvpp_set_border_config_value(cfg, 2, 128.0) == 0
    src, (in_desc,) = batch_of(acl, 1)
    for name, value in (("data", ptr), ("size", size), ("format", NV12), ("width", W),
                        ("height", H), ("width_stride", W), ("height_stride", H)):
        getattr(m, f"dvpp_set_pic_desc_{name}")(in_desc, value)
    dst, (out_desc,) = batch_of(acl, 1)
    out, _ = out_picture(acl, out_desc, 48, 32)
    roi = m.dvpp_create_roi_config(0, 63, 0, 47)
    assert m.dvpp_vpc_batch_crop_resize_make_border_async(
        channel(acl), src, [1], dst, [roi], [cfg], m.dvpp_create_resize_config(), stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0, acl.get_recent_err_msg()
    y = y_plane(acl, out, 48, 32, 48)
    assert (y[:4] == 16).all() and (y[:, :8] == 16).all() and (y[-4:] == 16).all()
    np.testing.assert_array_equal(y[4:28, 8:40], pixels.resize(frame, 32, 24).y)
    refused(m.dvpp_set_border_config_top(cfg, 70000), INVALID)
    assert m.dvpp_get_border_config_top(cfg) == 4
    refused(m.dvpp_set_border_config_value(cfg, 4, 1.0), INVALID)
    assert m.dvpp_get_border_config_value(cfg, 4) == -1.0
    assert m.dvpp_get_border_config_border_type(cfg) == C.BORDER_CONSTANT
    assert m.dvpp_set_border_config_border_type(cfg, C.BORDER_REPLICATE) == 0
    assert m.dvpp_get_border_config_border_type(cfg) == C.BORDER_REPLICATE
    assert m.dvpp_destroy_border_config(cfg) == 0
    assert m.dvpp_get_border_config_left(cfg) == 0 and acl.get_recent_err_msg()


def test_convert_color_and_pyramid_down(acl, stream, source, refused):
    m = acl.media
    ptr, size, frame = source
    in_desc = pic_desc(acl, ptr, size, NV12, W, H, W, H)
    rgb_size = W * 3 * H
    rgb, _ = m.dvpp_malloc(rgb_size)
    rgb_desc = pic_desc(acl, rgb, rgb_size, C.PIXEL_FORMAT_RGB_888, W, H, W * 3, H)
    ret = m.dvpp_vpc_convert_color_async(channel(acl), in_desc, rgb_desc, stream)
    if v100(acl):
        refused(ret, C.ACL_ERROR_FEATURE_UNSUPPORTED)
        return
    assert ret == 0 and acl.rt.synchronize_stream(stream) == 0
    got = np.frombuffer(read(acl, rgb, rgb_size), np.uint8).reshape(H, W, 3)
    np.testing.assert_array_equal(got, pixels.to_rgb(frame))
    gray = frame.y.tobytes()
    g_ptr = dvpp_copy(acl, gray)
    g_desc = pic_desc(acl, g_ptr, len(gray), C.PIXEL_FORMAT_YUV_400, W, H, W, H)
    half, _ = m.dvpp_malloc(32 * 24)
    h_desc = pic_desc(acl, half, 32 * 24, C.PIXEL_FORMAT_YUV_400, 32, 24, 32, 24)
    assert m.dvpp_vpc_pyr_down_async(channel(acl), g_desc, h_desc, 0, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    import cv2
    np.testing.assert_array_equal(np.frombuffer(read(acl, half, 32 * 24), np.uint8)
                                  .reshape(24, 32), cv2.pyrDown(frame.y))
    refused(m.dvpp_vpc_pyr_down_async(channel(acl), in_desc, h_desc, 0, stream),
            C.ACL_ERROR_FORMAT_NOT_MATCH)                  # PyrDown takes YUV400 only
    refused(m.dvpp_vpc_pyr_down_async(channel(acl), g_desc, h_desc, 8, stream), INVALID)


def test_png_decoding_gives_rgb_or_rgba_in_aligned_strides(acl, stream, refused):
    m = acl.media
    rgba = np.dstack([scene(40, 36), np.full((36, 40), 200, np.uint8)])
    buf = io.BytesIO()
    Image.fromarray(rgba, "RGBA").save(buf, format="PNG")
    data = buf.getvalue()
    host = np.frombuffer(data, np.uint8).copy()
    info = m.dvpp_png_get_image_info(acl.util.numpy_to_ptr(host), len(data))
    if v100(acl):
        refused(info[-1], C.ACL_ERROR_FEATURE_UNSUPPORTED)
        return
    assert info == (40, 36, 4, 0)
    size, ret = m.dvpp_png_predict_dec_size(acl.util.numpy_to_ptr(host), len(data),
                                            C.PIXEL_FORMAT_UNKNOWN)
    assert (size, ret) == (128 * 4 * 48, 0)
    out, _ = m.dvpp_malloc(size)
    desc = pic_desc(acl, out, size, C.PIXEL_FORMAT_UNKNOWN)
    assert m.dvpp_png_decode_async(channel(acl), dvpp_copy(acl, data), len(data), desc,
                                   stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert (m.dvpp_get_pic_desc_format(desc), m.dvpp_get_pic_desc_width_stride(desc)) == \
        (C.PIXEL_FORMAT_RGBA_8888, 512)
    got = np.frombuffer(read(acl, out, size), np.uint8).reshape(48, 512)[:36, :160]
    np.testing.assert_array_equal(got.reshape(36, 40, 4), rgba)
    refused(m.dvpp_png_predict_dec_size(acl.util.numpy_to_ptr(host), len(data),
                                        C.PIXEL_FORMAT_YUV_SEMIPLANAR_420)[1],
            C.ACL_ERROR_FORMAT_NOT_MATCH)
    junk = np.zeros(64, np.uint8)
    refused(m.dvpp_png_get_image_info(acl.util.numpy_to_ptr(junk), 64)[-1], C.ACL_ERROR_FAILURE)
