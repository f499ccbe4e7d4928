"""``acl.rt``'s virtual memory management, pointer attributes and host registration
(hicann/runtime include/external/acl/acl_rt.h; pyACL's wrappers in
python/pyACL/rt/rt_memory.cpp: an out-parameter comes back before ret).
"""
from acl_lab.spec.prototypes.row import Prototype as P

#: what pyACL's pointer_get_attributes gives when the call fails: its zeroed struct
_NO_ATTRIBUTES = {"location": {"id": 0, "type": 0}, "page_size": 0, "rsv": [0, 0, 0, 0]}

ROWS = {
    "rt.mem_get_allocation_granularity": P(
        "aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop, "
        "aclrtMemGranularityOptions option, size_t *granularity)", "granularity, ret"),
    "rt.reserve_mem_address": P("aclError aclrtReserveMemAddress(void **virPtr, size_t size, "
                                "size_t alignment, void *expectPtr, uint64_t flags)",
                                "vir_ptr, ret"),
    "rt.release_mem_address": P("aclError aclrtReleaseMemAddress(void *virPtr)", "ret"),
    "rt.malloc_physical": P("aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, "
                            "size_t size, const aclrtPhysicalMemProp *prop, uint64_t flags)",
                            "handle, ret"),
    "rt.free_physical": P("aclError aclrtFreePhysical(aclrtDrvMemHandle handle)", "ret"),
    "rt.map_mem": P("aclError aclrtMapMem(void *virPtr, size_t size, size_t offset, "
                    "aclrtDrvMemHandle handle, uint64_t flags)", "ret"),
    "rt.unmap_mem": P("aclError aclrtUnmapMem(void *virPtr)", "ret"),
    "rt.mem_export_to_shareable_handle": P(
        "aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, "
        "aclrtMemHandleType handleType, uint64_t flags, uint64_t *shareableHandle)",
        "shareable_handle, ret"),
    "rt.mem_import_from_shareable_handle": P(
        "aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, "
        "int32_t deviceId, aclrtDrvMemHandle *handle)", "handle, ret"),
    "rt.mem_set_pid_to_shareable_handle": P(
        "aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t *pid, "
        "size_t pidNum)", "ret"),
    "rt.device_get_bare_tgid": P("aclError aclrtDeviceGetBareTgid(int32_t *pid)", "pid, ret"),
    "rt.pointer_get_attributes": P("aclError aclrtPointerGetAttributes(const void *ptr, "
                                   "aclrtPtrAttributes *attributes)", "attributes, ret",
                                   (_NO_ATTRIBUTES,)),
    "rt.host_register": P("aclError aclrtHostRegister(void *ptr, uint64_t size, "
                          "aclrtHostRegisterType type, void **devPtr)", "dev_ptr, ret"),
    "rt.host_unregister": P("aclError aclrtHostUnregister(void *ptr)", "ret"),
    "rt.host_register_v2": P("aclError aclrtHostRegisterV2(void *ptr, uint64_t size, "
                             "uint32_t flag)", "ret"),
    "rt.host_get_device_pointer": P("aclError aclrtHostGetDevicePointer(void *pHost, "
                                    "void **pDevice, uint32_t flag)", "p_device, ret"),
    # stream-ordered pools (acl_rt_memory_soma.h): not in pyACL, the kit's convention
    "rt.mem_pool_create": P("aclError aclrtMemPoolCreate(aclrtMemPool *memPool, "
                            "const aclrtMemPoolProps *poolProps)", "mem_pool, ret"),
    "rt.mem_pool_destroy": P("aclError aclrtMemPoolDestroy(const aclrtMemPool memPool)", "ret"),
    "rt.mem_pool_set_attr": P("aclError aclrtMemPoolSetAttr(aclrtMemPool memPool, "
                              "aclrtMemPoolAttr attr, void *value)", "ret"),
    "rt.mem_pool_get_attr": P("aclError aclrtMemPoolGetAttr(aclrtMemPool memPool, "
                              "aclrtMemPoolAttr attr, void *value)", "value, ret"),
    "rt.mem_pool_malloc_async": P("aclError aclrtMemPoolMallocAsync(void **ptr, size_t size, "
                                  "aclrtMemPool memPool, aclrtStream stream)", "ptr, ret"),
    "rt.mem_pool_free_async": P("aclError aclrtMemPoolFreeAsync(void *ptr, aclrtStream stream)",
                                "ret"),
    # many copies in one call: failIndex names the copy to blame (SIZE_MAX when none is)
    "rt.memcpy_batch": P("aclError aclrtMemcpyBatch(void **dsts, size_t *destMaxs, void **srcs, "
                         "size_t *sizes, size_t numBatches, aclrtMemcpyBatchAttr *attrs, "
                         "size_t *attrsIndexes, size_t numAttrs, size_t *failIndex)",
                         "fail_index, ret", ((1 << 64) - 1,)),
    # a host function as a task of a stream (acl_rt.h; not in pyACL)
    "rt.launch_host_func": P("aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, "
                             "void *args)", "ret"),
    "rt.mem_pool_trim_to": P("aclError aclrtMemPoolTrimTo(aclrtMemPool memPool, "
                             "size_t minBytesToKeep)", "ret"),
}
