"""`acl-lab atc --input_shape_range` (hicann/ge compiler/api/aclgrph/option_utils.cc
ParseInputShapeRange / ParseShapeRangePair: E10048; E10009 beside a gear flag) and the
simulator's side (sim/model_ranges.py): sizes 0 and -1 where a dim is open, as GE's
dynamic-shape models report them, each execution's shapes from the dataset's tensor
descriptions (aclmdlSetDatasetTensorDesc), the outputs' after it."""
from __future__ import annotations

import io

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from acl_lab import constants as C
from acl_lab.om import atc
from acl_lab.om import container as om
from acl_lab.om import dynamic as om_dynamic
from acl_lab.session import SESSION
from acl_lab.sim.simerror import SimError
from simhelpers import device_buffer

F = TensorProto.FLOAT
W = np.arange(12, dtype=np.float32).reshape(4, 3) / 10


def seq_model(path):
    """x [N, T, 4] -> MatMul -> y [N, T, 3], and z = ReduceSum(x) [1] (never open)."""
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"]),
         helper.make_node("ReduceSum", ["x"], ["z"], keepdims=0)], "seq",
        [helper.make_tensor_value_info("x", F, ["N", "T", 4])],
        [helper.make_tensor_value_info("y", F, ["N", "T", 3]),
         helper.make_tensor_value_info("z", F, [])],
        [numpy_helper.from_array(W, "w")])
    path.write_bytes(helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString())
    return path


def convert(tmp_path, *flags):
    src = seq_model(tmp_path / "seq.onnx")
    out = io.StringIO()
    code = atc.main([f"--model={src}", "--framework=5", f"--output={tmp_path / 'm'}",
                     "--soc_version=Ascend910B3", *flags], out=out)
    return code, out.getvalue(), tmp_path / "m.om"


@pytest.fixture
def om_path(tmp_path):
    code, out, path = convert(tmp_path, "--input_shape_range=x:[1~2,-1,4]")
    assert code == 0, out
    return path


def test_the_ranges_are_kept_and_open_dims_have_size_zero(om_path):
    m = om.read(om_path)
    assert m.ranges.inputs == {"x": ((1, 2), (0, -1), (4, 4))}
    assert m.ranges.outputs == {"y": (0, 1)}            # z does not follow the input
    assert m.dynamic is None and len(m.inputs) == 1      # no gear input
    assert (m.inputs[0].dims, m.inputs[0].size) == ((1, 1, 4), 0)
    assert [t.size for t in m.outputs] == [0, 4]


def test_ranges_are_read_as_atc_reads_them():
    assert om_dynamic.parse_ranges("a:[8~20,3,5,-1];b:[5,3~9,10,-1];") == {
        "a": ((8, 20), (3, 3), (5, 5), (0, -1)), "b": ((5, 5), (3, 9), (10, 10), (0, -1))}
    for bad in ("a:8~20,3", "a:[8~20]]", "a:[x]", "a:[9~2]", "a:[1~2~3]", "[1,2]", ""):
        with pytest.raises(ValueError):
            om_dynamic.parse_ranges(bad)


@pytest.mark.parametrize("flags, words", [
    (("--input_shape_range=x:[1~2,-1]",), "input x has 3 dimensions"),
    (("--input_shape_range=y:[1,2,4]",), "no input named 'y'"),
    (("--input_shape_range=x:[1~2,x,4]",), "E10048: Value [x:[1~2,x,4]] for parameter "
                                           "[--input_shape_range] is invalid. Reason: The "
                                           "current string cannot be converted to a number"),
    (("--input_shape_range=x:1~2,8,4",), "a pair of '[]'"),
    (("--input_shape=x:1,8,4", "--input_shape_range=x:[1,8,4]"), "--input_shape too"),
    (("--input_shape=x:1,-1,4", "--input_shape_range=x:[1,1~8,4]",
      "--dynamic_dims=2;4"), "E10009"),
])
def test_atc_refuses_ranges_as_atc_does(tmp_path, flags, words):
    code, out, path = convert(tmp_path, *flags)
    assert code == 1 and words in out, out
    assert not path.exists()


def _desc_handle(acl, dims):
    handle = acl.create_tensor_desc(C.ACL_FLOAT, list(dims), C.ACL_FORMAT_ND)
    assert handle
    return handle


