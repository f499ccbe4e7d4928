"""The profiler of one simulated process (acl.prof): configs, aclprofInit / Start / Stop /
Finalize / SetConfig, and the profile a collection writes (spec/profile_data.py): the tasks
the streams ran between start and stop, on the modeled clock the simulator already keeps,
and the msproftx marks and ranges of that time (profiling_tx.py). Model subscriptions and
the op records they write are profiling_ops.py's.

Rules as hicann/runtime src/dfx/msprof: aclprofCreateConfig (msprofiler/prof_acl_api.cpp
IsValidProfConfig: aicoreEvents must be NULL, no more devices than the machine has, each id
below the count and given once, none only with ACL_PROF_MSPROFTX: else NULL), the ProfAclMgr
mode checks (msprof/engine/src/prof_acl_mgr.cpp: aclprofInit twice
ACL_ERROR_REPEAT_INITIALIZE, a start before init ACL_ERROR_PROF_NOT_RUN, init or start while
models are subscribed ACL_ERROR_PROF_API_CONFLICT), profimpl/adapter/src/
msprofiler_acl_api.cpp (a path of 0 or 4096+ bytes, a data type config of 0, a config type
outside 1..16, a config value over 256 bytes: ACL_ERROR_INVALID_PARAM; switches it does not
know ACL_ERROR_PROF_MODULES_UNSUPPORTED; a second start with another data type config
ACL_ERROR_INVALID_PROFILING_CONFIG; stop and finalize before init succeed and do nothing).
Where the newest runtime starts a collection without aclprofInit into the working
directory, the simulator keeps the documented ACL_ERROR_PROF_NOT_RUN: it writes no file the
program did not name.
"""
from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass, field

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.simerror import SimError
from acl_lab.sim.streams import TIMELINE_LIMIT
from acl_lab.spec import handles, profile_data

CONFIG_BASE, STEP = 0xB000_0000, 0x40
PATH_MAX = 4096            # aclProfPathMaxLen
CONFIG_VALUE_MAX = 256     # configMaxLength
MAX_MARKS = 20_000         # msproftx marks one collection keeps (the rest are dropped)
#: the switches aclprofStart knows (PROF_SWITCH_SUPPORT: every ACL_PROF_* data type)
SWITCHES = (C.ACL_PROF_ACL_API | C.ACL_PROF_TASK_TIME | C.ACL_PROF_AICORE_METRICS
            | C.ACL_PROF_AICPU | C.ACL_PROF_L2CACHE | C.ACL_PROF_HCCL_TRACE
            | C.ACL_PROF_TRAINING_TRACE | C.ACL_PROF_MSPROFTX | C.ACL_PROF_RUNTIME_API
            | C.ACL_PROF_GE_API_L0 | C.ACL_PROF_TASK_TIME_L0 | C.ACL_PROF_TASK_MEMORY
            | C.ACL_PROF_TASK_TIME_L2 | C.ACL_PROF_OP_ATTR | C.ACL_PROF_TASK_TIME_L3
            | C.ACL_PROF_GE_API_L1 | C.ACL_PROF_API_STATS | C.ACL_PROF_AICORE_SHAPE)
TASK_TIMES = (C.ACL_PROF_TASK_TIME | C.ACL_PROF_TASK_TIME_L0 | C.ACL_PROF_TASK_TIME_L2
              | C.ACL_PROF_TASK_TIME_L3)
DEFAULT_TYPES = C.ACL_PROF_ACL_API | C.ACL_PROF_TASK_TIME     # aclprofStart(NULL)


@dataclass(eq=False)
class ProfConfig:
    devices: tuple
    metrics: int
    data_types: int


