"""`acl-lab atc --dynamic_dims`: ATC's gears of any -1s of any inputs (hicann/ge
compiler/api/aclgrph/option_utils.cc CheckDynamicInputParamValid, CheckAndParseDynamicDims;
the ATC reference's --dynamic_dims page), kept in the .om (om/dynamic.py) and checked again
at load."""
from __future__ import annotations

import io

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from acl_lab import constants as C
from acl_lab.om import atc
from acl_lab.om import container as om
from acl_lab.om import dynamic as om_dynamic

F = TensorProto.FLOAT
W = np.arange(12, dtype=np.float32).reshape(4, 3) / 10


def lstm_like(path):
    """x [1, T, 4] -> MatMul -> y [1, T, 3]: the shape of a sequence model's runner."""
    graph = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"])], "seq",
                              [helper.make_tensor_value_info("x", F, [1, "T", 4])],
                              [helper.make_tensor_value_info("y", F, [1, "T", 3])],
                              [numpy_helper.from_array(W, "w")])
    path.write_bytes(helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString())
    return path


def two_inputs(path):
    """data [1, T] and mask [S, 2], each through Relu: every gear's outputs are its inputs."""
    graph = helper.make_graph(
        [helper.make_node("Relu", ["data"], ["a"]), helper.make_node("Relu", ["mask"], ["b"])],
        "two", [helper.make_tensor_value_info("data", F, [1, "T"]),
                helper.make_tensor_value_info("mask", F, ["S", 2])],
        [helper.make_tensor_value_info("a", F, [1, "T"]),
         helper.make_tensor_value_info("b", F, ["S", 2])])
    path.write_bytes(helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString())
    return path


def convert(tmp_path, builder, *flags):
    src = builder(tmp_path / "src.onnx")
    out = io.StringIO()
    code = atc.main([f"--model={src}", "--framework=5", f"--output={tmp_path / 'm'}",
                     "--soc_version=Ascend910B3", "--input_format=ND", *flags], out=out)
    return code, out.getvalue(), tmp_path / "m.om"


def test_dims_gears_are_kept_with_the_input_order_and_each_gears_outputs(tmp_path):
    code, out, path = convert(tmp_path, lstm_like, "--input_shape=x:1,-1,4",
                              "--dynamic_dims=2;5;8")
    assert code == 0, out
    m = om.read(path)
    g = m.dynamic
    assert (g.kind, g.axes, g.order, g.gears) == ("dims", {"x": (1,)}, ("x",),
                                                  ((2,), (5,), (8,)))
    assert g.outputs == (((1, 2, 3),), ((1, 5, 3),), ((1, 8, 3),))
    assert [(t.name, t.dims) for t in m.inputs] == [("x", (1, 8, 4)),
                                                    (om_dynamic.TENSOR_NAME, (1,))]
    assert m.outputs[0].dims == (1, 8, 3)            # buffers hold the largest gear


def test_each_gear_gives_the_values_of_every_minus_one_in_input_shape_order(tmp_path):
    code, out, path = convert(tmp_path, two_inputs, "--input_shape=data:1,-1;mask:-1,2",
                              "--dynamic_dims=3,1;5,4;2,6")
    assert code == 0, out
    m = om.read(path)
    g = m.dynamic
    assert g.order == ("data", "mask") and g.gears == ((3, 1), (5, 4), (2, 6))
    # each input is sized for its own largest shape, which another gear may give
    assert [t.dims for t in m.inputs] == [(1, 5), (6, 2), (2,)]
    assert g.outputs[2] == ((1, 2), (6, 2))
    assert g.dims("mask", (6, 2), (5, 4)) == (4, 2)


def test_a_model_converted_with_its_inputs_in_another_order_keeps_that_order(tmp_path):
    code, out, path = convert(tmp_path, two_inputs, "--input_shape=mask:-1,2;data:1,-1",
                              "--dynamic_dims=1,3;4,5")
    assert code == 0, out
    g = om.read(path).dynamic
    assert g.order == ("mask", "data") and g.values("data", (4, 5)) == (5,)


@pytest.mark.parametrize("flags, words", [
    (("--input_shape=x:1,8,4", "--dynamic_dims=2;5"), "At least one dim should be -1"),
    (("--input_shape=x:1,-1,4", "--dynamic_dims=2,3;5,6"),
     "Each setting needs to be consistent with the number of -1"),
    (("--input_shape=x:1,-1,4", "--dynamic_dims=2;x"), "must be a positive integer"),
    (("--input_shape=x:1,-1,4", "--dynamic_dims=2;-5"), "must be a positive integer"),
    (("--input_shape=x:1,-1,4", "--dynamic_dims=4"), "between 2 and 100"),
    (("--input_shape=x:1,-1,4", "--dynamic_dims=4;4"), "twice"),
    (("--input_shape=x:1,-1,4", "--dynamic_dims=0;4"), "between 1 and"),
    (("--dynamic_dims=2;4",), "E10004: Value for parameter [--input_shape] is empty"),
    (("--input_shape=x:1,-1,4", "--dynamic_dims=2;4", "--dynamic_batch_size=1,2"),
     "E10009"),
    (("--input_shape=x:1,-1,4", "--dynamic_dims=2;4", "--input_shape_range=x:[1,1~8,4]"),
     "E10009"),
])
def test_atc_refuses_dims_gears_as_atc_does(tmp_path, flags, words):
    code, out, path = convert(tmp_path, lstm_like, *flags)
    assert code == 1 and words in out, out
    assert out.strip().endswith(atc.FAILED)
    assert not path.exists()


def test_a_header_whose_gears_do_not_cover_its_minus_ones_is_not_an_om(tmp_path):
    code, out, path = convert(tmp_path, two_inputs, "--input_shape=data:1,-1;mask:-1,2",
                              "--dynamic_dims=3,1;5,4")
    assert code == 0, out
    data = path.read_bytes()
    for old, new in ((b'"gears": [[3, 1], [5, 4]]', b'"gears": [[3], [5]]'),
                     (b'"order": ["data", "mask"]', b'"order": ["data"]'),
                     (b'"kind": "dims"', b'"kind": "rank"')):
        assert old in data
        with pytest.raises(om.NotAnOm):
            om.parse(_same_length(data, old, new))


def _same_length(data: bytes, old: bytes, new: bytes) -> bytes:
    """``data`` with ``old`` replaced and the header's stated lengths kept right."""
    m = om.parse(data)
    edited = m.header().replace(old, new)
    header_len = len(edited) - om._PREFIX.size
    return om._PREFIX.pack(om.MAGIC, om.VERSION, header_len) + edited[om._PREFIX.size:] + \
        m.onnx_bytes


def test_loading_checks_every_gear_against_the_graph(acl, tmp_path):
    code, out, path = convert(tmp_path, lstm_like, "--input_shape=x:1,-1,4",
                              "--dynamic_dims=2;5;8")
    assert code == 0, out
    bad = _same_length(path.read_bytes(), b"[[1, 2, 3]], [[1, 5, 3]]",
                       b"[[1, 2, 3]], [[1, 6, 3]]")
    edited = tmp_path / "edited.om"
    edited.write_bytes(bad)
    assert acl.mdl.load_from_file(str(edited)) == (0, C.ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID)
    model_id, ret = acl.mdl.load_from_file(str(path))
    assert ret == 0 and acl.mdl.unload(model_id) == 0
