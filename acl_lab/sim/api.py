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
import sys
import threading
import time

import numpy as np

from acl_lab import constants as C
from acl_lab.support import interrupts
from acl_lab.support import pyodide as wasm
from acl_lab.sim.media import calls as media_calls
from acl_lab.sim.media import video_calls
from acl_lab.errors import AclLabError, SimulatorLimit, as_int
from acl_lab.i18n import _
from acl_lab.spec.memory_rules import NPY_TYPES
from acl_lab.sim import transfer, waits
from acl_lab.spec import prototypes
from acl_lab.spec.args import i32 as _i32, int_arg as _int, ptr_arg as _ptr, size_arg as _size, u32 as _u32, u64 as _u64
from acl_lab.sim.models import io_name
from acl_lab.sim.profiles import Profile, get_profile
from acl_lab.sim.process import Process
from acl_lab.sim.simerror import SimError



def _out_of_memory(call: str) -> SimulatorLimit:
    """Python could not allocate host memory during ``call`` (the budget leaves the rest of
    the machine to others, and they took it): say so instead of a bare MemoryError."""
    return SimulatorLimit(_("{call}: the host ran out of memory while simulating this call; "
                            "queued work stays queued and nothing was lost. Free memory (in "
                            "this notebook or elsewhere), use smaller buffers, or "
                            "acl_lab.reset().").format(call=call))


def _api(*fail):
    """Run the method under the process lock; SimError -> (``*fail``, code) or code. A call
    is critical (interrupts.py): Ctrl-C reaches the program once it returned."""
    def deco(fn):
        if not fail:
            @interrupts.critical
            def wrapper(self, *args):
                rt = self._sim.rt
                with rt.lock:
                    try:
                        fn(self, rt, *args)
                    except SimError as e:
                        rt.last_error, rt.last_code = e.message, e.code
                        return e.code
                    except MemoryError:
                        raise _out_of_memory(fn.__name__) from None
                return C.ACL_SUCCESS
        else:
            @interrupts.critical
            def wrapper(self, *args):
                rt = self._sim.rt
                with rt.lock:
                    try:
                        result = fn(self, rt, *args)
                    except SimError as e:
                        rt.last_error, rt.last_code = e.message, e.code
                        return (*fail, e.code)
                    except MemoryError:
                        raise _out_of_memory(fn.__name__) from None
                return (*result, C.ACL_SUCCESS) if len(fail) > 1 else (result, C.ACL_SUCCESS)
        return _fails(*fail)(functools.wraps(fn)(wrapper))
    return deco


def _failure(fail: tuple, code: int):
    """A failed call's result: ``code``, after the values it would have produced."""
    return (*fail, code) if fail else code


def _fails(*fail):
    """Mark a facade function with its failure shape: ``fn.failed(code, message)`` is what
    the call returns when it fails with ``code`` (acl_lab.inject imitates failures with it)."""
    def mark(fn):
        fn.failed = lambda code, message: _failure(fail, code)
        return fn
    return mark


def _fails_as(value):
    """Mark a call that returns a bare value (C returns it directly): ``value`` on failure."""
    def mark(fn):
        fn.failed = lambda code, message: value
        return fn
    return mark


def _fails_raising(fn):
    """Mark a util read: where it cannot read, it raises AclLabError (real pyACL crashes)."""
    def failed(code, message):
        raise AclLabError(code, message)
    fn.failed = failed
    return fn


class _Namespace:
    def __init__(self, sim: "Simulator"):
        self._sim = sim


def _value(default):
    """pyACL calls that return a bare value (C returns it directly): ``default`` on failure,
    with the explanation kept for acl.get_recent_err_msg()."""
    def deco(fn):
        @functools.wraps(fn)
        @interrupts.critical
        def wrapper(self, *args):
            rt = self._sim.rt
            with rt.lock:
                try:
                    return fn(self, rt, *args)
                except SimError as e:
                    rt.last_error, rt.last_code = e.message, e.code
                    return default
        return _fails_as(default)(wrapper)
    return deco


