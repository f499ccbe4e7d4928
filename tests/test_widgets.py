"""The widgets without a browser: drive the controls, check the model and the picture move,
and check what a notebook without a kernel keeps (a PNG and a short text)."""
import base64
import subprocess
import sys

import matplotlib
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.pool import MemoryPool
from acl_lab.widgets import AlignmentExplorer, CaptureGraph, MemoryGauge, PoolView, StreamTimeline
from simhelpers import fresh, write

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def pool(acl):
    p = MemoryPool(acl, 4096)
    yield p
    p.close(force=True)


# ----- PoolView ----------------------------------------------------------------------------
def test_allocate_button_adds_a_segment_and_redraws(pool):
    view = PoolView(pool)
    before = view.image.value
    view.length.value = 100
    view.alloc_button.click()
    assert pool.stats().segments == 1
    assert view.image.value != before and bytes(view.image.value).startswith(PNG)
    assert view.segment.value == pool.blocks()[0].start        # the new segment is selected
    assert "m = 160 B = payload 100 + rounding 28 + 32" in view.status.value
    assert "1 segments" in view.title.value


def test_rule_control_sets_the_start_alignment(pool):
    view = PoolView(pool)
    view.length.value = 1
    view.alloc_button.click()                                 # 64 B at +0
    view.rule.value = "dvpp"
    view.alloc_button.click()
    assert view.model.selected % 128 == 0 and view.model.selected == pool.base + 128
    assert [b.kind for b in pool.blocks()[:3]] == ["segment", "free", "segment"]


def test_select_and_free_buttons(pool):
    a, b = pool.alloc(10), pool.alloc(20)
    view = PoolView(pool)
    assert [v for _, v in view.segment.options] == [a, b]
    unselected = view.image.value
    view.segment.value = b
    assert view.image.value != unselected                     # the selection is outlined
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
    shown = view.image.value
    view.refresh()
    assert view.image.value is shown                          # nothing changed: no redraw
    pool.alloc(100)
    view.refresh()
    assert view.image.value != shown


def test_pool_view_refreshes_after_each_cell(pool, shell):
    view = PoolView(pool)
    shell.user_ns["pool"] = pool
    shown = view.image.value
    shell.run_cell("ptr = pool.alloc(100)")
    assert view.image.value != shown
    assert [v for _, v in view.segment.options] == [shell.user_ns["ptr"]]
    view.close()
    shell.run_cell("pool.alloc(100)")                         # unhooked: no longer follows
    assert len(view.segment.options) == 1


def test_closed_pool_disables_the_controls(pool):
    view = PoolView(pool)
    pool.close()
    view.refresh()
    assert view.alloc_button.disabled and "closed" in view.title.value


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


@pytest.mark.parametrize("make", [
    lambda acl: PoolView(MemoryPool(acl, 4096)),
    lambda acl: AlignmentExplorer(),
    lambda acl: MemoryGauge(acl),
    lambda acl: StreamTimeline(),
    lambda acl: CaptureGraph(_replayed_model(acl)),
], ids=["PoolView", "AlignmentExplorer", "MemoryGauge", "StreamTimeline", "CaptureGraph"])
def test_each_widget_leaves_a_png_and_a_short_text(acl, make):
    widget = make(acl)
    bundle = widget._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert base64.b64decode(bundle["image/png"]).startswith(PNG)
    text = bundle["text/plain"]
    assert text == repr(widget) and len(text) <= 110
    assert type(widget).__name__ in text
    assert widget.picture() == widget.picture()               # same state, same bytes


def test_pictures_ignore_the_learners_matplotlib_style(pool):
    view = PoolView(pool)
    plain = view.picture()
    with matplotlib.rc_context({"axes.facecolor": "black", "font.size": 20}):
        assert view.picture() == plain


