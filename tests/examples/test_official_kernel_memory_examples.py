"""More official hicann/runtime ``example/`` programs, re-expressed in the pyACL shape and run
on the simulator (the conventions of test_official_runtime_examples.py): each asserts what
the example's README says it prints.

Here: 2_advanced_features/built_in_task/0_reduce_task; 1_basic_features/memory/
9_multistream_sync_memory (two threads: a value wait on stream A, a value write on stream B
from a thread started later; the README's one-second pause is 0.3 s here);
1_basic_features/memory/10_ipc_memory_withpid, proc_a and proc_b in one program (the
simulator is one process playing both: sim/ipc.py), the write and read kernels (WriteDo /
ReadDo) as copies; 3_memory_advanced/allocator/0_custom_allocator, where pyACL binds no
aclrtAllocatorGetByStream, so the program calls the functions it registered itself;
2_advanced_features/kernel/0_launch_kernel in both modes, which the simulator follows to the
launch and refuses there (no AI Core: spec/pyacl_functions.REFUSED), every call before and
after it succeeding.
"""
from __future__ import annotations

import struct
import threading
import time

import numpy as np
import pytest

from acl_lab import constants as C
from acl_lab.sim import device_tasks
from acl_lab.sim.ipc import PROCESS_ID
from kernelhelpers import elf_object
from examplehelpers import check, info, lines
from test_official_runtime_examples import matches

H2D, D2H = C.ACL_MEMCPY_HOST_TO_DEVICE, C.ACL_MEMCPY_DEVICE_TO_HOST
HUGE = C.ACL_MEM_MALLOC_HUGE_FIRST


def test_0_reduce_task(acl, capsys):
    check(acl.init(), "aclInit")
    check(acl.rt.set_device(0), "aclrtSetDevice")
    stream, ret = acl.rt.create_stream()
    check(ret, "aclrtCreateStream")
    host_input = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    host_output = np.zeros(4, np.float32)
    size = host_input.nbytes
    dev_input, ret = acl.rt.malloc(size, HUGE)
    check(ret, "aclrtMalloc")
    dev_output, ret = acl.rt.malloc(size, HUGE)
    check(ret, "aclrtMalloc")
    check(acl.rt.memcpy(dev_input, size, acl.util.numpy_to_ptr(host_input), size, H2D),
          "aclrtMemcpy")
    check(acl.rt.memcpy(dev_output, size, acl.util.numpy_to_ptr(host_input), size, H2D),
          "aclrtMemcpy")
    check(acl.rt.reduce_async(dev_output, dev_input, size, C.ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM,
                              C.ACL_FLOAT, stream, 0), "aclrtReduceAsync")
    check(acl.rt.synchronize_stream(stream), "aclrtSynchronizeStream")
    check(acl.rt.memcpy(acl.util.numpy_to_ptr(host_output), size, dev_output, size, D2H),
          "aclrtMemcpy")
    for i, value in enumerate(host_output):
        print(f"Reduce SUM result[{i}] = {value:f}")
    acl.rt.free(dev_input)
    acl.rt.free(dev_output)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device_force(0)
    acl.finalize()
    print("Sample Run Successfully.")
    assert lines(capsys) == [f"Reduce SUM result[{i}] = {v:f}" for i, v in
                             enumerate([2.0, 4.0, 6.0, 8.0])] + ["Sample Run Successfully."]


