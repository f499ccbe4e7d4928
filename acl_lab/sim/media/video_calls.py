"""acl.media's VDEC and VENC calls (pyACL's names and shapes; see calls.py): channel
descriptions, channels, frame configs and sending frames (video.py does the work)."""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.spec.args import i32, ptr_arg, u32
from acl_lab.sim.simerror import SimError
from acl_lab.sim.media import video
from acl_lab.sim.media.calls import bare, destroy, getter, live, new_handle, returns, setter
from acl_lab.sim.media.descriptors import FrameConfig, VdecChannelDesc, VencChannelDesc

_VDEC, _VENC, _CFG = "vdec_channel_desc", "venc_channel_desc", "frame_config"


def _callback_setter(kind, call: str):
    @returns()
    def set_callback(self, rt, channel_desc, callback):
        if not callable(callback):     # pyACL: "parameter must be callable"
            raise TypeError(f"{call}: callback must be a Python function, not "
                            f"{type(callback).__name__}")
        live(rt, channel_desc, kind, call, "channel_desc").callback = callback
    return set_callback


class Video:
    """VDEC (H.264 / H.265 to YUV420SP) and VENC (YUV420SP to H.264 / H.265)."""

    @bare(0)
    def vdec_create_channel_desc(self, rt):
        return new_handle(rt, VdecChannelDesc())

    @returns()
    def vdec_destroy_channel_desc(self, rt, channel_desc):
        destroy(rt, channel_desc, VdecChannelDesc, "aclvdecDestroyChannelDesc", _VDEC)

    vdec_set_channel_desc_channel_id = setter(VdecChannelDesc, "channel_id",
                                               "aclvdecSetChannelDescChannelId", _VDEC)
    vdec_set_channel_desc_thread_id = setter(VdecChannelDesc, "thread_id",
                                              "aclvdecSetChannelDescThreadId", _VDEC, ptr_arg)
    vdec_set_channel_desc_callback = _callback_setter(VdecChannelDesc,
                                                      "aclvdecSetChannelDescCallback")
    vdec_set_channel_desc_entype = setter(VdecChannelDesc, "entype",
                                           "aclvdecSetChannelDescEnType", _VDEC, i32)
    vdec_set_channel_desc_out_pic_format = setter(VdecChannelDesc, "out_pic_format",
                                                   "aclvdecSetChannelDescOutPicFormat", _VDEC,
                                                   i32)
    vdec_set_channel_desc_out_pic_width = setter(VdecChannelDesc, "out_pic_width",
                                                  "aclvdecSetChannelDescOutPicWidth", _VDEC)
    vdec_set_channel_desc_out_pic_height = setter(VdecChannelDesc, "out_pic_height",
                                                   "aclvdecSetChannelDescOutPicHeight", _VDEC)
    vdec_set_channel_desc_ref_frame_num = setter(VdecChannelDesc, "ref_frame_num",
                                                  "aclvdecSetChannelDescRefFrameNum", _VDEC)
    vdec_set_channel_desc_out_mode = setter(VdecChannelDesc, "out_mode",
                                             "aclvdecSetChannelDescOutMode", _VDEC)
    vdec_set_channel_desc_bit_depth = setter(VdecChannelDesc, "bit_depth",
                                              "aclvdecSetChannelDescBitDepth", _VDEC)
    vdec_get_channel_desc_channel_id = getter(VdecChannelDesc, "channel_id",
                                               "aclvdecGetChannelDescChannelId", _VDEC)
    vdec_get_channel_desc_thread_id = getter(VdecChannelDesc, "thread_id",
                                              "aclvdecGetChannelDescThreadId", _VDEC)
    vdec_get_channel_desc_entype = getter(VdecChannelDesc, "entype",
                                           "aclvdecGetChannelDescEnType", _VDEC)
    vdec_get_channel_desc_out_pic_format = getter(VdecChannelDesc, "out_pic_format",
                                                   "aclvdecGetChannelDescOutPicFormat", _VDEC)
    vdec_get_channel_desc_out_pic_width = getter(VdecChannelDesc, "out_pic_width",
                                                  "aclvdecGetChannelDescOutPicWidth", _VDEC)
    vdec_get_channel_desc_out_pic_height = getter(VdecChannelDesc, "out_pic_height",
                                                   "aclvdecGetChannelDescOutPicHeight", _VDEC)
    vdec_get_channel_desc_ref_frame_num = getter(VdecChannelDesc, "ref_frame_num",
                                                  "aclvdecGetChannelDescRefFrameNum", _VDEC)
    vdec_get_channel_desc_out_mode = getter(VdecChannelDesc, "out_mode",
                                             "aclvdecGetChannelDescOutMode", _VDEC)
    vdec_get_channel_desc_bit_depth = getter(VdecChannelDesc, "bit_depth",
                                              "aclvdecGetChannelDescBitDepth", _VDEC)

    @returns()
    def vdec_create_channel(self, rt, channel_desc):
        video.vdec_create(rt, ptr_arg("aclvdecCreateChannel", "channelDesc", channel_desc))

    @returns()
    def vdec_destroy_channel(self, rt, channel_desc):
        video.vdec_destroy(rt, ptr_arg("aclvdecDestroyChannel", "channelDesc", channel_desc))

    @bare(0)
    def vdec_create_frame_config(self, rt):
        return new_handle(rt, FrameConfig("vdec"))

    @returns()
    def vdec_destroy_frame_config(self, rt, vdec_frame_config):
        destroy(rt, vdec_frame_config, FrameConfig, "aclvdecDestroyFrameConfig", _CFG)

    @returns()
    def vdec_send_frame(self, rt, channel_desc, input, output, config, user_data):  # noqa: A002
        c = "aclvdecSendFrame"
        video.vdec_send(rt, ptr_arg(c, "channelDesc", channel_desc), ptr_arg(c, "input", input),
                        ptr_arg(c, "output", output), ptr_arg(c, "config", config), user_data)

    # ----- VENC -------------------------------------------------------------------------
    @bare(0)
    def venc_create_channel_desc(self, rt):
        return new_handle(rt, VencChannelDesc())

    @returns()
    def venc_destroy_channel_desc(self, rt, channel_desc):
        destroy(rt, channel_desc, VencChannelDesc, "aclvencDestroyChannelDesc", _VENC)

    venc_set_channel_desc_thread_id = setter(VencChannelDesc, "thread_id",
                                              "aclvencSetChannelDescThreadId", _VENC, ptr_arg)
    venc_set_channel_desc_callback = _callback_setter(VencChannelDesc,
                                                      "aclvencSetChannelDescCallback")
    venc_set_channel_desc_entype = setter(VencChannelDesc, "entype",
                                           "aclvencSetChannelDescEnType", _VENC, i32)
    venc_set_channel_desc_pic_format = setter(VencChannelDesc, "pic_format",
                                               "aclvencSetChannelDescPicFormat", _VENC, i32)
    venc_set_channel_desc_pic_width = setter(VencChannelDesc, "pic_width",
                                              "aclvencSetChannelDescPicWidth", _VENC)
    venc_set_channel_desc_pic_height = setter(VencChannelDesc, "pic_height",
                                               "aclvencSetChannelDescPicHeight", _VENC)
    venc_set_channel_desc_key_frame_interval = setter(
        VencChannelDesc, "key_frame_interval", "aclvencSetChannelDescKeyFrameInterval", _VENC)
    venc_set_channel_desc_buf_addr = setter(VencChannelDesc, "buf_addr",
                                             "aclvencSetChannelDescBufAddr", _VENC, ptr_arg)
    venc_set_channel_desc_buf_size = setter(VencChannelDesc, "buf_size",
                                             "aclvencSetChannelDescBufSize", _VENC)
    venc_set_channel_desc_rc_mode = setter(VencChannelDesc, "rc_mode",
                                            "aclvencSetChannelDescRcMode", _VENC)
    venc_set_channel_desc_src_rate = setter(VencChannelDesc, "src_rate",
                                             "aclvencSetChannelDescSrcRate", _VENC)
    venc_set_channel_desc_max_bit_rate = setter(VencChannelDesc, "max_bit_rate",
                                                 "aclvencSetChannelDescMaxBitRate", _VENC)
    venc_get_channel_desc_thread_id = getter(VencChannelDesc, "thread_id",
                                              "aclvencGetChannelDescThreadId", _VENC)
    venc_get_channel_desc_entype = getter(VencChannelDesc, "entype",
                                           "aclvencGetChannelDescEnType", _VENC)
    venc_get_channel_desc_pic_format = getter(VencChannelDesc, "pic_format",
                                               "aclvencGetChannelDescPicFormat", _VENC)
    venc_get_channel_desc_pic_width = getter(VencChannelDesc, "pic_width",
                                              "aclvencGetChannelDescPicWidth", _VENC)
    venc_get_channel_desc_pic_height = getter(VencChannelDesc, "pic_height",
                                               "aclvencGetChannelDescPicHeight", _VENC)
    venc_get_channel_desc_key_frame_interval = getter(
        VencChannelDesc, "key_frame_interval", "aclvencGetChannelDescKeyFrameInterval", _VENC)

    @returns()
    def venc_set_channel_desc_param(self, rt, venc_channel_desc, param_type, param):
        c = "aclvencSetChannelDescParam"
        field, parse = _venc_param(c, i32(c, "paramType", param_type))
        if field == "callback":
            return _VENC_CALLBACK(self, rt, venc_channel_desc, param)
        value = parse(c, "param", param)
        setattr(live(rt, venc_channel_desc, VencChannelDesc, c, _VENC), field, value)

    @returns(0)
    def venc_get_channel_desc_param(self, rt, venc_channel_desc, param_type):
        c = "aclvencGetChannelDescParam"
        field, _parse = _venc_param(c, i32(c, "paramType", param_type))
        return getattr(live(rt, venc_channel_desc, VencChannelDesc, c, _VENC), field)

    @returns()
    def venc_create_channel(self, rt, channel_desc):
        video.venc_create(rt, ptr_arg("aclvencCreateChannel", "channelDesc", channel_desc))

    @returns()
    def venc_destroy_channel(self, rt, channel_desc):
        video.venc_destroy(rt, ptr_arg("aclvencDestroyChannel", "channelDesc", channel_desc))

    @bare(0)
    def venc_create_frame_config(self, rt):
        return new_handle(rt, FrameConfig("venc"))

    @returns()
    def venc_destroy_frame_config(self, rt, venc_frame_config):
        destroy(rt, venc_frame_config, FrameConfig, "aclvencDestroyFrameConfig", _CFG)

    venc_set_frame_config_force_i_frame = setter(FrameConfig, "force_i_frame",
                                                  "aclvencSetFrameConfigForceIFrame", _CFG)
    venc_set_frame_config_eos = setter(FrameConfig, "eos", "aclvencSetFrameConfigEos", _CFG)
    venc_get_frame_config_force_i_frame = getter(FrameConfig, "force_i_frame",
                                                  "aclvencGetFrameConfigForceIFrame", _CFG)
    venc_get_frame_config_eos = getter(FrameConfig, "eos", "aclvencGetFrameConfigEos", _CFG)

    @returns()
    def venc_send_frame(self, rt, channel_desc, input, reserve, config, userdata):  # noqa: A002
        c = "aclvencSendFrame"
        ptr_arg(c, "reserve", reserve)
        video.venc_send(rt, ptr_arg(c, "channelDesc", channel_desc),
                        ptr_arg(c, "input", input), ptr_arg(c, "config", config), userdata)


