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

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.spec.args import i32, ptr_arg, u32
from acl_lab.sim.simerror import SimError
from acl_lab.sim.media import dvpp
from acl_lab.sim.media import state
from acl_lab.sim.media.descriptors import ChannelDesc, JpegeConfig, PicDesc, ResizeConfig, RoiConfig, StreamDesc


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


def new_handle(rt, obj) -> int:
    return _descs(rt).add(obj)


def destroy(rt, handle, kind, call: str, what: str) -> None:
    """acldvppDestroy*: NULL is accepted and does nothing (ACL returns success)."""
    h = ptr_arg(call, what, handle)
    if h:
        _descs(rt).destroy(h, kind, call, what)


def live(rt, handle, kind, call: str, what: str):
    return _descs(rt).get(ptr_arg(call, what, handle), kind, call, what)


def _named(fn, *params: str):
    """Give a generated call pyACL's parameter names (help() and Shift-Tab show them)."""
    P = inspect.Parameter
    fn.__signature__ = inspect.Signature(
        [P(n, P.POSITIONAL_OR_KEYWORD) for n in ("self", "rt", *params)])
    return fn


def setter(kind, field: str, call: str, what: str, parse=u32):
    """acldvppSet*: the description's ``field`` = the value, read as its C type."""
    @returns()
    def set_(self, rt, desc, value):
        value = parse(call, field, value)        # pyACL parses every argument first
        setattr(live(rt, desc, kind, call, what), field, value)
    return _named(set_, what, field)


def getter(kind, field: str, call: str, what: str):
    """acldvppGet*: the description's ``field`` (0 for a description that is not live)."""
    @bare(0)
    def get(self, rt, desc):
        return getattr(live(rt, desc, kind, call, what), field)
    return _named(get, what)


_PIC, _STREAM = "pic_desc", "stream_desc"


