"""acl.op single operators on the simulator: acl-lab atc --singleop, aclopSetModelDir,
aclopExecuteV2 / aclopCast / handles as stream tasks, tensor descriptions; the codes
hicann/ge returns (op.cpp, acl_op_resource_manager.cpp, attr_utils.cpp)."""
from __future__ import annotations

import json

import numpy as np
import pytest

from acl_lab import constants as C
from acl_lab.om.atc import main as atc

SHAPE = [8, 16]


def tensor(shape, kind="int32", **extra):
    return {"format": "ND", "shape": shape, "type": kind, **extra}


ADD = {"op": "Add", "input_desc": [tensor(SHAPE), tensor(SHAPE)], "output_desc": [tensor(SHAPE)]}
CAST = {"op": "Cast", "input_desc": [tensor([1000], "float")],
        "output_desc": [tensor([1000], "float16")],
        "attr": [{"name": "truncate", "type": "bool", "value": False},
                 {"name": "dst_type", "type": "int", "value": 1}]}
ARGMAX = {"op": "ArgMaxV2", "input_desc": [tensor([1000], "float16"),
                                           tensor([1], is_const=True, const_value=[0])],
          "output_desc": [tensor([1])]}


def compile_ops(tmp_path, *ops) -> str:
    (tmp_path / "op.json").write_text(json.dumps(list(ops)))
    out = tmp_path / "op_models"
    assert atc([f"--singleop={tmp_path / 'op.json'}", f"--output={out}",
                "--soc_version=Ascend910B3"], out=open("/dev/null", "w")) == 0
    return str(out)


