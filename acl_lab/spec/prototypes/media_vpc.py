"""``acl.media``: batch picture descriptions, the batch and crop-resize VPC calls, border
configs and make-border, colour conversion, pyramid down and PNG decoding (CANN
``acl/ops/acl_dvpp.h``). Shapes as pyACL's wrappers build them (hicann/runtime
``python/pyACL/media/media_vpc.cpp``, ``media_common.cpp``): the batch crop and the batch
crop-and-paste return ``(dst_batch_pic_descs, ret)``, the other batch calls ``ret``; a
border's component value is -1 when the getter fails (acldvppGetBorderConfigValue).
"""
from acl_lab.spec.prototypes.row import Prototype as P

_CH = "acldvppChannelDesc *channelDesc"
_BATCH = ("acldvppBatchPicDesc *srcBatchPicDescs, uint32_t *roiNums, uint32_t size, "
          "acldvppBatchPicDesc *dstBatchPicDescs, acldvppRoiConfig *cropAreas[]")
_BORDER = "acldvppBorderConfig *borderConfig"


def _border_rows() -> dict:
    rows = {}
    for field, ctype, arg in (("top", "uint32_t", "top"), ("bottom", "uint32_t", "bottom"),
                              ("left", "uint32_t", "left"), ("right", "uint32_t", "right"),
                              ("border_type", "acldvppBorderType", "borderType")):
        name = "".join(p[:1].upper() + p[1:] for p in field.split("_"))
        rows[f"media.dvpp_set_border_config_{field}"] = P(
            f"aclError acldvppSetBorderConfig{name}({_BORDER}, {ctype} {arg})", "ret")
        rows[f"media.dvpp_get_border_config_{field}"] = P(
            f"{ctype} acldvppGetBorderConfig{name}(const {_BORDER})", field)
    return rows


ROWS = {
    "media.dvpp_create_batch_pic_desc": P("acldvppBatchPicDesc *acldvppCreateBatchPicDesc("
                                          "uint32_t batchSize)", "batch_pic_desc"),
    "media.dvpp_destroy_batch_pic_desc": P("aclError acldvppDestroyBatchPicDesc("
                                           "acldvppBatchPicDesc *batchPicDesc)", "ret"),
    "media.dvpp_get_pic_desc": P("acldvppPicDesc *acldvppGetPicDesc(acldvppBatchPicDesc "
                                 "*batchPicDesc, uint32_t index)", "pic_desc"),
    "media.dvpp_vpc_batch_crop_async": P(f"aclError acldvppVpcBatchCropAsync({_CH}, {_BATCH}, "
                                         "aclrtStream stream)", "dst_batch_pic_descs, ret"),
    "media.dvpp_vpc_batch_crop_and_paste_async": P(
        f"aclError acldvppVpcBatchCropAndPasteAsync({_CH}, {_BATCH}, "
        "acldvppRoiConfig *pasteAreas[], aclrtStream stream)", "dst_batch_pic_descs, ret"),
    "media.dvpp_vpc_crop_resize_async": P(
        f"aclError acldvppVpcCropResizeAsync({_CH}, acldvppPicDesc *inputDesc, "
        "acldvppPicDesc *outputDesc, acldvppRoiConfig *cropArea, "
        "acldvppResizeConfig *resizeConfig, aclrtStream stream)", "ret"),
    "media.dvpp_vpc_batch_crop_resize_async": P(
        f"aclError acldvppVpcBatchCropResizeAsync({_CH}, {_BATCH}, "
        "acldvppResizeConfig *resizeConfig, aclrtStream stream)", "ret"),
    "media.dvpp_vpc_crop_resize_paste_async": P(
        f"aclError acldvppVpcCropResizePasteAsync({_CH}, acldvppPicDesc *inputDesc, "
        "acldvppPicDesc *outputDesc, acldvppRoiConfig *cropArea, acldvppRoiConfig *pasteArea, "
        "acldvppResizeConfig *resizeConfig, aclrtStream stream)", "ret"),
    "media.dvpp_vpc_batch_crop_resize_paste_async": P(
        f"aclError acldvppVpcBatchCropResizePasteAsync({_CH}, {_BATCH}, "
        "acldvppRoiConfig *pasteAreas[], acldvppResizeConfig *resizeConfig, "
        "aclrtStream stream)", "ret"),
    "media.dvpp_vpc_batch_crop_resize_make_border_async": P(
        f"aclError acldvppVpcBatchCropResizeMakeBorderAsync({_CH}, {_BATCH}, "
        "acldvppBorderConfig *borderCfgs[], acldvppResizeConfig *resizeConfig, "
        "aclrtStream stream)", "ret"),
    "media.dvpp_create_border_config": P("acldvppBorderConfig *acldvppCreateBorderConfig()",
                                         "border_config"),
    "media.dvpp_destroy_border_config": P(f"aclError acldvppDestroyBorderConfig({_BORDER})",
                                          "ret"),
    "media.dvpp_set_border_config_value": P(f"aclError acldvppSetBorderConfigValue({_BORDER}, "
                                            "uint32_t index, double value)", "ret"),
    "media.dvpp_get_border_config_value": P(f"double acldvppGetBorderConfigValue(const "
                                            f"{_BORDER}, uint32_t index)", "value", (-1.0,)),
    **_border_rows(),
    "media.dvpp_vpc_convert_color_async": P(
        f"aclError acldvppVpcConvertColorAsync({_CH}, acldvppPicDesc *inputDesc, "
        "acldvppPicDesc *outputDesc, aclrtStream stream)", "ret"),
    "media.dvpp_vpc_pyr_down_async": P(
        f"aclError acldvppVpcPyrDownAsync({_CH}, acldvppPicDesc *inputDesc, "
        "acldvppPicDesc *outputDesc, void *reserve, aclrtStream stream)", "ret"),
    "media.dvpp_png_decode_async": P(
        f"aclError acldvppPngDecodeAsync({_CH}, const void *data, uint32_t size, "
        "acldvppPicDesc *outputDesc, aclrtStream stream)", "ret"),
    "media.dvpp_png_get_image_info": P(
        "aclError acldvppPngGetImageInfo(const void *data, uint32_t dataSize, uint32_t *width, "
        "uint32_t *height, int32_t *components)", "width, height, components, ret"),
    "media.dvpp_png_predict_dec_size": P(
        "aclError acldvppPngPredictDecSize(const void *data, uint32_t dataSize, "
        "acldvppPixelFormat outputPixelFormat, uint32_t *decSize)", "dec_size, ret"),
}
