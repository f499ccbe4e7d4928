"""The model's verdicts on the process, devices, contexts, streams, events and peer access
(pyACL ``acl.init`` / ``acl.finalize`` and ``acl.rt.*``), one method per call, with the
call's own name and arguments."""
from __future__ import annotations

from acl_lab import constants as C

from .objects import Evt, Fail, Strm, check_i32, check_int, check_size, check_u32
from .state import State, forget


class RuntimeRules(State):
    # ----- process, devices, contexts -----------------------------------------------------
    def init(self):
        if self.initialized:
            raise Fail(C.ACL_ERROR_REPEAT_INITIALIZE)

        def effect(_):
            self.initialized, self.finalized = True, False
        return effect

    def finalize(self):
        if self.finalized:
            raise Fail(C.ACL_ERROR_REPEAT_FINALIZE)

        def effect(_):
            for d in [d for d, refs in self.refs.items() if refs]:
                self.close_device(d)
            for b in [b for b in self.blocks.values() if b.api == "malloc_host"]:
                self.drop_block(b)
            self.initialized, self.finalized = False, True
        return effect

    def set_device(self, d):
        self.check_device(check_int(d))

        def effect(_):
            if d in self.default_ctx:
                self.refs[d] += 1
            else:
                self.learn_context(d, default=True)
            self.current = self.default_ctx[d]
        return effect

    def reset_device(self, d):
        self.check_device(check_int(d))
        if not self.refs.get(d):
            raise Fail(C.ACL_ERROR_RT_CONTEXT_RELEASE_ERROR)

        def effect(_):
            self.refs[d] -= 1
            if self.refs[d] == 0:
                self.close_device(d)
        return effect

    def reset_device_force(self, d):
        self.check_device(check_int(d))
        if not self.refs.get(d):
            raise Fail(C.ACL_ERROR_RT_CONTEXT_RELEASE_ERROR)
        return lambda _: self.close_device(d)

    def create_context(self, d):
        self.check_device(check_int(d))

        def effect(result):
            if d not in self.default_ctx:
                self.learn_context(d, default=True)
            self.learn_context(d, default=False, handle=result[0])
            self.current = result[0]
        return effect

    def destroy_context(self, h):
        c = self.context(check_size(h))
        if c.default:
            raise Fail(C.ACL_ERROR_RT_CONTEXT_NULL)
        return lambda _: self.drop_context(c)     # its streams' captures go with it

    def set_context(self, h):
        c = self.context(check_size(h))
        return lambda _: setattr(self, "current", c.handle)

    # ----- streams --------------------------------------------------------------------------
    def create_stream(self):
        c = self.ctx()

        def effect(result):
            h = result[0]
            self.streams[h] = Strm(h, c.handle, c.device)
            c.streams.add(h)
        return effect

    def create_stream_with_config(self, priority, flag):
        check_u32(priority), check_u32(flag)
        return self.create_stream()

    def destroy_stream(self, h):
        if check_size(h) == 0:
            self.ctx()
            raise Fail(C.ACL_ERROR_INVALID_PARAM)
        s = self.stream(h)
        if s.capture is not None:
            raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURED)

        def effect(_):
            self.clear(s.key)
            del self.streams[h]
            self.contexts[s.ctx].streams.discard(h)
            self.dead_handles.append(h)
        return effect

    def destroy_stream_force(self, h):
        if check_size(h) == 0:
            raise Fail(C.ACL_ERROR_INVALID_PARAM)
        s = self.stream(h)
        if s.capture is not None:
            raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURED)

        def effect(_):       # queued work is discarded: what it would write is unknown
            for p in self.pending.get(s.key, []):
                forget(p.writes)
            self.pending[s.key] = []
            del self.streams[h]
            self.contexts[s.ctx].streams.discard(h)
            self.dead_handles.append(h)
        return effect

    def synchronize_stream(self, h):
        s = self.stream(check_size(h), other_device_ok=True)   # ACL switches context for it
        if s.capture is not None:
            raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURED)
        return lambda _: self.synced(s.key)

    def synchronize_stream_with_timeout(self, h, timeout):
        check_size(h), check_i32(timeout)
        if timeout < -1:
            raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
        return self.synchronize_stream(h)

    def synchronize_device(self):
        streams = self.streams_of_device(self.ctx().device)
        if any(s.capture is not None for s in streams):
            raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURED)

        def effect(_):
            for s in streams:
                self.synced(s.key)
        return effect

    def stream_query(self, h):
        s = self.stream(check_size(h))
        if s.capture is not None:
            raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURED)

        def effect(result):
            assert result[0] in (C.ACL_STREAM_STATUS_COMPLETE, C.ACL_STREAM_STATUS_NOT_READY)
            if result[0] == C.ACL_STREAM_STATUS_COMPLETE:
                self.synced(s.key)
        return effect

    def set_stream_failure_mode(self, h, mode):
        check_size(h), check_u32(mode)
        s = self.stream(h)
        if mode not in (C.ACL_CONTINUE_ON_FAILURE, C.ACL_STOP_ON_FAILURE):
            raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
        if s.stop_set and mode == C.ACL_CONTINUE_ON_FAILURE:   # stop mode is for good
            raise Fail(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
        if mode == C.ACL_CONTINUE_ON_FAILURE:
            return None

        def effect(_):          # every stream of its context stops on failure from now on
            s.stop_set = True
            for t in self.streams_of_device(s.device):
                if t.ctx == s.ctx:
                    t.stop = True
        return effect

    # ----- events ---------------------------------------------------------------------------
    def create_event(self):
        return self._create_event(None, ex=False)

    def create_event_with_flag(self, flag):
        return self._create_event(flag, ex=False)

    def create_event_ex_with_flag(self, flag):
        return self._create_event(flag, ex=True)

    def _create_event(self, flag: int | None, ex: bool):
        if flag is not None:
            check_u32(flag)
            top = 0x4F if ex else 0x3F            # RT_EVENT_FLAG_MAX / EventCreateEx's mask
            if flag & top == 0 or flag > top:
                raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
            for alone in (0x10, 0x20, 0x40) if ex else (0x10, 0x20):
                if flag & alone and flag & ~alone:
                    raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
            if flag in (C.ACL_EVENT_DEVICE_USE_ONLY, C.ACL_EVENT_IPC):
                raise Fail(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
        c = self.ctx()

        def effect(result):
            self.events[result[0]] = Evt(result[0], c.handle, flags=flag, ex=ex)
            c.events.add(result[0])
        return effect

    def destroy_event(self, h):
        e = self.event(check_size(h))

        def effect(_):
            del self.events[h]
            self.contexts[e.ctx].events.discard(h)
            self.dead_handles.append(h)
        return effect

    def record_event(self, h, sh):
        check_size(h), check_size(sh)
        e, s = self.event(h), self.stream(sh)
        taken = self.event_into_capture(s, e, waiting=False)
        if taken is not None:
            return taken
        self.check_task_stream(s)

        def effect(_):
            self.run(s.key, [], [], lambda: None)
            e.rec, e.clock_done, e.ever = (s.key, self.issued[s.key]), False, True
        return effect

    def stream_wait_event(self, sh, h):
        check_size(sh), check_size(h)
        s = self.stream(sh)
        e = self.event(h)
        taken = self.event_into_capture(s, e, waiting=True)
        if taken is not None:
            return taken
        if not (e.ever or e.ex or (e.flags or 0) & (C.ACL_EVENT_SYNC | C.ACL_EVENT_EXTERNAL)):
            raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)     # Event::Wait: never recorded
        self.check_task_stream(s)

        def effect(_):
            self.run(s.key, [], [], lambda: None, wait=e.rec)
            if e.rec is not None:
                waited = self.waited.setdefault(s.key, {})
                waited[e.rec[0]] = max(waited.get(e.rec[0], 0), e.rec[1])
        return effect

    def reset_event(self, h, sh):
        check_size(h), check_size(sh)
        e, s = self.event(h), self.stream(sh)
        if e.ex or s.capture is not None:
            raise Fail(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
        self.check_task_stream(s)

        def effect(_):
            self.run(s.key, [], [], lambda: None)
            e.rec, e.clock_done = None, False
        return effect

    def waitable(self, h: int) -> Evt:
        """An event the host may wait on or time: not inside a capture in progress."""
        e = self.event(check_size(h))
        if e.captured() is not None:
            raise Fail(C.ACL_ERROR_RT_EVENT_CAPTURED)
        return e

    def synchronize_event(self, h):
        e = self.waitable(h)
        return lambda _: self.event_reached(e) if e.rec else None

    def synchronize_event_with_timeout(self, h, timeout):
        check_size(h), check_i32(timeout)
        if timeout < -1 or timeout == 0:
            raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
        return self.synchronize_event(h)

    def query_event_status(self, h):
        e = self.event(check_size(h))

        def effect(result):
            status = result[0]
            if e.rec is None or not e.clock_done:
                assert status in (C.ACL_EVENT_RECORDED_STATUS_NOT_READY,
                                  C.ACL_EVENT_RECORDED_STATUS_COMPLETE) and (
                    e.rec is not None or status == C.ACL_EVENT_RECORDED_STATUS_NOT_READY)
            else:
                assert status == C.ACL_EVENT_RECORDED_STATUS_COMPLETE, result
            if status == C.ACL_EVENT_RECORDED_STATUS_COMPLETE:
                self.event_reached(e)
        return effect

    def event_elapsed_time(self, a, b):
        check_size(a), check_size(b)
        events = self.waitable(a), self.waitable(b)
        possible = set()
        for e in events:
            if e.rec is None:
                raise Fail(*possible, C.ACL_ERROR_RT_INTERNAL_ERROR)
            if not e.clock_done:
                possible.add(C.ACL_ERROR_RT_EVENT_NOT_COMPLETE)

        def effect(_):
            for e in events:
                self.event_reached(e)
        return effect, possible

    def event_get_timestamp(self, h):
        e = self.waitable(h)
        if e.rec is None:
            raise Fail(C.ACL_ERROR_RT_INTERNAL_ERROR)
        return (lambda _: self.event_reached(e)), (
            set() if e.clock_done else {C.ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID})

    # ----- peer access ----------------------------------------------------------------------
    def peer_pair(self, device: int, peer: int) -> None:
        self.check_device(device), self.check_device(peer)
        if device == peer:
            raise Fail(C.ACL_ERROR_INVALID_PARAM)
        if self.profile.run_mode != C.ACL_HOST:
            raise Fail(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)

    def device_can_access_peer(self, d, p):
        check_i32(d), check_i32(p)
        self.peer_pair(d, p)
        self.ctx()

        def effect(result):
            assert result[0] == 1
        return effect

    def device_enable_peer_access(self, p, flags):
        check_i32(p)
        check_u32(flags)
        if flags:
            raise Fail(C.ACL_ERROR_FEATURE_UNSUPPORTED)
        me = self.ctx().device
        self.peer_pair(me, p)
        return lambda _: self.peers.add((me, p))

    def device_disable_peer_access(self, p):
        check_i32(p)
        me = self.ctx().device
        self.peer_pair(me, p)
        return lambda _: self.peers.discard((me, p))
