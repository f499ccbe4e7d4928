"""The widgets without a browser: drive the controls, check the model and the picture move,
and check what a notebook without a kernel keeps (an SVG and a short text)."""
import base64
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.pool import MemoryPool
from acl_lab.widgets import AlignmentExplorer, CaptureGraph, MemoryGauge, PoolView, StreamTimeline
from acl_lab.widgets import CopyMap, MemoryMap
from simhelpers import fresh, write



def svg_texts(svg: str) -> list[str]:
    """The text of every <text> element of an SVG picture (it must be well-formed XML),
    without the hover text of its <title>."""
    root = ET.fromstring(svg)
    return [(t.text or "") + "".join(c.tail or "" for c in t)
            for t in root.iter("{http://www.w3.org/2000/svg}text")]


@pytest.fixture
def pool(acl):
    p = MemoryPool(acl, 4096)
    yield p
    p.close(force=True)


# ----- PoolView ----------------------------------------------------------------------------
def test_allocate_button_adds_a_segment_and_redraws(pool):
    view = PoolView(pool)
    before = view.picture.value
    view.length.value = 100
    view.alloc_button.click()
    assert pool.stats().segments == 1
    assert view.picture.value != before and view.picture.value.startswith("<svg")
    assert view.segment.value == pool.blocks()[0].start        # the new segment is selected
    assert "m = 160 B = payload 100 + rounding 28 + 32" in view.status.value
    assert any(t.startswith("1 segments") for t in svg_texts(view.picture.value))


def test_segments_are_named_on_the_bars(pool):
    pool.alloc(300, name="labels")
    pool.alloc(1)
    texts = svg_texts(PoolView(pool).svg())
    assert "labels" in texts and "#2" in texts


def test_rule_control_sets_the_start_alignment(pool):
    view = PoolView(pool)
    view.length.value = 1
    view.alloc_button.click()                                 # 64 B at +0
    view.rule.value = "dvpp"
    view.alloc_button.click()
    assert view.scene.selected % 128 == 0 and view.scene.selected == pool.base + 128
    assert [b.kind for b in pool.blocks()[:3]] == ["segment", "free", "segment"]


def test_select_and_free_buttons(pool):
    a, b = pool.alloc(10), pool.alloc(20)
    view = PoolView(pool)
    assert [v for _, v in view.segment.options] == [a, b]
    unselected = view.picture.value
    view.segment.value = b
    assert view.picture.value != unselected                     # the selection is outlined
    assert "segment #2" in view.status.value
    view.free_button.click()
    assert pool.stats().segments == 1
    assert [v for _, v in view.segment.options] == [a]
    assert view.segment.value is None
    view.free_button.click()
    assert "Select a segment" in view.status.value


def test_refusals_show_in_the_view_instead_of_raising(pool, acl):
    view = PoolView(pool)
    view.length.value = 4096                                  # m = 4128 > 4096
    view.alloc_button.click()
    assert "ACL_ERROR_RT_MEMORY_ALLOCATION" in view.status.value
    ptr = pool.alloc(40, name="labels")
    write(acl, ptr, bytes(41))
    view.check_button.click()
    assert "labels" in view.status.value and "guard bytes" in view.status.value


def test_refresh_shows_what_code_did_and_skips_when_unchanged(pool):
    view = PoolView(pool)
    shown = view.picture.value
    view.refresh()
    assert view.picture.value is shown                        # nothing changed: no redraw
    pool.alloc(100)
    view.refresh()
    assert view.picture.value != shown


def test_a_large_pool_says_what_it_widened():
    """A stretch under one pixel is drawn one pixel wide: the picture says so."""
    acl = fresh()
    big = MemoryPool(acl, 1 << 20)
    big.alloc(1)
    big.alloc(600_000)                 # past the middle: the whole pool is drawn to scale
    assert "stretches under 1 px drawn 1 px wide" in PoolView(big).svg()
    big.close(force=True)