class _OfflineModels:
    """acl.mdl, offline models (aclmdl*): load, describe, datasets, execute, unload. Names and
    return shapes as pyACL: ``model_id, ret = load_from_file(path)``, ``size =
    get_input_size_by_index(desc, i)``, ``dims, ret = get_input_dims(desc, i)`` with dims a
    dict {"name", "dimCount", "dims"}."""

    @_api(0)
    def load_from_file(self, rt, model_path):
        c = "aclmdlLoadFromFile"
        return rt.models.load(rt.models.read_file(model_path, c), c)

    @_api(0)
    def load_from_mem(self, rt, model, model_size):
        c = "aclmdlLoadFromMem"
        return rt.models.load(rt.models.read_mem(_ptr(c, "model", model),
                                                 _size(c, "modelSize", model_size), c), c)

    @_api(0)
    def load_from_file_with_mem(self, rt, model_path, work_ptr, work_size, weight_ptr,
                                weight_size):
        c = "aclmdlLoadFromFileWithMem"
        return rt.models.load(rt.models.read_file(model_path, c), c,
                              (_ptr(c, "workPtr", work_ptr), _size(c, "workSize", work_size)),
                              (_ptr(c, "weightPtr", weight_ptr),
                               _size(c, "weightSize", weight_size)))

    @_api(0)
    def load_from_mem_with_mem(self, rt, model, model_size, work_ptr, work_size, weight_ptr,
                               weight_size):
        c = "aclmdlLoadFromMemWithMem"
        m = rt.models.read_mem(_ptr(c, "model", model), _size(c, "modelSize", model_size), c)
        return rt.models.load(m, c, (_ptr(c, "workPtr", work_ptr),
                                     _size(c, "workSize", work_size)),
                              (_ptr(c, "weightPtr", weight_ptr),
                               _size(c, "weightSize", weight_size)))

    @_api(0, 0)
    def query_size(self, rt, file_name):
        m = rt.models.read_file(file_name, "aclmdlQuerySize", graph=False)
        return m.work_size, m.weight_size

    @_api(0, 0)
    def query_size_from_mem(self, rt, model, model_size):
        c = "aclmdlQuerySizeFromMem"
        m = rt.models.read_mem(_ptr(c, "model", model), _size(c, "modelSize", model_size), c,
                               graph=False)
        return m.work_size, m.weight_size

    @_api()
    def unload(self, rt, model_id):
        rt.models.unload(_int("aclmdlUnload", "modelId", model_id))

    @_value(0)
    def create_desc(self, rt):
        return rt.models.create_desc()

    @_api()
    def get_desc(self, rt, model_desc, model_id):
        c = "aclmdlGetDesc"
        rt.models.get_desc(_ptr(c, "modelDesc", model_desc), _int(c, "modelId", model_id))

    @_api()
    def destroy_desc(self, rt, model_desc):
        rt.models.destroy_desc(_ptr("aclmdlDestroyDesc", "modelDesc", model_desc))

    @_value(0)
    def get_num_inputs(self, rt, model_desc):
        c = "aclmdlGetNumInputs"
        return len(rt.models.desc(_ptr(c, "modelDesc", model_desc), c).model.inputs)

    @_value(0)
    def get_num_outputs(self, rt, model_desc):
        c = "aclmdlGetNumOutputs"
        return len(rt.models.desc(_ptr(c, "modelDesc", model_desc), c).model.outputs)

    @staticmethod
    def _tensor(rt, c, model_desc, index, outputs):
        return rt.models.tensor(_ptr(c, "modelDesc", model_desc), _size(c, "index", index),
                                outputs, c)

    @_value(0)
    def get_input_size_by_index(self, rt, model_desc, index):
        return self._tensor(rt, "aclmdlGetInputSizeByIndex", model_desc, index, False).size

    @_value(0)
    def get_output_size_by_index(self, rt, model_desc, index):
        return self._tensor(rt, "aclmdlGetOutputSizeByIndex", model_desc, index, True).size

    @staticmethod
    def _dims(t):
        return {"name": t.name, "dimCount": len(t.dims), "dims": list(t.dims)}

    @_api({})
    def get_input_dims(self, rt, model_desc, index):
        """A dynamic model's input reports -1 where its gear decides (the V2 form gives the
        largest gear's dims)."""
        c = "aclmdlGetInputDims"
        handle = _ptr(c, "modelDesc", model_desc)
        t = self._tensor(rt, c, handle, index, False)
        gears = rt.models.descs[handle].model.dynamic
        dims = gears.reported(t.name, t.dims) if gears else t.dims
        return {"name": t.name, "dimCount": len(dims), "dims": list(dims)}

    @_api({})
    def get_input_dims_v2(self, rt, model_desc, index):
        return self._dims(self._tensor(rt, "aclmdlGetInputDimsV2", model_desc, index, False))

    @_api({})
    def get_dynamic_batch(self, rt, model_desc):
        c = "aclmdlGetDynamicBatch"
        gears = rt.models.desc(_ptr(c, "modelDesc", model_desc), c).model.dynamic
        batch = [g[0] for g in gears.gears] if gears and gears.kind == "batch" else []
        return {"batchCount": len(batch), "batch": batch}

    @_api({})
    def get_dynamic_hw(self, rt, model_desc, index):
        """``index`` is reserved (the C code ignores it; samples pass -1)."""
        c = "aclmdlGetDynamicHW"
        _int(c, "index", index)
        gears = rt.models.desc(_ptr(c, "modelDesc", model_desc), c).model.dynamic
        hw = [list(g) for g in gears.gears] if gears and gears.kind == "hw" else []
        return {"hwCount": len(hw), "hw": hw}

    @_api()
    def set_dynamic_batch_size(self, rt, model_id, dataset, index, batch_size):
        c = "aclmdlSetDynamicBatchSize"
        rt.models.set_gear(c, _int(c, "modelId", model_id), _ptr(c, "dataset", dataset),
                           _size(c, "index", index), (_u64(c, "batchSize", batch_size),))

    @_api()
    def set_dynamic_hw_size(self, rt, model_id, dataset, index, height, width):
        c = "aclmdlSetDynamicHWSize"
        rt.models.set_gear(c, _int(c, "modelId", model_id), _ptr(c, "dataset", dataset),
                           _size(c, "index", index),
                           (_u64(c, "height", height), _u64(c, "width", width)))

    @_api({})
    def get_output_dims(self, rt, model_desc, index):
        return self._dims(self._tensor(rt, "aclmdlGetOutputDims", model_desc, index, True))

    @_api({})
    def get_cur_output_dims(self, rt, model_desc, index):
        """The output's dims at the gear last set on the model (a static model: its dims)."""
        c = "aclmdlGetCurOutputDims"
        handle, index = _ptr(c, "modelDesc", model_desc), _size(c, "index", index)
        dims = rt.models.cur_output_dims(handle, index, c)
        name = rt.models.tensor(handle, index, True, c).name
        return {"name": name, "dimCount": len(dims), "dims": list(dims)}

    @_value(C.ACL_DT_UNDEFINED)
    def get_input_data_type(self, rt, model_desc, index):
        return self._tensor(rt, "aclmdlGetInputDataType", model_desc, index, False).dtype

    @_value(C.ACL_DT_UNDEFINED)
    def get_output_data_type(self, rt, model_desc, index):
        return self._tensor(rt, "aclmdlGetOutputDataType", model_desc, index, True).dtype

    @_value(C.ACL_FORMAT_UNDEFINED)
    def get_input_format(self, rt, model_desc, index):
        return self._tensor(rt, "aclmdlGetInputFormat", model_desc, index, False).fmt

    @_value(C.ACL_FORMAT_UNDEFINED)
    def get_output_format(self, rt, model_desc, index):
        return self._tensor(rt, "aclmdlGetOutputFormat", model_desc, index, True).fmt

    @_value("")
    def get_input_name_by_index(self, rt, model_desc, index):
        return self._tensor(rt, "aclmdlGetInputNameByIndex", model_desc, index, False).name

    @_value("")
    def get_output_name_by_index(self, rt, model_desc, index):
        return self._tensor(rt, "aclmdlGetOutputNameByIndex", model_desc, index, True).name

    def _index_by_name(self, rt, c, model_desc, name, outputs):
        if not isinstance(name, str):
            raise TypeError(f"{c}: name must be a str, not {type(name).__name__}")
        m = rt.models.desc(_ptr(c, "modelDesc", model_desc), c).model
        names = [t.name for t in (m.outputs if outputs else m.inputs)]
        if name not in names:
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: the model has no {kind} named {name}; its names are "
                             "{names}.").format(call=c, kind=io_name(outputs), name=repr(name),
                                                names=names))
        return names.index(name)

    @_api(0)
    def get_input_index_by_name(self, rt, model_desc, name):
        return self._index_by_name(rt, "aclmdlGetInputIndexByName", model_desc, name, False)

    @_api(0)
    def get_output_index_by_name(self, rt, model_desc, name):
        return self._index_by_name(rt, "aclmdlGetOutputIndexByName", model_desc, name, True)

    @_value(0)
    def create_dataset(self, rt):
        return rt.models.create_dataset()

    @_api(0)
    def add_dataset_buffer(self, rt, dataset, data_buffer):
        c = "aclmdlAddDatasetBuffer"
        return rt.models.add_buffer(_ptr(c, "dataset", dataset),
                                    _ptr(c, "dataBuffer", data_buffer))

    @_value(0)
    def get_dataset_num_buffers(self, rt, dataset):
        c = "aclmdlGetDatasetNumBuffers"
        return len(rt.models.dataset(_ptr(c, "dataset", dataset), c).buffers)

    @_value(0)
    def get_dataset_buffer(self, rt, dataset, index):
        c = "aclmdlGetDatasetBuffer"
        buffers = rt.models.dataset(_ptr(c, "dataset", dataset), c).buffers
        index = _size(c, "index", index)
        if index >= len(buffers):
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: index {index} is out of range; the dataset holds {count} "
                             "buffer(s). Got NULL (0).").format(call=c, index=index,
                                                               count=len(buffers)))
        return buffers[index]

    @_api()
    def destroy_dataset(self, rt, dataset):
        rt.models.destroy_dataset(_ptr("aclmdlDestroyDataset", "dataset", dataset))

    @_api()
    def execute(self, rt, model_id, input_, output):
        c = "aclmdlExecute"
        rt.models.execute(_int(c, "modelId", model_id), _ptr(c, "input", input_),
                          _ptr(c, "output", output), None)

    @_api()
    def execute_async(self, rt, model_id, input_, output, stream):
        c = "aclmdlExecuteAsync"
        rt.models.execute(_int(c, "modelId", model_id), _ptr(c, "input", input_),
                          _ptr(c, "output", output), rt.stream(_ptr(c, "stream", stream), c))


