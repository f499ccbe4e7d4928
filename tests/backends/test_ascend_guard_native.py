"""The guard in front of the native calls (aclnn and aclmdlRI*) on the ascend backend.

pyACL is the recording stand-in, the CANN libraries the C double: a refused call must
never reach C (the double's log shows what did), and must answer with the simulator's code
and an explanation. Skipped without a C compiler.
"""
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.spec.snapshot_schema import mismatches
from nativehelpers import build, calls
from ascendhelpers import StandIn, real  # noqa: F401 (fixture)


@pytest.fixture
def stand_in():
    return StandIn


@pytest.fixture
def log(tmp_path, tmp_path_factory, monkeypatch):
    home = tmp_path_factory.getbasetemp() / "cann-guard"
    if not (home / "lib64" / "libopapi.so").exists():
        build(home)
    monkeypatch.setenv("ASCEND_HOME_PATH", str(home))
    monkeypatch.setenv("CANN_DOUBLE_LOG", str(tmp_path / "calls.log"))
    return tmp_path / "calls.log"


@pytest.fixture
def acl(real, log):
    acl = acl_lab.load(backend="ascend")
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    return acl


def _tensor(acl, dev, n=8):
    return acl.nn.create_tensor([n], C.ACL_FLOAT, [1], 0, C.ACL_FORMAT_ND, [n], dev)


def _refused(acl, ret, code, *words):
    assert ret == code
    msg = acl.get_recent_err_msg()
    assert "guard stopped this call" in msg
    for w in words:
        assert w in msg


def test_a_tensor_over_freed_or_too_small_memory_is_never_made(acl, log):
    dev, _ = acl.rt.malloc(32, 0)
    assert acl.rt.free(dev) == 0
    assert _tensor(acl, dev) == 0                          # NULL, as aclCreateTensor fails
    assert "use-after-free" in acl.get_recent_err_msg()
    small, _ = acl.rt.malloc(16, 0)
    assert _tensor(acl, small, 64) == 0                    # 256 bytes over a 16-byte block
    assert acl.nn.create_tensor([4, 2], C.ACL_FLOAT, [1], 0, C.ACL_FORMAT_ND, [8], small) == 0
    assert "one stride per dimension" in acl.get_recent_err_msg()
    assert calls(log, "aclCreateTensor") == []


def test_an_operator_over_a_tensor_whose_memory_was_freed_is_refused(acl, log):
    dev, _ = acl.rt.malloc(32, 0)
    t = _tensor(acl, dev)
    one = acl.nn.create_scalar(1.0, C.ACL_FLOAT)
    assert t and one
    assert acl.rt.free(dev) == 0
    ws, ex, ret = acl.nn.add_get_workspace_size(t, t, one, t)
    _refused(acl, ret, C.ACLNN_ERR_PARAM_INVALID, "no longer valid", hex(dev))
    assert (ws, ex) == (0, 0)
    assert calls(log, "aclnnAddGetWorkspaceSize") == []


def test_an_executor_runs_once_and_handles_are_destroyed_once(acl, log):
    dev, _ = acl.rt.malloc(32, 0)
    t = _tensor(acl, dev)
    one = acl.nn.create_scalar(1.0, C.ACL_FLOAT)
    ws, ex, ret = acl.nn.add_get_workspace_size(t, t, one, t)
    assert ret == 0 and acl.nn.add(0, ws, ex, 0) == 0
    _refused(acl, acl.nn.add(0, ws, ex, 0), C.ACLNN_ERR_PARAM_NULLPTR, "runs once")
    _refused(acl, acl.nn.mul(0, 0, 0xDEAD0, 0), C.ACLNN_ERR_PARAM_NULLPTR, "0xdead0")
    assert len(calls(log, "aclnnAdd")) == 1 and calls(log, "aclnnMul") == []
    assert acl.nn.destroy_tensor(t) == 0 and acl.nn.destroy_scalar(one) == 0
    _refused(acl, acl.nn.destroy_tensor(t), C.ACL_ERROR_INVALID_PARAM, "not a live object")
    _refused(acl, acl.nn.destroy_scalar(one), C.ACL_ERROR_INVALID_PARAM, "not a live object")
    assert len(calls(log, "aclDestroyTensor")) == len(calls(log, "aclDestroyScalar")) == 1


