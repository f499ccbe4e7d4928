"""acl_lab's offline-model container (.om): what `acl-lab atc` writes and the simulator loads.

A real .om holds a compiled graph for one SoC. acl_lab's holds the ONNX graph itself plus
what aclmdlGetDesc reports (inputs/outputs with names, dims, data types, formats and byte
sizes) and the work and weight sizes aclmdlQuerySize reports, derived from the graph:

    magic b"ACLLABOM" | u32 format version | u64 header length | JSON header | ONNX bytes

As GE's ModelParserBase::ParseModelContent does, the header states the length of the model
that follows and the data must hold exactly that much: a truncated or padded file is not an
.om. ``parse`` checks every field's type and range before anything uses it; the graph itself
is checked by om_graph when the model is loaded.
"""
from __future__ import annotations

import json
import math
import struct
from dataclasses import dataclass, replace

import numpy as np

from acl_lab import constants as C
from acl_lab.spec import dtypes
from acl_lab.i18n import _

MAGIC = b"ACLLABOM"
VERSION = 2
_PREFIX = struct.Struct("<8sIQ")
MEM_ALIGN = 512     # GE places each feature map and weight on a 512-byte boundary (modeled)
MAX_HEADER = 1 << 20        # a description of a few thousand tensors fits in far less
MAX_DIMS = 8                # ACL_MAX_DIM_CNT is 128; ONNX models the kit runs use <= 8
_U63 = (1 << 63) - 1

#: ONNX TensorProto element type -> aclDataType
ACL_DTYPE = {1: C.ACL_FLOAT, 10: C.ACL_FLOAT16, 3: C.ACL_INT8, 6: C.ACL_INT32, 2: C.ACL_UINT8,
             5: C.ACL_INT16, 4: C.ACL_UINT16, 12: C.ACL_UINT32, 7: C.ACL_INT64,
             13: C.ACL_UINT64, 11: C.ACL_DOUBLE, 9: C.ACL_BOOL}
NUMPY_DTYPE = dtypes.NUMPY     # aclDataType -> numpy (acl_lab/spec/dtypes.py)
FORMATS = frozenset({C.ACL_FORMAT_NCHW, C.ACL_FORMAT_NHWC, C.ACL_FORMAT_ND})


@dataclass(frozen=True)
class TensorDesc:
    """One model input or output as aclmdlDesc describes it."""
    name: str
    dims: tuple
    dtype: int          # aclDataType of the buffer the application passes
    fmt: int            # aclFormat
    onnx_dtype: int     # aclDataType the ONNX graph computes in (differs with fp16 nodes)
    nbytes: int | None = None    # a size the dims do not give (an AIPP input's YUV420SP)

    @property
    def size(self) -> int:
        if self.nbytes is not None:
            return self.nbytes
        return math.prod(self.dims) * np.dtype(NUMPY_DTYPE[self.dtype]).itemsize

    def as_json(self) -> dict:
        out = {"name": self.name, "dims": list(self.dims), "dtype": self.dtype,
               "format": self.fmt, "onnx_dtype": self.onnx_dtype}
        if self.nbytes is not None:
            out["nbytes"] = self.nbytes
        return out


@dataclass(frozen=True)
class OfflineModel:
    """A parsed .om: its description, sizes and the ONNX graph bytes, and what the
    conversion compiled in beyond the graph: dynamic gears (om_dynamic.Gears) and static
    AIPP before some inputs (a tuple of om_aipp.Aipp)."""
    soc_version: str
    inputs: tuple
    outputs: tuple
    work_size: int
    weight_size: int
    onnx_bytes: bytes
    nodes: int
    dynamic: object = None
    aipp: tuple = ()
    ranges: object = None      # om_dynamic.ShapeRanges of --input_shape_range

    def header(self) -> bytes:
        body = {"soc_version": self.soc_version, "work_size": self.work_size,
                "weight_size": self.weight_size, "nodes": self.nodes,
                "model_length": len(self.onnx_bytes),
                "inputs": [t.as_json() for t in self.inputs],
                "outputs": [t.as_json() for t in self.outputs]}
        if self.dynamic is not None:
            body["dynamic"] = self.dynamic.as_json()
        if self.aipp:
            body["aipp"] = [a.as_json() for a in self.aipp]
        if self.ranges is not None:
            body["ranges"] = self.ranges.as_json()
        header = json.dumps(body, sort_keys=True).encode()
        return _PREFIX.pack(MAGIC, VERSION, len(header)) + header

    def to_bytes(self) -> bytes:
        return self.header() + self.onnx_bytes


class NotAnOm(ValueError):
    """The bytes are not an acl_lab offline model; the message says what is wrong."""


