"""``acl.media``: DVPP memory with a config, the channel descriptions' parameters and ids,
and the VDEC / VENC calls still to come (CANN ``acl/ops/acl_dvpp.h``, ``acl_vdec.h``,
``acl_venc.h``). Shapes as pyACL's wrappers build them (hicann/runtime
``python/pyACL/media/media_common.cpp``, ``media_vdec.cpp``, ``media_venc.cpp``): a
parameter setter returns ``(channel_desc, ret)``, a getter ``(param_ret_size, param,
ret)``; the callback getters return the Python function (RuntimeError when none is set).
"""
from acl_lab.spec.prototypes.row import Prototype as P

_VENC = "const aclvencChannelDesc *channelDesc"

ROWS = {
    "media.dvpp_malloc_with_cfg": P("aclError acldvppMallocWithCfg(void **devPtr, size_t size, "
                                    "aclrtMemMallocPolicy policy, aclrtMallocConfig *cfg)",
                                    "dev_ptr, ret"),
    "media.dvpp_set_channel_desc_param": P(
        "aclError acldvppSetChannelDescParam(acldvppChannelDesc *channelDesc, "
        "acldvppChannelDescParamType paramType, size_t length, const void *param)",
        "channel_desc, ret"),
    "media.dvpp_get_channel_desc_param": P(
        "aclError acldvppGetChannelDescParam(const acldvppChannelDesc *channelDesc, "
        "acldvppChannelDescParamType paramType, size_t length, size_t *paramRetSize, "
        "void *param)", "param_ret_size, param, ret"),
    "media.dvpp_get_channel_desc_channel_id": P(
        "uint64_t acldvppGetChannelDescChannelId(const acldvppChannelDesc *channelDesc)",
        "channel_id"),
    "media.vdec_get_channel_desc_callback": P(
        "aclvdecCallback aclvdecGetChannelDescCallback(const aclvdecChannelDesc *channelDesc)",
        "callback", (None,)),
    "media.vdec_send_skipped_frame": P(
        "aclError aclvdecSendSkippedFrame(aclvdecChannelDesc *channelDesc, "
        "acldvppStreamDesc *input, aclvdecFrameConfig *config, void *userData)", "ret"),
    "media.vdec_set_channel_desc_param": P(
        "aclError aclvdecSetChannelDescParam(aclvdecChannelDesc *channelDesc, "
        "aclvdecChannelDescParamType paramType, size_t length, const void *param)",
        "channel_desc, ret"),
    "media.vdec_get_channel_desc_param": P(
        "aclError aclvdecGetChannelDescParam(const aclvdecChannelDesc *channelDesc, "
        "aclvdecChannelDescParamType paramType, size_t length, size_t *paramRetSize, "
        "void *param)", "param_ret_size, param, ret"),
    "media.venc_get_channel_desc_channel_id": P(
        f"uint32_t aclvencGetChannelDescChannelId({_VENC})", "channel_id"),
    "media.venc_get_channel_desc_callback": P(
        f"aclvencCallback aclvencGetChannelDescCallback({_VENC})", "callback", (None,)),
    "media.venc_get_channel_desc_buf_addr": P(
        f"void *aclvencGetChannelDescBufAddr({_VENC})", "buf_addr"),
    "media.venc_get_channel_desc_buf_size": P(
        f"uint32_t aclvencGetChannelDescBufSize({_VENC})", "buf_size"),
    "media.venc_get_channel_desc_rc_mode": P(
        f"uint32_t aclvencGetChannelDescRcMode({_VENC})", "rc_mode"),
    "media.venc_get_channel_desc_src_rate": P(
        f"uint32_t aclvencGetChannelDescSrcRate({_VENC})", "src_rate"),
    "media.venc_get_channel_desc_max_bit_rate": P(
        f"uint32_t aclvencGetChannelDescMaxBitRate({_VENC})", "max_bit_rate"),
}
