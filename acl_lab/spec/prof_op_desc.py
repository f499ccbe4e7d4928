"""The operator records a model subscription writes into its pipe (aclprofModelSubscribe),
and the rules the aclprofGetOp* getters read them by: one layout, written and read here.

A record is hicann/runtime's ``ProfOpDesc`` (src/dfx/msprof/collector/dvvp/analyze/inc/
data_struct.h): 80 bytes, little-endian: u32 signature, modelId, flag, threadId; u64
opIndex, duration, start, end, executionTime, cubeFops, vectorFops; u32 devId and 4 bytes
of padding. Times are nanoseconds. The signature is common/utils/utils.cpp
``Utils::GenerateSignature`` over the 76 bytes after it (CRC-32C's table, started at ~0,
no final xor). ``OpDescParser::CheckData`` (analyze/src/op_desc_parser.cpp) refuses a
length that is not a whole number of records and a record whose signature does not match,
``CHECK_INDEX_RET`` an index past the last record: ACL_ERROR_INVALID_PARAM each.
"""
from __future__ import annotations

import struct

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.spec.refusal import Refusal

SIZE = 80
_LAYOUT = struct.Struct("<IIIIQQQQQQQI4x")
FIELDS = ("signature", "model_id", "flag", "thread_id", "op_index", "duration", "start", "end",
          "execution_time", "cube_fops", "vector_fops", "device")
_AT = {name: i for i, name in enumerate(FIELDS)}


def _table() -> tuple:
    """GenerateSignature's SIGNATURE_TABLE: the reflected CRC-32C (Castagnoli) table."""
    out = []
    for n in range(256):
        for _bit in range(8):
            n = (n >> 1) ^ 0x82F63B78 if n & 1 else n >> 1
        out.append(n)
    return tuple(out)


_TABLE = _table()


def signature(data: bytes) -> int:
    sig = 0xFFFF_FFFF
    for byte in data:
        sig = _TABLE[(sig ^ byte) & 0xFF] ^ (sig >> 8)
    return sig


def encode(model_id: int, flag: int, thread_id: int, op_index: int, start: int, end: int,
           execution_time: int, device: int) -> bytes:
    """One signed record (no FLOPs: the simulator does not count them)."""
    body = _LAYOUT.pack(0, model_id, flag, thread_id, op_index, end - start, start, end,
                        execution_time, 0, 0, device)
    return struct.pack("<I", signature(body[4:])) + body[4:]


def count(data: bytes, call: str) -> int:
    """The records in ``data``; Refusal as CheckData refuses."""
    if len(data) % SIZE:
        raise Refusal(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: opInfoLen is {n} bytes, not a whole number of op records ({size} bytes "
            "each, acl.prof.get_op_desc_size()).").format(call=call, n=len(data), size=SIZE))
    for i in range(len(data) // SIZE):
        record = data[i * SIZE:(i + 1) * SIZE]
        if struct.unpack_from("<I", record)[0] != signature(record[4:]):
            raise Refusal(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: record {i} of opInfo is not an op record the profiler wrote (its "
                "signature does not match): pass the bytes read from the subscription's "
                "pipe, unchanged.").format(call=call, i=i))
    return len(data) // SIZE


def field(data: bytes, index: int, name: str, call: str) -> int:
    """Field ``name`` of record ``index``; Refusal for bad data or an index past the end."""
    n = count(data, call)
    if index >= n:
        raise Refusal(C.ACL_ERROR_INVALID_PARAM, _(
            "{call}: index {index} is past the last record (opInfo holds {n}; index from 0 "
            "to {last}).").format(call=call, index=index, n=n, last=n - 1))
    return _LAYOUT.unpack_from(data, index * SIZE)[_AT[name]]
