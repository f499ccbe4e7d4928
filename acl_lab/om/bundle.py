"""Bundle models: several offline models in one file, loaded together by
aclmdlBundleLoadFromFile / FromMem (hicann/ge api/acl/acl_model/model/model.cpp
GetBundleNumAndOffset: a file whose header says MODEL_TYPE_BUNDLE_MODEL, a partition table,
then one partition per sub-model). GE writes them with aclgrphBundleSaveModel; the kit's
are written by ``write`` (or ``acl-lab atc`` does not make them):

    magic b"ACLLABBD" | u32 count | count x (u64 offset, u64 size) | the .om files, in order

Each sub-model is an ordinary .om (om/container.py) checked as one when it is loaded.
"""
from __future__ import annotations

import os
import struct

from acl_lab.i18n import _
from acl_lab.om.container import MAGIC as OM_MAGIC

MAGIC = b"ACLLABBD"
_HEAD = struct.Struct("<8sI")
_ENTRY = struct.Struct("<QQ")
MAX_MODELS = 64


class NotABundle(ValueError):
    """The bytes are not a bundle; the message says why (an ordinary .om says so)."""


def pack(models: list[bytes]) -> bytes:
    """The bundle of the .om files ``models`` (each checked for the .om magic)."""
    if not 1 <= len(models) <= MAX_MODELS:
        raise ValueError(f"a bundle holds 1 to {MAX_MODELS} models, not {len(models)}")
    if any(bytes(m[:len(OM_MAGIC)]) != OM_MAGIC for m in models):
        raise ValueError("every part of a bundle is an .om written by `acl-lab atc`")
    offset = _HEAD.size + _ENTRY.size * len(models)
    table = []
    for m in models:
        table.append(_ENTRY.pack(offset, len(m)))
        offset += len(m)
    return _HEAD.pack(MAGIC, len(models)) + b"".join(table) + b"".join(models)


def write(path, om_paths) -> None:
    """Write the bundle of the .om files at ``om_paths`` to ``path``."""
    parts = []
    for p in om_paths:
        with open(p, "rb") as f:
            parts.append(f.read())
    data = pack(parts)
    with open(os.fspath(path), "wb") as f:
        f.write(data)


def entries(size: int, read) -> list[tuple[int, int]]:
    """(offset, size) of each sub-model of the bundle of ``size`` bytes ``read(offset, n)``
    gives; NotABundle otherwise."""
    head = bytes(read(0, min(size, _HEAD.size)))
    if head[:len(OM_MAGIC)] == OM_MAGIC:
        raise NotABundle(_("this is an ordinary offline model, not a bundle (a bundle holds "
                           "several models; load this one with acl.mdl.load_from_file)"))
    if len(head) < _HEAD.size or head[:len(MAGIC)] != MAGIC:
        raise NotABundle(_("the data does not start with a bundle's header"))
    count = _HEAD.unpack(head)[1]
    end = _HEAD.size + _ENTRY.size * count
    if not 1 <= count <= MAX_MODELS or end > size:
        raise NotABundle(_("the bundle's model count {count} does not fit its {size} B").format(
            count=count, size=size))
    out = []
    table = bytes(read(_HEAD.size, end - _HEAD.size))
    for i in range(count):
        offset, n = _ENTRY.unpack_from(table, i * _ENTRY.size)
        if offset < end or n == 0 or offset + n > size:
            raise NotABundle(_("sub-model {index} lies outside the bundle's {size} B").format(
                index=i, size=size))
        out.append((offset, n))
    return out
