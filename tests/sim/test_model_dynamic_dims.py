"""The simulator's side of --dynamic_dims models (sim/model_gears.py), which the facade's
acl.mdl.set_input_dynamic_dims / get_input_dynamic_gear_count / get_input_dynamic_dims wrap:
the gear picked from every input's dims (the aclmdlIODims "dims"), the codes of hicann/ge
model.cpp and ge_executor.cc SetDynamicDims / GetCurDynamicDims, model_om2.cpp's queries,
nothing changed by a refused call, and executions that compute what onnxruntime computes at
the gear. Also the one reader of pyACL's aclmdlIODims dict (spec/io_dims.py)."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from acl_lab import constants as C
from acl_lab.session import SESSION
from acl_lab.sim.model_gears import MINUS_ONE
from acl_lab.sim.simerror import SimError
from acl_lab.spec.io_dims import io_dims, parse_io_dims
from modelhelpers import Loaded
from simhelpers import read

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "om"))
from test_atc_dynamic_dims import W, convert, lstm_like, two_inputs  # noqa: E402


@pytest.fixture
def seq(acl, tmp_path):
    code, out, path = convert(tmp_path, lstm_like, "--input_shape=x:1,-1,4",
                              "--dynamic_dims=2;5;8")
    assert code == 0, out
    return Loaded(acl, path)


@pytest.fixture
def pair(acl, tmp_path):
    code, out, path = convert(tmp_path, two_inputs, "--input_shape=data:1,-1;mask:-1,2",
                              "--dynamic_dims=3,1;5,4;2,6")
    assert code == 0, out
    return Loaded(acl, path)


def models():
    return SESSION.simulator.rt.models


def _state(acl, m):
    """What a refused call must leave as it was: the dataset's and model's gear, and the
    bytes of the gear buffer."""
    lm = models().loaded[m.model_id]
    return (models().datasets[m.in_ds].gear, lm.gear, read(acl, m.inputs[-1], m.in_sizes[-1]))


def test_the_gear_is_picked_from_every_inputs_dims_and_the_execution_runs_at_it(acl, seq):
    x = np.random.default_rng(1).random((1, 8, 4), dtype=np.float32)
    seq.feed(x)
    for t in (5, 2, 8):
        models().set_dims(seq.model_id, seq.in_ds, 1, (1, t, 4))
        host = np.frombuffer(read(acl, seq.inputs[1], 8), np.uint64)
        assert host[0] == t                      # written as ge_executor.cc writes it
        assert acl.mdl.execute(seq.model_id, seq.in_ds, seq.out_ds) == 0
        assert acl.mdl.get_cur_output_dims(seq.desc, 0)[0]["dims"] == [1, t, 3]
        got = seq.result().reshape(-1)[:t * 3].reshape(1, t, 3)
        first_t = x.reshape(-1)[:t * 4].reshape(1, t, 4)    # the gear's shape of the buffer
        np.testing.assert_allclose(got, first_t @ W, rtol=1e-6)


def test_two_inputs_take_their_values_in_input_shape_order(acl, pair):
    data = np.arange(5, dtype=np.float32) - 2
    mask = np.arange(12, dtype=np.float32) - 6
    pair.feed(data, 0)
    pair.feed(mask, 1)
    models().set_dims(pair.model_id, pair.in_ds, 2, (1, 5, 4, 2))    # gear (5, 4)
    assert acl.mdl.execute(pair.model_id, pair.in_ds, pair.out_ds) == 0
    np.testing.assert_array_equal(pair.result(0), np.maximum(data, 0).reshape(1, 5))
    b = pair.result(1).reshape(-1)[:8].reshape(4, 2)
    np.testing.assert_array_equal(b, np.maximum(mask[:8], 0).reshape(4, 2))


@pytest.mark.parametrize("args, code, words", [
    (lambda m: (m.model_id, 0, 1, (1, 5, 4)), C.ACL_ERROR_INVALID_PARAM, "NULL"),
    (lambda m: (m.model_id, m.in_ds, 1, ()), C.ACL_ERROR_INVALID_PARAM, "dimCount is 0"),
    (lambda m: (m.model_id, m.in_ds, 7, (1, 5, 4)), C.ACL_ERROR_INVALID_PARAM, "index 7"),
    (lambda m: (m.model_id + 99, m.in_ds, 1, (1, 5, 4)),
     C.ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, "never loaded"),
    (lambda m: (m.model_id, m.in_ds, 1, (5,)), C.ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID,
     "[1, -1, 4]"),
    (lambda m: (m.model_id, m.in_ds, 1, (2, 5, 4)),
     C.ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID, "fixed at 1"),
    (lambda m: (m.model_id, m.in_ds, 1, (1, 6, 4)), C.ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID,
     "[[2], [5], [8]]"),
    (lambda m: (m.model_id, m.in_ds, 1, (1, -5, 4)), C.ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID,
     "no gear"),
])
def test_each_mistake_gets_ges_code_and_changes_nothing(acl, seq, args, code, words):
    models().set_dims(seq.model_id, seq.in_ds, 1, (1, 5, 4))
    before = _state(acl, seq)
    with pytest.raises(SimError) as e:
        models().set_dims(*args(seq))
    assert e.value.code == code and words in e.value.message, e.value.message
    assert _state(acl, seq) == before


def test_a_gear_buffer_shorter_than_the_gear_is_145012(acl, pair):
    short = acl.mdl.create_dataset()
    acl.mdl.add_dataset_buffer(short, acl.create_data_buffer(pair.inputs[2], 4))
    with pytest.raises(SimError) as e:
        models().set_dims(pair.model_id, short, 0, (1, 5, 4, 2))
    assert e.value.code == C.ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID
    assert models().datasets[short].gear is None


def test_a_dataset_with_no_gear_set_is_not_executed(acl, seq):
    assert acl.mdl.execute(seq.model_id, seq.in_ds, seq.out_ds) == \
        C.ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID
    assert "acl.mdl.set_input_dynamic_dims" in acl.get_recent_err_msg()


def test_the_queries_list_each_gears_dims_as_set_input_dynamic_dims_takes_them(acl, pair,
                                                                               seq):
    for index in (-1, MINUS_ONE):                # -1 as pyACL hands it over (size_t)
        assert models().gear_count(pair.desc, index) == 3
    assert models().dynamic_dims(pair.desc, -1, 3) == [(1, 3, 1, 2), (1, 5, 4, 2),
                                                       (1, 2, 6, 2)]
    assert models().dynamic_dims(pair.desc, -1, 4)[3] == ()       # asked for more: empty
    for dims in models().dynamic_dims(seq.desc, -1, 3):           # each one is accepted
        models().set_dims(seq.model_id, seq.in_ds, 1, dims)
    assert io_dims("", (1, 5, 4)) == {"name": "", "dimCount": 3, "dims": [1, 5, 4]}


@pytest.mark.parametrize("call", ["gear_count", "dynamic_dims"])
def test_the_queries_refuse_an_index_other_than_minus_one_and_a_dead_desc(acl, pair, call):
    args = (3,) if call == "dynamic_dims" else ()
    for handle, index in ((pair.desc, 0), (0, -1), (pair.desc + 0x1000, -1)):
        with pytest.raises(SimError) as e:
            getattr(models(), call)(handle, index, *args)
        assert e.value.code == C.ACL_ERROR_INVALID_PARAM


def test_too_few_gears_asked_is_invalid_and_other_models_have_none(acl, pair, tmp_path):
    with pytest.raises(SimError) as e:
        models().dynamic_dims(pair.desc, -1, 2)
    assert e.value.code == C.ACL_ERROR_INVALID_PARAM and "3 gears" in e.value.message
    code, out, path = convert(tmp_path, lstm_like, "--input_shape=x:1,8,4")
    assert code == 0, out
    static = Loaded(acl, path)
    assert models().gear_count(static.desc, -1) == 0
    assert models().dynamic_dims(static.desc, -1, 0) == []
    assert models().gear_count(acl.mdl.create_desc(), -1) == 0      # not filled yet
    with pytest.raises(SimError) as e:
        models().set_dims(static.model_id, static.in_ds, 0, (1, 8, 4))
    assert e.value.code == C.ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID


@pytest.mark.parametrize("value, error", [
    ([1, 2], TypeError),
    ({"dimCount": "2", "dims": [1, 2]}, TypeError),
    ({"dimCount": 2, "dims": (1, 2)}, TypeError),
    ({"dimCount": 3, "dims": [1, 2]}, TypeError),
    ({"dimCount": 2, "dims": [1, 2.0]}, TypeError),
    ({"name": 7, "dimCount": 1, "dims": [1]}, TypeError),
    ({"dimCount": 129, "dims": [1] * 129}, ValueError),
    ({"dimCount": -1, "dims": []}, ValueError),
    ({"dimCount": 1, "dims": [1 << 63]}, ValueError),
])
def test_the_io_dims_dict_is_read_as_pyacl_reads_it(value, error):
    with pytest.raises(error, match="aclmdlSetInputDynamicDims"):
        parse_io_dims("aclmdlSetInputDynamicDims", value)


def test_the_io_dims_dict_reads_dim_count_values_and_ignores_the_rest():
    assert parse_io_dims("c", {"dimCount": 2, "dims": [1, 5, 99]}) == ("", (1, 5))
    assert parse_io_dims("c", {"name": "x" * 200, "dimCount": 0, "dims": []}) == ("x" * 128, ())
    assert parse_io_dims("c", io_dims("data", [1, True])) == ("data", (1, 1))
