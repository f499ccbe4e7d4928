"""``acl.media``: DVPP memory, channels, picture and stream descriptions, configs, JPEGD /
JPEGE / VPC, and VDEC / VENC (CANN acl/ops/acl_dvpp.h, acl_vdec.h / acl_venc.h; the work is
acl_lab/sim/media/'s). Signatures follow the pyACL reference ("acl.media") and pyACL's own
argument parsing (``media_jpeg.cpp``, ``media_vdec.cpp``). The description setter and getter
families are written from their fields: a setter reads its value as the field's C type, a
getter of a description that is not live gives 0 (and says why)."""
from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.facade._call import Namespace, acl_call
from acl_lab.sim.facade.media_border import MediaBorder
from acl_lab.sim.facade.media_channels import MediaChannels
from acl_lab.sim.facade.media_fields import destroy, family, getter, live, new
from acl_lab.sim.facade.media_vpc import MediaVpc
from acl_lab.sim.media import batch, dvpp, state, video
from acl_lab.sim.media.descriptors import (ChannelDesc, FrameConfig, JpegeConfig, PicDesc,
                                           ResizeConfig, RoiConfig, StreamDesc,
                                           VdecChannelDesc, VencChannelDesc)
from acl_lab.sim.simerror import SimError
from acl_lab.spec import args

_PIC, _STREAM, _ROI = "pic_desc", "stream_desc", "roi_config"
_VDEC, _VENC, _CFG = "vdec_channel_desc", "venc_channel_desc", "frame_config"


def _set_callback(rt, desc: int, callback, kind, call: str) -> None:
    live(rt, desc, kind, call, "channel_desc").callback = callback