# ----- AlignmentExplorer -------------------------------------------------------------------
def test_alignment_sliders_drive_arithmetic_and_picture():
    explorer = AlignmentExplorer()
    assert "ALIGN_UP(100, 32) = ((100 - 1) // 32 + 1) × 32 = (3 + 1) × 32 = 128" \
        in explorer.arithmetic.value
    shown = explorer.image.value
    explorer.k.value = 128
    assert explorer.model.aligned == 128 and "(0 + 1) × 128 = 128" in explorer.arithmetic.value
    assert explorer.image.value != shown
    explorer.length.value = 129
    assert explorer.model.aligned == 256
    assert "m = ALIGN_UP(129, 32) + 32 = 160 + 32 = 192 B" in explorer.arithmetic.value
    assert repr(explorer) == ("AlignmentExplorer: ALIGN_UP(129, 128) = 256; segment m = "
                              "ALIGN_UP(129,32)+32 = 192")


# ----- MemoryGauge -------------------------------------------------------------------------
def test_gauge_follows_get_mem_info(acl):
    gauge = MemoryGauge(acl)
    assert list(gauge.bars) == ["ACL_HBM_MEM", "ACL_HBM_MEM_HUGE", "ACL_HBM_MEM_NORMAL",
                                "ACL_DDR_MEM", "ACL_DDR_MEM_HUGE", "ACL_DDR_MEM_NORMAL"]
    assert gauge.bars["ACL_HBM_MEM_HUGE"].value == 0
    ptr, _ = acl.rt.malloc(2 << 30, C.ACL_MEM_MALLOC_HUGE_FIRST)
    gauge.refresh_button.click()
    free, total, _ = acl.rt.get_mem_info(C.ACL_HBM_MEM_HUGE)
    assert gauge.bars["ACL_HBM_MEM_HUGE"].value == pytest.approx((total - free) / total)
    assert gauge.texts["ACL_HBM_MEM_HUGE"].value == "2.0 GiB used of 56.0 GiB"
    assert gauge.bars["ACL_HBM_MEM_NORMAL"].value == 0


def test_gauge_shows_only_the_kinds_the_device_has():
    gauge = MemoryGauge(fresh("310"))
    assert list(gauge.bars) == ["ACL_DDR_MEM", "ACL_DDR_MEM_HUGE", "ACL_DDR_MEM_NORMAL"]
    assert repr(gauge) == "MemoryGauge: DDR all 0 B/8.0 GiB used"


def test_gauge_is_a_passive_observer(acl, shell):
    gauge = MemoryGauge(acl)
    shell.user_ns["acl"] = acl
    calls = len(acl_lab.tracer().calls)
    shell.run_cell("ptr, ret = acl.rt.malloc(4096, 0)")   # the hook refreshes the gauge
    assert gauge.bars["ACL_HBM_MEM_NORMAL"].value > 0
    assert [c.name for c in list(acl_lab.tracer().calls)[calls:]] == ["rt.malloc"]
    gauge.close()


def test_gauge_keeps_the_learners_last_error(bare_acl):
    gauge = MemoryGauge(bare_acl)
    assert bare_acl.rt.malloc(64, 0)[1] != 0                 # no device: the learner's error
    gauge.refresh()
    assert bare_acl.get_recent_err_msg().startswith("aclrtMalloc:")
    assert "no device open" in gauge.note.value


# ----- the package -------------------------------------------------------------------------
def test_unknown_widget_name():
    import acl_lab.widgets
    with pytest.raises(AttributeError):
        acl_lab.widgets.NoSuchView


def test_widgets_and_pool_load_lazily_and_never_import_the_simulator():
    code = (
        "import sys, acl_lab, acl_lab.widgets\n"
        "assert 'ipywidgets' not in sys.modules and 'matplotlib' not in sys.modules\n"
        "import acl_lab.pool, acl_lab.widgets.pool_view, acl_lab.widgets.alignment, "
        "acl_lab.widgets.gauge, acl_lab.widgets.timeline, acl_lab.widgets.capture_graph\n"
        "bad = [m for m in sys.modules if m.startswith('acl_lab.sim')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
