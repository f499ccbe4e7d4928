"""The views in Chinese (the zh_CN edition): every label, legend, axis title, summary line,
hover text, control and "shown as last seen" notice comes from the catalog, Chinese text
fits the picture, the picture names a CJK font, and English comes back unchanged."""
import functools
import re
import xml.etree.ElementTree as ET
from html import unescape

import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.pool import MemoryPool
from acl_lab.widgets import AlignmentExplorer, CaptureGraph, MemoryGauge, PoolView, StreamTimeline
from acl_lab.widgets import CopyMap, MemoryMap
from acl_lab.i18n import columns
from acl_lab.widgets._svg import FONT, FONT_CJK
from simhelpers import fresh, write
from test_widgets import _overflow

SVG_NS = "{http://www.w3.org/2000/svg}"
#: ASCII words a Chinese view may show: API, class, enum and field names, units, and the
#: names this test gives segments and streams. Any other English word is an untranslated label.
KEPT = {
    # classes and calls
    "PoolView", "MemoryPool", "AlignmentExplorer", "MemoryGauge", "StreamTimeline",
    "CaptureGraph", "MemoryMap", "CopyMap", "VirtualMemoryView", "handle", "ALIGN_UP", "len", "alloc", "free", "check_guards", "acl", "rt", "mdl",
    "init", "set_device", "get_mem_info", "ri_capture_end", "ri_execute_async", "model",
    "stream", "aclmdlRIExecute", "aclnn", "memcpy", "memset", "memcpy2d", "src", "dst", "out",
    "ptr", "value", "device", "args", "kind",                    # parameter names
    # rules, allocators, memory kinds (API values), glossary terms kept in English
    "runtime", "dvpp", "malloc_align32", "malloc_host", "HBM", "DDR", "Host", "Device",
    "Stream", "Event", "H2D", "D2D", "D2H", "H2H", "DVPP", "numpy", "bytes", "dvpp_malloc",
    "ACL_HOST", "ACL_DEVICE", "malloc", "ACL_MEMCPY_HOST_TO_DEVICE",
    "ACL_MEMCPY_DEVICE_TO_DEVICE", "ACL_MEMCPY_DEVICE_TO_HOST",
    # units
    "GiB", "MiB", "KiB", "px",
    # names given in this test
    "labels", "copy",
}
WORD = re.compile(r"(?<![0-9A-Za-z_])[A-Za-z_][A-Za-z0-9_]+")     # not inside 0x12ce…


@pytest.fixture
def chinese():
    acl_lab.set_language("zh_CN")
    yield
    acl_lab.set_language("en")


def texts_of(view) -> list[str]:
    """Everything a learner can read in a view: the picture's texts and hover texts, its
    text repr, the HTML beside the picture and the controls' labels and options."""
    root = ET.fromstring(view.svg())
    out = ["".join(t.itertext()) for t in root.iter(f"{SVG_NS}text")]
    out += [t.text or "" for t in root.iter(f"{SVG_NS}title")]
    out.append(repr(view))
    for child in ("status", "readout", "details", "replays", "arithmetic"):
        if hasattr(view, child):
            out.append(unescape(re.sub(r"<[^>]+>", " ", getattr(view, child).value)))
    for control in ("length", "rule", "alloc_button", "segment", "free_button", "check_button",
                    "refresh_button", "last", "task"):
        if hasattr(view, control):
            out.append(getattr(view, control).description)
    return out


@functools.cache
def api_names() -> frozenset[str]:
    """The pyACL function names (``memset_async``, ``synchronize_stream`` ...): a view may
    name the call a span of host time was spent in."""
    from acl_lab.trace import pyacl_functions
    return frozenset(name for fns in pyacl_functions(acl_lab.load()).values() for name in fns)


def english_words(texts: list[str]) -> set[str]:
    """ASCII words of ``texts`` that are not kept names, API names or ACL enum names."""
    return {word for text in texts for word in WORD.findall(text)
            if word not in KEPT and not word.startswith("ACL_") and word not in api_names()}


def assert_chinese(view, *expected: str) -> None:
    texts = texts_of(view)
    joined = "\n".join(texts)
    for phrase in expected:
        assert phrase in joined, f"{phrase!r} not shown"
    assert english_words(texts) == set(), joined      # a task's fields too (CaptureGraph)
    assert 'font-family="' + FONT_CJK in view.svg()
    assert columns(repr(view)) <= 110
    assert _overflow(view.svg()) == []                               # nothing clipped