class Media(MediaVpc, MediaBorder, MediaChannels, Namespace):
    """acl.media"""

    # ----- DVPP memory ------------------------------------------------------------------
    @acl_call("media.dvpp_malloc")
    def dvpp_malloc(self, rt, size: args.size):
        return rt.malloc(size, C.ACL_MEM_MALLOC_HUGE_FIRST, "dvpp_malloc")

    @acl_call("media.dvpp_free")
    def dvpp_free(self, rt, dev_ptr: args.ptr):
        rt.free(dev_ptr, "dvpp_free")

    # ----- channel ----------------------------------------------------------------------
    @acl_call("media.dvpp_create_channel_desc")
    def dvpp_create_channel_desc(self, rt):
        return new(rt, ChannelDesc())

    @acl_call("media.dvpp_destroy_channel_desc")
    def dvpp_destroy_channel_desc(self, rt, channel_desc: args.ptr):
        destroy(rt, channel_desc, ChannelDesc, "acldvppDestroyChannelDesc", "channelDesc")

    @acl_call("media.dvpp_create_channel")
    def dvpp_create_channel(self, rt, channel_desc: args.ptr):
        c = "acldvppCreateChannel"
        ch = live(rt, channel_desc, ChannelDesc, c, "channelDesc")
        rt.require_ctx(c)            # the channel is made on the current device
        ch.created, ch.channel_id = True, state.of(rt).channel_id()

    @acl_call("media.dvpp_destroy_channel")
    def dvpp_destroy_channel(self, rt, channel_desc: args.ptr):
        c = "acldvppDestroyChannel"
        ch = live(rt, channel_desc, ChannelDesc, c, "channelDesc")
        if not ch.created:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: the channel was never created (or is destroyed already).").format(
                    call=c))
        ch.created = False

    @acl_call("media.dvpp_set_channel_desc_mode")
    def dvpp_set_channel_desc_mode(self, rt, channel_desc: args.ptr, mode: args.u32):
        c = "acldvppSetChannelDescMode"
        ch = live(rt, channel_desc, ChannelDesc, c, "channelDesc")
        dvpp.check_channel_mode(rt, c, mode)
        ch.mode = mode

    # ----- picture and stream descriptions ----------------------------------------------
    @acl_call("media.dvpp_create_pic_desc")
    def dvpp_create_pic_desc(self, rt):
        return new(rt, PicDesc())

    @acl_call("media.dvpp_destroy_pic_desc")
    def dvpp_destroy_pic_desc(self, rt, pic_desc: args.ptr):
        batch.refuse_member(rt, pic_desc, "acldvppDestroyPicDesc")
        destroy(rt, pic_desc, PicDesc, "acldvppDestroyPicDesc", _PIC)


    @acl_call("media.dvpp_create_stream_desc")
    def dvpp_create_stream_desc(self, rt):
        return new(rt, StreamDesc())

    @acl_call("media.dvpp_destroy_stream_desc")
    def dvpp_destroy_stream_desc(self, rt, stream_desc: args.ptr):
        destroy(rt, stream_desc, StreamDesc, "acldvppDestroyStreamDesc", _STREAM)


    # ----- configs ----------------------------------------------------------------------
    @acl_call("media.dvpp_create_roi_config")
    def dvpp_create_roi_config(self, rt, left: args.u32, right: args.u32, top: args.u32,
                               bottom: args.u32):
        return new(rt, RoiConfig(left, right, top, bottom))

    @acl_call("media.dvpp_destroy_roi_config")
    def dvpp_destroy_roi_config(self, rt, roi_config: args.ptr):
        destroy(rt, roi_config, RoiConfig, "acldvppDestroyRoiConfig", "roiConfig")

    @acl_call("media.dvpp_set_roi_config")
    def dvpp_set_roi_config(self, rt, roi_config: args.ptr, left: args.u32, right: args.u32,
                            top: args.u32, bottom: args.u32):
        roi = live(rt, roi_config, RoiConfig, "acldvppSetRoiConfig", "roiConfig")
        roi.left, roi.right, roi.top, roi.bottom = left, right, top, bottom


    @acl_call("media.dvpp_create_resize_config")
    def dvpp_create_resize_config(self, rt):
        return new(rt, ResizeConfig())

    @acl_call("media.dvpp_destroy_resize_config")
    def dvpp_destroy_resize_config(self, rt, resize_config: args.ptr):
        destroy(rt, resize_config, ResizeConfig, "acldvppDestroyResizeConfig", "resizeConfig")

    @acl_call("media.dvpp_set_resize_config_interpolation")
    def dvpp_set_resize_config_interpolation(self, rt, resize_config: args.ptr,
                                             interpolation: args.u32):
        c = "acldvppSetResizeConfigInterpolation"
        cfg = live(rt, resize_config, ResizeConfig, c, "resizeConfig")
        if interpolation > 4:    # ImageProcessorV100::acldvppSetResizeConfigInterpolation
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: interpolation {value} is not supported; use 0 (default), 1 "
                "(bilinear, OpenCV), 2 (nearest, OpenCV), 3 (bilinear, TensorFlow) or 4 "
                "(nearest, TensorFlow). The simulator resizes bilinearly for all of them.")
                .format(call=c, value=interpolation))
        cfg.interpolation = interpolation

    dvpp_get_resize_config_interpolation = getter(
        "dvpp_get_resize_config_interpolation", ResizeConfig, "interpolation", "resize_config")

    @acl_call("media.dvpp_create_jpege_config")
    def dvpp_create_jpege_config(self, rt):
        return new(rt, JpegeConfig())

    @acl_call("media.dvpp_destroy_jpege_config")
    def dvpp_destroy_jpege_config(self, rt, jpege_config: args.ptr):
        destroy(rt, jpege_config, JpegeConfig, "acldvppDestroyJpegeConfig", "jpegeConfig")


    # ----- JPEG -------------------------------------------------------------------------
    @acl_call("media.dvpp_jpeg_get_image_info")
    def dvpp_jpeg_get_image_info(self, rt, data: args.ptr, size: args.u32):
        return dvpp.image_info(rt, data, size)[:3]

    @acl_call("media.dvpp_jpeg_get_image_info_v2")
    def dvpp_jpeg_get_image_info_v2(self, rt, data: args.ptr, size: args.u32):
        return dvpp.image_info(rt, data, size)

    @acl_call("media.dvpp_jpeg_predict_dec_size")
    def dvpp_jpeg_predict_dec_size(self, rt, data: args.ptr, size: args.u32.named("dataSize"),
                                   output_pixel_format: args.i32):
        return dvpp.predict_dec_size(rt, data, size, output_pixel_format)

    @acl_call("media.dvpp_jpeg_decode_async")
    def dvpp_jpeg_decode_async(self, rt, channel_desc: args.ptr, data: args.ptr,
                               size: args.u32, output_desc: args.ptr, stream: args.ptr):
        dvpp.jpeg_decode(rt, channel_desc, data, size, output_desc, stream)

    @acl_call("media.dvpp_jpeg_predict_enc_size")
    def dvpp_jpeg_predict_enc_size(self, rt, input_desc: args.ptr, config: args.ptr):
        return dvpp.predict_enc_size(rt, input_desc, config)

    @acl_call("media.dvpp_jpeg_encode_async")
    def dvpp_jpeg_encode_async(self, rt, channel_desc: args.ptr, input_desc: args.ptr,
                               data: args.ptr, size: args.ptr, config: args.ptr,
                               stream: args.ptr):
        dvpp.jpeg_encode(rt, channel_desc, input_desc, data, size, config, stream)

    # ----- VPC --------------------------------------------------------------------------
    @acl_call("media.dvpp_vpc_resize_async")
    def dvpp_vpc_resize_async(self, rt, channel_desc: args.ptr, input_desc: args.ptr,
                              output_desc: args.ptr, resize_config: args.ptr,
                              stream: args.ptr):
        dvpp.vpc(rt, "acldvppVpcResizeAsync", channel_desc, input_desc, output_desc, None,
                 None, resize_config, stream)

    @acl_call("media.dvpp_vpc_crop_async")
    def dvpp_vpc_crop_async(self, rt, channel_desc: args.ptr, input_desc: args.ptr,
                            output_desc: args.ptr, crop_area: args.ptr, stream: args.ptr):
        dvpp.vpc(rt, "acldvppVpcCropAsync", channel_desc, input_desc, output_desc, crop_area,
                 None, None, stream)

    @acl_call("media.dvpp_vpc_crop_and_paste_async")
    def dvpp_vpc_crop_and_paste_async(self, rt, channel_desc: args.ptr, input_desc: args.ptr,
                                      output_desc: args.ptr, crop_area: args.ptr,
                                      paste_area: args.ptr, stream: args.ptr):
        dvpp.vpc(rt, "acldvppVpcCropAndPasteAsync", channel_desc, input_desc, output_desc,
                 crop_area, paste_area, None, stream)

    # ----- VDEC (H.264 / H.265 to YUV420SP; sim/media/video.py) -------------------------
    @acl_call("media.vdec_create_channel_desc")
    def vdec_create_channel_desc(self, rt):
        return new(rt, VdecChannelDesc())

    @acl_call("media.vdec_destroy_channel_desc")
    def vdec_destroy_channel_desc(self, rt, channel_desc: args.ptr):
        destroy(rt, channel_desc, VdecChannelDesc, "aclvdecDestroyChannelDesc", _VDEC)


    @acl_call("media.vdec_set_channel_desc_callback")
    def vdec_set_channel_desc_callback(self, rt, channel_desc: args.ptr,
                                       callback: args.function):
        _set_callback(rt, channel_desc, callback, VdecChannelDesc,
                      "aclvdecSetChannelDescCallback")

    @acl_call("media.vdec_create_channel")
    def vdec_create_channel(self, rt, channel_desc: args.ptr):
        video.vdec_create(rt, channel_desc)

    @acl_call("media.vdec_destroy_channel")
    def vdec_destroy_channel(self, rt, channel_desc: args.ptr):
        video.vdec_destroy(rt, channel_desc)

    @acl_call("media.vdec_create_frame_config")
    def vdec_create_frame_config(self, rt):
        return new(rt, FrameConfig("vdec"))

    @acl_call("media.vdec_destroy_frame_config")
    def vdec_destroy_frame_config(self, rt, vdec_frame_config: args.ptr):
        destroy(rt, vdec_frame_config, FrameConfig, "aclvdecDestroyFrameConfig", _CFG)

    @acl_call("media.vdec_send_frame")
    def vdec_send_frame(self, rt, channel_desc: args.ptr, input: args.ptr,  # noqa: A002
                        output: args.ptr, config: args.ptr, user_data):
        video.vdec_send(rt, channel_desc, input, output, config, user_data)

    # ----- VENC (YUV420SP to H.264 / H.265) ---------------------------------------------
    @acl_call("media.venc_create_channel_desc")
    def venc_create_channel_desc(self, rt):
        return new(rt, VencChannelDesc())

    @acl_call("media.venc_destroy_channel_desc")
    def venc_destroy_channel_desc(self, rt, channel_desc: args.ptr):
        destroy(rt, channel_desc, VencChannelDesc, "aclvencDestroyChannelDesc", _VENC)

    locals().update(family(VencChannelDesc, _VENC, "venc_{}_channel_desc_",
                           ("buf_addr", "buf_size", "rc_mode", "src_rate", "max_bit_rate"),
                           getters=False, readers={"buf_addr": args.ptr}))

    @acl_call("media.venc_set_channel_desc_callback")
    def venc_set_channel_desc_callback(self, rt, channel_desc: args.ptr,
                                       callback: args.function):
        _set_callback(rt, channel_desc, callback, VencChannelDesc,
                      "aclvencSetChannelDescCallback")

    @acl_call("media.venc_set_channel_desc_param")
    def venc_set_channel_desc_param(self, rt, venc_channel_desc: args.ptr.named("channelDesc"),
                                    param_type: args.i32, param):
        c = "aclvencSetChannelDescParam"
        field, read = _venc_param(c, param_type)
        if field == "callback":
            args.function_arg(c, "param", param)
            return _set_callback(rt, venc_channel_desc, param, VencChannelDesc, c)
        value = read(c, "param", param)
        setattr(live(rt, venc_channel_desc, VencChannelDesc, c, _VENC), field, value)

    @acl_call("media.venc_get_channel_desc_param")
    def venc_get_channel_desc_param(self, rt, venc_channel_desc: args.ptr.named("channelDesc"),
                                    param_type: args.i32):
        c = "aclvencGetChannelDescParam"
        field, _read = _venc_param(c, param_type)
        return getattr(live(rt, venc_channel_desc, VencChannelDesc, c, _VENC), field)

    @acl_call("media.venc_create_channel")
    def venc_create_channel(self, rt, channel_desc: args.ptr):
        video.venc_create(rt, channel_desc)
        live(rt, channel_desc, VencChannelDesc, "aclvencCreateChannel",
             "channelDesc").channel_id = state.of(rt).channel_id()

    @acl_call("media.venc_destroy_channel")
    def venc_destroy_channel(self, rt, channel_desc: args.ptr):
        video.venc_destroy(rt, channel_desc)

    @acl_call("media.venc_create_frame_config")
    def venc_create_frame_config(self, rt):
        return new(rt, FrameConfig("venc"))

    @acl_call("media.venc_destroy_frame_config")
    def venc_destroy_frame_config(self, rt, venc_frame_config: args.ptr):
        destroy(rt, venc_frame_config, FrameConfig, "aclvencDestroyFrameConfig", _CFG)


    @acl_call("media.venc_send_frame")
    def venc_send_frame(self, rt, channel_desc: args.ptr, input: args.ptr,  # noqa: A002
                        reserve: args.ptr, config: args.ptr, userdata):
        video.venc_send(rt, channel_desc, input, config, userdata)


