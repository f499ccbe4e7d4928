"""acl.mdl's config handles (create / set_config_opt / load_with_config / destroy), exec
config handles and execute_v2, descriptions read without loading (get_desc_from_file /
_mem), bundles, get_tensor_real_name, and the calls refused on purpose
(create_and_get_op_desc, dump_reg_callback, get_op_attr), with pyACL's return shapes.

Compared: return codes, what a loaded model computes, what a description reports. A refused
call loads nothing (snapshot()["offline_models"] is as it was)."""
from __future__ import annotations

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.om import bundle
from mdlhelpers import W, Model, convert, seq

INVALID = C.ACL_ERROR_INVALID_PARAM


@pytest.fixture
def om_path(acl, tmp_path):
    return convert(tmp_path, seq, acl.get_soc_name(), "--input_format=ND",
                   "--input_shape=x:1,2,4")


def loaded() -> list:
    return [m["model_id"] for m in acl_lab.snapshot()["offline_models"]]


def config(acl, **opts) -> int:
    handle = acl.mdl.create_config_handle()
    assert handle
    for attr, value in opts.items():
        assert acl.mdl.set_config_opt(handle, getattr(C, attr), value) == 0, \
            acl.get_recent_err_msg()
    return handle


def check_runs(acl, model_id) -> None:
    m = Model.__new__(Model)
    m.acl, m.id = acl, model_id
    m.desc = acl.mdl.create_desc()
    assert acl.mdl.get_desc(m.desc, model_id) == 0
    ptrs = [acl.rt.malloc(32, 0)[0], acl.rt.malloc(24, 0)[0]]
    m.inputs, m.outputs = ptrs[:1], ptrs[1:]
    x = np.arange(8, dtype=np.float32).reshape(1, 2, 4)
    m.put(0, x)
    ins, outs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    acl.mdl.add_dataset_buffer(ins, acl.create_data_buffer(ptrs[0], 32))
    acl.mdl.add_dataset_buffer(outs, acl.create_data_buffer(ptrs[1], 24))
    assert acl.mdl.execute(model_id, ins, outs) == 0
    np.testing.assert_allclose(m.get(0, 6).reshape(1, 2, 3), x @ W, rtol=1e-6)


def test_a_config_handle_loads_from_a_file_and_from_memory_with_the_apps_memory(acl, om_path):
    handle = config(acl, ACL_MDL_LOAD_TYPE_SIZET=C.ACL_MDL_LOAD_FROM_FILE,
                    ACL_MDL_PATH_PTR=str(om_path), ACL_MDL_PRIORITY_INT32=3)
    model_id, ret = acl.mdl.load_with_config(handle)
    assert ret == 0 and model_id in loaded()
    check_runs(acl, model_id)
    data = om_path.read_bytes()
    host = np.frombuffer(data, np.uint8).copy()
    ptr = acl.util.numpy_to_ptr(host)
    work, weight, ret = acl.mdl.query_size_from_mem(ptr, len(data))
    assert ret == 0
    work_ptr, _ = acl.rt.malloc(max(work, 1), 0)
    weight_ptr, _ = acl.rt.malloc(max(weight, 1), 0)
    handle2 = config(acl, ACL_MDL_LOAD_TYPE_SIZET=C.ACL_MDL_LOAD_FROM_MEM_WITH_MEM,
                     ACL_MDL_MEM_ADDR_PTR=ptr, ACL_MDL_MEM_SIZET=len(data),
                     ACL_MDL_WORKSPACE_ADDR_PTR=work_ptr, ACL_MDL_WORKSPACE_SIZET=max(work, 1),
                     ACL_MDL_WEIGHT_ADDR_PTR=weight_ptr, ACL_MDL_WEIGHT_SIZET=max(weight, 1))
    second, ret = acl.mdl.load_with_config(handle2)
    assert ret == 0
    assert [m["memory"] for m in acl_lab.snapshot()["offline_models"]
            if m["model_id"] == second] == ["app"]
    check_runs(acl, second)
    for h in (handle, handle2):
        assert acl.mdl.destroy_config_handle(h) == 0
    assert acl.mdl.unload(model_id) == 0 and acl.mdl.unload(second) == 0