class _DataBuffers:
    """acl.* data buffers and helpers (aclCreateDataBuffer ..., aclDataTypeSize, fp16
    conversions, aclrtGetVersion), as hicann/runtime's data_buffer.cpp and fp16.cpp."""

    @_value(0)
    def create_data_buffer(self, rt, data, size):
        c = "aclCreateDataBuffer"
        return rt.models.create_buffer(_ptr(c, "data", data), _size(c, "size", size))

    @_api()
    def destroy_data_buffer(self, rt, data_buffer):
        rt.models.destroy_buffer(_ptr("aclDestroyDataBuffer", "dataBuffer", data_buffer))

    @_api()
    def update_data_buffer(self, rt, data_buffer, data, size):
        c = "aclUpdateDataBuffer"
        rt.models.update_buffer(_ptr(c, "dataBuffer", data_buffer), _ptr(c, "data", data),
                                _size(c, "size", size))

    @_value(0)
    def get_data_buffer_addr(self, rt, data_buffer):
        c = "aclGetDataBufferAddr"
        return rt.models.buffer(_ptr(c, "dataBuffer", data_buffer), c).addr

    @_value(0)
    def get_data_buffer_size_v2(self, rt, data_buffer):
        c = "aclGetDataBufferSizeV2"
        return rt.models.buffer(_ptr(c, "dataBuffer", data_buffer), c).size

    @_value(0)
    def get_data_buffer_size(self, rt, data_buffer):
        """The deprecated 32-bit form: the size truncated to uint32, as the C code casts."""
        c = "aclGetDataBufferSize"
        return rt.models.buffer(_ptr(c, "dataBuffer", data_buffer), c).size & 0xFFFF_FFFF

    @_value(0)
    def data_type_size(self, rt, data_type):
        return data_type_size(_int("aclDataTypeSize", "dataType", data_type))

    @staticmethod
    def float16_to_float(value):
        v = operator.index(value) & 0xFFFF
        return float(np.array([v], np.uint16).view(np.float16)[0])

    @staticmethod
    def float_to_float16(value):
        """An int beyond every float rounds to infinity, as a C cast of it would."""
        try:
            value = float(value)
        except OverflowError:
            value = math.inf if value > 0 else -math.inf
        with np.errstate(over="ignore"):
            return int(np.array([value], np.float16).view(np.uint16)[0])

    @staticmethod
    def get_version():
        """(major, minor, patch, ret) of the ACL the simulator models (CANN 8.x, acl 1.17)."""
        return ACL_VERSION + (C.ACL_SUCCESS,)


ACL_VERSION = (1, 17, 0)
_ONE = (C.ACL_BOOL, C.ACL_INT8, C.ACL_UINT8, C.ACL_HIFLOAT8, C.ACL_FLOAT8_E5M2,
        C.ACL_FLOAT8_E4M3FN, C.ACL_FLOAT8_E8M0, C.ACL_UINT1, C.ACL_INT4)