def test_9_multistream_sync_memory(acl, capsys, tmp_path):
    flag_file = tmp_path / "flag.txt"
    errors = []
    waiting = threading.Event()     # stream A's wait is queued (the README pauses a second)

    def thread_wait(stream, device, dev_ptr, value_compare):
        try:
            acl.rt.set_device(device)
            check(acl.rt.value_wait(dev_ptr, value_compare, C.ACL_STREAM_WAIT_VALUE_EQ,
                                    stream), "aclrtValueWait")
            info(f"Stream A: wait for data at virtual memory = 0x{dev_ptr:x} to meet the "
                 "condition")
            waiting.set()
            check(acl.rt.synchronize_stream(stream), "aclrtSynchronizeStream")
            info("Stream A: the data in the specified memory has met the condition, all "
                 "tasks are complete")
            wait_flag, = struct.unpack("<i", flag_file.read_bytes())
            info(f"Flag value read by the waiting thread: {wait_flag}")
        except BaseException as e:     # the test thread reports it
            errors.append(e)

    def thread_write(stream, device, dev_ptr, value_write):
        try:
            info(f"Start writing to {flag_file.name}")
            flag_file.write_bytes(struct.pack("<i", 123))
            info("Flag value after the writing thread starts: 123")
            acl.rt.set_device(device)
            check(acl.rt.value_write(dev_ptr, value_write, 0, stream), "aclrtValueWrite")
            info(f"Stream B: write data at virtual memory = 0x{dev_ptr:x}")
            check(acl.rt.synchronize_stream(stream), "aclrtSynchronizeStream")
            info("Stream B: the data in the specified memory has met the condition, all "
                 "tasks are complete")
        except BaseException as e:
            errors.append(e)

    acl.init()
    acl.rt.set_device(0)
    dev_ptr, ret = acl.rt.malloc(1 << 20, HUGE)
    check(ret, "aclrtMalloc")
    info("Allocate memory on the device successfully")
    stream_a, ret = acl.rt.create_stream()
    check(ret, "aclrtCreateStream")
    info("Create Stream A successfully")
    stream_b, ret = acl.rt.create_stream()
    check(ret, "aclrtCreateStream")
    info("Create Stream B successfully")
    a = threading.Thread(target=thread_wait, args=(stream_a, 0, dev_ptr, 100))
    a.start()
    waiting.wait(10)
    time.sleep(0.3)                 # A goes on into its synchronize
    b = threading.Thread(target=thread_write, args=(stream_b, 0, dev_ptr, 100))
    b.start()
    b.join()
    a.join()
    acl.rt.destroy_stream_force(stream_a)
    acl.rt.destroy_stream_force(stream_b)
    acl.rt.free(dev_ptr)
    acl.rt.reset_device_force(0)
    acl.finalize()
    assert not errors, errors
    assert matches(lines(capsys), [
        "[INFO]  Allocate memory on the device successfully",
        "[INFO]  Create Stream A successfully",
        "[INFO]  Create Stream B successfully",
        "[INFO]  Stream A: wait for data at virtual memory = 0x... to meet the condition",
        "[INFO]  Start writing to flag.txt",
        "[INFO]  Flag value after the writing thread starts: 123",
        "[INFO]  Stream B: write data at virtual memory = 0x...",
        "[INFO]  Stream B: the data in the specified memory has met the condition, all tasks "
        "are complete",
        "[INFO]  Stream A: the data in the specified memory has met the condition, all tasks "
        "are complete",
        "[INFO]  Flag value read by the waiting thread: 123"])


def test_a_value_wait_nobody_will_satisfy_fails_instead_of_hanging(acl):
    """The same wait, alone in the program: the device would wait for ever; the stream
    reports the timeout at once (no other thread lives that could still write)."""
    acl.init()
    acl.rt.set_device(0)
    stream, _ = acl.rt.create_stream()
    dev_ptr, _ = acl.rt.malloc(64, HUGE)
    acl.rt.memset(dev_ptr, 64, 0, 64)
    check(acl.rt.value_wait(dev_ptr, 100, C.ACL_STREAM_WAIT_VALUE_EQ, stream), "aclrtValueWait")
    start = time.monotonic()
    assert acl.rt.synchronize_stream(stream) == C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT
    assert time.monotonic() - start < 2
    assert "never ends" in acl.get_recent_err_msg()


