"""MemoryMap (chapter 02) and CopyMap (chapter 03) without a browser: every block shows in
the place and pool it lives in, every copy under the direction its addresses give, with
what it did; the pictures fit and the text stays short."""
import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.widgets import CopyMap, MemoryMap
from simhelpers import fresh
from test_widgets import _overflow, svg_texts

MiB = 1 << 20
H2H, H2D, D2H, D2D = (C.ACL_MEMCPY_HOST_TO_HOST, C.ACL_MEMCPY_HOST_TO_DEVICE,
                      C.ACL_MEMCPY_DEVICE_TO_HOST, C.ACL_MEMCPY_DEVICE_TO_DEVICE)


def _groups(view) -> dict[str, list[tuple[str, int]]]:
    """Group title -> [(api, ptr)] of the blocks the map lists there."""
    m = view.scene
    out = {f"host {title}": [(a["api"], a["ptr"]) for a in blocks]
           for _, title, blocks, _ in m.host_groups()}
    for d in m.devices():
        out.update({f"device {d} {title}": [(a["api"], a["ptr"]) for a in blocks]
                    for _, title, blocks, _ in m.device_groups(d)})
    return out


# ----- MemoryMap ---------------------------------------------------------------------------
def test_each_block_shows_where_it_lives(acl):
    """Chapter 02's blocks: pinned host, pageable host, device pools by page size, DVPP."""
    pinned, _ = acl.rt.malloc_host(512)
    hbm_normal = acl.rt.get_mem_info(C.ACL_HBM_MEM_NORMAL)[0]
    full, _ = acl.rt.malloc(hbm_normal - 32, C.ACL_MEM_MALLOC_NORMAL_ONLY)   # HBM normal full
    small, _ = acl.rt.malloc(512, C.ACL_MEM_MALLOC_HUGE_FIRST)       # so: DDR normal pages
    big, _ = acl.rt.malloc(3 * MiB, C.ACL_MEM_MALLOC_HUGE_FIRST)
    dvpp, _ = acl.media.dvpp_malloc(512)
    samples = np.zeros(512, dtype=np.uint8)
    pageable = acl.util.numpy_to_ptr(samples)
    acl_lab.name(small, "weights")
    view = MemoryMap()
    assert _groups(view) == {
        "host pinned (page-locked): malloc_host": [("malloc_host", pinned)],
        "host pageable: numpy arrays, bytes": [("numpy", pageable)],
        "device 0 HBM huge pages": [("malloc", big)],
        "device 0 HBM normal pages": [("malloc", full)],
        "device 0 DDR huge pages": [],
        "device 0 DDR normal pages": [("malloc", small), ("dvpp_malloc", dvpp)],
    }
    texts = svg_texts(view.svg())
    assert f"weights: malloc 512 B, takes 544 B at 0x{small:x}" in texts   # acl_lab.name
    assert f"malloc_host 512 B at 0x{pinned:x}" in texts
    # a huge-page block holds whole 2 MiB pages (the runtime FAQ: 1 KB HUGE_ONLY takes 2 MB)
    assert f"malloc 3.0 MiB, takes 3.0 MiB, occupies 4.0 MiB (whole huge pages) at 0x{big:x}" \
        in texts
    assert {"Host", "Device 0", "HBM huge pages", "DVPP memory (128-byte starts)"} <= set(texts)
    assert repr(view) == ("MemoryMap: 6 blocks: pinned 1 (512 B), pageable 1 (512 B), "
                          "device 3 (4.0 GiB), DVPP 1 (512 B)")
    assert _overflow(view.svg()) == []


def test_in_device_run_mode_host_memory_is_device_memory():
    acl = fresh("200dk")
    board, _ = acl.rt.malloc_host(64)
    view = MemoryMap()
    groups = _groups(view)
    assert not [g for g in groups if g.startswith("host pinned")]
    assert [g for g, blocks in groups.items() if ("malloc_host", board) in blocks
            and g.startswith("device 0")]
    assert "ACL_DEVICE: no host memory of its own, malloc_host returns device memory" \
        in svg_texts(view.svg())
    acl_lab.reset("910b")


def test_the_map_keeps_its_look_until_refreshed(acl):
    ptr, _ = acl.rt.malloc(4096, C.ACL_MEM_MALLOC_HUGE_FIRST)
    view = MemoryMap()
    shown, text = view.picture.value, repr(view)
    assert acl.rt.free(ptr) == 0
    assert (view.picture.value, repr(view)) == (shown, text)
    view.refresh_button.click()
    assert repr(view) == "MemoryMap: 0 blocks" and view.picture.value != shown


def test_a_map_before_init_says_what_to_call(bare_acl):
    view = MemoryMap()
    assert "no device open: call acl.init()" in view.picture.value
    assert repr(view).startswith("MemoryMap: no device open")


