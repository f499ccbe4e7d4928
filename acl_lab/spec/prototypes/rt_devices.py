"""``acl.rt``: device queries and settings, the contexts' default stream and system options,
resource limits and operator timeouts (hicann/runtime ``include/external/acl/acl_rt.h`` and
``acl_base_rt.h``). Return shapes follow pyACL's wrappers (``python/pyACL/rt/rt_device.cpp``,
``rt_context.cpp``, ``rt_stream.cpp``, ``rt_synchronize.cpp``).
"""
from acl_lab import constants as C
from acl_lab.spec.prototypes.row import Prototype as P

#: what pyACL's dict of a failed aclrtGetDeviceUtilizationRate holds (rt_device.cpp
#: GetPyDictFromUtilizationInfo over the zeroed struct; the reserved pointer reads as 0)
UTILIZATION_ZERO = {"cube_utilization": 0, "vector_utilization": 0, "aicpu_utilization": 0,
                    "memory_utilization": 0, "utilization_extend": 0}

ROWS = {
    # ----- device queries ---------------------------------------------------------------
    "rt.get_device_info": P("aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, "
                            "int64_t *value)", "value, ret"),
    "rt.get_device_capability": P("aclError aclrtGetDeviceCapability(int32_t deviceId, "
                                  "aclrtDevFeatureType devFeatureType, int32_t *value)",
                                  "value, ret"),
    "rt.get_device_utilization_rate": P("aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, "
                                        "aclrtUtilizationInfo *utilizationInfo)",
                                        "utilization_info, ret", (UTILIZATION_ZERO,)),
    "rt.query_device_status": P("aclError aclrtQueryDeviceStatus(int32_t deviceId, "
                                "aclrtDeviceStatus *deviceStatus)", "device_status, ret",
                                (C.ACL_RT_DEVICE_STATUS_END,)),
    "rt.get_devices_topo": P("aclError aclrtGetDevicesTopo(uint32_t deviceId, "
                             "uint32_t otherDeviceId, uint64_t *value)", "value, ret"),
    "rt.device_get_stream_priority_range": P("aclError aclrtDeviceGetStreamPriorityRange("
                                             "int32_t *leastPriority, int32_t *greatestPriority)",
                                             "least_priority, greatest_priority, ret"),
    "rt.device_get_uuid": P("aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid *uuid)",
                            "uuid, ret", ({"bytes": [0] * 16},)),
    "rt.device_peer_access_status": P("aclError aclrtDevicePeerAccessStatus(int32_t deviceId, "
                                      "int32_t peerDeviceId, int32_t *status)", "status, ret"),
    "rt.get_logic_dev_id_by_user_dev_id": P("aclError aclrtGetLogicDevIdByUserDevId("
                                            "const int32_t userDevid, int32_t *const logicDevId)",
                                            "logic_dev_id, ret"),
    "rt.get_user_dev_id_by_logic_dev_id": P("aclError aclrtGetUserDevIdByLogicDevId("
                                            "const int32_t logicDevId, int32_t *const userDevid)",
                                            "user_dev_id, ret"),
    "rt.get_logic_dev_id_by_phy_dev_id": P("aclError aclrtGetLogicDevIdByPhyDevId("
                                           "int32_t phyDevId, int32_t *const logicDevId)",
                                           "logic_dev_id, ret"),
    "rt.get_phy_dev_id_by_logic_dev_id": P("aclError aclrtGetPhyDevIdByLogicDevId("
                                           "int32_t logicDevId, int32_t *const phyDevId)",
                                           "phy_dev_id, ret"),
    "rt.get_primary_ctx_state": P("aclError aclrtGetPrimaryCtxState(int32_t deviceId, "
                                  "uint32_t *flags, int32_t *active)", "active, flags, ret"),
    # ----- device settings --------------------------------------------------------------
    "rt.set_device_sat_mode": P("aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode)",
                                "ret"),
    "rt.get_device_sat_mode": P("aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode *mode)",
                                "mode, ret"),
    "rt.set_ts_device": P("aclError aclrtSetTsDevice(aclrtTsId tsId)", "ret"),
    "rt.get_device_res_limit": P("aclError aclrtGetDeviceResLimit(int32_t deviceId, "
                                 "aclrtDevResLimitType type, uint32_t *value)", "value, ret"),
    "rt.set_device_res_limit": P("aclError aclrtSetDeviceResLimit(int32_t deviceId, "
                                 "aclrtDevResLimitType type, uint32_t value)", "ret"),
    "rt.reset_device_res_limit": P("aclError aclrtResetDeviceResLimit(int32_t deviceId)", "ret"),
    "rt.synchronize_device_with_timeout": P("aclError aclrtSynchronizeDeviceWithTimeout("
                                            "int32_t timeout)", "ret"),
    "rt.device_task_abort": P("aclError aclrtDeviceTaskAbort(int32_t deviceId, uint32_t timeout)",
                              "ret"),
    # ----- contexts and system options --------------------------------------------------
    "rt.ctx_get_current_default_stream": P("aclError aclrtCtxGetCurrentDefaultStream("
                                           "aclrtStream *stream)", "stream, ret"),
    "rt.ctx_set_sys_param_opt": P("aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, "
                                  "int64_t value)", "ret"),
    "rt.ctx_get_sys_param_opt": P("aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, "
                                  "int64_t *value)", "value, ret"),
    "rt.set_sys_param_opt": P("aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value)",
                              "ret"),
    "rt.get_sys_param_opt": P("aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t *value)",
                              "value, ret"),
    # ----- operator timeouts ------------------------------------------------------------
    "rt.set_op_wait_timeout": P("aclError aclrtSetOpWaitTimeout(uint32_t timeout)", "ret"),
    "rt.set_op_execute_time_out": P("aclError aclrtSetOpExecuteTimeOut(uint32_t timeout)", "ret"),
    "rt.set_op_execute_timeout_v2": P("aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, "
                                      "uint64_t *actualTimeout)", "actual_timeout, ret"),
    "rt.get_op_timeout_interval": P("aclError aclrtGetOpTimeOutInterval(uint64_t *interval)",
                                    "interval, ret"),
    "rt.get_op_execute_timeout": P("aclError aclrtGetOpExecuteTimeout(uint32_t *const timeoutMs)",
                                   "timeout_ms, ret"),
}