# the setter and getter families of the descriptions: each field read as its C type
_FAMILIES = (
    family(PicDesc, _PIC, "dvpp_{}_pic_desc_",
           ("data", "size", "format", "width", "height", "width_stride", "height_stride",
            "ret_code"), readers={"data": args.ptr, "format": args.i32}),
    family(StreamDesc, _STREAM, "dvpp_{}_stream_desc_",
           ("data", "size", "format", "timestamp", "eos", "ret_code"),
           readers={"data": args.ptr, "format": args.i32, "timestamp": args.ptr}),
    family(RoiConfig, _ROI, "dvpp_{}_roi_config_", ("left", "right", "top", "bottom"),
           getters=False),
    family(JpegeConfig, "jpege_config", "dvpp_{}_jpege_config_", ("level",)),
    family(VdecChannelDesc, _VDEC, "vdec_{}_channel_desc_",
           ("channel_id", "thread_id", "entype", "out_pic_format", "out_pic_width",
            "out_pic_height", "ref_frame_num", "out_mode", "bit_depth"),
           readers={"thread_id": args.ptr, "entype": args.i32, "out_pic_format": args.i32}),
    family(VencChannelDesc, _VENC, "venc_{}_channel_desc_",
           ("thread_id", "entype", "pic_format", "pic_width", "pic_height",
            "key_frame_interval"),
           readers={"thread_id": args.ptr, "entype": args.i32, "pic_format": args.i32}),
    family(VencChannelDesc, _VENC, "venc_{}_channel_desc_",
           ("buf_addr", "buf_size", "rc_mode", "src_rate", "max_bit_rate"), getters=False,
           readers={"buf_addr": args.ptr}),
    family(FrameConfig, _CFG, "venc_{}_frame_config_", ("force_i_frame", "eos")),
)
for _calls in _FAMILIES:
    for _name, _call in _calls.items():
        setattr(Media, _name, _call)


