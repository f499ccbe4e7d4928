"""What a program sets on the runtime and reads back: the floating-point overflow mode, the
task scheduler, system options (process-wide and per context), resource limits (per device,
per stream, the stream a thread borrows them from), stream attributes and the operator
timeouts. The simulator keeps each value and reports it, in the calls and in
``acl_lab.snapshot()`` ("runtime" and each stream's "settings"); it runs no kernel that the
values would change.

Rules and codes follow hicann/runtime: src/acl/aclrt_impl/device.cpp, context.cpp, stream.cpp
and event.cpp (the ACL layer); src/runtime/api/api_c.cc, api_c_device.cc and api_c_stream.cc
(rts* entry points); src/runtime/api/impl/api_error.cc and api_impl.cc (ApiErrorDecorator,
ApiImpl). Pure argument rules live in acl_lab/spec/device_rules.py.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim import device_facts as facts
from acl_lab.sim import waits
from acl_lab.sim.simerror import SimError
from acl_lab.spec import device_rules as rules
from acl_lab.spec.prototypes.rt_tasks import stream_attr_value
from acl_lab.support import threads


@dataclass
class StreamSettings:
    """What aclrtSetStreamAttribute and its siblings set on one stream."""
    overflow_switch: int = 0
    user_custom_tag: int = 0
    cache_op_info: int = 0
    res_limits: dict = field(default_factory=dict)     # aclrtDevResLimitType -> cores


class RuntimeSettings:
    def __init__(self, rt):
        self.rt = rt
        soc = facts.chip(rt.profile.soc_name)
        self.sat_mode = (C.ACL_RT_OVERFLOW_MODE_INFNAN if facts.OVERFLOW_MODE in soc.features
                         else C.ACL_RT_OVERFLOW_MODE_SATURATION)   # runtime.cc, raw_device.cc
        self.ts_id = C.ACL_TS_ID_AICORE
        self.sys_params = dict.fromkeys(rules.PROCESS_OPTS, 0)    # api_c.cc sysParamOpt_
        self.op_wait_timeout_s = 0                                # 0: never times out
        self.op_execute_timeout_us: int | None = None             # None: the chip's default
        # keyed by the object they belong to, so a reset device or a destroyed context or
        # stream takes its settings with it
        self._ctx_params: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._device_limits: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._streams: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._thread = threads.Local()                            # .res_stream per thread

    @property
    def chip(self) -> facts.ChipFacts:
        return facts.chip(self.rt.profile.soc_name)

    # ----- device-wide ----------------------------------------------------------------
    def set_sat_mode(self, mode: int) -> None:
        """aclrtSetDeviceSatMode (api_error.cc SetDeviceSatMode; ApiImpl sets it for the
        process and for the current device, if any)."""
        rules.sat_mode("aclrtSetDeviceSatMode", mode)
        self.sat_mode = mode

    def set_ts(self, ts: int) -> None:
        """aclrtSetTsDevice: a chip with one task scheduler ignores it (api_c_device.cc
        rtSetTSDevice: tsCount == 1 on every simulated chip)."""
        rules.ts_id("aclrtSetTsDevice", ts)
        self.ts_id = ts

    def set_sys_param(self, opt: int, value: int, context: bool) -> None:
        call = "aclrtCtxSetSysParamOpt" if context else "aclrtSetSysParamOpt"
        rules.sys_param(call, opt, value, context)
        if context:         # ApiImpl::CtxSetSysParamOpt: the current context (implicit device)
            self._ctx_params.setdefault(self.rt.require_ctx(call), {})[opt] = value
        else:
            self.sys_params[opt] = value

    def sys_param(self, opt: int, context: bool) -> int:
        """The process-wide value defaults to 0 (api_c.cc rtGetSysParamOpt); a context's has
        no default: unset is ACL_ERROR_RT_SYSPARAMOPT_NOT_SET (context.cc CtxGetSysParamOpt)."""
        call = "aclrtCtxGetSysParamOpt" if context else "aclrtGetSysParamOpt"
        rules.sys_param(call, opt, None, context)
        if not context:
            return self.sys_params[opt]
        ctx = self.rt.require_ctx(call)
        params = self._ctx_params.get(ctx, {})
        if opt not in params:
            raise SimError(C.ACL_ERROR_RT_SYSPARAMOPT_NOT_SET,
                           _("{call}: opt {opt} was never set in context {ctx}; a context's "
                             "options have no default. Set it with "
                             "acl.rt.ctx_set_sys_param_opt first, or read the process-wide "
                             "value with acl.rt.get_sys_param_opt.").format(
                               call=call, opt=opt, ctx=f"0x{ctx.handle:x}"))
        return params[opt]

    # ----- resource limits -------------------------------------------------------------
    def hardware_cores(self, kind: int) -> int:
        chip = self.chip
        return chip.cube_cores if kind == C.ACL_RT_DEV_RES_CUBE_CORE else chip.vector_cores

    def _open_device(self, device: int, call: str):
        """The default context of a device this process set (ApiImpl: rt->GetDevice is NULL
        for a device never set: RT_ERROR_DEVICE_NULL -> ACL_ERROR_RT_DEV_SETUP_ERROR)."""
        self.rt.check_device_id(device, call)
        dev = self.rt.devices.get(device)
        if dev is None or dev.default_ctx is None:
            raise SimError(C.ACL_ERROR_RT_DEV_SETUP_ERROR,
                           _("{call}: device {device} is not open in this process. Call "
                             "acl.rt.set_device({device}) first.").format(call=call,
                                                                          device=device))
        return dev.default_ctx

    def device_limit(self, device: int, kind: int) -> int:
        call = "aclrtGetDeviceResLimit"
        rules.res_limit_type(call, kind)
        ctx = self._open_device(device, call)
        return self._device_limits.get(ctx, {}).get(kind, self.hardware_cores(kind))

    def set_device_limit(self, device: int, kind: int, value: int) -> None:
        """At most the cores the chip has (api_impl.cc SetDeviceResLimit)."""
        call = "aclrtSetDeviceResLimit"
        rules.res_limit_type(call, kind)
        ctx = self._open_device(device, call)
        self._check_cores(call, kind, value)
        self._device_limits.setdefault(ctx, {})[kind] = value

    def reset_device_limits(self, device: int) -> None:
        self._device_limits.pop(self._open_device(device, "aclrtResetDeviceResLimit"), None)

    def _check_cores(self, call: str, kind: int, value: int) -> None:
        cores = self.hardware_cores(kind)
        if value > cores:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                           _("{call}: value {value} exceeds the {cores} cores of this kind the "
                             "{soc} has.").format(call=call, value=value, cores=cores,
                                                  soc=self.rt.profile.soc_name))

    def stream_settings(self, stream) -> StreamSettings:
        found = self._streams.get(stream)
        if found is None:
            found = self._streams[stream] = StreamSettings()
        return found

    def stream_limit(self, stream, kind: int) -> int:
        """A stream's own limit, else its device's (api_impl.cc GetStreamResLimitByType)."""
        rules.res_limit_type("aclrtGetStreamResLimit", kind)
        own = self.stream_settings(stream).res_limits
        if kind in own:
            return own[kind]
        dev = self.rt.devices[stream.device]
        return self._device_limits.get(dev.default_ctx, {}).get(kind, self.hardware_cores(kind))

    def set_stream_limit(self, stream, kind: int, value: int) -> None:
        call = "aclrtSetStreamResLimit"
        rules.res_limit_type(call, kind)
        self._check_cores(call, kind, value)
        self.stream_settings(stream).res_limits[kind] = value

    def reset_stream_limits(self, stream) -> None:
        self.stream_settings(stream).res_limits.clear()

    def use_stream_limits(self, stream, use: bool) -> None:
        """aclrtUse/UnuseStreamResInCurrentThread: unusing a stream this thread does not use
        changes nothing (api_impl.cc NotUseStreamResInCurrentThread)."""
        if use:
            self._thread.res_stream = weakref.ref(stream)
        elif self._thread_stream() is stream:
            self._thread.res_stream = None

    def _thread_stream(self):
        ref = self._thread.get("res_stream")
        return ref() if ref is not None else None

    def thread_limit(self, kind: int) -> int:
        """aclrtGetResInCurrentThread: the borrowed stream's limit if it set one, else the
        current device's (api_impl.cc GetResInCurrentThread)."""
        call = "aclrtGetResInCurrentThread"
        rules.res_limit_type(call, kind)
        stream = self._thread_stream()
        if stream is not None and kind in self.stream_settings(stream).res_limits:
            return self.stream_settings(stream).res_limits[kind]
        ctx = self.rt.require_ctx(call)
        return self.stream_limit(ctx.default_stream, kind)

    # ----- stream attributes (api_c_stream.cc rtsStreamSetAttribute / GetAttribute) ------
    def set_attribute(self, handle: int, kind: int, value: dict) -> None:
        call = "aclrtSetStreamAttribute"
        number = _attr_number(value, kind)        # pyACL reads the dict before the C call
        s = self.rt.stream(handle, call)
        features = self.chip.features
        if kind == C.ACL_STREAM_ATTR_FAILURE_MODE:
            if facts.ATTR_FAILURE_MODE not in features:
                raise SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, _(
                    "{call}: the failure-mode attribute is not supported on {soc}.").format(
                        call=call, soc=self.rt.profile.soc_name))
            waits.set_failure_mode(self.rt, handle, number)
        elif kind == C.ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
            if facts.ATTR_OVERFLOW in features:         # elsewhere: success, nothing set
                self.set_overflow_switch(handle, number, call)
        elif kind == C.ACL_STREAM_ATTR_USER_CUSTOM_TAG:
            if facts.ATTR_TAG in features:
                self.stream_settings(s).user_custom_tag = number & 0xFFFF_FFFF
        elif kind == C.ACL_STREAM_ATTR_CACHE_OP_INFO:
            rules.switch_flag(call, number, C.ACL_ERROR_RT_PARAM_INVALID)
            self.stream_settings(s).cache_op_info = number
        elif kind == C.ACL_STREAM_ATTR_PRIORITY:
            least, greatest = 7, 0       # aclrtDeviceGetStreamPriorityRange
            if not greatest <= number <= least:
                raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                               _("{call}: priority {value} is outside [0, 7] (0 is the "
                                 "highest).").format(call=call, value=number))
            s.priority = number
        else:
            raise _unknown_attr(call, kind)

    def attribute(self, handle: int, kind: int) -> dict:
        call = "aclrtGetStreamAttribute"
        s = self.rt.stream(handle, call)
        if kind == C.ACL_STREAM_ATTR_FAILURE_MODE:
            return stream_attr_value(kind, s.failure_mode)
        if kind == C.ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
            return stream_attr_value(kind, self.overflow_switch(handle, call))
        if kind == C.ACL_STREAM_ATTR_USER_CUSTOM_TAG:
            return stream_attr_value(kind, self.stream_settings(s).user_custom_tag)
        if kind == C.ACL_STREAM_ATTR_CACHE_OP_INFO:
            return stream_attr_value(kind, self.stream_settings(s).cache_op_info)
        if kind == C.ACL_STREAM_ATTR_PRIORITY:
            return stream_attr_value(kind, s.priority)
        raise _unknown_attr(call, kind)

    def set_overflow_switch(self, handle: int, flag: int, call: str) -> None:
        """aclrtSetStreamOverflowSwitch: 0 or 1; not on a capturing stream (api_error.cc
        SetStreamOverflowSwitch); a chip without the per-stream check accepts and ignores it
        (api_c_stream.cc rtSetStreamOverflowSwitch)."""
        rules.switch_flag(call, flag)
        s = self.rt.stream(handle, call)
        if facts.ATTR_OVERFLOW not in self.chip.features:
            return
        self.rt._not_capturing(s, call)
        self.stream_settings(s).overflow_switch = flag

    def overflow_switch(self, handle: int, call: str) -> int:
        """On a chip without the per-stream switch the check is always on (api_impl.cc
        GetStreamOverflowSwitch: 1 unless the chip has STARS, 910B here)."""
        s = self.rt.stream(handle, call)
        if facts.ATTR_OVERFLOW not in self.chip.features:
            return 1
        return self.stream_settings(s).overflow_switch

    # ----- operator timeouts (event.cpp, api_impl.cc SetOpWaitTimeOut ... GetOpTimeOutInterval)
    def set_op_wait_timeout(self, seconds: int) -> None:
        self.op_wait_timeout_s = seconds

    def set_op_execute_timeout(self, timeout_us: int) -> int:
        """The timeout that takes effect (whole intervals, at most 254 of them); 0 is the
        longest. aclrtSetOpExecuteTimeOut passes seconds, V2 microseconds."""
        self.op_execute_timeout_us = rules.actual_op_timeout_us(timeout_us,
                                                                self.chip.op_interval_us)
        return self.op_execute_timeout_us

    def op_interval(self, call: str) -> int:
        """Needs a device (ApiImpl::GetOpTimeOutInterval: the current context, set implicitly
        with aclInit's default device)."""
        self.rt.require_ctx(call)
        return self.chip.op_interval_us

    def op_execute_timeout_ms(self) -> int:
        """What aclrtGetOpExecuteTimeout reports: the set timeout, else the chip's default;
        "never" is uint32_t's largest value (docs)."""
        us = self.op_execute_timeout_us
        if us is None:
            return self.chip.op_default_ms
        return 0xFFFF_FFFF if us == rules.NEVER_TIMES_OUT else us // 1000

    # ----- the snapshot ----------------------------------------------------------------
    def row(self) -> dict:
        limits = {d.id: dict(self._device_limits[d.default_ctx])
                  for d in self.rt.devices.values()
                  if d.default_ctx is not None and self._device_limits.get(d.default_ctx)}
        return {"sat_mode": self.sat_mode, "sys_params": dict(self.sys_params),
                "op_wait_timeout_s": self.op_wait_timeout_s,
                "op_execute_timeout_ms": self.op_execute_timeout_ms(),
                "device_res_limits": limits}

    def stream_row(self, stream) -> dict:
        st = self.stream_settings(stream)
        return {"id": stream_id(stream), "failure_mode": stream.failure_mode,
                "overflow_switch": st.overflow_switch, "user_custom_tag": st.user_custom_tag,
                "res_limits": dict(st.res_limits)}