def test_a_mostly_empty_pool_is_drawn_sized_to_its_segments():
    """Chapter 07's pool: 6 KiB of segments in 64 KiB was one row of content and seven empty
    rows, its 64-byte alignment gap 6 px wide. Sized to the segments, the gap is visible and
    the free rest is one row that says it is not to scale."""
    import re
    acl = fresh()
    pool = MemoryPool(acl, 65536)
    for n in (1000, 1000, 1000, 1000, 1000):
        pool.alloc(n)
    pool.alloc(1000, rule="dvpp")                  # a 128-byte start: an alignment gap
    svg = PoolView(pool).svg()
    rows = re.findall(r'<text x="64" y="[\d.]+" font-size="9"[^>]*>\+(\d+)</text>', svg)
    assert len(rows) <= 3, rows
    assert "to the end" in svg and "not to scale" in svg
    gaps = re.findall(r'<rect x="[\d.]+" y="[\d.]+" width="([\d.]+)"[^>]*><title>alignment gap'
                      r': (\d+) B', svg)
    widest = max(gaps, key=lambda g: int(g[1]))
    assert int(widest[1]) >= 64 and float(widest[0]) >= 10, gaps     # the dvpp start's gap
    pool.close(force=True)


def test_length_is_not_clamped_the_pool_answers(pool):
    view = PoolView(pool)
    view.length.value = 5000                                  # more than the pool holds
    assert view.scene.length == 5000
    view.alloc_button.click()
    assert "ACL_ERROR_RT_MEMORY_ALLOCATION" in view.status.value


def test_a_closed_pool_keeps_its_last_picture_and_disables_the_controls(pool):
    pool.alloc(100, name="kept")
    view = PoolView(pool)
    pool.free(pool.blocks()[0].start)
    pool.close()
    view.refresh()
    assert view.alloc_button.disabled and view.free_button.disabled and view.length.disabled
    assert "kept" in svg_texts(view.picture.value)            # shown as last seen
    assert "the pool is closed: shown as last seen" in view.picture.value
    assert repr(view) == ("PoolView of a closed 4096 B pool (shown as last seen): 1 segments, "
                          "160 B used, 3936 B free")


# ----- static pictures and text ------------------------------------------------------------
def _replayed_model(acl) -> int:
    """A one-task model (a memset) captured on a new stream and replayed once."""
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    assert acl.rt.memset_async(dev, 64, 0, 64, stream) == 0
    model, _ = acl.mdl.ri_capture_end(stream)
    assert acl.mdl.ri_execute_async(model, stream) == 0
    return model


def test_bytes_skipped_to_align_a_start_are_drawn_as_a_gap(pool):
    """The walkthrough (07 cell 24): the 96 B skipped to give a dvpp segment its 128-byte
    start were drawn in the free colour, though the chapter calls them a gap."""
    import xml.etree.ElementTree as ET
    from acl_lab.widgets._svg import COLORS
    pool.alloc(100)                                           # m = 160: ends at +160
    scratch = pool.alloc(300, name="scratch", rule="dvpp")    # starts at +256
    assert scratch - pool.base == 256
    assert [(b.start - pool.base, b.kind) for b in pool.blocks()[:2]] == [(0, "segment"),
                                                                           (160, "free")]
    def gaps(svg: str) -> list:                                # not the legend's swatch
        return [r for r in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}rect")
                if r.get("fill") == COLORS["gap"] and len(r)]
    svg = PoolView(pool).svg()
    assert len(gaps(svg)) == 1
    assert "alignment gap: 96 B at +0xa0, skipped to start scratch on a multiple of 128 " \
           "(still free)" in ET.tostring(gaps(svg)[0], encoding="unicode")
    pool.free(scratch)                                        # a hole after a free is free
    assert gaps(PoolView(pool).svg()) == []


@pytest.mark.parametrize("make", [
    lambda acl: PoolView(MemoryPool(acl, 4096)),
    lambda acl: AlignmentExplorer(),
    lambda acl: MemoryGauge(acl),
    lambda acl: StreamTimeline(),
    lambda acl: CaptureGraph(_replayed_model(acl)),
    lambda acl: MemoryMap(),
    lambda acl: CopyMap(),
], ids=["PoolView", "AlignmentExplorer", "MemoryGauge", "StreamTimeline", "CaptureGraph",
        "MemoryMap", "CopyMap"])
