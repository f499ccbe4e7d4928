"""``acl.media``'s DVPP memory with a config, the channel descriptions' parameters (as pyACL
passes them: the value's length is 4 for the CSC matrix and 0 for every other type, which
ACL then refuses: media_common.cpp / media_vdec.cpp), channel ids, the callback getters,
aclvdecSendSkippedFrame, and VENC's remaining getters."""
from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.facade._call import acl_call
from acl_lab.sim.facade.media_fields import getter, live
from acl_lab.sim.media import state, video
from acl_lab.sim.media.descriptors import ChannelDesc, VdecChannelDesc, VencChannelDesc
from acl_lab.sim.simerror import SimError
from acl_lab.spec import args, malloc_config

CSC_MATRICES = range(C.ACL_DVPP_CSC_MATRIX_BT601_WIDE, C.ACL_DVPP_CSC_MATRIX_BT2020_NARROW + 1)


def _csc(rt, call: str, desc, param_type: int, value: int | None = None) -> None:
    """Checks of a channel parameter as it arrives through pyACL: only the CSC matrix comes
    with the length ACL needs; a CSC matrix on an Atlas 200/300/500 is not supported."""
    if param_type != 0:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: paramType {kind}: pyACL passes its value with length 0 (it sends a "
            "length only for the CSC matrix, type 0), and ACL refuses a length that is not "
            "the value's size. Set a channel's mode with acl.media.dvpp_set_channel_desc_mode; "
            "the other parameters have their own setters.").format(call=call, kind=param_type))
    if state.of(rt).gen == "v100":
        raise SimError(C.ACL_ERROR_FEATURE_UNSUPPORTED, _(
            "{call}: {soc} (Atlas 200/300/500 inference products) has no choice of CSC "
            "matrix.").format(call=call, soc=rt.profile.soc_name))
    if value is not None and value not in CSC_MATRICES:
        raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: {value} is not an acldvppCscMatrix (BT601_WIDE 0 .. BT2020_NARROW "
            "5).").format(call=call, value=value))


def _callback(rt, handle: int, kind):
    """pyACL's callback getters: the function set on the description, else RuntimeError."""
    d = state.of(rt).descs.live.get(handle)
    if not isinstance(d, kind) or d.callback is None:
        raise RuntimeError("did not set callback, failed")
    return d.callback


class MediaChannels:
    """The channel-parameter, id, callback and VENC-getter part of ``acl.media``."""

    @acl_call("media.dvpp_malloc_with_cfg")
    def dvpp_malloc_with_cfg(self, rt, size: args.size, policy: args.i32, cfg):
        c = "acldvppMallocWithCfg"
        attrs = malloc_config.parse(c, cfg)
        malloc_config.check_device(c, attrs, rt.require_ctx(c).device)
        return rt.malloc(size, policy, "dvpp_malloc")

    # ----- DVPP channel descriptions ---------------------------------------------------------
    @acl_call("media.dvpp_set_channel_desc_param")
    def dvpp_set_channel_desc_param(self, rt, channel_desc: args.ptr, param_type: args.i32,
                                    param: args.ptr):
        c = "acldvppSetChannelDescParam"
        ch = live(rt, channel_desc, ChannelDesc, c, "channelDesc")
        _csc(rt, c, ch, param_type, param & 0xFFFFFFFF)
        ch.csc_matrix = param & 0xFFFFFFFF
        return channel_desc

    @acl_call("media.dvpp_get_channel_desc_param")
    def dvpp_get_channel_desc_param(self, rt, channel_desc: args.ptr, param_type: args.i32):
        c = "acldvppGetChannelDescParam"
        ch = live(rt, channel_desc, ChannelDesc, c, "channelDesc")
        _csc(rt, c, ch, param_type)
        return 4, ch.csc_matrix

    @acl_call("media.dvpp_get_channel_desc_channel_id")
    def dvpp_get_channel_desc_channel_id(self, rt, channel_desc: args.ptr):
        return live(rt, channel_desc, ChannelDesc, "acldvppGetChannelDescChannelId",
                    "channelDesc").channel_id

    # ----- VDEC ---------------------------------------------------------------------------------
    @acl_call("media.vdec_get_channel_desc_callback")
    def vdec_get_channel_desc_callback(self, rt, channel_desc: args.ptr):
        return _callback(rt, channel_desc, VdecChannelDesc)

    @acl_call("media.vdec_send_skipped_frame")
    def vdec_send_skipped_frame(self, rt, channel_desc: args.ptr, input: args.ptr,  # noqa: A002
                                config: args.ptr, user_data):
        video.vdec_send(rt, channel_desc, input, 0, config, user_data,
                        "aclvdecSendSkippedFrame")

    @acl_call("media.vdec_set_channel_desc_param")
    def vdec_set_channel_desc_param(self, rt, channel_desc: args.ptr, param_type: args.i32,
                                    param: args.ptr):
        c = "aclvdecSetChannelDescParam"
        d = live(rt, channel_desc, VdecChannelDesc, c, "channelDesc")
        _csc(rt, c, d, param_type, param & 0xFFFFFFFF)
        d.csc_matrix = param & 0xFFFFFFFF
        return channel_desc

    @acl_call("media.vdec_get_channel_desc_param")
    def vdec_get_channel_desc_param(self, rt, channel_desc: args.ptr, param_type: args.i32):
        c = "aclvdecGetChannelDescParam"
        d = live(rt, channel_desc, VdecChannelDesc, c, "channelDesc")
        _csc(rt, c, d, param_type)
        return 4, d.csc_matrix

    # ----- VENC ---------------------------------------------------------------------------------
    @acl_call("media.venc_get_channel_desc_callback")
    def venc_get_channel_desc_callback(self, rt, channel_desc: args.ptr):
        return _callback(rt, channel_desc, VencChannelDesc)


for _field in ("channel_id", "buf_addr", "buf_size", "rc_mode", "src_rate", "max_bit_rate"):
    _name = f"venc_get_channel_desc_{_field}"
    setattr(MediaChannels, _name, getter(_name, VencChannelDesc, _field, "channel_desc"))
