"""VirtualMemoryView (chapter 10) without a browser: each reserved range with its mapped
granules, one letter per piece of physical memory wherever it is mapped (one handle mapped
twice shows its letter twice), deferred frees and exports named; the view keeps the moment
of its cell; in Chinese every word comes from the catalog and fits."""
import acl_lab
from acl_lab import constants as C
from acl_lab.widgets import VirtualMemoryView
from test_widgets import _overflow, svg_texts
from test_widgets_zh_CN import assert_chinese, chinese  # noqa: F401 - the fixture

G = 2 << 20
PROP = {"handleType": 0, "allocationType": 0, "memAttr": C.ACL_HBM_MEM_HUGE,
        "location": {"id": 0, "type": C.ACL_MEM_LOCATION_TYPE_DEVICE}, "reserve": 0}


def _segments(acl):
    """A 16-granule range with A and B mapped, a second range mapping A again, C freed while
    mapped, B exported."""
    va, _ = acl.rt.reserve_mem_address(16 * G, 0, 0, 0)
    va2, _ = acl.rt.reserve_mem_address(4 * G, 0, 0, 0)
    a, b, c = (acl.rt.malloc_physical(G, PROP, 0)[0] for _ in range(3))
    for at, h in ((va, a), (va + G, b), (va2 + G, a), (va + 5 * G, c)):
        assert acl.rt.map_mem(at, G, 0, h, 0) == 0
    assert acl.rt.free_physical(c) == 0
    shareable, ret = acl.rt.mem_export_to_shareable_handle(b, 0, 0)
    assert ret == 0
    return va, va2, (a, b, c), shareable


def test_ranges_letters_shared_handles_and_deferred_frees(acl):
    va, va2, (a, b, c), shareable = _segments(acl)
    view = VirtualMemoryView()
    texts = svg_texts(view.svg())
    assert [t for t in texts if t in "ABC"] == ["A", "B", "C", "A"]     # A mapped twice
    lines = [t for t in texts if t[:3] in ("A: ", "B: ", "C: ")]
    assert lines[0].endswith(f"mapped at 0x{va:x}, 0x{va2 + G:x}; shared")
    assert f"exported as 0x{shareable:x}" in lines[1]
    assert lines[2].endswith("freed: its pages go at the last unmap")
    assert f"0x{va:x}" in texts and "32.0 MiB" in texts
    assert repr(view) == ("VirtualMemoryView: 2 range(s), 4 mapping(s), 3 physical (6.0 MiB), "
                          "1 deferred free(s)")
    assert _overflow(view.svg()) == []


def test_the_view_keeps_its_moment_until_refreshed(acl):
    va, _va2, (a, b, c), _s = _segments(acl)
    view = VirtualMemoryView()
    shown = view.svg()
    assert acl.rt.unmap_mem(va + 5 * G) == 0            # C's pages go now
    assert view.svg() == shown and "1 deferred free(s)" in repr(view)
    view.refresh()
    assert "0 deferred free(s)" in repr(view) and "2 physical" in repr(view)
    acl_lab.reset()
    view.refresh()
    assert "shown as last seen" in repr(view) and "2 physical" in repr(view)


def test_an_empty_view_says_what_to_call(acl):
    assert "acl.rt.reserve_mem_address" in " ".join(svg_texts(VirtualMemoryView().svg()))


def test_the_view_in_chinese(chinese, acl):  # noqa: F811 - the fixture
    _segments(acl)
    view = VirtualMemoryView()
    assert_chinese(view, "虚拟内存：预留的地址范围", "已预留，未映射", "共享",
                   "已释放：最后一次取消映射时内存页才归还", "VirtualMemoryView：2 段地址范围")


def test_a_mapping_without_access_is_faded_until_granted(acl):
    va, _ = acl.rt.reserve_mem_address(2 * G, 0, 0, 0)
    h, _ = acl.rt.malloc_physical(G, PROP, 0)
    assert acl.rt.mem_map_no_access(va + G, G, 0, h, 0) == 0
    view = VirtualMemoryView()
    svg = view.svg()
    assert 'fill-opacity="0.3"' in svg and "no access yet" in svg
    assert "faded: mapped without access (mem_map_no_access)" in svg_texts(svg)
    assert _overflow(svg) == []
    desc = [{"flags": C.ACL_RT_MEM_ACCESS_FLAGS_READWRITE,
             "location": {"id": 0, "type": C.ACL_MEM_LOCATION_TYPE_DEVICE}}]
    assert acl.rt.mem_set_access(va + G, G, desc) == 0
    assert view.svg() == svg                             # the moment of its cell
    view.refresh()
    assert "fill-opacity" not in view.svg() and "no access yet" not in view.svg()
