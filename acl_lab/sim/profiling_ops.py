"""Model subscriptions (aclprofCreateSubscribeConfig, aclprofModelSubscribe / UnSubscribe)
and the op records they write into the program's pipe, read back by the aclprofGetOp*
getters: one record per operator of the model (om/node_ops.py) per execution, on the
modeled clock (the execution's time split evenly across its operators), in the layout of
spec/prof_op_desc.py.

Rules as hicann/runtime src/dfx/msprof/collector/dvvp: msprofiler/prof_api_common.cpp
(aclprofCreateSubscribeConfig: a timeInfoSwitch other than 0 or 1 gives NULL),
profimpl/adapter/src/msprofiler_acl_api.cpp ProfModelSubscribe (a model that is not loaded
ACL_ERROR_INVALID_MODEL_ID, then a NULL config ACL_ERROR_INVALID_PARAM), msprof/engine/src/
prof_acl_mgr.cpp (ProfSubscribePrecheck: while aclprofInit's mode runs
ACL_ERROR_PROF_API_CONFLICT; CheckSubscribeConfig: timeInfo 0 with ACL_AICORE_NONE asks for
nothing, ACL_ERROR_INVALID_PARAM; a model subscribed twice ACL_ERROR_PROF_REPEAT_SUBSCRIBE;
UpdateSubscribeInfo: another config than the device's first subscription
ACL_ERROR_INVALID_PROFILING_CONFIG; PrepareStopAclSubscribe: unsubscribing a model that is
not subscribed ACL_ERROR_INVALID_MODEL_ID; CloseSubscribeFd: the last unsubscribe on a pipe
closes its write end, so the reader sees end of file) and analyze/src/op_desc_parser.cpp
(each op's type and name can be read once: the getter forgets it).

The profiler writes into the pipe from its own thread and waits while the pipe is full; so
does the simulator: a subscribed model's execution writes what the pipe takes at once
(whole writes of at most PIPE_BUF bytes, so records arrive whole) and a writer thread the
rest as the reader makes room (at most MAX_PENDING bytes wait; beyond that records are
dropped and reported; a pipe nobody reads for GIVE_UP_S is given up). The last unsubscribe
closes the write end once everything is written. Stricter than hardware on purpose: the
fd must be the write end of a pipe other than 0, 1 and 2 (os.pipe()); records written into
a file, a socket or the kernel's own streams would corrupt them, so any other fd is
refused at subscription.
"""
from __future__ import annotations

import os
import select
import stat
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np

from acl_lab import constants as C
from acl_lab.errors import SimulatorLimit
from acl_lab.i18n import _
from acl_lab.sim import profiling
from acl_lab.sim.simerror import SimError
from acl_lab.spec import handles, prof_op_desc
from acl_lab.spec.memory_rules import host_readable
from acl_lab.support import pyodide

