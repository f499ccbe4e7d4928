"""The pyACL-shaped facade over the simulator: the only place SimError becomes a return code.

Names, argument order and return shapes follow pyACL: a call that produces a value returns
``(value, ret)``; one that only acts returns ``ret``. Wrong Python types raise TypeError
(as pyACL's argument parsing does); any int, however wrong, gets a return code.
"""
from __future__ import annotations

import functools
import json
import math
import operator
import os

import numpy as np

from .. import constants as C
from ..errors import AclLabError, SimulatorLimit
from ..memory_rules import NPY_TYPES
from . import transfer
from .profiles import Profile, get_profile
from .runtime import Runtime
from .simerror import SimError

_U64 = 1 << 64
_I64_MIN = -(1 << 63)


def _int(call: str, name: str, value) -> int:
    """An int argument as C would receive it: TypeError for non-ints, SimError if out of range."""
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"{call}: {name} must be an int, not {type(value).__name__}") from None
    if not _I64_MIN <= v < _U64:
        raise SimError(C.ACL_ERROR_INVALID_PARAM,
                       f"{call}: {name}={v} does not fit in 64 bits.")
    return v


def _size(call: str, name: str, value) -> int:
    v = _int(call, name, value)
    if v < 0:
        raise SimError(C.ACL_ERROR_INVALID_PARAM,
                       f"{call}: {name}={v} is negative; sizes are unsigned (size_t).")
    return v


_ptr = _size   # pointers, handles and sizes are all unsigned 64-bit values in C


def _out_of_memory(call: str) -> SimulatorLimit:
    """Python could not allocate host memory during ``call`` (the budget leaves the rest of
    the machine to others, and they took it): say so instead of a bare MemoryError."""
    return SimulatorLimit(f"{call}: the host ran out of memory while simulating this call; "
                          f"queued work stays queued and nothing was lost. Free memory (in "
                          f"this notebook or elsewhere), use smaller buffers, or "
                          f"acl_lab.reset().")


def _api(*fail):
    """Run the method under the process lock; SimError -> (``*fail``, code) or code."""
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(self, *args, **kwargs):
            rt = self._sim.rt
            with rt.lock:
                try:
                    result = fn(self, rt, *args, **kwargs)
                except SimError as e:
                    rt.last_error = e.message
                    return (*fail, e.code) if fail else e.code
                except MemoryError:
                    raise _out_of_memory(fn.__name__) from None
            if not fail:
                return C.ACL_SUCCESS
            return (*result, C.ACL_SUCCESS) if len(fail) > 1 else (result, C.ACL_SUCCESS)
        return wrapper
    return deco


class _Namespace:
    def __init__(self, sim: "Simulator"):
        self._sim = sim