def test_a_thread_waits_for_a_writer_only_so_long(acl, monkeypatch):
    """In a thread, while the program's main thread lives (it might still start the
    writer), the wait goes on in real time, with the process lock released, up to the
    limit."""
    monkeypatch.setattr(device_tasks, "VALUE_WAIT_LIMIT_S", 0.3)
    acl.init()
    acl.rt.set_device(0)
    stream, _ = acl.rt.create_stream()
    dev_ptr, _ = acl.rt.malloc(64, HUGE)
    acl.rt.memset(dev_ptr, 64, 0, 64)
    got = {}

    def waiter():
        acl.rt.set_device(0)
        acl.rt.value_wait(dev_ptr, 1, C.ACL_STREAM_WAIT_VALUE_GEQ, stream)
        start = time.monotonic()
        got["ret"] = acl.rt.synchronize_stream(stream)
        got["took"] = time.monotonic() - start

    t = threading.Thread(target=waiter)
    t.start()
    time.sleep(0.05)
    assert acl.rt.get_run_mode()[1] == 0       # the lock is free while it waits
    t.join()
    assert got["ret"] == C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT and got["took"] >= 0.3


def test_10_ipc_memory_withpid(acl, capsys):
    """proc_a and proc_b, interleaved as their files hand over the pid, the key and the
    completion flag."""
    check(acl.init(), "aclInit")
    check(acl.rt.set_device(0), "aclrtSetDevice")
    stream_a, _ = acl.rt.create_stream()
    stream_b, _ = acl.rt.create_stream()
    b_lines, a_lines = [], []
    # proc_a: allocate and write 123 (WriteDo)
    size = 1 << 20
    dev_a, ret = acl.rt.malloc(size, HUGE)
    check(ret, "aclrtMalloc")
    a_lines.append(f"[INFO]  Allocate memory on the device 0x{dev_a:x} successfully")
    value = np.array([123], np.int32)
    check(acl.rt.memcpy(dev_a, 4, acl.util.numpy_to_ptr(value), 4, H2D), "WriteDo")
    a_lines.append(f"[INFO]  Write data 123 to the device address 0x{dev_a:x}")
    # proc_a: export the key
    key, ret = acl.rt.ipc_mem_get_export_key(dev_a, size, 65, 0)
    check(ret, "aclrtIpcMemGetExportKey")
    a_lines.append(f"[INFO]  Process A: get the shareable memory identifier {key} "
                   "successfully")
    # proc_b: its pid, written to file/pid.bin (aclrtDeviceGetBareTgid reports PROCESS_ID)
    pid = PROCESS_ID
    b_lines.append("[INFO]  Process B: get Process B's pid successfully")
    # proc_a: B on the whitelist, key to file/memName.bin
    check(acl.rt.ipc_mem_set_import_pid(key, [pid]), "aclrtIpcMemSetImportPid")
    a_lines.append("[INFO]  Process A: add Process B to the whitelist successfully")
    # proc_b: import, read (ReadDo), signal, close
    b_lines.append("[INFO]  Process B: get the shareable memory identifier successfully, "
                   f"shareable identifier = {key}")
    dev_b, ret = acl.rt.ipc_mem_import_by_key(key, 0)
    check(ret, "aclrtIpcMemImportByKey")
    assert dev_b != dev_a
    seen = np.zeros(1, np.int32)
    check(acl.rt.memcpy(acl.util.numpy_to_ptr(seen), 4, dev_b, 4, D2H), "ReadDo")
    b_lines.append("[INFO]  Process B: complete ipc memory sharing")
    destination = int(seen[0])
    check(acl.rt.ipc_mem_close(key), "aclrtIpcMemClose")
    acl.rt.destroy_stream_force(stream_b)
    assert acl.rt.free(dev_b) != 0      # unmapped by the close; the example ignores it
    # proc_a: the flag from B, then close and free
    source = np.zeros(1, np.int32)
    check(acl.rt.memcpy(acl.util.numpy_to_ptr(source), 4, dev_a, 4, D2H), "Source")
    a_lines.append("[INFO]  Process A: receive the completion signal from Process B, "
                   "completion signal = 1")
    check(acl.rt.ipc_mem_close(key), "aclrtIpcMemClose")
    acl.rt.destroy_stream_force(stream_a)
    check(acl.rt.free(dev_a), "aclrtFree")
    acl.rt.reset_device_force(0)
    acl.finalize()
    print("\n".join(b_lines[:3] + [f"Destination data: {destination}"] + a_lines[:4]
                    + [f"Source data: {int(source[0])}"] + a_lines[4:]))
    if source[0] == destination:
        print("[SUCCESS] IPC memory sharing successfully. Values at source and destination "
              f"are equal: {destination}")
    assert matches(lines(capsys), [
        "[INFO]  Process B: get Process B's pid successfully",
        "[INFO]  Process B: get the shareable memory identifier successfully, shareable "
        "identifier = ...",
        "[INFO]  Process B: complete ipc memory sharing",
        "Destination data: 123",
        "[INFO]  Allocate memory on the device 0x... successfully",
        "[INFO]  Write data 123 to the device address 0x...",
        "[INFO]  Process A: get the shareable memory identifier ... successfully",
        "[INFO]  Process A: add Process B to the whitelist successfully",
        "Source data: 123",
        "[INFO]  Process A: receive the completion signal from Process B, completion "
        "signal = 1",
        "[SUCCESS] IPC memory sharing successfully. Values at source and destination are "
        "equal: 123"])


