"""``acl.rt``'s further memory calls: allocation with a configuration, cache maintenance,
built-in device tasks, copy descriptors, external allocator descriptors and IPC memory
(hicann/runtime include/external/acl/acl_rt.h and acl_rt_allocator.h; pyACL's wrappers in
python/pyACL/rt/rt_memory.cpp, rt_allocator.cpp and rt_synchronize.cpp).
"""
from acl_lab.spec.prototypes.row import Prototype as P

_SET_FUNC = "aclError aclrtAllocatorSet{kind}FuncToDesc(aclrtAllocatorDesc allocatorDesc, " \
            "aclrtAllocator{kind}Func func)"

ROWS = {
    "rt.malloc_with_cfg": P("aclError aclrtMallocWithCfg(void **devPtr, size_t size, "
                            "aclrtMemMallocPolicy policy, aclrtMallocConfig *cfg)",
                            "dev_ptr, ret"),
    "rt.malloc_for_task_scheduler": P("aclError aclrtMallocForTaskScheduler(void **devPtr, "
                                      "size_t size, aclrtMemMallocPolicy policy, "
                                      "aclrtMallocConfig *cfg)", "dev_ptr, ret"),
    "rt.malloc_host_with_cfg": P("aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size, "
                                 "aclrtMallocConfig *cfg)", "host_ptr, ret"),
    "rt.mem_flush": P("aclError aclrtMemFlush(void *devPtr, size_t size)", "ret"),
    "rt.mem_invalidate": P("aclError aclrtMemInvalidate(void *devPtr, size_t size)", "ret"),
    "rt.cmo_async": P("aclError aclrtCmoAsync(void *src, size_t size, aclrtCmoType cmoType, "
                      "aclrtStream stream)", "ret"),
    "rt.reduce_async": P("aclError aclrtReduceAsync(void *dst, const void *src, uint64_t count, "
                         "aclrtReduceKind kind, aclDataType type, aclrtStream stream, "
                         "void *reserve)", "ret"),
    "rt.value_write": P("aclError aclrtValueWrite(void *devAddr, uint64_t value, uint32_t flag, "
                        "aclrtStream stream)", "ret"),
    "rt.value_wait": P("aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag, "
                       "aclrtStream stream)", "ret"),
    "rt.get_memcpy_desc_size": P("aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, "
                                 "size_t *descSize)", "desc_size, ret"),
    # pyACL returns the descriptor's address it was given, before ret
    "rt.set_memcpy_desc": P("aclError aclrtSetMemcpyDesc(void *desc, aclrtMemcpyKind kind, "
                            "void *srcAddr, void *dstAddr, size_t count, void *config)",
                            "desc, ret"),
    "rt.memcpy_async_with_desc": P("aclError aclrtMemcpyAsyncWithDesc(void *desc, "
                                   "aclrtMemcpyKind kind, aclrtStream stream)", "ret"),
    "rt.memcpy_async_with_condition": P("aclError aclrtMemcpyAsyncWithCondition(void *dst, "
                                        "size_t destMax, const void *src, size_t count, "
                                        "aclrtMemcpyKind kind, aclrtStream stream)", "ret"),
    "rt.allocator_create_desc": P("aclrtAllocatorDesc aclrtAllocatorCreateDesc()",
                                  "allocator_desc"),
    "rt.allocator_destroy_desc": P("aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc "
                                   "allocatorDesc)", "ret"),
    "rt.allocator_set_obj_to_desc": P("aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc "
                                      "allocatorDesc, aclrtAllocator allocator)", "ret"),
    "rt.allocator_set_alloc_func_to_desc": P(_SET_FUNC.format(kind="Alloc"), "ret"),
    "rt.allocator_set_free_func_to_desc": P(_SET_FUNC.format(kind="Free"), "ret"),
    "rt.allocator_set_alloc_advise_func_to_desc": P(_SET_FUNC.format(kind="AllocAdvise"), "ret"),
    "rt.allocator_set_get_addr_from_block_func_to_desc": P(
        _SET_FUNC.format(kind="GetAddrFromBlock"), "ret"),
    "rt.allocator_register": P("aclError aclrtAllocatorRegister(aclrtStream stream, "
                               "aclrtAllocatorDesc allocatorDesc)", "ret"),
    "rt.allocator_unregister": P("aclError aclrtAllocatorUnregister(aclrtStream stream)", "ret"),
    # pyACL returns the key buffer it zero-filled, so a failure gives ""
    "rt.ipc_mem_get_export_key": P("aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size, "
                                   "char *key, size_t len, uint64_t flags)", "key, ret", ("",)),
    "rt.ipc_mem_set_import_pid": P("aclError aclrtIpcMemSetImportPid(const char *key, "
                                   "int32_t *pid, size_t num)", "ret"),
    "rt.ipc_mem_import_by_key": P("aclError aclrtIpcMemImportByKey(void **devPtr, "
                                  "const char *key, uint64_t flags)", "dev_ptr, ret"),
    "rt.ipc_mem_close": P("aclError aclrtIpcMemClose(const char *key)", "ret"),
}
