"""acl_lab's offline-model container (.om): what `acl-lab atc` writes and the simulator loads.

A real .om holds a compiled graph for one SoC. acl_lab's holds the ONNX graph itself plus
what aclmdlGetDesc reports (inputs/outputs with names, dims, data types, formats and byte
sizes) and the work and weight sizes aclmdlQuerySize reports, derived from the graph:

    magic b"ACLLABOM" | u32 format version | u64 header length | JSON header | ONNX bytes

The ONNX bytes are executed by onnx's reference evaluator, never parsed by hand.
"""
from __future__ import annotations

import json
import struct
from dataclasses import dataclass

import numpy as np

from . import constants as C
from .i18n import _

MAGIC = b"ACLLABOM"
VERSION = 1
_PREFIX = struct.Struct("<8sIQ")
MEM_ALIGN = 512     # GE places each feature map and weight on a 512-byte boundary (modeled)

#: ONNX TensorProto element type -> aclDataType
ACL_DTYPE = {1: C.ACL_FLOAT, 10: C.ACL_FLOAT16, 3: C.ACL_INT8, 6: C.ACL_INT32, 2: C.ACL_UINT8,
             5: C.ACL_INT16, 4: C.ACL_UINT16, 12: C.ACL_UINT32, 7: C.ACL_INT64,
             13: C.ACL_UINT64, 11: C.ACL_DOUBLE, 9: C.ACL_BOOL}
NUMPY_DTYPE = {C.ACL_FLOAT: np.float32, C.ACL_FLOAT16: np.float16, C.ACL_INT8: np.int8,
               C.ACL_INT32: np.int32, C.ACL_UINT8: np.uint8, C.ACL_INT16: np.int16,
               C.ACL_UINT16: np.uint16, C.ACL_UINT32: np.uint32, C.ACL_INT64: np.int64,
               C.ACL_UINT64: np.uint64, C.ACL_DOUBLE: np.float64, C.ACL_BOOL: np.bool_}


@dataclass(frozen=True)
class TensorDesc:
    """One model input or output as aclmdlDesc describes it."""
    name: str
    dims: tuple
    dtype: int          # aclDataType of the buffer the application passes
    fmt: int            # aclFormat
    onnx_dtype: int     # aclDataType the ONNX graph computes in (differs with fp16 nodes)

    @property
    def size(self) -> int:
        return int(np.prod(self.dims, dtype=np.int64)) * np.dtype(NUMPY_DTYPE[self.dtype]).itemsize

    def as_json(self) -> dict:
        return {"name": self.name, "dims": list(self.dims), "dtype": self.dtype,
                "format": self.fmt, "onnx_dtype": self.onnx_dtype}


@dataclass(frozen=True)
class OfflineModel:
    """A parsed .om: its description, sizes and the ONNX graph bytes."""
    soc_version: str
    inputs: tuple
    outputs: tuple
    work_size: int
    weight_size: int
    onnx_bytes: bytes
    nodes: int

    def to_bytes(self) -> bytes:
        header = json.dumps({
            "soc_version": self.soc_version, "work_size": self.work_size,
            "weight_size": self.weight_size, "nodes": self.nodes,
            "inputs": [t.as_json() for t in self.inputs],
            "outputs": [t.as_json() for t in self.outputs]}, sort_keys=True).encode()
        return _PREFIX.pack(MAGIC, VERSION, len(header)) + header + self.onnx_bytes


class NotAnOm(ValueError):
    """The bytes are not an acl_lab offline model; the message says what is wrong."""


def parse(data: bytes) -> OfflineModel:
    """The model in ``data``; NotAnOm if the bytes are not an .om this version wrote."""
    if not data.startswith(MAGIC):
        raise NotAnOm(_("the data does not start with the .om magic number (is it an ONNX "
                        "file? convert it with `acl-lab atc` first)"))
    if len(data) < _PREFIX.size:
        raise NotAnOm(_("the data is {size} B, smaller than an .om header ({header} B)").format(
            size=len(data), header=_PREFIX.size))
    _magic, version, hlen = _PREFIX.unpack_from(data)
    if version != VERSION or _PREFIX.size + hlen > len(data):
        raise NotAnOm(_("header length {length} / format version {version} do not match the "
                        "{size} B of data (truncated or from another version)").format(
                            length=hlen, version=version, size=len(data)))
    try:
        h = json.loads(data[_PREFIX.size:_PREFIX.size + hlen])

        def descs(items):
            return tuple(TensorDesc(t["name"], tuple(t["dims"]), t["dtype"], t["format"],
                                    t["onnx_dtype"]) for t in items)
        return OfflineModel(h["soc_version"], descs(h["inputs"]), descs(h["outputs"]),
                            h["work_size"], h["weight_size"], data[_PREFIX.size + hlen:],
                            h["nodes"])
    except (ValueError, KeyError, TypeError) as e:
        raise NotAnOm(_("the header is damaged ({reason})").format(reason=e)) from None


def read(path) -> OfflineModel:
    with open(path, "rb") as f:
        return parse(f.read())