@pytest.mark.parametrize("opts, code", [
    ({}, INVALID),                                                       # no load type
    ({"ACL_MDL_LOAD_TYPE_SIZET": C.ACL_MDL_LOAD_FROM_FILE}, INVALID),    # no path
    ({"ACL_MDL_LOAD_TYPE_SIZET": C.ACL_MDL_LOAD_FROM_MEM,
      "ACL_MDL_MEM_ADDR_PTR": 0x1000}, INVALID),                         # no size
    ({"ACL_MDL_LOAD_TYPE_SIZET": C.ACL_MDL_LOAD_FROM_FILE, "ACL_MDL_PATH_PTR": "x.om",
      "ACL_MDL_WEIGHT_PATH_PTR": 0x1000}, INVALID),                      # weight path + file
    ({"ACL_MDL_LOAD_TYPE_SIZET": C.ACL_MDL_LOAD_FROM_FILE,
      "ACL_MDL_PATH_PTR": "missing.om"}, C.ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID),
    ({"ACL_MDL_LOAD_TYPE_SIZET": C.ACL_MDL_LOAD_FROM_FILE_WITH_Q, "ACL_MDL_PATH_PTR": "x.om",
      "ACL_MDL_INPUTQ_ADDR_PTR": 8, "ACL_MDL_INPUTQ_NUM_SIZET": 1,
      "ACL_MDL_OUTPUTQ_ADDR_PTR": 8, "ACL_MDL_OUTPUTQ_NUM_SIZET": 1},
     C.ACL_ERROR_FEATURE_UNSUPPORTED),
])
def test_an_incomplete_or_wrong_handle_loads_nothing(acl, refused, opts, code):
    handle = config(acl, **opts)
    before = loaded()
    model_id, ret = acl.mdl.load_with_config(handle)
    refused(ret, code)
    assert model_id == 0 and loaded() == before


@pytest.mark.parametrize("attr, value, code", [
    (99, 1, INVALID),                                            # not an attribute
    (C.ACL_MDL_LOAD_TYPE_SIZET, 7, INVALID),                     # load type 1..6
    (C.ACL_MDL_PRIORITY_INT32, 9, INVALID),                      # stream priority range
    (C.ACL_MDL_MEM_ADDR_PTR, 0, INVALID),                        # a NULL model address
    (C.ACL_MDL_WORKSPACE_MEM_OPTIMIZE, 2, INVALID),
])
def test_set_config_opt_checks_each_attribute(acl, refused, attr, value, code):
    handle = acl.mdl.create_config_handle()
    refused(acl.mdl.set_config_opt(handle, attr, value), code)
    refused(acl.mdl.set_config_opt(0, C.ACL_MDL_LOAD_TYPE_SIZET, 1), INVALID)
    with pytest.raises(TypeError):                 # pyACL parses the path with "s"
        acl.mdl.set_config_opt(handle, C.ACL_MDL_PATH_PTR, 5)
    assert acl.mdl.destroy_config_handle(handle) == 0
    refused(acl.mdl.destroy_config_handle(handle), INVALID)


def test_execute_v2_runs_on_a_stream_and_waits_within_the_handles_timeout(acl, om_path,
                                                                          refused):
    m = Model(acl, om_path)
    handle = acl.mdl.create_exec_config_handle()
    assert handle
    assert acl.mdl.set_exec_config_opt(handle, C.ACL_MDL_STREAM_SYNC_TIMEOUT, 10_000) == 0
    assert acl.mdl.set_exec_config_opt(handle, C.ACL_MDL_EVENT_SYNC_TIMEOUT, -1) == 0
    refused(acl.mdl.set_exec_config_opt(handle, 5, 1), INVALID)
    refused(acl.mdl.set_exec_config_opt(handle, C.ACL_MDL_STREAM_SYNC_TIMEOUT, -2), INVALID)
    x = np.ones((1, 2, 4), np.float32)
    m.put(0, x)
    stream, _ = acl.rt.create_stream()
    assert acl.mdl.execute_v2(m.id, m.in_ds, m.out_ds, stream, handle) == 0
    np.testing.assert_allclose(m.get(0, 6).reshape(1, 2, 3), x @ W, rtol=1e-6)
    assert acl.mdl.execute_v2(m.id, m.in_ds, m.out_ds, 0, handle) == 0     # synchronous
    refused(acl.mdl.execute_v2(m.id, m.in_ds, m.out_ds, stream, 0), INVALID)
    assert acl.mdl.destroy_exec_config_handle(handle) == 0
    refused(acl.mdl.destroy_exec_config_handle(handle), INVALID)


