"""``acl.rt``: devices, contexts, streams, events, memory, memset / memcpy, host callbacks,
events with flags and waits with time limits, the last error, peer access
(hicann/runtime include/external/acl/acl_rt.h)."""
from acl_lab import constants as C
from acl_lab.errors import as_int
from acl_lab.sim import transfer, waits
from acl_lab.sim.facade._call import Namespace, acl_call
from acl_lab.sim.facade.rt_devices import RtDevices
from acl_lab.sim.facade.rt_kernels import RtKernels
from acl_lab.sim.facade.rt_memory_extras import RtMemoryExtras
from acl_lab.sim.facade.rt_memory import RtMemory
from acl_lab.sim.facade.rt_tasks import RtTasks
from acl_lab.sim.facade.rt_vmm_access import RtVmmAccess
from acl_lab.spec import args


class Rt(RtKernels, RtMemoryExtras, RtMemory, RtVmmAccess, RtDevices, RtTasks, Namespace):
    """acl.rt"""

    # ----- devices and contexts ---------------------------------------------------------
    @acl_call("rt.set_device")
    def set_device(self, rt, device_id: args.i64):
        rt.set_device(device_id)

    @acl_call("rt.reset_device")
    def reset_device(self, rt, device_id: args.i64):
        rt.reset_device(device_id)

    @acl_call("rt.reset_device_force")
    def reset_device_force(self, rt, device_id: args.i64):
        rt.reset_device_force(device_id)

    @acl_call("rt.get_device")
    def get_device(self, rt):
        return rt.require_ctx("aclrtGetDevice").device

    @acl_call("rt.get_device_count")
    def get_device_count(self, rt):
        return rt.profile.device_count

    @acl_call("rt.get_run_mode")
    def get_run_mode(self, rt):
        return rt.profile.run_mode

    @acl_call("rt.create_context")
    def create_context(self, rt, device_id: args.i64):
        return rt.create_context(device_id)

    @acl_call("rt.destroy_context")
    def destroy_context(self, rt, context: args.ptr):
        rt.destroy_context(context)

    @acl_call("rt.set_context")
    def set_context(self, rt, context: args.ptr):
        rt.set_context(context)

    @acl_call("rt.get_context")
    def get_context(self, rt):
        return rt.require_ctx("aclrtGetCurrentContext").handle

    # ----- streams ----------------------------------------------------------------------
    @acl_call("rt.create_stream")
    def create_stream(self, rt):
        return rt.create_stream()

    @acl_call("rt.create_stream_with_config")
    def create_stream_with_config(self, rt, priority: args.u32, flag: args.u32):
        return waits.create_stream(rt, priority, flag)

    @acl_call("rt.destroy_stream")
    def destroy_stream(self, rt, stream: args.ptr):
        rt.destroy_stream(stream)

    @acl_call("rt.destroy_stream_force")
    def destroy_stream_force(self, rt, stream: args.ptr):
        rt.destroy_stream(stream, force=True)

    @acl_call("rt.synchronize_stream")
    def synchronize_stream(self, rt, stream: args.ptr):
        rt.synchronize_stream(stream)

    @acl_call("rt.synchronize_stream_with_timeout")
    def synchronize_stream_with_timeout(self, rt, stream: args.ptr, timeout: args.i32):
        waits.synchronize_stream(rt, stream, timeout)

    @acl_call("rt.stream_query")
    def stream_query(self, rt, stream: args.ptr):
        return waits.stream_query(rt, stream)

    @acl_call("rt.set_stream_failure_mode")
    def set_stream_failure_mode(self, rt, stream: args.ptr, mode: args.u64):
        waits.set_failure_mode(rt, stream, mode)

    @acl_call("rt.synchronize_device")
    def synchronize_device(self, rt):
        rt.synchronize_device()

    # ----- events -----------------------------------------------------------------------
    @acl_call("rt.create_event")
    def create_event(self, rt):
        return rt.create_event()

    @acl_call("rt.create_event_with_flag")
    def create_event_with_flag(self, rt, flag: args.u32):
        return waits.create_event(rt, flag, ex=False)

    @acl_call("rt.create_event_ex_with_flag")
    def create_event_ex_with_flag(self, rt, flag: args.u32):
        return waits.create_event(rt, flag, ex=True)

    @acl_call("rt.destroy_event")
    def destroy_event(self, rt, event: args.ptr):
        rt.destroy_event(event)

    @acl_call("rt.record_event")
    def record_event(self, rt, event: args.ptr, stream: args.ptr):
        rt.record_event(event, stream)

    @acl_call("rt.reset_event")
    def reset_event(self, rt, event: args.ptr, stream: args.ptr):
        waits.reset_event(rt, event, stream)

    @acl_call("rt.stream_wait_event")
    def stream_wait_event(self, rt, stream: args.ptr, event: args.ptr):
        rt.stream_wait_event(stream, event)

    @acl_call("rt.synchronize_event")
    def synchronize_event(self, rt, event: args.ptr):
        rt.synchronize_event(event)

    @acl_call("rt.synchronize_event_with_timeout")
    def synchronize_event_with_timeout(self, rt, event: args.ptr, timeout: args.i32):
        waits.synchronize_event(rt, event, timeout)

    @acl_call("rt.query_event_status")
    def query_event_status(self, rt, event: args.ptr):
        return rt.query_event(event)

    @acl_call("rt.event_elapsed_time")
    def event_elapsed_time(self, rt, start: args.ptr, end: args.ptr):
        return rt.elapsed_ms(start, end)

    @acl_call("rt.event_get_timestamp")
    def event_get_timestamp(self, rt, event: args.ptr):
        return waits.event_timestamp_us(rt, event)

    # ----- memory -----------------------------------------------------------------------
    @acl_call("rt.malloc")
    def malloc(self, rt, size: args.size, policy: args.i64):
        return rt.malloc(size, policy, "malloc")

    @acl_call("rt.malloc_align32")
    def malloc_align32(self, rt, size: args.size, policy: args.i64):
        return rt.malloc(size, policy, "malloc_align32")

    @acl_call("rt.malloc_cached")
    def malloc_cached(self, rt, size: args.size, policy: args.i64):
        return rt.malloc(size, policy, "malloc_cached")

    @acl_call("rt.free")
    def free(self, rt, dev_ptr: args.ptr):
        rt.free(dev_ptr, "free")

    @acl_call("rt.malloc_host")
    def malloc_host(self, rt, size: args.size):
        return rt.malloc_host(size)

    @acl_call("rt.free_host")
    def free_host(self, rt, host_ptr: args.ptr):
        rt.free(host_ptr, "free_host")

    @acl_call("rt.get_mem_info")
    def get_mem_info(self, rt, attr: args.i64):
        return rt.mem_info(attr)

    # ----- memset and memcpy ------------------------------------------------------------
    @acl_call("rt.memset")
    def memset(self, rt, dev_ptr: args.ptr, max_count: args.size, value: args.i64,
               count: args.size):
        transfer.memset(rt, dev_ptr, max_count, value, count)

    @acl_call("rt.memset_async")
    def memset_async(self, rt, dev_ptr: args.ptr, max_count: args.size, value: args.i64,
                     count: args.size, stream: args.ptr):
        transfer.memset(rt, dev_ptr, max_count, value, count, stream)

    @acl_call("rt.memcpy")
    def memcpy(self, rt, dst: args.ptr, dest_max: args.size, src: args.ptr, count: args.size,
               kind: args.i64):
        transfer.memcpy(rt, dst, dest_max, src, count, kind)

    @acl_call("rt.memcpy_async")
    def memcpy_async(self, rt, dst: args.ptr, dest_max: args.size, src: args.ptr,
                     count: args.size, kind: args.i64, stream: args.ptr):
        transfer.memcpy(rt, dst, dest_max, src, count, kind, stream)

    @acl_call("rt.memcpy2d")
    def memcpy2d(self, rt, dst: args.ptr, dpitch: args.size, src: args.ptr,
                 spitch: args.size, width: args.size, height: args.size, kind: args.i64):
        transfer.memcpy2d(rt, dst, dpitch, src, spitch, width, height, kind)

    @acl_call("rt.memcpy2d_async")
    def memcpy2d_async(self, rt, dst: args.ptr, dpitch: args.size, src: args.ptr,
                       spitch: args.size, width: args.size, height: args.size,
                       kind: args.i64, stream: args.ptr):
        transfer.memcpy2d(rt, dst, dpitch, src, spitch, width, height, kind, stream)

    # ----- host callbacks (sim/callbacks.py) --------------------------------------------
    @acl_call("rt.subscribe_report")
    def subscribe_report(self, rt, thread_id: args.size, stream: args.ptr):
        rt.callbacks.subscribe(thread_id, stream)

    @acl_call("rt.unsubscribe_report")
    def unsubscribe_report(self, rt, thread_id: args.size, stream: args.ptr):
        rt.callbacks.unsubscribe(thread_id, stream)

    @acl_call("rt.launch_callback")
    def launch_callback(self, rt, fn: args.function, user_data, block_type: args.i64,
                        stream: args.ptr):
        rt.callbacks.launch(fn, user_data, block_type, stream)

    @acl_call("rt.process_report", locked=False)
    def process_report(self, rt, timeout: args.i64):
        """Run the next callback for this thread; the function runs without the simulator's
        lock, so it may call any acl function (as callbacks do: copy results, post-process)."""
        with rt.lock:
            report = rt.callbacks.next_report(timeout)
        try:
            report.run()
        finally:
            with rt.lock:
                rt.callbacks.finished(report)

    # ----- the last error (context.cpp: only ACL_RT_THREAD_LEVEL is accepted) -----------
    def peek_at_last_error(self, level):
        """This thread's last failure code, kept (aclrtPeekAtLastError); returns ret only."""
        return self._last_error(level, "aclrtPeekAtLastError", clear=False)

    def get_last_error(self, level):
        """This thread's last failure code, then cleared (aclrtGetLastError)."""
        return self._last_error(level, "aclrtGetLastError", clear=True)

    def _last_error(self, level, call: str, clear: bool) -> int:
        if as_int(call, "level", level) != C.ACL_RT_THREAD_LEVEL:   # ACL_REQUIRES_PARAM_EQUAL
            return C.ACL_ERROR_INVALID_PARAM
        rt = self._sim.rt
        with rt.lock:
            code = rt.last_code
            if clear:
                rt.last_code = C.ACL_SUCCESS
            return code

    # ----- peer access ------------------------------------------------------------------
    @acl_call("rt.device_can_access_peer")
    def device_can_access_peer(self, rt, device_id: args.i32, peer_device_id: args.i32):
        return rt.peer.can_access(device_id, peer_device_id)

    @acl_call("rt.device_enable_peer_access")
    def device_enable_peer_access(self, rt, peer_device_id: args.i32, flags: args.u32):
        rt.peer.enable(peer_device_id, flags)

    @acl_call("rt.device_disable_peer_access")
    def device_disable_peer_access(self, rt, peer_device_id: args.i32):
        rt.peer.disable(peer_device_id)
