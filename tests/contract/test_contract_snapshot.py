"""acl_lab.snapshot(), which the widgets draw (chapters 02, 04, 05). Compared: which
allocations are live, their sizes and kinds, and that memory in use grows by at least what
was allocated. Not compared: pool names, bases and exact figures."""
import acl_lab
from acl_lab import constants as C

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
