"""Dynamic batch and image size (issue 25): `atc --dynamic_batch_size / --dynamic_image_size`
and the aclmdl calls that pick a gear, as the real ATC and ACL do — the extra input
ascend_mbatch_shape_data, buffers sized for the largest gear, -1 in aclmdlGetInputDims, and
the codes of hicann/ge ge_executor.cc (SetDynamicBatchSize / SetDynamicImageSize: 145012
for a short buffer, 145013 for a size that is not a gear) and model.cpp (0 or a missing
buffer: ACL_ERROR_INVALID_PARAM)."""
from __future__ import annotations

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.om import container as om
from modelhelpers import Loaded, convert, reference

MBATCH = "ascend_mbatch_shape_data"


@pytest.fixture(scope="module")
def oms(tmp_path_factory):
    folder = tmp_path_factory.mktemp("dynamic")
    paths = {}
    for key, flags in {
            "batch": ("--input_shape=data:-1,3,224,224", "--dynamic_batch_size=1,2,4"),
            "hw": ("--input_shape=data:1,3,-1,-1", "--dynamic_image_size=224,224;160,192")}.items():
        code, out, path = convert(folder, "convnet", *flags)
        assert code == 0, out
        paths[key] = path
    return paths


def _index(acl, desc):
    index, ret = acl.mdl.get_input_index_by_name(desc, MBATCH)
    assert ret == 0
    return index


def test_atc_adds_the_gear_input_and_sizes_buffers_for_the_largest_gear(acl, oms):
    m = Loaded(acl, oms["batch"])
    assert acl.mdl.get_num_inputs(m.desc) == 2
    assert _index(acl, m.desc) == 1
    assert m.in_sizes == [4 * 3 * 224 * 224 * 4, 8]
    assert acl.mdl.get_input_dims(m.desc, 0) == (
        {"name": "data", "dimCount": 4, "dims": [-1, 3, 224, 224]}, 0)
    assert acl.mdl.get_input_dims_v2(m.desc, 0)[0]["dims"] == [4, 3, 224, 224]
    assert acl.mdl.get_dynamic_batch(m.desc) == ({"batchCount": 3, "batch": [1, 2, 4]}, 0)
    assert acl.mdl.get_dynamic_hw(m.desc, -1) == ({"hwCount": 0, "hw": []}, 0)
    h = Loaded(acl, oms["hw"])
    assert acl.mdl.get_input_dims(h.desc, 0)[0]["dims"] == [1, 3, -1, -1]
    assert h.in_sizes[0] == 3 * 224 * 224 * 4
    assert acl.mdl.get_dynamic_hw(h.desc, -1) == (
        {"hwCount": 2, "hw": [[224, 224], [160, 192]]}, 0)


@pytest.mark.parametrize("batch", [1, 2, 4])
def test_each_gear_computes_what_onnx_computes_on_that_batch(acl, oms, batch):
    m = Loaded(acl, oms["batch"])
    x = np.random.default_rng(batch).random((4, 3, 224, 224), dtype=np.float32)
    m.feed(x)
    assert acl.mdl.set_dynamic_batch_size(m.model_id, m.in_ds, _index(acl, m.desc), batch) == 0
    assert acl.mdl.execute(m.model_id, m.in_ds, m.out_ds) == 0
    dims, ret = acl.mdl.get_cur_output_dims(m.desc, 0)
    assert (dims["dims"], ret) == ([batch, 1000], 0)
    got = m.result().reshape(-1)[:batch * 1000].reshape(batch, 1000)
    one_by_one = np.concatenate([reference("convnet", x[i:i + 1]) for i in range(batch)])
    np.testing.assert_allclose(got, one_by_one, rtol=1e-5, atol=1e-7)


def test_the_gear_is_written_into_the_gear_input(acl, oms):
    m = Loaded(acl, oms["batch"])
    index = _index(acl, m.desc)
    assert acl.mdl.set_dynamic_batch_size(m.model_id, m.in_ds, index, 2) == 0
    host = np.zeros(1, np.uint64)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(host), 8, m.inputs[index], 8,
                         C.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert host[0] == 2


