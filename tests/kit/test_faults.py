"""Fault injection (acl_lab.inject): an injected failure looks like the call's real failure,
changes nothing, is marked in the trace, explained once, and goes away with reset()."""
import doctest
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.errors import AclLabError

README = Path(__file__).resolve().parents[2] / "README.md"
MiB = 1 << 20


@pytest.fixture(autouse=True)
def no_faults_left():
    yield
    acl_lab.inject.clear()


def test_malloc_fails_once_in_its_own_shape_and_changes_nothing(acl):
    before = acl_lab.snapshot()
    fault = acl_lab.inject("rt.malloc", code=C.ACL_ERROR_RT_MEMORY_ALLOCATION, times=1)
    assert acl.rt.malloc(MiB, C.ACL_MEM_MALLOC_HUGE_FIRST) == (0, 207001)
    after = acl_lab.snapshot()
    assert after["allocations"] == before["allocations"] and after["pools"] == before["pools"]
    assert fault not in acl_lab.inject.faults
    ptr, ret = acl.rt.malloc(MiB, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0 and ptr != 0


@pytest.mark.parametrize("name, args, expected", [
    ("rt.memcpy", (0, 0, 0, 0, 1), 507899),                      # ret
    ("rt.get_mem_info", (C.ACL_HBM_MEM,), (0, 0, 507899)),       # (free, total, ret)
    ("mdl.create_desc", (), 0),                                   # bare value: NULL
    ("util.numpy_to_ptr", (np.zeros(4),), 0),                    # NULL
    ("init", (), 507899),
])
def test_each_call_fails_in_its_pyacl_shape(acl, name, args, expected):
    acl_lab.inject(f"acl.{name}", code=507899)
    fn = acl
    for part in name.split("."):
        fn = getattr(fn, part)
    assert fn(*args) == expected
    assert "injected fault" in acl.get_recent_err_msg()


def _injectable() -> list[str]:
    from acl_lab.sim.facade import FACADE
    from acl_lab.spec.prototypes import failure
    names = [f"{ns}.{fn}" if ns else fn for ns, cls in FACADE.items() for fn in dir(cls)
             if not fn.startswith("_")]
    return [n for n in names if failure(n) is not None]


def test_every_facade_call_that_can_fail_can_be_injected_and_changes_nothing(acl):
    from acl_lab.spec.prototypes import failure
    names = _injectable()
    assert len(names) > 80 and {"rt.malloc", "mdl.ri_capture_end", "init"} <= set(names)
    stream, _ = acl.rt.create_stream()
    before = acl_lab.snapshot()
    for name in names:
        acl_lab.inject(name, code=C.ACL_ERROR_FAILURE)
        fn = acl
        for part in name.split("."):
            fn = getattr(fn, part)
        try:
            result = fn()           # an injected call never runs, so it needs no arguments
        except AclLabError as e:    # the util reads fail by raising, as they do for real
            assert name.startswith("util.ptr_to_") and e.code == C.ACL_ERROR_FAILURE
            continue
        call = acl_lab.tracer().calls[-1]
        assert call.name == name and call.injected and acl_lab.inject.faults == []
        if isinstance(result, tuple):
            # the values before the code are the call's own failure values (0, or e.g.
            # ACL_STREAM_STATUS_RESERVED for stream_query), as a real failure returns them
            assert result == failure(name)(C.ACL_ERROR_FAILURE, ""), name
            assert result[-1] == C.ACL_ERROR_FAILURE, name
        else:
            # a bare value fails as its C function does: the code, NULL, ACL_DT_UNDEFINED,
            # or e.g. 0xFFFFFFFF for aclrtGet*FromExceptionInfo without an info
            assert result == failure(name)(C.ACL_ERROR_FAILURE, ""), name
            # None: a NULL const char * (aclmdlGetOpAttr, aclmdlGetTensorRealName);
            # ACL_ERROR_INVALID_PARAM: aclprofGetModelId returns its code as the size_t
            assert result in (C.ACL_ERROR_FAILURE, 0, "", None, C.ACL_DT_UNDEFINED,
                              C.ACL_FORMAT_UNDEFINED, 0xFFFFFFFF, C.ACL_ERROR_INVALID_PARAM), name
        assert "injected fault" in acl.get_recent_err_msg()
    after = acl_lab.snapshot()
    for key in ("allocations", "pools", "streams", "events", "contexts", "devices"):
        assert after[key] == before[key], key
    assert acl.rt.destroy_stream(stream) == 0


def test_util_read_raises_as_its_real_failure_does(acl):
    ptr, _ = acl.rt.malloc_host(64)
    acl_lab.inject("util.ptr_to_bytes", code=C.ACL_ERROR_INVALID_PARAM)
    with pytest.raises(AclLabError, match="injected fault") as e:
        acl.util.ptr_to_bytes(ptr, 64)
    assert e.value.code == C.ACL_ERROR_INVALID_PARAM
    assert acl.util.ptr_to_bytes(ptr, 64) is not None


def test_trace_marks_the_injected_call(acl):
    acl_lab.inject("rt.create_stream", code=C.ACL_ERROR_RT_RESOURCE_ALLOC_FAIL)
    acl.rt.create_stream()
    acl.rt.create_stream()
    first, second = list(acl_lab.tracer().calls)[-2:]
    assert first.injected and first.ret == C.ACL_ERROR_RT_RESOURCE_ALLOC_FAIL
    assert not second.injected and second.ret == 0
    rows = acl_lab.tracer().table(2).rows()
    assert rows[0][3] == f"{C.ACL_ERROR_RT_RESOURCE_ALLOC_FAIL} injected" and rows[1][3] == "0"


def test_condition_picks_the_calls_and_times_none_keeps_failing(acl):
    acl_lab.inject("rt.malloc", code=207001, times=None,
                   when=lambda size, policy: size > 4 * MiB)
    for _ in range(3):
        assert acl.rt.malloc(8 * MiB, 0) == (0, 207001)
        ptr, ret = acl.rt.malloc(MiB, 0)
        assert ret == 0 and acl.rt.free(ptr) == 0
    acl_lab.inject.clear()
    ptr, ret = acl.rt.malloc(8 * MiB, 0)
    assert ret == 0


def test_the_explanation_is_read_once_and_a_later_real_failure_replaces_it(acl):
    acl_lab.inject("rt.malloc", code=207001)
    acl.rt.malloc(MiB, 0)
    message = acl.get_recent_err_msg()
    assert message.startswith("rt.malloc: injected fault") and "ACL_ERROR_RT_MEMORY_ALLOCATION" \
        in message and "nothing changed" in message
    assert acl.get_recent_err_msg() == ""
    acl_lab.inject("rt.malloc", code=207001)
    acl.rt.malloc(MiB, 0)
    assert acl.rt.free(0x1234) != 0                 # a real failure, after the injected one
    assert "injected" not in acl.get_recent_err_msg()


def test_an_injected_failure_replaces_an_older_real_message(acl):
    assert acl.rt.free(0x1234) != 0
    acl_lab.inject("rt.create_stream", code=C.ACL_ERROR_RT_RESOURCE_ALLOC_FAIL)
    acl.rt.create_stream()
    assert "injected" in acl.get_recent_err_msg()
    assert acl.get_recent_err_msg() == ""


def test_check_explains_an_injected_failure(acl):
    acl_lab.inject("rt.malloc", code=207001)
    with pytest.raises(AclLabError, match="injected fault"):
        acl_lab.check(acl.rt.malloc(MiB, 0))


def test_reset_clears_faults_and_the_message(acl):
    acl_lab.inject("rt.malloc", code=207001, times=None)
    acl_lab.inject("init", code=100000)
    acl.rt.malloc(MiB, 0)
    acl_lab.reset()
    assert acl_lab.inject.faults == [] and not acl_lab.inject.armed
    assert acl.get_recent_err_msg() == ""
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    assert acl.rt.malloc(MiB, 0)[1] == 0


def test_a_fault_can_be_removed_alone(acl):
    keep = acl_lab.inject("rt.malloc", code=207001)
    gone = acl_lab.inject("rt.create_stream", code=207001)
    gone.remove()
    assert acl_lab.inject.faults == [keep]
    assert acl.rt.create_stream()[1] == 0


@pytest.mark.parametrize("kwargs, error", [
    ({"name": "rt.maloc", "code": 207001}, "Did you mean 'rt.malloc'"),
    ({"name": "get_soc_name", "code": 207001}, "cannot inject"),
    ({"name": "rt.malloc", "code": 0}, "nonzero"),
    ({"name": "rt.malloc", "code": 207001, "times": 0}, "positive"),
])
def test_wrong_requests_say_what_to_do(kwargs, error):
    with pytest.raises(ValueError, match=error):
        acl_lab.inject(**kwargs)
    assert acl_lab.inject.faults == []


def test_works_on_the_ascend_backend(monkeypatch):
    from ascendhelpers import StandIn

    real = StandIn()
    monkeypatch.setitem(sys.modules, "acl", real)
    try:
        acl = acl_lab.load(backend="ascend")
        assert acl.init() == 0 and acl.rt.set_device(0) == 0
        acl_lab.inject("rt.malloc", code=207001)
        assert acl.rt.malloc(MiB, 0) == (0, 207001)
        assert "rt.malloc" not in real.names()          # it never reached pyACL
        assert "injected fault" in acl.get_recent_err_msg()
        assert acl.rt.malloc(MiB, 0)[1] == 0 and real.names("malloc") == ["rt.malloc"]
        assert acl_lab.tracer().calls[-3].injected
    finally:
        acl_lab.load(backend="sim")


def _instructor_examples() -> str:
    """The pycon blocks of README's "For instructors" section, in order."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## For instructors", 1)[1].split("\n## ", 1)[0]
    return "\n".join(re.findall(r"```pycon\n(.*?)```", section, re.S))


def test_readme_demos_run_as_written():
    examples = _instructor_examples()
    assert examples.count(">>> acl_lab.inject(") == 3
    parser = doctest.DocTestParser()
    test = parser.get_doctest(examples, {}, "README For instructors", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    try:
        runner.run(test, out=print)
    finally:
        acl_lab.reset()
    assert runner.failures == 0 and runner.tries > 20