_TWO = (C.ACL_FLOAT16, C.ACL_INT16, C.ACL_UINT16, C.ACL_BF16)
_FOUR = (C.ACL_FLOAT, C.ACL_INT32, C.ACL_UINT32, C.ACL_COMPLEX32)


def data_type_size(dt: int) -> int:
    """aclDataTypeSize: bytes per element; 0 for STRING / UNDEFINED, 8 for anything else
    not listed (the C switch's default)."""
    if dt in (C.ACL_STRING, C.ACL_DT_UNDEFINED):
        return 0
    if dt == C.ACL_COMPLEX128:
        return 16
    return 1 if dt in _ONE else 2 if dt in _TWO else 4 if dt in _FOUR else 8


class _Callbacks:
    """acl.rt host callbacks: subscribe a thread to a stream, launch a callback in stream
    order, let the thread run it in process_report, unsubscribe (sim/callbacks.py)."""

    @_api()
    def subscribe_report(self, rt, thread_id, stream):
        c = "aclrtSubscribeReport"
        rt.callbacks.subscribe(_size(c, "threadId", thread_id), _ptr(c, "stream", stream))

    @_api()
    def unsubscribe_report(self, rt, thread_id, stream):
        c = "aclrtUnSubscribeReport"
        rt.callbacks.unsubscribe(_size(c, "threadId", thread_id), _ptr(c, "stream", stream))

    @_api()
    def launch_callback(self, rt, fn, user_data, block_type, stream):
        c = "aclrtLaunchCallback"
        if not callable(fn):
            raise TypeError(f"{c}: fn must be a Python function, not {type(fn).__name__}")
        rt.callbacks.launch(fn, user_data, _int(c, "blockType", block_type),
                            _ptr(c, "stream", stream))

    @_fails()
    @interrupts.critical
    def process_report(self, timeout):
        """Run the next callback for this thread; the function runs without the simulator's
        lock, so it may call any acl function (as callbacks do: copy results, post-process)."""
        rt = self._sim.rt
        with rt.lock:
            try:
                report = rt.callbacks.next_report(_int("aclrtProcessReport", "timeout", timeout))
            except SimError as e:
                served = getattr(threading.current_thread(), "acl_lab_process", rt)
                if served is not self._sim.rt:  # a start_thread worker whose process ended
                    raise SystemExit from None  # (acl_lab.reset) ends quietly with it
                rt.last_error = e.message
                code = e.code
            else:
                code = None
        if code is not None:
            if code == C.ACL_ERROR_RT_THREAD_SUBSCRIBE:
                time.sleep(0.001)   # a loop on an unsubscribed thread leaves the others a turn
            return code
        try:
            report.run()
        finally:
            with rt.lock:
                rt.callbacks.finished(report)
        return C.ACL_SUCCESS


class _Threads:
    """acl.util.start_thread / stop_thread: pyACL's helper threads for callback processing."""

    @_fails(0)
    def start_thread(self, fn, args_list):
        """(thread_id, ret): run ``fn(args_list)`` on a new thread; the id is the one
        subscribe_report and process_report know it by."""
        if not callable(fn):
            raise TypeError(f"start_thread: fn must be a Python function, not {type(fn).__name__}")
        if wasm.pyodide():
            raise SimulatorLimit(wasm.no_threads(_("acl.util.start_thread needs a real thread "
                                                   "to wait for callbacks")))
        t = threading.Thread(target=fn, args=(args_list,), daemon=True,
                             name=f"acl_lab callback thread {len(self._started()) + 1}")
        t.acl_lab_process = self._sim.rt    # the process it serves; it ends with it
        t.start()
        self._started()[t.ident] = t
        return t.ident, C.ACL_SUCCESS

    @_fails()
    def stop_thread(self, thread_id):
        """ret: wait for the thread to finish (its function must return: set your exit flag
        first). A thread still running after a minute is left alone and reported."""
        t = self._started().get(thread_id)
        rt = self._sim.rt
        if t is None:
            with rt.lock:
                rt.last_error = _("{call}: {thread} is not a thread acl.util.start_thread "
                                  "started (or it was stopped already).").format(
                                      call="stop_thread", thread=thread_id)
            return C.ACL_ERROR_INVALID_PARAM
        t.join(timeout=60)
        if t.is_alive():
            with rt.lock:
                rt.last_error = _("{call}: thread {thread} is still running after 60 s: its "
                                  "function never returned. Set the flag its loop checks before "
                                  "stopping it.").format(call="stop_thread", thread=thread_id)
            return C.ACL_ERROR_FAILURE
        del self._started()[thread_id]
        return C.ACL_SUCCESS

    def _started(self) -> dict:
        return self.__dict__.setdefault("_threads", {})