class Rt(_Namespace):
    """acl.rt"""

    @_api()
    def set_device(self, rt, device_id):
        rt.set_device(_int("aclrtSetDevice", "deviceId", device_id))

    @_api()
    def reset_device(self, rt, device_id):
        rt.reset_device(_int("aclrtResetDevice", "deviceId", device_id))

    @_api(0)
    def get_device(self, rt):
        return rt.require_ctx("aclrtGetDevice").device

    @_api(0)
    def get_device_count(self, rt):
        return rt.profile.device_count

    @_api(0)
    def get_run_mode(self, rt):
        return rt.profile.run_mode

    @_api(0)
    def create_context(self, rt, device_id):
        return rt.create_context(_int("aclrtCreateContext", "deviceId", device_id))

    @_api()
    def destroy_context(self, rt, context):
        rt.destroy_context(_ptr("aclrtDestroyContext", "context", context))

    @_api()
    def set_context(self, rt, context):
        rt.set_context(_ptr("aclrtSetCurrentContext", "context", context))

    @_api(0)
    def get_context(self, rt):
        return rt.require_ctx("aclrtGetCurrentContext").handle

    @_api(0)
    def create_stream(self, rt):
        return rt.create_stream()

    @_api()
    def destroy_stream(self, rt, stream):
        rt.destroy_stream(_ptr("aclrtDestroyStream", "stream", stream))

    @_api()
    def synchronize_stream(self, rt, stream):
        rt.synchronize_stream(_ptr("aclrtSynchronizeStream", "stream", stream))

    @_api()
    def synchronize_device(self, rt):
        rt.synchronize_device()

    @_api(0)
    def create_event(self, rt):
        return rt.create_event()

    @_api()
    def destroy_event(self, rt, event):
        rt.destroy_event(_ptr("aclrtDestroyEvent", "event", event))

    @_api()
    def record_event(self, rt, event, stream):
        call = "aclrtRecordEvent"
        rt.record_event(_ptr(call, "event", event), _ptr(call, "stream", stream))

    @_api()
    def stream_wait_event(self, rt, stream, event):
        call = "aclrtStreamWaitEvent"
        rt.stream_wait_event(_ptr(call, "stream", stream), _ptr(call, "event", event))

    @_api()
    def synchronize_event(self, rt, event):
        rt.synchronize_event(_ptr("aclrtSynchronizeEvent", "event", event))

    @_api(0)
    def query_event_status(self, rt, event):
        return rt.query_event(_ptr("aclrtQueryEventStatus", "event", event))

    @_api(0.0)
    def event_elapsed_time(self, rt, start, end):
        call = "aclrtEventElapsedTime"
        return rt.elapsed_ms(_ptr(call, "start", start), _ptr(call, "end", end))

    def _malloc(self, rt, size, policy, api, call):
        return rt.malloc(_size(call, "size", size), _int(call, "policy", policy), api)

    @_api(0)
    def malloc(self, rt, size, policy):
        return self._malloc(rt, size, policy, "malloc", "aclrtMalloc")

    @_api(0)
    def malloc_align32(self, rt, size, policy):
        return self._malloc(rt, size, policy, "malloc_align32", "aclrtMallocAlign32")

    @_api(0)
    def malloc_cached(self, rt, size, policy):
        return self._malloc(rt, size, policy, "malloc_cached", "aclrtMallocCached")

    @_api()
    def free(self, rt, dev_ptr):
        rt.free(_ptr("aclrtFree", "devPtr", dev_ptr), "free")

    @_api(0)
    def malloc_host(self, rt, size):
        return rt.malloc_host(_size("aclrtMallocHost", "size", size))

    @_api()
    def free_host(self, rt, host_ptr):
        rt.free(_ptr("aclrtFreeHost", "hostPtr", host_ptr), "free_host")

    @_api(0, 0)
    def get_mem_info(self, rt, attr):
        return rt.mem_info(_int("aclrtGetMemInfo", "attr", attr))

    @_api()
    def memset(self, rt, dev_ptr, max_count, value, count):
        c = "aclrtMemset"
        transfer.memset(rt, _ptr(c, "devPtr", dev_ptr), _size(c, "maxCount", max_count),
                        _int(c, "value", value), _size(c, "count", count))

    @_api()
    def memset_async(self, rt, dev_ptr, max_count, value, count, stream):
        c = "aclrtMemsetAsync"
        transfer.memset(rt, _ptr(c, "devPtr", dev_ptr), _size(c, "maxCount", max_count),
                        _int(c, "value", value), _size(c, "count", count),
                        _ptr(c, "stream", stream))

    @_api()
    def memcpy(self, rt, dst, dest_max, src, count, kind):
        c = "aclrtMemcpy"
        transfer.memcpy(rt, _ptr(c, "dst", dst), _size(c, "destMax", dest_max),
                        _ptr(c, "src", src), _size(c, "count", count), _int(c, "kind", kind))

    @_api()
    def memcpy_async(self, rt, dst, dest_max, src, count, kind, stream):
        c = "aclrtMemcpyAsync"
        transfer.memcpy(rt, _ptr(c, "dst", dst), _size(c, "destMax", dest_max),
                        _ptr(c, "src", src), _size(c, "count", count), _int(c, "kind", kind),
                        _ptr(c, "stream", stream))

    @_api()
    def memcpy2d(self, rt, dst, dpitch, src, spitch, width, height, kind):
        c = "aclrtMemcpy2d"
        transfer.memcpy2d(rt, _ptr(c, "dst", dst), _size(c, "dpitch", dpitch),
                          _ptr(c, "src", src), _size(c, "spitch", spitch),
                          _size(c, "width", width), _size(c, "height", height),
                          _int(c, "kind", kind))

    @_api()
    def memcpy2d_async(self, rt, dst, dpitch, src, spitch, width, height, kind, stream):
        c = "aclrtMemcpy2dAsync"
        transfer.memcpy2d(rt, _ptr(c, "dst", dst), _size(c, "dpitch", dpitch),
                          _ptr(c, "src", src), _size(c, "spitch", spitch),
                          _size(c, "width", width), _size(c, "height", height),
                          _int(c, "kind", kind), _ptr(c, "stream", stream))


