"""The state machine: hypothesis draws calls of the whole pyACL-shaped API, mostly valid and
sometimes every kind of wrong; each call goes to the runtime and to the model (model/), and
the machine compares. Rules that check the sandbox beside the model are in sandbox.py; the
comparisons of the whole state, made after every step, in checks.py."""
from __future__ import annotations

import os

import numpy as np
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

import acl_lab
from acl_lab import constants as C
from acl_lab.errors import AclLabError
from acl_lab.pool import MemoryPool
from acl_lab.sim.profiles import PROFILES, GiB, MiB

from .checks import Checks
from .model import Fail, Model
from .model.objects import (D2D, D2H, DIRECTION, GLOBAL, H2D, H2H, OK, RELAXED, THREAD_LOCAL,
                            WINDOW, Block, PoolModel)
from .preconditions import capturing, late, needs, needs_context, replayable
from .sandbox import SandboxRules
from .tally import CALLS, STATS

WILD_PTR = 0x0000_0BAD_0000    # inside no pool and no registration

SMALL_POLICIES = [C.ACL_MEM_MALLOC_HUGE_FIRST] * 4 + [
    C.ACL_MEM_MALLOC_HUGE_ONLY, C.ACL_MEM_MALLOC_NORMAL_ONLY, C.ACL_MEM_MALLOC_HUGE_FIRST_P2P,
    C.ACL_MEM_MALLOC_HUGE_ONLY_P2P, C.ACL_MEM_MALLOC_NORMAL_ONLY_P2P, C.ACL_MEM_MALLOC_HUGE1G_ONLY,
    C.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P, C.ACL_MEM_TYPE_HIGH_BAND_WIDTH | C.ACL_MEM_MALLOC_HUGE_ONLY,
    C.ACL_MEM_TYPE_LOW_BAND_WIDTH, C.ACL_MEM_TYPE_LOW_BAND_WIDTH | C.ACL_MEM_TYPE_HIGH_BAND_WIDTH,
    8, 0x206, 0x201, -1, 1 << 63, 1 << 64]
SIZES = st.one_of(
    st.integers(1, 4096), st.integers(1, 4096), st.integers(1, 4096),
    st.integers(MiB - 96, MiB + 32), st.integers(2 * MiB, 3 * MiB),
    st.sampled_from([GiB, 3 * GiB, 10 * GiB, 20 * GiB, 50 * GiB, 100 * GiB]),
    st.sampled_from([0, -1, (1 << 64) - 1, (1 << 64) - 64, 1 << 64, -(1 << 63) - 1]))
ALLOCATORS = ("malloc", "malloc_align32", "malloc_cached", "dvpp_malloc", "malloc_host")
EVENT_FLAGS = [C.ACL_EVENT_SYNC, C.ACL_EVENT_SYNC, C.ACL_EVENT_TIME_LINE,
               C.ACL_EVENT_SYNC | C.ACL_EVENT_TIME_LINE, C.ACL_EVENT_CAPTURE_STREAM_PROGRESS,
               0, 0x80, C.ACL_EVENT_EXTERNAL | C.ACL_EVENT_SYNC, C.ACL_EVENT_IPC,
               C.ACL_EVENT_DEVICE_USE_ONLY, -1, 1 << 32]


def _diff(before: dict, after: dict) -> str:
    return "; ".join(f"{k}: {before.get(k)!r:.300} -> {after.get(k)!r:.300}"
                     for k in sorted(set(before) | set(after)) if before.get(k) != after.get(k))


def _ret(result):
    return result[-1] if isinstance(result, tuple) else result


