"""A failed call of the kernel, memory-extra, acl.op and acl.blas families changes nothing:
not acl_lab.snapshot() (allocations, streams, binaries, argument lists, allocators, IPC
keys, the modeled clock), not a byte of the memory involved. Each case runs against a
process with something in every corner of those families and pending work on a stream."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import acl_lab
from acl_lab import constants as C
from acl_lab.sim.ipc import PROCESS_ID
from kernelhelpers import compile_ops, elf_object, gemm_op, to_device

INNER = C.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE
BAD = 0xBAD0


@pytest.fixture
def world(acl, tmp_path):
    w = SimpleNamespace(acl=acl)
    w.stream, _ = acl.rt.create_stream()
    w.elf = elf_object(["add_custom", "other"])
    w.elf_ptr = acl.util.bytes_to_ptr(w.elf)
    w.bin, ret = acl.rt.binary_load_from_data(w.elf_ptr, len(w.elf), [])
    assert ret == 0
    w.func, _ = acl.rt.binary_get_function(w.bin, "add_custom")
    w.other, _ = acl.rt.binary_get_function(w.bin, "other")
    w.args, _ = acl.rt.kernel_args_init(w.func)
    w.value = np.arange(4, dtype=np.uint64)
    w.value_ptr = acl.util.numpy_to_ptr(w.value)
    w.param, _ = acl.rt.kernel_args_append(w.args, w.value_ptr, 8)
    w.holder, _ = acl.rt.kernel_args_append_place_holder(w.args)
    w.dev = to_device(acl, np.arange(64, dtype=np.float32))
    w.dev2 = to_device(acl, np.ones(64, np.float32))
    w.host, _ = acl.rt.malloc_host(256)
    w.desc_mem, _ = acl.rt.malloc(64, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert acl.rt.set_memcpy_desc(w.desc_mem, INNER, w.dev, w.dev2, 64, 0)[1] == 0
    w.key, _ = acl.rt.ipc_mem_get_export_key(w.dev, 256, 65, 0)
    assert acl.rt.ipc_mem_set_import_pid(w.key, [PROCESS_ID]) == 0
    w.mapped, _ = acl.rt.ipc_mem_import_by_key(w.key, 0)
    w.alloc_desc = acl.rt.allocator_create_desc()
    folder = compile_ops(tmp_path, gemm_op(4, 2, 3))
    assert acl.op.set_model_dir(folder) == 0
    w.attr = acl.op.create_attr()
    w.tdesc = acl.create_tensor_desc(C.ACL_FLOAT, [4], C.ACL_FORMAT_ND)
    assert acl.rt.memcpy_async(w.dev2, 256, w.dev, 256, C.ACL_MEMCPY_DEVICE_TO_DEVICE,
                               w.stream) == 0      # pending work
    w.contents = lambda: (acl.util.ptr_to_bytes(w.host, 256), w.value.tobytes())
    return w


CASES = [
    # binaries and functions
    ("load_file_missing", lambda w: w.acl.rt.binary_load_from_file("/no/such.o", []),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("load_file_device", lambda w: w.acl.rt.binary_load_from_file("/dev/zero", []),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("load_data_garbage", lambda w: w.acl.rt.binary_load_from_data(w.value_ptr, 32, []),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("load_data_device_memory", lambda w: w.acl.rt.binary_load_from_data(w.dev, 64, []),
     C.ACL_ERROR_INVALID_PARAM),
    ("load_data_past_the_end", lambda w: w.acl.rt.binary_load_from_data(w.value_ptr, 4096, []),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("load_bad_option", lambda w: w.acl.rt.binary_load_from_data(
        w.elf_ptr, len(w.elf), [{"type": 7, "value": 0}]), C.ACL_ERROR_RT_PARAM_INVALID),
    ("unload_bad", lambda w: w.acl.rt.binary_unload(BAD), C.ACL_ERROR_RT_INVALID_HANDLE),
    ("no_such_kernel", lambda w: w.acl.rt.binary_get_function(w.bin, "nope"),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("register_cpu_on_ai_core", lambda w: w.acl.rt.register_cpu_func(w.bin, "f", "k"),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("name_too_short", lambda w: w.acl.rt.get_function_name(w.func, 4),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("addr_bad", lambda w: w.acl.rt.get_function_addr(BAD), C.ACL_ERROR_RT_INVALID_HANDLE),
    # argument lists and launches
    ("append_null", lambda w: w.acl.rt.kernel_args_append(w.args, 0, 8),
     C.ACL_ERROR_INVALID_PARAM),
    ("append_too_big", lambda w: w.acl.rt.kernel_args_append(w.args, w.value_ptr, 1 << 17),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("buffer_of_common", lambda w: w.acl.rt.kernel_args_get_place_holder_buffer(
        w.args, w.param, 4), C.ACL_ERROR_RT_PARAM_INVALID),
    ("buffer_too_big", lambda w: w.acl.rt.kernel_args_get_place_holder_buffer(
        w.args, w.holder, 1 << 17), C.ACL_ERROR_RT_PARAM_INVALID),
    ("update_wrong_size", lambda w: w.acl.rt.kernel_args_para_update(
        w.args, w.param, w.value_ptr, 4), C.ACL_ERROR_RT_PARAM_INVALID),
    ("user_mem_too_small", lambda w: w.acl.rt.kernel_args_init_by_user_mem(
        w.func, w.host, w.host, 64), C.ACL_ERROR_RT_PARAM_INVALID),
    ("launch_unfinalized", lambda w: w.acl.rt.launch_kernel_with_config(
        w.func, 8, w.stream, [], w.args, 0), C.ACL_ERROR_RT_PARAM_INVALID),
    ("launch_host_args", lambda w: w.acl.rt.launch_kernel(w.func, 8, w.host, 64, w.stream),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("launch_no_ai_core", lambda w: w.acl.rt.launch_kernel(w.func, 8, w.dev, 64, w.stream),
     C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT),
    # memory with a configuration, device tasks
    ("cfg_other_device", lambda w: w.acl.rt.malloc_with_cfg(64, 0, {
        "numAttrs": 1, "attrs": [{"attr": C.ACL_RT_MEM_ATTR_DEVICE_ID,
                                  "value": {"deviceId": 3}}]}), C.ACL_ERROR_RT_PARAM_INVALID),
    ("cfg_huge", lambda w: w.acl.rt.malloc_with_cfg(1 << 50, 0, {}),
     C.ACL_ERROR_RT_MEMORY_ALLOCATION),
    ("host_cfg_zero", lambda w: w.acl.rt.malloc_host_with_cfg(0, {}), C.ACL_ERROR_INVALID_PARAM),
    ("flush_unknown", lambda w: w.acl.rt.mem_flush(BAD << 20, 64), C.ACL_ERROR_RT_PARAM_INVALID),
    ("cmo_bad_type", lambda w: w.acl.rt.cmo_async(w.dev, 64, 7, w.stream),
     C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT),
    ("reduce_host", lambda w: w.acl.rt.reduce_async(w.host, w.dev, 64, 10, C.ACL_FLOAT,
                                                    w.stream, 0), C.ACL_ERROR_RT_PARAM_INVALID),
    ("reduce_bad_type", lambda w: w.acl.rt.reduce_async(w.dev2, w.dev, 64, 10, C.ACL_INT64,
                                                        w.stream, 0), C.ACL_ERROR_INVALID_PARAM),
    ("value_write_flag", lambda w: w.acl.rt.value_write(w.dev, 1, 2, w.stream),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("value_wait_host", lambda w: w.acl.rt.value_wait(w.host, 1, 0, w.stream),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("desc_unaligned", lambda w: w.acl.rt.set_memcpy_desc(w.desc_mem + 32, INNER, w.dev, w.dev2,
                                                          64, 0), C.ACL_ERROR_RT_PARAM_INVALID),
    ("desc_wrong_kind", lambda w: w.acl.rt.memcpy_async_with_desc(w.desc_mem, 3, w.stream),
     C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT),
    ("desc_of_garbage", lambda w: w.acl.rt.memcpy_async_with_desc(w.dev, INNER, w.stream),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("condition_pageable", lambda w: w.acl.rt.memcpy_async_with_condition(
        w.dev, 32, w.value_ptr, 32, C.ACL_MEMCPY_HOST_TO_DEVICE, w.stream),
     C.ACL_ERROR_RT_PARAM_INVALID),
    # allocators, IPC
    ("register_incomplete", lambda w: w.acl.rt.allocator_register(w.stream, w.alloc_desc),
     C.ACL_ERROR_INVALID_PARAM),
    ("destroy_bad_desc", lambda w: w.acl.rt.allocator_destroy_desc(BAD),
     C.ACL_ERROR_INVALID_PARAM),
    ("free_exported", lambda w: w.acl.rt.free(w.dev), C.ACL_ERROR_RT_PARAM_INVALID),
    ("free_mapped", lambda w: w.acl.rt.free(w.mapped), C.ACL_ERROR_RT_PARAM_INVALID),
    ("import_unknown", lambda w: w.acl.rt.ipc_mem_import_by_key("nope", 0),
     C.ACL_ERROR_RT_PARAM_INVALID),
    ("export_host", lambda w: w.acl.rt.ipc_mem_get_export_key(w.host, 64, 65, 0),
     C.ACL_ERROR_RT_PARAM_INVALID),
    # acl.op, acl.blas
    ("op_load_garbage", lambda w: w.acl.op.load(w.value_ptr, 32), C.ACL_ERROR_PARSE_MODEL),
    ("infer_unknown_op", lambda w: w.acl.op.infer_shape("Nope", [w.tdesc], [0], 1, [w.tdesc], 0),
     C.ACL_ERROR_INVALID_PARAM),
    ("update_unregistered", lambda w: w.acl.op.update_params("Nope", [w.tdesc], [w.tdesc], 0),
     C.ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED),
    ("kernel_args_outside", lambda w: w.acl.op.set_kernel_args(BAD, "k", 1, w.value_ptr, 8),
     C.ACL_ERROR_INVALID_PARAM),
    ("create_kernel_sys", lambda w: w.acl.op.create_kernel("Op", "k", "add_custom", w.elf_ptr,
                                                           len(w.elf), 0, 0),
     C.ACL_ERROR_INVALID_PARAM),
    ("queue_zero", lambda w: w.acl.op.set_max_op_queue_num(0), C.ACL_ERROR_INVALID_PARAM),
    ("dump_no_type", lambda w: w.acl.op.start_dump_args(0, "/tmp"), C.ACL_ERROR_FAILURE),
    ("gemm_ld", lambda w: w.acl.blas.hgemm(0, 0, 0, 4, 2, 3, w.dev, w.dev, 3, w.dev, -1,
                                           w.dev, w.dev2, -1, 0, w.stream),
     C.ACL_ERROR_INVALID_PARAM),
    ("gemm_no_model", lambda w: w.acl.blas.hgemm(0, 0, 0, 8, 2, 3, w.dev, w.dev, -1, w.dev, -1,
                                                 w.dev, w.dev2, -1, 0, w.stream),
     C.ACL_ERROR_OP_NOT_FOUND),
    ("gemm_host_matrix", lambda w: w.acl.blas.hgemm(0, 0, 0, 4, 2, 3, w.dev, w.host, -1, w.dev,
                                                    -1, w.dev, w.dev2, -1, 0, w.stream),
     C.ACL_ERROR_INVALID_PARAM),
]


@pytest.mark.parametrize("call, code", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_failed_call_changes_nothing(world, call, code):
    before, contents = acl_lab.snapshot(), world.contents()
    result = call(world)
    ret = result[-1] if isinstance(result, tuple) else result
    assert ret == code, world.acl.get_recent_err_msg()
    assert world.acl.get_recent_err_msg()
    assert acl_lab.snapshot() == before
    assert world.contents() == contents
