"""``acl.rt``: streams, events and notifies beyond the basics, and the exception information
of a failed task. Argument formats follow pyACL's wrappers (python/pyACL/rt/rt_stream.cpp,
rt_context.cpp, rt_synchronize.cpp, rt_notify.cpp)."""
from acl_lab.sim import stream_queries
from acl_lab.sim.facade._call import acl_call
from acl_lab.sim.runtime_settings import stream_id
from acl_lab.spec import args


class RtTasks:
    """acl.rt: what streams, events and notifies tell and accept beyond the basics."""

    # ----- streams ----------------------------------------------------------------------
    @acl_call("rt.stream_get_id")
    def stream_get_id(self, rt, stream: args.ptr):
        return stream_id(rt.stream(stream, "aclrtStreamGetId", other_device_ok=True))

    @acl_call("rt.get_stream_available_num")
    def get_stream_available_num(self, rt):
        return stream_queries.available_streams(rt)

    @acl_call("rt.set_stream_attribute")
    def set_stream_attribute(self, rt, stream: args.ptr, stm_attr_type: args.i32, value):
        rt.settings.set_attribute(stream, stm_attr_type, value)

    @acl_call("rt.get_stream_attribute")
    def get_stream_attribute(self, rt, stream: args.ptr, stm_attr_type: args.i32):
        return rt.settings.attribute(stream, stm_attr_type)

    @acl_call("rt.set_stream_overflow_switch")
    def set_stream_overflow_switch(self, rt, stream: args.ptr, flag: args.u32):
        rt.settings.set_overflow_switch(stream, flag, "aclrtSetStreamOverflowSwitch")

    @acl_call("rt.get_stream_overflow_switch")
    def get_stream_overflow_switch(self, rt, stream: args.ptr):
        return rt.settings.overflow_switch(stream, "aclrtGetStreamOverflowSwitch")

    @acl_call("rt.get_overflow_status")
    def get_overflow_status(self, rt, output_addr: args.ptr, output_size: args.size,
                            stream: args.ptr):
        stream_queries.get_overflow_status(rt, output_addr, output_size, stream)

    @acl_call("rt.reset_overflow_status")
    def reset_overflow_status(self, rt, stream: args.ptr):
        stream_queries.reset_overflow_status(rt, stream)

    @acl_call("rt.stream_abort")
    def stream_abort(self, rt, stream: args.ptr):
        stream_queries.stream_abort(rt, stream)

    @acl_call("rt.get_stream_res_limit")
    def get_stream_res_limit(self, rt, stream: args.ptr, type: args.i32):
        return rt.settings.stream_limit(rt.stream(stream, "aclrtGetStreamResLimit"), type)

    @acl_call("rt.set_stream_res_limit")
    def set_stream_res_limit(self, rt, stream: args.ptr, type: args.i32, value: args.u32):
        rt.settings.set_stream_limit(rt.stream(stream, "aclrtSetStreamResLimit"), type, value)

    @acl_call("rt.reset_stream_res_limit")
    def reset_stream_res_limit(self, rt, stream: args.ptr):
        rt.settings.reset_stream_limits(rt.stream(stream, "aclrtResetStreamResLimit"))

    @acl_call("rt.use_stream_res_in_current_thread")
    def use_stream_res_in_current_thread(self, rt, stream: args.ptr):
        s = rt.stream(stream, "aclrtUseStreamResInCurrentThread")
        rt.settings.use_stream_limits(s, use=True)

    @acl_call("rt.unuse_stream_res_in_current_thread")
    def unuse_stream_res_in_current_thread(self, rt, stream: args.ptr):
        s = rt.stream(stream, "aclrtUnuseStreamResInCurrentThread")
        rt.settings.use_stream_limits(s, use=False)

    @acl_call("rt.get_res_in_current_thread")
    def get_res_in_current_thread(self, rt, type: args.i32):
        return rt.settings.thread_limit(type)

    @acl_call("rt.get_thread_last_task_id")
    def get_thread_last_task_id(self, rt):
        return rt.task_reports.last_task_id()

    # ----- events -----------------------------------------------------------------------
    @acl_call("rt.query_event")
    def query_event(self, rt, event: args.ptr):
        return stream_queries.query_event(rt, event)

    @acl_call("rt.query_event_wait_status")
    def query_event_wait_status(self, rt, event: args.ptr):
        return stream_queries.query_wait_status(rt, event)

    @acl_call("rt.get_event_id")
    def get_event_id(self, rt, event: args.ptr):
        return stream_queries.event_id(rt, event)

    @acl_call("rt.get_event_avail_num")
    def get_event_avail_num(self, rt):
        return stream_queries.available_events(rt)

    # ----- notifies (sim/notifies.py) ---------------------------------------------------
    @acl_call("rt.create_notify")
    def create_notify(self, rt, flag: args.u64):
        return rt.notifies.create(flag)

    @acl_call("rt.destroy_notify")
    def destroy_notify(self, rt, notify: args.ptr):
        rt.notifies.destroy(notify)

    @acl_call("rt.record_notify")
    def record_notify(self, rt, notify: args.ptr, stream: args.ptr):
        rt.notifies.record(notify, stream)

    @acl_call("rt.wait_and_reset_notify")
    def wait_and_reset_notify(self, rt, notify: args.ptr, stream: args.ptr, timeout: args.i64):
        rt.notifies.wait_and_reset(notify, stream, timeout)

    @acl_call("rt.get_notify_id")
    def get_notify_id(self, rt, notify: args.ptr):
        return rt.notifies.id_of(notify)

    @acl_call("rt.notify_batch_reset")
    def notify_batch_reset(self, rt, notifies: args.handles):
        rt.notifies.batch_reset(notifies)

    @acl_call("rt.notify_get_export_key")
    def notify_get_export_key(self, rt, notify: args.ptr, len: args.size, flag: args.u64):
        return rt.notifies.export_key(notify, len, flag)

    @acl_call("rt.notify_set_import_pid")
    def notify_set_import_pid(self, rt, notify: args.ptr, pids: args.ints):
        rt.notifies.set_import_pids(notify, pids)

    @acl_call("rt.notify_import_by_key")
    def notify_import_by_key(self, rt, key: args.text, flag: args.u64):
        return rt.notifies.import_key(key, flag)

    # ----- the information a failed task reports (sim/task_reports.py) -----------------
    @acl_call("rt.set_exception_info_callback")
    def set_exception_info_callback(self, rt, fn=None):
        rt.task_reports.set_callback(fn)

    @acl_call("rt.get_error_code_from_exception_info")
    def get_error_code_from_exception_info(self, rt, info: args.ptr):
        return rt.task_reports.info(info, "aclrtGetErrorCodeFromExceptionInfo").error_code

    @acl_call("rt.get_task_id_from_exception_info")
    def get_task_id_from_exception_info(self, rt, info: args.ptr):
        return rt.task_reports.info(info, "aclrtGetTaskIdFromExceptionInfo").task_id

    @acl_call("rt.get_stream_id_from_exception_info")
    def get_stream_id_from_exception_info(self, rt, info: args.ptr):
        return rt.task_reports.info(info, "aclrtGetStreamIdFromExceptionInfo").stream_id

    @acl_call("rt.get_thread_id_from_exception_info")
    def get_thread_id_from_exception_info(self, rt, info: args.ptr):
        return rt.task_reports.info(info, "aclrtGetThreadIdFromExceptionInfo").thread_id

    @acl_call("rt.get_device_id_from_exception_info")
    def get_device_id_from_exception_info(self, rt, info: args.ptr):
        return rt.task_reports.info(info, "aclrtGetDeviceIdFromExceptionInfo").device_id
