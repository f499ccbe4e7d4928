"""Helpers the kernel, single-operator and BLAS tests share: a kernel binary as the Ascend C
compiler leaves one (an ELF64 object whose kernels are global FUNC symbols), GEMM operator
models compiled by acl-lab atc --singleop, and device buffers."""
from __future__ import annotations

import io
import json
import struct
from pathlib import Path

import numpy as np

from acl_lab import constants as C
from acl_lab.om.atc import main as atc

STB_LOCAL, STB_GLOBAL, STT_FUNC, STT_OBJECT, STV_HIDDEN = 0, 1, 2, 1, 2


def elf_object(kernels=("add_custom",), *, hidden=(), local=(), data=(), bits=64,
               big_endian=False) -> bytes:
    """An ELF object with a symbol table: ``kernels`` global functions, ``hidden`` global
    but hidden ones, ``local`` local ones, ``data`` global objects."""
    e = ">" if big_endian else "<"
    symbols = [(n, STB_GLOBAL, STT_FUNC, 0) for n in kernels] + \
        [(n, STB_GLOBAL, STT_FUNC, STV_HIDDEN) for n in hidden] + \
        [(n, STB_LOCAL, STT_FUNC, 0) for n in local] + \
        [(n, STB_GLOBAL, STT_OBJECT, 0) for n in data]
    strtab, syms = b"\0", [bytes(24)]
    for i, (name, bind, kind, vis) in enumerate(symbols):
        syms.append(struct.pack(e + "IBBHQQ", len(strtab), bind << 4 | kind, vis, 1,
                                0x100 * i, 0x80))
        strtab += name.encode() + b"\0"
    symtab, shstr = b"".join(syms), b"\0.text\0.symtab\0.strtab\0.shstrtab\0"
    text = b"\x90" * 64
    offsets, body = [], b""
    for part in (text, symtab, strtab, shstr):
        offsets.append(64 + len(body))
        body += part + bytes(-len(part) % 8)
    shoff = 64 + len(body)
    sections = [bytes(64),
                struct.pack(e + "IIQQQQIIQQ", 1, 1, 6, 0, offsets[0], len(text), 0, 0, 16, 0),
                struct.pack(e + "IIQQQQIIQQ", 7, 2, 0, 0, offsets[1], len(symtab), 3, 1, 8, 24),
                struct.pack(e + "IIQQQQIIQQ", 15, 3, 0, 0, offsets[2], len(strtab), 0, 0, 1, 0),
                struct.pack(e + "IIQQQQIIQQ", 23, 3, 0, 0, offsets[3], len(shstr), 0, 0, 1, 0)]
    ident = b"\x7fELF" + bytes([2 if bits == 64 else 1, 2 if big_endian else 1, 1]) + bytes(9)
    header = ident + struct.pack(e + "HHIQQQIHHHHHH", 1, 0x1029, 1, 0, 0, shoff, 0, 64, 0, 0,
                                 64, len(sections), 4)
    return header + body + b"".join(sections)


def tensor(shape, kind="float16", fmt="ND"):
    return {"format": fmt, "shape": list(shape), "type": kind}


def gemm_op(m: int, n: int, k: int, in_type="float16", out_type="float16",
            trans_a=False, trans_b=False) -> dict:
    """The GEMM operator aclblasGemmEx runs, as an op.json entry (spec/blas_rules.py)."""
    a = (k, m) if trans_a else (m, k)
    b = (n, k) if trans_b else (k, n)
    return {"op": "GEMM",
            "input_desc": [tensor(a, in_type), tensor(b, in_type), tensor((m, n), out_type),
                           tensor((), out_type), tensor((), out_type)],
            "output_desc": [tensor((m, n), out_type)],
            "attr": [{"name": "transpose_a", "type": "bool", "value": trans_a},
                     {"name": "transpose_b", "type": "bool", "value": trans_b}]}


def compile_ops(folder: Path, *ops) -> str:
    """Compile op.json entries with acl-lab atc --singleop; the models' folder."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "op.json").write_text(json.dumps(list(ops)))
    out = folder / "op_models"
    assert atc([f"--singleop={folder / 'op.json'}", f"--output={out}",
                "--soc_version=Ascend910B3"], out=io.StringIO()) == 0
    return str(out)


def to_device(acl, array: np.ndarray, size: int | None = None) -> int:
    """Device memory holding ``array`` (at least ``size`` bytes)."""
    dev, ret = acl.rt.malloc(max(array.nbytes, size or 0, 1), C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0
    if array.nbytes:
        assert acl.rt.memcpy(dev, array.nbytes, acl.util.numpy_to_ptr(array), array.nbytes,
                             C.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    return dev


def from_device(acl, dev: int, shape, dtype) -> np.ndarray:
    out = np.zeros(shape, dtype)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, dev, out.nbytes,
                         C.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    return out