@dataclass(eq=False)
class Profiler:
    """What the process's profiler holds."""
    rt: object
    mode: str = "off"                 # "off", "api" (aclprofInit), "subscribe"
    path: str = ""
    configs: dict = field(default_factory=dict)
    running: ProfConfig | None = None
    since_us: float = 0.0             # the modeled time of aclprofStart
    written: int = 0                  # collections written so far
    settings: dict = field(default_factory=dict)      # aclprofSetConfig
    marks: list = field(default_factory=list)         # profile_data.HostMark of this run
    made: int = 0

    # ----- aclprofConfig ------------------------------------------------------------------
    def create_config(self, devices: tuple, metrics: int, events: int, data_types: int) -> int:
        call = "aclprofCreateConfig"
        count = self.rt.profile.device_count
        why = None
        if events:
            why = _("aicoreEvents must be NULL (0)")
        elif len(devices) > count:
            why = _("{n} devices are listed; this machine has {count}").format(
                n=len(devices), count=count)
        elif any(d >= count for d in devices):
            why = _("a device id is not below the device count {count}").format(count=count)
        elif len(set(devices)) != len(devices):
            why = _("a device id is listed twice")
        elif not devices and not data_types & C.ACL_PROF_MSPROFTX:
            why = _("no device is listed (only an ACL_PROF_MSPROFTX collection may list none)")
        if why:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: {why}. NULL (0) came back.").format(call=call, why=why))
        self.made += 1
        handle = CONFIG_BASE + self.made * STEP
        self.configs[handle] = ProfConfig(tuple(devices), metrics, data_types)
        return handle

    def config(self, handle: int, call: str) -> ProfConfig:
        return handles.live(self.configs, handle, call, _(
            "{call}: {handle} is not a live aclprofConfig (destroyed, or never created). "
            "Create one with acl.prof.create_config."), _(
            "{call}: profilerConfig is NULL. Create one with acl.prof.create_config."))

    def destroy_config(self, handle: int) -> None:
        self.config(handle, "aclprofDestroyConfig")
        del self.configs[handle]

    # ----- aclprofInit / Finalize -------------------------------------------------------------
    def init(self, path: str) -> None:
        call = "aclprofInit"
        size = len(path.encode())
        if not 0 < size < PATH_MAX:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: the result path is {size} bytes; give 1 to {most}.").format(
                    call=call, size=size, most=PATH_MAX - 1))
        self._not_subscribing(call)
        if self.mode == "api":
            raise SimError(C.ACL_ERROR_REPEAT_INITIALIZE, _(
                "{call}: profiling is already initialized; call acl.prof.finalize() first."
            ).format(call=call))
        if os.path.exists(path) and not os.path.isdir(path):
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: {path} exists and is not a folder; profiles go into a folder."
            ).format(call=call, path=repr(path)))
        self.mode, self.path = "api", path

    def finalize(self) -> None:
        """Before init: nothing to do (ACL_SUCCESS); a collection still running is written."""
        if self.mode != "api":
            return
        if self.running is not None:
            self._write()
        self.mode, self.running, self.rt.sched.synchronous = "off", None, None

    def _not_subscribing(self, call: str) -> None:
        if self.mode == "subscribe":
            raise SimError(C.ACL_ERROR_PROF_API_CONFLICT, _(
                "{call}: models are subscribed (acl.prof.model_subscribe); unsubscribe them "
                "before profiling with aclprofInit / Start.").format(call=call))

    # ----- aclprofStart / Stop --------------------------------------------------------------
    def _resolve(self, handle: int, call: str) -> ProfConfig:
        """The config named (NULL: every device set, with the default data types)."""
        if handle == 0:
            return ProfConfig(tuple(sorted(d for d, dev in self.rt.devices.items()
                                           if dev.refs)), C.ACL_AICORE_NONE, DEFAULT_TYPES)
        cfg = self.config(handle, call)
        if cfg.data_types == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: the config's dataTypeConfig is 0; choose what to collect "
                "(ACL_PROF_TASK_TIME, ACL_PROF_MSPROFTX ...).").format(call=call))
        unknown = cfg.data_types & ~SWITCHES
        if unknown:
            raise SimError(C.ACL_ERROR_PROF_MODULES_UNSUPPORTED, _(
                "{call}: dataTypeConfig has switches no profiler knows (0x{bits:x}).").format(
                    call=call, bits=unknown))
        return cfg

    def start(self, handle: int) -> None:
        call = "aclprofStart"
        cfg = self._resolve(handle, call)
        self._not_subscribing(call)
        if self.mode != "api":
            raise SimError(C.ACL_ERROR_PROF_NOT_RUN, _(
                "{call}: profiling is not initialized: call acl.prof.init(path) first (the "
                "folder the profile goes to).").format(call=call))
        if self.running is not None:
            if self.running.data_types != cfg.data_types:
                raise SimError(C.ACL_ERROR_INVALID_PROFILING_CONFIG, _(
                    "{call}: a collection is already running with dataTypeConfig 0x{was:x}; "
                    "this one asks 0x{now:x}. Stop it first.").format(
                        call=call, was=self.running.data_types, now=cfg.data_types))
            return
        self.running, self.since_us, self.marks = cfg, self.rt.sched.now_us, []
        self.rt.sched.synchronous = deque(maxlen=TIMELINE_LIMIT)

    def stop(self, handle: int) -> None:
        call = "aclprofStop"
        if self.mode != "api":
            return
        cfg = self._resolve(handle, call) if handle else self.running
        if self.running is None:
            raise SimError(C.ACL_ERROR_PROF_NOT_RUN, _(
                "{call}: no collection is running (acl.prof.start was not called, or stop "
                "already ended it).").format(call=call))
        if cfg.data_types != self.running.data_types:
            raise SimError(C.ACL_ERROR_INVALID_PROFILING_CONFIG, _(
                "{call}: the config's dataTypeConfig 0x{now:x} differs from the one the "
                "collection started with (0x{was:x}).").format(
                    call=call, now=cfg.data_types, was=self.running.data_types))
        self._write()
        self.running, self.rt.sched.synchronous = None, None

    @property
    def tx_on(self) -> bool:
        """msproftx (marks, ranges, stamps) works while a collection with it runs."""
        return self.running is not None and bool(self.running.data_types & C.ACL_PROF_MSPROFTX)

    def _write(self) -> None:
        """The collection's timeline into <path>/PROF_<n>_sim (spec/profile_data.py)."""
        cfg, since = self.running, self.since_us
        tasks = []
        if cfg.data_types & TASK_TIMES:     # synchronous calls' tasks: on stream 0
            ran = sorted([t for t in self.rt.sched.timeline if t.start_us >= since]
                         + list(self.rt.sched.synchronous or ()), key=lambda t: t.start_us)
            tasks = [t.timeline_row() for t in ran if self._device(t.stream) in cfg.devices]
        device_of = {t["stream"]: self._device(t["stream"]) for t in tasks}
        data = profile_data.encode(tasks, self.marks if cfg.data_types & C.ACL_PROF_MSPROFTX
                                   else [], device_of)
        self.written += 1
        folder = os.path.join(self.path, profile_data.folder_name(self.written))
        target = profile_data.timeline_path(folder)
        try:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                f.write(data)
        except OSError as e:
            self.written -= 1
            raise SimError(C.ACL_ERROR_PROFILING_FAILURE, _(
                "{call}: the profile could not be written to {path} ({error}).").format(
                    call="aclprofStop", path=repr(target), error=e.strerror or e)) from None

    def _device(self, stream: int) -> int:
        """The device of a stream (0: a synchronous call's, this thread's device)."""
        s = self.rt.streams.get(stream)
        if s is not None:
            return s.device
        if stream == 0:
            ctx = self.rt.current_ctx
            return ctx.device if ctx is not None else 0
        return next((d.default_ctx.default_stream.device for d in self.rt.devices.values()
                     if d.default_ctx is not None and d.default_ctx.default_stream is not None
                     and d.default_ctx.default_stream.handle == stream), 0)

    # ----- aclprofSetConfig -------------------------------------------------------------------
    def set_config(self, kind: int, value: str) -> None:
        call = "aclprofSetConfig"
        if not C.ACL_PROF_ARGS_MIN < kind < C.ACL_PROF_ARGS_MAX:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: configType {kind} must be above ACL_PROF_ARGS_MIN (0) and below "
                "ACL_PROF_ARGS_MAX (17).").format(call=call, kind=kind))
        if len(value.encode()) > CONFIG_VALUE_MAX:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: the value is {size} bytes; at most {most}.").format(
                    call=call, size=len(value.encode()), most=CONFIG_VALUE_MAX))
        if kind == C.ACL_PROF_STORAGE_LIMIT and not (
                value.endswith("MB") and value[:-2].isdigit() and int(value[:-2]) >= 200):
            raise SimError(C.ACL_ERROR_INVALID_PROFILING_CONFIG, _(
                "{call}: ACL_PROF_STORAGE_LIMIT takes a size like \"200MB\" (200 MB at least), "
                "not {value}.").format(call=call, value=repr(value)))
        self.settings[kind] = value
        if kind == C.ACL_PROF_PATH and self.mode != "api":
            self.path = value


def of(rt) -> Profiler:
    found = getattr(rt, "profiler", None)
    if found is None:
        found = rt.profiler = Profiler(rt)
    return found
