"""The C function behind each ``acl.media`` call and what the Python call returns, from
``acl/ops/acl_dvpp.h`` (CANN; Ascend/graphengine ``inc/external/acl/ops/acl_dvpp.h``) and
the pyACL reference's "Python函数" lines. The setter and getter families follow the
header's one pattern (``aclError acldvppSetPicDescWidth(acldvppPicDesc *picDesc, uint32_t
width)``, ``uint32_t acldvppGetPicDescWidth(const acldvppPicDesc *picDesc)``), so they are
written out from their fields here.
"""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.spec.prototypes.row import Prototype as P


def _camel(name: str) -> str:
    return "EnType" if name == "entype" else "".join(p[:1].upper() + p[1:]
                                                     for p in name.split("_"))


def _typed(ctype: str, name: str) -> str:
    """``uint32_t width``, ``void *data``: the header's spacing."""
    return f"{ctype}{name}" if ctype.endswith("*") else f"{ctype} {name}"


def _family(py: str, c: str, ctype: str, param: str, fields, getters=True) -> dict:
    """py "dvpp_set_pic_desc_", c "acldvpp{}PicDesc", the struct type, its parameter."""
    out = {}
    for field, vtype in fields:
        cf = _camel(field)
        arg = cf[:1].lower() + cf[1:]
        out[f"media.{py.format('set')}{field}"] = (
            f"aclError {c.format('Set')}{cf}({ctype} *{param}, {_typed(vtype, arg)})", "ret")
        if getters:
            out[f"media.{py.format('get')}{field}"] = (
                f"{_typed(vtype, c.format('Get') + cf)}(const {ctype} *{param})", field)
    return out


