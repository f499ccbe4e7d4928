"""Task groups and model update: aclmdlRICaptureTaskGrpBegin/End record a group of operator
tasks into a model; aclmdlRICaptureTaskUpdateBegin/End on another stream replace them
(hicann/runtime src/runtime/feature/aclgraph/context_aclgraph.cc: Context::
StreamBeginTaskGrp, StreamEndTaskGrp, StreamBeginTaskUpdate, StreamEndTaskUpdate;
src/runtime/core/src/stream/stream.cc: Stream::PackingTaskGroup, Stream::UpdateTask)."""
from __future__ import annotations

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.spec.snapshot_schema import mismatches
from simhelpers import read, tensor

GLOBAL = C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL
STATUS = C.ACL_ERROR_STREAM_TASK_GROUP_STATUS


@pytest.fixture
def streams(acl):
    return acl.rt.create_stream()[0], acl.rt.create_stream()[0]


@pytest.fixture
def add(acl):
    """``add(alpha)`` -> (workspace_size, executor) of out = x + alpha * x over 8 floats."""
    x, ret = acl.rt.malloc(32, C.ACL_MEM_MALLOC_HUGE_FIRST)
    out, ret2 = acl.rt.malloc(32, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == ret2 == 0
    ones = np.ones(8, np.float32)
    assert acl.rt.memcpy(x, 32, acl.util.numpy_to_ptr(ones), 32, C.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    xt, ot = tensor(acl, x, (8,), C.ACL_FLOAT), tensor(acl, out, (8,), C.ACL_FLOAT)

    def make(alpha: float):
        ws, ex, r = acl.nn.add_get_workspace_size(xt, xt, acl.nn.create_scalar(alpha, C.ACL_FLOAT),
                                                  ot)
        assert r == 0
        return ws, ex
    make.out = out
    return make


def grouped_model(acl, stream, add, alpha=1.0):
    assert acl.mdl.ri_capture_begin(stream, GLOBAL) == 0
    assert acl.mdl.ri_capture_task_grp_begin(stream) == 0
    ws, ex = add(alpha)
    assert acl.nn.add(0, ws, ex, stream) == 0
    handle, ret = acl.mdl.ri_capture_task_grp_end(stream)
    assert ret == 0 and handle
    model, ret = acl.mdl.ri_capture_end(stream)
    assert ret == 0
    return model, handle


def out_values(acl, add) -> list[float]:
    return np.frombuffer(read(acl, add.out, 32), np.float32).tolist()


def test_update_replaces_the_grouped_operator_for_later_replays(acl, streams, add):
    stream, updater = streams
    model, handle = grouped_model(acl, stream, add, alpha=1.0)
    assert acl.mdl.ri_execute(model, -1) == 0
    assert out_values(acl, add) == [2.0] * 8
    assert acl.mdl.ri_capture_task_update_begin(updater, handle) == 0
    ws, ex = add(3.0)
    assert acl.nn.add(0, ws, ex, updater) == 0
    assert acl.mdl.ri_capture_task_update_end(updater) == 0
    assert acl.rt.synchronize_stream(updater) == 0            # the update task has run
    assert acl.mdl.ri_execute(model, -1) == 0
    assert out_values(acl, add) == [4.0] * 8
    assert acl_lab.snapshot()["models"][0]["tasks"][0]["updated"] is True
    assert not mismatches(acl_lab.snapshot())       # an updated operator task: schema rows


def test_group_begin_on_a_stream_not_capturing_fails(acl, streams):
    assert acl.mdl.ri_capture_task_grp_begin(streams[0]) == C.ACL_ERROR_RT_STREAM_NOT_CAPTURED


def test_group_begin_twice_is_a_status_error(acl, streams):
    assert acl.mdl.ri_capture_begin(streams[0], GLOBAL) == 0
    assert acl.mdl.ri_capture_task_grp_begin(streams[0]) == 0
    assert acl.mdl.ri_capture_task_grp_begin(streams[0]) == STATUS


def test_group_end_without_begin_is_a_status_error(acl, streams):
    assert acl.mdl.ri_capture_begin(streams[0], GLOBAL) == 0
    assert acl.mdl.ri_capture_task_grp_end(streams[0]) == (0, STATUS)


def test_only_operators_join_a_group(acl, streams):
    """Stream::PackingTaskGroup: other tasks -> RT_ERROR_TASK_NOT_SUPPORT (507009), and the
    group's end reports it with a NULL handle."""
    stream = streams[0]
    buf, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.mdl.ri_capture_begin(stream, GLOBAL) == 0
    assert acl.mdl.ri_capture_task_grp_begin(stream) == 0
    assert acl.rt.memset_async(buf, 64, 0, 64, stream) == C.ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT
    assert acl.mdl.ri_capture_task_grp_end(stream) == (0, C.ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT)
    assert acl.mdl.ri_capture_end(stream)[1] == 0


def test_capture_end_with_a_group_open_fails_and_destroys_the_model(acl, streams):
    """Context::CheckCaptureModelValidity: an open group -> RT_ERROR_STREAM_TASKGRP_STATUS."""
    stream = streams[0]
    assert acl.mdl.ri_capture_begin(stream, GLOBAL) == 0
    assert acl.mdl.ri_capture_task_grp_begin(stream) == 0
    assert acl.mdl.ri_capture_end(stream) == (0, STATUS)
    assert not acl_lab.snapshot()["models"]
    assert acl.mdl.ri_capture_task_grp_begin(stream) == C.ACL_ERROR_RT_STREAM_NOT_CAPTURED


def test_update_with_a_handle_that_is_not_a_group(acl, streams):
    assert acl.mdl.ri_capture_task_update_begin(streams[1], 0) == C.ACL_ERROR_INVALID_PARAM
    assert acl.mdl.ri_capture_task_update_begin(streams[1], 0x1234) == \
        C.ACL_ERROR_RT_INVALID_HANDLE
    assert acl.mdl.ri_capture_task_update_begin(0, 0x1234) == C.ACL_ERROR_INVALID_PARAM


def test_update_must_replace_every_task_of_the_group(acl, streams, add):
    """Context::StreamEndTaskUpdate: fewer launches than tasks -> RT_ERROR_STREAM_TASKGRP_UPDATE
    (ACL_ERROR_RT_INTERNAL_ERROR); Stream::UpdateTask: one too many likewise."""
    stream, updater = streams
    _model, handle = grouped_model(acl, stream, add)
    assert acl.mdl.ri_capture_task_update_begin(updater, handle) == 0
    assert acl.mdl.ri_capture_task_update_end(updater) == C.ACL_ERROR_RT_INTERNAL_ERROR
    assert acl.mdl.ri_capture_task_update_begin(updater, handle) == 0
    for expected in (0, C.ACL_ERROR_RT_INTERNAL_ERROR):
        ws, ex = add(2.0)
        assert acl.nn.add(0, ws, ex, updater) == expected
    assert acl.mdl.ri_capture_task_update_end(updater) == 0


def test_one_group_is_updated_by_one_stream_at_a_time(acl, streams, add):
    stream, updater = streams
    _model, handle = grouped_model(acl, stream, add)
    assert acl.mdl.ri_capture_task_update_begin(updater, handle) == 0
    assert acl.mdl.ri_capture_task_update_begin(stream, handle) == STATUS
    assert acl.mdl.ri_capture_task_update_end(stream) == STATUS


def test_destroying_the_model_forgets_its_groups(acl, streams, add):
    stream, updater = streams
    model, handle = grouped_model(acl, stream, add)
    assert acl.mdl.ri_destroy(model) == 0
    assert acl.mdl.ri_capture_task_update_begin(updater, handle) == C.ACL_ERROR_RT_INVALID_HANDLE
