"""What a program can ask about its devices: attributes, capabilities, utilization, status,
uuid, topology, peer-access status, the id maps and the default context's state.

Answers come from the chip's facts (sim/device_facts.py) and the profile. Rules and codes
follow hicann/runtime: src/acl/aclrt_impl/device.cpp, context.cpp and acl.cpp (the ACL
layer), src/runtime/api/api_c_device.cc (the rts* entry points) and
src/runtime/api/impl/api_error.cc / api_impl.cc (ApiErrorDecorator, ApiImpl); each method
names its functions. The simulator has one user, logical and physical id per device and
they agree (no ASCEND_RT_VISIBLE_DEVICES): device n is n in every numbering.
"""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim import device_facts as facts
from acl_lab.sim.simerror import SimError

_PRIORITY_LEAST, _PRIORITY_GREATEST = 7, 0   # base_info.hpp RT_STREAM_LEAST/GREATEST_PRIORITY
_SIMT_ATTRS = range(C.ACL_DEV_ATTR_WARP_SIZE, C.ACL_DEV_ATTR_MAX_BLOCK_DIM_Z + 1)
_POD_ATTRS = (C.ACL_DEV_ATTR_SUPER_POD_DEVICE_ID, C.ACL_DEV_ATTR_SUPER_POD_SERVER_ID,
              C.ACL_DEV_ATTR_SUPER_POD_ID)


def int32(value: int) -> int:
    """``value`` as pyACL hands back a C int64 it builds with "i": its low 32 bits, signed
    (rt_device.cpp WrapAclRtGetDeviceInfo passes an int64_t to Py_BuildValue("ii", ...))."""
    value &= 0xFFFF_FFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def _chip(rt) -> facts.ChipFacts:
    return facts.chip(rt.profile.soc_name)


def _device(rt, device: int, call: str, code: int = C.ACL_ERROR_RT_INVALID_DEVICEID):
    """A device id of this machine; ``code`` where the call's check gives another one."""
    if not 0 <= device < rt.profile.device_count:
        raise SimError(code, _("{call}: device {device} does not exist; this machine has "
                               "devices 0..{last} (acl.rt.get_device_count()).").format(
                                   call=call, device=device, last=rt.profile.device_count - 1))


def _unsupported(rt, call: str, what: str) -> SimError:
    return SimError(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    _("{call}: {what} is not supported on {soc}.").format(
                        call=call, what=what, soc=rt.profile.soc_name))


# ----- attributes and capabilities ------------------------------------------------------
def info(rt, device: int, attr: int) -> int:
    """aclrtGetDeviceInfo (api_error.cc GetDeviceInfoByAttr: a device beyond the count is
    ACL_ERROR_RT_PARAM_INVALID; api_impl.cc GetDeviceInfoByAttr / ...Misc: an unknown
    attribute too). pyACL keeps the low 32 bits of the value (``int32``)."""
    call = "aclrtGetDeviceInfo"
    _device(rt, device, call, C.ACL_ERROR_RT_PARAM_INVALID)
    chip = _chip(rt)
    values = {
        C.ACL_DEV_ATTR_AICPU_CORE_NUM: chip.aicpu_cores,
        C.ACL_DEV_ATTR_AICORE_CORE_NUM: chip.ai_cores,
        C.ACL_DEV_ATTR_CUBE_CORE_NUM: chip.cube_cores,
        C.ACL_DEV_ATTR_VECTOR_CORE_NUM: chip.vector_cores,
        C.ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE: total_memory(rt),
        C.ACL_DEV_ATTR_L2_CACHE_SIZE: chip.l2_bytes,
        C.ACL_DEV_ATTR_SMP_ID: 0, C.ACL_DEV_ATTR_PHY_CHIP_ID: device,
        C.ACL_DEV_ATTR_CUST_OP_PRIVILEGE: 0, C.ACL_DEV_ATTR_MAINBOARD_ID: 0,
        C.ACL_DEV_ATTR_HD_CONNECT_TYPE: 0, C.ACL_DEV_ATTR_DEVICE_FORM_FACTOR: chip.form_factor,
        C.ACL_DEV_ATTR_IS_VIRTUAL: 0, C.ACL_DEV_ATTR_NPU_ARCH: chip.npu_arch,
    }
    values.update(dict.fromkeys(_SIMT_ATTRS, 0))   # GetDeviceSimtInfo: no SIMT properties
    if attr in _POD_ATTRS:       # the driver's super-pod ids: this is no super-pod server
        raise _unsupported(rt, call, _("a super-pod attribute"))
    if attr not in values:
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                       _("{call}: attr {attr} is not an aclrtDevAttr the runtime answers "
                         "(ACL_DEV_ATTR_AICPU_CORE_NUM, ACL_DEV_ATTR_AICORE_CORE_NUM, "
                         "ACL_DEV_ATTR_L2_CACHE_SIZE, ...).").format(call=call, attr=attr))
    return int32(values[attr])


