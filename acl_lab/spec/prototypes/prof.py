"""``acl.prof``: profiling collections, model subscriptions and their op records, step info
and msproftx (hicann/runtime ``include/external/acl/acl_prof.h``). Shapes as pyACL's
wrappers build them (hicann/runtime ``python/pyACL/prof/prof_wrap.cpp``): create_config
takes the device ids as a list (the count is the list's); init and mark_ex pass the string's
length themselves; get_op_type / get_op_name give "" when they fail, the _v2 getters None
(their length lookup failed); aclprofGetModelId returns the error code in place of the id.
"""
from acl_lab import constants as C
from acl_lab.spec.prototypes.row import Prototype as P

ROWS = {
    "prof.create_config": P("aclprofConfig *aclprofCreateConfig(uint32_t *deviceIdList, "
                            "uint32_t deviceNums, aclprofAicoreMetrics aicoreMetrics, "
                            "const aclprofAicoreEvents *aicoreEvents, uint64_t dataTypeConfig)",
                            "config"),
    "prof.destroy_config": P("aclError aclprofDestroyConfig(const aclprofConfig "
                             "*profilerConfig)", "ret"),
    "prof.init": P("aclError aclprofInit(const char *profilerResultPath, size_t length)", "ret"),
    "prof.finalize": P("aclError aclprofFinalize()", "ret"),
    "prof.start": P("aclError aclprofStart(const aclprofConfig *profilerConfig)", "ret"),
    "prof.stop": P("aclError aclprofStop(const aclprofConfig *profilerConfig)", "ret"),
    "prof.set_config": P("aclError aclprofSetConfig(aclprofConfigType configType, "
                         "const char *config, size_t configLength)", "ret"),
    "prof.model_subscribe": P("aclError aclprofModelSubscribe(uint32_t modelId, "
                              "const aclprofSubscribeConfig *profSubscribeConfig)", "ret"),
    "prof.model_un_subscribe": P("aclError aclprofModelUnSubscribe(uint32_t modelId)", "ret"),
    "prof.model_unsubscribe": P("aclError aclprofModelUnSubscribe(uint32_t modelId)", "ret"),
    "prof.create_subscribe_config": P("aclprofSubscribeConfig *aclprofCreateSubscribeConfig("
                                      "int8_t timeInfoSwitch, aclprofAicoreMetrics "
                                      "aicoreMetrics, void *fd)", "config"),
    "prof.destroy_subscribe_config": P("aclError aclprofDestroySubscribeConfig("
                                       "const aclprofSubscribeConfig *profSubscribeConfig)",
                                       "ret"),
    "prof.get_op_desc_size": P("aclError aclprofGetOpDescSize(size_t *opDescSize)",
                               "size, ret"),
    "prof.get_op_num": P("aclError aclprofGetOpNum(const void *opInfo, size_t opInfoLen, "
                         "uint32_t *opNumber)", "op_number, ret"),
    "prof.get_op_type_len": P("aclError aclprofGetOpTypeLen(const void *opInfo, "
                              "size_t opInfoLen, uint32_t index, size_t *opTypeLen)",
                              "op_type_len, ret"),
    "prof.get_op_type": P("aclError aclprofGetOpType(const void *opInfo, size_t opInfoLen, "
                          "uint32_t index, char *opType, size_t opTypeLen)", "op_type, ret",
                          fails=("",)),
    "prof.get_op_type_v2": P("aclError aclprofGetOpType(const void *opInfo, size_t opInfoLen, "
                             "uint32_t index, char *opType, size_t opTypeLen)", "op_type, ret",
                             fails=(None,)),
    "prof.get_op_name_len": P("aclError aclprofGetOpNameLen(const void *opInfo, "
                              "size_t opInfoLen, uint32_t index, size_t *opNameLen)",
                              "op_name_len, ret"),
    "prof.get_op_name": P("aclError aclprofGetOpName(const void *opInfo, size_t opInfoLen, "
                          "uint32_t index, char *opName, size_t opNameLen)", "op_name, ret",
                          fails=("",)),
    "prof.get_op_name_v2": P("aclError aclprofGetOpName(const void *opInfo, size_t opInfoLen, "
                             "uint32_t index, char *opName, size_t opNameLen)", "op_name, ret",
                             fails=(None,)),
    "prof.get_op_start": P("uint64_t aclprofGetOpStart(const void *opInfo, size_t opInfoLen, "
                           "uint32_t index)", "start"),
    "prof.get_op_end": P("uint64_t aclprofGetOpEnd(const void *opInfo, size_t opInfoLen, "
                         "uint32_t index)", "end"),
    "prof.get_op_duration": P("uint64_t aclprofGetOpDuration(const void *opInfo, "
                              "size_t opInfoLen, uint32_t index)", "duration"),
    "prof.get_model_id": P("size_t aclprofGetModelId(const void *opInfo, size_t opInfoLen, "
                           "uint32_t index)", "model_id", fails=(C.ACL_ERROR_INVALID_PARAM,)),
    "prof.create_step_info": P("aclprofStepInfo *aclprofCreateStepInfo()", "step_info"),
    "prof.destroy_step_info": P("void aclprofDestroyStepInfo(aclprofStepInfo *stepinfo)", ""),
    "prof.get_step_timestamp": P("aclError aclprofGetStepTimestamp(aclprofStepInfo *stepInfo, "
                                 "aclprofStepTag tag, aclrtStream stream)", "ret"),
    "prof.create_stamp": P("void *aclprofCreateStamp()", "stamp"),
    "prof.destroy_stamp": P("void aclprofDestroyStamp(void *stamp)", ""),
    "prof.set_stamp_trace_message": P("aclError aclprofSetStampTraceMessage(void *stamp, "
                                      "const char *msg, uint32_t msgLen)", "ret"),
    "prof.mark": P("aclError aclprofMark(void *stamp)", "ret"),
    "prof.mark_ex": P("aclError aclprofMarkEx(const char *msg, size_t msgLen, "
                      "aclrtStream stream)", "ret"),
    "prof.push": P("aclError aclprofPush(void *stamp)", "ret"),
    "prof.pop": P("aclError aclprofPop()", "ret"),
    "prof.range_start": P("aclError aclprofRangeStart(void *stamp, uint32_t *rangeId)",
                          "range_id, ret"),
    "prof.range_stop": P("aclError aclprofRangeStop(uint32_t rangeId)", "ret"),
}
