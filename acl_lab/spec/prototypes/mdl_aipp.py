"""``acl.mdl``: dynamic AIPP's parameter objects and their setters, setting them into a
model's input, and what a model says of its AIPP (hicann/ge ``inc/external/acl/
acl_mdl.h``). Shapes as pyACL's wrappers build them (hicann/runtime
``python/pyACL/mdl/mdl_wrap.cpp``): get_first_aipp_info gives (None, ret) when it fails.
"""
from acl_lab.spec.prototypes.row import Prototype as P

_SET = "aclmdlAIPP *aippParmsSet"
ROWS = {
    "mdl.create_aipp": P("aclmdlAIPP *aclmdlCreateAIPP(uint64_t batchSize)", "aipp"),
    "mdl.destroy_aipp": P("aclError aclmdlDestroyAIPP(const aclmdlAIPP *aippParmsSet)", "ret"),
    "mdl.get_aipp_data_size": P("aclError aclmdlGetAippDataSize(uint64_t batchSize, "
                                "size_t *size)", "size, ret"),
    "mdl.set_aipp_input_format": P(f"aclError aclmdlSetAIPPInputFormat({_SET}, "
                                   "aclAippInputFormat inputFormat)", "ret"),
    "mdl.set_aipp_csc_params": P(
        f"aclError aclmdlSetAIPPCscParams({_SET}, int8_t cscSwitch, int16_t cscMatrixR0C0, "
        "int16_t cscMatrixR0C1, int16_t cscMatrixR0C2, int16_t cscMatrixR1C0, "
        "int16_t cscMatrixR1C1, int16_t cscMatrixR1C2, int16_t cscMatrixR2C0, "
        "int16_t cscMatrixR2C1, int16_t cscMatrixR2C2, uint8_t cscOutputBiasR0, "
        "uint8_t cscOutputBiasR1, uint8_t cscOutputBiasR2, uint8_t cscInputBiasR0, "
        "uint8_t cscInputBiasR1, uint8_t cscInputBiasR2)", "ret"),
    "mdl.set_aipp_rbuv_swap_switch": P(f"aclError aclmdlSetAIPPRbuvSwapSwitch({_SET}, "
                                       "int8_t rbuvSwapSwitch)", "ret"),
    "mdl.set_aipp_ax_swap_switch": P(f"aclError aclmdlSetAIPPAxSwapSwitch({_SET}, "
                                     "int8_t axSwapSwitch)", "ret"),
    "mdl.set_aipp_src_image_size": P(f"aclError aclmdlSetAIPPSrcImageSize({_SET}, "
                                     "int32_t srcImageSizeW, int32_t srcImageSizeH)", "ret"),
    "mdl.set_aipp_crop_params": P(f"aclError aclmdlSetAIPPCropParams({_SET}, int8_t cropSwitch, "
                                  "int32_t cropStartPosW, int32_t cropStartPosH, "
                                  "int32_t cropSizeW, int32_t cropSizeH, uint64_t batchIndex)",
                                  "ret"),
    "mdl.set_aipp_padding_params": P(f"aclError aclmdlSetAIPPPaddingParams({_SET}, "
                                     "int8_t paddingSwitch, int32_t paddingSizeTop, "
                                     "int32_t paddingSizeBottom, int32_t paddingSizeLeft, "
                                     "int32_t paddingSizeRight, uint64_t batchIndex)", "ret"),
    "mdl.set_aipp_dtc_pixel_mean": P(f"aclError aclmdlSetAIPPDtcPixelMean({_SET}, "
                                     "int16_t dtcPixelMeanChn0, int16_t dtcPixelMeanChn1, "
                                     "int16_t dtcPixelMeanChn2, int16_t dtcPixelMeanChn3, "
                                     "uint64_t batchIndex)", "ret"),
    "mdl.set_aipp_dtc_pixel_min": P(f"aclError aclmdlSetAIPPDtcPixelMin({_SET}, "
                                    "float dtcPixelMinChn0, float dtcPixelMinChn1, "
                                    "float dtcPixelMinChn2, float dtcPixelMinChn3, "
                                    "uint64_t batchIndex)", "ret"),
    "mdl.set_aipp_pixel_var_reci": P(f"aclError aclmdlSetAIPPPixelVarReci({_SET}, "
                                     "float dtcPixelVarReciChn0, float dtcPixelVarReciChn1, "
                                     "float dtcPixelVarReciChn2, float dtcPixelVarReciChn3, "
                                     "uint64_t batchIndex)", "ret"),
    "mdl.set_input_aipp": P("aclError aclmdlSetInputAIPP(uint32_t modelId, aclmdlDataset "
                            "*dataset, size_t index, const aclmdlAIPP *aippParmsSet)", "ret"),
    "mdl.set_aipp_by_input_index": P("aclError aclmdlSetAIPPByInputIndex(uint32_t modelId, "
                                     "aclmdlDataset *dataset, size_t index, "
                                     "const aclmdlAIPP *aippParmsSet)", "ret"),
    "mdl.get_aipp_type": P("aclError aclmdlGetAippType(uint32_t modelId, size_t index, "
                           "aclmdlInputAippType *type, size_t *dynamicAttachedDataIndex)",
                           "type, dynamic_attached_data_index, ret"),
    "mdl.get_first_aipp_info": P("aclError aclmdlGetFirstAippInfo(uint32_t modelId, "
                                 "size_t index, aclAippInfo *aippInfo)", "aipp_info, ret",
                                 fails=(None,)),
}
