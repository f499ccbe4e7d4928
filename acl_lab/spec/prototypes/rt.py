"""``acl.rt``: hicann/runtime ``include/external/acl/acl_rt.h``.
"""
from acl_lab import constants as C
from acl_lab.spec.prototypes.row import Prototype as P

ROWS = {
    "rt.set_device": P("aclError aclrtSetDevice(int32_t deviceId)", "ret"),
    "rt.reset_device": P("aclError aclrtResetDevice(int32_t deviceId)", "ret"),
    "rt.reset_device_force": P("aclError aclrtResetDeviceForce(int32_t deviceId)", "ret"),
    "rt.get_device": P("aclError aclrtGetDevice(int32_t *deviceId)", "device_id, ret"),
    "rt.get_device_count": P("aclError aclrtGetDeviceCount(uint32_t *count)", "count, ret"),
    "rt.get_run_mode": P("aclError aclrtGetRunMode(aclrtRunMode *runMode)", "run_mode, ret"),
    "rt.create_context": P("aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId)",
                           "context, ret"),
    "rt.destroy_context": P("aclError aclrtDestroyContext(aclrtContext context)", "ret"),
    "rt.set_context": P("aclError aclrtSetCurrentContext(aclrtContext context)", "ret"),
    "rt.get_context": P("aclError aclrtGetCurrentContext(aclrtContext *context)", "context, ret"),
    "rt.create_stream": P("aclError aclrtCreateStream(aclrtStream *stream)", "stream, ret"),
    "rt.create_stream_with_config": P("aclError aclrtCreateStreamWithConfig(aclrtStream *stream, "
                                      "uint32_t priority, uint32_t flag)", "stream, ret"),
    "rt.destroy_stream": P("aclError aclrtDestroyStream(aclrtStream stream)", "ret"),
    "rt.destroy_stream_force": P("aclError aclrtDestroyStreamForce(aclrtStream stream)", "ret"),
    "rt.synchronize_stream": P("aclError aclrtSynchronizeStream(aclrtStream stream)", "ret"),
    "rt.synchronize_stream_with_timeout": P("aclError aclrtSynchronizeStreamWithTimeout("
                                            "aclrtStream stream, int32_t timeout)", "ret"),
    "rt.stream_query": P("aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status)",
                         "status, ret", (C.ACL_STREAM_STATUS_RESERVED,)),
    "rt.set_stream_failure_mode": P("aclError aclrtSetStreamFailureMode(aclrtStream stream, "
                                    "uint64_t mode)", "ret"),
    "rt.synchronize_device": P("aclError aclrtSynchronizeDevice(void)", "ret"),
    "rt.create_event": P("aclError aclrtCreateEvent(aclrtEvent *event)", "event, ret"),
    "rt.create_event_with_flag": P("aclError aclrtCreateEventWithFlag(aclrtEvent *event, "
                                   "uint32_t flag)", "event, ret"),
    "rt.create_event_ex_with_flag": P("aclError aclrtCreateEventExWithFlag(aclrtEvent *event, "
                                      "uint32_t flag)", "event, ret"),
    "rt.destroy_event": P("aclError aclrtDestroyEvent(aclrtEvent event)", "ret"),
    "rt.record_event": P("aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream)", "ret"),
    "rt.reset_event": P("aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream)", "ret"),
    "rt.stream_wait_event": P("aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event)",
                              "ret"),
    "rt.synchronize_event": P("aclError aclrtSynchronizeEvent(aclrtEvent event)", "ret"),
    "rt.synchronize_event_with_timeout": P("aclError aclrtSynchronizeEventWithTimeout("
                                           "aclrtEvent event, int32_t timeout)", "ret"),
    "rt.query_event_status": P("aclError aclrtQueryEventStatus(aclrtEvent event, "
                               "aclrtEventRecordedStatus *status)", "status, ret"),
    "rt.event_elapsed_time": P("aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, "
                               "aclrtEvent endEvent)", "ms, ret", (0.0,)),
    "rt.event_get_timestamp": P("aclError aclrtEventGetTimestamp(aclrtEvent event, "
                                "uint64_t *timestamp)", "timestamp, ret"),
    "rt.malloc": P("aclError aclrtMalloc(void **devPtr, size_t size, "
                   "aclrtMemMallocPolicy policy)", "dev_ptr, ret"),
    "rt.malloc_align32": P("aclError aclrtMallocAlign32(void **devPtr, size_t size, "
                           "aclrtMemMallocPolicy policy)", "dev_ptr, ret"),
    "rt.malloc_cached": P("aclError aclrtMallocCached(void **devPtr, size_t size, "
                          "aclrtMemMallocPolicy policy)", "dev_ptr, ret"),
    "rt.free": P("aclError aclrtFree(void *devPtr)", "ret"),
    "rt.malloc_host": P("aclError aclrtMallocHost(void **hostPtr, size_t size)", "host_ptr, ret"),
    "rt.free_host": P("aclError aclrtFreeHost(void *hostPtr)", "ret"),
    "rt.get_mem_info": P("aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total)",
                         "free, total, ret"),
    "rt.memset": P("aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, "
                   "size_t count)", "ret"),
    "rt.memset_async": P("aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, "
                         "size_t count, aclrtStream stream)", "ret"),
    "rt.memcpy": P("aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, "
                   "aclrtMemcpyKind kind)", "ret"),
    "rt.memcpy_async": P("aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, "
                         "size_t count, aclrtMemcpyKind kind, aclrtStream stream)", "ret"),
    "rt.memcpy2d": P("aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, "
                     "size_t spitch, size_t width, size_t height, aclrtMemcpyKind kind)", "ret"),
    "rt.memcpy2d_async": P("aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src, "
                           "size_t spitch, size_t width, size_t height, aclrtMemcpyKind kind, "
                           "aclrtStream stream)", "ret"),
    "rt.peek_at_last_error": P("aclError aclrtPeekAtLastError(aclrtLastErrLevel level)", "ret"),
    "rt.get_last_error": P("aclError aclrtGetLastError(aclrtLastErrLevel level)", "ret"),
    "rt.device_can_access_peer": P("aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, "
                                   "int32_t deviceId, int32_t peerDeviceId)",
                                   "can_access_peer, ret"),
    "rt.device_enable_peer_access": P("aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, "
                                      "uint32_t flags)", "ret"),
    "rt.device_disable_peer_access": P("aclError aclrtDeviceDisablePeerAccess("
                                       "int32_t peerDeviceId)", "ret"),
    "rt.subscribe_report": P("aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream)",
                             "ret"),
    "rt.unsubscribe_report": P("aclError aclrtUnSubscribeReport(uint64_t threadId, "
                               "aclrtStream stream)", "ret"),
    "rt.launch_callback": P("aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, "
                            "aclrtCallbackBlockType blockType, aclrtStream stream)", "ret"),
    "rt.process_report": P("aclError aclrtProcessReport(int32_t timeout)", "ret"),
}