def total_memory(rt) -> int:
    """Bytes of device memory the profile gives one device (every pool)."""
    return sum(p.size for p in rt.profile.pools)


def capability(rt, device: int, feature: int) -> int:
    """aclrtGetDeviceCapability (api_c_device.cc rtsDeviceGetCapability: a feature outside
    the enum is ACL_ERROR_RT_PARAM_INVALID; api_error.cc GetDeviceCapability: a device
    beyond the count ACL_ERROR_RT_INVALID_DEVICEID). Task update of AIC/AIV kernels in a
    captured model comes with ACL Graph (910B here); cross-device memory-queue events
    are a feature of no simulated chip."""
    call = "aclrtGetDeviceCapability"
    if feature not in (C.ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV,
                       C.ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV):
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                       _("{call}: devFeatureType {feature} is not an aclrtDevFeatureType "
                         "(ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV = 1, "
                         "ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV = 21).").format(
                           call=call, feature=feature))
    _device(rt, device, call)
    update = _chip(rt).chip == "910_B_93"
    return int(update and feature == C.ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV)


def platform_info(rt, device: int, info: int) -> int:
    """aclGetDeviceCapability, the top-level call (acl.cpp aclGetDeviceCapabilityImpl: a
    device beyond the count, and an info type outside the three, are
    ACL_ERROR_INVALID_PARAM)."""
    call = "aclGetDeviceCapability"
    _device(rt, device, call, C.ACL_ERROR_INVALID_PARAM)
    chip = _chip(rt)
    values = {C.ACL_DEVICE_INFO_AI_CORE_NUM: chip.ai_cores,
              C.ACL_DEVICE_INFO_VECTOR_CORE_NUM: chip.vector_cores,
              C.ACL_DEVICE_INFO_L2_SIZE: chip.l2_bytes}
    if info not in values:
        raise SimError(C.ACL_ERROR_INVALID_PARAM,
                       _("{call}: deviceInfo {info} is not ACL_DEVICE_INFO_AI_CORE_NUM (0), "
                         "ACL_DEVICE_INFO_VECTOR_CORE_NUM (1) or ACL_DEVICE_INFO_L2_SIZE "
                         "(2).").format(call=call, info=info))
    return values[info]


# ----- state -----------------------------------------------------------------------------
def utilization(rt, device: int) -> dict:
    """aclrtGetDeviceUtilizationRate (device.cpp: a failed sample reads -1 and the call
    still succeeds; memory utilization is always -1, "not supported"). A simulated
    device has no busy cores to sample: idle (0), -1 where the chip has no vector core."""
    ok = 0 <= device < rt.profile.device_count
    chip = _chip(rt)
    busy = facts.IDLE_PERCENT if ok else -1
    return {"cube_utilization": busy,
            "vector_utilization": busy if chip.vector_cores and ok else -1,
            "aicpu_utilization": busy, "memory_utilization": -1, "utilization_extend": 0}


