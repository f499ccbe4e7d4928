"""The argument rules of the runtime's device, context, stream-setting and notify calls that
need no state: which values a call accepts and which code it gives otherwise. The simulator
checks them; the real-hardware guard may too. Each rule names where hicann/runtime applies
it (src/acl/aclrt_impl/*.cpp for the ACL layer, src/runtime/api/impl/api_error.cc for the
runtime's ApiErrorDecorator, src/runtime/api/api_c*.cc for the rts* entry points).
"""
from __future__ import annotations

import math

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.spec.refusal import Refusal

#: aclSysParamOpt values the process-wide calls accept; the context-wide calls leave out
#: ACL_OPT_ENABLE_KERNEL_EARLY_START (context.cpp GetSysParamOpt / SetSysParamOpt)
PROCESS_OPTS = (C.ACL_OPT_DETERMINISTIC, C.ACL_OPT_ENABLE_DEBUG_KERNEL,
                C.ACL_OPT_STRONG_CONSISTENCY, C.ACL_OPT_ENABLE_KERNEL_EARLY_START)
CONTEXT_OPTS = PROCESS_OPTS[:3]
TASK_ABORT_TIMEOUT_MAX_MS = 36 * 60 * 1000     # api_error.cc TASK_ABORT_TIMEOUT_MAX (36 min)
NOTIFY_KEY_MIN_LEN = 65                         # aclrtNotifyGetExportKey: "最小长度为65"
NOTIFY_KEY_MAX_LEN = 1024                       # rt_notify.cpp: pyACL's own bound
MAX_CREDIT = 254                                # stars_base.hpp RT_STARS_MAX_KERNEL_CREDIT
NEVER_TIMES_OUT = (1 << 64) - 1                 # aclrtSetOpExecuteTimeOutV2: "永不超时"
FAST_TIMEOUT_US = 100_000                       # runtime.hpp RT_STARS_OP_TIMEOUT_THRESHOLD


def sys_param(call: str, opt: int, value: int | None, context: bool) -> None:
    """An aclSysParamOpt and, for a setter, its value: an option outside the call's list is
    ACL_ERROR_INVALID_PARAM (the ACL layer), a value outside [0, 4) for
    ACL_OPT_DETERMINISTIC or [0, 2) for the others ACL_ERROR_RT_PARAM_INVALID (api_c.cc
    rtSetSysParamOpt, api_error.cc CtxSetSysParamOpt: SYS_OPT_DETERMINISTIC_LEVEL_MAX = 4,
    SYS_OPT_MAX = 2)."""
    allowed = CONTEXT_OPTS if context else PROCESS_OPTS
    if opt not in allowed:
        raise Refusal(C.ACL_ERROR_INVALID_PARAM,
                      _("{call}: opt {opt} is not one of {allowed} (aclSysParamOpt).").format(
                          call=call, opt=opt, allowed=", ".join(map(str, allowed))))
    top = 4 if opt == C.ACL_OPT_DETERMINISTIC else 2
    if value is not None and not 0 <= value < top:
        raise Refusal(C.ACL_ERROR_RT_PARAM_INVALID,
                      _("{call}: value {value} is out of range for opt {opt}; it must be in "
                        "[0, {top}).").format(call=call, value=value, opt=opt, top=top))


def res_limit_type(call: str, kind: int) -> None:
    """aclrtDevResLimitType: ACL_RT_DEV_RES_CUBE_CORE (0) or ACL_RT_DEV_RES_VECTOR_CORE (1)
    (api_error.cc SetDeviceResLimit and siblings: RT_DEV_RES_TYPE_MAX = 2)."""
    if kind not in (C.ACL_RT_DEV_RES_CUBE_CORE, C.ACL_RT_DEV_RES_VECTOR_CORE):
        raise Refusal(C.ACL_ERROR_RT_PARAM_INVALID,
                      _("{call}: type {kind} is not ACL_RT_DEV_RES_CUBE_CORE (0) or "
                        "ACL_RT_DEV_RES_VECTOR_CORE (1).").format(call=call, kind=kind))


def sat_mode(call: str, mode: int) -> None:
    """aclrtFloatOverflowMode: SATURATION (0) or INFNAN (1) (api_error.cc SetDeviceSatMode)."""
    if mode not in (C.ACL_RT_OVERFLOW_MODE_SATURATION, C.ACL_RT_OVERFLOW_MODE_INFNAN):
        raise Refusal(C.ACL_ERROR_RT_PARAM_INVALID,
                      _("{call}: mode {mode} is not ACL_RT_OVERFLOW_MODE_SATURATION (0) or "
                        "ACL_RT_OVERFLOW_MODE_INFNAN (1).").format(call=call, mode=mode))