#: aclvencChannelDescParamType -> (field, how its value is read): ACL_VENC_THREAD_ID_UINT64
#: (0), _CALLBACK_PTR (1), _PIXEL_FORMAT_UINT32 (2), _ENCODE_TYPE_UINT32 (3),
#: _PIC_WIDTH_UINT32 (4), _PIC_HEIGHT_UINT32 (5), _KEY_FRAME_INTERVAL_UINT32 (6),
#: _BUF_ADDR_PTR (7), _BUF_SIZE_UINT32 (8), _RC_MODE_UINT32 (9), _SRC_RATE_UINT32 (10),
#: _MAX_BITRATE_UINT32 (11), _MAX_IP_PROP_UINT32 (12)
_VENC_PARAMS = (("thread_id", ptr_arg), ("callback", None), ("pic_format", u32),
                ("entype", u32), ("pic_width", u32), ("pic_height", u32),
                ("key_frame_interval", u32), ("buf_addr", ptr_arg), ("buf_size", u32),
                ("rc_mode", u32), ("src_rate", u32), ("max_bit_rate", u32),
                ("max_ip_prop", u32))
_VENC_CALLBACK = Video.venc_set_channel_desc_callback


def _venc_param(call: str, param_type: int):
    if not 0 <= param_type < len(_VENC_PARAMS):
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: paramType {value} is not an aclvencChannelDescParamType (0..{last}).")
            .format(call=call, value=param_type, last=len(_VENC_PARAMS) - 1))
    return _VENC_PARAMS[param_type]