def test_each_widget_leaves_a_png_and_a_short_text(acl, make):
    widget = make(acl)
    bundle = widget._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    svg = bundle["image/svg+xml"]
    assert svg == widget.picture.value                        # the live picture, saved
    svg_texts(svg)                                            # well-formed
    encoded = base64.b64encode(svg.encode()).decode()         # and as HTML, for untrusted
    assert bundle["text/html"].startswith(f'<img src="data:image/svg+xml;base64,{encoded}"')
    text = bundle["text/plain"]
    assert text == repr(widget) and len(text) <= 110
    assert type(widget).__name__ in text
    assert widget.svg() == widget.svg()                       # same state, same text


# ----- AlignmentExplorer -------------------------------------------------------------------
def test_alignment_sliders_drive_arithmetic_and_picture():
    explorer = AlignmentExplorer()
    assert "ALIGN_UP(100, 32) = ((100 - 1) // 32 + 1) × 32 = (3 + 1) × 32 = 128" \
        in explorer.arithmetic.value
    shown = explorer.picture.value
    explorer.k.value = 128
    assert explorer.scene.aligned == 128 and "(0 + 1) × 128 = 128" in explorer.arithmetic.value
    assert explorer.picture.value != shown
    explorer.length.value = 129
    assert explorer.scene.aligned == 256
    assert "m = ALIGN_UP(129, 32) + 32 = 160 + 32 = 192 B" in explorer.arithmetic.value
    assert repr(explorer) == ("AlignmentExplorer: ALIGN_UP(129, 128) = 256; segment m = "
                              "ALIGN_UP(129,32)+32 = 192")


# ----- MemoryGauge -------------------------------------------------------------------------
def _gauge_rows(gauge) -> dict[str, tuple[int, int]]:
    return {name: (used, total) for name, used, total in gauge.scene.rows()}


def test_gauge_follows_get_mem_info(acl):
    gauge = MemoryGauge(acl)
    assert list(_gauge_rows(gauge)) == ["ACL_HBM_MEM", "ACL_HBM_MEM_HUGE", "ACL_HBM_MEM_NORMAL",
                                        "ACL_DDR_MEM", "ACL_DDR_MEM_HUGE", "ACL_DDR_MEM_NORMAL"]
    assert _gauge_rows(gauge)["ACL_HBM_MEM_HUGE"][0] == 0
    ptr, _ = acl.rt.malloc(2 << 30, C.ACL_MEM_MALLOC_HUGE_FIRST)
    gauge.refresh_button.click()
    free, total, _ = acl.rt.get_mem_info(C.ACL_HBM_MEM_HUGE)
    assert _gauge_rows(gauge)["ACL_HBM_MEM_HUGE"] == (total - free, total)
    assert "2.0 GiB used of 56.0 GiB (3.6%)" in svg_texts(gauge.picture.value)
    assert _gauge_rows(gauge)["ACL_HBM_MEM_NORMAL"][0] == 0


def test_a_small_allocation_shows_at_a_readable_scale(acl):
    """The walkthrough (08 cell 12, 04 cell 17): 326 KiB of a 4 GiB pool drew nothing
    visible and read "0.0%". A share under 1% gets a zoomed bar it fills half of or more."""
    import xml.etree.ElementTree as ET
    from acl_lab.widgets.gauge import BAR_W
    ptr, _ = acl.rt.malloc(333_000, C.ACL_MEM_MALLOC_NORMAL_ONLY)
    gauge = MemoryGauge(acl, attrs=["ACL_HBM_MEM_NORMAL", "ACL_HBM_MEM_HUGE"])
    used, total = _gauge_rows(gauge)["ACL_HBM_MEM_NORMAL"]
    texts = svg_texts(gauge.svg())
    assert f"{used / 1024:.1f} KiB used of 4.0 GiB (0.0078%)" in texts   # not "0.0%"
    assert "zoomed: the bar is 512.0 KiB" in texts and "0 B used of 56.0 GiB (0.0%)" in texts
    filled = [float(r.get("width")) for r in ET.fromstring(gauge.svg()).iter(
        "{http://www.w3.org/2000/svg}rect") if r.get("fill") == "#4c72b0"]
    assert max(filled) == pytest.approx(BAR_W * used / (512 << 10), abs=0.1)
    assert max(filled) >= BAR_W / 2                                       # readable
    assert repr(gauge) == ("MemoryGauge: HBM normal 325.2 KiB/4.0 GiB, HBM huge 0 B/56.0 GiB "
                           "used")                                        # not empty
    acl.rt.free(ptr)