def ts_id(call: str, ts: int) -> None:
    """aclrtTsId: ACL_TS_ID_AICORE or ACL_TS_ID_AIVECTOR (device.cpp aclrtSetTsDeviceImpl)."""
    if ts not in (C.ACL_TS_ID_AICORE, C.ACL_TS_ID_AIVECTOR):
        raise Refusal(C.ACL_ERROR_INVALID_PARAM,
                      _("{call}: tsId {ts} is not ACL_TS_ID_AICORE (0) or ACL_TS_ID_AIVECTOR "
                        "(1).").format(call=call, ts=ts))


def switch_flag(call: str, flag: int, code: int = C.ACL_ERROR_INVALID_PARAM) -> None:
    """An on/off flag: 0 or 1 (stream.cpp aclrtSetStreamOverflowSwitchImpl: the ACL layer's
    ACL_ERROR_INVALID_PARAM; the runtime's own check of the attribute form is
    ACL_ERROR_RT_PARAM_INVALID)."""
    if flag not in (0, 1):
        raise Refusal(code, _("{call}: flag {flag} must be 0 (off) or 1 (on).").format(
            call=call, flag=flag))


def device_sync_timeout(call: str, timeout: int) -> None:
    """-1 waits for ever, a positive number of milliseconds waits that long; 0 and anything
    below -1 are ACL_ERROR_RT_PARAM_INVALID (device.cpp and api_error.cc DeviceSynchronize)."""
    if timeout < -1 or timeout == 0:
        raise Refusal(C.ACL_ERROR_RT_PARAM_INVALID,
                      _("{call}: timeout {timeout} ms is invalid; use -1 (wait for ever) or a "
                        "positive number of milliseconds.").format(call=call, timeout=timeout))


def task_abort_timeout(call: str, timeout: int) -> None:
    """At most 36 minutes (api_error.cc DeviceTaskAbort)."""
    if timeout > TASK_ABORT_TIMEOUT_MAX_MS:
        raise Refusal(C.ACL_ERROR_RT_PARAM_INVALID,
                      _("{call}: timeout {timeout} ms is longer than the {limit} ms (36 minutes) "
                        "the runtime allows.").format(call=call, timeout=timeout,
                                                      limit=TASK_ABORT_TIMEOUT_MAX_MS))


def notify_flag(call: str, flag: int, allowed: tuple, names: str) -> None:
    """A notify flag outside what the call accepts is ACL_ERROR_RT_PARAM_INVALID (api_c_event.cc
    rtsNotifyCreate; api_error.cc IpcSetNotifyName and IpcOpenNotify)."""
    if flag not in allowed:
        raise Refusal(C.ACL_ERROR_RT_PARAM_INVALID,
                      _("{call}: flag {flag} is not one of {names}.").format(
                          call=call, flag=f"0x{flag:x}", names=names))


def export_key_len(call: str, length: int) -> None:
    """The key buffer holds at least 65 characters (the runtime's IPC name, its NUL
    included); pyACL refuses 1024 or more itself (rt_notify.cpp, ValueError)."""
    if length >= NOTIFY_KEY_MAX_LEN:
        raise ValueError("key len should be less than 1024")
    if length < NOTIFY_KEY_MIN_LEN:
        raise Refusal(C.ACL_ERROR_RT_PARAM_INVALID,
                      _("{call}: len {length} is too short for the key; pass at least "
                        "{minimum}.").format(call=call, length=length,
                                             minimum=NOTIFY_KEY_MIN_LEN))


def actual_op_timeout_us(timeout_us: int, interval_us: int) -> int:
    """What aclrtSetOpExecuteTimeOutV2 makes of ``timeout_us``: whole intervals, at least one
    and at most 254; 0 is the longest (task_execute_time.cc TransExeTimeoutCfgToKernelCredit),
    or never with an interval under 100 ms (api_impl.cc SetOpExecuteTimeOutV2)."""
    if timeout_us == 0:
        return NEVER_TIMES_OUT if interval_us < FAST_TIMEOUT_US else MAX_CREDIT * interval_us
    credit = min(MAX_CREDIT, max(1, math.ceil(timeout_us / interval_us)))
    return credit * interval_us