def test_0_custom_allocator(acl, capsys):
    state = {"alloc": 0, "free": 0}
    blocks = {}

    def custom_alloc(allocator, size):
        block = np.zeros(size, np.uint8)
        handle = acl.util.numpy_to_ptr(block)
        blocks[handle] = block
        state["alloc"] += 1
        info(f"CustomAlloc size={size}")
        return handle

    def custom_free(allocator, block):
        blocks.pop(block, None)
        state["free"] += 1
        info("CustomFree invoked")

    def custom_alloc_advise(allocator, size, addr):
        info(f"CustomAllocAdvise size={size}")
        return custom_alloc(allocator, size)

    def custom_get_addr_from_block(block):
        return block

    check(acl.init(), "aclInit")
    check(acl.rt.set_device(0), "aclrtSetDevice")
    context, ret = acl.rt.create_context(0)
    check(ret, "aclrtCreateContext")
    stream, ret = acl.rt.create_stream()
    check(ret, "aclrtCreateStream")
    desc = acl.rt.allocator_create_desc()
    assert desc != 0
    state_ptr = 0x5EED_0000       # the program's state object, as an address
    check(acl.rt.allocator_set_obj_to_desc(desc, state_ptr), "aclrtAllocatorSetObjToDesc")
    check(acl.rt.allocator_set_alloc_func_to_desc(desc, custom_alloc), "SetAllocFunc")
    check(acl.rt.allocator_set_free_func_to_desc(desc, custom_free), "SetFreeFunc")
    check(acl.rt.allocator_set_alloc_advise_func_to_desc(desc, custom_alloc_advise),
          "SetAllocAdviseFunc")
    check(acl.rt.allocator_set_get_addr_from_block_func_to_desc(
        desc, custom_get_addr_from_block), "SetGetAddrFromBlockFunc")
    check(acl.rt.allocator_register(stream, desc), "aclrtAllocatorRegister")
    block = custom_alloc(state_ptr, 256)
    addr = custom_get_addr_from_block(block)
    blocks[addr][:] = 0xAB
    advised = custom_alloc_advise(state_ptr, 128, 0)
    custom_free(state_ptr, advised)
    custom_free(state_ptr, block)
    info(f"Allocator desc queried: descOut=0x{desc:x}, allocCount={state['alloc']} "
         f"freeCount={state['free']}")
    check(acl.rt.allocator_unregister(stream), "aclrtAllocatorUnregister")
    check(acl.rt.allocator_destroy_desc(desc), "aclrtAllocatorDestroyDesc")
    check(acl.rt.destroy_stream(stream), "aclrtDestroyStream")
    check(acl.rt.destroy_context(context), "aclrtDestroyContext")
    check(acl.rt.reset_device_force(0), "aclrtResetDeviceForce")
    check(acl.finalize(), "aclFinalize")
    assert matches(lines(capsys), [
        "[INFO]  CustomAlloc size=256", "[INFO]  CustomAllocAdvise size=128",
        "[INFO]  CustomAlloc size=128", "[INFO]  CustomFree invoked",
        "[INFO]  CustomFree invoked",
        "[INFO]  Allocator desc queried: descOut=... allocCount=2 freeCount=2"])


