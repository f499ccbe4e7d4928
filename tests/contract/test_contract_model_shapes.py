"""acl.mdl's dynamic dims and shape ranges (issue 31): set_input_dynamic_dims,
get_input_dynamic_gear_count / get_input_dynamic_dims, get_input_dims_range, and the tensor
descriptions a dataset carries (set_ / get_dataset_tensor_desc), with pyACL's return shapes.

Compared: return codes, the dims each gear gives, the values computed at a gear, the
ranges. A refused call leaves the dataset's gear and descriptions as they were. Models are
converted by `acl-lab atc` for the SoC under test."""
from __future__ import annotations

import numpy as np
import pytest

from acl_lab import constants as C
from mdlhelpers import W, Model, convert, seq

INVALID = C.ACL_ERROR_INVALID_PARAM


@pytest.fixture
def gears(acl, tmp_path):
    path = convert(tmp_path, seq, acl.get_soc_name(), "--input_format=ND",
                   "--input_shape=x:1,-1,4", "--dynamic_dims=2;5;8")
    return Model(acl, path)


@pytest.fixture
def ranged(acl, tmp_path):
    path = convert(tmp_path, seq, acl.get_soc_name(), "--input_shape_range=x:[1~2,-1,4]")
    return Model(acl, path)


def dims(values) -> dict:
    return {"name": "", "dimCount": len(values), "dims": list(values)}


def test_a_runner_picks_a_gear_by_every_inputs_dims_and_computes_at_it(acl, gears):
    index, ret = acl.mdl.get_input_index_by_name(gears.desc, C.ACL_DYNAMIC_TENSOR_NAME)
    assert (index, ret) == (1, 0)
    count, ret = acl.mdl.get_input_dynamic_gear_count(gears.desc, -1)
    assert (count, ret) == (3, 0)
    listed, ret = acl.mdl.get_input_dynamic_dims(gears.desc, -1, count)
    assert ret == 0 and listed == [dims([1, t, 4]) for t in (2, 5, 8)]
    assert acl.mdl.get_input_dims(gears.desc, 0)[0]["dims"] == [1, -1, 4]
    x = np.random.default_rng(3).random((1, 5, 4), dtype=np.float32)
    gears.put(0, x)
    assert acl.mdl.set_input_dynamic_dims(gears.id, gears.in_ds, index, dims([1, 5, 4])) == 0
    assert acl.mdl.execute(gears.id, gears.in_ds, gears.out_ds) == 0
    out, ret = acl.mdl.get_cur_output_dims(gears.desc, 0)
    assert ret == 0 and out["dims"] == [1, 5, 3]
    np.testing.assert_allclose(gears.get(0, 15).reshape(1, 5, 3), x @ W, rtol=1e-6)


@pytest.mark.parametrize("value, code", [
    (dims([1, 6, 4]), C.ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID),     # no such gear
    (dims([2, 5, 4]), C.ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID),   # a fixed dim differs
    (dims([5]), C.ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID),         # not every dim
    (dims([]), INVALID),                                              # dimCount 0
])
def test_a_wrong_gear_is_refused_and_the_last_one_stays(acl, gears, refused, value, code):
    assert acl.mdl.set_input_dynamic_dims(gears.id, gears.in_ds, 1, dims([1, 2, 4])) == 0
    refused(acl.mdl.set_input_dynamic_dims(gears.id, gears.in_ds, 1, value), code)
    assert acl.mdl.execute(gears.id, gears.in_ds, gears.out_ds) == 0
    assert acl.mdl.get_cur_output_dims(gears.desc, 0)[0]["dims"] == [1, 2, 3]


def test_the_dataset_the_model_and_the_index_must_be_right(acl, gears, refused):
    refused(acl.mdl.set_input_dynamic_dims(gears.id, 0, 1, dims([1, 5, 4])), INVALID)
    refused(acl.mdl.set_input_dynamic_dims(gears.id, gears.in_ds, 9, dims([1, 5, 4])), INVALID)
    refused(acl.mdl.set_input_dynamic_dims(gears.id + 7, gears.in_ds, 1, dims([1, 5, 4])),
            C.ACL_ERROR_GE_EXEC_MODEL_ID_INVALID)
    with pytest.raises(TypeError):                     # pyACL: argument 4 is not dict
        acl.mdl.set_input_dynamic_dims(gears.id, gears.in_ds, 1, [1, 5, 4])
    assert acl.mdl.execute(gears.id, gears.in_ds, gears.out_ds) == \
        C.ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID      # still no gear set


