"""aclrtMallocConfig as pyACL hands it over (hicann/runtime python/pyACL/media/
media_common.cpp GetMallocConfigFromPydict): ``{}`` is no config (NULL); otherwise
``{"numAttrs": n, "attrs": [{"attr": aclrtMallocAttrType, "value": {"moduleId" |
"deviceId" | "rsv": ...}}, ...]}``. As there: a non-dict is a TypeError, an attrs list whose
length is not numAttrs or a value with none of the three keys a KeyError.
"""
from __future__ import annotations

ACL_RT_MEM_ATTR_RSV, ACL_RT_MEM_ATTR_MODULE_ID, ACL_RT_MEM_ATTR_DEVICE_ID = 0, 1, 2
ACL_RT_MEM_ATTR_VA_FLAG = 3
_KEYS = ("moduleId", "deviceId", "rsv")


def parse_malloc_config(call: str, cfg) -> tuple | None:
    """((attr, value), ...) of the config dict ``cfg``; None for ``{}``."""
    if not isinstance(cfg, dict):
        raise TypeError(f"{call}: cfg is not dict")
    if not cfg:
        return None
    attrs, count = cfg.get("attrs"), cfg.get("numAttrs")
    if not isinstance(attrs, list) or not isinstance(count, int):
        raise TypeError(f"{call}: cfg must hold 'numAttrs' (int) and 'attrs' (list)")
    if len(attrs) != count:
        raise KeyError("The numAttrs inputed does not match the expected numAttrs")
    out = []
    for item in attrs:
        if not isinstance(item, dict) or not isinstance(item.get("value"), dict) or \
                not isinstance(item.get("attr"), int):
            raise TypeError(f"{call}: each attr is a dict {{'attr': int, 'value': dict}}")
        value = item["value"]
        key = next((k for k in _KEYS if k in value), None)
        if key is None:
            raise KeyError("No valid key found in aclrtMallocAttrValue")
        v = value[key]
        if key == "rsv":
            if not isinstance(v, list) or any(not isinstance(x, int) for x in v):
                raise TypeError(f"{call}: value['rsv'] must be a list of int")
            v = tuple(x & 0xFF for x in v[:8])
        elif not isinstance(v, int) or v < 0:
            raise ValueError(f"{call}: value[{key!r}] must be an unsigned int")
        out.append((item["attr"], key, v))
    return tuple(out)