CONFIG_BASE, STEP = 0xB200_0000, 0x40
MAX_NAMES = 100_000         # op types and names kept for the getters (the oldest go first)
MAX_PENDING = 4 << 20       # record bytes waiting for room in one pipe
CHUNK = prof_op_desc.SIZE * (4096 // prof_op_desc.SIZE)    # whole records, <= PIPE_BUF
NAME_LIMIT = 4096           # pyACL's opTypeLenLimit / opNameLenLimit
GIVE_UP_S = 600             # a writer thread waits this long for a reader to make room


@dataclass(eq=False)
class SubscribeConfig:
    time_info: int
    metrics: int
    fd: int


@dataclass(eq=False)
class Feed:
    """One pipe the subscriptions write into; ``lock`` guards it against its writer thread."""
    fd: int
    identity: tuple                   # (st_dev, st_ino) of the pipe at subscription
    users: int = 0
    closing: bool = False
    pending: bytearray = field(default_factory=bytearray)
    dropped: int = 0
    writer: threading.Thread | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def write(self) -> None:
        """Write what the pipe takes now; close the write end of a finished feed once
        empty."""
        with self.lock:
            alive = _identity(self.fd) == self.identity
            while alive and self.pending and _has_room(self.fd, 0.0):
                try:
                    sent = os.write(self.fd, self.pending[:CHUNK])
                except OSError:        # the reader closed its end (EPIPE): nobody reads
                    alive = False
                    break
                del self.pending[:sent]
            if not alive:
                self.pending.clear()
            if self.closing and not self.pending and self.fd >= 0:
                if alive:
                    os.close(self.fd)
                self.fd = -1

    def drain(self) -> None:
        """The writer thread: the rest, as the reader makes room (given up after GIVE_UP_S
        seconds without any)."""
        idle, left = 0, -1
        while True:
            _has_room(self.fd, 1.0)       # wait for the reader, the feed unlocked
            self.write()
            with self.lock:
                if not self.pending:
                    self.writer = None
                    break
                idle, left = (idle + 1 if len(self.pending) == left else 0), len(self.pending)
                if idle >= GIVE_UP_S:
                    self.pending.clear()
        self.write()


@dataclass(eq=False)
class Subscription:
    model_id: int
    device: int
    time_info: int
    metrics: int
    feed: Feed
    ops: tuple                        # (op type, op name) of each operator


@dataclass(eq=False)
class OpSubscriptions:
    rt: object
    configs: dict = field(default_factory=dict)
    subs: dict = field(default_factory=dict)         # model id -> Subscription
    feeds: dict = field(default_factory=dict)        # fd -> Feed
    names: OrderedDict = field(default_factory=OrderedDict)   # op index -> [type, name]
    next_index: int = 0
    made: int = 0

    # ----- subscribe configs ----------------------------------------------------------------
    def create_config(self, time_info: int, metrics: int, fd: int) -> int:
        if time_info not in (0, 1):
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: timeInfoSwitch is {value}; 0 (off) or 1 (on). NULL (0) came "
                "back.").format(call="aclprofCreateSubscribeConfig", value=time_info))
        self.made += 1
        handle = CONFIG_BASE + self.made * STEP
        self.configs[handle] = SubscribeConfig(time_info, metrics, fd)
        return handle

    def config(self, handle: int, call: str) -> SubscribeConfig:
        return handles.live(self.configs, handle, call, _(
            "{call}: {handle} is not a live aclprofSubscribeConfig (destroyed, or never "
            "created). Create one with acl.prof.create_subscribe_config."), _(
            "{call}: profSubscribeConfig is NULL. Create one with "
            "acl.prof.create_subscribe_config."))

    def destroy_config(self, handle: int) -> None:
        self.config(handle, "aclprofDestroySubscribeConfig")
        del self.configs[handle]

    # ----- subscribe / unsubscribe ------------------------------------------------------------
    def _loaded(self, model_id: int, call: str):
        lm = self.rt.models.loaded.get(model_id)
        if lm is None:
            raise SimError(C.ACL_ERROR_INVALID_MODEL_ID, _(
                "{call}: model {model_id} is not loaded; subscribe to a model between "
                "acl.mdl.load_* and acl.mdl.unload.").format(call=call, model_id=model_id))
        return lm

    def _no_api_mode(self, call: str) -> None:
        if profiling.of(self.rt).mode == "api":
            raise SimError(C.ACL_ERROR_PROF_API_CONFLICT, _(
                "{call}: profiling runs in aclprofInit's mode; call acl.prof.finalize() "
                "before subscribing to models.").format(call=call))

    def subscribe(self, model_id: int, handle: int) -> None:
        call = "aclprofModelSubscribe"
        lm = self._loaded(model_id, call)
        cfg = self.config(handle, call)
        self._no_api_mode(call)
        if not cfg.time_info and cfg.metrics == C.ACL_AICORE_NONE:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: the config asks for nothing (timeInfoSwitch 0 and ACL_AICORE_NONE); "
                "set timeInfoSwitch to 1 to receive op records.").format(call=call))
        if model_id in self.subs:
            raise SimError(C.ACL_ERROR_PROF_REPEAT_SUBSCRIBE, _(
                "{call}: model {model_id} is already subscribed; unsubscribe it first.").format(
                    call=call, model_id=model_id))
        first = next((s for s in self.subs.values() if s.device == lm.device), None)
        if first is not None and (first.time_info, first.metrics) != (cfg.time_info,
                                                                      cfg.metrics):
            raise SimError(C.ACL_ERROR_INVALID_PROFILING_CONFIG, _(
                "{call}: device {device} already has a subscription with timeInfoSwitch "
                "{was_time} and aicoreMetrics {was_metrics}; every subscription on a device "
                "uses the same.").format(call=call, device=lm.device, was_time=first.time_info,
                                         was_metrics=first.metrics))
        if pyodide.pyodide():
            raise SimulatorLimit(pyodide.no_threads(_(
                "a subscription's records are written into a pipe by a writer thread")))
        feed = self._feed(cfg.fd, call)
        self.feeds[cfg.fd] = feed
        feed.users += 1
        feed.closing = False
        self.subs[model_id] = Subscription(model_id, lm.device, cfg.time_info, cfg.metrics,
                                           feed, lm.ops)
        profiling.of(self.rt).mode = "subscribe"

    def unsubscribe(self, model_id: int) -> None:
        call = "aclprofModelUnSubscribe"
        self._loaded(model_id, call)
        self._no_api_mode(call)
        sub = self.subs.get(model_id)
        if sub is None:
            raise SimError(C.ACL_ERROR_INVALID_MODEL_ID, _(
                "{call}: model {model_id} is not subscribed (acl.prof.model_subscribe "
                "first).").format(call=call, model_id=model_id))
        del self.subs[model_id]
        sub.feed.users -= 1
        if not sub.feed.users:          # the last on its pipe: closed once written
            sub.feed.closing = True
            self.feeds = {fd: f for fd, f in self.feeds.items() if f is not sub.feed}
            self._deliver(sub.feed)
        if not self.subs:
            profiling.of(self.rt).mode = "off"

    # ----- the pipe ---------------------------------------------------------------------------
    def _feed(self, fd: int, call: str) -> Feed:
        found = self.feeds.get(fd)
        if found is not None and _identity(fd) == found.identity:
            return found
        why = None
        if fd <= 2:
            why = _("fd {fd} is a standard stream").format(fd=fd)
        elif _identity(fd) is None:
            why = _("fd {fd} is not an open pipe").format(fd=fd)
        elif not _writable(fd):
            why = _("fd {fd} is the read end of its pipe").format(fd=fd)
        if why:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: {why}. The simulator writes op records only into the write end of a "
                "pipe: r, w = os.pipe(), then acl.prof.create_subscribe_config(1, "
                "ACL_AICORE_NONE, w).").format(call=call, why=why))
        return Feed(fd, _identity(fd))

    def _deliver(self, feed: Feed) -> None:
        """Write what the pipe takes now; a writer thread writes the rest."""
        feed.write()
        with feed.lock:
            if feed.pending and feed.writer is None:
                feed.writer = threading.Thread(target=feed.drain, daemon=True,
                                               name="acl_lab profiler writer")
                feed.writer.start()

    # ----- executions -------------------------------------------------------------------------
    def watch(self, model_id: int, task):
        """``task`` (a model execution) writing its op records once it has run."""
        sub = self.subs.get(model_id)
        if sub is None or not sub.ops:
            return task
        run = task.run

        def run_and_record() -> None:
            if run is not None:
                run()
            start = task.start_us if task.seq else self.rt.sched.now_us   # blocking: now
            self._record(sub, start, start + task.duration_us)
        task.run = run_and_record
        return task

    def _record(self, sub: Subscription, start_us: float, end_us: float) -> None:
        if self.subs.get(sub.model_id) is not sub:
            return                  # unsubscribed before the execution ran
        n, records = len(sub.ops), []
        start_ns, span = round(start_us * 1000), round((end_us - start_us) * 1000)
        for i, (op_type, op_name) in enumerate(sub.ops):
            begin, end = start_ns + span * i // n, start_ns + span * (i + 1) // n
            if not sub.time_info:
                begin = end = 0
            records.append(prof_op_desc.encode(sub.model_id, C.ACL_SUBSCRIBE_OP, 0,
                                               self._name(op_type, op_name), begin, end,
                                               end - begin, sub.device))
        data = b"".join(records)
        feed = sub.feed
        if len(feed.pending) + len(data) > MAX_PENDING:
            feed.dropped += n
            if feed.dropped == n:
                self.rt.report(_("model {model_id}: the subscription's pipe is full and "
                                 "nobody reads it; op records are dropped.").format(
                                     model_id=sub.model_id))
            return
        feed.pending += data
        self._deliver(feed)

    def _name(self, op_type: str, op_name: str) -> int:
        self.next_index += 1
        self.names[self.next_index] = [op_type, op_name]
        if len(self.names) > MAX_NAMES:
            self.names.popitem(last=False)
        return self.next_index

    # ----- aclprofGetOp* ----------------------------------------------------------------------
    def read(self, ptr: int, length: int, call: str) -> bytes:
        """The opInfo bytes the program passes (a host buffer it read the pipe into)."""
        if ptr == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _("{call}: opInfo is NULL.").format(
                call=call))
        if length == 0:
            return b""
        block = host_readable(self.rt.memory.map, ptr, length, call, self.rt.profile.run_mode,
                              what="opInfo", code=C.ACL_ERROR_INVALID_PARAM)
        self.rt.memory.ram.need(2 * length, call, _("the op records it reads"))
        out = np.empty(length, np.uint8)
        block.read_into(ptr - block.ptr, length, out)
        return out.tobytes()

    def op_count(self, ptr: int, length: int) -> int:
        call = "aclprofGetOpNum"
        return prof_op_desc.count(self.read(ptr, length, call), call)

    def op_field(self, ptr: int, length: int, index: int, name: str, call: str) -> int:
        return prof_op_desc.field(self.read(ptr, length, call), index, name, call)

    def _text(self, ptr: int, length: int, index: int, which: int, call: str) -> bytes:
        op_index = self.op_field(ptr, length, index, "op_index", call)
        entry = self.names.get(op_index)
        if entry is None or entry[which] is None:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: the op {what} of record {index} was already read (each op's type and "
                "name can be read once), or the record is older than the {most} the profiler "
                "keeps.").format(call=call, what=("type", "name")[which], index=index,
                                  most=MAX_NAMES))
        return entry[which].encode()

    def text_len(self, ptr: int, length: int, index: int, which: int) -> int:
        call = ("aclprofGetOpTypeLen", "aclprofGetOpNameLen")[which]
        return len(self._text(ptr, length, index, which, call)) + 1

    def text(self, ptr: int, length: int, index: int, buf_len: int, which: int) -> str:
        """The op's type (which 0) or name (1) as a buffer of ``buf_len`` bytes receives it;
        the getter forgets it then (OpDescParser::GetOpType / GetOpName)."""
        call = ("aclprofGetOpType", "aclprofGetOpName")[which]
        if buf_len > NAME_LIMIT:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: the length is {n}; pyACL takes at most {most}.").format(
                    call=call, n=buf_len, most=NAME_LIMIT))
        if buf_len == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: the length is 0; pass the one acl.prof.get_op_{what}_len "
                "gives.").format(call=call, what=("type", "name")[which]))
        data = self._text(ptr, length, index, which, call)
        if buf_len < len(data):
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: {n} bytes cannot hold {size} bytes; pass the length "
                "acl.prof.get_op_{what}_len gives.").format(
                    call=call, n=buf_len, size=len(data) + 1, what=("type", "name")[which]))
        op_index = self.op_field(ptr, length, index, "op_index", call)
        entry = self.names[op_index]
        entry[which] = None
        if entry == [None, None]:
            del self.names[op_index]
        return data[:buf_len - 1].decode(errors="replace")

    def text_v2(self, ptr: int, length: int, index: int, which: int) -> str:
        """pyACL's _v2 getters: the length first, then the text in a buffer that fits."""
        return self.text(ptr, length, index, self.text_len(ptr, length, index, which), which)


def _identity(fd: int) -> tuple | None:
    """(st_dev, st_ino) of the pipe open at ``fd``; None if it is not an open pipe."""
    try:
        st = os.fstat(fd)
    except (OSError, ValueError, OverflowError):
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISFIFO(st.st_mode) else None


def _writable(fd: int) -> bool:
    try:
        import fcntl
        return fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE in (os.O_WRONLY, os.O_RDWR)
    except (ImportError, OSError):
        return False


def _has_room(fd: int, wait_s: float) -> bool:
    """Would a write of up to PIPE_BUF bytes go through without waiting (after waiting up
    to ``wait_s`` for it)?"""
    try:
        return bool(select.select([], [fd], [], wait_s)[1])
    except (OSError, ValueError):
        return False


def of(rt) -> OpSubscriptions:
    found = getattr(rt, "profiler_ops", None)
    if found is None:
        found = rt.profiler_ops = OpSubscriptions(rt)
    return found


def watch(rt, model_id: int, task):
    """The execution task of ``model_id``, writing op records if the model is subscribed."""
    subs = getattr(rt, "profiler_ops", None)
    return task if subs is None or not subs.subs else subs.watch(model_id, task)