def _creator(fn):
    """C creators (aclCreateTensor, aclCreateScalar) return a handle, NULL (0) on failure."""
    @functools.wraps(fn)
    def wrapper(self, *args):
        rt = self._sim.rt
        with rt.lock:
            try:
                return fn(self, rt, *args)
            except SimError as e:
                rt.last_error = e.message
                return 0
    return wrapper


def _ints(call: str, name: str, values) -> tuple:
    if isinstance(values, (int, np.integer)):
        values = (values,)
    try:
        return tuple(_int(call, name, v) for v in values)
    except TypeError:
        raise TypeError(f"{call}: {name} must be a sequence of ints") from None


def _capture_stream(rt, stream, call: str):
    """The stream a capture call names; NULL (the default stream) can never capture."""
    if stream == 0:
        raise SimError(C.ACL_ERROR_INVALID_PARAM,
                       f"{call}: stream is NULL — the default stream cannot capture. Create a "
                       f"stream with acl.rt.create_stream() and capture on it.")
    return rt.stream(stream, call)


class Mdl(_Namespace):
    """acl.mdl: stream capture into a model RI (aclmdlRI*), execution, debug print"""

    @_api()
    def ri_capture_begin(self, rt, stream, mode):
        c = "aclmdlRICaptureBegin"
        stream, mode = _ptr(c, "stream", stream), _int(c, "mode", mode)
        rt.capture.begin(_capture_stream(rt, stream, c), mode)

    @_api(0)
    def ri_capture_end(self, rt, stream):
        c = "aclmdlRICaptureEnd"
        return rt.capture.end(_capture_stream(rt, _ptr(c, "stream", stream), c))

    @_api(0, 0)
    def ri_capture_get_info(self, rt, stream):
        c = "aclmdlRICaptureGetInfo"
        return rt.capture.info(_capture_stream(rt, _ptr(c, "stream", stream), c))

    @_api(0)
    def ri_capture_thread_exchange_mode(self, rt, mode):
        return rt.capture.exchange_mode(_int("aclmdlRICaptureThreadExchangeMode", "mode", mode))

    @_api()
    def ri_execute_async(self, rt, model_ri, stream):
        c = "aclmdlRIExecuteAsync"
        rt.capture.execute_async(_ptr(c, "modelRI", model_ri),
                                 rt.stream(_ptr(c, "stream", stream), c))

    @_api()
    def ri_execute(self, rt, model_ri, timeout):
        c = "aclmdlRIExecute"
        rt.capture.execute(_ptr(c, "modelRI", model_ri), _int(c, "timeout", timeout))

    @_api()
    def ri_destroy(self, rt, model_ri):
        rt.capture.destroy(_ptr("aclmdlRIDestroy", "modelRI", model_ri))

    @_api()
    def init_dump(self, rt):
        rt.configure("aclmdlInitDump")

    @_api()
    def set_dump(self, rt, dump_cfg_path):
        rt.configure("aclmdlSetDump", lambda: _read_config(dump_cfg_path, "aclmdlSetDump"))

    @_api()
    def finalize_dump(self, rt):
        rt.configure("aclmdlFinalizeDump")

    @_api()
    def ri_debug_json_print(self, rt, model_ri, path, flags=0):
        c = "aclmdlRIDebugJsonPrint"
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"{c}: path must be a str, not {type(path).__name__}")
        rt.capture.debug_json(_ptr(c, "modelRI", model_ri), os.fspath(path),
                              _int(c, "flags", flags))


