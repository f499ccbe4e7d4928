"""acl.media on the simulator: pyACL's names, argument order and return shapes.

Each method reads its arguments as C would (sim/args.py) and hands the work to the room
(dvpp.py, video.py, descriptors.py). ``@shape`` says how the call fails in pyACL — the
facade (sim/api.py ``_room``) wraps it so: ``ret`` alone; a value before ``ret``; or a
bare value (C returns it directly: a handle, a getter), 0 on failure with the reason kept
for acl.get_recent_err_msg(). Signatures follow the pyACL reference (aclpythondevg,
"acl.media") and pyACL's own argument parsing (``media_jpeg.cpp``, ``media_vdec.cpp``).
"""
from __future__ import annotations

import inspect

from .. import constants as C
from ..i18n import _
from ..sim.args import i32, ptr_arg, u32
from ..sim.simerror import SimError
from . import dvpp, state, video
from .descriptors import (ChannelDesc, FrameConfig, JpegeConfig, PicDesc, ResizeConfig,
                          RoiConfig, StreamDesc, VdecChannelDesc, VencChannelDesc)


def returns(*fail):
    """pyACL returns ``(*values, ret)``; on failure ``(*fail, code)`` (or just ``code``)."""
    def mark(fn):
        fn.acl_shape = ("api", fail)
        return fn
    return mark


def bare(default):
    """pyACL returns the C function's own value; ``default`` on failure."""
    def mark(fn):
        fn.acl_shape = ("value", default)
        return fn
    return mark


def _descs(rt):
    return state.of(rt).descs


def _create(rt, obj) -> int:
    return _descs(rt).add(obj)


def _destroy(rt, handle, kind, call: str, what: str) -> None:
    """acldvppDestroy*: NULL is accepted and does nothing (ACL returns success)."""
    h = ptr_arg(call, what, handle)
    if h:
        _descs(rt).destroy(h, kind, call, what)


def _get(rt, handle, kind, call: str, what: str):
    return _descs(rt).get(ptr_arg(call, what, handle), kind, call, what)


def _named(fn, *params: str):
    """Give a generated call pyACL's parameter names (help() and Shift-Tab show them)."""
    P = inspect.Parameter
    fn.__signature__ = inspect.Signature(
        [P(n, P.POSITIONAL_OR_KEYWORD) for n in ("self", "rt", *params)])
    return fn


def _setter(kind, field: str, call: str, what: str, parse=u32):
    """acldvppSet*: the description's ``field`` = the value, read as its C type."""
    @returns()
    def set_(self, rt, desc, value):
        value = parse(call, field, value)        # pyACL parses every argument first
        setattr(_get(rt, desc, kind, call, what), field, value)
    return _named(set_, what, field)


def _getter(kind, field: str, call: str, what: str):
    """acldvppGet*: the description's ``field`` (0 for a description that is not live)."""
    @bare(0)
    def get(self, rt, desc):
        return getattr(_get(rt, desc, kind, call, what), field)
    return _named(get, what)


_PIC, _STREAM = "pic_desc", "stream_desc"