class Dvpp:
    """Channels, picture and stream descriptions, configs, JPEGD / JPEGE / VPC."""

    # ----- channel --------------------------------------------------------------------------
    @bare(0)
    def dvpp_create_channel_desc(self, rt):
        return new_handle(rt, ChannelDesc())

    @returns()
    def dvpp_destroy_channel_desc(self, rt, channel_desc):
        destroy(rt, channel_desc, ChannelDesc, "acldvppDestroyChannelDesc", "channelDesc")

    @returns()
    def dvpp_create_channel(self, rt, channel_desc):
        c = "acldvppCreateChannel"
        ch = live(rt, channel_desc, ChannelDesc, c, "channelDesc")
        rt.require_ctx(c)            # the channel is made on the current device
        ch.created = True

    @returns()
    def dvpp_destroy_channel(self, rt, channel_desc):
        c = "acldvppDestroyChannel"
        ch = live(rt, channel_desc, ChannelDesc, c, "channelDesc")
        if not ch.created:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: the channel was never created (or is destroyed already).").format(
                    call=c))
        ch.created = False

    @returns()
    def dvpp_set_channel_desc_mode(self, rt, channel_desc, mode):
        c = "acldvppSetChannelDescMode"
        mode = u32(c, "mode", mode)
        ch = live(rt, channel_desc, ChannelDesc, c, "channelDesc")
        dvpp.check_channel_mode(rt, c, mode)
        ch.mode = mode

    # ----- picture descriptions ---------------------------------------------------------
    @bare(0)
    def dvpp_create_pic_desc(self, rt):
        return new_handle(rt, PicDesc())

    @returns()
    def dvpp_destroy_pic_desc(self, rt, pic_desc):
        destroy(rt, pic_desc, PicDesc, "acldvppDestroyPicDesc", _PIC)

    dvpp_set_pic_desc_data = setter(PicDesc, "data", "acldvppSetPicDescData", _PIC, ptr_arg)
    dvpp_set_pic_desc_size = setter(PicDesc, "size", "acldvppSetPicDescSize", _PIC)
    dvpp_set_pic_desc_format = setter(PicDesc, "format", "acldvppSetPicDescFormat", _PIC, i32)
    dvpp_set_pic_desc_width = setter(PicDesc, "width", "acldvppSetPicDescWidth", _PIC)
    dvpp_set_pic_desc_height = setter(PicDesc, "height", "acldvppSetPicDescHeight", _PIC)
    dvpp_set_pic_desc_width_stride = setter(PicDesc, "width_stride",
                                             "acldvppSetPicDescWidthStride", _PIC)
    dvpp_set_pic_desc_height_stride = setter(PicDesc, "height_stride",
                                              "acldvppSetPicDescHeightStride", _PIC)
    dvpp_set_pic_desc_ret_code = setter(PicDesc, "ret_code", "acldvppSetPicDescRetCode", _PIC)
    dvpp_get_pic_desc_data = getter(PicDesc, "data", "acldvppGetPicDescData", _PIC)
    dvpp_get_pic_desc_size = getter(PicDesc, "size", "acldvppGetPicDescSize", _PIC)
    dvpp_get_pic_desc_format = getter(PicDesc, "format", "acldvppGetPicDescFormat", _PIC)
    dvpp_get_pic_desc_width = getter(PicDesc, "width", "acldvppGetPicDescWidth", _PIC)
    dvpp_get_pic_desc_height = getter(PicDesc, "height", "acldvppGetPicDescHeight", _PIC)
    dvpp_get_pic_desc_width_stride = getter(PicDesc, "width_stride",
                                             "acldvppGetPicDescWidthStride", _PIC)
    dvpp_get_pic_desc_height_stride = getter(PicDesc, "height_stride",
                                              "acldvppGetPicDescHeightStride", _PIC)
    dvpp_get_pic_desc_ret_code = getter(PicDesc, "ret_code", "acldvppGetPicDescRetCode", _PIC)

    # ----- stream descriptions (VDEC input, VENC output) --------------------------------
    @bare(0)
    def dvpp_create_stream_desc(self, rt):
        return new_handle(rt, StreamDesc())

    @returns()
    def dvpp_destroy_stream_desc(self, rt, stream_desc):
        destroy(rt, stream_desc, StreamDesc, "acldvppDestroyStreamDesc", _STREAM)

    dvpp_set_stream_desc_data = setter(StreamDesc, "data", "acldvppSetStreamDescData",
                                        _STREAM, ptr_arg)
    dvpp_set_stream_desc_size = setter(StreamDesc, "size", "acldvppSetStreamDescSize", _STREAM)
    dvpp_set_stream_desc_format = setter(StreamDesc, "format", "acldvppSetStreamDescFormat",
                                          _STREAM, i32)
    dvpp_set_stream_desc_timestamp = setter(StreamDesc, "timestamp",
                                             "acldvppSetStreamDescTimestamp", _STREAM, ptr_arg)
    dvpp_set_stream_desc_eos = setter(StreamDesc, "eos", "acldvppSetStreamDescEos", _STREAM)
    dvpp_set_stream_desc_ret_code = setter(StreamDesc, "ret_code",
                                            "acldvppSetStreamDescRetCode", _STREAM)
    dvpp_get_stream_desc_data = getter(StreamDesc, "data", "acldvppGetStreamDescData", _STREAM)
    dvpp_get_stream_desc_size = getter(StreamDesc, "size", "acldvppGetStreamDescSize", _STREAM)
    dvpp_get_stream_desc_format = getter(StreamDesc, "format", "acldvppGetStreamDescFormat",
                                          _STREAM)
    dvpp_get_stream_desc_timestamp = getter(StreamDesc, "timestamp",
                                             "acldvppGetStreamDescTimestamp", _STREAM)
    dvpp_get_stream_desc_eos = getter(StreamDesc, "eos", "acldvppGetStreamDescEos", _STREAM)
    dvpp_get_stream_desc_ret_code = getter(StreamDesc, "ret_code",
                                            "acldvppGetStreamDescRetCode", _STREAM)

    # ----- configs ----------------------------------------------------------------------
    @bare(0)
    def dvpp_create_roi_config(self, rt, left, right, top, bottom):
        c = "acldvppCreateRoiConfig"
        return new_handle(rt, RoiConfig(u32(c, "left", left), u32(c, "right", right),
                                     u32(c, "top", top), u32(c, "bottom", bottom)))

    @returns()
    def dvpp_destroy_roi_config(self, rt, roi_config):
        destroy(rt, roi_config, RoiConfig, "acldvppDestroyRoiConfig", "roiConfig")

    @returns()
    def dvpp_set_roi_config(self, rt, roi_config, left, right, top, bottom):
        c = "acldvppSetRoiConfig"
        roi = live(rt, roi_config, RoiConfig, c, "roiConfig")
        values = (u32(c, "left", left), u32(c, "right", right), u32(c, "top", top),
                  u32(c, "bottom", bottom))
        roi.left, roi.right, roi.top, roi.bottom = values

    dvpp_set_roi_config_left = setter(RoiConfig, "left", "acldvppSetRoiConfigLeft",
                                       "roi_config")
    dvpp_set_roi_config_right = setter(RoiConfig, "right", "acldvppSetRoiConfigRight",
                                        "roi_config")
    dvpp_set_roi_config_top = setter(RoiConfig, "top", "acldvppSetRoiConfigTop", "roi_config")
    dvpp_set_roi_config_bottom = setter(RoiConfig, "bottom", "acldvppSetRoiConfigBottom",
                                         "roi_config")

    @bare(0)
    def dvpp_create_resize_config(self, rt):
        return new_handle(rt, ResizeConfig())

    @returns()
    def dvpp_destroy_resize_config(self, rt, resize_config):
        destroy(rt, resize_config, ResizeConfig, "acldvppDestroyResizeConfig", "resizeConfig")

    @returns()
    def dvpp_set_resize_config_interpolation(self, rt, resize_config, interpolation):
        c = "acldvppSetResizeConfigInterpolation"
        cfg = live(rt, resize_config, ResizeConfig, c, "resizeConfig")
        value = u32(c, "interpolation", interpolation)
        if value > 4:       # ImageProcessorV100::acldvppSetResizeConfigInterpolation
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: interpolation {value} is not supported; use 0 (default), 1 "
                "(bilinear, OpenCV), 2 (nearest, OpenCV), 3 (bilinear, TensorFlow) or 4 "
                "(nearest, TensorFlow). The simulator resizes bilinearly for all of them.")
                .format(call=c, value=value))
        cfg.interpolation = value

    dvpp_get_resize_config_interpolation = getter(
        ResizeConfig, "interpolation", "acldvppGetResizeConfigInterpolation", "resize_config")

    @bare(0)
    def dvpp_create_jpege_config(self, rt):
        return new_handle(rt, JpegeConfig())

    @returns()
    def dvpp_destroy_jpege_config(self, rt, jpege_config):
        destroy(rt, jpege_config, JpegeConfig, "acldvppDestroyJpegeConfig", "jpegeConfig")

    dvpp_set_jpege_config_level = setter(JpegeConfig, "level", "acldvppSetJpegeConfigLevel",
                                          "jpege_config")
    dvpp_get_jpege_config_level = getter(JpegeConfig, "level", "acldvppGetJpegeConfigLevel",
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
