"""StreamTimeline with 1,000 and 10,000 tasks on the timeline: drawing the picture, a full
refresh (snapshot + trace + picture, what a cell's end costs after new work), and the
refresh after a cell that made no call (skipped).

The tasks cycle over three streams: an async memset, an H2D copy from pinned memory and an
event record on one stream with a wait on the next, so every kind of mark is drawn.
"""
from __future__ import annotations

import acl_lab
from acl_lab import constants as C

from . import Row, best_of, fresh_acl, malloc, ms

SIZES = (1_000, 10_000)
GOAL_S = 0.3          # for 1,000 tasks
REPEAT = 3
NBYTES = 4_096


def _issue(acl, tasks: int) -> None:
    streams = [acl.rt.create_stream()[0] for _ in range(3)]
    dev = malloc(acl, NBYTES)
    host, ret = acl.rt.malloc_host(NBYTES)
    acl_lab.check(ret)
    event, ret = acl.rt.create_event()
    acl_lab.check(ret)
    for i in range(tasks // 4):
        s, nxt = streams[i % 3], streams[(i + 1) % 3]
        acl_lab.check(acl.rt.memset_async(dev, NBYTES, i & 0xFF, NBYTES, s))
        acl_lab.check(acl.rt.memcpy_async(dev, NBYTES, host, NBYTES,
                                          C.ACL_MEMCPY_HOST_TO_DEVICE, s))
        acl_lab.check(acl.rt.record_event(event, s))
        acl_lab.check(acl.rt.stream_wait_event(nxt, event))
    for s in streams:
        acl_lab.check(acl.rt.synchronize_stream(s))


def _measure(tasks: int) -> tuple[float, float, float]:
    from acl_lab.widgets import StreamTimeline

    acl = fresh_acl()
    _issue(acl, tasks)
    view = StreamTimeline(last=tasks)
    assert len(view.scene.window()) == tasks
    draw_s = best_of(view.scene.svg, REPEAT)

    def full_refresh():
        view._seen = view._shown = None       # as after a cell that issued work
        view.refresh()

    refresh_s = best_of(full_refresh, REPEAT)
    skipped_s = best_of(view.refresh, REPEAT)
    acl_lab.reset()
    return draw_s, refresh_s, skipped_s


def run() -> list[Row]:
    (draw_1k, refresh_1k, skip_1k), (draw_10k, refresh_10k, _) = map(_measure, SIZES)
    return [
        Row("StreamTimeline draw, 1,000 tasks", ms(draw_1k), goal=f"<= {GOAL_S * 1e3:.0f} ms",
            met=draw_1k <= GOAL_S),
        Row("StreamTimeline draw, 10,000 tasks", ms(draw_10k), "1,000 tasks", draw_10k / draw_1k),
        Row("StreamTimeline refresh after new work, 1,000 tasks", ms(refresh_1k)),
        Row("StreamTimeline refresh after new work, 10,000 tasks", ms(refresh_10k)),
        Row("StreamTimeline refresh, no call since", f"{skip_1k * 1e6:.0f} us"),
    ]
