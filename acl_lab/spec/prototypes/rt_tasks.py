"""``acl.rt``: what streams, events and notifies tell and accept beyond the basics (ids,
counts, attributes, overflow status, abort, resource limits per stream and thread), and the
exception information a failed task reports (hicann/runtime ``include/external/acl/acl_rt.h``).
Return shapes follow pyACL's wrappers (``python/pyACL/rt/rt_stream.cpp``, ``rt_context.cpp``,
``rt_synchronize.cpp``, ``rt_notify.cpp``).
"""
from acl_lab.spec.prototypes.row import Prototype as P

#: aclrtGetErrorCodeFromExceptionInfo and its siblings return (uint32_t)ACL_ERROR_INVALID_EXCEPTION_INFO
#: for a NULL info (src/acl/aclrt_impl/callback.cpp)
NO_INFO = (0xFFFF_FFFF,)

#: the key pyACL names an aclrtStreamAttrValue by, per aclrtStreamAttr (rt_stream.cpp
#: GetPyUnionFromStreamAttrValue); any other attribute reads the union as "reserved"
STREAM_ATTR_KEYS = {1: "failureMode", 2: "overflowSwitch", 3: "userCustomTag"}


def stream_attr_value(attr, value: int = 0) -> dict:
    """The dict pyACL builds for attribute ``attr`` holding ``value``."""
    key = STREAM_ATTR_KEYS.get(attr) if isinstance(attr, int) else None
    return {key: value} if key else {"reserved": [value, 0, 0, 0]}


def _attr_failure(stream=None, stm_attr_type=None, *_rest):
    """A failed aclrtGetStreamAttribute still returns the zeroed union, keyed as asked."""
    return (stream_attr_value(stm_attr_type),)


ROWS = {
    # ----- streams ----------------------------------------------------------------------
    "rt.stream_get_id": P("aclError aclrtStreamGetId(aclrtStream stream, int32_t *streamId)",
                          "stream_id, ret"),
    "rt.get_stream_available_num": P("aclError aclrtGetStreamAvailableNum(uint32_t *streamCount)",
                                     "stream_count, ret"),
    "rt.set_stream_attribute": P("aclError aclrtSetStreamAttribute(aclrtStream stream, "
                                 "aclrtStreamAttr stmAttrType, aclrtStreamAttrValue *value)", "ret"),
    "rt.get_stream_attribute": P("aclError aclrtGetStreamAttribute(aclrtStream stream, "
                                 "aclrtStreamAttr stmAttrType, aclrtStreamAttrValue *value)",
                                 "value, ret", _attr_failure),
    "rt.set_stream_overflow_switch": P("aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, "
                                       "uint32_t flag)", "ret"),
    "rt.get_stream_overflow_switch": P("aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, "
                                       "uint32_t *flag)", "flag, ret"),
    "rt.get_overflow_status": P("aclError aclrtGetOverflowStatus(void *outputAddr, "
                                "size_t outputSize, aclrtStream stream)", "ret"),
    "rt.reset_overflow_status": P("aclError aclrtResetOverflowStatus(aclrtStream stream)", "ret"),
    "rt.stream_abort": P("aclError aclrtStreamAbort(aclrtStream stream)", "ret"),
    "rt.get_stream_res_limit": P("aclError aclrtGetStreamResLimit(aclrtStream stream, "
                                 "aclrtDevResLimitType type, uint32_t *value)", "value, ret"),
    "rt.set_stream_res_limit": P("aclError aclrtSetStreamResLimit(aclrtStream stream, "
                                 "aclrtDevResLimitType type, uint32_t value)", "ret"),
    "rt.reset_stream_res_limit": P("aclError aclrtResetStreamResLimit(aclrtStream stream)", "ret"),
    "rt.use_stream_res_in_current_thread": P("aclError aclrtUseStreamResInCurrentThread("
                                             "aclrtStream stream)", "ret"),
    "rt.unuse_stream_res_in_current_thread": P("aclError aclrtUnuseStreamResInCurrentThread("
                                               "aclrtStream stream)", "ret"),
    "rt.get_res_in_current_thread": P("aclError aclrtGetResInCurrentThread("
                                      "aclrtDevResLimitType type, uint32_t *value)", "value, ret"),
    "rt.get_thread_last_task_id": P("aclError aclrtGetThreadLastTaskId(uint32_t *taskId)",
                                    "task_id, ret"),
    # ----- events -----------------------------------------------------------------------
    "rt.query_event": P("aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status)",
                        "status, ret"),
    "rt.query_event_wait_status": P("aclError aclrtQueryEventWaitStatus(aclrtEvent event, "
                                    "aclrtEventWaitStatus *status)", "status, ret"),
    "rt.get_event_id": P("aclError aclrtGetEventId(aclrtEvent event, uint32_t *eventId)",
                         "event_id, ret"),
    "rt.get_event_avail_num": P("aclError aclrtGetEventAvailNum(uint32_t *eventCount)",
                                "event_count, ret"),
    # ----- notifies ---------------------------------------------------------------------
    "rt.create_notify": P("aclError aclrtCreateNotify(aclrtNotify *notify, uint64_t flag)",
                          "notify, ret"),
    "rt.destroy_notify": P("aclError aclrtDestroyNotify(aclrtNotify notify)", "ret"),
    "rt.record_notify": P("aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream)",
                          "ret"),
    "rt.wait_and_reset_notify": P("aclError aclrtWaitAndResetNotify(aclrtNotify notify, "
                                  "aclrtStream stream, uint32_t timeout)", "ret"),
    "rt.get_notify_id": P("aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t *notifyId)",
                          "notify_id, ret"),
    "rt.notify_batch_reset": P("aclError aclrtNotifyBatchReset(aclrtNotify *notifies, "
                               "size_t num)", "ret"),
    "rt.notify_get_export_key": P("aclError aclrtNotifyGetExportKey(aclrtNotify notify, "
                                  "char *key, size_t len, uint64_t flags)", "key, ret", ("",)),
    "rt.notify_set_import_pid": P("aclError aclrtNotifySetImportPid(aclrtNotify notify, "
                                  "int32_t *pid, size_t num)", "ret"),
    "rt.notify_import_by_key": P("aclError aclrtNotifyImportByKey(aclrtNotify *notify, "
                                 "const char *key, uint64_t flags)", "notify, ret"),
    # ----- the information a failed task reports ----------------------------------------
    "rt.set_exception_info_callback": P("aclError aclrtSetExceptionInfoCallback("
                                        "aclrtExceptionInfoCallback callback)", "ret"),
    "rt.get_error_code_from_exception_info": P("uint32_t aclrtGetErrorCodeFromExceptionInfo("
                                               "const aclrtExceptionInfo *info)", "error_code",
                                               NO_INFO),
    "rt.get_task_id_from_exception_info": P("uint32_t aclrtGetTaskIdFromExceptionInfo("
                                            "const aclrtExceptionInfo *info)", "task_id", NO_INFO),
    "rt.get_stream_id_from_exception_info": P("uint32_t aclrtGetStreamIdFromExceptionInfo("
                                              "const aclrtExceptionInfo *info)", "stream_id",
                                              NO_INFO),
    "rt.get_thread_id_from_exception_info": P("uint32_t aclrtGetThreadIdFromExceptionInfo("
                                              "const aclrtExceptionInfo *info)", "thread_id",
                                              NO_INFO),
    "rt.get_device_id_from_exception_info": P("uint32_t aclrtGetDeviceIdFromExceptionInfo("
                                              "const aclrtExceptionInfo *info)", "device_id",
                                              NO_INFO),
}
