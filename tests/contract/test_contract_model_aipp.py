"""acl.mdl's dynamic AIPP: aclmdlAIPP objects and their setters, set_input_aipp /
set_aipp_by_input_index into a model built with `atc --insert_op_conf` (aipp_mode: dynamic),
get_aipp_type, get_first_aipp_info and get_aipp_data_size, with pyACL's return shapes and
GE's codes.

Compared: return codes, what the model computes (the same as a static AIPP model with the
same parameters: the static path is checked against the ATC formulas in
tests/om/test_offline_model_aipp.py), the parameter bytes in the data input. A refused call
changes nothing: the data input's bytes and the model's results stay as they were."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from onnx import TensorProto, helper

from acl_lab import constants as C
from mdlhelpers import Model, _save, convert, image, seq

INVALID = C.ACL_ERROR_INVALID_PARAM
YUV_TO_RGB = (298, 516, 0, 298, -100, -208, 298, 0, 409, 16, 128, 128, 16, 128, 128)
DYNAMIC = "aipp_op {\n aipp_mode: dynamic\n max_src_image_size: 1536\n}\n"
STATIC = ("aipp_op {\n aipp_mode: static\n input_format: YUV420SP_U8\n src_image_size_w: 16\n"
          " src_image_size_h: 16\n csc_switch: true\n mean_chn_0: 10\n var_reci_chn_0: 0.5\n"
          " crop: true\n load_start_pos_w: 2\n load_start_pos_h: 4\n crop_size_w: 12\n"
          " crop_size_h: 12\n padding: true\n left_padding_size: 2\n right_padding_size: 2\n"
          " top_padding_size: 2\n bottom_padding_size: 2\n}\n")


def pair(path: Path) -> Path:
    """x [2, 3, 16, 16] -> Relu -> y: a batch of two images."""
    F = TensorProto.FLOAT
    return _save(path, helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])], "pair",
        [helper.make_tensor_value_info("x", F, [2, 3, 16, 16])],
        [helper.make_tensor_value_info("y", F, [2, 3, 16, 16])]))


def build(acl, folder: Path, builder, cfg: str, name: str) -> Model:
    (folder / f"{name}.cfg").write_text(cfg)
    om = convert(folder, builder, acl.get_soc_name(), f"--insert_op_conf={folder / name}.cfg",
                 name=name)
    return Model(acl, om)


@pytest.fixture
def dyn(acl, tmp_path):
    m = build(acl, tmp_path, image, DYNAMIC, "dyn")
    yield m
    acl.mdl.unload(m.id)


def aipp(acl, batch=1, **skip) -> int:
    """An aclmdlAIPP with the parameters of STATIC, for every image of the batch."""
    a = acl.mdl.create_aipp(batch)
    assert a
    assert acl.mdl.set_aipp_input_format(a, C.ACL_YUV420SP_U8) == 0
    assert acl.mdl.set_aipp_csc_params(a, 1, *YUV_TO_RGB) == 0
    assert acl.mdl.set_aipp_src_image_size(a, 16, 16) == 0
    for i in range(batch):
        assert acl.mdl.set_aipp_dtc_pixel_mean(a, 10, 0, 0, 0, i) == 0
        assert acl.mdl.set_aipp_pixel_var_reci(a, 0.5, 1.0, 1.0, 1.0, i) == 0
        assert acl.mdl.set_aipp_crop_params(a, 1, 2, 4, 12, 12, i) == 0
        assert acl.mdl.set_aipp_padding_params(a, 1, 2, 2, 2, 2, i) == 0
    return a


def device_bytes(acl, m: Model, index: int) -> bytes:
    n = m.in_sizes[index]
    host = np.empty(n, np.uint8)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(host), n, m.inputs[index], n, 2) == 0
    return host.tobytes()


RAW = np.random.default_rng(3).integers(0, 256, 384, np.uint8)     # one NV12 16x16 image


def run(acl, m: Model, raw=RAW) -> np.ndarray:
    feed = np.zeros(m.in_sizes[0], np.uint8)
    feed[:raw.size] = raw
    m.put(0, feed)
    assert acl.mdl.execute(m.id, m.in_ds, m.out_ds) == 0
    return m.get(0, m.out_sizes[0] // 4)


# ----- the model and the parameters ---------------------------------------------------------
def test_a_dynamic_aipp_model_computes_what_the_same_static_aipp_does(acl, tmp_path, dyn):
    assert acl.mdl.get_input_dims(dyn.desc, 0) == (
        {"name": "x", "dimCount": 4, "dims": [1, -1, -1, -1]}, 0)
    assert dyn.in_sizes == [1536, 160]
    assert acl.mdl.get_input_name_by_index(dyn.desc, 1) == C.ACL_DYNAMIC_AIPP_NAME
    static = build(acl, tmp_path, image, STATIC, "static")
    a = aipp(acl)
    assert acl.mdl.set_input_aipp(dyn.id, dyn.in_ds, 1, a) == 0
    np.testing.assert_array_equal(run(acl, dyn), run(acl, static))
    assert acl.mdl.destroy_aipp(a) == 0


def test_each_image_of_a_batch_takes_its_own_parameters(acl, tmp_path):
    m = build(acl, tmp_path, pair, "aipp_op { aipp_mode: dynamic max_src_image_size: 768 }",
              "pair")
    a = aipp(acl, batch=2)
    assert acl.mdl.set_aipp_dtc_pixel_mean(a, 100, 0, 0, 0, 1) == 0
    assert acl.mdl.set_aipp_by_input_index(m.id, m.in_ds, 0, a) == 0
    out = run(acl, m, np.concatenate([RAW, RAW])).reshape(2, 3, 16, 16)
    np.testing.assert_array_equal(out[0, 1:], out[1, 1:])           # the same but channel 0
    border = np.zeros((16, 16), bool)
    border[2:14, 2:14] = True
    inner = out[:, 0][:, border]
    np.testing.assert_allclose(np.maximum(inner[0] - 45, 0), inner[1], atol=0.51)
    acl.mdl.unload(m.id)


def test_the_parameters_are_kaipp_dynamic_para_bytes(acl, dyn):
    size, ret = acl.mdl.get_aipp_data_size(1)
    assert (size, ret) == (160, 0)
    assert acl.mdl.get_aipp_data_size(3) == (64 + 3 * 96, 0)
    assert acl.mdl.get_aipp_data_size(0) == (0, INVALID)
    assert acl.mdl.get_aipp_data_size(1 << 60) == (0, C.ACL_ERROR_FAILURE)
    a = aipp(acl)
    assert acl.mdl.set_input_aipp(dyn.id, dyn.in_ds, 1, a) == 0
    data = device_bytes(acl, dyn, 1)
    assert data[0] == 1 and data[1] == 1 and data[4] == 1           # YUV420SP, csc, batch 1
    assert np.frombuffer(data[8:16], "<i4").tolist() == [16, 16]
    assert np.frombuffer(data[16:34], "<i2").tolist() == list(YUV_TO_RGB[:9])
    batch = data[64:160]
    assert list(batch[:3]) == [1, 0, 1]                             # crop, no scf, padding
    assert np.frombuffer(batch[8:24], "<i4").tolist() == [2, 4, 12, 12]
    assert np.frombuffer(batch[56:64], "<i2").tolist() == [10, 0, 0, 0]
    assert np.frombuffer(batch[72:80], "<f2").tolist() == [0.5, 1.0, 1.0, 1.0]


def test_aipp_objects_and_setters_refuse_what_ge_refuses(acl):
    assert acl.mdl.create_aipp(0) == 0
    a = acl.mdl.create_aipp(1)
    assert acl.mdl.set_aipp_input_format(a, 99) == INVALID
    assert acl.mdl.set_aipp_csc_params(a, 2, *YUV_TO_RGB) == INVALID
    assert acl.mdl.set_aipp_csc_params(a, 1, 32677, *YUV_TO_RGB[1:]) == INVALID
    assert acl.mdl.set_aipp_csc_params(a, 300, *YUV_TO_RGB) == INVALID     # not a "b"
    assert acl.mdl.set_aipp_rbuv_swap_switch(a, 2) == INVALID
    assert acl.mdl.set_aipp_ax_swap_switch(a, 1) == 0
    assert acl.mdl.set_aipp_src_image_size(a, 1, 16) == INVALID
    assert acl.mdl.set_aipp_src_image_size(a, 16, 4097) == INVALID
    assert acl.mdl.set_aipp_crop_params(a, 1, 0, 0, 8, 8, 1) == INVALID      # batch index
    assert acl.mdl.set_aipp_crop_params(a, 1, 0, 0, 0, 8, 0) == INVALID
    assert acl.mdl.set_aipp_padding_params(a, 1, 33, 0, 0, 0, 0) == INVALID
    assert acl.mdl.set_aipp_dtc_pixel_mean(a, 256, 0, 0, 0, 0) == INVALID
    assert acl.mdl.set_aipp_dtc_pixel_min(a, 255.5, 0, 0, 0, 0) == INVALID
    assert acl.mdl.set_aipp_pixel_var_reci(a, 70000.0, 1, 1, 1, 0) == INVALID
    assert acl.mdl.set_aipp_dtc_pixel_min(a, 1.5, 0, 0, 0, 0) == 0
    assert acl.mdl.destroy_aipp(a) == 0
    assert acl.mdl.destroy_aipp(a) == INVALID and acl.mdl.destroy_aipp(0) == INVALID
    assert acl.mdl.set_aipp_src_image_size(a, 16, 16) == INVALID               # destroyed
    assert acl.get_recent_err_msg()


def test_a_refused_setter_leaves_the_parameters_as_they_were(acl, tmp_path, dyn):
    static = build(acl, tmp_path, image, STATIC, "static")
    a = aipp(acl)
    assert acl.mdl.set_aipp_dtc_pixel_mean(a, 10, 0, 0, 999, 0) == INVALID
    assert acl.mdl.set_aipp_csc_params(a, 1, 40000, *YUV_TO_RGB[1:]) == INVALID
    assert acl.mdl.set_aipp_crop_params(a, 0, -5, 0, 0, 0, 3) == INVALID
    assert acl.mdl.set_input_aipp(dyn.id, dyn.in_ds, 1, a) == 0
    np.testing.assert_array_equal(run(acl, dyn), run(acl, static))


@pytest.mark.parametrize("change, code", [
    (lambda acl, a: acl.mdl.set_aipp_src_image_size(a, 8, 8), INVALID),       # output size
    (lambda acl, a: acl.mdl.set_aipp_input_format(a, C.ACL_NC1HWC0DI_FP16), INVALID),
    (lambda acl, a: acl.mdl.set_aipp_crop_params(a, 1, 6, 4, 12, 12, 0), INVALID),  # leaves
    (lambda acl, a: acl.mdl.set_aipp_crop_params(a, 1, 1, 4, 12, 12, 0), INVALID),  # odd
    (lambda acl, a: (acl.mdl.set_aipp_input_format(a, C.ACL_RGB888_U8),
                     acl.mdl.set_aipp_src_image_size(a, 32, 32),
                     acl.mdl.set_aipp_crop_params(a, 1, 0, 0, 12, 12, 0)), INVALID),  # too big
    (lambda acl, a: (acl.mdl.set_aipp_input_format(a, C.ACL_YUV400_U8)), INVALID),  # csc on
])
def test_set_input_aipp_checks_the_parameters_against_the_model(acl, dyn, change, code):
    a = aipp(acl)
    assert acl.mdl.set_input_aipp(dyn.id, dyn.in_ds, 1, a) == 0
    before = device_bytes(acl, dyn, 1)
    change(acl, a)
    assert acl.mdl.set_input_aipp(dyn.id, dyn.in_ds, 1, a) == code
    assert acl.get_recent_err_msg()
    assert device_bytes(acl, dyn, 1) == before


def test_set_input_aipp_refuses_wrong_inputs_and_a_small_buffer(acl, dyn):
    a = aipp(acl)
    assert acl.mdl.set_input_aipp(dyn.id, 0, 1, a) == INVALID
    assert acl.mdl.set_input_aipp(dyn.id, dyn.in_ds, 1, 0) == INVALID
    assert acl.mdl.set_input_aipp(dyn.id + 100, dyn.in_ds, 1, a) == \
        C.ACL_ERROR_GE_EXEC_MODEL_ID_INVALID
    assert acl.mdl.set_input_aipp(dyn.id, dyn.in_ds, 0, a) == INVALID     # the image input
    assert acl.mdl.set_input_aipp(dyn.id, dyn.in_ds, 2, a) == INVALID     # no such input
    small = acl.mdl.create_dataset()
    ptr, _ = acl.rt.malloc(100, 0)
    for p, n in ((dyn.inputs[0], 1536), (ptr, 100)):
        acl.mdl.add_dataset_buffer(small, acl.create_data_buffer(p, n))
    assert acl.mdl.set_input_aipp(dyn.id, small, 1, a) == \
        C.ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID
    assert acl.mdl.set_aipp_by_input_index(dyn.id, dyn.in_ds, 1, a) == C.ACL_ERROR_FAILURE
    assert acl.mdl.set_aipp_by_input_index(dyn.id, dyn.in_ds, 5, a) == INVALID
    assert acl.mdl.set_aipp_by_input_index(dyn.id, dyn.in_ds, 0, 0) == INVALID
    assert acl.mdl.set_aipp_by_input_index(dyn.id, dyn.in_ds, 0, a) == 0


def test_an_execution_without_parameters_writes_no_output(acl, dyn):
    out = np.full(dyn.out_sizes[0] // 4, 7.0, np.float32)
    assert acl.rt.memcpy(dyn.outputs[0], out.nbytes, acl.util.numpy_to_ptr(out),
                         out.nbytes, 1) == 0
    dyn.put(1, np.zeros(160, np.uint8))                        # never set: all zero
    assert acl.mdl.execute(dyn.id, dyn.in_ds, dyn.out_ds) == 0
    np.testing.assert_array_equal(dyn.get(0, out.size), out)


# ----- what a model says of its AIPP ---------------------------------------------------------------
def test_get_aipp_type_names_each_input_kind(acl, tmp_path, dyn):
    invalid = C.ACL_INVALID_NODE_INDEX
    assert acl.mdl.get_aipp_type(dyn.id, 0) == (C.ACL_DATA_WITH_DYNAMIC_AIPP, 1, 0)
    assert acl.mdl.get_aipp_type(dyn.id, 1) == (C.ACL_DYNAMIC_AIPP_NODE, invalid, 0)
    assert acl.mdl.get_aipp_type(dyn.id, 2) == (0, 0, INVALID)
    static = build(acl, tmp_path, image, STATIC, "static")
    assert acl.mdl.get_aipp_type(static.id, 0) == (C.ACL_DATA_WITH_STATIC_AIPP, invalid, 0)
    plain = Model(acl, convert(tmp_path, seq, acl.get_soc_name(), "--input_format=ND",
                               "--input_shape=x:1,2,4", name="plain"))
    assert acl.mdl.get_aipp_type(plain.id, 0) == (C.ACL_DATA_WITHOUT_AIPP, invalid, 0)
    assert acl.mdl.get_first_aipp_info(plain.id, 0) == (None, C.ACL_ERROR_GE_AIPP_NOT_EXIST)


def test_get_first_aipp_info_describes_a_static_aipp(acl, tmp_path, dyn):
    static = build(acl, tmp_path, image, STATIC, "static")
    info, ret = acl.mdl.get_first_aipp_info(static.id, 0)
    assert ret == 0
    assert {k: info[k] for k in ("inputFormat", "cscSwitch", "matrixR0C0", "matrixR2C2",
                                 "srcImageSizeW", "srcImageSizeH", "cropSwitch",
                                 "loadStartPosW", "cropSizeH", "paddingSwitch",
                                 "leftPaddingSize", "meanChn0", "varReciChn0", "shapeCount",
                                 "srcDimNum")} == {
        "inputFormat": C.ACL_YUV420SP_U8, "cscSwitch": 1, "matrixR0C0": 298, "matrixR2C2": 409,
        "srcImageSizeW": 16, "srcImageSizeH": 16, "cropSwitch": 1, "loadStartPosW": 2,
        "cropSizeH": 12, "paddingSwitch": 1, "leftPaddingSize": 2, "meanChn0": 10,
        "varReciChn0": 0.5, "shapeCount": 1, "srcDimNum": 4}
    assert "matrixR0C2" not in info                  # pyACL's dict leaves it out
    (dims,) = info["outDims"]
    assert dims["aippOutdims"]["dims"] == [1, 3, 16, 16] and dims["aippOutSize"] == 3072
    assert dims["srcSize"] == 384
    assert acl.mdl.get_first_aipp_info(static.id, 3) == (None, INVALID)
    info, ret = acl.mdl.get_first_aipp_info(dyn.id, 0)
    assert ret == 0 and info["inputFormat"] == 0 and info["srcImageSizeW"] == 0
    assert acl.mdl.get_first_aipp_info(dyn.id, 1) == (None, C.ACL_ERROR_GE_AIPP_NOT_EXIST)