class Rt(_Namespace, _Callbacks):
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

    @_api(0)
    def malloc(self, rt, size, policy):
        c = "aclrtMalloc"
        return rt.malloc(_size(c, "size", size), _int(c, "policy", policy), "malloc")

    @_api(0)
    def malloc_align32(self, rt, size, policy):
        c = "aclrtMallocAlign32"
        return rt.malloc(_size(c, "size", size), _int(c, "policy", policy), "malloc_align32")

    @_api(0)
    def malloc_cached(self, rt, size, policy):
        c = "aclrtMallocCached"
        return rt.malloc(_size(c, "size", size), _int(c, "policy", policy), "malloc_cached")

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

    # ----- beyond the chapters' basics: forced release, events with flags, timeouts, stream
    # polls and settings, last error, peer access (hicann/runtime example/ programs use them)
    @_api()
    def reset_device_force(self, rt, device_id):
        rt.reset_device_force(_int("aclrtResetDeviceForce", "deviceId", device_id))

    @_api()
    def destroy_stream_force(self, rt, stream):
        rt.destroy_stream(_ptr("aclrtDestroyStreamForce", "stream", stream), force=True)

    @_api(0)
    def create_event_with_flag(self, rt, flag):
        return waits.create_event(rt, _u32("aclrtCreateEventWithFlag", "flag", flag), ex=False)

    @_api(0)
    def create_event_ex_with_flag(self, rt, flag):
        return waits.create_event(rt, _u32("aclrtCreateEventExWithFlag", "flag", flag), ex=True)

    @_api()
    def reset_event(self, rt, event, stream):
        c = "aclrtResetEvent"
        waits.reset_event(rt, _ptr(c, "event", event), _ptr(c, "stream", stream))

    @_api(0)
    def event_get_timestamp(self, rt, event):
        return waits.event_timestamp_us(rt, _ptr("aclrtEventGetTimestamp", "event", event))

    @_api()
    def synchronize_event_with_timeout(self, rt, event, timeout):
        c = "aclrtSynchronizeEventWithTimeout"
        waits.synchronize_event(rt, _ptr(c, "event", event), _i32(c, "timeout", timeout))

    @_api()
    def synchronize_stream_with_timeout(self, rt, stream, timeout):
        c = "aclrtSynchronizeStreamWithTimeout"
        waits.synchronize_stream(rt, _ptr(c, "stream", stream), _i32(c, "timeout", timeout))

    @_api(C.ACL_STREAM_STATUS_RESERVED)
    def stream_query(self, rt, stream):
        return waits.stream_query(rt, _ptr("aclrtStreamQuery", "stream", stream))

    @_api()
    def set_stream_failure_mode(self, rt, stream, mode):
        c = "aclrtSetStreamFailureMode"
        waits.set_failure_mode(rt, _ptr(c, "stream", stream), _u64(c, "mode", mode))

    @_api(0)
    def create_stream_with_config(self, rt, priority, flag):
        c = "aclrtCreateStreamWithConfig"
        return waits.create_stream(rt, _u32(c, "priority", priority), _u32(c, "flag", flag))

    def peek_at_last_error(self, level):
        """This thread's last failure code, kept (aclrtPeekAtLastError); returns ret only."""
        return self._last_error(level, "aclrtPeekAtLastError", clear=False)

    def get_last_error(self, level):
        """This thread's last failure code, then cleared (aclrtGetLastError)."""
        return self._last_error(level, "aclrtGetLastError", clear=True)

    def _last_error(self, level, call: str, clear: bool) -> int:
        rt = self._sim.rt
        with rt.lock:
            try:
                level = _int(call, "level", level)
            except SimError as e:
                return e.code
            if level != C.ACL_RT_THREAD_LEVEL:   # ACL_REQUIRES_PARAM_EQUAL (context.cpp)
                return C.ACL_ERROR_INVALID_PARAM
            code = rt.last_code
            if clear:
                rt.last_code = C.ACL_SUCCESS
            return code

    @_api(0)
    def device_can_access_peer(self, rt, device_id, peer_device_id):
        c = "aclrtDeviceCanAccessPeer"
        return rt.peer.can_access(_i32(c, "deviceId", device_id),
                                  _i32(c, "peerDeviceId", peer_device_id))

    @_api()
    def device_enable_peer_access(self, rt, peer_device_id, flags):
        c = "aclrtDeviceEnablePeerAccess"
        rt.peer.enable(_i32(c, "peerDeviceId", peer_device_id), _u32(c, "flags", flags))

    @_api()
    def device_disable_peer_access(self, rt, peer_device_id):
        rt.peer.disable(_i32("aclrtDeviceDisablePeerAccess", "peerDeviceId", peer_device_id))


#: C creators (aclCreateTensor, aclCreateScalar) return a handle, NULL (0) on failure.
_creator = _value(0)


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
                       _("{call}: stream is NULL — the default stream cannot capture. Create a "
                         "stream with acl.rt.create_stream() and capture on it.").format(
                           call=call))
    return rt.stream(stream, call)


class Mdl(_Namespace, _OfflineModels):
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

    # ----- task groups and model update (aclmdlRICaptureTaskGrp*, aclmdlRICaptureTaskUpdate*)
    @_api()
    def ri_capture_task_grp_begin(self, rt, stream):
        c = "aclmdlRICaptureTaskGrpBegin"
        rt.capture.group_begin(_explicit_stream(rt, _ptr(c, "stream", stream), c))

    @_api(0)
    def ri_capture_task_grp_end(self, rt, stream):
        c = "aclmdlRICaptureTaskGrpEnd"
        return rt.capture.group_end(_explicit_stream(rt, _ptr(c, "stream", stream), c))

    @_api()
    def ri_capture_task_update_begin(self, rt, stream, handle):
        c = "aclmdlRICaptureTaskUpdateBegin"
        s = _explicit_stream(rt, _ptr(c, "stream", stream), c)
        handle = _ptr(c, "handle", handle)
        if handle == 0:
            raise SimError(C.ACL_ERROR_INVALID_PARAM,
                           _("{call}: handle is NULL (0).").format(call=c))
        rt.capture.update_begin(s, handle)

    @_api()
    def ri_capture_task_update_end(self, rt, stream):
        c = "aclmdlRICaptureTaskUpdateEnd"
        rt.capture.update_end(_explicit_stream(rt, _ptr(c, "stream", stream), c))


def _explicit_stream(rt, stream, call: str):
    """A stream the task-group calls name; NULL is refused (ACL_REQUIRES_NOT_NULL)."""
    if stream == 0:
        raise SimError(C.ACL_ERROR_INVALID_PARAM,
                       _("{call}: stream is NULL. Task groups live on explicit streams: pass a "
                         "stream from acl.rt.create_stream().").format(call=call))
    return rt.stream(stream, call)