class Nn(_Namespace):
    """acl.nn: aclnn operators (two-phase: get workspace size + executor, then launch)"""

    @_creator
    def create_tensor(self, rt, shape, data_type, strides, offset, fmt, storage_shape, dev_ptr):
        c = "aclCreateTensor"
        return rt.ops.create_tensor(_ints(c, "viewDims", shape), _int(c, "dataType", data_type),
                                    _ints(c, "stride", strides), _int(c, "offset", offset),
                                    _int(c, "format", fmt), _ints(c, "storageDims", storage_shape),
                                    _ptr(c, "tensorData", dev_ptr))

    @_creator
    def create_scalar(self, rt, value, data_type):
        if not isinstance(value, (int, float, np.number, bool)):
            raise TypeError(f"aclCreateScalar: value must be a number, not {type(value).__name__}")
        return rt.ops.create_scalar(value, _int("aclCreateScalar", "dataType", data_type))

    @_api()
    def destroy_tensor(self, rt, tensor):
        rt.ops.destroy(rt.ops.tensors, _ptr("aclDestroyTensor", "tensor", tensor),
                       "aclDestroyTensor")

    @_api()
    def destroy_scalar(self, rt, scalar):
        rt.ops.destroy(rt.ops.scalars, _ptr("aclDestroyScalar", "scalar", scalar),
                       "aclDestroyScalar")

    @_api(0, 0)
    def add_get_workspace_size(self, rt, self_, other, alpha, out):
        c = "aclnnAddGetWorkspaceSize"
        return rt.ops.prepare("Add", c, {"self": _ptr(c, "self", self_),
                                         "other": _ptr(c, "other", other),
                                         "out": _ptr(c, "out", out)},
                              {"alpha": _ptr(c, "alpha", alpha)}, "out")

    @_api(0, 0)
    def mul_get_workspace_size(self, rt, self_, other, out):
        c = "aclnnMulGetWorkspaceSize"
        return rt.ops.prepare("Mul", c, {"self": _ptr(c, "self", self_),
                                         "other": _ptr(c, "other", other),
                                         "out": _ptr(c, "out", out)}, {}, "out")

    @_api(0, 0)
    def inplace_copy_get_workspace_size(self, rt, self_ref, src):
        c = "aclnnInplaceCopyGetWorkspaceSize"
        return rt.ops.prepare("InplaceCopy", c, {"src": _ptr(c, "src", src),
                                                 "selfRef": _ptr(c, "selfRef", self_ref)},
                              {}, "selfRef")

    def _launch(self, rt, op, workspace, workspace_size, executor, stream):
        c = f"aclnn{op}"
        rt.ops.launch(op, _ptr(c, "workspace", workspace),
                      _size(c, "workspaceSize", workspace_size),
                      _ptr(c, "executor", executor), rt.stream(_ptr(c, "stream", stream), c))

    @_api()
    def add(self, rt, workspace, workspace_size, executor, stream):
        self._launch(rt, "Add", workspace, workspace_size, executor, stream)

    @_api()
    def mul(self, rt, workspace, workspace_size, executor, stream):
        self._launch(rt, "Mul", workspace, workspace_size, executor, stream)

    @_api()
    def inplace_copy(self, rt, workspace, workspace_size, executor, stream):
        self._launch(rt, "InplaceCopy", workspace, workspace_size, executor, stream)


class Media(_Namespace):
    """acl.media (the DVPP allocator pair)"""

    @_api(0)
    def dvpp_malloc(self, rt, size):
        return rt.malloc(_size("acldvppMalloc", "size", size), C.ACL_MEM_MALLOC_HUGE_FIRST,
                         "dvpp_malloc")

    @_api()
    def dvpp_free(self, rt, dev_ptr):
        rt.free(_ptr("acldvppFree", "devPtr", dev_ptr), "dvpp_free")