def stream_id(stream) -> int:
    """aclrtStreamGetId: the simulator numbers the streams a program creates from 1, in the
    order it created them, and gives every default stream 0 (a device numbers its own)."""
    from acl_lab.sim.process import HANDLE_STEP, STREAM_BASE
    return 0 if stream.default else (stream.handle - STREAM_BASE) // HANDLE_STEP


def _attr_number(value, kind: int) -> int:
    """The number pyACL reads from the attribute dict (rt_stream.cpp
    GetStreamAttrValueFromPyUnion: a dict is required; a missing key reads as 0)."""
    if not isinstance(value, dict):
        raise TypeError("the aclrtStreamAttrValue argument is not dict")
    key, = stream_attr_value(kind)
    number = value.get(key, 0)
    if key == "reserved":
        number = number[0] if isinstance(number, (list, tuple)) and number else 0
    if isinstance(number, bool) or not isinstance(number, int):
        raise TypeError(f"{key} must be an int, not {type(number).__name__}")
    return number


def _unknown_attr(call: str, kind: int) -> SimError:
    return SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                    _("{call}: stmAttrType {kind} is not an aclrtStreamAttr "
                      "(ACL_STREAM_ATTR_FAILURE_MODE = 1 ... ACL_STREAM_ATTR_PRIORITY = 5).").format(
                        call=call, kind=kind))