class Dvpp:
    """Channels, picture and stream descriptions, configs, JPEGD / JPEGE / VPC."""

    # ----- channel --------------------------------------------------------------------------
    @bare(0)
    def dvpp_create_channel_desc(self, rt):
        return _create(rt, ChannelDesc())

    @returns()
    def dvpp_destroy_channel_desc(self, rt, channel_desc):
        _destroy(rt, channel_desc, ChannelDesc, "acldvppDestroyChannelDesc", "channelDesc")

    @returns()
    def dvpp_create_channel(self, rt, channel_desc):
        c = "acldvppCreateChannel"
        ch = _get(rt, channel_desc, ChannelDesc, c, "channelDesc")
        rt.require_ctx(c)            # the channel is made on the current device
        ch.created = True

    @returns()
    def dvpp_destroy_channel(self, rt, channel_desc):
        c = "acldvppDestroyChannel"
        ch = _get(rt, channel_desc, ChannelDesc, c, "channelDesc")
        if not ch.created:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: the channel was never created (or is destroyed already).").format(
                    call=c))
        ch.created = False

    @returns()
    def dvpp_set_channel_desc_mode(self, rt, channel_desc, mode):
        c = "acldvppSetChannelDescMode"
        mode = u32(c, "mode", mode)
        ch = _get(rt, channel_desc, ChannelDesc, c, "channelDesc")
        dvpp.check_channel_mode(rt, c, mode)
        ch.mode = mode

    # ----- picture descriptions ---------------------------------------------------------
    @bare(0)
    def dvpp_create_pic_desc(self, rt):
        return _create(rt, PicDesc())

    @returns()
    def dvpp_destroy_pic_desc(self, rt, pic_desc):
        _destroy(rt, pic_desc, PicDesc, "acldvppDestroyPicDesc", _PIC)

    dvpp_set_pic_desc_data = _setter(PicDesc, "data", "acldvppSetPicDescData", _PIC, ptr_arg)
    dvpp_set_pic_desc_size = _setter(PicDesc, "size", "acldvppSetPicDescSize", _PIC)
    dvpp_set_pic_desc_format = _setter(PicDesc, "format", "acldvppSetPicDescFormat", _PIC, i32)
    dvpp_set_pic_desc_width = _setter(PicDesc, "width", "acldvppSetPicDescWidth", _PIC)
    dvpp_set_pic_desc_height = _setter(PicDesc, "height", "acldvppSetPicDescHeight", _PIC)
    dvpp_set_pic_desc_width_stride = _setter(PicDesc, "width_stride",
                                             "acldvppSetPicDescWidthStride", _PIC)
    dvpp_set_pic_desc_height_stride = _setter(PicDesc, "height_stride",
                                              "acldvppSetPicDescHeightStride", _PIC)
    dvpp_set_pic_desc_ret_code = _setter(PicDesc, "ret_code", "acldvppSetPicDescRetCode", _PIC)
    dvpp_get_pic_desc_data = _getter(PicDesc, "data", "acldvppGetPicDescData", _PIC)
    dvpp_get_pic_desc_size = _getter(PicDesc, "size", "acldvppGetPicDescSize", _PIC)
    dvpp_get_pic_desc_format = _getter(PicDesc, "format", "acldvppGetPicDescFormat", _PIC)
    dvpp_get_pic_desc_width = _getter(PicDesc, "width", "acldvppGetPicDescWidth", _PIC)
    dvpp_get_pic_desc_height = _getter(PicDesc, "height", "acldvppGetPicDescHeight", _PIC)
    dvpp_get_pic_desc_width_stride = _getter(PicDesc, "width_stride",
                                             "acldvppGetPicDescWidthStride", _PIC)
    dvpp_get_pic_desc_height_stride = _getter(PicDesc, "height_stride",
                                              "acldvppGetPicDescHeightStride", _PIC)
    dvpp_get_pic_desc_ret_code = _getter(PicDesc, "ret_code", "acldvppGetPicDescRetCode", _PIC)

    # ----- stream descriptions (VDEC input, VENC output) --------------------------------
    @bare(0)
    def dvpp_create_stream_desc(self, rt):
        return _create(rt, StreamDesc())

    @returns()
    def dvpp_destroy_stream_desc(self, rt, stream_desc):
        _destroy(rt, stream_desc, StreamDesc, "acldvppDestroyStreamDesc", _STREAM)

    dvpp_set_stream_desc_data = _setter(StreamDesc, "data", "acldvppSetStreamDescData",
                                        _STREAM, ptr_arg)
    dvpp_set_stream_desc_size = _setter(StreamDesc, "size", "acldvppSetStreamDescSize", _STREAM)
    dvpp_set_stream_desc_format = _setter(StreamDesc, "format", "acldvppSetStreamDescFormat",
                                          _STREAM, i32)
    dvpp_set_stream_desc_timestamp = _setter(StreamDesc, "timestamp",
                                             "acldvppSetStreamDescTimestamp", _STREAM, ptr_arg)
    dvpp_set_stream_desc_eos = _setter(StreamDesc, "eos", "acldvppSetStreamDescEos", _STREAM)
    dvpp_set_stream_desc_ret_code = _setter(StreamDesc, "ret_code",
                                            "acldvppSetStreamDescRetCode", _STREAM)
    dvpp_get_stream_desc_data = _getter(StreamDesc, "data", "acldvppGetStreamDescData", _STREAM)
    dvpp_get_stream_desc_size = _getter(StreamDesc, "size", "acldvppGetStreamDescSize", _STREAM)
    dvpp_get_stream_desc_format = _getter(StreamDesc, "format", "acldvppGetStreamDescFormat",
                                          _STREAM)
    dvpp_get_stream_desc_timestamp = _getter(StreamDesc, "timestamp",
                                             "acldvppGetStreamDescTimestamp", _STREAM)
    dvpp_get_stream_desc_eos = _getter(StreamDesc, "eos", "acldvppGetStreamDescEos", _STREAM)
    dvpp_get_stream_desc_ret_code = _getter(StreamDesc, "ret_code",
                                            "acldvppGetStreamDescRetCode", _STREAM)

    # ----- configs ----------------------------------------------------------------------
    @bare(0)
    def dvpp_create_roi_config(self, rt, left, right, top, bottom):
        c = "acldvppCreateRoiConfig"
        return _create(rt, RoiConfig(u32(c, "left", left), u32(c, "right", right),
                                     u32(c, "top", top), u32(c, "bottom", bottom)))

    @returns()
    def dvpp_destroy_roi_config(self, rt, roi_config):
        _destroy(rt, roi_config, RoiConfig, "acldvppDestroyRoiConfig", "roiConfig")

    @returns()
    def dvpp_set_roi_config(self, rt, roi_config, left, right, top, bottom):
        c = "acldvppSetRoiConfig"
        roi = _get(rt, roi_config, RoiConfig, c, "roiConfig")
        values = (u32(c, "left", left), u32(c, "right", right), u32(c, "top", top),
                  u32(c, "bottom", bottom))
        roi.left, roi.right, roi.top, roi.bottom = values

    dvpp_set_roi_config_left = _setter(RoiConfig, "left", "acldvppSetRoiConfigLeft",
                                       "roi_config")
    dvpp_set_roi_config_right = _setter(RoiConfig, "right", "acldvppSetRoiConfigRight",
                                        "roi_config")
    dvpp_set_roi_config_top = _setter(RoiConfig, "top", "acldvppSetRoiConfigTop", "roi_config")
    dvpp_set_roi_config_bottom = _setter(RoiConfig, "bottom", "acldvppSetRoiConfigBottom",
                                         "roi_config")

    @bare(0)
    def dvpp_create_resize_config(self, rt):
        return _create(rt, ResizeConfig())

    @returns()
    def dvpp_destroy_resize_config(self, rt, resize_config):
        _destroy(rt, resize_config, ResizeConfig, "acldvppDestroyResizeConfig", "resizeConfig")

    @returns()
    def dvpp_set_resize_config_interpolation(self, rt, resize_config, interpolation):
        c = "acldvppSetResizeConfigInterpolation"
        cfg = _get(rt, resize_config, ResizeConfig, c, "resizeConfig")
        value = u32(c, "interpolation", interpolation)
        if value > 4:       # ImageProcessorV100::acldvppSetResizeConfigInterpolation
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: interpolation {value} is not supported; use 0 (default), 1 "
                "(bilinear, OpenCV), 2 (nearest, OpenCV), 3 (bilinear, TensorFlow) or 4 "
                "(nearest, TensorFlow). The simulator resizes bilinearly for all of them.")
                .format(call=c, value=value))
        cfg.interpolation = value

    dvpp_get_resize_config_interpolation = _getter(
        ResizeConfig, "interpolation", "acldvppGetResizeConfigInterpolation", "resize_config")

    @bare(0)
    def dvpp_create_jpege_config(self, rt):
        return _create(rt, JpegeConfig())

    @returns()
    def dvpp_destroy_jpege_config(self, rt, jpege_config):
        _destroy(rt, jpege_config, JpegeConfig, "acldvppDestroyJpegeConfig", "jpegeConfig")

    dvpp_set_jpege_config_level = _setter(JpegeConfig, "level", "acldvppSetJpegeConfigLevel",
                                          "jpege_config")
    dvpp_get_jpege_config_level = _getter(JpegeConfig, "level", "acldvppGetJpegeConfigLevel",
                                          "jpege_config")

    # ----- JPEG -------------------------------------------------------------------------
    @returns(0, 0, 0)
    def dvpp_jpeg_get_image_info(self, rt, data, size):
        c = "acldvppJpegGetImageInfo"
        return dvpp.image_info(rt, ptr_arg(c, "data", data), u32(c, "size", size))[:3]

    @returns(0, 0, 0, C.ACL_JPEG_CSS_UNKNOWN)
    def dvpp_jpeg_get_image_info_v2(self, rt, data, size):
        c = "acldvppJpegGetImageInfoV2"
        return dvpp.image_info(rt, ptr_arg(c, "data", data), u32(c, "size", size))

    @returns(0)
    def dvpp_jpeg_predict_dec_size(self, rt, data, size, output_pixel_format):
        c = "acldvppJpegPredictDecSize"
        return dvpp.predict_dec_size(rt, ptr_arg(c, "data", data), u32(c, "dataSize", size),
                                     i32(c, "outputPixelFormat", output_pixel_format))

    @returns()
    def dvpp_jpeg_decode_async(self, rt, channel_desc, data, size, output_desc, stream):
        c = "acldvppJpegDecodeAsync"
        dvpp.jpeg_decode(rt, ptr_arg(c, "channelDesc", channel_desc), ptr_arg(c, "data", data),
                         u32(c, "size", size), ptr_arg(c, "outputDesc", output_desc),
                         ptr_arg(c, "stream", stream))

    @returns(0)
    def dvpp_jpeg_predict_enc_size(self, rt, input_desc, config):
        c = "acldvppJpegPredictEncSize"
        return dvpp.predict_enc_size(rt, ptr_arg(c, "inputDesc", input_desc),
                                     ptr_arg(c, "config", config))

    @returns()
    def dvpp_jpeg_encode_async(self, rt, channel_desc, input_desc, data, size, config,
                               stream):
        c = "acldvppJpegEncodeAsync"
        dvpp.jpeg_encode(rt, ptr_arg(c, "channelDesc", channel_desc),
                         ptr_arg(c, "inputDesc", input_desc), ptr_arg(c, "data", data),
                         ptr_arg(c, "size", size), ptr_arg(c, "config", config),
                         ptr_arg(c, "stream", stream))

    # ----- VPC --------------------------------------------------------------------------
    @returns()
    def dvpp_vpc_resize_async(self, rt, channel_desc, input_desc, output_desc, resize_config,
                              stream):
        c = "acldvppVpcResizeAsync"
        dvpp.vpc(rt, c, ptr_arg(c, "channelDesc", channel_desc),
                 ptr_arg(c, "inputDesc", input_desc), ptr_arg(c, "outputDesc", output_desc),
                 None, None, ptr_arg(c, "resizeConfig", resize_config),
                 ptr_arg(c, "stream", stream))

    @returns()
    def dvpp_vpc_crop_async(self, rt, channel_desc, input_desc, output_desc, crop_area,
                            stream):
        c = "acldvppVpcCropAsync"
        dvpp.vpc(rt, c, ptr_arg(c, "channelDesc", channel_desc),
                 ptr_arg(c, "inputDesc", input_desc), ptr_arg(c, "outputDesc", output_desc),
                 ptr_arg(c, "cropArea", crop_area), None, None, ptr_arg(c, "stream", stream))

    @returns()
    def dvpp_vpc_crop_and_paste_async(self, rt, channel_desc, input_desc, output_desc,
                                      crop_area, paste_area, stream):
        c = "acldvppVpcCropAndPasteAsync"
        dvpp.vpc(rt, c, ptr_arg(c, "channelDesc", channel_desc),
                 ptr_arg(c, "inputDesc", input_desc), ptr_arg(c, "outputDesc", output_desc),
                 ptr_arg(c, "cropArea", crop_area), ptr_arg(c, "pasteArea", paste_area), None,
                 ptr_arg(c, "stream", stream))