class Util(_Namespace):
    """acl.util: moving between Python objects and pointers"""

    def numpy_to_ptr(self, array):
        """Register ``array`` as pageable host memory; its address (0 if it cannot be used)."""
        if not isinstance(array, np.ndarray):
            raise TypeError(f"numpy_to_ptr: expected a numpy.ndarray, not {type(array).__name__}")
        if array.dtype.hasobject:
            raise TypeError("numpy_to_ptr: the array holds Python objects (dtype "
                            f"{array.dtype}), i.e. pointers into Python's heap, not data a "
                            f"device can use. Convert it to a numeric dtype first.")
        rt = self._sim.rt
        with rt.lock:
            if not array.flags.c_contiguous:
                rt.last_error = ("numpy_to_ptr: the array is not C-contiguous (a transposed or "
                                 "strided view), so its elements are not one run of bytes; got "
                                 "NULL (0). Pass np.ascontiguousarray(array) instead.")
                return 0
            return rt.memory.register(array)

    def bytes_to_ptr(self, data):
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError(f"bytes_to_ptr: expected bytes or bytearray, not {type(data).__name__}")
        rt = self._sim.rt
        with rt.lock:
            return rt.memory.register(data)

    def _host_memory(self, rt, ptr, nbytes, call):
        """The allocation holding the ``nbytes`` at ``ptr`` the host CPU is about to touch;
        where real pyACL would crash, explain."""
        try:
            a = rt.memory.resolve(_ptr(call, "ptr", ptr), nbytes, "ptr", call)
        except SimError as e:
            raise AclLabError(e.code, e.message + " On real hardware this call would read "
                              "invalid memory and crash the Python process.") from None
        if a.location == "device" and rt.profile.run_mode == C.ACL_HOST:
            raise AclLabError(C.ACL_ERROR_INVALID_PARAM,
                              f"{call}: 0x{ptr:x} is device memory ({a.describe()}). The host "
                              f"CPU cannot read it: real pyACL would crash the process "
                              f"(segmentation fault). Copy it to host memory first with "
                              f"acl.rt.memcpy(..., ACL_MEMCPY_DEVICE_TO_HOST).")
        return a

    def ptr_to_numpy(self, ptr, shape, npy_type):
        call = "ptr_to_numpy"
        dtype = NPY_TYPES.get(npy_type)
        if dtype is None:
            raise TypeError(f"{call}: {npy_type!r} is not a numpy type number (e.g. "
                            f"np.dtype(np.float32).num == 11)")
        dims = shape if isinstance(shape, (tuple, list)) else (shape,)
        try:
            shape = tuple(operator.index(n) for n in dims)
        except TypeError:
            raise TypeError(f"{call}: shape must be an int or a sequence of ints") from None
        if min(shape, default=0) < 0:   # numpy's own rule for the array pyACL builds
            raise ValueError(f"{call}: negative dimensions are not allowed (shape {shape})")
        if max(shape, default=0) >= 1 << 63:
            raise ValueError(f"{call}: a dimension of shape {shape} does not fit in int64")
        nbytes = math.prod(shape) * dtype.itemsize
        rt = self._sim.rt
        with rt.lock:
            a = self._host_memory(rt, ptr, nbytes, call)
            rt.memory.ram.need(a.fresh_bytes(ptr - a.ptr, nbytes), call)
            return a.view(ptr - a.ptr, nbytes, call=call).view(dtype).reshape(shape)

    def ptr_to_bytes(self, ptr, size):
        call = "ptr_to_bytes"
        try:
            size = _size(call, "size", size)
        except SimError as e:
            raise ValueError(e.message) from None
        rt = self._sim.rt
        with rt.lock:
            a = self._host_memory(rt, ptr, size, call)
            rt.memory.ram.need(2 * size, call, "the bytes object it returns")
            out = np.empty(size, np.uint8)
            a.read_into(ptr - a.ptr, size, out)
            return out.tobytes()


class SimAcl(_Namespace):
    """What ``acl_lab.load()`` hands out for the simulator: shaped like pyACL's ``acl``."""

    def __init__(self, sim: "Simulator"):
        super().__init__(sim)
        self.rt, self.media, self.util = Rt(sim), Media(sim), Util(sim)
        self.mdl, self.nn = Mdl(sim), Nn(sim)

    @_api()
    def init(self, rt, config_path=""):
        if config_path:
            _read_config(config_path, "aclInit")
        rt.init()

    @_api()
    def finalize(self, rt):
        rt.finalize()

    def get_soc_name(self):
        return self._sim.rt.profile.soc_name

    def get_recent_err_msg(self):
        """The explanation of this thread's most recent failure. As aclGetRecentErrMsg, reading
        consumes it: a second call returns an empty string until the next failure."""
        rt = self._sim.rt
        text, rt.last_error = rt.last_error, ""
        return text


def _read_config(path, call: str) -> None:
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{call}: the config path must be a str, not {type(path).__name__}")
    if not os.path.isfile(path):
        raise SimError(C.ACL_ERROR_INVALID_FILE,
                       f"{call}: config file {os.fspath(path)!r} does not exist. Pass an existing "
                       f"JSON file.")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if text.strip():
            json.loads(text)
    except (OSError, ValueError) as e:
        raise SimError(C.ACL_ERROR_PARSE_FILE,
                       f"{call}: config file {os.fspath(path)!r} is not valid JSON ({e}).") from None


class Simulator:
    """The simulated process. ``reset`` starts a fresh one in place, so every ``acl`` handed
    out keeps working (a notebook re-run starts from a clean process)."""

    def __init__(self, profile: Profile | None = None):
        self.rt = Runtime(profile or get_profile())
        self.acl = SimAcl(self)

    def reset(self, profile: Profile | None = None) -> None:
        old = self.rt
        with old.lock:    # its bytes go now, not when the cycle collector finds the old process
            old.memory.release_storage()
        self.rt = Runtime(profile or old.profile)
