"""``acl.rt``: device queries and settings, the contexts' default stream and system options,
resource limits, device-wide waits and aborts, operator timeouts. Argument formats follow
pyACL's wrappers (python/pyACL/rt/rt_device.cpp, rt_context.cpp, rt_synchronize.cpp)."""
from acl_lab.sim import device_queries as devices, stream_queries, waits
from acl_lab.sim.facade._call import acl_call
from acl_lab.sim.process import DEFAULT_STREAM
from acl_lab.spec import args


class RtDevices:
    """acl.rt: devices and contexts beyond set / reset / create / destroy."""

    # ----- device queries ---------------------------------------------------------------
    @acl_call("rt.get_device_info")
    def get_device_info(self, rt, device_id: args.u32, attr: args.u32):
        return devices.info(rt, device_id, attr)

    @acl_call("rt.get_device_capability")
    def get_device_capability(self, rt, device_id: args.i32, dev_feature_type: args.u32):
        return devices.capability(rt, device_id, dev_feature_type)

    @acl_call("rt.get_device_utilization_rate")
    def get_device_utilization_rate(self, rt, device_id: args.i32):
        return devices.utilization(rt, device_id)

    @acl_call("rt.query_device_status")
    def query_device_status(self, rt, device_id: args.i32):
        return devices.status(rt, device_id)

    @acl_call("rt.get_devices_topo")
    def get_devices_topo(self, rt, device_id: args.u32, other_device_id: args.u32):
        return devices.topology(rt, device_id, other_device_id)

    @acl_call("rt.device_get_stream_priority_range")
    def device_get_stream_priority_range(self, rt):
        return devices.priority_range(rt)

    @acl_call("rt.device_get_uuid")
    def device_get_uuid(self, rt, device_id: args.i32):
        return devices.uuid(rt, device_id)

    @acl_call("rt.device_peer_access_status")
    def device_peer_access_status(self, rt, device_id: args.i32, peer_device_id: args.i32):
        return devices.peer_status(rt, device_id, peer_device_id)

    @acl_call("rt.get_logic_dev_id_by_user_dev_id")
    def get_logic_dev_id_by_user_dev_id(self, rt, user_dev_id: args.i32):
        return devices.same_device(rt, user_dev_id, "aclrtGetLogicDevIdByUserDevId")

    @acl_call("rt.get_user_dev_id_by_logic_dev_id")
    def get_user_dev_id_by_logic_dev_id(self, rt, logic_dev_id: args.i32):
        return devices.same_device(rt, logic_dev_id, "aclrtGetUserDevIdByLogicDevId")

    @acl_call("rt.get_logic_dev_id_by_phy_dev_id")
    def get_logic_dev_id_by_phy_dev_id(self, rt, phy_dev_id: args.i32):
        return devices.same_device(rt, phy_dev_id, "aclrtGetLogicDevIdByPhyDevId")

    @acl_call("rt.get_phy_dev_id_by_logic_dev_id")
    def get_phy_dev_id_by_logic_dev_id(self, rt, logic_dev_id: args.i32):
        return devices.same_device(rt, logic_dev_id, "aclrtGetPhyDevIdByLogicDevId")

    @acl_call("rt.get_primary_ctx_state")
    def get_primary_ctx_state(self, rt, device_id: args.i32):
        return devices.primary_ctx_state(rt, device_id)

    # ----- device settings --------------------------------------------------------------
    @acl_call("rt.set_device_sat_mode")
    def set_device_sat_mode(self, rt, mode: args.i32):
        rt.settings.set_sat_mode(mode)

    @acl_call("rt.get_device_sat_mode")
    def get_device_sat_mode(self, rt):
        return rt.settings.sat_mode

    @acl_call("rt.set_ts_device")
    def set_ts_device(self, rt, ts_id: args.i32):
        rt.settings.set_ts(ts_id)

    @acl_call("rt.get_device_res_limit")
    def get_device_res_limit(self, rt, device_id: args.i32, type: args.u32):
        return rt.settings.device_limit(device_id, type)

    @acl_call("rt.set_device_res_limit")
    def set_device_res_limit(self, rt, device_id: args.i32, type: args.u32, value: args.u32):
        rt.settings.set_device_limit(device_id, type, value)

    @acl_call("rt.reset_device_res_limit")
    def reset_device_res_limit(self, rt, device_id: args.i32):
        rt.settings.reset_device_limits(device_id)

    @acl_call("rt.synchronize_device_with_timeout")
    def synchronize_device_with_timeout(self, rt, timeout: args.i32):
        waits.synchronize_device(rt, timeout)

    @acl_call("rt.device_task_abort")
    def device_task_abort(self, rt, device_id: args.i32, timeout: args.u32):
        stream_queries.device_task_abort(rt, device_id, timeout)

    # ----- contexts and system options --------------------------------------------------
    @acl_call("rt.ctx_get_current_default_stream")
    def ctx_get_current_default_stream(self, rt):
        """The current context's default stream, by a handle every stream call accepts (ACL
        gives its address; 0 names the same stream in the calls that take a stream)."""
        return rt.require_ctx("aclrtCtxGetCurrentDefaultStream").handle + DEFAULT_STREAM

    @acl_call("rt.ctx_set_sys_param_opt")
    def ctx_set_sys_param_opt(self, rt, opt: args.i32, value: args.i64):
        rt.settings.set_sys_param(opt, value, context=True)

    @acl_call("rt.ctx_get_sys_param_opt")
    def ctx_get_sys_param_opt(self, rt, opt: args.i32):
        return rt.settings.sys_param(opt, context=True)

    @acl_call("rt.set_sys_param_opt")
    def set_sys_param_opt(self, rt, opt: args.i32, value: args.i64):
        rt.settings.set_sys_param(opt, value, context=False)

    @acl_call("rt.get_sys_param_opt")
    def get_sys_param_opt(self, rt, opt: args.i32):
        return rt.settings.sys_param(opt, context=False)

    # ----- operator timeouts ------------------------------------------------------------
    @acl_call("rt.set_op_wait_timeout")
    def set_op_wait_timeout(self, rt, timeout: args.u32):
        rt.settings.set_op_wait_timeout(timeout)

    @acl_call("rt.set_op_execute_time_out")
    def set_op_execute_time_out(self, rt, timeout: args.u32):
        rt.settings.set_op_execute_timeout(timeout * 1_000_000)

    @acl_call("rt.set_op_execute_timeout_v2")
    def set_op_execute_timeout_v2(self, rt, timeout: args.u64):
        rt.settings.op_interval("aclrtSetOpExecuteTimeOutV2")   # needs a device
        return rt.settings.set_op_execute_timeout(timeout)

    @acl_call("rt.get_op_timeout_interval")
    def get_op_timeout_interval(self, rt):
        return rt.settings.op_interval("aclrtGetOpTimeOutInterval")

    @acl_call("rt.get_op_execute_timeout")
    def get_op_execute_timeout(self, rt):
        return rt.settings.op_execute_timeout_ms()