def _capture(acl, stream, tasks: int = 3) -> int:
    dev, _ = acl.rt.malloc(4096, C.ACL_MEM_MALLOC_HUGE_FIRST)
    host, _ = acl.rt.malloc_host(4096)
    assert acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    assert acl.rt.memcpy_async(dev, 4096, host, 4096, C.ACL_MEMCPY_HOST_TO_DEVICE, stream) == 0
    for i in range(tasks - 2):
        assert acl.rt.memset_async(dev, 4096, i, 64, stream) == 0
    assert acl.rt.memcpy_async(host, 4096, dev, 4096, C.ACL_MEMCPY_DEVICE_TO_HOST, stream) == 0
    model, ret = acl.mdl.ri_capture_end(stream)
    assert ret == 0
    return model


def test_pool_view_in_chinese(chinese, acl):
    pool = MemoryPool(acl, 4096)
    view = PoolView(pool)
    assert_chinese(view, "0 个内存段", "有效数据 (len)", "对齐间隙", "空闲", "申请", "释放",
                   "检查保护字节", "刷新", "长度", "规则")
    view.alloc_button.click()
    labels = pool.alloc(300, name="labels")
    view.refresh()
    view.segment.value = labels
    assert_chinese(view, "内存段 labels 位于 +0xc0", "有效数据 300", "保护字节", "碎片率")
    write(acl, labels, bytes(301))
    view.check_button.click()
    assert "ACL_ERROR_RT_PARAM_INVALID" in view.status.value and "保护字节" in view.status.value
    view.free_button.click()                                   # refused: it overran
    pool.free(labels, check=False)
    view.refresh()
    view.free_button.click()
    view.free_button.click()
    assert "请先选择要释放的内存段" in view.status.value
    pool.close(force=True)
    view.refresh()
    assert_chinese(view, "内存池已关闭：显示最后所见状态", "已关闭的 4096 B 内存池")


def test_a_wide_pool_view_in_chinese(chinese, acl):
    pool = MemoryPool(acl, 1 << 20, rule="dvpp", allocator="malloc_host")
    for i in range(8):
        pool.alloc(1 + 37 * i)
    assert_chinese(PoolView(pool), "不足 1 px 的部分按 1 px 宽绘制", "每行")
    pool.close(force=True)


def test_alignment_explorer_in_chinese(chinese):
    explorer = AlignmentExplorer(1000, 128)
    assert_chinese(explorer, "内存段 m", "（填充 24 B）", "起始地址为 64 的倍数", "刻度线标出",
                   "ALIGN_UP 向上对齐的填充", "+32 字节")


def test_memory_gauge_in_chinese(chinese, bare_acl):
    assert_chinese(MemoryGauge(bare_acl), "没有打开的Device")
    assert bare_acl.init() == 0 and bare_acl.rt.set_device(0) == 0
    gauge = MemoryGauge(bare_acl)
    assert_chinese(gauge, "HBM 大页", "DDR 普通页", "HBM 全部", "各内存属性的已用量与总量",
                   "已用 0 B，共 60.0 GiB", "HBM 全部 0 B/60.0 GiB，DDR")
    block, _ = bare_acl.rt.malloc(3 << 20, C.ACL_MEM_MALLOC_NORMAL_ONLY)
    gauge.refresh()
    assert_chinese(gauge, "放大：整条为 4.0 MiB", "（0.073%）")
    assert bare_acl.rt.free(block) == 0
    assert bare_acl.rt.reset_device(0) == 0
    gauge.refresh()
    assert_chinese(gauge, "当前没有打开的Device：显示最后所见状态", "（显示最后所见状态）")


def test_stream_timeline_in_chinese(chinese, acl):
    assert_chinese(StreamTimeline(), "还没有任何Stream上的任务")
    assert_chinese(StreamTimeline(since_us=5.0), "5.0 µs 之后还没有")
    stream, _ = acl.rt.create_stream()
    copy, _ = acl.rt.create_stream()
    acl_lab.name(copy, "copy")
    event, _ = acl.rt.create_event()
    dev, _ = acl.rt.malloc(4096, C.ACL_MEM_MALLOC_HUGE_FIRST)
    for i in range(3):
        assert acl.rt.memset_async(dev, 4096, i, 4096, stream) == 0
    assert acl.rt.record_event(event, stream) == 0
    assert acl.rt.stream_wait_event(copy, event) == 0
    assert acl.rt.memset_async(dev, 4096, 9, 4096, 0) == 0
    model = _capture(acl, copy)
    assert acl.mdl.ri_execute_async(model, copy) == 0
    assert acl.rt.synchronize_device() == 0
    view = StreamTimeline()
    assert_chinese(view, "Host侧", "默认Stream", "个任务", "模拟时间 (µs)", "Event记录",
                   "Event等待", "Host：下发任务", "Host：等待", "模型执行（重放）", "忙碌时间（模拟）", "起止时间",
                   "最近任务数", "Stream时间线：")
    view.last.value = 2
    assert_chinese(view, "（最近 2 个，共")
    acl_lab.reset()
    view.refresh(force=True)
    assert_chinese(view, "显示最后所见状态（此后进程已被重置）")


