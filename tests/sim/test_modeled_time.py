"""Modeled time a learner can trust: a small copy costs microseconds, every task pays the
profile's fixed costs plus its bytes at the bandwidth of its direction, and the trace, the
snapshot's timeline, the events, the stream timeline and the capture debug JSON all tell
the same durations."""
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import acl_lab
from acl_lab import constants as C
from acl_lab.sim.profiles import PROFILES
from acl_lab.widgets import StreamTimeline

H2D, D2H, D2D = C.ACL_MEMCPY_HOST_TO_DEVICE, C.ACL_MEMCPY_DEVICE_TO_HOST, \
    C.ACL_MEMCPY_DEVICE_TO_DEVICE
GLOBAL = C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL


@pytest.fixture
def work(acl):
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(1 << 20, C.ACL_MEM_MALLOC_HUGE_FIRST)
    dev2, _ = acl.rt.malloc(1 << 20, C.ACL_MEM_MALLOC_HUGE_FIRST)
    host, _ = acl.rt.malloc_host(1 << 20)
    return stream, dev, dev2, host


def last_task():
    return acl_lab.snapshot()["timeline"][-1]


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_a_32_byte_copy_costs_microseconds_on_every_profile(acl_on, profile):
    acl = acl_on(profile)
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    block, _ = acl.rt.malloc_host(128)
    host = (block + 63) // 64 * 64        # on a board malloc_host promises no alignment
    kind = H2D if acl.rt.get_run_mode()[0] == C.ACL_HOST else D2D
    assert acl.rt.memcpy_async(dev, 64, host, 32, kind, stream) == 0
    task = last_task()
    assert 1.0 <= task["end_us"] - task["start_us"] <= 20.0
    before = acl_lab.snapshot()["now_us"]
    assert acl.rt.memcpy(dev, 64, host, 32, kind) == 0      # the host waits for it all
    assert 2.0 <= acl_lab.snapshot()["now_us"] - before <= 30.0


def test_each_direction_has_its_own_bandwidth(acl, work):
    stream, dev, dev2, host = work
    rates = PROFILES["910b"].rates
    n = 1 << 20
    for dst, src, kind, bandwidth in ((dev, host, H2D, rates.h2d_pinned),
                                      (host, dev, D2H, rates.d2h_pinned),
                                      (dev2, dev, D2D, rates.device / 2)):
        assert acl.rt.memcpy_async(dst, n, src, n, kind, stream) == 0
        task = last_task()
        fixed = rates.dma_setup_us + rates.completion_us
        assert task["end_us"] - task["start_us"] == pytest.approx(fixed + n / bandwidth)
    assert rates.h2d_pinned != rates.d2h_pinned


def test_pageable_memory_is_slower_than_pinned_in_both_directions():
    for rates in (p.rates for p in PROFILES.values()):
        for direction in (H2D, D2H):
            assert rates.copy_us(direction, 1 << 24, pinned=False) > \
                rates.copy_us(direction, 1 << 24, pinned=True)


@settings(max_examples=25, deadline=None)
@given(sizes=st.lists(st.integers(1, 1 << 20), min_size=1, max_size=6))
def test_trace_timeline_events_and_view_agree(sizes):
    acl_lab.reset("910b")
    acl = acl_lab.load()
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(1 << 20, C.ACL_MEM_MALLOC_HUGE_FIRST)
    host, _ = acl.rt.malloc_host(1 << 20)
    start, end = acl.rt.create_event()[0], acl.rt.create_event()[0]
    assert acl.rt.record_event(start, stream) == 0
    since = acl_lab.snapshot()["now_us"]
    for n in sizes:
        assert acl.rt.memcpy_async(dev, 1 << 20, host, n, H2D, stream) == 0
    assert acl.rt.record_event(end, stream) == 0
    assert acl.rt.synchronize_event(end) == 0
    ms, ret = acl.rt.event_elapsed_time(start, end)
    assert ret == 0

    rates = PROFILES["910b"].rates
    traced = [c.task for c in acl_lab.tracer().calls if c.name == "rt.memcpy_async"]
    timeline = [t for t in acl_lab.snapshot()["timeline"] if t["kind"] == "memcpy"]
    modeled = [rates.copy_us(H2D, n, pinned=True) for n in sizes]
    assert [t["end_us"] - t["start_us"] for t in traced] == pytest.approx(modeled)
    assert [(t["start_us"], t["end_us"]) for t in timeline] == \
        [(t["start_us"], t["end_us"]) for t in traced]
    # the events span the copies: the end record passes once the last copy ends (or once
    # the host has launched it, whichever is later)
    records = {e["handle"]: e["recorded_at_us"] for e in acl_lab.snapshot()["events"]}
    launched = next(c.end_us for c in reversed(acl_lab.tracer().calls)
                    if c.name == "rt.record_event")
    assert records[end] == max(traced[-1]["end_us"], launched)
    assert ms * 1000 == pytest.approx(records[end] - records[start])
    view = StreamTimeline(since_us=since)
    lane = next(row for row in view.scene.streams() if row[0] == stream)
    assert lane[2] == pytest.approx(sum(modeled))
    acl_lab.reset()


def test_debug_json_and_replay_agree_with_the_recorded_tasks(acl, work, tmp_path):
    stream, dev, dev2, host = work
    assert acl.mdl.ri_capture_begin(stream, GLOBAL) == 0
    assert acl.rt.memcpy_async(dev, 4096, host, 4096, H2D, stream) == 0
    assert acl.rt.memset_async(dev2, 4096, 7, 1024, stream) == 0
    assert acl.rt.memcpy_async(host, 4096, dev, 32, D2H, stream) == 0
    model, ret = acl.mdl.ri_capture_end(stream)
    assert ret == 0
    recorded = next(m for m in acl_lab.snapshot()["models"] if m["handle"] == model)["tasks"]

    path = tmp_path / "model.json"
    assert acl.mdl.ri_debug_json_print(model, str(path),
                                       C.ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY) == 0
    entries = json.loads(path.read_text())
    assert [e["dur"] for e in entries] == \
        pytest.approx([t["duration_us"] for t in recorded], abs=1e-3)   # JSON keeps 3 decimals
    # the same copy issued eagerly takes as long as it does in the model
    assert acl.rt.memcpy_async(host, 4096, dev, 32, D2H, stream) == 0
    assert last_task()["end_us"] - last_task()["start_us"] == \
        pytest.approx(recorded[-1]["duration_us"])

    start, end = acl.rt.create_event()[0], acl.rt.create_event()[0]
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.record_event(start, stream) == 0
    assert acl.mdl.ri_execute_async(model, stream) == 0
    replay = last_task()
    assert acl.rt.record_event(end, stream) == 0
    assert acl.rt.synchronize_event(end) == 0
    ms, ret = acl.rt.event_elapsed_time(start, end)
    assert ret == 0
    overhead = PROFILES["910b"].rates.replay_task_us
    replay_us = replay["end_us"] - replay["start_us"]
    # the JSON lays the tasks out inside one replay: the last one ends where the replay does
    assert entries[-1]["ts"] + entries[-1]["dur"] + overhead == pytest.approx(replay_us, abs=1e-2)
    assert ms * 1000 >= replay_us