_U32 = "uint32_t"
TABLE: dict[str, tuple] = {   # name: (C declaration, returns[, fails])
    # ----- acl/ops/acl_dvpp.h (Ascend/graphengine inc/external/acl/ops/acl_dvpp.h) -----
    "media.dvpp_malloc": ("aclError acldvppMalloc(void **devPtr, size_t size)", "dev_ptr, ret"),
    "media.dvpp_free": ("aclError acldvppFree(void *devPtr)", "ret"),

    "media.dvpp_create_channel_desc": ("acldvppChannelDesc *acldvppCreateChannelDesc()",
                                       "channel_desc"),
    "media.dvpp_destroy_channel_desc": ("aclError acldvppDestroyChannelDesc("
                                        "acldvppChannelDesc *channelDesc)", "ret"),
    "media.dvpp_create_channel": ("aclError acldvppCreateChannel(acldvppChannelDesc "
                                  "*channelDesc)", "ret"),
    "media.dvpp_destroy_channel": ("aclError acldvppDestroyChannel(acldvppChannelDesc "
                                   "*channelDesc)", "ret"),
    "media.dvpp_set_channel_desc_mode": ("aclError acldvppSetChannelDescMode("
                                         "acldvppChannelDesc *channelDesc, uint32_t mode)",
                                         "ret"),
    "media.dvpp_create_pic_desc": ("acldvppPicDesc *acldvppCreatePicDesc()", "pic_desc"),
    "media.dvpp_destroy_pic_desc": ("aclError acldvppDestroyPicDesc(acldvppPicDesc *picDesc)",
                                    "ret"),
    **_family("dvpp_{}_pic_desc_", "acldvpp{}PicDesc", "acldvppPicDesc", "picDesc",
              [("data", "void *"), ("size", _U32), ("format", "acldvppPixelFormat"),
               ("width", _U32), ("height", _U32), ("width_stride", _U32),
               ("height_stride", _U32), ("ret_code", _U32)]),
    "media.dvpp_create_stream_desc": ("acldvppStreamDesc *acldvppCreateStreamDesc()",
                                      "stream_desc"),
    "media.dvpp_destroy_stream_desc": ("aclError acldvppDestroyStreamDesc(acldvppStreamDesc "
                                       "*streamDesc)", "ret"),
    **_family("dvpp_{}_stream_desc_", "acldvpp{}StreamDesc", "acldvppStreamDesc",
              "streamDesc", [("data", "void *"), ("size", _U32),
                             ("format", "acldvppStreamFormat"), ("timestamp", "uint64_t"),
                             ("eos", _U32), ("ret_code", _U32)]),
    "media.dvpp_create_roi_config": ("acldvppRoiConfig *acldvppCreateRoiConfig(uint32_t left, "
                                     "uint32_t right, uint32_t top, uint32_t bottom)",
                                     "roi_config"),
    "media.dvpp_destroy_roi_config": ("aclError acldvppDestroyRoiConfig(acldvppRoiConfig "
                                      "*roiConfig)", "ret"),
    "media.dvpp_set_roi_config": ("aclError acldvppSetRoiConfig(acldvppRoiConfig *roiConfig, "
                                  "uint32_t left, uint32_t right, uint32_t top, "
                                  "uint32_t bottom)", "ret"),
    **_family("dvpp_{}_roi_config_", "acldvpp{}RoiConfig", "acldvppRoiConfig", "roiConfig",
              [("left", _U32), ("right", _U32), ("top", _U32), ("bottom", _U32)],
              getters=False),
    "media.dvpp_create_resize_config": ("acldvppResizeConfig *acldvppCreateResizeConfig()",
                                        "resize_config"),
    "media.dvpp_destroy_resize_config": ("aclError acldvppDestroyResizeConfig("
                                         "acldvppResizeConfig *resizeConfig)", "ret"),
    **_family("dvpp_{}_resize_config_", "acldvpp{}ResizeConfig", "acldvppResizeConfig",
              "resizeConfig", [("interpolation", _U32)]),
    "media.dvpp_create_jpege_config": ("acldvppJpegeConfig *acldvppCreateJpegeConfig()",
                                       "jpege_config"),
    "media.dvpp_destroy_jpege_config": ("aclError acldvppDestroyJpegeConfig("
                                        "acldvppJpegeConfig *jpegeConfig)", "ret"),
    **_family("dvpp_{}_jpege_config_", "acldvpp{}JpegeConfig", "acldvppJpegeConfig",
              "jpegeConfig", [("level", _U32)]),
    "media.dvpp_jpeg_get_image_info": ("aclError acldvppJpegGetImageInfo(const void *data, "
                                       "uint32_t size, uint32_t *width, uint32_t *height, "
                                       "int32_t *components)", "width, height, components, ret"),
    "media.dvpp_jpeg_get_image_info_v2": ("aclError acldvppJpegGetImageInfoV2(const void *data, "
                                          "uint32_t size, uint32_t *width, uint32_t *height, "
                                          "int32_t *components, acldvppJpegFormat *format)",
                                          "width, height, components, format, ret",
                                          (0, 0, 0, C.ACL_JPEG_CSS_UNKNOWN)),
    "media.dvpp_jpeg_predict_dec_size": ("aclError acldvppJpegPredictDecSize(const void *data, "
                                         "uint32_t dataSize, acldvppPixelFormat "
                                         "outputPixelFormat, uint32_t *decSize)",
                                         "dec_size, ret"),
    "media.dvpp_jpeg_decode_async": ("aclError acldvppJpegDecodeAsync(acldvppChannelDesc "
                                     "*channelDesc, const void *data, uint32_t size, "
                                     "acldvppPicDesc *outputDesc, aclrtStream stream)", "ret"),
    "media.dvpp_jpeg_predict_enc_size": ("aclError acldvppJpegPredictEncSize(const "
                                         "acldvppPicDesc *inputDesc, const acldvppJpegeConfig "
                                         "*config, uint32_t *size)", "size, ret"),
    "media.dvpp_jpeg_encode_async": ("aclError acldvppJpegEncodeAsync(acldvppChannelDesc "
                                     "*channelDesc, acldvppPicDesc *inputDesc, const void "
                                     "*data, uint32_t *size, acldvppJpegeConfig *config, "
                                     "aclrtStream stream)", "ret"),
    "media.dvpp_vpc_resize_async": ("aclError acldvppVpcResizeAsync(acldvppChannelDesc "
                                    "*channelDesc, acldvppPicDesc *inputDesc, acldvppPicDesc "
                                    "*outputDesc, acldvppResizeConfig *resizeConfig, "
                                    "aclrtStream stream)", "ret"),
    "media.dvpp_vpc_crop_async": ("aclError acldvppVpcCropAsync(acldvppChannelDesc "
                                  "*channelDesc, acldvppPicDesc *inputDesc, acldvppPicDesc "
                                  "*outputDesc, acldvppRoiConfig *cropArea, aclrtStream stream)",
                                  "ret"),
    "media.dvpp_vpc_crop_and_paste_async": ("aclError acldvppVpcCropAndPasteAsync("
                                            "acldvppChannelDesc *channelDesc, acldvppPicDesc "
                                            "*inputDesc, acldvppPicDesc *outputDesc, "
                                            "acldvppRoiConfig *cropArea, acldvppRoiConfig "
                                            "*pasteArea, aclrtStream stream)", "ret"),
    # ----- VDEC ------------------------------------------------------------------------
    "media.vdec_create_channel_desc": ("aclvdecChannelDesc *aclvdecCreateChannelDesc()",
                                       "vdec_channel_desc"),
    "media.vdec_destroy_channel_desc": ("aclError aclvdecDestroyChannelDesc("
                                        "aclvdecChannelDesc *channelDesc)", "ret"),
    **_family("vdec_{}_channel_desc_", "aclvdec{}ChannelDesc", "aclvdecChannelDesc",
              "channelDesc", [("channel_id", _U32), ("thread_id", "uint64_t"),
                              ("entype", "acldvppStreamFormat"),
                              ("out_pic_format", "acldvppPixelFormat"),
                              ("out_pic_width", _U32), ("out_pic_height", _U32),
                              ("ref_frame_num", _U32), ("out_mode", _U32),
                              ("bit_depth", _U32)]),
    "media.vdec_set_channel_desc_callback": ("aclError aclvdecSetChannelDescCallback("
                                             "aclvdecChannelDesc *channelDesc, aclvdecCallback "
                                             "callback)", "ret"),
    "media.vdec_create_channel": ("aclError aclvdecCreateChannel(aclvdecChannelDesc "
                                  "*channelDesc)", "ret"),
    "media.vdec_destroy_channel": ("aclError aclvdecDestroyChannel(aclvdecChannelDesc "
                                   "*channelDesc)", "ret"),
    "media.vdec_create_frame_config": ("aclvdecFrameConfig *aclvdecCreateFrameConfig()",
                                       "vdec_frame_config"),
    "media.vdec_destroy_frame_config": ("aclError aclvdecDestroyFrameConfig("
                                        "aclvdecFrameConfig *vdecFrameConfig)", "ret"),
    "media.vdec_send_frame": ("aclError aclvdecSendFrame(aclvdecChannelDesc *channelDesc, "
                              "acldvppStreamDesc *input, acldvppPicDesc *output, "
                              "aclvdecFrameConfig *config, void *userData)", "ret"),
    # ----- VENC ------------------------------------------------------------------------
    "media.venc_create_channel_desc": ("aclvencChannelDesc *aclvencCreateChannelDesc()",
                                       "venc_channel_desc"),
    "media.venc_destroy_channel_desc": ("aclError aclvencDestroyChannelDesc("
                                        "aclvencChannelDesc *channelDesc)", "ret"),
    **_family("venc_{}_channel_desc_", "aclvenc{}ChannelDesc", "aclvencChannelDesc",
              "channelDesc", [("thread_id", "uint64_t"), ("entype", "acldvppStreamFormat"),
                              ("pic_format", "acldvppPixelFormat"), ("pic_width", _U32),
                              ("pic_height", _U32), ("key_frame_interval", _U32)]),
    **_family("venc_{}_channel_desc_", "aclvenc{}ChannelDesc", "aclvencChannelDesc",
              "channelDesc", [("buf_addr", "void *"), ("buf_size", _U32), ("rc_mode", _U32),
                              ("src_rate", _U32), ("max_bit_rate", _U32)], getters=False),
    "media.venc_set_channel_desc_callback": ("aclError aclvencSetChannelDescCallback("
                                             "aclvencChannelDesc *channelDesc, aclvencCallback "
                                             "callback)", "ret"),
    "media.venc_set_channel_desc_param": ("aclError aclvencSetChannelDescParam("
                                          "aclvencChannelDesc *channelDesc, "
                                          "aclvencChannelDescParamType paramType, size_t length, "
                                          "const void *param)", "ret"),
    "media.venc_get_channel_desc_param": ("aclError aclvencGetChannelDescParam("
                                          "const aclvencChannelDesc *channelDesc, "
                                          "aclvencChannelDescParamType paramType, size_t length, "
                                          "size_t *paramRetSize, void *param)", "param, ret"),
    "media.venc_create_channel": ("aclError aclvencCreateChannel(aclvencChannelDesc "
                                  "*channelDesc)", "ret"),
    "media.venc_destroy_channel": ("aclError aclvencDestroyChannel(aclvencChannelDesc "
                                   "*channelDesc)", "ret"),
    "media.venc_create_frame_config": ("aclvencFrameConfig *aclvencCreateFrameConfig()",
                                       "venc_frame_config"),
    "media.venc_destroy_frame_config": ("aclError aclvencDestroyFrameConfig("
                                        "aclvencFrameConfig *vencFrameConfig)", "ret"),
    **_family("venc_{}_frame_config_", "aclvenc{}FrameConfig", "aclvencFrameConfig",
              "config", [("force_i_frame", "uint8_t"), ("eos", "uint8_t")]),
    "media.venc_send_frame": ("aclError aclvencSendFrame(aclvencChannelDesc *channelDesc, "
                              "acldvppPicDesc *input, void *reserve, aclvencFrameConfig "
                              "*config, void *userdata)", "ret"),
}

ROWS = {name: P(*row) for name, row in TABLE.items()}
