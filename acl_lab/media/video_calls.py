"""acl.media's VDEC and VENC calls (pyACL's names and shapes; see calls.py): channel
descriptions, channels, frame configs and sending frames (video.py does the work)."""
from __future__ import annotations

from ..sim.args import i32, ptr_arg
from . import video
from .calls import bare, destroy, getter, live, new_handle, returns, setter
from .descriptors import FrameConfig, VdecChannelDesc, VencChannelDesc

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