# ----- CopyMap -----------------------------------------------------------------------------
@pytest.fixture
def buffers(acl):
    host, _ = acl.rt.malloc_host(4096)
    host2, _ = acl.rt.malloc_host(4096)
    dev, _ = acl.rt.malloc(4096, C.ACL_MEM_MALLOC_HUGE_FIRST)
    dev2, _ = acl.rt.malloc(4096, C.ACL_MEM_MALLOC_HUGE_FIRST)
    return host, host2, dev, dev2


def test_each_copy_goes_under_its_direction_with_what_it_did(acl, buffers, stream):
    """Chapter 03's four directions, a wrong kind, an async copy on a stream and one that
    pageable memory turned synchronous."""
    host, host2, dev, dev2 = buffers
    array = np.zeros(4096, dtype=np.uint8)
    pageable = acl.util.numpy_to_ptr(array)
    assert acl.rt.memcpy(dev, 4096, host, 4096, H2D) == 0
    assert acl.rt.memcpy(dev2, 4096, dev, 4096, D2D) == 0
    assert acl.rt.memcpy(host2, 4096, dev2, 4096, D2H) == 0
    assert acl.rt.memcpy(pageable, 4096, host2, 4096, H2H) == 0
    assert acl.rt.memcpy(dev, 4096, host, 4096, D2H) == 0                 # kind is wrong
    assert acl.rt.memcpy_async(host2, 4096, dev, 4096, D2H, stream) == 0  # on the stream
    assert acl.rt.memcpy_async(pageable, 4096, dev, 4096, D2H, stream) == 0   # made sync
    assert acl.rt.memcpy(dev, 4096, host, 8192, H2D) != 0                # refused: no copy
    view = CopyMap()
    m = view.scene
    assert [(c.direction, c.declared, c.mode, c.src, c.dst) for c in m.copies] == [
        ("H2D", "H2D", "sync", "pinned", "device"),
        ("D2D", "D2D", "sync", "device", "device"),
        ("D2H", "D2H", "sync", "device", "pinned"),
        ("H2H", "H2H", "sync", "pinned", "pageable"),
        ("H2D", "D2H", "sync", "pinned", "device"),
        ("D2H", "D2H", "async", "device", "pinned"),
        ("D2H", "D2H", "async_sync", "device", "pageable"),
    ]
    task = next(c.task for c in acl_lab.tracer().calls if c.name == "rt.memcpy_async")
    assert (m.copies[5].stream, m.copies[5].start_us, m.copies[5].end_us) == \
        (stream, task["start_us"], task["end_us"])
    assert m.direction_lines("H2D") == [
        "H2D: 2 copies, 8192 B", "2 sync · host memory: 2 pinned",
        "modeled " + f"{sum(c.end_us - c.start_us for c in m.copies if c.direction == 'H2D'):,.1f}"
        " µs in all"]
    assert m.direction_lines("D2H")[1] == ("1 sync, 1 async, 1 async turned sync · host "
                                           "memory: 2 pinned, 1 pageable")
    texts = svg_texts(view.svg())
    assert any(t.startswith("#") and "H2D (kind said D2H) 4096 B · sync" in t for t in texts)
    assert any(f"async · device → pinned · on 0x{stream:x}" in t for t in texts)
    assert any("async turned sync · device → pageable · host waited" in t for t in texts)
    assert repr(view) == "CopyMap: 7 copies, 28.0 KiB (H2H 1, H2D 2, D2H 3, D2D 1)"
    assert _overflow(view.svg()) == []


def test_since_and_freeze(acl, buffers):
    host, _, dev, _ = buffers
    assert acl.rt.memcpy(dev, 4096, host, 4096, H2D) == 0
    now = acl_lab.snapshot()["now_us"]
    assert acl.rt.memcpy(host, 4096, dev, 4096, D2H) == 0
    view = CopyMap(since_us=now)
    assert [c.direction for c in view.scene.copies] == ["D2H"]
    shown = view.picture.value
    assert acl.rt.memcpy(host, 4096, dev, 4096, D2H) == 0
    assert view.picture.value == shown                        # as of its cell
    view.refresh_button.click()
    assert len(view.scene.copies) == 2


def test_a_copy_through_a_freed_pointer_follows_its_kind(acl, buffers):
    host, _, dev, dev2 = buffers
    assert acl.rt.memcpy(dev2, 4096, host, 4096, H2D) == 0
    assert acl.rt.free(dev2) == 0
    view = CopyMap()
    (copy,) = view.scene.copies
    assert (copy.direction, copy.dst, copy.as_declared) == ("H2D", None, True)
    assert any("(as kind said: an address is gone)" in t for t in svg_texts(view.svg()))


def test_no_copy_yet(acl):
    view = CopyMap()
    assert repr(view).startswith("CopyMap: no copy yet")
    assert "no copy yet" in view.picture.value


def test_maps_load_lazily_and_never_import_the_simulator():
    import subprocess
    import sys
    code = ("import sys, acl_lab.widgets.memory_map, acl_lab.widgets.copy_map\n"
            "assert not [m for m in sys.modules if m.startswith('acl_lab.sim')]\n")
    subprocess.run([sys.executable, "-c", code], check=True)