_VDEC, _VENC, _CFG = "vdec_channel_desc", "venc_channel_desc", "frame_config"


def _callback_setter(kind, call: str):
    @returns()
    def set_callback(self, rt, channel_desc, callback):
        if not callable(callback):     # pyACL: "parameter must be callable"
            raise TypeError(f"{call}: callback must be a Python function, not "
                            f"{type(callback).__name__}")
        _get(rt, channel_desc, kind, call, "channel_desc").callback = callback
    return set_callback


class Video:
    """VDEC (H.264 / H.265 to YUV420SP) and VENC (YUV420SP to H.264 / H.265)."""

    @bare(0)
    def vdec_create_channel_desc(self, rt):
        return _create(rt, VdecChannelDesc())

    @returns()
    def vdec_destroy_channel_desc(self, rt, channel_desc):
        _destroy(rt, channel_desc, VdecChannelDesc, "aclvdecDestroyChannelDesc", _VDEC)

    vdec_set_channel_desc_channel_id = _setter(VdecChannelDesc, "channel_id",
                                               "aclvdecSetChannelDescChannelId", _VDEC)
    vdec_set_channel_desc_thread_id = _setter(VdecChannelDesc, "thread_id",
                                              "aclvdecSetChannelDescThreadId", _VDEC, ptr_arg)
    vdec_set_channel_desc_callback = _callback_setter(VdecChannelDesc,
                                                      "aclvdecSetChannelDescCallback")
    vdec_set_channel_desc_entype = _setter(VdecChannelDesc, "entype",
                                           "aclvdecSetChannelDescEnType", _VDEC, i32)
    vdec_set_channel_desc_out_pic_format = _setter(VdecChannelDesc, "out_pic_format",
                                                   "aclvdecSetChannelDescOutPicFormat", _VDEC,
                                                   i32)
    vdec_set_channel_desc_out_pic_width = _setter(VdecChannelDesc, "out_pic_width",
                                                  "aclvdecSetChannelDescOutPicWidth", _VDEC)
    vdec_set_channel_desc_out_pic_height = _setter(VdecChannelDesc, "out_pic_height",
                                                   "aclvdecSetChannelDescOutPicHeight", _VDEC)
    vdec_set_channel_desc_ref_frame_num = _setter(VdecChannelDesc, "ref_frame_num",
                                                  "aclvdecSetChannelDescRefFrameNum", _VDEC)
    vdec_set_channel_desc_out_mode = _setter(VdecChannelDesc, "out_mode",
                                             "aclvdecSetChannelDescOutMode", _VDEC)
    vdec_set_channel_desc_bit_depth = _setter(VdecChannelDesc, "bit_depth",
                                              "aclvdecSetChannelDescBitDepth", _VDEC)
    vdec_get_channel_desc_channel_id = _getter(VdecChannelDesc, "channel_id",
                                               "aclvdecGetChannelDescChannelId", _VDEC)
    vdec_get_channel_desc_thread_id = _getter(VdecChannelDesc, "thread_id",
                                              "aclvdecGetChannelDescThreadId", _VDEC)
    vdec_get_channel_desc_entype = _getter(VdecChannelDesc, "entype",
                                           "aclvdecGetChannelDescEnType", _VDEC)
    vdec_get_channel_desc_out_pic_format = _getter(VdecChannelDesc, "out_pic_format",
                                                   "aclvdecGetChannelDescOutPicFormat", _VDEC)
    vdec_get_channel_desc_out_pic_width = _getter(VdecChannelDesc, "out_pic_width",
                                                  "aclvdecGetChannelDescOutPicWidth", _VDEC)
    vdec_get_channel_desc_out_pic_height = _getter(VdecChannelDesc, "out_pic_height",
                                                   "aclvdecGetChannelDescOutPicHeight", _VDEC)
    vdec_get_channel_desc_ref_frame_num = _getter(VdecChannelDesc, "ref_frame_num",
                                                  "aclvdecGetChannelDescRefFrameNum", _VDEC)
    vdec_get_channel_desc_out_mode = _getter(VdecChannelDesc, "out_mode",
                                             "aclvdecGetChannelDescOutMode", _VDEC)
    vdec_get_channel_desc_bit_depth = _getter(VdecChannelDesc, "bit_depth",
                                              "aclvdecGetChannelDescBitDepth", _VDEC)

    @returns()
    def vdec_create_channel(self, rt, channel_desc):
        video.vdec_create(rt, ptr_arg("aclvdecCreateChannel", "channelDesc", channel_desc))

    @returns()
    def vdec_destroy_channel(self, rt, channel_desc):
        video.vdec_destroy(rt, ptr_arg("aclvdecDestroyChannel", "channelDesc", channel_desc))

    @bare(0)
    def vdec_create_frame_config(self, rt):
        return _create(rt, FrameConfig("vdec"))

    @returns()
    def vdec_destroy_frame_config(self, rt, vdec_frame_config):
        _destroy(rt, vdec_frame_config, FrameConfig, "aclvdecDestroyFrameConfig", _CFG)

    @returns()
    def vdec_send_frame(self, rt, channel_desc, input, output, config, user_data):  # noqa: A002
        c = "aclvdecSendFrame"
        video.vdec_send(rt, ptr_arg(c, "channelDesc", channel_desc), ptr_arg(c, "input", input),
                        ptr_arg(c, "output", output), ptr_arg(c, "config", config), user_data)

    # ----- VENC -------------------------------------------------------------------------
    @bare(0)
    def venc_create_channel_desc(self, rt):
        return _create(rt, VencChannelDesc())

    @returns()
    def venc_destroy_channel_desc(self, rt, channel_desc):
        _destroy(rt, channel_desc, VencChannelDesc, "aclvencDestroyChannelDesc", _VENC)

    venc_set_channel_desc_thread_id = _setter(VencChannelDesc, "thread_id",
                                              "aclvencSetChannelDescThreadId", _VENC, ptr_arg)
    venc_set_channel_desc_callback = _callback_setter(VencChannelDesc,
                                                      "aclvencSetChannelDescCallback")
    venc_set_channel_desc_entype = _setter(VencChannelDesc, "entype",
                                           "aclvencSetChannelDescEnType", _VENC, i32)
    venc_set_channel_desc_pic_format = _setter(VencChannelDesc, "pic_format",
                                               "aclvencSetChannelDescPicFormat", _VENC, i32)
    venc_set_channel_desc_pic_width = _setter(VencChannelDesc, "pic_width",
                                              "aclvencSetChannelDescPicWidth", _VENC)
    venc_set_channel_desc_pic_height = _setter(VencChannelDesc, "pic_height",
                                               "aclvencSetChannelDescPicHeight", _VENC)
    venc_set_channel_desc_key_frame_interval = _setter(
        VencChannelDesc, "key_frame_interval", "aclvencSetChannelDescKeyFrameInterval", _VENC)
    venc_set_channel_desc_buf_addr = _setter(VencChannelDesc, "buf_addr",
                                             "aclvencSetChannelDescBufAddr", _VENC, ptr_arg)
    venc_set_channel_desc_buf_size = _setter(VencChannelDesc, "buf_size",
                                             "aclvencSetChannelDescBufSize", _VENC)
    venc_set_channel_desc_rc_mode = _setter(VencChannelDesc, "rc_mode",
                                            "aclvencSetChannelDescRcMode", _VENC)
    venc_set_channel_desc_src_rate = _setter(VencChannelDesc, "src_rate",
                                             "aclvencSetChannelDescSrcRate", _VENC)
    venc_set_channel_desc_max_bit_rate = _setter(VencChannelDesc, "max_bit_rate",
                                                 "aclvencSetChannelDescMaxBitRate", _VENC)
    venc_get_channel_desc_thread_id = _getter(VencChannelDesc, "thread_id",
                                              "aclvencGetChannelDescThreadId", _VENC)
    venc_get_channel_desc_entype = _getter(VencChannelDesc, "entype",
                                           "aclvencGetChannelDescEnType", _VENC)
    venc_get_channel_desc_pic_format = _getter(VencChannelDesc, "pic_format",
                                               "aclvencGetChannelDescPicFormat", _VENC)
    venc_get_channel_desc_pic_width = _getter(VencChannelDesc, "pic_width",
                                              "aclvencGetChannelDescPicWidth", _VENC)
    venc_get_channel_desc_pic_height = _getter(VencChannelDesc, "pic_height",
                                               "aclvencGetChannelDescPicHeight", _VENC)
    venc_get_channel_desc_key_frame_interval = _getter(
        VencChannelDesc, "key_frame_interval", "aclvencGetChannelDescKeyFrameInterval", _VENC)

    @returns()
    def venc_create_channel(self, rt, channel_desc):
        video.venc_create(rt, ptr_arg("aclvencCreateChannel", "channelDesc", channel_desc))

    @returns()
    def venc_destroy_channel(self, rt, channel_desc):
        video.venc_destroy(rt, ptr_arg("aclvencDestroyChannel", "channelDesc", channel_desc))

    @bare(0)
    def venc_create_frame_config(self, rt):
        return _create(rt, FrameConfig("venc"))

    @returns()
    def venc_destroy_frame_config(self, rt, venc_frame_config):
        _destroy(rt, venc_frame_config, FrameConfig, "aclvencDestroyFrameConfig", _CFG)

    venc_set_frame_config_force_i_frame = _setter(FrameConfig, "force_i_frame",
                                                  "aclvencSetFrameConfigForceIFrame", _CFG)
    venc_set_frame_config_eos = _setter(FrameConfig, "eos", "aclvencSetFrameConfigEos", _CFG)
    venc_get_frame_config_force_i_frame = _getter(FrameConfig, "force_i_frame",
                                                  "aclvencGetFrameConfigForceIFrame", _CFG)
    venc_get_frame_config_eos = _getter(FrameConfig, "eos", "aclvencGetFrameConfigEos", _CFG)

    @returns()
    def venc_send_frame(self, rt, channel_desc, input, reserve, config, userdata):  # noqa: A002
        c = "aclvencSendFrame"
        ptr_arg(c, "reserve", reserve)
        video.venc_send(rt, ptr_arg(c, "channelDesc", channel_desc),
                        ptr_arg(c, "input", input), ptr_arg(c, "config", config), userdata)
