"""Capture (ACL Graph) and aclnn operators, as chapters 06 and 07 use them.

On hardware these calls go through acl_lab's native bindings (pyACL binds neither). The
seed's sample is the reference: its replays print 1.1, 2.2, ... 8.8 (docs/rules.md#rule-24).
Compared: values after synchronising, return codes of the lawful path, that a refused
call leaves the capture active. Not compared: the code a misuse returns on hardware
without the guard (it only has to fail).
"""
import numpy as np
import pytest

from acl_lab import constants as C

FLOAT = np.dtype(np.float32).num
N = 8


def _tensor(acl, dev):
    return acl.nn.create_tensor([4, 2], C.ACL_FLOAT, [2, 1], 0, C.ACL_FORMAT_ND, [4, 2], dev)


def _seed_sample(acl, stream):
    """Device buffers, tensors and pinned host views of the seed's add sample."""
    nbytes = N * 4
    devs = [acl.rt.malloc(nbytes, C.ACL_MEM_MALLOC_HUGE_FIRST)[0] for _ in range(3)]
    tensors = [_tensor(acl, d) for d in devs]
    hosts = [acl.rt.malloc_host(nbytes)[0] for _ in range(2)]
    views = [acl.util.ptr_to_numpy(h, (N,), FLOAT) for h in hosts]
    views[0][:] = 0.0
    views[1][:] = 1.0
    return devs, tensors, hosts, views


def _release(acl, devs, tensors, hosts, scalars=()):
    for t in tensors:
        assert acl.nn.destroy_tensor(t) == 0
    for x in scalars:
        assert acl.nn.destroy_scalar(x) == 0
    for d in devs:
        assert acl.rt.free(d) == 0
    for h in hosts:
        assert acl.rt.free_host(h) == 0


def test_the_seed_add_sample_replays_to_1_1_through_8_8(acl, run_mode, capturing):
    if run_mode != C.ACL_HOST:
        pytest.skip("the seed's sample copies host <-> device (ACL_HOST run mode)")
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    (self_d, other_d, out_d), tensors, (self_h, other_h), (self_v, _) = _seed_sample(acl, stream)
    alpha = acl.nn.create_scalar(1.1, C.ACL_FLOAT)
    assert tensors[0] and alpha
    ws, executor, ret = acl.nn.add_get_workspace_size(*tensors[:2], alpha, tensors[2])
    assert ret == 0
    workspace = acl.rt.malloc(ws, C.ACL_MEM_MALLOC_HUGE_FIRST)[0] if ws else 0
    nbytes = N * 4
    assert acl.rt.memcpy(other_d, nbytes, other_h, nbytes, C.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    assert acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    assert acl.rt.memcpy_async(self_d, nbytes, self_h, nbytes, C.ACL_MEMCPY_HOST_TO_DEVICE,
                               stream) == 0
    assert acl.nn.add(workspace, ws, executor, stream) == 0
    assert acl.rt.memcpy_async(self_h, nbytes, out_d, nbytes, C.ACL_MEMCPY_DEVICE_TO_HOST,
                               stream) == 0
    status, _, ret = acl.mdl.ri_capture_get_info(stream)
    assert (status, ret) == (C.ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE, 0)
    model, ret = acl.mdl.ri_capture_end(stream)
    assert ret == 0 and model
    printed = []
    for _ in range(8):
        assert acl.mdl.ri_execute_async(model, stream) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        printed.append(float(self_v[0]))
    np.testing.assert_allclose(printed, [1.1 * k for k in range(1, 9)], rtol=1e-5)
    np.testing.assert_allclose(self_v, 8.8, rtol=1e-5)
    assert acl.mdl.ri_destroy(model) == 0
    assert acl.rt.destroy_stream(stream) == 0
    _release(acl, [self_d, other_d, out_d] + ([workspace] if workspace else []), tensors,
             [self_h, other_h], [alpha])


def test_a_refused_call_leaves_the_capture_active(acl, refused, capturing):
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    assert acl.rt.synchronize_stream(stream) != 0                       # no sync in a capture
    assert acl.rt.memset(dev, 64, 0, 64) != 0                           # no sync memset (GLOBAL)
    assert acl.mdl.ri_capture_get_info(stream)[0] == C.ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE
    assert acl.rt.memset_async(dev, 64, 7, 64, stream) == 0
    model, ret = acl.mdl.ri_capture_end(stream)
    assert ret == 0
    assert acl.mdl.ri_capture_get_info(stream)[0] == C.ACL_MODEL_RI_CAPTURE_STATUS_NONE
    assert acl.mdl.ri_destroy(model) == 0
    assert acl.rt.destroy_stream(stream) == 0 and acl.rt.free(dev) == 0


def test_a_model_whose_buffer_was_freed_is_not_replayed(acl, refused, capturing):
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    assert acl.rt.memset_async(dev, 64, 7, 64, stream) == 0
    model, ret = acl.mdl.ri_capture_end(stream)
    assert ret == 0
    assert acl.rt.free(dev) == 0
    refused(acl.mdl.ri_execute_async(model, stream), C.ACL_ERROR_RT_MODEL_EXECUTE)
    assert acl.mdl.ri_destroy(model) == 0
    assert acl.rt.destroy_stream(stream) == 0


def test_an_executor_launches_once(acl, refused):
    """aclnn's two-phase rule: phase two may not be called twice with one executor."""
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(32, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memset(dev, 32, 0, 32) == 0
    t = _tensor(acl, dev)
    one = acl.nn.create_scalar(1.0, C.ACL_FLOAT)
    ws, executor, ret = acl.nn.add_get_workspace_size(t, t, one, t)
    assert ret == 0
    workspace = acl.rt.malloc(ws, C.ACL_MEM_MALLOC_HUGE_FIRST)[0] if ws else 0
    assert acl.nn.add(workspace, ws, executor, stream) == 0
    refused(acl.nn.add(workspace, ws, executor, stream), C.ACLNN_ERR_PARAM_NULLPTR)
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.destroy_stream(stream) == 0
    _release(acl, [dev] + ([workspace] if workspace else []), [t], [], [one])


def test_a_soc_without_acl_graph_refuses_capture_and_keeps_the_stream(acl, refused):
    from acl_lab.spec.socs import captures
    if captures(acl.get_soc_name()):
        pytest.skip(f"{acl.get_soc_name()} captures")
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    refused(acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
            C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.destroy_stream(stream) == 0