def test_a_captured_operator_whose_buffer_was_freed_is_not_replayed(acl, log):
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(32, 0)
    t = _tensor(acl, dev)
    one = acl.nn.create_scalar(1.0, C.ACL_FLOAT)
    ws, ex, _ = acl.nn.add_get_workspace_size(t, t, one, t)
    assert acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    assert acl.nn.add(0, ws, ex, stream) == 0
    model, ret = acl.mdl.ri_capture_end(stream)
    assert ret == 0
    assert acl.mdl.ri_execute_async(model, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.free(dev) == 0
    _refused(acl, acl.mdl.ri_execute_async(model, stream), C.ACL_ERROR_RT_MODEL_EXECUTE,
             hex(dev), "aclmdlRIDestroy")
    assert len(calls(log, "aclmdlRIExecuteAsync")) == 1
    assert acl.mdl.ri_destroy(model) == 0
    _refused(acl, acl.mdl.ri_destroy(model), C.ACL_ERROR_RT_INVALID_HANDLE, "not a live model")
    _refused(acl, acl.mdl.ri_execute(0xBAD00, 100), C.ACL_ERROR_RT_INVALID_HANDLE)
    _refused(acl, acl.mdl.ri_capture_task_update_begin(stream, 0xBAD40),
             C.ACL_ERROR_RT_INVALID_HANDLE, "task group")
    assert len(calls(log, "aclmdlRIDestroy")) == 1 and calls(log, "aclmdlRIExecute") == []


def test_a_stream_the_guard_never_saw_is_not_passed_to_the_runtime(acl, log):
    stream, _ = acl.rt.create_stream()
    assert acl.rt.destroy_stream(stream) == 0
    _refused(acl, acl.mdl.ri_capture_begin(stream, 0), C.ACL_ERROR_RT_INVALID_HANDLE,
             "not a live stream", hex(stream))                  # destroyed
    assert acl.mdl.ri_capture_end(stream) == (0, C.ACL_ERROR_RT_INVALID_HANDLE)
    _refused(acl, acl.mdl.ri_capture_task_grp_begin(0xF00D00), C.ACL_ERROR_RT_INVALID_HANDLE,
             "0xf00d00")                                         # never created
    _refused(acl, acl.nn.add(0, 0, 0, 0x5EED00), C.ACL_ERROR_RT_INVALID_HANDLE, "0x5eed00")
    assert calls(log) == []


def test_the_snapshot_lists_captured_models_and_their_replays(acl):
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(64, 0)
    assert acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    assert acl.rt.memset_async(dev, 64, 1, 64, stream) == 0
    model, _ = acl.mdl.ri_capture_end(stream)
    for _ in range(3):
        assert acl.mdl.ri_execute_async(model, stream) == 0
    row = next(m for m in acl_lab.snapshot()["models"] if m["handle"] == model)
    assert (row["stream"], row["executions"], row["in_flight"], row["tasks"]) == (stream, 3, 3, [])
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl_lab.snapshot()["models"][0]["in_flight"] == 0
    assert mismatches(acl_lab.snapshot()) == []
    assert acl.mdl.ri_destroy(model) == 0
    assert acl_lab.snapshot()["models"] == []


def test_reset_ends_captures_and_destroys_models_tensors_and_scalars(acl, log):
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(32, 0)
    t = _tensor(acl, dev)
    one = acl.nn.create_scalar(1.0, C.ACL_FLOAT)
    assert acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    assert acl.rt.memset_async(dev, 32, 0, 32, stream) == 0
    model, _ = acl.mdl.ri_capture_end(stream)
    assert acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0  # left open
    acl_lab.reset()
    assert [c.name for c in calls(log)][-5:] == [
        "aclmdlRICaptureEnd", "aclmdlRIDestroy", "aclmdlRIDestroy", "aclDestroyTensor",
        "aclDestroyScalar"]
    assert calls(log, "aclmdlRIDestroy")[0].values()["modelRI"] == model
    assert calls(log, "aclDestroyTensor")[0].values()["tensor"] == t
    _refused(acl, acl.nn.destroy_tensor(t), C.ACL_ERROR_INVALID_PARAM)   # gone: not twice


def test_an_int_that_does_not_fit_its_c_type_is_the_calls_code_not_an_exception(acl, log):
    """The simulator answers these lines with a code: so does the guard (the binding's
    OverflowError never reaches the program), and C is never called."""
    stream, _ = acl.rt.create_stream()
    for call, words in ((lambda: acl.mdl.ri_capture_begin(stream, 1 << 40), "mode=1099511627776"),
                        (lambda: acl.mdl.ri_capture_thread_exchange_mode(1 << 33),
                         "32-bit signed")):
        ret = call()
        assert ret in (C.ACL_ERROR_RT_PARAM_INVALID, (0, C.ACL_ERROR_RT_PARAM_INVALID)), ret
        msg = acl.get_recent_err_msg()
        assert words in msg and "does not fit its C type" in msg and "guard stopped" in msg
    assert acl.nn.create_tensor([1 << 70], C.ACL_FLOAT, [1], 0, C.ACL_FORMAT_ND, [1], 0) == 0
    assert "viewDims" in acl.get_recent_err_msg()
    assert not [c for c in calls(log) if c.name in ("aclmdlRICaptureBegin", "aclCreateTensor",
                                                    "aclmdlRICaptureThreadExchangeMode")]
