"""StreamTimeline and CaptureGraph without a browser: drive the controls and the cells, check
the model and the picture follow what the streams and the captures did."""
import re

import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.widgets import CaptureGraph, StreamTimeline
from test_widgets import svg_texts
H2D = C.ACL_MEMCPY_HOST_TO_DEVICE


@pytest.fixture
def work(acl):
    """A stream, a device buffer and a pinned host buffer of 4 KiB."""
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    dev, ret = acl.rt.malloc(4096, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0
    host, ret = acl.rt.malloc_host(4096)
    assert ret == 0
    return stream, dev, host


def captured(acl, stream, dev, host):
    """A model of two tasks (an H2D copy, then a memset) captured on ``stream``."""
    assert acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    assert acl.rt.memcpy_async(dev, 4096, host, 4096, H2D, stream) == 0
    assert acl.rt.memset_async(dev, 4096, 7, 1024, stream) == 0
    model, ret = acl.mdl.ri_capture_end(stream)
    assert ret == 0
    return model


def ascend_like_snapshot(monkeypatch):
    """What acl_lab.snapshot() says on hardware: no modeled timeline, no models."""
    monkeypatch.setattr(acl_lab, "snapshot", lambda: {"backend": "ascend", "timeline": [],
                                                      "models": []})


# ----- StreamTimeline ----------------------------------------------------------------------
def test_one_lane_per_stream_with_its_modeled_time(acl, work):
    stream, dev, _ = work
    assert acl.rt.memset_async(dev, 4096, 1, 4096, stream) == 0
    assert acl.rt.memset_async(dev, 4096, 2, 4096, 0) == 0          # the default stream
    assert acl.rt.memset_async(dev, 4096, 3, 4096, stream) == 0
    view = StreamTimeline()
    rows = acl_lab.snapshot()["timeline"]
    busy = sum(r["end_us"] - r["start_us"] for r in rows if r["stream"] == stream)
    assert [(h, n) for h, n, *_ in view.scene.streams()] == [(0, 1), (stream, 2)]
    assert view.scene.streams()[1][2] == pytest.approx(busy)
    assert [name.split("\n")[0] for name, _ in view.scene.lanes()] == \
        ["host", "default", f"0x{stream:x}"]
    assert "default" in view.readout.value and f"0x{stream:x}" in view.readout.value
    assert {"host", "default", f"0x{stream:x}"} <= set(svg_texts(view.picture.value))
    assert repr(view).startswith("StreamTimeline: 3 tasks on 2 streams, modeled ")


def test_slider_keeps_the_last_n_tasks(acl, work):
    stream, dev, _ = work
    for i in range(10):
        assert acl.rt.memset_async(dev, 4096, i, 4096, stream) == 0
    view = StreamTimeline()
    assert (view.last.max, view.last.value) == (10, 10)
    shown = view.picture.value
    view.last.value = 3
    assert view.scene.window() == acl_lab.snapshot()["timeline"][-3:]
    assert view.picture.value != shown
    assert "the last 3 of 10" in view.picture.value and "the last 3 of 10" in repr(view)


def test_an_event_record_points_to_the_wait_it_releases(acl, work):
    producer, dev, _ = work
    consumer, _ = acl.rt.create_stream()
    event, _ = acl.rt.create_event()
    assert acl.rt.memset_async(dev, 4096, 1, 4096, producer) == 0
    assert acl.rt.record_event(event, producer) == 0
    assert acl.rt.stream_wait_event(consumer, event) == 0
    view = StreamTimeline()
    recorded = next(e for e in acl_lab.snapshot()["events"] if e["handle"] == event)
    (rec_lane, rec_t), (wait_lane, wait_t) = view.scene.links()[0]
    lanes = [name.split("\n")[0] for name, _ in view.scene.lanes()]
    assert (lanes[rec_lane], lanes[wait_lane]) == (f"0x{producer:x}", f"0x{consumer:x}")
    assert rec_t == recorded["recorded_at_us"] and wait_t >= rec_t


def test_the_host_lane_shows_launches_and_waits_from_the_trace(acl, work):
    stream, dev, _ = work
    assert acl.rt.memset_async(dev, 4096, 1, 4096, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    view = StreamTimeline()
    launch, sync = acl_lab.tracer().calls[-2:]
    assert [(h.start, h.end, h.kind, h.name) for h in view.scene.host] == [
        (launch.start_us, launch.end_us, "launch", "rt.memset_async"),
        (sync.start_us, sync.end_us, "waiting", "rt.synchronize_stream")]
    assert view.scene.axis() == (launch.start_us, sync.end_us)   # the launch, the wait
    assert [name.split("\n")[0] for name, _ in view.scene.lanes()] == ["host", f"0x{stream:x}"]
    busy = launch.end_us - launch.start_us                    # waiting is not busy
    assert view.scene.lanes()[0][0] == f"host\n2 calls · {busy:,.1f} µs busy"


def _boxes(svg: str) -> list[tuple[float, float]]:
    """(x, x + width) of every filled box of a timeline picture below its title."""
    import xml.etree.ElementTree as ET
    return [(float(r.get("x")), float(r.get("x")) + float(r.get("width")))
            for r in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}rect")
            if r.get("fill") not in ("none",) and float(r.get("y")) > 28
            and float(r.get("height")) > 12]


def test_host_bars_stay_on_the_axis_clear_of_the_lane_names(acl, work):
    """The learner's walkthrough (08 cell 37): a host call that began before the window
    (a callback worker's process_report) covered the lane names and ran past the axis."""
    stream, dev, host = work
    from acl_lab.widgets._tasks import PLOT_W, lanes_width
    t0 = acl_lab.snapshot()["now_us"]
    done = []
    worker, _ = acl.util.start_thread(lambda args: [acl.rt.process_report(20)
                                                    for _ in range(200) if not done], [0])
    assert acl.rt.subscribe_report(worker, stream) == 0
    for k in range(3):
        assert acl.rt.memcpy_async(dev, 4096, host, 4096, H2D, stream) == 0
        assert acl.rt.launch_callback(lambda d: acl.rt.memcpy(host, 64, dev, 64, C.ACL_MEMCPY_DEVICE_TO_HOST),
                                      [k], C.ACL_CALLBACK_BLOCK, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    done.append(1)
    assert acl.rt.unsubscribe_report(worker, stream) == 0
    assert acl.util.stop_thread(worker) == 0
    view = StreamTimeline(since_us=t0)
    lanes = view.scene.lanes()
    left = lanes_width(lanes) + 20
    for x0, x1 in _boxes(view.svg()):
        assert left - 0.1 <= x0 and x1 <= left + PLOT_W + 0.1, (x0, x1)
    names = [name.split("\n")[0] for name, _ in lanes]
    assert names[:2] == ["host (main)", "host (thread-1)"]
    kinds = {h.thread: {h.kind for h in view.scene.host if h.thread == t}
             for h in view.scene.host for t in [h.thread]}
    assert kinds["main"] == {"launch", "waiting"}                # the launches, the wait
    assert "launch" not in kinds["thread-1"]                    # process_report waits
    assert "waiting" in kinds["thread-1"] and "blocking" in kinds["thread-1"]


def test_since_us_leaves_earlier_work_out(acl, work):
    stream, dev, _ = work
    assert acl.rt.memset_async(dev, 4096, 1, 4096, stream) == 0
    now = acl_lab.snapshot()["now_us"]
    assert acl.rt.memset_async(dev, 4096, 2, 4096, 0) == 0
    view = StreamTimeline(since_us=now)
    assert [r["stream"] for r in view.scene.window()] == [0]
    assert all(h.start >= now for h in view.scene.host)


def test_named_streams_name_their_lanes_and_the_trace_table(acl, work):
    stream, dev, _ = work
    acl_lab.name(stream, "copy")
    assert acl.rt.memset_async(dev, 4096, 1, 4096, stream) == 0
    view = StreamTimeline()
    assert [name.split("\n")[0] for name, _ in view.scene.lanes()][-1] == "copy"
    assert "copy" in svg_texts(view.picture.value) and "copy" in view.readout.value
    assert "memset on copy" in repr(acl_lab.tracer().table(1))
    acl_lab.reset()                                           # a fresh process forgets names
    assert acl_lab.tracer().names == {}
    with pytest.raises(TypeError):
        acl_lab.name("copy", stream)


def test_a_live_timeline_follows_cells_and_skips_when_nothing_ran(acl, work, shell):
    stream, dev, _ = work
    view = StreamTimeline(live=True)
    assert "no task on any stream yet" in repr(view)
    shell.user_ns.update(acl=acl, dev=dev, stream=stream)
    shown = view.picture.value
    shell.run_cell("x = 1")
    assert view.picture.value is shown                        # no call: nothing redrawn
    shell.run_cell("acl.rt.memset_async(dev, 4096, 1, 4096, stream)")
    assert view.picture.value != shown and len(view.scene.tasks) == 1
    shell.run_cell("acl.rt.memset_async(dev, 4096, 2, 4096, stream)")
    assert (view.last.max, view.last.value) == (2, 2)
    acl.rt.memset_async.__wrapped__(dev, 4096, 3, 4096, stream)   # not traced: not seen ...
    view.refresh()
    assert len(view.scene.tasks) == 2
    view.refresh_button.click()                               # ... until the button forces it
    assert len(view.scene.tasks) == 3
    shell.run_cell("import acl_lab\nacl_lab.reset()")         # the process is gone ...
    assert len(view.scene.tasks) == 3                         # ... the picture stays
    assert "shown as last seen" in repr(view) and "shown as last seen" in view.picture.value
    view.close()


def test_timeline_without_a_modeled_clock_says_why(monkeypatch):
    ascend_like_snapshot(monkeypatch)
    view = StreamTimeline()
    assert "ascend backend does not report stream time" in view.picture.value
    assert repr(view).startswith("StreamTimeline: the ascend backend")
    assert view.last.disabled and view.picture.value.startswith("<svg")


def test_last_must_keep_a_task():
    with pytest.raises(ValueError, match="at least 1"):
        StreamTimeline(last=0)


# ----- CaptureGraph ------------------------------------------------------------------------
def test_capture_graph_shows_the_recorded_chain_and_each_replay(acl, work):
    stream, dev, host = work
    model = captured(acl, stream, dev, host)
    for _ in range(2):
        assert acl.mdl.ri_execute_async(model, stream) == 0
    graph = CaptureGraph(model)
    assert [t["kind"] for t in graph.scene.tasks()] == ["memcpy", "memset"]
    assert [v for _, v in graph.task.options] == [1, 2] and graph.task.value == 1
    launches = [c.task for c in acl_lab.tracer().calls if c.name == "mdl.ri_execute_async"]
    assert graph.scene.replays == [(t["stream"], t["start_us"], t["end_us"]) for t in launches]
    assert f"2 on 0x{stream:x}" in graph.replays.value and "each" in graph.replays.value
    assert repr(graph) == f"CaptureGraph: model 0x{model:x}, 2 tasks (memcpy → memset), 2 replays"
    assert f"captured on stream 0x{stream:x}" in graph.picture.value


def test_the_replay_line_fits_in_one_line_of_the_picture(acl, work):
    """Chapter 06's eight replays: the line under the picture says how many, from when to
    when and how long each, and fits the picture's width (it wrapped over 2-3 lines)."""
    from acl_lab.widgets._svg import text_width
    stream, dev, host = work
    model = captured(acl, stream, dev, host)
    for _ in range(8):
        assert acl.mdl.ri_execute_async(model, stream) == 0
    assert acl.mdl.ri_execute(model, -1) == 0
    graph = CaptureGraph(model)
    line = graph.scene.replay_text()
    width = float(re.search(r'width="([\d.]+)"', graph.picture.value)[1])
    assert "8 on" in line and "1 synchronous" in line
    assert text_width(line, 13) <= width, (line, width)


def test_picking_a_task_shows_its_fields_and_outlines_it(acl, work):
    stream, dev, host = work
    graph = CaptureGraph(captured(acl, stream, dev, host))
    assert f"<th style='text-align: left; padding-right: 12px'>src</th><td><code>0x{host:x}" \
        in graph.details.value
    shown = graph.picture.value
    graph.task.value = 2
    assert graph.scene.selected == 2
    assert f"<code>0x{dev:x}</code>" in graph.details.value and "<code>7</code>" \
        in graph.details.value
    assert "reads what #1 wrote" not in graph.details.value   # a memset reads nothing
    assert graph.picture.value != shown


def test_capture_graph_shows_which_task_reads_what_another_wrote(acl, work):
    """The seed's loop: copy in, compute, copy the result back to the copy-in's source."""
    stream, dev, host = work
    out, _ = acl.rt.malloc(4096, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    assert acl.rt.memcpy_async(dev, 4096, host, 4096, H2D, stream) == 0
    assert acl.rt.memcpy_async(out, 4096, dev, 4096, C.ACL_MEMCPY_DEVICE_TO_DEVICE, stream) == 0
    assert acl.rt.memcpy_async(host, 4096, out, 4096, C.ACL_MEMCPY_DEVICE_TO_HOST, stream) == 0
    model, _ = acl.mdl.ri_capture_end(stream)
    graph = CaptureGraph(model)
    assert graph.scene.flow == [(3, 1, True), (1, 2, False), (2, 3, False)]
    graph.task.value = 1
    assert "reads what #3 wrote at the next replay" in graph.details.value
    assert "#2 reads what it wrote" in graph.details.value
    assert "#3 reads what #1 wrote" not in graph.picture.value
    assert "#2 reads what #1 wrote" in graph.picture.value    # the arc's hover text


def test_a_live_capture_graph_follows_replays_and_keeps_a_destroyed_model(acl, work, shell):
    stream, dev, host = work
    model = captured(acl, stream, dev, host)
    graph = CaptureGraph(model, live=True)
    assert "not replayed yet" in graph.replays.value
    shell.user_ns.update(acl=acl, model=model, stream=stream)
    shown = graph.picture.value
    shell.run_cell("acl.mdl.ri_execute_async(model, stream)\nacl.mdl.ri_execute(model, -1)")
    assert len(graph.scene.replays) == 1 and len(graph.scene.sync_replays) == 1
    assert graph.picture.value != shown and "1 synchronous" in graph.replays.value
    shell.run_cell("acl.mdl.ri_destroy(model)")
    assert "destroyed: shown as last seen" in graph.picture.value
    assert len(graph.scene.tasks()) == 2 and len(graph.scene.replays) == 1   # as last seen
    assert "destroyed" in repr(graph)
    graph.close()


def test_a_long_model_shows_the_boxes_around_the_picked_task(acl, work):
    stream, dev, _ = work
    assert acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    for i in range(20):
        assert acl.rt.memset_async(dev, 4096, i, 64, stream) == 0
    model, _ = acl.mdl.ri_capture_end(stream)
    graph = CaptureGraph(model)
    assert [t["seq"] for t in graph.scene.shown()] == list(range(1, 8))
    graph.task.value = 20
    assert [t["seq"] for t in graph.scene.shown()] == list(range(14, 21))
    graph.task.value = 10
    assert [t["seq"] for t in graph.scene.shown()] == list(range(7, 14))
    assert "tasks 7-13 of 20" in svg_texts(graph.svg())
    assert repr(graph).endswith("20 tasks (memset → memset → memset → memset → …), "
                                "0 replays")


def test_capture_graph_of_a_handle_that_is_no_model(acl):
    graph = CaptureGraph(0x1234)
    assert repr(graph) == ("CaptureGraph: 0x1234 is not a captured model: pass the handle "
                           "that acl.mdl.ri_capture_end returned")
    assert graph.task.options == () and graph.picture.value.startswith("<svg")
    with pytest.raises(TypeError, match="model handle"):
        CaptureGraph("model")


def test_capture_graph_without_models_on_the_backend_says_why(monkeypatch):
    ascend_like_snapshot(monkeypatch)
    graph = CaptureGraph(0x40000040)
    assert "ascend backend does not report captured models" in graph.picture.value


def _two_stream_model(acl, names: bool):
    """The runtime guide's fork and join (chapter 06 section 5): copy in on main, an
    operator's stand-in (a memset) on side, copy out on main."""
    main, _ = acl.rt.create_stream()
    side, _ = acl.rt.create_stream()
    if names:
        acl_lab.name(main, "main")
        acl_lab.name(side, "side")
    fork, _ = acl.rt.create_event_ex_with_flag(C.ACL_EVENT_SYNC)
    join, _ = acl.rt.create_event_ex_with_flag(C.ACL_EVENT_SYNC)
    dev, _ = acl.rt.malloc(4096, C.ACL_MEM_MALLOC_HUGE_FIRST)
    host, _ = acl.rt.malloc_host(4096)
    assert acl.mdl.ri_capture_begin(main, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    assert acl.rt.memcpy_async(dev, 4096, host, 4096, H2D, main) == 0
    assert acl.rt.record_event(fork, main) == 0
    assert acl.rt.stream_wait_event(side, fork) == 0
    assert acl.rt.memset_async(dev, 4096, 3, 4096, side) == 0
    assert acl.rt.record_event(join, side) == 0
    assert acl.rt.stream_wait_event(main, join) == 0
    assert acl.rt.memcpy_async(host, 4096, dev, 4096, C.ACL_MEMCPY_DEVICE_TO_HOST, main) == 0
    model, ret = acl.mdl.ri_capture_end(main)
    assert ret == 0
    return model, main, side


def _crosses(segment, box) -> bool:
    """Whether an axis-parallel segment runs through the inside of a box."""
    from acl_lab.widgets.capture_graph import Box
    (x1, y1), (x2, y2) = segment
    b: Box = box
    if y1 == y2:
        return b.y < y1 < b.y + b.h and min(x1, x2) < b.x + b.w and max(x1, x2) > b.x
    return b.x < x1 < b.x + b.w and min(y1, y2) < b.y + b.h and max(y1, y2) > b.y


def test_a_two_stream_model_shows_each_stream_as_a_lane_and_no_arrow_crosses_a_box(acl):
    """The walkthrough (06 cell 51): no stream was shown, #7 wrapped onto a row that read
    like a lane, and arrows crossed boxes and their text."""
    from acl_lab.widgets.capture_graph import chain_layout
    model, main, side = _two_stream_model(acl, names=True)
    graph = CaptureGraph(model)
    boxes, edges, lanes, _ = chain_layout(graph.scene, 0, 100)
    assert [s for s, _ in lanes] == [main, side]
    tasks = {t["seq"]: t for t in graph.scene.tasks()}
    lane_top = dict(lanes)
    assert all(boxes[q].y == lane_top[tasks[q]["stream"]] for q in tasks)  # each on its lane
    assert [b.x for _, b in sorted(boxes.items())] == sorted(b.x for b in boxes.values())
    assert len({b.x for b in boxes.values()}) == len(boxes)                # one column each
    assert {"flow", "loop", "order", "event"} <= {e.kind for e in edges}
    for e in edges:
        for seg in zip(e.points, e.points[1:]):
            assert seg[0][0] == seg[1][0] or seg[0][1] == seg[1][1], e      # steps only
            assert not [q for q, b in boxes.items() if _crosses(seg, b)], (e, seg)
    texts = svg_texts(graph.svg())
    assert {"main", "side", "origin stream", "joined stream"} <= set(texts)
    graph.task.value = 4
    assert f"<code>side (0x{side:x})</code>" in graph.details.value      # named, and in hex


def test_an_unnamed_stream_shows_in_hex_in_the_details(acl):
    model, main, side = _two_stream_model(acl, names=False)
    graph = CaptureGraph(model)
    assert f"<code>0x{main:x}</code>" in graph.details.value
    assert str(main) not in graph.details.value
    assert {f"0x{main:x}", f"0x{side:x}"} <= set(svg_texts(graph.svg()))
