"""The freeze rule, driven through a real IPython shell so post-cell hooks fire: a view shows
the state of the moment its cell ran. Later cells that free, close, destroy, finalize or
reset leave its picture and its repr as they were; only its own controls, ``refresh()`` or
``live=True`` look again, and a look that finds the subject gone keeps the last picture and
says "shown as last seen"."""
import pytest

import acl_lab

SETUP = """
import acl_lab
from acl_lab.constants import *
from acl_lab.pool import MemoryPool
from acl_lab.widgets import AlignmentExplorer, CaptureGraph, MemoryGauge, PoolView, StreamTimeline
from acl_lab.widgets import CopyMap, MemoryMap, VirtualMemoryView
acl_lab.reset("910b")
acl = acl_lab.load()
acl_lab.check(acl.init())
acl_lab.check(acl.rt.set_device(0))
pool = MemoryPool(acl, 4096)
a = pool.alloc(100, name="images")
stream, _ = acl.rt.create_stream()
acl_lab.name(stream, "copy")
dev, _ = acl.rt.malloc(4096, ACL_MEM_MALLOC_HUGE_FIRST)
host, _ = acl.rt.malloc_host(4096)
acl_lab.check(acl.rt.memcpy(dev, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE))
acl_lab.check(acl.mdl.ri_capture_begin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL))
acl_lab.check(acl.rt.memset_async(dev, 4096, 1, 4096, stream))
model, _ = acl.mdl.ri_capture_end(stream)
for _ in range(4):
    acl_lab.check(acl.mdl.ri_execute_async(model, stream))
acl_lab.check(acl.rt.synchronize_stream(stream))
"""
VIEWS = {
    "PoolView": "PoolView(pool)",
    "MemoryGauge": "MemoryGauge(acl)",
    "StreamTimeline": "StreamTimeline()",
    "CaptureGraph": "CaptureGraph(model)",
    "AlignmentExplorer": "AlignmentExplorer(100, 64)",
    "MemoryMap": "MemoryMap()",
    "CopyMap": "CopyMap()",
    "VirtualMemoryView": "VirtualMemoryView()",
}
# What later cells of a chapter do: undo the work, close the pool, tear everything down.
LATER = [
    "pool.free(a)\nacl_lab.check(acl.mdl.ri_execute_async(model, stream))",
    "pool.close()\nacl_lab.check(acl.mdl.ri_destroy(model))",
    "acl_lab.check(acl.rt.destroy_stream(stream))\nacl_lab.check(acl.rt.free(dev))\n"
    "acl_lab.check(acl.rt.free_host(host))\n"
    "acl_lab.check(acl.rt.reset_device(0))\nacl_lab.check(acl.finalize())",
    "acl_lab.reset()",
]


def run(shell, code: str):
    result = shell.run_cell(code)
    assert result.success, result.error_in_exec or result.error_before_exec
    return result.result


@pytest.fixture
def lab(shell):
    run(shell, SETUP)
    yield shell
    acl_lab.reset()


@pytest.mark.parametrize("name", VIEWS)
def test_a_view_keeps_the_state_of_its_cell_through_later_cells(lab, name):
    view = run(lab, f"view = {VIEWS[name]}\nview")
    text, picture, bundle = repr(view), view.picture.value, view._repr_mimebundle_()
    assert "shown as last seen" not in text and "no device open" not in text
    for cell in LATER:
        run(lab, cell)
        assert repr(view) == text, f"after {cell!r}"
        assert view.picture.value == picture, f"after {cell!r}"
    assert view._repr_mimebundle_()["image/svg+xml"] == bundle["image/svg+xml"]
    assert view._repr_mimebundle_()["text/plain"] == bundle["text/plain"]


def test_a_frozen_pool_view_acts_then_shows_what_is_gone(lab):
    view = run(lab, "view = PoolView(pool)\nview")
    run(lab, "pool.free(a)\npool.close()")
    assert not view.alloc_button.disabled                     # it has not looked yet
    view.alloc_button.click()                                 # acting looks again
    assert "closed" in view.status.value
    assert view.alloc_button.disabled and view.free_button.disabled
    assert "images" in view.picture.value and "shown as last seen" in view.picture.value
    assert "shown as last seen" in repr(view)


def test_refresh_looks_again(lab):
    view = run(lab, "view = StreamTimeline()\nview")
    before = len(view.scene.tasks)
    run(lab, "acl_lab.check(acl.rt.memset_async(dev, 4096, 2, 4096, stream))")
    assert len(view.scene.tasks) == before
    view.refresh()
    assert len(view.scene.tasks) == before + 1


@pytest.mark.parametrize("name, gone", [
    ("PoolView", "pool.free(a)\npool.close()"),
    ("MemoryGauge", "acl_lab.check(acl.rt.reset_device(0))"),
    ("StreamTimeline", "acl_lab.reset()"),
    ("CaptureGraph", "acl_lab.check(acl.mdl.ri_destroy(model))"),
    ("MemoryMap", "acl_lab.check(acl.rt.reset_device(0))\nacl_lab.check(acl.finalize())"),
    ("CopyMap", "acl_lab.reset()"),
])
def test_a_live_view_of_something_gone_keeps_its_last_picture(lab, name, gone):
    made = VIEWS[name][:-1] + ("live=True)" if VIEWS[name].endswith("()") else ", live=True)")
    view = run(lab, f"view = {made}\nview")
    shown = view.picture.value
    run(lab, "acl_lab.check(acl.rt.memset_async(dev, 4096, 3, 4096, stream))")
    run(lab, gone)
    assert "shown as last seen" in view.picture.value and "shown as last seen" in repr(view)
    for word in ("no device open:", "no task on", "is not a captured model"):
        assert word not in view.picture.value
    if name not in ("StreamTimeline", "CopyMap"):   # they saw the memset move on, or no
        # change at all (a memset is no copy)
        assert view.picture.value != shown
    view.close()


def test_a_live_view_follows_cells(lab):
    view = run(lab, "view = PoolView(pool, live=True)\nview")
    run(lab, "b = pool.alloc(300, name='labels')")
    assert "labels" in view.picture.value and "2 segments" in repr(view)
    view.close()
    run(lab, "pool.alloc(10, name='after')")                  # closed: no longer follows
    assert "after" not in view.picture.value