def test_capture_graph_in_chinese(chinese, acl):
    stream, _ = acl.rt.create_stream()
    model = _capture(acl, stream, tasks=14)
    graph = CaptureGraph(model)
    assert_chinese(graph, "尚未执行", "一次下发即可运行", "数据：任务读取先前任务写入的数据",
                   "虚线：在下一次执行时读取", "执行顺序", "位于 0x", "任务 1-7（共 14 个）", "主流")
    for _ in range(2):
        assert acl.mdl.ri_execute_async(model, stream) == 0
    assert acl.mdl.ri_execute(model, 1000) == 0
    graph.refresh()
    graph.task.value = 1
    assert_chinese(graph, "各次执行（模拟时间）", "次同步执行（aclmdlRIExecute）", "数据流",
                   "在下一次执行时读取 #14 写入的数据", "第 1 次执行，在", "（模拟）")
    assert acl.mdl.ri_destroy(model) == 0
    graph.refresh()
    assert_chinese(graph, "已销毁：显示最后所见状态")
    assert_chinese(CaptureGraph(0x7FFFFFFF), "不是模型运行实例")


def test_memory_map_in_chinese(chinese, acl):
    host, _ = acl.rt.malloc_host(512)
    dev, _ = acl.rt.malloc(512, C.ACL_MEM_MALLOC_HUGE_FIRST)
    media, _ = acl.media.dvpp_malloc(512)
    view = MemoryMap()
    assert_chinese(view, "内存所在位置：Host 与 Device 0 上的 3 个内存块（ACL_HOST）", "Host侧",
                   "锁页内存：malloc_host", "可分页内存：numpy 数组、bytes", "HBM 大页",
                   "DDR 普通页", "没有内存块", "占用 544 B", "已用 0 B，共 56.0 GiB",
                   "DVPP内存（起始地址 128 字节对齐）", "MemoryMap：3 个内存块：锁页 1")
    assert acl.rt.reset_device(0) == 0
    view.refresh()
    assert_chinese(view, "当前没有打开的Device：显示最后所见状态")
    acl_lab.reset()
    view.refresh()
    assert_chinese(view, "显示最后所见状态（此后进程已被重置）")


def test_copy_map_in_chinese(chinese, acl):
    assert_chinese(CopyMap(), "还没有内存复制")
    stream, _ = acl.rt.create_stream()
    host, _ = acl.rt.malloc_host(4096)
    dev, _ = acl.rt.malloc(4096, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.memcpy(dev, 4096, host, 4096, C.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert acl.rt.memcpy_async(host, 4096, dev, 4096, C.ACL_MEMCPY_DEVICE_TO_HOST, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert_chinese(CopyMap(), "按方向的内存复制：2 次复制", "Host侧", "Device侧",
                   "H2D：1 次复制，4096 B", "H2H：没有复制", "1 同步 · Host内存：1 锁页",
                   "模拟时间共", "（kind 写的是 D2H）", "全部复制", "Host 等待", "异步",
                   "CopyMap：2 次复制")


def test_english_comes_back_unchanged(acl):
    pool = MemoryPool(acl, 4096)
    pool.alloc(100, name="labels")
    views = [PoolView(pool), AlignmentExplorer(), MemoryGauge(acl), StreamTimeline()]
    english = [(v.svg(), repr(v)) for v in views]
    assert all('font-family="' + FONT + '"' in svg for svg, _ in english)
    acl_lab.set_language("zh_CN")
    try:
        for v in views:
            v.refresh()
        assert all(v.svg() != svg for v, (svg, _) in zip(views, english))
    finally:
        acl_lab.set_language("en")
    for v in views:
        v.refresh()
    assert [(v.svg(), repr(v)) for v in views] == english
    pool.close(force=True)


def test_a_chinese_repr_is_cut_by_columns():
    from acl_lab.widgets._base import clip
    assert clip("x" * 110) == "x" * 110 and clip("x" * 111) == "x" * 109 + "…"
    cut = clip("中" * 60)
    assert cut == "中" * 54 + "…" and columns(cut) <= 110
