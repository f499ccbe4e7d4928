"""acl_lab.snapshot(), which the widgets draw (chapters 02, 04, 05). Compared: which
allocations are live, their sizes and kinds, and that memory in use grows by at least what
was allocated. Not compared: pool names, bases and exact figures."""
import numpy as np

import acl_lab
from acl_lab import constants as C
from acl_lab.spec.snapshot_schema import mismatches
from modelhelpers import convert

MiB = 1 << 20


def _live(snapshot):
    return {a["ptr"]: a for a in snapshot["allocations"]}


def _used_on_device_0(snapshot):
    return sum(p["used"] for p in snapshot["pools"] if p["device"] == 0)


def test_snapshot_lists_what_is_allocated_until_it_is_freed(acl):
    dev, _ = acl.rt.malloc(1000, C.ACL_MEM_MALLOC_HUGE_FIRST)
    host, _ = acl.rt.malloc_host(1000)
    live = _live(acl_lab.snapshot())
    assert (live[dev]["size"], live[dev]["api"], live[dev]["location"]) == (
        1000, "malloc", "device")
    assert (live[host]["size"], live[host]["api"]) == (1000, "malloc_host")
    assert live[dev]["footprint"] >= 1000
    acl.rt.free(dev)
    assert dev not in _live(acl_lab.snapshot()) and host in _live(acl_lab.snapshot())


def test_snapshot_pools_show_device_memory_in_use(acl):
    before = _used_on_device_0(acl_lab.snapshot())
    ptr, _ = acl.rt.malloc(64 * MiB, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert _used_on_device_0(acl_lab.snapshot()) - before >= 64 * MiB
    acl.rt.free(ptr)
    snap = acl_lab.snapshot()
    assert snap["run_mode"] in ("ACL_HOST", "ACL_DEVICE")
    assert all(0 <= p["used"] <= p["total"] for p in snap["pools"])


def _matches_the_schema():
    problems = mismatches(acl_lab.snapshot())
    assert not problems, "snapshot() differs from acl_lab/spec/snapshot_schema.py:\n" + "\n".join(
        problems[:20])


def test_snapshot_has_exactly_the_schemas_keys_and_types(acl, target, tmp_path, capturing):
    """Every backend's snapshot has the keys of snapshot_schema.Snapshot and no other, each
    value of its declared type down to the rows: with a device set, with resources of every
    kind live (streams, events, allocations, a registered array, a captured model replayed,
    an offline model), after a device reset that reports a leak, and before aclInit."""
    _matches_the_schema()
    s1, _ = acl.rt.create_stream()
    s2, _ = acl.rt.create_stream()
    plain, _ = acl.rt.create_event()
    fork, _ = acl.rt.create_event_ex_with_flag(C.ACL_EVENT_SYNC)
    join, _ = acl.rt.create_event_ex_with_flag(C.ACL_EVENT_SYNC)
    dev, _ = acl.rt.malloc(4096, C.ACL_MEM_MALLOC_HUGE_FIRST)
    copy, _ = acl.rt.malloc(4096, C.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.malloc_host(4096)
    array = np.zeros(256, np.uint8)
    registered = acl.util.numpy_to_ptr(array)
    assert acl.rt.memset_async(dev, 4096, 1, 4096, s1) == 0
    assert acl.rt.record_event(plain, s1) == 0
    assert acl.rt.memcpy(dev, 256, registered, 256, C.ACL_MEMCPY_DEFAULT) == 0
    if hasattr(acl, "mdl") and hasattr(acl.mdl, "ri_capture_begin"):
        assert acl.mdl.ri_capture_begin(s1, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
        assert acl.rt.memset_async(dev, 4096, 5, 4096, s1) == 0
        assert acl.rt.record_event(fork, s1) == 0
        assert acl.rt.stream_wait_event(s2, fork) == 0
        assert acl.rt.memcpy_async(copy, 4096, dev, 4096, C.ACL_MEMCPY_DEFAULT, s2) == 0
        assert acl.rt.record_event(join, s2) == 0
        assert acl.rt.stream_wait_event(s1, join) == 0
        _matches_the_schema()                                  # a capture in progress
        model, ret = acl.mdl.ri_capture_end(s1)
        assert ret == 0, acl.get_recent_err_msg()
        assert acl.mdl.ri_execute_async(model, s1) == 0
    if target[0] != "ascend":     # a real device loads only models ATC built for it
        soc = acl_lab.snapshot()["soc_name"]
        code, out, om_path = convert(tmp_path, "digits", soc=soc)
        assert code == 0, out
        _model_id, ret = acl.mdl.load_from_file(str(om_path))
        assert ret == 0, acl.get_recent_err_msg()
    _matches_the_schema()
    assert acl.rt.synchronize_device() == 0
    _matches_the_schema()
    assert acl.rt.reset_device(0) == 0              # releases what is left, and says so
    assert acl_lab.snapshot()["reports"]
    _matches_the_schema()
    acl_lab.reset()
    _matches_the_schema()