#: aclvencChannelDescParamType -> (field, how its value is read): ACL_VENC_THREAD_ID_UINT64
#: (0), _CALLBACK_PTR (1), _PIXEL_FORMAT_UINT32 (2), _ENCODE_TYPE_UINT32 (3),
#: _PIC_WIDTH_UINT32 (4), _PIC_HEIGHT_UINT32 (5), _KEY_FRAME_INTERVAL_UINT32 (6),
#: _BUF_ADDR_PTR (7), _BUF_SIZE_UINT32 (8), _RC_MODE_UINT32 (9), _SRC_RATE_UINT32 (10),
#: _MAX_BITRATE_UINT32 (11), _MAX_IP_PROP_UINT32 (12)
_VENC_PARAMS = (("thread_id", args.ptr_arg), ("callback", None), ("pic_format", args.u32_arg),
                ("entype", args.u32_arg), ("pic_width", args.u32_arg),
                ("pic_height", args.u32_arg), ("key_frame_interval", args.u32_arg),
                ("buf_addr", args.ptr_arg), ("buf_size", args.u32_arg),
                ("rc_mode", args.u32_arg), ("src_rate", args.u32_arg),
                ("max_bit_rate", args.u32_arg), ("max_ip_prop", args.u32_arg))


def _venc_param(call: str, param_type: int):
    if not 0 <= param_type < len(_VENC_PARAMS):
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: paramType {value} is not an aclvencChannelDescParamType (0..{last}).")
            .format(call=call, value=param_type, last=len(_VENC_PARAMS) - 1))
    return _VENC_PARAMS[param_type]