def status(rt, device: int) -> int:
    """aclrtQueryDeviceStatus (api_error.cc DeviceStatusQuery): a simulated device never
    fails, so an existing one is NORMAL."""
    _device(rt, device, "aclrtQueryDeviceStatus")
    return C.ACL_RT_DEVICE_STATUS_NORMAL


def uuid(rt, device: int) -> dict:
    """aclrtDeviceGetUuid (api_error.cc GetDeviceUuid: a negative id is
    ACL_ERROR_RT_INVALID_DEVICEID, as is one beyond the count; chips whose driver has no
    uuid answer ACL_ERROR_RT_FEATURE_NOT_SUPPORT)."""
    call = "aclrtDeviceGetUuid"
    _device(rt, device, call)
    if facts.UUID not in _chip(rt).features:
        raise _unsupported(rt, call, _("reading a device uuid"))
    return {"bytes": facts.uuid(rt.profile.name, device)}


def topology(rt, device: int, other: int) -> int:
    """aclrtGetDevicesTopo (device.cpp; api_c_device.cc rtsGetPairDevicesInfo turns the
    driver's answer into one ACL_RT_DEVS_TOPOLOGY_* bit). Not on a board that runs the
    program itself (docs: not in the RC form); a device and itself is not a pair
    (modeled: ACL_ERROR_RT_PARAM_INVALID)."""
    call = "aclrtGetDevicesTopo"
    if rt.profile.run_mode == C.ACL_DEVICE:
        raise _unsupported(rt, call, _("querying the topology on a board that runs the "
                                        "program itself (ACL_DEVICE)"))
    _device(rt, device, call)
    _device(rt, other, call)
    if device == other:
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                       _("{call}: deviceId and otherDeviceId are both {device}; the "
                         "topology is between two different devices.").format(
                           call=call, device=device))
    return _chip(rt).topology & 0xFFFF_FFFF     # pyACL builds the uint64 with "I"


def peer_status(rt, device: int, peer: int) -> int:
    """aclrtDevicePeerAccessStatus: 1 once ``device`` enabled access to ``peer``
    (aclrtDeviceEnablePeerAccess on it), else 0; ids outside the machine are
    ACL_ERROR_RT_PARAM_INVALID (docs, 约束说明)."""
    call = "aclrtDevicePeerAccessStatus"
    _device(rt, device, call, C.ACL_ERROR_RT_PARAM_INVALID)
    _device(rt, peer, call, C.ACL_ERROR_RT_PARAM_INVALID)
    return int((device, peer) in rt.peer.enabled)


def priority_range(rt) -> tuple[int, int]:
    """aclrtDeviceGetStreamPriorityRange (api_impl.cc: 7 is the least, 0 the greatest)."""
    return _PRIORITY_LEAST, _PRIORITY_GREATEST


def primary_ctx_state(rt, device: int) -> tuple[int, int]:
    """(active, flags) of aclrtGetPrimaryCtxState (api_error.cc GetPrimaryCtxState): 1
    while ``device``'s default context exists. pyACL passes flags as NULL and returns
    that pointer, 0."""
    _device(rt, device, "aclrtGetPrimaryCtxState")
    dev = rt.devices.get(device)
    return int(dev is not None and dev.default_ctx is not None), 0


# ----- id maps (api_c_device.cc rts*DevId*: a negative id is ACL_ERROR_RT_PARAM_INVALID;
# api_error.cc: one beyond the count ACL_ERROR_RT_INVALID_DEVICEID) ----------------
def same_device(rt, device: int, call: str) -> int:
    """Device ``device`` in the other numbering: the same number here."""
    if device < 0:
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID,
                       _("{call}: device id {device} is negative.").format(
                           call=call, device=device))
    _device(rt, device, call)
    return device
