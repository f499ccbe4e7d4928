"""What the runtime reads from an AI Core kernel binary: a 64-bit ELF object whose kernels
are its global, visible, named FUNC symbols.

hicann/runtime src/runtime/core/src/kernel/elf.cc: GetFileHeader refuses a 32-bit ELF ("The
ELF file must be a 64-bit file"), reads the byte order from e_ident[EI_DATA], and
ProcessSymbolTable keeps a symbol as a kernel when CheckKernelAttr holds (STT_FUNC, STB_GLOBAL,
not STV_HIDDEN, a name). A binary the loader cannot register fails aclrtBinaryLoadFromFile /
FromData with ACL_ERROR_RT_PARAM_INVALID (ApiImpl::BinaryLoadFromFile, BinaryLoader::LoadNonCpu
returns RT_ERROR_INVALID_VALUE). Pure: bytes in, kernel names out; every offset is checked
against the data first, so no input reads past it.
"""
from __future__ import annotations

import struct

from acl_lab.i18n import _

ELF_MAGIC = b"\x7fELF"
ELFCLASS64 = 2
SHT_SYMTAB = 2
STT_FUNC, STB_GLOBAL, STV_HIDDEN = 2, 1, 2
HEADER, SECTION, SYMBOL = 64, 64, 24       # ELF64 sizes in bytes
MAX_SYMBOLS = 1 << 16                     # symbols read in all, more than any kernel object
MAX_NAME = 4096                           # bytes of one symbol name read, longer is cut


class BinaryError(ValueError):
    """The bytes are not a kernel binary the runtime registers; ``str()`` says why."""


def kernel_symbols(data: bytes) -> dict[str, int]:
    """The kernels of an ELF64 object: name -> symbol value (its offset in its section)."""
    if len(data) < HEADER or data[:4] != ELF_MAGIC:
        raise BinaryError(_("it does not start with the ELF magic bytes 7f 45 4c 46 (a kernel "
                            "binary is the .o file the Ascend C compiler writes)"))
    if data[4] != ELFCLASS64:
        raise BinaryError(_("it is a 32-bit ELF file; the runtime reads only 64-bit ones"))
    order = ">" if data[5] == 2 else "<"
    shoff, = struct.unpack_from(order + "Q", data, 0x28)
    shentsize, shnum = struct.unpack_from(order + "HH", data, 0x3A)
    if shnum == 0 or shentsize < SECTION or shoff + shnum * shentsize > len(data):
        raise BinaryError(_("its section header table is missing or runs past the end of the "
                            "file"))
    sections = [struct.unpack_from(order + "IIQQQQIIQQ", data, shoff + i * shentsize)
                for i in range(shnum)]
    kernels: dict[str, int] = {}
    budget = MAX_SYMBOLS        # so a file of many tables over the same bytes stays cheap
    for _name, kind, _f, _a, offset, size, link, _i, _al, entsize in sections:
        if kind != SHT_SYMTAB:
            continue
        if link >= shnum or entsize < SYMBOL or offset + size > len(data):
            raise BinaryError(_("its symbol table points outside the file"))
        strings = sections[link]
        lo, hi = strings[4], strings[4] + strings[5]
        if hi > len(data):
            raise BinaryError(_("its string table runs past the end of the file"))
        count = min(size // entsize, budget)
        budget -= count
        for at in range(offset, offset + count * entsize, entsize):
            name, info, other, _shndx, value, _size = struct.unpack_from(order + "IBBHQQ",
                                                                         data, at)
            if info & 0xF != STT_FUNC or info >> 4 != STB_GLOBAL or other & 3 == STV_HIDDEN \
                    or name == 0 or lo + name >= hi:
                continue
            stop = min(hi, lo + name + MAX_NAME)
            end = data.find(b"\0", lo + name, stop)
            label = data[lo + name:stop if end < 0 else end].decode("utf-8", "replace")
            if label:
                kernels[label] = value
    if not kernels:
        raise BinaryError(_("it holds no kernel: no global, visible FUNC symbol in its symbol "
                            "table"))
    return kernels