def describe(size: int, read) -> tuple[OfflineModel, int]:
    """The model of an .om of ``size`` bytes, without its graph bytes, and where they start:
    ``read(offset, n)`` gives bytes of it. Every header field is checked; the graph is not
    read. NotAnOm if the bytes are not an .om this version wrote."""
    if size < _PREFIX.size:
        if bytes(read(0, min(size, len(MAGIC)))) != MAGIC:
            raise _no_magic()
        raise NotAnOm(_("the data is {size} B, smaller than an .om header ({header} B)").format(
            size=size, header=_PREFIX.size))
    magic, version, hlen = _PREFIX.unpack(bytes(read(0, _PREFIX.size)))
    if magic != MAGIC:
        raise _no_magic()
    if version != VERSION or hlen > MAX_HEADER or _PREFIX.size + hlen > size:
        raise NotAnOm(_("header length {length} / format version {version} do not match the "
                        "{size} B of data (truncated or from another version)").format(
                            length=hlen, version=version, size=size))
    try:
        h = json.loads(bytes(read(_PREFIX.size, hlen)))
    except (ValueError, RecursionError) as e:      # bad UTF-8, bad JSON, absurd nesting
        raise NotAnOm(_("the header is damaged ({reason})").format(
            reason=type(e).__name__)) from None
    if not isinstance(h, dict):
        raise _damaged("header", h)
    start = _PREFIX.size + hlen
    length = _count(h, "model_length")
    if start + length != size:
        raise NotAnOm(_("the header says the model is {length} B, but {size} B follow it "
                        "(truncated or padded)").format(length=length, size=size - start))
    soc = h.get("soc_version")
    if not isinstance(soc, str) or not soc:
        raise _damaged("soc_version", soc)
    unknown = set(h) - {"soc_version", "work_size", "weight_size", "nodes", "model_length",
                        "inputs", "outputs", "dynamic", "aipp", "ranges"}
    if unknown:
        raise _damaged(sorted(unknown)[0], h[sorted(unknown)[0]])
    inputs, outputs = _descs(h, "inputs"), _descs(h, "outputs")
    dynamic = ranges = None
    if "dynamic" in h or "ranges" in h:
        from acl_lab.om import dynamic as om_dynamic
        try:
            if "dynamic" in h:
                dynamic = om_dynamic.from_header(h["dynamic"], inputs, outputs)
            if "ranges" in h:
                ranges = om_dynamic.ranges_from_header(h["ranges"], inputs, outputs)
        except ValueError as e:
            raise _damaged(str(e), h["dynamic" if "dynamic" in str(e) else "ranges"]) from None
        if dynamic is not None and ranges is not None:
            raise _damaged("ranges", h["ranges"])
    return OfflineModel(soc, inputs, outputs, _count(h, "work_size"),
                        _count(h, "weight_size"), b"", _count(h, "nodes"), dynamic,
                        _aipp(h, inputs), ranges), start


def _aipp(h: dict, inputs: tuple) -> tuple:
    """The header's "aipp" list: each entry's network input checked as a description, its
    fields as atc checks them, and the model input it feeds exactly what it describes."""
    from acl_lab.om import aipp as om_aipp, aipp_dynamic
    entries = h.get("aipp", [])
    if not isinstance(entries, list) or len(entries) > len(inputs):
        raise _damaged("aipp", entries)
    out = []
    for i, entry in enumerate(entries):
        network = entry.get("network") if isinstance(entry, dict) else None
        try:
            read = aipp_dynamic.from_header if "mode" in entry else om_aipp.from_header
            aipp = read(entry, _descs({"aipp": [network]}, "aipp")[0])
        except (ValueError, NotAnOm) as e:
            raise _damaged(f"aipp[{i}]", str(e)) from None
        if aipp.input_desc() not in inputs or (
                isinstance(aipp, aipp_dynamic.DynamicAipp) and inputs[-1] != aipp.data_desc()):
            raise _damaged(f"aipp[{i}].network", network)
        out.append(aipp)
    if len({a.input for a in out}) != len(out):
        raise _damaged("aipp", [a.input for a in out])
    return tuple(out)


def parse(data) -> OfflineModel:
    """The model in ``data`` (bytes-like), header checked as ``describe`` does."""
    m, start = describe(len(data), lambda offset, n: data[offset:offset + n])
    return replace(m, onnx_bytes=bytes(data[start:]))


def _no_magic() -> NotAnOm:
    return NotAnOm(_("the data does not start with the .om magic number (is it an ONNX "
                     "file? convert it with `acl-lab atc` first)"))


def _damaged(field: str, value) -> NotAnOm:
    text = repr(value)
    return NotAnOm(_("the header is damaged (field {field} is {value})").format(
        field=field, value=text if len(text) <= 60 else text[:57] + "..."))


def _count(h: dict, key: str, low: int = 0, high: int = _U63) -> int:
    v = h.get(key)
    if v.__class__ is not int or not low <= v <= high:
        raise _damaged(key, v)
    return v


def _descs(h: dict, key: str) -> tuple:
    items = h.get(key)
    if not isinstance(items, list) or not items or len(items) > 4096:
        raise _damaged(key, items)
    out = []
    for i, t in enumerate(items):
        where = f"{key}[{i}]"
        if not isinstance(t, dict):
            raise _damaged(where, t)
        name, dims = t.get("name"), t.get("dims")
        if not isinstance(name, str) or not name:
            raise _damaged(f"{where}.name", name)
        lowest = -1 if t.get("nbytes") is not None else 0   # -1: a size only nbytes gives
        if (not isinstance(dims, list) or len(dims) > MAX_DIMS
                or any(d.__class__ is not int or not lowest <= d < 1 << 31 for d in dims)):
            raise _damaged(f"{where}.dims", dims)
        dtype, onnx_dtype, fmt = (t.get(k) for k in ("dtype", "onnx_dtype", "format"))
        for field, v, allowed in (("dtype", dtype, NUMPY_DTYPE), ("onnx_dtype", onnx_dtype,
                                                                   NUMPY_DTYPE),
                                  ("format", fmt, FORMATS)):
            if v.__class__ is not int or v not in allowed:
                raise _damaged(f"{where}.{field}", v)
        nbytes = t.get("nbytes")
        if nbytes is not None and (nbytes.__class__ is not int or not 0 <= nbytes <= _U63):
            raise _damaged(f"{where}.nbytes", nbytes)
        desc = TensorDesc(name, tuple(dims), dtype, fmt, onnx_dtype, nbytes)
        if desc.size > _U63:
            raise _damaged(f"{where}.dims", dims)
        out.append(desc)
    if len({t.name for t in out}) != len(out):
        raise _damaged(key, [t.name for t in out])
    return tuple(out)


def read(path) -> OfflineModel:
    with open(path, "rb") as f:
        return parse(f.read())
