"""``acl.mdl``'s dynamic AIPP: aclmdlAIPP objects and their setters (spec/aipp_params.py),
setting one into a model's input, a model's AIPP types and first AIPP's description
(sim/model_aipp.py). Arguments as pyACL's wrappers parse them (hicann/runtime
python/pyACL/mdl/mdl_wrap.cpp): switches with "b" (0..255, which the C int8_t receives as
-128..127), matrices and means with "h", biases with "B" (no range check: the low byte),
floats with "f" (single precision)."""
import numpy as np

from acl_lab.sim import model_aipp
from acl_lab.sim.facade._call import acl_call
from acl_lab.spec import aipp_params as P
from acl_lab.spec import args


def _int8(call: str, name: str, value) -> int:
    """PyArg "b" into an int8_t: 0..255, 128..255 arriving negative."""
    v = args.u8_arg(call, name, value)
    return v - 256 if v > 127 else v


def _low_byte(call: str, name: str, value) -> int:
    """PyArg "B": no range check, the low byte."""
    return args.int_arg(call, name, value) & 0xFF


def _float(call: str, name: str, value) -> float:
    """PyArg "f": a float, rounded to single precision."""
    return float(np.float32(args.number_arg(call, name, value)))


BYTE, UBYTE, FLOAT, SHORT = (args.Reader(_int8), args.Reader(_low_byte), args.Reader(_float),
                             args.i16)