def test_the_gear_queries_take_index_minus_one_only(acl, gears, refused):
    count, ret = acl.mdl.get_input_dynamic_gear_count(gears.desc, 0)
    refused(ret, INVALID)
    assert count == 0
    listed, ret = acl.mdl.get_input_dynamic_dims(gears.desc, 0, 3)
    refused(ret, INVALID)
    assert listed is None
    refused(acl.mdl.get_input_dynamic_dims(gears.desc, -1, 2)[1], INVALID)    # fewer gears
    refused(acl.mdl.get_input_dynamic_dims(gears.desc, -1, 4097)[1], INVALID)  # pyACL's cap
    refused(acl.mdl.get_input_dynamic_gear_count(0, -1)[1], INVALID)
    listed, ret = acl.mdl.get_input_dynamic_dims(gears.desc, -1, 4)
    assert ret == 0 and listed[3] == {"name": "", "dimCount": 0, "dims": []}


def test_a_shape_range_input_reports_its_ranges_and_runs_at_the_desc_it_is_given(acl, ranged):
    r, ret = acl.mdl.get_input_dims_range(ranged.desc, 0)
    assert ret == 0 and r == {"rangeCount": 3, "range": [[1, 2], [0, -1], [4, 4]]}
    assert acl.mdl.get_input_dims(ranged.desc, 0)[0]["dims"] == [-1, -1, 4]
    assert acl.mdl.get_output_dims(ranged.desc, 0)[0]["dims"] == [-1, -1, 3]
    # the buffers of a range model hold what the program gives: size them itself
    x = np.random.default_rng(4).random((2, 3, 4), dtype=np.float32)
    ptr_in, _ = acl.rt.malloc(x.nbytes, 0)
    ptr_out, _ = acl.rt.malloc(2 * 3 * 3 * 4, 0)
    assert acl.rt.memcpy(ptr_in, x.nbytes, acl.util.numpy_to_ptr(x), x.nbytes, 1) == 0
    ins, outs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    acl.mdl.add_dataset_buffer(ins, acl.create_data_buffer(ptr_in, x.nbytes))
    acl.mdl.add_dataset_buffer(outs, acl.create_data_buffer(ptr_out, 72))
    desc = acl.create_tensor_desc(C.ACL_FLOAT, [2, 3, 4], C.ACL_FORMAT_ND)
    assert acl.mdl.set_dataset_tensor_desc(ins, desc, 0) == (ins, 0)
    assert acl.mdl.execute(ranged.id, ins, outs) == 0
    out_desc = acl.mdl.get_dataset_tensor_desc(outs, 0)
    assert out_desc and acl.get_tensor_desc_num_dims(out_desc) == 3
    host = np.empty(18, np.float32)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(host), 72, ptr_out, 72, 2) == 0
    np.testing.assert_allclose(host.reshape(2, 3, 3), x @ W, rtol=1e-6)


def test_dataset_tensor_descs_are_refused_past_the_buffers_and_null_clears(acl, ranged,
                                                                          refused):
    ds = acl.mdl.create_dataset()
    desc = acl.create_tensor_desc(C.ACL_FLOAT, [1, 3, 4], C.ACL_FORMAT_ND)
    value, ret = acl.mdl.set_dataset_tensor_desc(ds, desc, 0)      # no buffer yet
    refused(ret, INVALID)
    assert acl.mdl.get_dataset_tensor_desc(ds, 0) == 0
    acl.mdl.add_dataset_buffer(ds, acl.create_data_buffer(ranged.inputs[0], 48))
    assert acl.mdl.set_dataset_tensor_desc(ds, desc, 0)[1] == 0
    kept = acl.mdl.get_dataset_tensor_desc(ds, 0)
    assert kept not in (0, desc)                       # the dataset keeps a copy
    refused(acl.mdl.set_dataset_tensor_desc(0, desc, 0)[1], INVALID)
    assert acl.mdl.get_dataset_tensor_desc(ds, 0) == kept
    assert acl.mdl.set_dataset_tensor_desc(ds, 0, 0)[1] == 0        # NULL drops it
    assert acl.mdl.get_dataset_tensor_desc(ds, 0) == 0


def test_ranges_of_a_static_input_are_exact_and_of_a_gear_model_empty(acl, gears, refused,
                                                                       tmp_path):
    r, ret = acl.mdl.get_input_dims_range(gears.desc, 0)
    assert (r, ret) == ({"rangeCount": 0, "range": []}, 0)
    static = Model(acl, convert(tmp_path, seq, acl.get_soc_name(), "--input_format=ND",
                                "--input_shape=x:1,2,4", name="static"))
    r, ret = acl.mdl.get_input_dims_range(static.desc, 0)
    assert ret == 0 and r["range"] == [[1, 1], [2, 2], [4, 4]]
    r, ret = acl.mdl.get_input_dims_range(static.desc, 5)
    refused(ret, INVALID)
    assert r == {"rangeCount": 0, "range": []}        # pyACL builds the dict anyway