@pytest.mark.parametrize("mode", ["simple", "placeholder"])
def test_0_launch_kernel(acl, tmp_path, mode):
    block_dim, total = 8, 8 * 2048
    nbytes = total * 2
    fatbin = tmp_path / f"out/fatbin/ascendc_kernels_{mode}/ascendc_kernels_{mode}.o"
    fatbin.parent.mkdir(parents=True)
    fatbin.write_bytes(elf_object(["add_custom"]))
    check(acl.init(), "aclInit")
    check(acl.rt.set_device(0), "aclrtSetDevice")
    stream, ret = acl.rt.create_stream()
    check(ret, "aclrtCreateStream")
    hosts = [acl.rt.malloc_host(nbytes) for _ in range(3)]
    devices = [acl.rt.malloc(nbytes, HUGE) for _ in range(3)]
    assert all(ret == 0 for _p, ret in hosts + devices)
    (x_host, _), (y_host, _), (z_host, _) = hosts
    (x_dev, _), (y_dev, _), (z_dev, _) = devices
    rng = np.random.default_rng(0)
    for host, dev in ((x_host, x_dev), (y_host, y_dev)):
        data = rng.uniform(1, 100, total).astype(np.float16)
        check(acl.rt.memcpy(host, nbytes, acl.util.numpy_to_ptr(data), nbytes,
                            C.ACL_MEMCPY_HOST_TO_HOST), "ReadFile")
        check(acl.rt.memcpy(dev, nbytes, host, nbytes, H2D), "aclrtMemcpy")
    bin_handle, ret = acl.rt.binary_load_from_file(str(fatbin), [])
    check(ret, "aclrtBinaryLoadFromFile")
    func, ret = acl.rt.binary_get_function(bin_handle, "add_custom")
    check(ret, "aclrtBinaryGetFunction")
    args, ret = acl.rt.kernel_args_init(func)
    check(ret, "aclrtKernelArgsInit")
    keep = []
    for dev in (x_dev, y_dev, z_dev):
        pointer = np.array([dev], np.uint64)
        keep.append(pointer)
        _param, ret = acl.rt.kernel_args_append(args, acl.util.numpy_to_ptr(pointer), 8)
        check(ret, "aclrtKernelArgsAppend")
    if mode == "placeholder":
        length_param, ret = acl.rt.kernel_args_append_place_holder(args)
        check(ret, "aclrtKernelArgsAppendPlaceHolder")
        num_param, ret = acl.rt.kernel_args_append_place_holder(args)
        check(ret, "aclrtKernelArgsAppendPlaceHolder")
        for param, value in ((length_param, total), (num_param, 8)):
            ptr, ret = acl.rt.kernel_args_get_place_holder_buffer(args, param, 4)
            check(ret, "aclrtKernelArgsGetPlaceHolderBuffer")
            data = np.array([value], np.int32)
            check(acl.rt.memcpy(ptr, 4, acl.util.numpy_to_ptr(data), 4,
                                C.ACL_MEMCPY_HOST_TO_HOST), "*lengthHost = ...")
    check(acl.rt.kernel_args_finalize(args), "aclrtKernelArgsFinalize")
    ret = acl.rt.launch_kernel_with_config(func, block_dim, stream, [], args, 0)
    assert ret == C.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert "AI Core" in acl.get_recent_err_msg()
    # ReleaseKernelResources: every call succeeds
    check(acl.rt.binary_unload(bin_handle), "aclrtBinaryUnLoad")
    for dev, _ in reversed(devices):
        check(acl.rt.free(dev), "aclrtFree")
    for host, _ in reversed(hosts):
        check(acl.rt.free_host(host), "aclrtFreeHost")
    check(acl.rt.destroy_stream_force(stream), "aclrtDestroyStreamForce")
    check(acl.rt.reset_device_force(0), "aclrtResetDeviceForce")
    check(acl.finalize(), "aclFinalize")