def device_tensor(acl, array):
    desc = acl.create_tensor_desc(C.ACL_INT32 if array.dtype == np.int32 else C.ACL_FLOAT,
                                  list(array.shape), C.ACL_FORMAT_ND)
    size = acl.get_tensor_desc_size(desc)
    dev, ret = acl.rt.malloc(size, C.ACL_MEM_MALLOC_NORMAL_ONLY)
    assert ret == 0
    assert acl.rt.memcpy(dev, size, acl.util.numpy_to_ptr(array), size,
                         C.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    return desc, dev, acl.create_data_buffer(dev, size)


def read(acl, dev, shape, dtype):
    out = np.zeros(shape, dtype)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, dev, out.nbytes,
                         C.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    return out


def test_atc_names_each_model_as_atc_does(tmp_path):
    folder = compile_ops(tmp_path, ADD)
    assert [p.name for p in (tmp_path / "op_models").iterdir()] == [
        "0_Add_3_2_8_16_3_2_8_16_3_2_8_16.om"]
    assert folder


def test_atc_refuses_an_output_shape_the_operator_does_not_compute(tmp_path, capsys):
    bad = {**ADD, "output_desc": [tensor([8, 15])]}
    (tmp_path / "op.json").write_text(json.dumps([bad]))
    assert atc([f"--singleop={tmp_path / 'op.json'}", f"--output={tmp_path}/o",
                "--soc_version=Ascend310"]) == 1
    out = capsys.readouterr().out
    assert "E10001" in out and "[8, 15]" in out and "ATC run failed" in out


def test_add_runs_on_the_stream_and_its_result_appears_after_synchronize(acl, stream,
                                                                         tmp_path):
    assert acl.op.set_model_dir(compile_ops(tmp_path, ADD)) == 0
    a = np.arange(128, dtype=np.int32).reshape(SHAPE)
    b = np.full(SHAPE, 1000, np.int32)
    (da, pa, ba), (db, pb, bb) = device_tensor(acl, a), device_tensor(acl, b)
    dout, pout, bout = device_tensor(acl, np.zeros(SHAPE, np.int32))
    attr = acl.op.create_attr()
    assert acl.op.execute_v2("Add", [da, db], [ba, bb], [dout], [bout], attr, stream) == 0
    assert (read(acl, pout, SHAPE, np.int32) == 0).all()       # deferred: not run yet
    assert acl.rt.synchronize_stream(stream) == 0
    assert (read(acl, pout, SHAPE, np.int32) == a + b).all()


def test_an_operator_with_no_matching_model_is_op_not_found_and_says_why(acl, stream,
                                                                         tmp_path):
    a = np.zeros([4, 4], np.int32)
    (da, _, ba), (dout, _, bout) = device_tensor(acl, a), device_tensor(acl, a)
    assert acl.op.execute_v2("Add", [da, da], [ba, ba], [dout], [bout], 0, stream) == \
        C.ACL_ERROR_OP_NOT_FOUND
    assert "set_model_dir" in acl.get_recent_err_msg()
    assert acl.op.set_model_dir(compile_ops(tmp_path, ADD)) == 0
    assert acl.op.execute_v2("Add", [da, da], [ba, ba], [dout], [bout], 0, stream) == \
        C.ACL_ERROR_OP_NOT_FOUND
    message = acl.get_recent_err_msg()
    assert "ACL_INT32 ACL_FORMAT_ND [4, 4]" in message and "[8, 16]" in message


def test_set_model_dir_codes(acl, tmp_path):
    assert acl.op.set_model_dir(str(tmp_path / "missing")) == C.ACL_ERROR_READ_MODEL_FAILURE
    folder = compile_ops(tmp_path, ADD)
    # the hifill sample keeps its network's .om in the same folder: ReadModelDefs skips it
    (tmp_path / "op_models" / "network.om").write_bytes(b"ACLLABOM not an operator")
    assert acl.op.set_model_dir(folder) == 0
    assert acl.op.set_model_dir(folder) == C.ACL_ERROR_REPEAT_INITIALIZE


def test_cast_then_argmax_with_a_constant_input_as_the_vpc_sample_does(acl, stream, tmp_path):
    assert acl.op.set_model_dir(compile_ops(tmp_path, CAST, ARGMAX)) == 0
    scores = np.linspace(0, 1, 1000, dtype=np.float32)
    scores[417] = 5.0
    src, _, src_buf = device_tensor(acl, scores)
    half = acl.create_tensor_desc(C.ACL_FLOAT16, [1000], C.ACL_FORMAT_ND)
    half_dev, _ = acl.rt.malloc(acl.get_tensor_desc_size(half), 0)
    half_buf = acl.create_data_buffer(half_dev, 2000)
    assert acl.op.cast(src, src_buf, half, half_buf, 0, stream) == 0
    axis = acl.create_tensor_desc(C.ACL_INT32, [1], C.ACL_FORMAT_ND)
    zero = np.zeros(1, np.int32).tobytes()
    assert acl.set_tensor_const(axis, acl.util.bytes_to_ptr(zero), 4) == 0
    out, out_dev, out_buf = device_tensor(acl, np.zeros(1, np.int32))
    assert acl.op.execute_v2("ArgMaxV2", [half, axis], [half_buf, acl.create_data_buffer(0, 0)],
                             [out], [out_buf], acl.op.create_attr(), stream) == 0, \
        acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(stream) == 0
    assert read(acl, out_dev, [1], np.int32)[0] == 417


def test_attributes_must_match_the_compiled_ones(acl, stream, tmp_path):
    assert acl.op.set_model_dir(compile_ops(tmp_path, ADD)) == 0
    a = np.zeros(SHAPE, np.int32)
    (da, _, ba), (dout, _, bout) = device_tensor(acl, a), device_tensor(acl, a)
    attr = acl.op.create_attr()
    assert acl.op.set_attr_bool(attr, "extra", True) == 0
    assert acl.op.execute_v2("Add", [da, da], [ba, ba], [dout], [bout], attr, stream) == \
        C.ACL_ERROR_OP_NOT_FOUND
    handle, ret = acl.op.create_handle("Add", [da, da], [dout], 0)
    assert ret == 0
    assert acl.op.execute_with_handle(handle, [ba, ba], [bout], stream) == 0
    assert acl.op.destroy_handle(handle) is None


def test_tensor_desc_fields_follow_tensor_desc_internal(bare_acl):
    acl = bare_acl
    desc = acl.create_tensor_desc(C.ACL_FLOAT16, [2, 3, 4], C.ACL_FORMAT_NCHW)
    assert acl.get_tensor_desc_type(desc) == C.ACL_FLOAT16
    assert acl.get_tensor_desc_format(desc) == C.ACL_FORMAT_NCHW
    assert acl.get_tensor_desc_num_dims(desc) == 3
    assert acl.get_tensor_desc_element_count(desc) == 24
    assert acl.get_tensor_desc_size(desc) == 48
    assert acl.get_tensor_desc_dim_v2(desc, 1) == (3, 0)
    assert acl.get_tensor_desc_dim_v2(desc, 3) == (-1, C.ACL_ERROR_INVALID_PARAM)
    acl.set_tensor_desc_name(desc, "x")
    assert acl.get_tensor_desc_name(desc) == "x"
    scalar = acl.create_tensor_desc(C.ACL_INT32, [], C.ACL_FORMAT_ND)
    assert acl.get_tensor_desc_element_count(scalar) == 1         # no dims: one element
    assert acl.get_tensor_desc_size(acl.create_tensor_desc(C.ACL_INT32, [-1, 4], 2)) == 0
    assert acl.destroy_tensor_desc(desc) is None
    assert acl.get_tensor_desc_size(desc) == 0                      # gone: explained
    assert "not a live aclTensorDesc" in acl.get_recent_err_msg()


def test_the_run_report_counts_tensor_descs_never_destroyed(bare_acl):
    import acl_lab
    from acl_lab.run.leaks import live_resources
    from acl_lab.session import SESSION
    bare_acl.create_tensor_desc(C.ACL_INT32, [1], C.ACL_FORMAT_ND)
    lines = live_resources(SESSION.simulator.rt)
    assert any("1 aclTensorDesc never released (release with acl.destroy_tensor_desc)" in line
               for line in lines), lines
    acl_lab.reset()