def test_a_description_is_read_from_a_file_or_memory_without_loading(acl, om_path, refused):
    desc = acl.mdl.create_desc()
    assert acl.mdl.get_desc_from_file(desc, str(om_path)) == 0
    assert loaded() == []
    assert acl.mdl.get_num_inputs(desc) == 1
    assert acl.mdl.get_input_dims(desc, 0)[0]["dims"] == [1, 2, 4]
    assert acl.mdl.get_output_size_by_index(desc, 0) == 24
    data = np.frombuffer(om_path.read_bytes(), np.uint8).copy()
    desc2 = acl.mdl.create_desc()
    assert acl.mdl.get_desc_from_mem(desc2, acl.util.numpy_to_ptr(data), data.size) == 0
    assert acl.mdl.get_output_name_by_index(desc2, 0) == "y"
    refused(acl.mdl.get_desc_from_file(desc, "missing.om"),
            C.ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID)
    assert acl.mdl.get_num_inputs(desc) == 1       # the description is kept
    refused(acl.mdl.get_desc_from_file(0, str(om_path)), INVALID)


def test_a_bundle_loads_every_model_and_unloads_them_together(acl, om_path, refused,
                                                              tmp_path):
    path = tmp_path / "two.bundle.om"
    bundle.write(path, [om_path, om_path])
    bundle_id, ret = acl.mdl.bundle_load_from_file(str(path))
    assert ret == 0
    assert acl.mdl.bundle_get_model_num(bundle_id) == (2, 0)
    ids = [acl.mdl.bundle_get_model_id(bundle_id, i) for i in range(2)]
    assert all(r == 0 for _, r in ids) and sorted(loaded()) == sorted(i for i, _ in ids)
    check_runs(acl, ids[1][0])
    refused(acl.mdl.bundle_get_model_id(bundle_id, 2)[1], INVALID)
    refused(acl.mdl.unload(ids[0][0]), INVALID)           # a bundle's model
    assert acl.mdl.bundle_unload(bundle_id) == 0
    assert loaded() == []
    refused(acl.mdl.bundle_unload(bundle_id), C.ACL_ERROR_INVALID_BUNDLE_MODEL_ID)
    refused(acl.mdl.bundle_get_model_num(ids[0][0])[1], C.ACL_ERROR_INVALID_BUNDLE_MODEL_ID)


def test_a_model_that_is_no_bundle_or_a_broken_part_loads_nothing(acl, om_path, refused,
                                                                  tmp_path):
    refused(acl.mdl.bundle_load_from_file(str(om_path))[1], INVALID)
    good = om_path.read_bytes()
    broken = bundle.pack([good, good[:-10] + b"\0" * 10])
    data = np.frombuffer(broken, np.uint8).copy()
    bundle_id, ret = acl.mdl.bundle_load_from_mem(acl.util.numpy_to_ptr(data), data.size)
    assert ret != 0 and bundle_id == 0
    assert loaded() == []                                 # the first part was unloaded


def test_tensor_real_names_and_the_refused_calls(acl, om_path, refused):
    m = Model(acl, om_path)
    assert acl.mdl.get_tensor_real_name(m.desc, "x") == "x"
    assert acl.mdl.get_tensor_real_name(m.desc, f"acl_modelId_{m.id}_output_0") == "y"
    assert acl.mdl.get_tensor_real_name(m.desc, f"acl_modelId_{m.id + 1}_input_0") is None
    assert "acl_modelId_" in acl.get_recent_err_msg()
    name, inputs, n_in, outputs, n_out, ret = acl.mdl.create_and_get_op_desc(0, 1, 1, 256)
    refused(ret, C.ACL_ERROR_GE_FAILURE)
    assert (name, inputs, n_in, outputs, n_out) == ("", 0, 0, 0, 0)
    refused(acl.mdl.create_and_get_op_desc(0, 1, 1, 5000)[-1], INVALID)
    refused(acl.mdl.dump_reg_callback(lambda chunk: 0, 1), C.ACL_ERROR_FAILURE)
    refused(acl.mdl.dump_reg_callback(lambda chunk: 0, 0), C.ACL_ERROR_FEATURE_UNSUPPORTED)
    assert acl.mdl.dump_unreg_callback() is None
    assert acl.mdl.get_op_attr(m.desc, "MatMul_0", "other") is None
    assert acl.mdl.get_op_attr(m.desc, "MatMul_0",
                               C.ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES) is None