class MdlAipp:
    """acl.mdl: dynamic AIPP"""

    @acl_call("mdl.create_aipp")
    def create_aipp(self, rt, batch_size: args.u64):
        return model_aipp.of(rt).create(batch_size)

    @acl_call("mdl.destroy_aipp")
    def destroy_aipp(self, rt, aipp_parms_set: args.ptr):
        model_aipp.of(rt).destroy(aipp_parms_set)

    @acl_call("mdl.get_aipp_data_size")
    def get_aipp_data_size(self, rt, batch_size: args.u64):
        return model_aipp.data_size(batch_size)

    @acl_call("mdl.set_aipp_input_format")
    def set_aipp_input_format(self, rt, aipp_parms_set: args.ptr, input_format: args.u32):
        P.set_input_format(model_aipp.of(rt).get(aipp_parms_set, "aclmdlSetAIPPInputFormat"),
                           input_format)

    @acl_call("mdl.set_aipp_csc_params")
    def set_aipp_csc_params(self, rt, aipp_parms_set: args.ptr, csc_switch: BYTE,
                            csc_matrix_r0c0: SHORT, csc_matrix_r0c1: SHORT,
                            csc_matrix_r0c2: SHORT, csc_matrix_r1c0: SHORT,
                            csc_matrix_r1c1: SHORT, csc_matrix_r1c2: SHORT,
                            csc_matrix_r2c0: SHORT, csc_matrix_r2c1: SHORT,
                            csc_matrix_r2c2: SHORT, csc_output_bias_r0: UBYTE,
                            csc_output_bias_r1: UBYTE, csc_output_bias_r2: UBYTE,
                            csc_input_bias_r0: UBYTE, csc_input_bias_r1: UBYTE,
                            csc_input_bias_r2: UBYTE):
        P.set_csc(model_aipp.of(rt).get(aipp_parms_set, "aclmdlSetAIPPCscParams"), csc_switch,
                  (csc_matrix_r0c0, csc_matrix_r0c1, csc_matrix_r0c2, csc_matrix_r1c0,
                   csc_matrix_r1c1, csc_matrix_r1c2, csc_matrix_r2c0, csc_matrix_r2c1,
                   csc_matrix_r2c2),
                  (csc_output_bias_r0, csc_output_bias_r1, csc_output_bias_r2),
                  (csc_input_bias_r0, csc_input_bias_r1, csc_input_bias_r2))

    @acl_call("mdl.set_aipp_rbuv_swap_switch")
    def set_aipp_rbuv_swap_switch(self, rt, aipp_parms_set: args.ptr, rbuv_swap_switch: BYTE):
        call = "aclmdlSetAIPPRbuvSwapSwitch"
        P.set_switch(model_aipp.of(rt).get(aipp_parms_set, call), "rbuvSwapSwitch",
                     rbuv_swap_switch, call)

    @acl_call("mdl.set_aipp_ax_swap_switch")
    def set_aipp_ax_swap_switch(self, rt, aipp_parms_set: args.ptr, ax_swap_switch: BYTE):
        call = "aclmdlSetAIPPAxSwapSwitch"
        P.set_switch(model_aipp.of(rt).get(aipp_parms_set, call), "axSwapSwitch",
                     ax_swap_switch, call)

    @acl_call("mdl.set_aipp_src_image_size")
    def set_aipp_src_image_size(self, rt, aipp_parms_set: args.ptr,
                                src_image_size_w: args.i32, src_image_size_h: args.i32):
        P.set_src_image_size(model_aipp.of(rt).get(aipp_parms_set, "aclmdlSetAIPPSrcImageSize"),
                             src_image_size_w, src_image_size_h)

    @acl_call("mdl.set_aipp_crop_params")
    def set_aipp_crop_params(self, rt, aipp_parms_set: args.ptr, crop_switch: BYTE,
                             crop_start_pos_w: args.i32, crop_start_pos_h: args.i32,
                             crop_size_w: args.i32, crop_size_h: args.i32,
                             batch_index: args.u64):
        P.set_crop(model_aipp.of(rt).get(aipp_parms_set, "aclmdlSetAIPPCropParams"),
                   crop_switch, crop_start_pos_w, crop_start_pos_h, crop_size_w, crop_size_h,
                   batch_index)

    @acl_call("mdl.set_aipp_padding_params")
    def set_aipp_padding_params(self, rt, aipp_parms_set: args.ptr, padding_switch: BYTE,
                                padding_size_top: args.i32, padding_size_bottom: args.i32,
                                padding_size_left: args.i32, padding_size_right: args.i32,
                                batch_index: args.u64):
        P.set_padding(model_aipp.of(rt).get(aipp_parms_set, "aclmdlSetAIPPPaddingParams"),
                      padding_switch, padding_size_top, padding_size_bottom, padding_size_left,
                      padding_size_right, batch_index)

    @acl_call("mdl.set_aipp_dtc_pixel_mean")
    def set_aipp_dtc_pixel_mean(self, rt, aipp_parms_set: args.ptr, dtc_pixel_mean_chn0: SHORT,
                                dtc_pixel_mean_chn1: SHORT, dtc_pixel_mean_chn2: SHORT,
                                dtc_pixel_mean_chn3: SHORT, batch_index: args.u64):
        P.set_channels(model_aipp.of(rt).get(aipp_parms_set, "aclmdlSetAIPPDtcPixelMean"),
                       "Mean", (dtc_pixel_mean_chn0, dtc_pixel_mean_chn1, dtc_pixel_mean_chn2,
                                dtc_pixel_mean_chn3), batch_index)

    @acl_call("mdl.set_aipp_dtc_pixel_min")
    def set_aipp_dtc_pixel_min(self, rt, aipp_parms_set: args.ptr, dtc_pixel_min_chn0: FLOAT,
                               dtc_pixel_min_chn1: FLOAT, dtc_pixel_min_chn2: FLOAT,
                               dtc_pixel_min_chn3: FLOAT, batch_index: args.u64):
        P.set_channels(model_aipp.of(rt).get(aipp_parms_set, "aclmdlSetAIPPDtcPixelMin"),
                       "Min", (dtc_pixel_min_chn0, dtc_pixel_min_chn1, dtc_pixel_min_chn2,
                               dtc_pixel_min_chn3), batch_index)

    @acl_call("mdl.set_aipp_pixel_var_reci")
    def set_aipp_pixel_var_reci(self, rt, aipp_parms_set: args.ptr,
                                dtc_pixel_var_reci_chn0: FLOAT, dtc_pixel_var_reci_chn1: FLOAT,
                                dtc_pixel_var_reci_chn2: FLOAT, dtc_pixel_var_reci_chn3: FLOAT,
                                batch_index: args.u64):
        P.set_channels(model_aipp.of(rt).get(aipp_parms_set, "aclmdlSetAIPPPixelVarReci"),
                       "VarReci", (dtc_pixel_var_reci_chn0, dtc_pixel_var_reci_chn1,
                                   dtc_pixel_var_reci_chn2, dtc_pixel_var_reci_chn3),
                       batch_index)

    @acl_call("mdl.set_input_aipp")
    def set_input_aipp(self, rt, model_id: args.u32, dataset: args.ptr, index: args.size,
                       aipp_parms_set: args.ptr):
        model_aipp.of(rt).set_input(model_id, dataset, index, aipp_parms_set)

    @acl_call("mdl.set_aipp_by_input_index")
    def set_aipp_by_input_index(self, rt, model_id: args.u32, dataset: args.ptr,
                                index: args.size, aipp_parms_set: args.ptr):
        model_aipp.of(rt).set_by_input_index(model_id, dataset, index, aipp_parms_set)

    @acl_call("mdl.get_aipp_type")
    def get_aipp_type(self, rt, model_id: args.u32, index: args.size):
        return model_aipp.of(rt).aipp_type(model_id, index)

    @acl_call("mdl.get_first_aipp_info")
    def get_first_aipp_info(self, rt, model_id: args.u32, index: args.size):
        return model_aipp.of(rt).first_info(model_id, index)
