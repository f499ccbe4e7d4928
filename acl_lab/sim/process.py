"""One simulated process: init state, devices, contexts, streams, events and memory.

Every public method validates first and raises SimError before it changes anything;
acl_lab.sim.api turns that into the ACL return code. Callers hold ``lock``.
"""
from __future__ import annotations

import json
import re
import sys
import threading
from dataclasses import dataclass, field

from acl_lab import constants as C
from acl_lab.support import threads
from acl_lab.sim.capture import CaptureManager
from acl_lab.i18n import _
from acl_lab.spec.memory_rules import ALLOCATORS, c_name
from acl_lab.sim.single_op.runtime import SingleOps
from acl_lab.sim.single_op.custom import CustomOps
from acl_lab.sim.single_op.dump_args import DumpArgs
from acl_lab.sim.kernels import Kernels
from acl_lab.sim.kernel_args import KernelArgs
from acl_lab.sim.allocators import Allocators
from acl_lab.sim.ipc import IpcMemory
from acl_lab.sim.vmm import VirtualMemory
from acl_lab.sim.mem_pools import MemPools
from acl_lab.sim.host_memory import HostRegistry
from acl_lab.spec.snapshot_schema import Snapshot
from acl_lab.sim.memory import FREED_BY_CALL, Allocation, Memory
from acl_lab.sim.hostram import OBJECT_BYTES
from acl_lab.sim.models import OfflineModels
from acl_lab.sim.applog import AppLog
from acl_lab.sim.callbacks import Callbacks
from acl_lab.sim.aclnn import Aclnn
from acl_lab.sim.peer import PeerAccess
from acl_lab.sim.notifies import Notifies
from acl_lab.sim.runtime_settings import RuntimeSettings
from acl_lab.sim.task_reports import TaskReports
from acl_lab.sim.profiles import Profile
from acl_lab.sim.simerror import SimError
from acl_lab.spec import handles
from acl_lab.sim.events import EVENT_BASE, EventCalls
from acl_lab.sim.streams import Event, Scheduler, Stream, Task

CTX_BASE, STREAM_BASE = 0x1000_0000, 0x2000_0000
HANDLE_STEP = 0x40
DEFAULT_STREAM = 0x20   # context handle + this: its default stream (aclrtCtxGetCurrentDefaultStream)


@dataclass(eq=False)
class Context:
    handle: int
    device: int
    default: bool
    default_stream: Stream | None = None
    streams: set = field(default_factory=set)    # explicit stream handles
    events: set = field(default_factory=set)
    #: a stream of it was set to ACL_STOP_ON_FAILURE: every stream of it stops on a failure
    stop_on_failure: bool = False


@dataclass(eq=False)
class Device:
    id: int
    refs: int = 0                  # aclrtSetDevice calls not yet matched by aclrtResetDevice
    default_ctx: Context | None = None


