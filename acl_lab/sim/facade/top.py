"""``acl.*``: the process (aclInit / aclFinalize), the recent error message, the version, data
buffers and the helpers beside them (hicann/runtime data_buffer.cpp, fp16.cpp), and tensor
descriptions (aclTensorDesc, for single operators)."""
import math
import operator
import os
import sys
import threading

import numpy as np

from acl_lab import constants as C
from acl_lab.errors import as_int
from acl_lab.i18n import _
from acl_lab.sim.facade._call import Namespace, acl_call
from acl_lab.sim.simerror import SimError
from acl_lab.spec import args, dtypes
from acl_lab.support import files

ACL_VERSION = (1, 17, 0)      # the ACL the simulator models (CANN 8.x)
CONFIG_LIMIT = 1 << 20        # bytes of an aclInit / aclmdlSetDump config read at most


class SimAcl(Namespace):
    """What ``acl_lab.load()`` hands out for the simulator: shaped like pyACL's ``acl``."""

    def __init__(self, sim, namespaces: dict):
        super().__init__(sim)
        for name, cls in namespaces.items():
            setattr(self, name, cls(sim))

    # ----- the process ------------------------------------------------------------------
    @acl_call("init")
    def init(self, rt, config_path=""):
        path = config_path and args.path_arg("aclInit", "the config path", config_path)
        rt.init(lambda: read_config(path, "aclInit") if path else {})

    @acl_call("finalize")
    def finalize(self, rt):
        rt.finalize()

    def get_soc_name(self):
        return self._sim.rt.profile.soc_name

    @staticmethod
    def get_version():
        """(major, minor, patch, ret) of the ACL the simulator models (CANN 8.x, acl 1.17)."""
        return ACL_VERSION + (C.ACL_SUCCESS,)

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

    # ----- data buffers and helpers -----------------------------------------------------
    @acl_call("create_data_buffer")
    def create_data_buffer(self, rt, data: args.ptr, size: args.size):
        return rt.models.create_buffer(data, size)

    @acl_call("destroy_data_buffer")
    def destroy_data_buffer(self, rt, data_buffer: args.ptr):
        rt.models.destroy_buffer(data_buffer)

    @acl_call("update_data_buffer")
    def update_data_buffer(self, rt, data_buffer: args.ptr, data: args.ptr, size: args.size):
        rt.models.update_buffer(data_buffer, data, size)

    @acl_call("get_data_buffer_addr")
    def get_data_buffer_addr(self, rt, data_buffer: args.ptr):
        return rt.models.buffer(data_buffer, "aclGetDataBufferAddr").addr

    @acl_call("get_data_buffer_size_v2")
    def get_data_buffer_size_v2(self, rt, data_buffer: args.ptr):
        return rt.models.buffer(data_buffer, "aclGetDataBufferSizeV2").size

    @acl_call("get_data_buffer_size")
    def get_data_buffer_size(self, rt, data_buffer: args.ptr):
        return rt.models.buffer(data_buffer, "aclGetDataBufferSize").size & 0xFFFF_FFFF

    @acl_call("data_type_size")
    def data_type_size(self, rt, data_type: args.i64):
        return dtypes.size(data_type)

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

    # ----- tensor descriptions (aclTensorDesc; a call on a handle that is not a live
    # description fails with its failure value and an explanation: real ACL reads freed
    # memory there) ----------------------------------------------------------------------
    @acl_call("create_tensor_desc")
    def create_tensor_desc(self, rt, data_type: args.i64, dims: args.ints, format: args.i64):
        return rt.single_ops.create_desc(data_type, dims, format)

    @acl_call("destroy_tensor_desc")
    def destroy_tensor_desc(self, rt, desc: args.ptr):
        rt.single_ops.destroy_desc(desc)

    @acl_call("get_tensor_desc_type")
    def get_tensor_desc_type(self, rt, desc: args.ptr):
        return rt.single_ops.desc(desc, "aclGetTensorDescType").dtype

    @acl_call("get_tensor_desc_format")
    def get_tensor_desc_format(self, rt, desc: args.ptr):
        return rt.single_ops.desc(desc, "aclGetTensorDescFormat").fmt

    @acl_call("get_tensor_desc_size")
    def get_tensor_desc_size(self, rt, desc: args.ptr):
        return rt.single_ops.size(desc, "aclGetTensorDescSize")

    @acl_call("get_tensor_desc_element_count")
    def get_tensor_desc_element_count(self, rt, desc: args.ptr):
        return rt.single_ops.desc(desc, "aclGetTensorDescElementCount").element_count()

    @acl_call("get_tensor_desc_num_dims")
    def get_tensor_desc_num_dims(self, rt, desc: args.ptr):
        return len(rt.single_ops.desc(desc, "aclGetTensorDescNumDims").dims)

    @acl_call("get_tensor_desc_dim_v2")
    def get_tensor_desc_dim_v2(self, rt, desc: args.ptr, index: args.size):
        return rt.single_ops.dim(desc, index, "aclGetTensorDescDimV2")

    @acl_call("set_tensor_desc_name")
    def set_tensor_desc_name(self, rt, desc: args.ptr, name: args.text):
        rt.single_ops.desc(desc, "aclSetTensorDescName").name = name

    @acl_call("get_tensor_desc_name")
    def get_tensor_desc_name(self, rt, desc: args.ptr):
        return rt.single_ops.desc(desc, "aclGetTensorDescName").name

    @acl_call("set_tensor_const")
    def set_tensor_const(self, rt, desc: args.ptr, data_buffer: args.ptr, length: args.size):
        rt.single_ops.set_const(desc, data_buffer, length, "aclSetTensorConst")

    @acl_call("set_tensor_shape")
    def set_tensor_shape(self, rt, desc: args.ptr, dims: args.ints):
        rt.single_ops.desc(desc, "aclSetTensorShape").dims = dims

    @acl_call("set_tensor_format")
    def set_tensor_format(self, rt, desc: args.ptr, format: args.i64):
        rt.single_ops.desc(desc, "aclSetTensorFormat").fmt = format


def read_config(path, call: str):
    """The JSON of a config file ({} for an empty one), read bounded (support/files: a
    regular file of at most 1 MiB); the call's failure if it cannot: ACL_ERROR_INVALID_FILE
    for a file it may not read, ACL_ERROR_PARSE_FILE for one that is not JSON."""
    if not os.path.exists(path):
        raise SimError(C.ACL_ERROR_INVALID_FILE,
                       _("{call}: config file {path} does not exist. Pass an existing JSON "
                         "file.").format(call=call, path=repr(os.fspath(path))))
    try:
        text = files.read(path, CONFIG_LIMIT)
    except files.Refused as why:
        raise SimError(C.ACL_ERROR_INVALID_FILE,
                       _("{call}: config file {path} cannot be read: {why}. Pass an existing "
                         "JSON file.").format(call=call, path=repr(os.fspath(path)),
                                             why=why)) from None
    try:
        return files.parse_json(text) if text.strip() else {}
    except files.Refused as why:
        raise SimError(C.ACL_ERROR_PARSE_FILE,
                       _("{call}: config file {path}: {why}.").format(
                           call=call, path=repr(os.fspath(path)), why=why)) from None
