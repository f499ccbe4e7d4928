"""Static AIPP (issue 25): `atc --insert_op_conf=aipp.cfg` compiles image pre-processing into
the model, as ATC does (hicann/ge docs/zh/user_guides/atc_tools/AIPP): the model's input
then takes the raw image (the official resnet50 samples' aipp.cfg: NV12 224x224, 75,264
bytes), and the colour conversion, crop, mean/min/scale and padding run before the network.
The expected values are computed here from the formulas of the ATC documentation, apart from
the kit's implementation."""
from __future__ import annotations

import numpy as np
import pytest

from acl_lab import constants as C
from modelhelpers import Loaded, convert

#: the official sample's aipp.cfg (python/level2_simple_inference/1_classification/
#: vpc_resnet50_imagenet_classification/caffe_model/aipp.cfg), as it is written there
SAMPLE_CFG = """aipp_op {
\taipp_mode : static
\trelated_input_rank : 0
\tinput_format : YUV420SP_U8
\tcsc_switch : true
\trbuv_swap_switch : false 
\tvar_reci_chn_0 : 1
\tvar_reci_chn_1 : 1
\tvar_reci_chn_2 : 1
\tmin_chn_0 : 123
\tmin_chn_1 : 117
\tmin_chn_2 : 104
\tload_start_pos_h : 0
\tload_start_pos_w : 0
\tsrc_image_size_w : 224
\tsrc_image_size_h : 224
}
"""
BT601_NARROW_TO_BGR = np.array([[298, 516, 0], [298, -100, -208], [298, 0, 409]])  # defaults


def _network(x_nchw):
    """The conv net run by onnxruntime on an already pre-processed input."""
    import onnxruntime
    from acl_lab import sample_models

    m = sample_models.model("convnet")
    s = onnxruntime.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return s.run(None, {"data": x_nchw.astype(np.float32)})[0]


def _model(tmp_path, cfg: str, *flags):
    (tmp_path / "aipp.cfg").write_text(cfg)
    code, out, path = convert(tmp_path, "convnet", f"--insert_op_conf={tmp_path / 'aipp.cfg'}",
                              *flags)
    return code, out, path


def _run(acl, path, raw: np.ndarray) -> np.ndarray:
    m = Loaded(acl, path)
    m.feed(raw)
    assert acl.mdl.execute(m.model_id, m.in_ds, m.out_ds) == 0
    return m.result()