class Process(EventCalls):
    """One simulated process (what a program gets from aclInit on a device): its devices,
    contexts, streams, events, memory and the managers of its models, callbacks and
    operators. Elsewhere in the simulator it is called ``rt``."""
    def __init__(self, profile: Profile):
        self.profile = profile
        self.lock = threading.RLock()
        self.memory = Memory(profile)
        self.sched = Scheduler()
        self.sched.drop_queued = self._drop_queued
        self.initialized = False
        self.finalized = False
        self.init_refs = 0                       # aclInit calls aclFinalizeReference undoes
        self.default_device: int | None = None   # aclInit's defaultDevice: threads without a
        #                                          context set it implicitly
        self.dump_state = "off"               # aclmdlInitDump / SetDump / FinalizeDump
        self.devices: dict[int, Device] = {}
        self.contexts: dict[int, Context] = {}
        self.streams: dict[int, Stream] = {}
        self.events: dict[int, Event] = {}
        self.reports: list[str] = []          # leak reports from reset_device / finalize
        self.capture = CaptureManager(self)
        self.peer = PeerAccess(self)
        self.aclnn = Aclnn(self)
        self.models = OfflineModels(self)            # offline models, datasets, data buffers
        self.callbacks = Callbacks(self)      # host callbacks and the threads subscribed
        self.plog = AppLog()                  # aclAppLog lines (the plog files of CANN)
        self.single_ops = SingleOps(self)     # acl.op: tensor descs, attrs, op models
        self.custom_ops = CustomOps(self)     # acl.op: kernels and compile functions
        self.dump_args = DumpArgs(self)       # aclopStartDumpArgs
        self.kernels, self.kernel_args = Kernels(self), KernelArgs(self)  # kernel binaries
        self.allocators, self.ipc = Allocators(self), IpcMemory(self)  # descs, IPC keys
        self.settings = RuntimeSettings(self)  # sat mode, system options, limits, timeouts
        self.notifies = Notifies(self)
        self.task_reports = TaskReports(self)   # who issued which task; exception callbacks
        self.sched.on_failure = self.task_reports.failed
        self.vmm, self.host_registry = VirtualMemory(self), HostRegistry(self)  # chapter 10
        self.mem_pools = MemPools(self)       # stream-ordered pools (aclrtMemPool*)
        self._counters = {CTX_BASE: 0, STREAM_BASE: 0, EVENT_BASE: 0}
        self.memory.ram.objects = lambda: (self.sched.pending_tasks + self.capture.task_count
                                           + len(self.streams) + len(self.events)
                                           + self.callbacks.waiting())
        self._local = threads.Local()         # per-thread current context, last error

    # ----- bookkeeping -------------------------------------------------------------------
    def _handle(self, base: int) -> int:
        self._counters[base] += 1
        return base + self._counters[base] * HANDLE_STEP

    @property
    def current_ctx(self) -> Context | None:
        ctx = self._local.get("ctx")
        return ctx if ctx is not None and ctx.handle in self.contexts else None

    @current_ctx.setter
    def current_ctx(self, ctx: Context | None) -> None:
        self._local.ctx = ctx

    @property
    def last_error(self) -> str:
        return self._local.get("error", "")

    @last_error.setter
    def last_error(self, text: str) -> None:
        self._local.error = text

    @property
    def last_code(self) -> int:
        """This thread's last failure code (aclrtPeekAtLastError / aclrtGetLastError)."""
        return self._local.get("code", C.ACL_SUCCESS)

    @last_code.setter
    def last_code(self, code: int) -> None:
        self._local.code = code

    def report(self, text: str) -> None:
        """Say out loud what a release left behind (real ACL only logs it)."""
        self.reports.append(text)
        print(f"[acl_lab] {text}", file=sys.stderr)

    # ----- process -----------------------------------------------------------------------
    # aclrt* calls do not check aclInit (hicann/runtime: only dump/profiling APIs return
    # ACL_ERROR_UNINITIALIZE), so neither does the simulator.
    def init(self, read_config=dict) -> None:
        """aclInit (aclInitImpl): a repeated call is refused before the config is read; the
        config's defaultDevice, if any, is taken only once every check passed."""
        if self.initialized:    # the runtime counts the call even so (acl.cpp aclInitImpl)
            self.init_refs += 1
            raise SimError(C.ACL_ERROR_REPEAT_INITIALIZE,
                           _("{call}: AscendCL is already initialized in this process. Call it "
                             "once; the return value ACL_ERROR_REPEAT_INITIALIZE is "
                             "harmless.").format(call="aclInit"))
        device = _default_device(read_config())
        if device is not None:
            self.check_device_id(device, "aclInit")
        self.default_device = device
        self.initialized, self.finalized, self.init_refs = True, False, 1

    def finalize(self) -> None:
        if self.finalized:   # a first aclFinalize succeeds even without aclInit, as in ACL
            raise SimError(C.ACL_ERROR_REPEAT_FINALIZE,
                           _("{call}: AscendCL was already finalized. Call it once, at the very "
                             "end.").format(call="aclFinalize"))
        for dev in list(self.devices.values()):
            if dev.refs:
                self.report(_("{call}: device {device} was still set; resetting it. Call "
                              "acl.rt.reset_device({device}) before acl.finalize().").format(
                                  call="aclFinalize", device=dev.id))
                dev.refs = 0
                self._close_device(dev, "aclFinalize")
        leaked = self.memory.live(apis={api for api, rule in ALLOCATORS.items()
                                        if rule.freed_by == "free_host"})
        if leaked:
            self.report(_("{call}: {count} host allocation(s) never freed: {blocks}. Release "
                          "them with acl.rt.free_host().").format(
                              call="aclFinalize", count=len(leaked),
                              blocks=", ".join(a.describe() for a in leaked[:5])))
            for a in leaked:
                self.memory.release(a, _("released by {call}").format(call="aclFinalize"))
        self.initialized, self.finalized, self.init_refs = False, True, 0
        self.default_device = None      # aclFinalize turns the default device off

    def finalize_reference(self) -> int:
        """aclFinalizeReference (acl.cpp aclFinalizeReferenceImpl): undo one aclInit; the
        last one finalizes. Returns the references left."""
        if self.init_refs < 1:
            raise SimError(C.ACL_ERROR_REPEAT_FINALIZE,
                           _("{call}: no aclInit is left to undo (never initialized, or "
                             "already finalized).").format(call="aclFinalizeReference"))
        if self.init_refs > 1:
            self.init_refs -= 1
        else:
            self.finalize()
        return self.init_refs

    # ----- configuration (dump) ---------------------------------------------------------
    def configure(self, call: str, validate=lambda: None) -> None:
        """aclmdlInitDump / SetDump / FinalizeDump: the dump state machine, and rule 20
        (docs/rules.md#rule-20: configuration during capture may not work: refused)."""
        if not self.initialized:
            raise SimError(C.ACL_ERROR_UNINITIALIZE,
                           _("{call}: AscendCL is not initialized; dump configuration needs "
                             "acl.init() first.").format(call=call))
        if self.capture.active:
            stream = next(iter(self.capture.active))
            raise SimError(C.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
                           _("{call}: stream {stream} is capturing. Configuration calls "
                             "(profiling, dump, overflow detection) during capture may fail or "
                             "not apply to the captured model; the simulator refuses them. "
                             "Configure before aclmdlRICaptureBegin or after capture "
                             "end.").format(call=call, stream=f"0x{stream:x}"))
        state = self.dump_state
        if call == "aclmdlInitDump" and state != "off":
            raise SimError(C.ACL_ERROR_DUMP_ALREADY_RUN,
                           _("{call}: dump is already initialized. Call aclmdlFinalizeDump "
                             "first.").format(call=call))
        if call != "aclmdlInitDump" and state == "off":
            raise SimError(C.ACL_ERROR_DUMP_NOT_RUN,
                           _("{call}: dump is not initialized. Call aclmdlInitDump "
                             "first.").format(call=call))
        validate()
        self.dump_state = {"aclmdlInitDump": "initialized", "aclmdlSetDump": "set",
                           "aclmdlFinalizeDump": "off"}[call]

    # ----- devices -----------------------------------------------------------------------
    def check_device_id(self, device: int, call: str) -> None:
        if not 0 <= device < self.profile.device_count:
            raise SimError(C.ACL_ERROR_RT_INVALID_DEVICEID,
                           _("{call}: device {device} does not exist; this {soc} machine has "
                             "devices 0..{last} (acl.rt.get_device_count()).").format(
                               call=call, device=device, soc=self.profile.soc_name,
                               last=self.profile.device_count - 1))

    def set_device(self, device: int) -> None:
        self.check_device_id(device, "aclrtSetDevice")
        dev = self.devices.setdefault(device, Device(device))
        if dev.default_ctx is None:
            dev.default_ctx = self._new_context(device, default=True)
        dev.refs += 1
        self.current_ctx = dev.default_ctx

    def reset_device_force(self, device: int) -> None:
        """aclrtResetDeviceForce: release the device however many aclrtSetDevice calls are
        open (ApiImpl::DeviceResetForce); a device not set is an error as for ResetDevice."""
        self.check_device_id(device, "aclrtResetDeviceForce")
        dev = self.devices.get(device)
        if dev is None or dev.refs == 0:
            raise SimError(C.ACL_ERROR_RT_CONTEXT_RELEASE_ERROR,
                           _not_set("aclrtResetDeviceForce", device))
        dev.refs = 0
        self._close_device(dev, "aclrtResetDeviceForce")

    def reset_device(self, device: int) -> None:
        self.check_device_id(device, "aclrtResetDevice")
        dev = self.devices.get(device)
        if dev is None or dev.refs == 0:
            raise SimError(C.ACL_ERROR_RT_CONTEXT_RELEASE_ERROR,
                           _not_set("aclrtResetDevice", device))
        dev.refs -= 1
        if dev.refs == 0:
            self._close_device(dev, "aclrtResetDevice")

    def _close_device(self, dev: Device, call: str) -> None:
        """Release everything on a device: its contexts, streams, events and memory."""
        self.sched.now_us = max([self.sched.now_us] + [
            s.t_end for s in self.streams.values() if s.device == dev.id])
        ctxs = [c for c in self.contexts.values() if c.device == dev.id]
        explicit = [s for c in ctxs for s in c.streams]
        if explicit:
            self.report(_("{call}({device}): {count} stream(s) never destroyed ({streams}); "
                          "released now. Destroy streams before resetting the device.").format(
                              call=call, device=dev.id, count=len(explicit),
                              streams=", ".join(hex(s) for s in explicit[:5])))
        self.vmm.forget(dev.id, call)              # mappings first: they are not leaks
        self.host_registry.forget(dev.id)
        self.mem_pools.forget(dev.id)
        leaked = [a for a in self.memory.live(device=dev.id) if not a.api.startswith("model_")]
        if leaked:
            blocks = ", ".join(a.describe() for a in leaked[:5]) + (" ..." if len(leaked) > 5
                                                                      else "")
            self.report(_("{call}({device}): {count} allocation(s) never freed: {blocks}; "
                          "released now. Free device memory before resetting the "
                          "device.").format(call=call, device=dev.id, count=len(leaked),
                                            blocks=blocks))
        self.capture.drop(lambda m: m.device == dev.id)
        self.models.drop_device(dev.id, call)
        self.peer.forget(dev.id)
        self.notifies.forget_device(dev.id)
        for c in ctxs:
            self._drop_context(c)
        for a in leaked:
            self.memory.release(a, _("released by {call}").format(call=f"{call}({dev.id})"))
        dev.default_ctx = None

    # ----- contexts ----------------------------------------------------------------------
    def _new_context(self, device: int, default: bool) -> Context:
        ctx = Context(self._handle(CTX_BASE), device, default)
        ctx.default_stream = Stream(0, ctx.handle, device, default=True)
        self.contexts[ctx.handle] = ctx
        return ctx

    def _drop_context(self, ctx: Context) -> None:
        self.capture.drop(lambda m: m.stream in ctx.streams)
        for s in [ctx.default_stream.handle] + sorted(ctx.streams):
            stream = ctx.default_stream if s == 0 else self.streams.pop(s)
            self.sched.wait_stream(stream)
        for e in ctx.events:
            self.events.pop(e, None)
        del self.contexts[ctx.handle]

    def require_ctx(self, call: str) -> Context:
        """This thread's current context; ``call`` (a C name, or an allocator's
        memory_rules key) names the caller if there is none."""
        ctx = self.current_ctx
        if ctx is None and self.default_device is not None:
            self.set_device(self.default_device)    # implicit aclrtSetDevice (CurrentContext)
            return self.current_ctx
        if ctx is None:
            raise SimError(C.ACL_ERROR_RT_CONTEXT_NULL,
                           _("{call}: this thread has no current context. Call "
                             "acl.rt.set_device(0) (or acl.rt.set_context(ctx)) in this thread "
                             "first — the current context is per thread.").format(
                               call=c_name(call)))
        return ctx

    def create_context(self, device: int) -> int:
        self.check_device_id(device, "aclrtCreateContext")
        dev = self.devices.setdefault(device, Device(device))
        if dev.default_ctx is None:      # creating a context opens the device implicitly
            dev.default_ctx = self._new_context(device, default=True)
            dev.refs += 1
        ctx = self._new_context(device, default=False)
        self.current_ctx = ctx
        return ctx.handle

    @staticmethod
    def _live(table: dict, handle: int, refusal: str, call: str):
        """The live object ``handle`` names; NULL is an invalid parameter, anything else that
        is not live a dead handle (the runtime's handle check)."""
        return handles.live(table, handle, call, refusal,
                            dead_code=C.ACL_ERROR_RT_INVALID_HANDLE)

    def context(self, handle: int, call: str) -> Context:
        return self._live(self.contexts, handle, _(
            "{call}: {handle} is not a live context. Use the handle acl.rt.create_context "
            "returned (or acl.rt.get_context())."), call)

    def destroy_context(self, handle: int) -> None:
        ctx = self.context(handle, "aclrtDestroyContext")
        if ctx.default:
            raise SimError(C.ACL_ERROR_RT_CONTEXT_NULL,
                           _("{call}: {handle} is device {device}'s default context, created by "
                             "aclrtSetDevice. It cannot be destroyed; "
                             "acl.rt.reset_device({device}) releases it.").format(
                               call="aclrtDestroyContext", handle=f"0x{handle:x}",
                               device=ctx.device))
        self._drop_context(ctx)

    def set_context(self, handle: int) -> None:
        self.current_ctx = self.context(handle, "aclrtSetCurrentContext")

    # ----- streams -----------------------------------------------------------------------
    def create_stream(self, priority: int = 0, flags: int = 0,
                      call: str = "aclrtCreateStream") -> int:
        ctx = self.require_ctx(call)
        self.memory.ram.need(OBJECT_BYTES, call, _("one more stream"))
        s = Stream(self._handle(STREAM_BASE), ctx.handle, ctx.device)
        s.priority, s.flags = priority, flags
        s.failure_mode = int(ctx.stop_on_failure)     # 遇错即停 holds for the whole context
        self.streams[s.handle] = s
        ctx.streams.add(s.handle)
        return s.handle

    def stream(self, handle: int, call: str, other_device_ok: bool = False) -> Stream:
        """The stream ``handle`` names for this thread (0: the current context's default)."""
        ctx = self.require_ctx(call)
        if handle == 0:
            return ctx.default_stream
        owner = self.contexts.get(handle - DEFAULT_STREAM)    # a default stream by its handle
        s = owner.default_stream if owner is not None else handles.live(
            self.streams, handle, call, _(
                "{call}: {handle} is not a live stream. Use a handle from "
                "acl.rt.create_stream() that has not been destroyed, or 0 for the default "
                "stream."), dead_code=C.ACL_ERROR_RT_INVALID_HANDLE)
        if s.device != ctx.device and not other_device_ok:
            raise SimError(C.ACL_ERROR_RT_STREAM_CONTEXT,
                           _("{call}: stream {stream} belongs to device {device}, but this "
                             "thread's current context is on device {current}. Switch with "
                             "acl.rt.set_context() or use a stream of this device.").format(
                               call=call, stream=f"0x{handle:x}", device=s.device,
                               current=ctx.device))
        return s

    def destroy_stream(self, handle: int, force: bool = False) -> None:
        """aclrtDestroyStream waits for the queued tasks; aclrtDestroyStreamForce discards
        them (their effects never happen)."""
        call = "aclrtDestroyStreamForce" if force else "aclrtDestroyStream"
        if handle == 0:
            if force:       # aclrtDestroyStreamForceImpl: ACL_REQUIRES_NOT_NULL(stream)
                raise SimError(C.ACL_ERROR_INVALID_PARAM,
                               _("{call}: stream is NULL (0). The default stream cannot be "
                                 "destroyed; acl.rt.reset_device releases it.").format(
                                   call=call))
            self.require_ctx(call)
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: 0 is the default stream, created by aclrtSetDevice. It "
                             "cannot be destroyed; aclrtResetDevice releases it.").format(
                               call="aclrtDestroyStream"))
        s = self.stream(handle, call)
        if s.default:       # named by the handle aclrtCtxGetCurrentDefaultStream gave
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: {handle} is a default stream, created by aclrtSetDevice. "
                             "It cannot be destroyed; aclrtResetDevice releases it.").format(
                               call=call, handle=f"0x{handle:x}"))
        self._not_capturing(s, call)
        if force:
            self._drop_queued(s)
        else:
            self.sched.wait_stream(s)   # the device finishes what was queued
        del self.streams[handle]
        self.contexts[s.ctx].streams.discard(handle)

    def _drop_queued(self, s: Stream) -> None:
        """``s``'s queued tasks go unrun: a forced destroy, or a task failed under
        ACL_STOP_ON_FAILURE."""
        self.capture.discard(s.pending)
        self.memory.ram.unreserve(s.pending)
        self.sched.pending_tasks -= len(s.pending)
        s.pending.clear()

    def _not_stopped(self, s: Stream, call: str) -> None:
        """A stream stopped by a failed task under ACL_STOP_ON_FAILURE answers with that
        task's code (the runtime's abort state: Stream::GetError)."""
        if s.stopped:
            raise SimError(s.stopped, _(
                "{call}: a task of stream {stream} failed under ACL_STOP_ON_FAILURE, so the "
                "tasks queued after it were dropped unrun and the stream takes no new task "
                "(遇错即停). Read the first failure's message where it was reported, then "
                "destroy the stream (acl.rt.destroy_stream_force) and create another.").format(
                    call=call, stream=f"0x{s.handle:x}"))

    def all_streams(self, device: int | None = None) -> list[Stream]:
        """Default and explicit streams (of one device, or all)."""
        every = [c.default_stream for c in self.contexts.values()] + list(self.streams.values())
        return [s for s in every if device is None or s.device == device]

    def _not_capturing(self, s: Stream, call: str) -> None:
        if s.capture is not None:
            raise SimError(C.ACL_ERROR_RT_STREAM_CAPTURED,
                           _("{call}: stream {stream} is capturing; its tasks are only "
                             "recorded, so there is nothing to wait for. Synchronizing or "
                             "querying a stream, event, device or context during capture is "
                             "illegal in every mode: end the capture first (the capture itself "
                             "is still valid).").format(call=call, stream=f"0x{s.handle:x}"))

    def synchronize_stream(self, handle: int) -> None:
        # waiting on another device's stream is allowed (the runtime switches context for it)
        self.callbacks.notice("aclrtSynchronizeStream")
        s = self.stream(handle, "aclrtSynchronizeStream", other_device_ok=True)
        self._not_capturing(s, "aclrtSynchronizeStream")
        self._not_stopped(s, "aclrtSynchronizeStream")
        self.sched.wait_stream(s)

    def synchronize_device(self) -> None:
        self.callbacks.notice("aclrtSynchronizeDevice")
        ctx = self.require_ctx("aclrtSynchronizeDevice")
        streams = self.all_streams(ctx.device)
        for s in streams:
            self._not_capturing(s, "aclrtSynchronizeDevice")
        for s in streams:
            self.sched.wait_stream(s)

    # ----- memory ------------------------------------------------------------------------
    def malloc(self, size: int, policy: int, api: str) -> int:
        self.callbacks.notice(c_name(api))
        self.memory.check_size(size, api)     # ACL checks the size before the context
        return self.memory.place_device(self.require_ctx(api).device, size, policy, api).ptr

    def malloc_host(self, size: int) -> int:
        self.callbacks.notice("aclrtMallocHost")
        self.memory.check_size(size, "malloc_host")
        self.require_ctx("malloc_host")
        return self.memory.malloc_host(size).ptr

    def free(self, ptr: int, api: str) -> None:
        self.callbacks.notice(c_name(api))
        a = self.memory.map.check_free(ptr, api)
        self.ipc.before_free(a, c_name(api))
        if self.sched.queued:     # nothing queued anywhere: nothing to wait for
            self._finish_work_on(a)
        self.memory.release(a, FREED_BY_CALL[api])

    def _finish_work_on(self, a: Allocation) -> None:
        """Freeing waits for queued work that uses the block (it must not vanish under a copy
        in flight); other queued work stays queued. Any device's stream may use it."""
        for s in self.sched.queued_streams():
            last = next((t.seq for t in reversed(s.pending) if a in t.uses), None)
            if last is not None:
                self.sched.wait_stream(s, last)

    def mem_info(self, attr: int) -> tuple[int, int]:
        ctx = self.require_ctx("aclrtGetMemInfo")
        pools = self.memory.pools_for_attr(ctx.device, attr)
        return (sum(p.blocks.free for p in pools), sum(p.spec.size for p in pools))

    # ----- work on streams ---------------------------------------------------------------
    def issue(self, stream: Stream, task: Task, call: str) -> Task:
        """Queue an asynchronous task; a capturing stream records it into its model instead."""
        self.callbacks.notice(call)
        self._not_stopped(stream, call)
        self.memory.ram.need(OBJECT_BYTES, call, _("one more queued task (synchronize the "
                                                   "stream to run what is queued)"))
        if stream.group_mode == "update":
            return self.capture.update_task(stream, task, call)
        if stream.capture is not None:
            return self.capture.record(stream, task)
        cap = self.capture.restricting(stream.device) if stream.default else None
        if cap is not None:
            raise SimError(C.ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
                           _("{call}: the default stream cannot be used while stream {stream} "
                             "is capturing. Use an explicit stream "
                             "(acl.rt.create_stream()).").format(
                               call=call, stream=f"0x{cap.stream.handle:x}"))
        task = self.sched.issue(stream, task, self.profile.rates.launch_us)
        self.task_reports.issued(stream, task)
        return task

    def before_blocking_call(self, call: str) -> None:
        """A synchronous memset/memcpy/model execution is about to run: illegal under a GLOBAL
        capture (or a THREAD_LOCAL one of this thread) unless the thread switched to RELAXED."""
        self.callbacks.notice(call)
        ctx = self.current_ctx
        cap = self.capture.restricting(ctx.device) if ctx is not None else None
        if cap is not None:
            raise SimError(C.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
                           _("{call}: stream {stream} is capturing in {mode} mode, where "
                             "synchronous calls such as {call} are illegal. Use the async form "
                             "on the capturing stream, or switch this thread to RELAXED with "
                             "acl.mdl.ri_capture_thread_exchange_mode("
                             "ACL_MODEL_RI_CAPTURE_MODE_RELAXED) — then the call runs once, "
                             "now, and is not recorded.").format(
                               call=call, stream=f"0x{cap.stream.handle:x}",
                               mode=C.CAPTURE_MODE_NAMES[cap.mode]))
        self.sched.now_us += self.profile.rates.api_us

    def stream_sync_for_pageable(self, stream: Stream, call: str) -> None:
        """ACL turns an async copy with pageable memory into 'synchronize, then copy'
        (ApiErrorDecorator::MemcpyAsync, hicann/runtime src/runtime/api/impl/api_error.cc):
        on a capturing stream that is RT_ERROR_INVALID_VALUE ("The pageable memory copy task
        does not support graph capture": ACL_ERROR_RT_PARAM_INVALID); on another stream while
        a GLOBAL capture restricts this thread, the synchronous copy it became is
        RT_ERROR_STREAM_CAPTURE_MODE_BLOCK_ASYNC."""
        if stream.capture is not None:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                           _("{call}: stream {stream} is capturing, and this async copy touches "
                             "pageable host memory (a numpy array / bytes). The runtime runs such "
                             "a copy as 'synchronize the stream, then copy', which a capture "
                             "cannot record: \"The pageable memory copy task does not support "
                             "graph capture\". Captured copies need pinned memory: allocate the "
                             "host buffer with acl.rt.malloc_host.").format(
                               call=call, stream=f"0x{stream.handle:x}"))
        cap = self.capture.restricting(stream.device)
        if cap is not None:
            raise SimError(C.ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC,
                           _("{call}: stream {stream} is capturing in {mode} mode, and an async "
                             "copy with pageable host memory would block. Use "
                             "acl.rt.malloc_host memory.").format(
                               call=call, stream=f"0x{cap.stream.handle:x}",
                               mode=C.CAPTURE_MODE_NAMES[cap.mode]))
        self.sched.wait_stream(stream)

    # ----- plain-data view -----------------------------------------------------------------
    def snapshot(self) -> Snapshot:
        allocations, pools, touched = self.memory.snapshot(self.devices)
        return {
            "backend": "sim",
            "profile": self.profile.name,
            "soc_name": self.profile.soc_name,
            "run_mode": C.RUN_MODE_NAMES[self.profile.run_mode],
            "initialized": self.initialized,
            "now_us": self.sched.now_us,
            "devices": {d.id: {"refs": d.refs, "open": d.default_ctx is not None}
                        for d in self.devices.values()},
            "contexts": [{"handle": c.handle, "device": c.device, "default": c.default,
                          "streams": sorted(c.streams), "events": sorted(c.events)}
                         for c in self.contexts.values()],
            "streams": [{**s.row(), "settings": self.settings.stream_row(s)}
                        for s in self.streams.values()],
            "events": [e.row() for e in self.events.values()],
            "allocations": allocations,
            "pools": pools,
            "touched_bytes": touched,
            "models": self.capture.snapshot(),
            "offline_models": self.models.snapshot(),
            "timeline": [t.timeline_row() for t in self.sched.timeline],
            "reports": list(self.reports),
            "kernel_binaries": self.kernels.snapshot(), "kernel_args": self.kernel_args.snapshot(),
            "stream_allocators": self.allocators.snapshot(), "ipc_keys": self.ipc.snapshot(),
            "runtime": self.settings.row(),
            "notifies": self.notifies.snapshot(),
            "virtual_memory": self.vmm.snapshot(),
        }


def _default_device(config) -> int | None:
    """The device aclInit's config names as default, {"defaultDevice": {"default_device":
    "0"}}, or None (JsonParser::GetDefaultDeviceIdFromFile: a missing key is no default; a
    value that is not a string of 0 or a positive integer fails aclInit with
    ACL_ERROR_FAILURE, as HandleDefaultDeviceAndStackSize turns every parse failure)."""
    section = config.get("defaultDevice") if isinstance(config, dict) else None
    if not isinstance(section, dict) or "default_device" not in section:
        return None
    value = section["default_device"]
    if not isinstance(value, str) or not re.fullmatch(r"0|[1-9]\d*", value):
        raise SimError(C.ACL_ERROR_FAILURE,
                       _("{call}: defaultDevice.default_device is {value}; write the device "
                         "number as a string of 0 or a positive integer, such as \"0\".").format(
                           call="aclInit", value=json.dumps(value)))
    return int(value)


def _not_set(call: str, device: int) -> str:
    return _("{call}: device {device} is not set in this process. Reset only devices you "
             "opened with acl.rt.set_device({device}).").format(call=call, device=device)
