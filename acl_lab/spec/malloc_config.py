"""aclrtMallocConfig: how pyACL reads the Python dict, and which attributes the runtime takes.

pyACL (python/pyACL/rt/rt_memory.cpp, WrapAclRtMallocWithCfg / GetMallocConfigFromPydict):
``{}`` passes no configuration (NULL); otherwise the dict needs ``"attrs"``, a list of
exactly ``"numAttrs"`` entries ``{"attr": aclrtMallocAttrType, "value": {"moduleId" |
"deviceId" | "rsv": ...}}`` (a missing "attrs" is TypeError, a count that differs KeyError,
a value dict without one of those keys KeyError).

The runtime (src/runtime/api/impl/api_impl.cc): device memory (ApiImpl::DevMalloc,
ParseMallocCfg) takes ACL_RT_MEM_ATTR_RSV, _MODULE_ID and _DEVICE_ID, and the device id must
be the current context's device; host memory (HostMallocWithCfg, GetMallocHostConfigAttr)
takes _MODULE_ID and _VA_FLAG. Anything else is ACL_ERROR_RT_PARAM_INVALID.
"""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.spec.pyacl_dicts import struct_fields
from acl_lab.spec.refusal import Refusal

#: the attributes device and host memory take
DEVICE_ATTRS = (C.ACL_RT_MEM_ATTR_RSV, C.ACL_RT_MEM_ATTR_MODULE_ID, C.ACL_RT_MEM_ATTR_DEVICE_ID)
HOST_ATTRS = (C.ACL_RT_MEM_ATTR_MODULE_ID, C.ACL_RT_MEM_ATTR_VA_FLAG)
_VALUE_KEYS = {"moduleId": "uint16", "deviceId": "uint"}


def parse(call: str, cfg) -> list[tuple[int, int]] | None:
    """The (attr, value) pairs of a pyACL config dict; None for ``{}`` (no configuration)."""
    if not isinstance(cfg, dict):
        raise TypeError(f"{call}: pyCfg is not dict!")
    if not cfg:
        return None
    attrs = cfg.get("attrs")
    if attrs is None:
        raise TypeError(f"{call}: the aclrtMallocAttrValue argument is not dict")
    count = struct_fields(call, cfg, "aclrtMallocConfig", numAttrs="ulong")["numAttrs"]
    if not isinstance(attrs, list) or len(attrs) != count:
        raise KeyError("The numAttrs inputed does not match the expected numAttrs")
    out = []
    for entry in attrs:
        kind = struct_fields(call, entry, "aclrtMallocWithCfg", attr="int")["attr"]
        value = entry.get("value")
        number = 0
        if value is not None:
            if not isinstance(value, dict):
                raise TypeError(f"{call}: the aclrtMallocAttrValue argument is not dict")
            key = next((k for k in ("moduleId", "deviceId", "rsv") if k in value), None)
            if key is None:
                raise KeyError("No valid key found in aclrtMallocAttrValue")
            if key != "rsv":
                number = struct_fields(call, value, "aclrtMallocAttrValue",
                                       **{key: _VALUE_KEYS[key]})[key]
        out.append((kind, number))
    return out


def check_device(call: str, attrs: list[tuple[int, int]] | None, device: int) -> None:
    """The attributes device memory takes, the device id being this context's."""
    for kind, value in attrs or ():
        if kind not in DEVICE_ATTRS:
            raise Refusal(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: attribute {attr} is not one device memory takes: use "
                "ACL_RT_MEM_ATTR_RSV, _MODULE_ID or _DEVICE_ID.").format(call=call, attr=kind))
        if kind == C.ACL_RT_MEM_ATTR_DEVICE_ID and value != device:
            raise Refusal(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: ACL_RT_MEM_ATTR_DEVICE_ID is {value}, but the current context is on "
                "device {device}; memory is taken from the current device (switch with "
                "acl.rt.set_device first).").format(call=call, value=value, device=device))


def check_host(call: str, attrs: list[tuple[int, int]] | None) -> None:
    """The attributes host memory takes."""
    for kind, _value in attrs or ():
        if kind not in HOST_ATTRS:
            raise Refusal(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: attribute {attr} is not one host memory takes: use "
                "ACL_RT_MEM_ATTR_MODULE_ID or _VA_FLAG.").format(call=call, attr=kind))
