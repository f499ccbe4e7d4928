"""``acl.rt``'s further memory calls (pyACL python/pyACL/rt/rt_memory.cpp, rt_allocator.cpp,
rt_synchronize.cpp): allocation with a configuration (spec/malloc_config.py), cache
maintenance and built-in device tasks (sim/device_tasks.py), external allocator
descriptors (sim/allocators.py) and IPC memory by key (sim/ipc.py)."""
from acl_lab.sim import device_tasks
from acl_lab.sim.allocators import ADVISE, ALLOC, FREE, GET_ADDR
from acl_lab.sim.facade._call import acl_call
from acl_lab.spec import args, malloc_config

MAX_KEY_LEN = 1024        # pyACL: ipc_mem_get_export_key's len must be below it


def _pids(value) -> list[int]:
    """pyACL's pid list: a list of int32 (ValueError otherwise, as pyACL raises)."""
    if not isinstance(value, list):
        raise ValueError("argument 2 only support the format of list")
    if not all(isinstance(p, int) and -(1 << 31) <= p < 1 << 31 for p in value):
        raise ValueError("get values from PyList failed")
    return list(value)


class RtMemoryExtras:
    """acl.rt: memory with a configuration, device tasks, allocators, IPC memory"""

    # ----- allocation with a configuration ----------------------------------------------
    @acl_call("rt.malloc_with_cfg")
    def malloc_with_cfg(self, rt, size: args.size, policy: args.i32, cfg):
        return _device_malloc(rt, size, policy, cfg, "malloc_with_cfg", "aclrtMallocWithCfg")

    @acl_call("rt.malloc_for_task_scheduler")
    def malloc_for_task_scheduler(self, rt, size: args.size, policy: args.i32, cfg):
        return _device_malloc(rt, size, policy, cfg, "malloc_for_task_scheduler",
                              "aclrtMallocForTaskScheduler")

    @acl_call("rt.malloc_host_with_cfg")
    def malloc_host_with_cfg(self, rt, size: args.size, cfg):
        call = "aclrtMallocHostWithCfg"
        attrs = malloc_config.parse(call, cfg)
        rt.memory.check_size(size, call)
        malloc_config.check_host(call, attrs)
        rt.require_ctx(call)
        return rt.memory.malloc_host(size, "malloc_host_with_cfg").ptr

    # ----- cache maintenance and device tasks -------------------------------------------
    @acl_call("rt.mem_flush")
    def mem_flush(self, rt, dev_ptr: args.ptr, size: args.size):
        device_tasks.flush(rt, dev_ptr, size, "aclrtMemFlush")

    @acl_call("rt.mem_invalidate")
    def mem_invalidate(self, rt, dev_ptr: args.ptr, size: args.size):
        device_tasks.flush(rt, dev_ptr, size, "aclrtMemInvalidate")

    @acl_call("rt.cmo_async")
    def cmo_async(self, rt, src: args.ptr, size: args.size, cmo_type: args.i32,
                  stream: args.ptr):
        device_tasks.cmo_async(rt, src, size, cmo_type, stream)

    @acl_call("rt.reduce_async")
    def reduce_async(self, rt, dst: args.ptr, src: args.ptr, count: args.u64, kind: args.i32,
                     type: args.i32, stream: args.ptr, reserve: args.ptr):  # noqa: A002
        device_tasks.reduce_async(rt, dst, src, count, kind, type, stream, reserve)

    @acl_call("rt.value_write")
    def value_write(self, rt, dev_addr: args.ptr, value: args.u64, flag: args.u32,
                    stream: args.ptr):
        device_tasks.value_write(rt, dev_addr, value, flag, stream)

    @acl_call("rt.value_wait")
    def value_wait(self, rt, dev_addr: args.ptr, value: args.u64, flag: args.u32,
                   stream: args.ptr):
        device_tasks.value_wait(rt, dev_addr, value, flag, stream)

    # ----- copies by descriptor, copies of page-locked memory ---------------------------
    @acl_call("rt.get_memcpy_desc_size")
    def get_memcpy_desc_size(self, rt, kind: args.i32):
        return device_tasks.memcpy_desc_size(rt, kind)

    @acl_call("rt.set_memcpy_desc")
    def set_memcpy_desc(self, rt, desc: args.ptr, kind: args.i32, src_addr: args.ptr,
                        dst_addr: args.ptr, count: args.size, config: args.ptr):
        return device_tasks.set_memcpy_desc(rt, desc, kind, src_addr, dst_addr, count, config)

    @acl_call("rt.memcpy_async_with_desc")
    def memcpy_async_with_desc(self, rt, desc: args.ptr, kind: args.i32, stream: args.ptr):
        device_tasks.memcpy_async_with_desc(rt, desc, kind, stream)

    @acl_call("rt.memcpy_async_with_condition")
    def memcpy_async_with_condition(self, rt, dst: args.ptr, dest_max: args.size,
                                    src: args.ptr, count: args.size, kind: args.i32,
                                    stream: args.ptr):
        device_tasks.memcpy_async_with_condition(rt, dst, dest_max, src, count, kind, stream)

    # ----- external allocator descriptors -----------------------------------------------
    @acl_call("rt.allocator_create_desc")
    def allocator_create_desc(self, rt):
        return rt.allocators.create()

    @acl_call("rt.allocator_destroy_desc")
    def allocator_destroy_desc(self, rt, allocator_desc: args.ptr):
        rt.allocators.destroy(allocator_desc)

    @acl_call("rt.allocator_set_obj_to_desc")
    def allocator_set_obj_to_desc(self, rt, allocator_desc: args.ptr, allocator: args.ptr):
        rt.allocators.set_obj(allocator_desc, allocator)

    @acl_call("rt.allocator_set_alloc_func_to_desc")
    def allocator_set_alloc_func_to_desc(self, rt, allocator_desc: args.ptr, func):
        rt.allocators.set_func(allocator_desc, ALLOC, func, "aclrtAllocatorSetAllocFuncToDesc")

    @acl_call("rt.allocator_set_free_func_to_desc")
    def allocator_set_free_func_to_desc(self, rt, allocator_desc: args.ptr, func):
        rt.allocators.set_func(allocator_desc, FREE, func, "aclrtAllocatorSetFreeFuncToDesc")

    @acl_call("rt.allocator_set_alloc_advise_func_to_desc")
    def allocator_set_alloc_advise_func_to_desc(self, rt, allocator_desc: args.ptr, func):
        rt.allocators.set_func(allocator_desc, ADVISE, func,
                               "aclrtAllocatorSetAllocAdviseFuncToDesc")

    @acl_call("rt.allocator_set_get_addr_from_block_func_to_desc")
    def allocator_set_get_addr_from_block_func_to_desc(self, rt, allocator_desc: args.ptr,
                                                       func):
        rt.allocators.set_func(allocator_desc, GET_ADDR, func,
                               "aclrtAllocatorSetGetAddrFromBlockFuncToDesc")

    @acl_call("rt.allocator_register")
    def allocator_register(self, rt, stream: args.ptr, allocator_desc: args.ptr):
        rt.allocators.register(stream, allocator_desc)

    @acl_call("rt.allocator_unregister")
    def allocator_unregister(self, rt, stream: args.ptr):
        rt.allocators.unregister(stream)

    # ----- IPC memory by key --------------------------------------------------------------
    @acl_call("rt.ipc_mem_get_export_key")
    def ipc_mem_get_export_key(self, rt, dev_ptr: args.ptr, size: args.size, len: args.size,  # noqa: A002
                               flag: args.u64):
        if len >= MAX_KEY_LEN:     # pyACL's own limit, before the C call
            raise ValueError("key len should be less than 1024")
        return rt.ipc.export_key(dev_ptr, size, len, flag)

    @acl_call("rt.ipc_mem_set_import_pid")
    def ipc_mem_set_import_pid(self, rt, key: args.text, pids):
        rt.ipc.set_import_pid(key, _pids(pids))

    @acl_call("rt.ipc_mem_import_by_key")
    def ipc_mem_import_by_key(self, rt, key: args.text, flag: args.u64):
        return rt.ipc.import_key(key, flag)

    @acl_call("rt.ipc_mem_close")
    def ipc_mem_close(self, rt, key: args.text):
        rt.ipc.close(key)


def _device_malloc(rt, size: int, policy: int, cfg, api: str, call: str) -> int:
    """aclrtMallocInnerWithCfg: the configuration as pyACL reads it, the size, the context,
    the attributes the runtime takes; then the allocation (no ACL padding)."""
    attrs = malloc_config.parse(call, cfg)
    rt.memory.check_size(size, api)
    device = rt.require_ctx(call).device
    malloc_config.check_device(call, attrs, device)
    return rt.memory.place_device(device, size, policy, api).ptr
