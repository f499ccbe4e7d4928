"""``acl.util``: pyACL's helpers between Python objects and pointers (no C function behind
them), and its helper threads for callback processing."""
import math
import operator
import threading

import numpy as np

from acl_lab import constants as C
from acl_lab.errors import SimulatorLimit, as_int, negative_size
from acl_lab.i18n import _
from acl_lab.sim.facade._call import Namespace, acl_call
from acl_lab.sim.simerror import SimError
from acl_lab.spec import args
from acl_lab.spec.memory_rules import host_readable
from acl_lab.spec.dtypes import NPY_TYPES
from acl_lab.support import pyodide


class Util(Namespace):
    """acl.util"""

    @acl_call("util.numpy_to_ptr")
    def numpy_to_ptr(self, rt, array):
        """Register ``array`` as pageable host memory; its address (0 if it cannot be used)."""
        if not isinstance(array, np.ndarray):
            raise TypeError(f"numpy_to_ptr: expected a numpy.ndarray, not {type(array).__name__}")
        if array.dtype.hasobject:
            raise TypeError("numpy_to_ptr: the array holds Python objects (dtype "
                            f"{array.dtype}), i.e. pointers into Python's heap, not data a "
                            f"device can use. Convert it to a numeric dtype first.")
        if not array.flags.c_contiguous:
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: the array is not C-contiguous (a transposed or strided "
                             "view), so its elements are not one run of bytes; got NULL (0). "
                             "Pass np.ascontiguousarray(array) instead.").format(
                               call="numpy_to_ptr"))
        return rt.memory.register(array)

    def numpy_contiguous_to_ptr(self, array):
        """The older pyACL helper: a C-contiguous copy of ``array`` (or the array itself when
        it already is one) registered as pageable host memory, and that array, which must
        stay alive while the pointer is used."""
        if not isinstance(array, np.ndarray):
            raise TypeError(f"numpy_contiguous_to_ptr: expected a numpy.ndarray, not "
                            f"{type(array).__name__}")
        data_out = np.ascontiguousarray(array)
        return self.numpy_to_ptr(data_out), data_out

    @acl_call("util.bytes_to_ptr")
    def bytes_to_ptr(self, rt, data):
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError(f"bytes_to_ptr: expected bytes or bytearray, not {type(data).__name__}")
        return rt.memory.register(data)

    @acl_call("util.ptr_to_numpy")
    def ptr_to_numpy(self, rt, ptr, shape, npy_type):
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
        a = _host_memory(rt, ptr, nbytes, call)
        rt.memory.ram.need(a.fresh_bytes(ptr - a.ptr, nbytes), call)
        return a.window(ptr - a.ptr, nbytes, call=call).view(dtype).reshape(shape)

    @acl_call("util.ptr_to_bytes")
    def ptr_to_bytes(self, rt, ptr, size):
        call = "ptr_to_bytes"
        size = as_int(call, "size", size)
        if size < 0:
            raise ValueError(negative_size(call, "size", size))
        if size >= 1 << 64:
            raise ValueError(_("{call}: {name}={value} does not fit in 64 bits.").format(
                call=call, name="size", value=size))
        a = _host_memory(rt, ptr, size, call)
        rt.memory.ram.need(2 * size, call, _("the bytes object it returns"))
        out = np.empty(size, np.uint8)
        a.read_into(ptr - a.ptr, size, out)
        return out.tobytes()

    # ----- helper threads (pyACL's start_thread / stop_thread) ---------------------------
    @acl_call("util.start_thread", locked=False)
    def start_thread(self, rt, fn: args.function, args_list):
        """(thread_id, ret): run ``fn(args_list)`` on a new thread; the id is the one
        subscribe_report and process_report know it by."""
        if pyodide.pyodide():
            raise SimulatorLimit(pyodide.no_threads(_("acl.util.start_thread needs a real "
                                                      "thread to wait for callbacks")))
        t = threading.Thread(target=fn, args=(args_list,), daemon=True,
                             name=f"acl_lab callback thread {len(self._started()) + 1}")
        t.acl_lab_process = rt      # the process it serves; it ends with it
        t.start()
        self._started()[t.ident] = t
        return t.ident

    @acl_call("util.stop_thread", locked=False)
    def stop_thread(self, rt, thread_id):
        """ret: wait for the thread to finish (its function must return: set your exit flag
        first). A thread still running after a minute is left alone and reported."""
        t = self._started().get(thread_id)
        if t is None:
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: {thread} is not a thread acl.util.start_thread started "
                             "(or it was stopped already).").format(call="stop_thread",
                                                                    thread=thread_id))
        t.join(timeout=60)
        if t.is_alive():
            raise SimError(C.ACL_ERROR_FAILURE,
                           _("{call}: thread {thread} is still running after 60 s: its "
                             "function never returned. Set the flag its loop checks before "
                             "stopping it.").format(call="stop_thread", thread=thread_id))
        del self._started()[thread_id]

    def _started(self) -> dict:
        return self.__dict__.setdefault("_threads", {})


def _host_memory(rt, ptr, nbytes, call):
    """The allocation the host CPU is about to touch (memory_rules.host_readable)."""
    return host_readable(rt.memory.map, args.ptr_arg(call, "ptr", ptr), nbytes, call,
                         rt.profile.run_mode)
