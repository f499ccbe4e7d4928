"""aclrtMemcpyBatch: many copies in one call (not in pyACL; ``acl.rt.memcpy_batch`` by the
kit's convention for unbound calls).

hicann/runtime src/acl/aclrt_impl/memory.cpp (MemcpyBatchImpl, ValidateMemcpyBatchParams):
a batch whose sizes are all 0 succeeds at once; a size above its destMax or a non-zero
``rsv`` of an attribute is ACL_ERROR_INVALID_PARAM. src/runtime/api/impl/api_error.cc
(ApiErrorDecorator::MemcpyBatch): failIndex is SIZE_MAX unless an entry is to blame; no
attributes, more attributes than copies, attrsIndexes[0] != 0, indexes not increasing or
past the last copy are ACL_ERROR_RT_PARAM_INVALID. docs/zh/api_ref/11-03 (aclrtMemcpyBatch
约束说明): the copies of a batch are unordered, and a batch goes one way, host to device or
device to host. attrs[k] covers copies attrsIndexes[k] .. attrsIndexes[k+1]-1 and says where
their destination and source live; a copy whose addresses contradict its attribute is the
entry failIndex names. Atlas A2 / A3 and Ascend 950 only (spec/socs.py memcpy_batch).
"""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.simerror import SimError
from acl_lab.sim import transfer
from acl_lab.spec import socs

SIZE_MAX = (1 << 64) - 1
MAX_COUNT = 4096       # DEVMM_MEMCPY_BATCH_MAX_COUNT (the driver's limit; modeled)
WAYS = {(C.ACL_MEM_LOCATION_TYPE_DEVICE, C.ACL_MEM_LOCATION_TYPE_HOST):
        C.ACL_MEMCPY_HOST_TO_DEVICE,
        (C.ACL_MEM_LOCATION_TYPE_HOST, C.ACL_MEM_LOCATION_TYPE_DEVICE):
        C.ACL_MEMCPY_DEVICE_TO_HOST}


class BatchFailed(SimError):
    """A refusal that names the copy to blame: failIndex, returned before the code."""

    def __init__(self, code: int, message: str, index: int = SIZE_MAX):
        super().__init__(code, message)
        self.values = (index,)


def _locations(call: str, attr) -> tuple[int, int]:
    if not isinstance(attr, dict) or not all(isinstance(attr.get(k), dict)
                                             for k in ("dstLoc", "srcLoc")):
        raise TypeError(f"{call}: each attribute is a dict with dstLoc and srcLoc "
                        "({'id': ..., 'type': ...})")
    if any(attr.get("rsv") or ()):
        raise BatchFailed(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: an attribute's rsv must be all 0.").format(call=call))
    return int(attr["dstLoc"]["type"]), int(attr["srcLoc"]["type"])


def memcpy_batch(rt, dsts, dest_maxs, srcs, sizes, attrs, indexes) -> int:
    call = "aclrtMemcpyBatch"
    count = len(sizes)
    if count == 0 or not (len(dsts) == len(dest_maxs) == len(srcs) == count):
        raise BatchFailed(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: dsts, destMaxs, srcs and sizes must be lists of one length, above 0 "
            "(got {lengths}).").format(call=call, lengths=[len(dsts), len(dest_maxs),
                                                           len(srcs), count]))
    if not any(sizes):
        return SIZE_MAX
    bad = next((i for i in range(count) if dest_maxs[i] < sizes[i]), None)
    if bad is not None:
        raise BatchFailed(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: copy {i} moves {size} B into a destination of {most} B.").format(
                call=call, i=bad, size=sizes[bad], most=dest_maxs[bad]))
    ways = [_locations(call, a) for a in attrs]
    rt.require_ctx(call)
    soc = socs.soc_of(rt.profile.soc_name) if rt.profile.soc_name else None
    if soc is not None and not soc.memcpy_batch:
        raise BatchFailed(C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, _(
            "{call}: {name} has no batch copies (Atlas A2 / A3 and Ascend 950 have them). Copy "
            "one by one with acl.rt.memcpy.").format(call=call, name=rt.profile.soc_name))
    n = len(ways)
    why = None
    if n == 0 or n != len(indexes) or n > count or count > MAX_COUNT:
        why = _("{n} attribute(s) with {k} index(es) for {count} copies: one index per "
                "attribute, at most one attribute per copy, at most {most} copies.").format(
                    n=n, k=len(indexes), count=count, most=MAX_COUNT)
    elif indexes[0] != 0 or any(b <= a for a, b in zip(indexes, indexes[1:])) \
            or indexes[-1] >= count:
        why = _("attrsIndexes {indexes} must start at 0, grow, and stay below {count}.").format(
            indexes=list(indexes), count=count)
    elif len(set(ways)) > 1 or ways[0] not in WAYS:
        why = _("a batch goes one way, host to device or device to host; its attributes say "
                "{ways}.").format(ways=[(C.MEM_LOCATION_TYPE_NAMES.get(d, d),
                                         C.MEM_LOCATION_TYPE_NAMES.get(s, s)) for d, s in ways])
    if why:
        raise BatchFailed(C.ACL_ERROR_RT_PARAM_INVALID, f"{call}: {why}")
    kind = WAYS[ways[0]]
    for i in range(count):           # every copy checked before any runs
        d = rt.memory.map.find(dsts[i])
        s = rt.memory.map.find(srcs[i])
        want = ("device", "host") if kind == C.ACL_MEMCPY_HOST_TO_DEVICE else ("host", "device")
        if d is None or s is None or (d.location, s.location) != want or \
                dsts[i] + sizes[i] > d.end or srcs[i] + sizes[i] > s.end:
            raise BatchFailed(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: copy {i} (0x{dst:x} <- 0x{src:x}, {size} B) does not go the batch's "
                "way ({way}) inside live memory.").format(
                    call=call, i=i, dst=dsts[i], src=srcs[i], size=sizes[i],
                    way=C.MEMCPY_KIND_NAMES[kind]), i)
    for i in range(count):
        if sizes[i]:
            transfer.memcpy(rt, dsts[i], dest_maxs[i], srcs[i], sizes[i], kind)
    return SIZE_MAX