def test_an_execution_runs_at_the_shapes_its_tensor_descriptions_give(acl, om_path):
    models = SESSION.simulator.rt.models
    model_id, ret = acl.mdl.load_from_file(str(om_path))
    assert ret == 0, acl.get_recent_err_msg()
    desc = acl.mdl.create_desc()
    assert acl.mdl.get_desc(desc, model_id) == 0
    assert models.reported_dims(desc, 0, False, "c") == (-1, -1, 4)
    assert models.reported_dims(desc, 0, True, "c") == (-1, -1, 3)
    assert models.dims_range(desc, 0) == ((1, 2), (0, -1), (4, 4))
    x = np.random.default_rng(3).random((2, 5, 4), dtype=np.float32)
    xin, yout, zout = (device_buffer(acl, n) for n in (x.nbytes, 2 * 5 * 3 * 4, 4))
    assert acl.rt.memcpy(xin, x.nbytes, acl.util.numpy_to_ptr(x), x.nbytes,
                         C.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    ins, outs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    acl.mdl.add_dataset_buffer(ins, acl.create_data_buffer(xin, x.nbytes))
    for ptr, n in ((yout, 2 * 5 * 3 * 4), (zout, 4)):
        acl.mdl.add_dataset_buffer(outs, acl.create_data_buffer(ptr, n))
    # no shape given yet: refused, nothing runs
    assert acl.mdl.execute(model_id, ins, outs) == C.ACL_ERROR_GE_PARAM_INVALID
    assert "set_dataset_tensor_desc" in acl.get_recent_err_msg()
    for dims in ((3, 5, 4), (2, 5, 3)):                   # outside the ranges
        models.set_tensor_desc(ins, _desc_handle(acl, dims), 0)
        assert acl.mdl.execute(model_id, ins, outs) == C.ACL_ERROR_GE_PARAM_INVALID
        assert "outside its shape range" in acl.get_recent_err_msg()
    models.set_tensor_desc(ins, _desc_handle(acl, (2, 5, 4)), 0)
    assert acl.mdl.execute(model_id, ins, outs) == 0, acl.get_recent_err_msg()
    y = np.empty((2, 5, 3), np.float32)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(y), y.nbytes, yout, y.nbytes,
                         C.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    np.testing.assert_allclose(y, x @ W, rtol=1e-6)
    out_desc = models.get_tensor_desc(outs, 0)
    assert acl.get_tensor_desc_num_dims(out_desc) == 3
    assert SESSION.simulator.rt.single_ops.descs[out_desc].dims == (2, 5, 3)
    # a shape whose outputs do not fit the output buffer is refused before it runs
    models.set_tensor_desc(ins, _desc_handle(acl, (2, 9, 4)), 0)
    assert acl.mdl.execute(model_id, ins, outs) == C.ACL_ERROR_GE_PARAM_INVALID
    # the dataset owns its copies: they go with it
    kept = set(SESSION.simulator.rt.single_ops.descs)
    assert acl.mdl.destroy_dataset(outs) == 0
    assert out_desc not in SESSION.simulator.rt.single_ops.descs
    assert len(kept) - len(SESSION.simulator.rt.single_ops.descs) == 2


def test_the_dataset_keeps_a_copy_and_null_clears_it(acl):
    models = SESSION.simulator.rt.models
    ds = acl.mdl.create_dataset()
    acl.mdl.add_dataset_buffer(ds, acl.create_data_buffer(device_buffer(acl, 64), 64))
    mine = _desc_handle(acl, (1, 2))
    models.set_tensor_desc(ds, mine, 0)
    copy = models.get_tensor_desc(ds, 0)
    assert copy not in (0, mine)
    acl.destroy_tensor_desc(mine)                      # the program's own: the copy lives
    assert SESSION.simulator.rt.single_ops.descs[copy].dims == (1, 2)
    models.set_tensor_desc(ds, 0, 0)
    assert models.get_tensor_desc(ds, 0) == 0 and copy not in SESSION.simulator.rt.single_ops.descs
    for call, args in (("set_tensor_desc", (ds, mine, 1)), ("get_tensor_desc", (ds, 1)),
                       ("get_tensor_desc", (0, 0))):
        with pytest.raises(SimError) as e:
            getattr(models, call)(*args)
        assert e.value.code == C.ACL_ERROR_INVALID_PARAM


def test_a_dims_range_is_empty_for_gears_and_exact_for_a_static_input(acl, tmp_path):
    models = SESSION.simulator.rt.models
    code, out, path = convert(tmp_path, "--input_shape=x:1,8,4")
    assert code == 0, out
    model_id, _ = acl.mdl.load_from_file(str(path))
    desc = acl.mdl.create_desc()
    acl.mdl.get_desc(desc, model_id)
    assert models.dims_range(desc, 0) == ((1, 1), (8, 8), (4, 4))
    code, out, path = convert(tmp_path, "--input_shape=x:1,-1,4", "--dynamic_dims=2;8")
    assert code == 0, out
    model_id, _ = acl.mdl.load_from_file(str(path))
    acl.mdl.get_desc(desc, model_id)
    assert models.dims_range(desc, 0) == ()
    assert models.reported_dims(desc, 0, False, "c") == (1, -1, 4)