class Nn(_Namespace):
    """acl.nn: aclnn operators (two-phase: get workspace size + executor, then launch)"""

    @_creator
    def create_tensor(self, rt, shape, data_type, strides, offset, fmt, storage_shape, dev_ptr):
        c = "aclCreateTensor"
        return rt.aclnn.create_tensor(_ints(c, "viewDims", shape), _int(c, "dataType", data_type),
                                    _ints(c, "stride", strides), _int(c, "offset", offset),
                                    _int(c, "format", fmt), _ints(c, "storageDims", storage_shape),
                                    _ptr(c, "tensorData", dev_ptr))

    @_creator
    def create_scalar(self, rt, value, data_type):
        if not isinstance(value, (int, float, np.number, bool)):
            raise TypeError(f"aclCreateScalar: value must be a number, not {type(value).__name__}")
        return rt.aclnn.create_scalar(value, _int("aclCreateScalar", "dataType", data_type))

    @_api()
    def destroy_tensor(self, rt, tensor):
        rt.aclnn.destroy(rt.aclnn.tensors, _ptr("aclDestroyTensor", "tensor", tensor),
                       "aclDestroyTensor")

    @_api()
    def destroy_scalar(self, rt, scalar):
        rt.aclnn.destroy(rt.aclnn.scalars, _ptr("aclDestroyScalar", "scalar", scalar),
                       "aclDestroyScalar")

    @_api(0, 0)
    def add_get_workspace_size(self, rt, self_, other, alpha, out):
        c = "aclnnAddGetWorkspaceSize"
        return rt.aclnn.prepare("Add", c, {"self": _ptr(c, "self", self_),
                                         "other": _ptr(c, "other", other),
                                         "out": _ptr(c, "out", out)},
                              {"alpha": _ptr(c, "alpha", alpha)}, "out")

    @_api(0, 0)
    def mul_get_workspace_size(self, rt, self_, other, out):
        c = "aclnnMulGetWorkspaceSize"
        return rt.aclnn.prepare("Mul", c, {"self": _ptr(c, "self", self_),
                                         "other": _ptr(c, "other", other),
                                         "out": _ptr(c, "out", out)}, {}, "out")

    @_api(0, 0)
    def inplace_copy_get_workspace_size(self, rt, self_ref, src):
        c = "aclnnInplaceCopyGetWorkspaceSize"
        return rt.aclnn.prepare("InplaceCopy", c, {"src": _ptr(c, "src", src),
                                                 "selfRef": _ptr(c, "selfRef", self_ref)},
                              {}, "selfRef")

    def _launch(self, rt, op, workspace, workspace_size, executor, stream):
        c = f"aclnn{op}"
        rt.aclnn.launch(op, _ptr(c, "workspace", workspace),
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


def _void(fn):
    """A call whose C function returns void: it cannot report a failure, so none can be
    injected; a refusal is still explained in acl.get_recent_err_msg()."""
    @functools.wraps(fn)
    @interrupts.critical
    def wrapper(self, *args):
        rt = self._sim.rt
        with rt.lock:
            try:
                fn(self, rt, *args)
            except SimError as e:
                rt.last_error, rt.last_code = e.message, e.code
    return wrapper


def _handles(call: str, name: str, values) -> tuple:
    """A Python list of handles (descs, data buffers), as pyACL turns it into a C array."""
    if not isinstance(values, (list, tuple)):
        raise TypeError(f"{call}: {name} must be a list, not {type(values).__name__}")
    return tuple(_ptr(call, name, v) for v in values)


def _name(call: str, value) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{call}: the name must be a str, not {type(value).__name__}")
    return value


class _TensorDescs:
    """aclTensorDesc (acl.create_tensor_desc, ...): what a single operator's tensor is.
    A call on a handle that is not a live description fails with its failure value and an
    explanation (real ACL reads freed memory there)."""

    @_value(0)
    def create_tensor_desc(self, rt, data_type, dims, format):
        c = "aclCreateTensorDesc"
        return rt.single_ops.create_desc(_int(c, "dataType", data_type), _ints(c, "dims", dims),
                                         _int(c, "format", format))

    @_void
    def destroy_tensor_desc(self, rt, desc):
        rt.single_ops.destroy_desc(_ptr("aclDestroyTensorDesc", "desc", desc))

    @_value(C.ACL_DT_UNDEFINED)
    def get_tensor_desc_type(self, rt, desc):
        c = "aclGetTensorDescType"
        return rt.single_ops.desc(_ptr(c, "desc", desc), c).dtype

    @_value(C.ACL_FORMAT_UNDEFINED)
    def get_tensor_desc_format(self, rt, desc):
        c = "aclGetTensorDescFormat"
        return rt.single_ops.desc(_ptr(c, "desc", desc), c).fmt

    @_value(0)
    def get_tensor_desc_size(self, rt, desc):
        c = "aclGetTensorDescSize"
        return rt.single_ops.size(_ptr(c, "desc", desc), c)

    @_value(0)
    def get_tensor_desc_element_count(self, rt, desc):
        c = "aclGetTensorDescElementCount"
        return rt.single_ops.desc(_ptr(c, "desc", desc), c).element_count()

    @_value(0)
    def get_tensor_desc_num_dims(self, rt, desc):
        c = "aclGetTensorDescNumDims"
        return len(rt.single_ops.desc(_ptr(c, "desc", desc), c).dims)

    @_api(-1)
    def get_tensor_desc_dim_v2(self, rt, desc, index):
        c = "aclGetTensorDescDimV2"
        return rt.single_ops.dim(_ptr(c, "desc", desc), _size(c, "index", index), c)

    @_void
    def set_tensor_desc_name(self, rt, desc, name):
        c = "aclSetTensorDescName"
        rt.single_ops.desc(_ptr(c, "desc", desc), c).name = _name(c, name)

    @_value("")
    def get_tensor_desc_name(self, rt, desc):
        c = "aclGetTensorDescName"
        return rt.single_ops.desc(_ptr(c, "desc", desc), c).name

    @_api()
    def set_tensor_const(self, rt, desc, data_buffer, length):
        c = "aclSetTensorConst"
        rt.single_ops.set_const(_ptr(c, "desc", desc), _ptr(c, "dataBuffer", data_buffer),
                                _size(c, "length", length), c)

    @_api()
    def set_tensor_shape(self, rt, desc, dims):
        c = "aclSetTensorShape"
        d = rt.single_ops.desc(_ptr(c, "desc", desc), c)
        d.dims = _ints(c, "dims", dims)

    @_api()
    def set_tensor_format(self, rt, desc, format):
        c = "aclSetTensorFormat"
        d = rt.single_ops.desc(_ptr(c, "desc", desc), c)
        d.fmt = _int(c, "format", format)


def _attr_setter(kind: str, c: str):
    """acl.op.set_attr_<kind>(attr, name, value): one attribute of an aclopAttr."""
    def convert(value):
        if kind.startswith("list_"):
            if not isinstance(value, (list, tuple)):
                raise TypeError(f"{c}: values must be a list, not {type(value).__name__}")
            return tuple(convert_one(kind[5:], v) for v in value)
        return convert_one(kind, value)

    def convert_one(k, v):
        if k == "string":
            return _name(c, v)
        if k == "float":
            if not isinstance(v, (int, float, np.number)) or isinstance(v, bool):
                raise TypeError(f"{c}: the value must be a number, not {type(v).__name__}")
            return float(np.float32(v))
        number = _int(c, "attrValue", v)
        return bool(number) if k == "bool" else number

    @_api()
    def setter(self, rt, attr, attr_name, attr_value):
        rt.single_ops.set_attr(_ptr(c, "attr", attr), _name(c, attr_name), kind,
                               convert(attr_value), c)
    setter.__name__ = f"set_attr_{kind}"
    return setter


class Op(_Namespace):
    """acl.op: single operators compiled by acl-lab atc --singleop (acl_lab/sim/single_op/)."""

    @_creator
    def create_attr(self, rt):
        return rt.single_ops.create_attr()

    @_void
    def destroy_attr(self, rt, attr):
        rt.single_ops.destroy_attr(_ptr("aclopDestroyAttr", "attr", attr))

    set_attr_bool = _attr_setter("bool", "aclopSetAttrBool")
    set_attr_int = _attr_setter("int", "aclopSetAttrInt")
    set_attr_float = _attr_setter("float", "aclopSetAttrFloat")
    set_attr_string = _attr_setter("string", "aclopSetAttrString")
    set_attr_list_bool = _attr_setter("list_bool", "aclopSetAttrListBool")
    set_attr_list_int = _attr_setter("list_int", "aclopSetAttrListInt")
    set_attr_list_float = _attr_setter("list_float", "aclopSetAttrListFloat")
    set_attr_list_string = _attr_setter("list_string", "aclopSetAttrListString")

    @_api()
    def set_model_dir(self, rt, model_dir):
        _check_path_type(model_dir, "aclopSetModelDir")
        rt.single_ops.set_model_dir(os.fspath(model_dir))

    @_api()
    def execute_v2(self, rt, op_type, input_desc, inputs, output_desc, outputs, attr, stream):
        c = "aclopExecuteV2"
        rt.single_ops.execute(_name(c, op_type), _handles(c, "inputDesc", input_desc),
                              _handles(c, "inputs", inputs), _handles(c, "outputDesc", output_desc),
                              _handles(c, "outputs", outputs), _ptr(c, "attr", attr),
                              _ptr(c, "stream", stream), c)

    @_api()
    def cast(self, rt, src_desc, src_buffer, dst_desc, dst_buffer, truncate, stream):
        c = "aclopCast"
        ops = rt.single_ops
        src, dst = _ptr(c, "srcDesc", src_desc), _ptr(c, "dstDesc", dst_desc)
        dst_type = ops.desc(dst, c).dtype
        ops.desc(src, c)
        attrs = {"truncate": ("bool", bool(_int(c, "truncate", truncate))),
                 "dst_type": ("int", dst_type)}        # as cast_op.cpp builds them
        model = ops.match("Cast", [ops.desc(src, c)], [ops.desc(dst, c)], attrs, c)
        ops.launch(model, [ops.desc(src, c)], (_ptr(c, "srcBuffer", src_buffer),),
                   [ops.desc(dst, c)], (_ptr(c, "dstBuffer", dst_buffer),),
                   _ptr(c, "stream", stream), c)

    @_api(0)
    def create_handle(self, rt, op_type, input_desc, output_desc, op_attr):
        c = "aclopCreateHandle"
        return rt.single_ops.create_handle(_name(c, op_type), _handles(c, "inputDesc", input_desc),
                                           _handles(c, "outputDesc", output_desc),
                                           _ptr(c, "opAttr", op_attr), c)

    @_api()
    def execute_with_handle(self, rt, handle, inputs, outputs, stream):
        c = "aclopExecWithHandle"
        h = rt.single_ops.handle(_ptr(c, "handle", handle), c)
        rt.single_ops.launch(h.model, h.in_descs, _handles(c, "inputs", inputs), h.out_descs,
                             _handles(c, "outputs", outputs), _ptr(c, "stream", stream), c)

    @_void
    def destroy_handle(self, rt, handle):
        rt.single_ops.destroy_handle(_ptr("aclopDestroyHandle", "handle", handle))


def _room(cls):
    """Wrap the calls of a room of the kit (acl_lab/sim/media/calls.py) as the facade wraps its
    own: each method's ``acl_shape`` says how it fails (``_api`` or ``_value``)."""
    for name, fn in list(vars(cls).items()):
        kind, fail = getattr(fn, "acl_shape", (None, None))
        if kind is not None:
            fn.__name__ = name          # a generated setter or getter is named by its call
            setattr(cls, name, _value(fail)(fn) if kind == "value" else _api(*fail)(fn))
    return cls


class Media(_Namespace, _room(media_calls.Dvpp), _room(video_calls.Video)):
    """acl.media: DVPP memory, JPEGD / JPEGE / VPC, VDEC / VENC (acl_lab/sim/media)"""

    @_api(0)
    def dvpp_malloc(self, rt, size):
        return rt.malloc(_size("acldvppMalloc", "size", size), C.ACL_MEM_MALLOC_HUGE_FIRST,
                         "dvpp_malloc")

    @_api()
    def dvpp_free(self, rt, dev_ptr):
        rt.free(_ptr("acldvppFree", "devPtr", dev_ptr), "dvpp_free")


class Util(_Namespace, _Threads):
    """acl.util: moving between Python objects and pointers"""

    @_fails_as(0)
    @interrupts.critical
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
                rt.last_error = _("{call}: the array is not C-contiguous (a transposed or "
                                  "strided view), so its elements are not one run of bytes; got "
                                  "NULL (0). Pass np.ascontiguousarray(array) instead.").format(
                                      call="numpy_to_ptr")
                return 0
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

    @_fails_as(0)
    @interrupts.critical
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
            a = rt.memory.map.resolve(_ptr(call, "ptr", ptr), nbytes, "ptr", call)
        except SimError as e:
            raise AclLabError(e.code, _("{message} On real hardware this call would read "
                                        "invalid memory and crash the Python process.").format(
                                            message=e.message)) from None
        if a.location == "device" and rt.profile.run_mode == C.ACL_HOST:
            raise AclLabError(C.ACL_ERROR_INVALID_PARAM,
                              _("{call}: {ptr} is device memory ({block}). The host CPU cannot "
                                "read it: real pyACL would crash the process (segmentation "
                                "fault). Copy it to host memory first with acl.rt.memcpy(..., "
                                "ACL_MEMCPY_DEVICE_TO_HOST).").format(
                                    call=call, ptr=f"0x{ptr:x}", block=a.describe()))
        return a

    @_fails_raising
    @interrupts.critical
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
            return a.window(ptr - a.ptr, nbytes, call=call).view(dtype).reshape(shape)

    @_fails_raising
    @interrupts.critical
    def ptr_to_bytes(self, ptr, size):
        call = "ptr_to_bytes"
        try:
            size = _size(call, "size", size)
        except SimError as e:
            raise ValueError(e.message) from None
        rt = self._sim.rt
        with rt.lock:
            a = self._host_memory(rt, ptr, size, call)
            rt.memory.ram.need(2 * size, call, _("the bytes object it returns"))
            out = np.empty(size, np.uint8)
            a.read_into(ptr - a.ptr, size, out)
            return out.tobytes()


class SimAcl(_Namespace, _DataBuffers, _TensorDescs):
    """What ``acl_lab.load()`` hands out for the simulator: shaped like pyACL's ``acl``."""

    def __init__(self, sim: "Simulator"):
        super().__init__(sim)
        self.rt, self.media, self.util = Rt(sim), Media(sim), Util(sim)
        self.mdl, self.nn, self.op = Mdl(sim), Nn(sim), Op(sim)

    @_api()
    def init(self, rt, config_path=""):
        if config_path:
            _check_path_type(config_path, "aclInit")
        rt.init(lambda: _read_config(config_path, "aclInit") if config_path else {})

    @_api()
    def finalize(self, rt):
        rt.finalize()

    def get_soc_name(self):
        return self._sim.rt.profile.soc_name

    def app_log(self, log_level, message):
        """aclAppLog: the program's own log line, with the Python caller as func:file:line
        (acl_lab/sim/applog.py says where it goes)."""
        level = as_int("aclAppLog", "logLevel", log_level)
        if not isinstance(message, str):
            raise TypeError(f"app_log: message must be a str, not {type(message).__name__}")
        frame = sys._getframe(1)
        while frame.f_back is not None and frame.f_globals.get("__name__", "").startswith(
                "acl_lab."):
            frame = frame.f_back
        rt = self._sim.rt
        with rt.lock:
            rt.plog.write(level, threading.current_thread().name, frame.f_code.co_name,
                          os.path.basename(frame.f_code.co_filename), frame.f_lineno, message)

    def get_recent_err_msg(self):
        """The explanation of this thread's most recent failure. As aclGetRecentErrMsg, reading
        consumes it: a second call returns an empty string until the next failure."""
        rt = self._sim.rt
        text, rt.last_error = rt.last_error, ""
        return text


def _check_path_type(path, call: str) -> None:
    """pyACL parses a path argument as a str: anything else is a TypeError."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{call}: the config path must be a str, not {type(path).__name__}")


def _read_config(path, call: str):
    """The JSON of a config file ({} for an empty one); the call's failure if it cannot."""
    _check_path_type(path, call)
    if not os.path.isfile(path):
        raise SimError(C.ACL_ERROR_INVALID_FILE,
                       _("{call}: config file {path} does not exist. Pass an existing JSON "
                         "file.").format(call=call, path=repr(os.fspath(path))))
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        return json.loads(text) if text.strip() else {}
    except (OSError, ValueError, RecursionError) as e:
        raise SimError(C.ACL_ERROR_PARSE_FILE,
                       _("{call}: config file {path} is not valid JSON ({reason}).").format(
                           call=call, path=repr(os.fspath(path)), reason=e)) from None


class Simulator:
    """The simulated process. ``reset`` starts a fresh one in place, so every ``acl`` handed
    out keeps working (a notebook re-run starts from a clean process)."""

    def __init__(self, profile: Profile | None = None):
        self.rt = Process(profile or get_profile())
        self.acl = SimAcl(self)

    @interrupts.critical
    def reset(self, profile: Profile | None = None) -> None:
        old = self.rt
        with old.lock:    # its bytes go now, not when the cycle collector finds the old process
            old.memory.release_storage()
            old.callbacks.end()     # the old process's callback threads end with it
        self.rt = Process(profile or old.profile)


FACADE = {"": SimAcl, "rt": Rt, "mdl": Mdl, "nn": Nn, "op": Op, "media": Media, "util": Util}
prototypes.document(FACADE)   # pyACL signatures and C prototypes for help() and Shift-Tab


def failure(name: str):
    """How the pyACL call ``name`` ("rt.malloc") fails: ``failed(code, message)`` giving its
    result, or None for a call without a failure result. The facade's shapes are pyACL's,
    so acl_lab.inject imitates a failure with them on every backend."""
    namespace, _, fn = name.rpartition(".")
    return getattr(getattr(FACADE.get(namespace), fn, None), "failed", None)
