"""Any int a learner passes to the calls of issue 31 part A gets pyACL's answer: a result of
the call's shape (prototype row), a return code, never a crash; and a refused call changes
nothing. Handles are drawn from live, dead and arbitrary values."""
from __future__ import annotations

import inspect

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import acl_lab
from acl_lab.spec.prototypes import PROTOTYPES, rt_devices, rt_tasks, top_more

#: the calls whose every argument is an int (their facade parameters, in order)
NAMES = sorted(n for n in {**rt_devices.ROWS, **rt_tasks.ROWS, **top_more.ROWS}
               if n not in ("rt.set_exception_info_callback", "rt.set_stream_attribute",
                            "rt.notify_batch_reset", "rt.notify_set_import_pid",
                            "rt.notify_import_by_key", "rt.set_tensor_dynamic_input",
                            "set_tensor_dynamic_input", "get_version_str",
                            "set_tensor_shape_range", "set_tensor_value_range",
                            "set_tensor_storage_shape", "set_tensor_origin_shape",
                            "finalize_reference"))

#: calls whose pyACL wrapper raises for some ints (a timeout below 0, a key length of 1024+)
PYACL_RAISES = ("rt.wait_and_reset_notify", "rt.notify_get_export_key")
INTS = st.one_of(st.integers(-3, 40), st.integers(-(1 << 70), 1 << 70),
                 st.sampled_from([0x2000_0040, 0x3000_0040, 0x6800_0040, 0x5800_0040,
                                  0x1000_0040 + 0x20, (1 << 64) - 1, 1 << 63]))


def _function(acl, name):
    obj = acl
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def _shape_ok(name, result, code):
    """``result`` is what the row says the call returns when it gives ``code``."""
    proto = PROTOTYPES[name]
    if not proto.has_code:
        return True                                    # a bare value: any value
    if proto.values == 0:
        return result == code
    return isinstance(result, tuple) and len(result) == proto.values + 1 and result[-1] == code


@pytest.fixture(scope="module")
def world():
    acl_lab.reset("910b")
    acl = acl_lab.load(profile="910b")
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    acl.rt.create_stream(), acl.rt.create_event(), acl.rt.create_notify(0)
    acl.create_tensor_desc(0, [1, 2], 2)
    yield acl
    acl_lab.reset()


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_int_gets_an_answer_and_a_refusal_changes_nothing(world, name, data):
    fn = _function(world, name)
    arity = len(inspect.signature(fn).parameters)
    values = [data.draw(INTS) for _ in range(arity)]
    before = acl_lab.snapshot()
    try:
        result = fn(*values)
    except (TypeError, ValueError):   # where pyACL's own wrapper raises (rt_notify.cpp)
        assert name in PYACL_RAISES, name
        after = acl_lab.snapshot()
        before.pop("now_us"), after.pop("now_us")
        assert after == before
        return
    code = result[-1] if isinstance(result, tuple) else result
    if not PROTOTYPES[name].has_code:
        return                 # getters of a bare value and setters: checked elsewhere
    assert _shape_ok(name, result, code), (name, values, result)
    if code != 0:
        after = acl_lab.snapshot()
        before.pop("now_us"), after.pop("now_us")
        assert after == before, (name, values, world.get_recent_err_msg())
        assert world.get_recent_err_msg()
