"""The model's verdicts on stream capture (ACL Graph, ``acl.mdl.ri_*``): begin, end, status,
the thread's capture mode, events met by a capture (fork and join across streams), and the
model RI a capture makes — executed, destroyed, printed as debug JSON."""
from __future__ import annotations

import json
import os

from acl_lab import constants as C

from .objects import (ACTIVE, GLOBAL, INVALIDATED, RELAXED, THREAD_LOCAL, Cap, Evt, Fail,
                      Graph, Strm, check_int, check_size)
from .state import State


class CaptureRules(State):
    # ----- events met on a capturing stream -------------------------------------------------
    def event_into_capture(self, s: Strm, e: Evt, waiting: bool):
        """An event met on a capturing stream (ApiImpl::EventRecord / StreamWaitEvent): a
        function recording what the capture takes, or None for the ordinary path. Events
        not made by aclrtCreateEventExWithFlag are refused and the capture stays ACTIVE; a
        stream that waits on a captured event joins its capture (fork)."""
        cap = s.capture
        if waiting and e.captured() is not None:
            mine = e.captured()
            if s.handle == 0:
                raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT)
            if cap is not None and cap is not mine:
                def on_fail(before):
                    cap.status = INVALIDATED
                    return before
                raise Fail(C.ACL_ERROR_STREAM_CAPTURE_CONFLICT, on_fail=on_fail)

            def join(_):
                if s.capture is None:
                    s.capture = mine
                    mine.joined.append(s)
                self.mark(mine, s, "wait", e)
            return join
        if cap is None:
            return None
        if not e.ex:
            raise Fail(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
        if waiting:
            if e.rec is not None:
                raise Fail(C.ACL_ERROR_RT_CAPTURE_DEPENDENCY)

            return lambda _: self.mark(cap, s, "wait", e)
        if not e.flags & C.ACL_EVENT_SYNC:
            return lambda _: None          # the runtime records nothing and says success

        def captured(_):
            if cap.status == ACTIVE:
                e.capture = cap
            self.mark(cap, s, "record", e)
        return captured

    @staticmethod
    def mark(cap: Cap, s: Strm, kind: str, e: Evt) -> None:
        """An event record or wait the capture took: a task of the model (with no effect on
        bytes), and a step of its fork/join log."""
        if cap.status == ACTIVE:
            cap.graph.templates.append(([], [], lambda: None))
            cap.log.append((s.handle, kind, e.handle))

    # ----- begin, end, status, the thread's mode --------------------------------------------
    def ri_capture_begin(self, sh, mode):
        check_size(sh), check_int(mode)
        if sh == 0:
            raise Fail(C.ACL_ERROR_INVALID_PARAM)
        s = self.stream(sh)
        if not self.profile.soc.capture:          # rtStreamBeginCapture: no ACL Graph
            raise Fail(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
        if mode not in (GLOBAL, THREAD_LOCAL, RELAXED):
            raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
        if s.capture is not None:
            raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURED)

        def effect(_):
            new = self.new_in("models")
            assert len(new) == 1 and not new[0]["ready"], new
            g = Graph(new[0]["handle"], s.device, s.handle)
            self.graphs[g.handle] = g
            s.capture = self.captures[s.handle] = Cap(s, mode, g)
        return effect

    def ri_capture_end(self, sh):
        def close(cap: Cap) -> None:
            del self.captures[cap.stream.handle]
            for joined in [cap.stream] + cap.joined:
                joined.capture = None

        if check_size(sh) == 0:
            raise Fail(C.ACL_ERROR_INVALID_PARAM)
        s = self.stream(sh)
        cap = s.capture
        if cap is None:
            raise Fail(C.ACL_ERROR_RT_STREAM_NOT_CAPTURED)
        if cap.stream is not s:
            raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED)

        def on_fail(before):             # the model is destroyed with the capture
            close(cap)
            del self.graphs[cap.graph.handle]
            return {**before, "models": [g for g in before["models"]
                                         if g["handle"] != cap.graph.handle]}
        if cap.status == INVALIDATED:
            raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, on_fail=on_fail)
        if not self.joined_back(cap):
            raise Fail(C.ACL_ERROR_RT_STREAM_UNJOINED, on_fail=on_fail)

        def effect(result):
            assert result[0] == cap.graph.handle
            cap.graph.ready = True
            close(cap)
        return effect

    @staticmethod
    def joined_back(cap: Cap) -> bool:
        """Every joined stream ends with a record another stream waits on after it, and the
        origin waits on one of them (Context::CheckCaptureModelValidity)."""
        home = False
        for s in cap.joined:
            mine = [i for i, (h, _, _) in enumerate(cap.log) if h == s.handle]
            if not mine or cap.log[mine[-1]][1] != "record":
                return False
            ev = cap.log[mine[-1]][2]
            waiters = {h for h, kind, e in cap.log[mine[-1] + 1:] if kind == "wait" and e == ev}
            if not waiters:
                return False
            home = home or cap.stream.handle in waiters
        return home or not cap.joined

    def ri_capture_get_info(self, sh):
        if check_size(sh) == 0:
            raise Fail(C.ACL_ERROR_INVALID_PARAM)
        cap = self.stream(sh).capture

        def effect(result):
            want = (C.ACL_MODEL_RI_CAPTURE_STATUS_NONE, 0) if cap is None else (
                cap.status, cap.graph.handle)
            assert result[:2] == want, f"capture info {result}, model {want}"
        return effect

    def ri_capture_thread_exchange_mode(self, mode):
        check_int(mode)
        self.ctx()
        if mode not in (GLOBAL, THREAD_LOCAL, RELAXED):
            raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)

        def effect(result):
            assert result[0] == self.thread_mode
            self.thread_mode = mode
        return effect

    # ----- the model RI a capture made ------------------------------------------------------
    def graph(self, h: int) -> Graph:
        g = self.graphs.get(h)
        if g is None:
            raise Fail(C.ACL_ERROR_INVALID_PARAM if h == 0 else C.ACL_ERROR_RT_INVALID_HANDLE)
        if not g.ready:
            raise Fail(C.ACL_ERROR_RT_MODEL_CAPTURED)
        return g

    def replay(self, g: Graph):
        """(reads, writes, effect) of one replay; resources freed since capture fail it."""
        for reads, writes, _ in g.templates:
            if any(self.blocks.get(b.ptr) is not b for b, _, _ in reads + writes):
                raise Fail(C.ACL_ERROR_RT_MODEL_EXECUTE)
        reads = [r for t in g.templates for r in t[0]]
        writes = [w for t in g.templates for w in t[1]]

        def effect():
            for _, _, apply in g.templates:
                apply()
        return reads, writes, effect

    def ri_execute_async(self, h, sh):
        check_size(h), check_size(sh)
        s = self.stream(sh)
        g = self.graph(h)
        if s.capture is not None:
            raise Fail(C.ACL_ERROR_RT_STREAM_CAPTURED)
        if s.device != g.device:
            raise Fail(C.ACL_ERROR_RT_STREAM_CONTEXT)
        reads, writes, apply = self.replay(g)
        self.check_task_stream(s)

        def effect(_):
            self.run(s.key, reads, writes, apply, graph=h)
            g.executions += 1
        return effect

    def ri_execute(self, h, timeout):
        check_size(h), check_int(timeout)
        if timeout == 0 or timeout < -1:
            raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)
        g = self.graph(h)
        reads, writes, apply = self.replay(g)
        self.check_submit(None)      # a blocking call, like a synchronous copy

        def effect(_):
            self.run(None, reads, writes, apply)
            g.executions += 1
        return effect

    def ri_destroy(self, h):
        check_size(h)
        if h in self.graphs and not self.graphs[h].ready:
            raise Fail(C.ACL_ERROR_RT_MODEL_CAPTURED)
        self.graph(h)

        def effect(_):
            for key, ops in self.pending.items():    # running replays finish first
                if any(p.graph == h for p in ops):
                    self.clear(key)
            del self.graphs[h]
            self.dead_handles.append(h)
        return effect

    def ri_debug_json_print(self, h, path, flags):
        check_size(h), check_int(flags)
        g = self.graph(h)
        if not os.path.isdir(os.path.dirname(path) or "."):     # nowhere to write the file
            raise Fail(C.ACL_ERROR_RT_PARAM_INVALID)

        def effect(_):
            with open(path, encoding="utf-8") as f:
                assert len(json.load(f)) == len(g.templates)
        return effect
