"""PoolView with 1,000 live segments: drawing the picture, answering an "allocate" click,
and MemoryPool.check_guards over every segment.

The pool holds 1,500 segments of mixed lengths with every third one freed, so the picture
has 1,000 segments and 500 holes to draw; the same is measured with 10 segments: the SVG
has a few elements per block, so its cost grows with the number of blocks.
"""
from __future__ import annotations

import random

import acl_lab

from . import Row, best_of, fresh_acl, ms

SEGMENTS = 1_000
GOAL_S = 0.3
REPEAT = 5


def _pool(acl, segments: int):
    from acl_lab.pool import MemoryPool

    rng = random.Random(3)
    pool = MemoryPool(acl, 1 << 20)
    ptrs = [pool.alloc(rng.randint(1, 400)) for _ in range(segments * 3 // 2)]
    for p in ptrs[::3]:
        pool.free(p)
    return pool


def run() -> list[Row]:
    from acl_lab.widgets import PoolView

    acl = fresh_acl()
    small, big = PoolView(_pool(acl, 10)), PoolView(_pool(acl, SEGMENTS))
    assert big.scene.pool.stats().segments == SEGMENTS
    draw_small = best_of(small.scene.svg, REPEAT)
    draw_big = best_of(big.scene.svg, REPEAT)

    def click():
        big.length.value = 64
        big.alloc_button.click()          # allocate + redraw, as a learner's click does
        big.free_button.click()           # and give it back, so every repeat is the same

    click_s = best_of(click, REPEAT) / 2
    guards_s = best_of(big.scene.pool.check_guards, REPEAT)
    acl_lab.reset()
    return [
        Row(f"PoolView draw, {SEGMENTS} segments", ms(draw_big),
            f"10 segments {ms(draw_small)}", draw_big / draw_small,
            f"<= {GOAL_S * 1e3:.0f} ms", draw_big <= GOAL_S),
        Row(f"PoolView allocate/free click, {SEGMENTS} segments", ms(click_s),
            goal=f"<= {GOAL_S * 1e3:.0f} ms", met=click_s <= GOAL_S),
        Row(f"MemoryPool.check_guards, {SEGMENTS} segments", ms(guards_s)),
    ]
