"""``acl.rt``'s virtual memory management (sim/vmm.py), pointer attributes and host
registration (sim/host_memory.py), in pyACL's shape (python/pyACL/rt/rt_memory.cpp)."""
from acl_lab.sim import batch_copy, host_funcs, host_memory
from acl_lab.sim.facade._call import acl_call
from acl_lab.sim.facade.rt_memory_extras import _pids
from acl_lab.sim.ipc import PROCESS_ID
from acl_lab.spec import args


class RtMemory:
    """acl.rt: reserve, map and share device memory; what a pointer is; host registration"""

    # ----- virtual memory management -----------------------------------------------------
    @acl_call("rt.mem_get_allocation_granularity")
    def mem_get_allocation_granularity(self, rt, prop, option: args.i32):
        return rt.vmm.granularity(prop, option)

    @acl_call("rt.reserve_mem_address")
    def reserve_mem_address(self, rt, size: args.size, alignment: args.size,
                            expect_ptr: args.ptr, flags: args.u64):
        return rt.vmm.reserve(size, alignment, expect_ptr, flags)

    @acl_call("rt.release_mem_address")
    def release_mem_address(self, rt, vir_ptr: args.ptr):
        rt.vmm.release(vir_ptr)

    @acl_call("rt.malloc_physical")
    def malloc_physical(self, rt, size: args.size, prop, flags: args.u64):
        return rt.vmm.malloc_physical(size, prop, flags)

    @acl_call("rt.free_physical")
    def free_physical(self, rt, handle: args.ptr):
        rt.vmm.free_physical(handle)

    @acl_call("rt.map_mem")
    def map_mem(self, rt, vir_ptr: args.ptr, size: args.size, offset: args.size,
                handle: args.ptr, flags: args.u64):
        rt.vmm.map(vir_ptr, size, offset, handle, flags)

    @acl_call("rt.unmap_mem")
    def unmap_mem(self, rt, vir_ptr: args.ptr):
        rt.vmm.unmap(vir_ptr)

    # ----- sharing physical memory between processes --------------------------------------
    @acl_call("rt.mem_export_to_shareable_handle")
    def mem_export_to_shareable_handle(self, rt, handle: args.ptr, handle_type: args.i32,
                                       flags: args.u64):
        return rt.vmm.export(handle, handle_type, flags)

    @acl_call("rt.mem_set_pid_to_shareable_handle")
    def mem_set_pid_to_shareable_handle(self, rt, shareable_handle: args.u64, pid_list):
        rt.vmm.set_pids(shareable_handle, _pids(pid_list))

    @acl_call("rt.mem_import_from_shareable_handle")
    def mem_import_from_shareable_handle(self, rt, shareable_handle: args.u64,
                                         device_id: args.i32):
        return rt.vmm.import_(shareable_handle, device_id)

    @acl_call("rt.device_get_bare_tgid")
    def device_get_bare_tgid(self, rt):
        return PROCESS_ID

    # ----- what a pointer is; host memory the device may use ----------------------------
    @acl_call("rt.pointer_get_attributes")
    def pointer_get_attributes(self, rt, ptr: args.ptr):
        return host_memory.attributes(rt, ptr)

    @acl_call("rt.host_register")
    def host_register(self, rt, ptr: args.ptr, size: args.u64, type: args.i32):  # noqa: A002
        return rt.host_registry.register(ptr, size, type)

    @acl_call("rt.host_unregister")
    def host_unregister(self, rt, ptr: args.ptr):
        rt.host_registry.unregister(ptr)

    @acl_call("rt.host_register_v2")
    def host_register_v2(self, rt, ptr: args.ptr, size: args.u64, flag: args.u32):
        rt.host_registry.register_v2(ptr, size, flag)

    @acl_call("rt.host_get_device_pointer")
    def host_get_device_pointer(self, rt, p_host: args.ptr, flag: args.u32):
        return rt.host_registry.device_pointer(p_host, flag)

    # ----- stream-ordered memory pools (not in pyACL: acl_rt_memory_soma.h) ---------------
    @acl_call("rt.mem_pool_create")
    def mem_pool_create(self, rt, pool_props):
        return rt.mem_pools.create(pool_props)

    @acl_call("rt.mem_pool_destroy")
    def mem_pool_destroy(self, rt, mem_pool: args.ptr):
        rt.mem_pools.destroy(mem_pool)

    @acl_call("rt.mem_pool_set_attr")
    def mem_pool_set_attr(self, rt, mem_pool: args.ptr, attr: args.i32, value: args.u64):
        rt.mem_pools.set_attr(mem_pool, attr, value)

    @acl_call("rt.mem_pool_get_attr")
    def mem_pool_get_attr(self, rt, mem_pool: args.ptr, attr: args.i32):
        return rt.mem_pools.get_attr(mem_pool, attr)

    @acl_call("rt.mem_pool_malloc_async")
    def mem_pool_malloc_async(self, rt, size: args.size, mem_pool: args.ptr, stream: args.ptr):
        return rt.mem_pools.malloc_async(size, mem_pool, stream)

    @acl_call("rt.mem_pool_free_async")
    def mem_pool_free_async(self, rt, ptr: args.ptr, stream: args.ptr):
        rt.mem_pools.free_async(ptr, stream)

    @acl_call("rt.mem_pool_trim_to")
    def mem_pool_trim_to(self, rt, mem_pool: args.ptr, min_bytes_to_keep: args.size):
        rt.mem_pools.trim_to(mem_pool, min_bytes_to_keep)

    # ----- many copies in one call (not in pyACL) -----------------------------------------
    @acl_call("rt.memcpy_batch")
    def memcpy_batch(self, rt, dsts: args.handles, dest_maxs: args.handles,
                     srcs: args.handles, sizes: args.handles, attrs, attrs_indexes: args.handles):
        return batch_copy.memcpy_batch(rt, dsts, dest_maxs, srcs, sizes, attrs, attrs_indexes)

    # ----- a host function as a task of a stream (not in pyACL) ---------------------------
    @acl_call("rt.launch_host_func")
    def launch_host_func(self, rt, stream: args.ptr, fn: args.function, args):  # noqa: A002
        host_funcs.launch(rt, stream, fn, args)