def test_the_samples_aipp_cfg_makes_the_input_an_nv12_image(acl, tmp_path):
    code, out, path = _model(tmp_path, SAMPLE_CFG)
    assert code == 0, out
    m = Loaded(acl, path)
    assert m.in_sizes == [224 * 224 * 3 // 2]
    assert acl.mdl.get_input_dims(m.desc, 0)[0]["dims"] == [1, 224, 224, 1]
    assert acl.mdl.get_input_data_type(m.desc, 0) == C.ACL_UINT8
    assert acl.mdl.get_input_format(m.desc, 0) == C.ACL_FORMAT_NHWC
    assert m.out_sizes == [1000 * 4]


def test_nv12_goes_through_csc_and_min_before_the_network(acl, tmp_path):
    code, out, path = _model(tmp_path, SAMPLE_CFG)
    assert code == 0, out
    rng = np.random.default_rng(7)
    h = w = 224
    y = rng.integers(16, 236, (h, w), dtype=np.uint8)
    uv = rng.integers(16, 240, (h // 2, w // 2, 2), dtype=np.uint8)
    raw = np.concatenate([y.ravel(), uv.ravel()])
    # ATC's formula: (M · (Y-16, U-128, V-128)) >> 8, clipped, then (x - min) * var_reci
    u = uv[..., 0].repeat(2, 0).repeat(2, 1).astype(np.int64)
    v = uv[..., 1].repeat(2, 0).repeat(2, 1).astype(np.int64)
    yuv = np.stack([y.astype(np.int64) - 16, u - 128, v - 128])
    csc = np.clip(np.einsum("rc,chw->rhw", BT601_NARROW_TO_BGR, yuv) >> 8, 0, 255)
    pre = (csc.astype(np.float16) - np.array([123, 117, 104], np.float16)[:, None, None])
    expected = _network(pre[None].astype(np.float32))
    np.testing.assert_array_equal(_run(acl, path, raw), expected)


def test_rgb_with_crop_swap_mean_scale_and_padding(acl, tmp_path):
    cfg = """aipp_op {
      aipp_mode: static
      input_format: RGB888_U8
      src_image_size_w: 240
      src_image_size_h: 236
      rbuv_swap_switch: true      # the image is BGR
      crop: true
      load_start_pos_w: 10
      load_start_pos_h: 6
      crop_size_w: 220
      crop_size_h: 222
      padding: true
      left_padding_size: 2
      right_padding_size: 2
      top_padding_size: 1
      bottom_padding_size: 1
      padding_value: 0.5
      mean_chn_0: 120
      mean_chn_1: 110
      mean_chn_2: 100
      var_reci_chn_0: 0.0171
      var_reci_chn_1: 0.0175
      var_reci_chn_2: 0.0174
    }"""
    code, out, path = _model(tmp_path, cfg)
    assert code == 0, out
    bgr = np.random.default_rng(3).integers(0, 256, (236, 240, 3), dtype=np.uint8)
    rgb = bgr[..., ::-1][6:6 + 222, 10:10 + 220].astype(np.float16)
    mean = np.array([120, 110, 100], np.float16)
    scale = np.array([0.0171, 0.0175, 0.0174], np.float16)
    body = ((rgb - mean) * scale).transpose(2, 0, 1)
    pre = np.full((3, 224, 224), 0.5, np.float16)
    pre[:, 1:223, 2:222] = body
    np.testing.assert_array_equal(_run(acl, path, bgr.ravel()), _network(pre[None]))


@pytest.mark.parametrize("cfg, words", [
    ("aipp_op { aipp_mode: dynamic }", "max_src_image_size must be given"),
    ("aipp_op { aipp_mode: dynamic max_src_image_size: 100000 input_format: RGB888_U8 }",
     "set at run time"),
    ("aipp_op { aipp_mode: dynamic max_src_image_size: 100000 } "
     "aipp_op { aipp_mode: dynamic max_src_image_size: 100000 }", "name the same input"),
    ("aipp_op { input_format: RGB888_U8 }", "aipp_mode is required"),
    ("aipp_op { aipp_mode: static }", "input_format must be one of"),
    ("aipp_op { aipp_mode: static input_format: YUV400_U8 }", "1 channel"),
    ("aipp_op { aipp_mode: static input_format: RGB888_U8 colour: true }", "unknown field"),
    ("aipp_op { aipp_mode: static input_format: RGB888_U8 src_image_size_w: 300 "
     "src_image_size_h: 300 }", "must be the network's input 224x224"),
    ("aipp_op { aipp_mode: static input_format: YUV420SP_U8 src_image_size_w: 225 "
     "src_image_size_h: 224 crop: true }", "even"),
    ("aipp_op { aipp_mode: static input_format: RGB888_U8 crop: true src_image_size_w: 230 "
     "src_image_size_h: 230 load_start_pos_w: 10 }", "leaves the"),
    ("aipp_op { aipp_mode: static input_format: RGB888_U8 resize: true }", "reserved"),
    ("aipp_op { aipp_mode: static input_format: RGB888_U8 matrix_r0c0: 40000 }", "outside"),
    ("aipp_op { aipp_mode: static input_format: RGB888_U8 related_input_rank: 1 }",
     "names no input"),
    ("aipp_op { aipp_mode: static ", "not closed"),
    ("aipp_op { aipp_mode static }", "field : value"),
])
def test_atc_refuses_an_aipp_cfg_it_cannot_compile(tmp_path, cfg, words):
    code, out, path = _model(tmp_path, cfg)
    assert code == 1 and "--insert_op_conf" in out and words in out, out
    assert not path.exists()


@pytest.mark.parametrize("field, value", [
    ("min_chn_0", float("inf")), ("src_image_size_w", 226), ("csc_switch", 1),
    ("input_format", "XRGB8888_U8"), ("mean_chn_1", -1)])
def test_an_edited_aipp_entry_is_not_an_om(acl, tmp_path, field, value):
    import json
    import struct

    code, out, path = _model(tmp_path, SAMPLE_CFG)
    data = path.read_bytes()
    prefix = struct.Struct("<8sIQ")
    magic, version, hlen = prefix.unpack_from(data)
    header = json.loads(data[prefix.size:prefix.size + hlen])
    header["aipp"][0]["params"][field] = value
    text = json.dumps(header).encode()
    (tmp_path / "bad.om").write_bytes(prefix.pack(magic, version, len(text)) + text
                                      + data[prefix.size + hlen:])
    assert acl.mdl.load_from_file(str(tmp_path / "bad.om")) == (
        0, C.ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID)
    assert "aipp" in acl.get_recent_err_msg()