class AclMachine(SandboxRules, Checks, RuleBasedStateMachine):
    """One simulated process per example, driven by random calls, checked by Model."""

    tmp: str           # a folder for files the calls write (the test sets it)

    @initialize(profile=st.sampled_from(["910b", "910b", "310", "310p", "200dk"]),
                start=st.sampled_from(["bare", "init"] + ["device"] * 8))
    def start(self, profile, start):
        STATS["examples"] += 1
        self.step = 0
        acl_lab.reset(profile)
        self.acl = acl_lab.load(profile=profile)
        self.fresh_model(profile)
        if start != "bare":
            self.call(self.m.init, self.acl.init)
        if start == "device":
            self.call(self.m.set_device, self.acl.rt.set_device, 0)

    def fresh_model(self, profile: str) -> None:
        """A model of the fresh process just started on ``profile``."""
        self.m = Model(PROFILES[profile], acl_lab.snapshot)
        self.clock = 0.0
        self.arrays = []                      # registered arrays stay alive
        self.scratch = np.zeros(WINDOW, np.uint8)
        self.register(self.scratch, internal=True)

    # ----- calling and checking -------------------------------------------------------------
    def call(self, verdict, fn, *args, explain=None, atomic=True):
        """Call ``fn(*args)``; its code must be one the model's ``verdict(*args)`` expects;
        on failure nothing may change (unless the operation is not ``atomic``: a pool
        operation made of several calls) and ``explain()`` (default:
        acl.get_recent_err_msg) must say why; on success the model records the effect."""
        explain = explain or self.acl.get_recent_err_msg
        STATS["calls"] += 1
        on_fail = None
        try:
            effect = verdict(*args)
            if isinstance(effect, tuple):
                effect, also = effect
            else:
                also = set()
            expected = {OK} | also
        except Fail as f:
            effect, expected, on_fail = None, f.codes, f.on_fail
        before = acl_lab.snapshot() if expected != {OK} else None
        result = fn(*args)
        ret = _ret(result)
        name = getattr(fn, "__name__", repr(fn))
        CALLS[(name, ret)] += 1
        assert ret in expected, (
            f"{name}{args} returned {ret} ({C.ERROR_NAMES.get(ret)}); the model expects "
            f"{sorted(expected)}. Message: {explain()!r}")
        if ret != OK:
            STATS["expected failures"] += 1
            assert explain(), f"{name}{args} failed ({ret}) with no message"
            if atomic:
                after = acl_lab.snapshot()
                if on_fail is not None:
                    before = on_fail(before)
                assert before == after, f"failed {name}{args} ({ret}) changed: " + _diff(
                    before, after)
            return None
        if effect is not None:
            effect(result)
        return result

    # ----- argument choosers: mostly valid, sometimes every kind of wrong -------------------
    @staticmethod
    def rare(data, n: int = 6) -> bool:
        """True about once in ``n`` draws. (A middle value: hypothesis favours the ends of a
        range and of a list, so the wrong choices must not sit there.)"""
        return data.draw(st.integers(0, n - 1)) == n // 2

    def draw_device(self, data) -> int:
        n = self.m.profile.device_count
        if self.rare(data):
            return data.draw(st.sampled_from([-1, n, 1 << 31, 1 << 64, -(1 << 63) - 1]))
        return data.draw(st.integers(0, n - 1))

    def draw_handle(self, data, live: list[int], zero_ok: bool = False) -> int:
        """Mostly a live handle (or 0 where 0 means a default); sometimes a wrong one."""
        good = live + [0] * zero_ok
        if good and not self.rare(data, 5):
            return data.draw(st.sampled_from(good))
        return data.draw(st.sampled_from([0, 0x1234, -1, 1 << 64] + self.m.dead_handles[-3:]))

    def draw_stream(self, data) -> int:
        return self.draw_handle(data, sorted(self.m.streams), zero_ok=True)

    def draw_event(self, data) -> int:
        return self.draw_handle(data, sorted(self.m.events))

    def draw_graph(self, data) -> int:
        ready = sorted(h for h, g in self.m.graphs.items() if g.ready)
        return self.draw_handle(data, ready or sorted(self.m.graphs))

    def live_blocks(self) -> list[Block]:
        return [b for b in self.m.blocks.values() if not b.internal]

    def draw_ptr(self, data) -> int:
        """Mostly the start of a live block or a place inside it; sometimes its end, a freed,
        NULL, unknown, negative or too-large pointer."""
        live = self.live_blocks()
        if live and not self.rare(data, 7):
            b = data.draw(st.sampled_from(live))
            if not self.rare(data, 3):
                return b.ptr
            span = max(1, min(b.size, WINDOW))
            return b.ptr + data.draw(st.one_of(st.integers(0, span - 1),
                                               st.sampled_from(range(0, span, 64))))
        how = data.draw(st.sampled_from(["end", "freed", "null", "wild", "negative", "huge"]))
        if how == "end" and live:
            return data.draw(st.sampled_from(live)).end
        if how == "freed" and self.m.freed:
            return data.draw(st.sampled_from(self.m.freed[-8:]))
        return {"null": 0, "negative": -64, "huge": 1 << 64}.get(how, WILD_PTR)

    def room(self, ptr: int) -> int:
        b = self.m.find(ptr) if 0 < ptr < (1 << 64) else None
        return b.end - ptr if b else 256

    def draw_count(self, data, room: int) -> int:
        if not self.rare(data, 8):
            return data.draw(st.integers(1, max(1, min(room, WINDOW))))
        return data.draw(st.sampled_from([0, room + 1, room + 64, -1, 1 << 64]))

    def draw_max(self, data, count: int) -> int:
        if not self.rare(data, 8):
            return count + data.draw(st.sampled_from([0, 0, 64]))
        return data.draw(st.sampled_from([count - 1, -1]))

    def draw_kind(self, data, dst: int, src: int) -> int:
        """Usually the direction the pointers make (or DEFAULT); sometimes any value."""
        d, s = (self.m.find(p) if 0 < p < (1 << 64) else None for p in (dst, src))
        if d and s and not self.rare(data, 4):
            return data.draw(st.sampled_from([DIRECTION[(s.location, d.location)],
                                              C.ACL_MEMCPY_DEFAULT]))
        return data.draw(st.sampled_from([H2H, H2D, D2H, D2D, C.ACL_MEMCPY_DEFAULT,
                                          C.ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, 6, 7, -1, 1 << 64]))

    def draw_pool(self, data) -> PoolModel:
        """Mostly an open pool; now and then a closed one."""
        closed = [p for p in self.m.pools if p.closed]
        if closed and self.rare(data, 8) or not self.m.open_pools():
            return data.draw(st.sampled_from(closed))
        return data.draw(st.sampled_from(self.m.open_pools()))

    # ----- process, devices, contexts -----------------------------------------------------
    @rule()
    @precondition(lambda self: not self.m.initialized or not any(self.m.refs.values()))
    def init(self):
        self.call(self.m.init, self.acl.init)

    @rule()
    @precondition(lambda self: self.m.initialized or not any(self.m.refs.values()))
    @late
    def finalize(self):
        self.call(self.m.finalize, self.acl.finalize)

    @rule(data=st.data())
    def set_device(self, data):
        self.call(self.m.set_device, self.acl.rt.set_device, self.draw_device(data))

    @rule(data=st.data())
    @late
    def reset_device(self, data):
        self.call(self.m.reset_device, self.acl.rt.reset_device, self.draw_device(data))

    @rule(data=st.data())
    @late
    def reset_device_force(self, data):
        self.call(self.m.reset_device_force, self.acl.rt.reset_device_force,
                  self.draw_device(data))

    @rule(data=st.data())
    def create_context(self, data):
        self.call(self.m.create_context, self.acl.rt.create_context, self.draw_device(data))

    @rule(data=st.data())
    @late
    def destroy_context(self, data):
        m = self.m
        explicit = sorted(h for h, c in m.contexts.items() if not c.default)
        h = self.draw_handle(data, explicit or sorted(m.contexts))
        self.call(m.destroy_context, self.acl.rt.destroy_context, h)

    @rule(data=st.data())
    def set_context(self, data):
        h = self.draw_handle(data, sorted(self.m.contexts))
        self.call(self.m.set_context, self.acl.rt.set_context, h)

    # ----- streams --------------------------------------------------------------------------
    @rule()
    @needs_context
    def create_stream(self):
        self.call(self.m.create_stream, self.acl.rt.create_stream)

    @rule(priority=st.sampled_from([0, 3, -1]), flag=st.sampled_from([0, 1, 2, 0x40, 1 << 32]))
    @needs_context
    def create_stream_with_config(self, priority, flag):
        self.call(self.m.create_stream_with_config, self.acl.rt.create_stream_with_config,
                  priority, flag)

    @rule(data=st.data())
    @needs("streams")
    @needs_context
    def destroy_stream(self, data):
        self.call(self.m.destroy_stream, self.acl.rt.destroy_stream, self.draw_stream(data))

    @rule(data=st.data())
    @needs("streams")
    @needs_context
    @late
    def destroy_stream_force(self, data):
        self.call(self.m.destroy_stream_force, self.acl.rt.destroy_stream_force,
                  self.draw_stream(data))

    @rule(data=st.data())
    @needs_context
    def synchronize_stream(self, data):
        self.call(self.m.synchronize_stream, self.acl.rt.synchronize_stream,
                  self.draw_stream(data))

    @rule(data=st.data(), timeout=st.sampled_from([-1, -1, 10 ** 9, -2, 1 << 31]))
    @needs_context
    def synchronize_stream_with_timeout(self, data, timeout):
        self.call(self.m.synchronize_stream_with_timeout,
                  self.acl.rt.synchronize_stream_with_timeout, self.draw_stream(data), timeout)

    @rule()
    @needs_context
    def synchronize_device(self):
        self.call(self.m.synchronize_device, self.acl.rt.synchronize_device)

    @rule(data=st.data())
    @needs_context
    def stream_query(self, data):
        self.call(self.m.stream_query, self.acl.rt.stream_query, self.draw_stream(data))

    @rule(data=st.data(), mode=st.sampled_from([0, 1, 1, 2, -1]))
    @needs_context
    def set_stream_failure_mode(self, data, mode):
        self.call(self.m.set_stream_failure_mode, self.acl.rt.set_stream_failure_mode,
                  self.draw_stream(data), mode)

    # ----- events ---------------------------------------------------------------------------
    @rule()
    @needs_context
    def create_event(self):
        self.call(self.m.create_event, self.acl.rt.create_event)

    @rule(flag=st.sampled_from(EVENT_FLAGS), ex=st.sampled_from([True, True, False]))
    @needs_context
    def create_event_with_flag(self, flag, ex):
        name = "create_event_ex_with_flag" if ex else "create_event_with_flag"
        self.call(getattr(self.m, name), getattr(self.acl.rt, name), flag)

    @rule(data=st.data())
    @needs("events")
    @needs_context
    def destroy_event(self, data):
        self.call(self.m.destroy_event, self.acl.rt.destroy_event, self.draw_event(data))

    @rule(data=st.data())
    @needs("events")
    @needs_context
    def record_event(self, data):
        h, sh = self.draw_event(data), self.draw_stream(data)
        self.call(self.m.record_event, self.acl.rt.record_event, h, sh)

    @rule(data=st.data())
    @needs("events")
    @needs_context
    def stream_wait_event(self, data):
        sh, h = self.draw_stream(data), self.draw_event(data)
        self.call(self.m.stream_wait_event, self.acl.rt.stream_wait_event, sh, h)

    @rule(data=st.data())
    @needs("events")
    @needs_context
    def reset_event(self, data):
        h, sh = self.draw_event(data), self.draw_stream(data)
        self.call(self.m.reset_event, self.acl.rt.reset_event, h, sh)

    @rule(data=st.data())
    @needs("events")
    @needs_context
    def synchronize_event(self, data):
        self.call(self.m.synchronize_event, self.acl.rt.synchronize_event,
                  self.draw_event(data))

    @rule(data=st.data(), timeout=st.sampled_from([-1, -1, 10 ** 9, 0, -2, 1 << 31]))
    @needs("events")
    @needs_context
    def synchronize_event_with_timeout(self, data, timeout):
        self.call(self.m.synchronize_event_with_timeout,
                  self.acl.rt.synchronize_event_with_timeout, self.draw_event(data), timeout)

    @rule(data=st.data())
    @needs("events")
    @needs_context
    def query_event_status(self, data):
        self.call(self.m.query_event_status, self.acl.rt.query_event_status,
                  self.draw_event(data))

    @rule(data=st.data())
    @needs("events")
    @needs_context
    def event_elapsed_time(self, data):
        a, b = self.draw_event(data), self.draw_event(data)
        self.call(self.m.event_elapsed_time, self.acl.rt.event_elapsed_time, a, b)

    @rule(data=st.data())
    @needs("events")
    @needs_context
    def event_get_timestamp(self, data):
        self.call(self.m.event_get_timestamp, self.acl.rt.event_get_timestamp,
                  self.draw_event(data))

    # ----- peer access ----------------------------------------------------------------------
    @rule(data=st.data())
    @needs_context
    def device_can_access_peer(self, data):
        d, p = self.draw_device(data), self.draw_device(data)
        self.call(self.m.device_can_access_peer, self.acl.rt.device_can_access_peer, d, p)

    @rule(data=st.data(), enable=st.booleans(), flags=st.sampled_from([0, 0, 0, 1, -1]))
    @needs_context
    def device_peer_access(self, data, enable, flags):
        p = self.draw_device(data)
        if enable:
            self.call(self.m.device_enable_peer_access, self.acl.rt.device_enable_peer_access,
                      p, flags)
        else:
            self.call(self.m.device_disable_peer_access,
                      self.acl.rt.device_disable_peer_access, p)

    # ----- memory ---------------------------------------------------------------------------
    @rule(data=st.data(), api=st.sampled_from(ALLOCATORS), size=SIZES,
          policy=st.sampled_from(SMALL_POLICIES))
    @needs_context
    def allocate(self, data, api, size, policy):
        fn = getattr(self.acl.media if api == "dvpp_malloc" else self.acl.rt, api)
        args = (size, policy) if api not in ("dvpp_malloc", "malloc_host") else (size,)
        self.call(getattr(self.m, api), fn, *args)

    @rule(data=st.data(), call=st.sampled_from(["free", "free", "free_host", "dvpp_free"]))
    @needs("blocks")
    def release(self, data, call):
        fn = getattr(self.acl.media if call == "dvpp_free" else self.acl.rt, call)
        self.call(getattr(self.m, call), fn, self.draw_ptr(data))

    @rule(attr=st.one_of(st.integers(0, 17), st.sampled_from([-1, 18, 1 << 40, 1 << 64])))
    @needs_context
    def get_mem_info(self, attr):
        self.call(self.m.get_mem_info, self.acl.rt.get_mem_info, attr)

    @rule(data=st.data(), is_async=st.booleans(),
          value=st.one_of(st.integers(0, 255), st.sampled_from([-1, 256 + 7, 1 << 63])))
    @needs("blocks")
    @needs_context
    def memset(self, data, is_async, value):
        ptr = self.draw_ptr(data)
        count = self.draw_count(data, self.room(ptr))
        maximum = self.draw_max(data, count)
        if is_async:
            self.call(self.m.memset_async, self.acl.rt.memset_async, ptr, maximum, value,
                      count, self.draw_stream(data))
        else:
            self.call(self.m.memset, self.acl.rt.memset, ptr, maximum, value, count)

    @rule(data=st.data(), is_async=st.booleans())
    @needs("blocks")
    @needs_context
    def memcpy(self, data, is_async):
        dst, src = self.draw_ptr(data), self.draw_ptr(data)
        kind = self.draw_kind(data, dst, src)
        count = self.draw_count(data, min(self.room(dst), self.room(src)))
        dmax = self.draw_max(data, count)
        if is_async:
            self.call(self.m.memcpy_async, self.acl.rt.memcpy_async, dst, dmax, src, count,
                      kind, self.draw_stream(data))
        else:
            self.call(self.m.memcpy, self.acl.rt.memcpy, dst, dmax, src, count, kind)

    @rule(data=st.data(), is_async=st.booleans(),
          shape=st.tuples(st.integers(0, 48), st.integers(0, 6), st.integers(0, 16),
                          st.integers(0, 16)))
    @needs("blocks")
    @needs_context
    def memcpy2d(self, data, is_async, shape):
        width, height, dpad, spad = shape
        dpitch, spitch = width + dpad - (dpad == 1) * 5, width + spad   # dpad 1: too narrow
        dst, src = self.draw_ptr(data), self.draw_ptr(data)
        kind = self.draw_kind(data, dst, src)
        args = (dst, dpitch, src, spitch, width, height, kind)
        if is_async:
            self.call(self.m.memcpy2d_async, self.acl.rt.memcpy2d_async, *args,
                      self.draw_stream(data))
        else:
            self.call(self.m.memcpy2d, self.acl.rt.memcpy2d, *args)

    # ----- capture (ACL Graph) ----------------------------------------------------------------
    @rule(data=st.data(), mode=st.sampled_from([GLOBAL] * 3 + [THREAD_LOCAL] * 2 + [RELAXED, 3]))
    @needs("streams")
    @needs_context
    def capture_begin(self, data, mode):
        m = self.m
        sh = self.draw_handle(data, sorted(set(m.streams) - set(m.captures)))
        self.call(m.ri_capture_begin, self.acl.mdl.ri_capture_begin, sh, mode)

    @rule(data=st.data())
    @needs_context
    @capturing
    def capture_end(self, data):
        sh = self.draw_handle(data, sorted(self.m.captures) or sorted(self.m.streams))
        self.call(self.m.ri_capture_end, self.acl.mdl.ri_capture_end, sh)

    @rule(data=st.data())
    @needs("streams")
    @needs_context
    def capture_get_info(self, data):
        m = self.m
        sh = self.draw_handle(data, sorted(m.captures) + sorted(m.streams), zero_ok=True)
        self.call(m.ri_capture_get_info, self.acl.mdl.ri_capture_get_info, sh)

    @rule(mode=st.sampled_from([GLOBAL, THREAD_LOCAL, RELAXED, RELAXED, 3, -5]))
    @needs("streams")
    @needs_context
    def capture_thread_exchange_mode(self, mode):
        self.call(self.m.ri_capture_thread_exchange_mode,
                  self.acl.mdl.ri_capture_thread_exchange_mode, mode)

    @rule(data=st.data())
    @needs("graphs")
    @needs_context
    @replayable
    def execute_async(self, data):
        h, sh = self.draw_graph(data), self.draw_stream(data)
        self.call(self.m.ri_execute_async, self.acl.mdl.ri_execute_async, h, sh)

    @rule(data=st.data(), timeout=st.sampled_from([-1, -1, 1000, 0, -2]))
    @replayable
    def execute(self, data, timeout):
        self.call(self.m.ri_execute, self.acl.mdl.ri_execute, self.draw_graph(data), timeout)

    @rule(data=st.data(), mode=st.sampled_from([GLOBAL, THREAD_LOCAL, RELAXED]),
          replays=st.integers(1, 3))
    @precondition(lambda self: self.m.current in self.m.contexts)
    def capture_flow(self, data, mode, replays):
        """A whole capture in one step: begin on a stream of this device, queue a few memsets
        and copies (drawn like any others), end, then replay the model on its streams."""
        m, rt, mdl = self.m, self.acl.rt, self.acl.mdl
        device = m.ctx().device
        free = sorted(h for h, s in m.streams.items() if s.device == device and not s.capture)
        created = None if free else self.call(m.create_stream, rt.create_stream)
        sh = data.draw(st.sampled_from(free)) if free else created and created[0]
        if not sh or self.call(m.ri_capture_begin, mdl.ri_capture_begin, sh, mode) is None:
            return
        for _ in range(data.draw(st.integers(1, 4))):
            dst = self.draw_ptr(data)
            count = self.draw_count(data, self.room(dst))
            if data.draw(st.booleans()):
                self.call(m.memset_async, rt.memset_async, dst, count,
                          data.draw(st.integers(0, 255)), count, sh)
            else:
                src = self.draw_ptr(data)
                count = min(count, self.room(src))
                self.call(m.memcpy_async, rt.memcpy_async, dst, count, src, count,
                          self.draw_kind(data, dst, src), sh)
        result = self.call(m.ri_capture_end, mdl.ri_capture_end, sh)
        if result is None:
            return
        on_device = sorted(h for h, s in m.streams.items() if s.device == device) + [0]
        for _ in range(replays):
            if data.draw(st.booleans()):
                self.call(m.ri_execute_async, mdl.ri_execute_async, result[0],
                          data.draw(st.sampled_from(on_device)))
            else:
                self.call(m.ri_execute, mdl.ri_execute, result[0], -1)

    @rule(data=st.data())
    @replayable
    def destroy_graph(self, data):
        self.call(self.m.ri_destroy, self.acl.mdl.ri_destroy, self.draw_graph(data))

    @rule(data=st.data(), flags=st.sampled_from([0, 1]), bad_path=st.booleans())
    @replayable
    def debug_json_print(self, data, flags, bad_path):
        h = self.draw_graph(data)
        path = os.path.join(self.tmp, "missing-dir" if bad_path else "", "model.json")
        self.call(self.m.ri_debug_json_print, self.acl.mdl.ri_debug_json_print, h, path, flags)

    # ----- the memory pool (secondary allocation) over this acl ------------------------------
    def pool_op(self, name: str, verdict, action, atomic: bool = True):
        """Run a MemoryPool ``action`` as if it were a pyACL call named ``name``: (value, 0),
        or (None, code) of the AclLabError it raised, whose message is the explanation."""
        def run():
            self.pool_error = ""
            try:
                return action(), OK
            except AclLabError as e:
                self.pool_error = str(e)
                return None, e.code
        run.__name__ = name
        self.call(verdict, run, explain=lambda: self.pool_error, atomic=atomic)
        self.adopt_registrations()

    def adopt_registrations(self) -> None:
        """Registrations a pool made for itself (its staging buffer) join the model."""
        for a in acl_lab.snapshot()["allocations"]:
            if a["ptr"] not in self.m.blocks and a["api"] == "numpy":
                self.m.add_registration(a["ptr"], a["size"], "numpy", internal=True)

    @rule(size=st.one_of(st.integers(1, 16384), st.sampled_from([0, -5, 3 * MiB])),
          rule_=st.sampled_from(["runtime", "dvpp"]),
          allocator=st.sampled_from([None, None, "malloc", "malloc_align32", "dvpp_malloc",
                                     "malloc_host"]))
    @needs_context
    @precondition(lambda self: len(self.m.open_pools()) < 3)
    def pool_create(self, size, rule_, allocator):
        self.pool_op("MemoryPool", lambda: self.m.pool_create(size, rule_, allocator),
                     lambda: MemoryPool(self.acl, size, rule=rule_, allocator=allocator))

    @rule(data=st.data(), length=st.one_of(st.integers(1, 64), st.integers(1, 2048),
                                           st.sampled_from([0, -1, 100_000])))
    @precondition(lambda self: self.m.pools)
    def pool_alloc(self, data, length):
        p = self.draw_pool(data)
        self.pool_op("MemoryPool.alloc", lambda: self.m.pool_alloc(p, length),
                     lambda: p.pool.alloc(length))

    @rule(data=st.data(), check=st.booleans())
    @precondition(lambda self: self.m.pools)
    def pool_free(self, data, check):
        p = self.draw_pool(data)
        starts = sorted(p.segments)
        if starts and not self.rare(data, 6):
            ptr = data.draw(st.sampled_from(starts))
        else:
            ptr = data.draw(st.sampled_from(p.freed[-3:] + [p.base - 64, WILD_PTR] +
                                            [s + 32 for s in starts]))
        self.pool_op("MemoryPool.free", lambda: self.m.pool_free(p, ptr, check),
                     lambda: p.pool.free(ptr, check=check), atomic=False)

    @rule(data=st.data())
    @precondition(lambda self: self.m.open_pools())
    def pool_check_guards(self, data):
        p = data.draw(st.sampled_from(self.m.open_pools()))
        self.pool_op("MemoryPool.check_guards", lambda: self.m.pool_check_guards(p),
                     p.pool.check_guards, atomic=False)

    @rule(data=st.data(), force=st.booleans())
    @precondition(lambda self: self.m.pools)
    def pool_close(self, data, force):
        p = self.draw_pool(data)
        self.pool_op("MemoryPool.close", lambda: self.m.pool_close(p, force),
                     lambda: p.pool.close(force=force))
