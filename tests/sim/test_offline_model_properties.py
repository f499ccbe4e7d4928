"""Property: executing a converted model on the simulator computes exactly what the ONNX
model computes when evaluated directly on the same input — sync or async, with float32 or
float16 input buffers (--input_fp16_nodes), whatever the input values."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import acl_lab
from acl_lab import constants as C
from modelhelpers import Loaded, convert, reference

SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def oms(tmp_path_factory):
    folder = tmp_path_factory.mktemp("prop")
    out = {}
    for key, name, flags in (("digits", "digits", ()),
                             ("convnet16", "convnet", ("--input_fp16_nodes=data",))):
        code, text, path = convert(folder, name, *flags)
        assert code == 0, text
        out[key] = path
    return out


def _fresh():
    acl_lab.reset("910b")
    acl = acl_lab.load(profile="910b")
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    return acl


@SETTINGS
@given(x=arrays(np.float32, (1, 1, 28, 28),
                elements=st.floats(-1e3, 1e3, width=32, allow_subnormal=False)),
       use_stream=st.booleans())
def test_digits_execution_equals_the_onnx_model(oms, x, use_stream):
    acl = _fresh()
    m = Loaded(acl, oms["digits"])
    m.feed(x)
    if use_stream:
        stream, _ = acl.rt.create_stream()
        assert acl.mdl.execute_async(m.model_id, m.in_ds, m.out_ds, stream) == 0
        assert acl.rt.synchronize_stream(stream) == 0
    else:
        assert acl.mdl.execute(m.model_id, m.in_ds, m.out_ds) == 0
    np.testing.assert_array_equal(m.result(), reference("digits", x))


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), scale=st.floats(0.01, 100))
def test_convnet_with_fp16_input_equals_the_onnx_model_on_the_same_half_values(oms, seed,
                                                                               scale):
    acl = _fresh()
    m = Loaded(acl, oms["convnet16"])
    assert acl.mdl.get_input_data_type(m.desc, 0) == C.ACL_FLOAT16
    x16 = (np.random.default_rng(seed).standard_normal((1, 3, 224, 224)) * scale).astype(
        np.float16)
    m.feed(x16)
    assert acl.mdl.execute(m.model_id, m.in_ds, m.out_ds) == 0
    np.testing.assert_array_equal(m.result(), reference("convnet", x16.astype(np.float32)))