def test_gauge_shows_only_the_kinds_the_device_has():
    gauge = MemoryGauge(fresh("310"))
    assert list(_gauge_rows(gauge)) == ["ACL_DDR_MEM", "ACL_DDR_MEM_HUGE", "ACL_DDR_MEM_NORMAL"]
    assert repr(gauge) == "MemoryGauge: DDR all 0 B/8.0 GiB used"


def test_gauge_is_a_passive_observer(acl, shell):
    gauge = MemoryGauge(acl, live=True)
    shell.user_ns["acl"] = acl
    calls = len(acl_lab.tracer().calls)
    shell.run_cell("ptr, ret = acl.rt.malloc(4096, 0)")   # the hook refreshes the gauge
    assert _gauge_rows(gauge)["ACL_HBM_MEM_NORMAL"][0] > 0
    assert [c.name for c in list(acl_lab.tracer().calls)[calls:]] == ["rt.malloc"]
    gauge.close()


def test_gauge_keeps_the_learners_last_error(bare_acl):
    gauge = MemoryGauge(bare_acl)
    assert bare_acl.rt.malloc(64, 0)[1] != 0                 # no device: the learner's error
    gauge.refresh()
    assert bare_acl.get_recent_err_msg().startswith("aclrtMalloc:")
    assert "no device open" in gauge.picture.value


# ----- the package -------------------------------------------------------------------------
def test_unknown_widget_name():
    import acl_lab.widgets
    with pytest.raises(AttributeError):
        acl_lab.widgets.NoSuchView


def test_widgets_and_pool_load_lazily_and_never_import_the_simulator():
    code = (
        "import sys, acl_lab, acl_lab.widgets\n"
        "assert 'ipywidgets' not in sys.modules\n"
        "import acl_lab.pool, acl_lab.widgets.pool_view, acl_lab.widgets.alignment, "
        "acl_lab.widgets.gauge, acl_lab.widgets.timeline, acl_lab.widgets.capture_graph\n"
        "bad = [m for m in sys.modules if m.startswith('acl_lab.sim')]\n"
        "assert not bad, bad\n"
        "assert 'matplotlib' not in sys.modules, 'views draw SVG without a plotting library'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# ----- nothing clipped ----------------------------------------------------------------------
def _overflow(svg: str) -> list[str]:
    """Texts whose estimated extent (the layout's own generous glyph width) leaves the
    picture: a clipped title or label."""
    from acl_lab.widgets._svg import text_width

    root = ET.fromstring(svg)
    width = float(root.get("width"))
    out = []
    for t, text in zip(root.iter("{http://www.w3.org/2000/svg}text"), svg_texts(svg)):
        x, w = float(t.get("x")), text_width(text, float(t.get("font-size")))
        left = {"end": x - w, "middle": x - w / 2}.get(t.get("text-anchor"), x)
        if left < 0 or left + w > width:
            out.append(text)
    return out


@pytest.mark.parametrize("make", [
    lambda acl: PoolView(MemoryPool(acl, 4096, rule="dvpp", allocator="malloc_host")),
    lambda acl: AlignmentExplorer(1000, 128),
    lambda acl: MemoryGauge(acl),
    lambda acl: StreamTimeline(),
    lambda acl: CaptureGraph(_replayed_model(acl)),
    lambda acl: CaptureGraph(0x7FFFFFFF),
    lambda acl: MemoryMap(),
    lambda acl: CopyMap(),
], ids=["PoolView", "AlignmentExplorer", "MemoryGauge", "StreamTimeline", "CaptureGraph",
        "CaptureGraph-no-model", "MemoryMap", "CopyMap"])
def test_no_title_or_label_is_clipped(acl, make):
    stream, _ = acl.rt.create_stream()
    acl_lab.name(stream, "a stream with a rather long name for its lane")
    dev, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memset_async(dev, 64, 0, 64, stream) == 0
    assert _overflow(make(acl).svg()) == []