def test_an_image_size_gear_runs_on_that_size(acl, oms):
    m = Loaded(acl, oms["hw"])
    x = np.random.default_rng(0).random((1, 3, 160, 192), dtype=np.float32)
    padded = np.zeros(m.in_sizes[0] // 4, np.float32)
    padded[:x.size] = x.ravel()
    m.feed(padded)
    assert acl.mdl.set_dynamic_hw_size(m.model_id, m.in_ds, _index(acl, m.desc), 160, 192) == 0
    assert acl.mdl.execute(m.model_id, m.in_ds, m.out_ds) == 0
    np.testing.assert_array_equal(m.result(), _open_reference(x))


def _open_reference(x):
    """The conv net with its input's H and W left open, run by onnxruntime on ``x``."""
    import onnxruntime
    from acl_lab import sample_models

    model = sample_models.model("convnet")
    dims = model.graph.input[0].type.tensor_type.shape.dim
    for k in (2, 3):
        dims[k].Clear()
        dims[k].dim_param = f"d{k}"
    session = onnxruntime.InferenceSession(model.SerializeToString(),
                                           providers=["CPUExecutionProvider"])
    return session.run(None, {"data": x})[0]


def test_gear_mistakes_get_ges_codes_and_change_nothing(acl, oms):
    m = Loaded(acl, oms["batch"])
    index = _index(acl, m.desc)
    sets = acl.mdl.set_dynamic_batch_size
    assert sets(m.model_id, m.in_ds, index, 3) == C.ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID
    assert "[1, 2, 4]" in acl.get_recent_err_msg()
    assert sets(m.model_id, m.in_ds, index, 0) == C.ACL_ERROR_INVALID_PARAM
    assert sets(m.model_id, m.in_ds, 7, 2) == C.ACL_ERROR_INVALID_PARAM
    assert sets(m.model_id, 0, index, 2) == C.ACL_ERROR_INVALID_PARAM
    assert sets(99, m.in_ds, index, 2) == C.ACL_ERROR_GE_EXEC_MODEL_ID_INVALID
    assert acl.mdl.set_dynamic_hw_size(m.model_id, m.in_ds, index, 224, 224) == \
        C.ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID
    short = acl.mdl.create_dataset()
    acl.mdl.add_dataset_buffer(short, acl.create_data_buffer(m.inputs[0], m.in_sizes[0]))
    acl.mdl.add_dataset_buffer(short, acl.create_data_buffer(m.inputs[1], 2))
    assert sets(m.model_id, short, 1, 2) == C.ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID
    # no gear set on the dataset: nothing runs
    before = acl_lab.snapshot()["offline_models"]
    assert acl.mdl.execute(m.model_id, m.in_ds, m.out_ds) == \
        C.ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID
    assert acl_lab.snapshot()["offline_models"] == before


def test_a_static_model_has_no_gears(acl, tmp_path):
    code, out, path = convert(tmp_path, "digits")
    m = Loaded(acl, path)
    assert acl.mdl.get_dynamic_batch(m.desc) == ({"batchCount": 0, "batch": []}, 0)
    assert acl.mdl.get_input_index_by_name(m.desc, MBATCH)[1] == C.ACL_ERROR_INVALID_PARAM
    assert acl.mdl.set_dynamic_batch_size(m.model_id, m.in_ds, 0, 1) == \
        C.ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID


@pytest.mark.parametrize("flags, words", [
    (("--input_shape=data:-1,3,224,224",), "dynamic shape"),
    (("--input_shape=data:-1,3,224,224", "--dynamic_batch_size=4"), "between 2 and 100"),
    (("--input_shape=data:-1,3,224,224", "--dynamic_batch_size=1,x"), "integers"),
    (("--input_shape=data:-1,3,224,224", "--dynamic_batch_size=1,1"), "twice"),
    (("--input_shape=data:1,3,224,224", "--dynamic_batch_size=1,2"), "-1 exactly"),
    (("--input_shape=data:-1,3,224,224", "--dynamic_image_size=224,224;320,320"), "-1 exactly"),
    (("--input_shape=data:-1,3,224,224", "--dynamic_batch_size=1,2",
      "--dynamic_image_size=224,224;320,320"), "E10009: --dynamic_batch_size, --dynamic_image_size, --input_shape_range, and --dynamic_dims are mutually exclusive."),
])
def test_atc_refuses_gears_it_cannot_build(tmp_path, flags, words):
    code, out, path = convert(tmp_path, "convnet", *flags)
    assert code == 1 and words in out, out
    assert not path.exists()


def test_an_edited_gear_list_is_not_an_om(acl, oms, tmp_path):
    data = oms["batch"].read_bytes()
    edited = data.replace(b'"gears": [[1], [2], [4]]', b'"gears": [[1], [2], [8]]')
    assert edited != data
    path = tmp_path / "edited.om"
    path.write_bytes(om.parse(edited).header() + om.parse(edited).onnx_bytes)
    assert acl.mdl.load_from_file(str(path)) == (0, C.ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID)
