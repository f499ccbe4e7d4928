"""Kernel binaries of one simulated process: aclrtBinary descriptions, loaded binaries and
the kernel functions found in them.

A binary is read and registered as the runtime does (hicann/runtime src/acl/aclrt_impl/
kernel.cpp, api/impl/api_error.cc and api_impl.cc Binary*, core/src/kernel/
binary_loader.cc): its kernels are the ELF symbols spec/kernel_binary.py names, a file is
read once at load time (bounded in size and type, so a FIFO, a device or a huge file is
refused, not read), data is copied from host memory the program owns. The simulator has no
AI Core, so kernel launches are refused (kernel_args.py); everything before them works.
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field

import numpy as np

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.sim.memory import DEVICE_BASE, DEVICE_STRIDE
from acl_lab.sim.simerror import SimError
from acl_lab.spec import handles, kernel_rules
from acl_lab.spec.kernel_binary import BinaryError, kernel_symbols
from acl_lab.spec.memory_rules import host_readable

BLOB_BASE, BINARY_BASE, FUNCTION_BASE = 0xB400_0000, 0xB000_0000, 0xB100_0000
STEP = 0x40
MAX_BINARY = 64 << 20            # a kernel object is a few MB at most; larger is refused
READ_STEP = 1 << 20
CODE_OFFSET = 0xA0_0000_0000     # where a device's loaded kernel code is placed (modeled)
CODE_SPAN = 1 << 20               # modeled device code addresses a binary spans


@dataclass(eq=False)
class Blob:
    """aclrtCreateBinary: a description of binary data in host memory (not copied)."""
    handle: int
    data: int
    length: int


@dataclass(eq=False)
class Binary:
    handle: int
    source: str               # the file, or "data at 0x..."
    kernels: dict             # name -> symbol value; empty for an AI CPU binary
    cpu: bool
    magic: int
    lazy: bool
    functions: dict = field(default_factory=dict)   # name -> Function


@dataclass(eq=False)
class Function:
    handle: int
    binary: Binary
    name: str
    cpu: bool
    offset: int               # the kernel symbol's value in the binary

    @property
    def user_params(self) -> int:
        return kernel_rules.MAX_PARAM_CNT if self.cpu else kernel_rules.USER_ARGS_MAX_NUM


def _unreadable(call: str, path: str, e: OSError) -> SimError:
    return SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
        "{call}: {path} cannot be read ({reason}). Pass the path of the kernel's .o "
        "file.").format(call=call, path=repr(path), reason=e.strerror or e))


def read_binary_file(path: str, call: str, ram) -> bytes:
    """The bytes of the regular file at ``path`` (at most MAX_BINARY); SimError otherwise.
    Opened without blocking and checked on the open descriptor, so a FIFO or a device is
    refused before anything is read. (The kit's shared bounded reader, support/files.py,
    comes with the sandbox work; this is the same check for this one caller.)"""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise _unreadable(call, path, e) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BINARY:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: {path} is not a kernel binary the runtime reads: it is not a regular "
                "file, or it is larger than {limit} B.").format(
                    call=call, path=repr(path), limit=MAX_BINARY))
        ram.need(info.st_size, call, _("a copy of the binary"))
        chunks, total = [], 0
        while total <= MAX_BINARY:
            try:
                chunk = os.read(fd, min(READ_STEP, MAX_BINARY + 1 - total))
            except OSError as e:        # e.g. /proc/self/mem: regular, yet no bytes to read
                raise _unreadable(call, path, e) from None
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    finally:
        os.close(fd)
    if total > MAX_BINARY:
        raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
            "{call}: {path} grew past {limit} B while it was read.").format(
                call=call, path=repr(path), limit=MAX_BINARY))
    return b"".join(chunks)


class Kernels:
    def __init__(self, rt):
        self.rt = rt
        self.blobs: dict[int, Blob] = {}
        self.binaries: dict[int, Binary] = {}
        self.functions: dict[int, Function] = {}
        self._count = 0

    def _handle(self, base: int) -> int:
        self._count += 1
        return base + self._count * STEP

    # ----- aclrtBinary: a description of data in host memory ---------------------------
    def create_blob(self, data: int, length: int) -> int:
        if data == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: data is NULL; aclrtCreateBinary returns NULL. Pass the address of the "
                "binary's bytes in host memory (acl.util.bytes_to_ptr).").format(
                    call="aclrtCreateBinary"))
        b = Blob(self._handle(BLOB_BASE), data, length)
        self.blobs[b.handle] = b
        return b.handle

    def blob(self, handle: int, call: str) -> Blob:
        return handles.live(self.blobs, handle, call, _(
            "{call}: {handle} is not a live aclrtBinary (destroyed, or never created; on "
            "hardware a read of freed memory). Pass what acl.rt.create_binary returned."),
            _("{call}: binary is NULL. Pass what acl.rt.create_binary returned."))

    def destroy_blob(self, handle: int) -> None:
        self.blob(handle, "aclrtDestroyBinary")
        del self.blobs[handle]

    # ----- loading -------------------------------------------------------------------------
    def _host_bytes(self, data: int, length: int, call: str) -> bytes:
        """``length`` bytes at host address ``data``, which the program must own."""
        if length == 0:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: length is 0; a binary has bytes.").format(call=call))
        if length > MAX_BINARY:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: {length} B is larger than any kernel binary ({limit} B at "
                "most).").format(call=call, length=length, limit=MAX_BINARY))
        a = host_readable(self.rt.memory.map, data, length, call, self.rt.profile.run_mode)
        self.rt.memory.ram.need(length, call, _("a copy of the binary"))
        out = np.empty(length, np.uint8)
        a.read_into(data - a.ptr, length, out)
        return out.tobytes()

    def _register(self, data: bytes | None, source: str, opts: kernel_rules.LoadOptions,
                  call: str) -> int:
        """A Binary of ``data`` (None: an AI CPU binary known by its .json)."""
        kernels = {}
        if opts.cpu_mode is None:
            try:
                kernels = kernel_symbols(data)
            except BinaryError as e:
                raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                    "{call}: {source} is not a kernel binary the runtime registers: {reason}."
                ).format(call=call, source=source, reason=e)) from None
        handle = self._handle(BINARY_BASE)
        b = Binary(handle, source, kernels, opts.cpu_mode is not None, opts.magic, opts.lazy)
        self.binaries[handle] = b
        return handle

    def load_file(self, path: str, options, call: str = "aclrtBinaryLoadFromFile") -> int:
        if "\0" in path or not path:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: the path is empty or not a path.").format(call=call))
        opts = kernel_rules.load_options(call, options, from_file=True)
        if opts.cpu_mode == 0:      # an AI CPU binary of its .json only (SetCpuBinInfo)
            return self._register(None, path, opts, call)
        data = read_binary_file(path, call, self.rt.memory.ram)
        return self._register(None if opts.cpu_mode is not None else data, path, opts, call)

    def load_data(self, data: int, length: int, options,
                  call: str = "aclrtBinaryLoadFromData") -> int:
        if data == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM, _(
                "{call}: data is NULL.").format(call=call))
        opts = kernel_rules.load_options(call, options, from_file=False)
        return self._register(self._host_bytes(data, length, call), f"data at 0x{data:x}",
                              opts, call)

    def load_blob(self, handle: int, call: str = "aclrtBinaryLoad") -> int:
        b = self.blob(handle, call)
        opts = kernel_rules.load_options(call, [], from_file=False)
        return self._register(self._host_bytes(b.data, b.length, call),
                              f"data at 0x{b.data:x}", opts, call)

    def binary(self, handle: int, call: str) -> Binary:
        return handles.live(self.binaries, handle, call, _(
            "{call}: {handle} is not a loaded binary (unloaded, or never loaded). Use the "
            "bin_handle acl.rt.binary_load_from_file / _from_data / binary_load returned."),
            dead_code=C.ACL_ERROR_RT_INVALID_HANDLE)

    def unload(self, handle: int, call: str = "aclrtBinaryUnLoad") -> None:
        b = self.binary(handle, call)
        for f in b.functions.values():
            self.functions.pop(f.handle, None)
        self.rt.kernel_args.forget_functions(b.functions.values())
        del self.binaries[handle]

    # ----- kernel functions ---------------------------------------------------------------
    def get_function(self, handle: int, name: str, call: str = "aclrtBinaryGetFunction") -> int:
        b = self.binary(handle, call)
        if b.cpu:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: {handle} is an AI CPU binary; get its functions with "
                "acl.rt.register_cpu_func.").format(call=call, handle=f"0x{handle:x}"))
        if name not in b.kernels:
            known = ", ".join(sorted(b.kernels)[:8])
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: {source} has no kernel named {name} (it has: {known}). Kernel names "
                "are the global function symbols of the .o file.").format(
                    call=call, source=b.source, name=repr(name), known=known))
        return self._function(b, name, cpu=False, offset=b.kernels[name])

    def register_cpu(self, handle: int, func_name: str, kernel_name: str,
                     call: str = "aclrtRegisterCpuFunc") -> int:
        b = self.binary(handle, call)
        if not b.cpu:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: {handle} is an AI Core binary; AI CPU functions are registered on a "
                "binary loaded with the ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE option.").format(
                    call=call, handle=f"0x{handle:x}"))
        return self._function(b, f"{func_name}/{kernel_name}", cpu=True, offset=0)

    def _function(self, b: Binary, name: str, cpu: bool, offset: int) -> int:
        f = b.functions.get(name)
        if f is None:
            f = Function(self._handle(FUNCTION_BASE), b, name, cpu, offset)
            b.functions[name] = f
            self.functions[f.handle] = f
        return f.handle

    def function(self, handle: int, call: str) -> Function:
        return handles.live(self.functions, handle, call, _(
            "{call}: {handle} is not a kernel function of a loaded binary (its binary was "
            "unloaded, or the handle is another kind). Use the func_handle "
            "acl.rt.binary_get_function returned."), dead_code=C.ACL_ERROR_RT_INVALID_HANDLE)

    def function_addr(self, handle: int, call: str = "aclrtGetFunctionAddr") -> tuple[int, int]:
        """(AI Cube address, AI Vector address) of the kernel's code (ApiImpl::FuncGetAddr: a
        vector kernel's one address is the second)."""
        f = self.function(handle, call)
        if f.cpu:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: {handle} is an AI CPU function; only AI Core kernels have device code "
                "addresses.").format(call=call, handle=f"0x{handle:x}"))
        device = self.rt.require_ctx(call).device
        code = DEVICE_BASE + device * DEVICE_STRIDE + CODE_OFFSET + \
            (f.binary.handle - BINARY_BASE) // STEP % 4096 * CODE_SPAN + f.offset % CODE_SPAN
        vector = f.binary.magic == C.ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE
        return (0, code) if vector else (code, 0)

    def function_name(self, handle: int, max_len: int, call: str = "aclrtGetFunctionName") -> str:
        f = self.function(handle, call)
        if max_len < len(f.name.encode()) + 1:
            raise SimError(C.ACL_ERROR_RT_PARAM_INVALID, _(
                "{call}: maxLen {max_len} has no room for the name and its NUL: it needs at "
                "least {need}.").format(call=call, max_len=max_len, need=len(f.name.encode()) + 1))
        return f.name

    def snapshot(self) -> list[dict]:
        return [{"handle": b.handle, "source": b.source, "cpu": b.cpu,
                 "kernels": sorted(b.kernels), "functions": sorted(
                     f.handle for f in b.functions.values())}
                for b in self.binaries.values()]
