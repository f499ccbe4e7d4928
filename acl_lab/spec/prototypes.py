"""The C function behind each pyACL call, and what the Python call returns: one table.

``help(acl.rt.malloc)`` and Jupyter's Shift-Tab show ``(size, policy)`` and
``aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) →
dev_ptr, ret = acl.rt.malloc(size, policy)``: ``document`` writes that onto every facade
function once, from this table, and ``tools/call_map.py`` builds docs/call-map.md from it.

Prototypes are the CANN headers' own declarations (whitespace normalised, ``type *name``):
hicann/runtime ``include/external/acl/acl_rt.h`` and ``acl_base_rt.h``; hicann/ge
``inc/external/acl/acl_mdl.h``; hicann/opbase ``include/nnopbase/aclnn/acl_meta.h``; the
aclnn headers ``aclnn_add.h``, ``aclnn_mul.h``, ``aclnn_copy.h`` (hicann/ops-math documents
them under ``math/add``, ``math/mul``, ``conversion/view_copy``); ``acl/ops/acl_dvpp.h``;
hicann/ge ``inc/external/acl/acl_op.h`` and ``acl_base_mdl.h`` (single operators, tensor
descriptions).
The Python side follows the "python函数" lines of the pyACL reference: a C out-parameter
becomes a returned value, before ``ret``.
"""
from __future__ import annotations

import inspect
from typing import NamedTuple

from acl_lab.spec.media_prototypes import TABLE as MEDIA


class Prototype(NamedTuple):
    c: str | None    # the C declaration; None for pyACL's own helpers (acl.util)
    returns: str     # the left-hand side of the pyACL call: "dev_ptr, ret", "ret", "size"

    @property
    def c_name(self) -> str | None:
        return None if self.c is None else self.c.split("(")[0].split()[-1].lstrip("*")


P = Prototype
#: facade name ("rt.malloc"; "" namespace for top-level acl.*) -> its C prototype and returns
PROTOTYPES: dict[str, Prototype] = {
    # ----- hicann/runtime include/external/acl/acl_rt.h --------------------------------
    "init": P("aclError aclInit(const char *configPath)", "ret"),
    "finalize": P("aclError aclFinalize()", "ret"),
    "get_recent_err_msg": P("const char *aclGetRecentErrMsg()", "err_msg"),
    "get_version": P("aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, "
                     "int32_t *patchVersion)", "major_version, minor_version, patch_version, ret"),
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
                         "status, ret"),
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
                               "aclrtEvent endEvent)", "ms, ret"),
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
    "mdl.ri_capture_begin": P("aclError aclmdlRICaptureBegin(aclrtStream stream, "
                              "aclmdlRICaptureMode mode)", "ret"),
    "mdl.ri_capture_end": P("aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI)",
                            "model_ri, ret"),
    "mdl.ri_capture_get_info": P("aclError aclmdlRICaptureGetInfo(aclrtStream stream, "
                                 "aclmdlRICaptureStatus *status, aclmdlRI *modelRI)",
                                 "status, model_ri, ret"),
    "mdl.ri_capture_thread_exchange_mode": P("aclError aclmdlRICaptureThreadExchangeMode("
                                             "aclmdlRICaptureMode *mode)", "mode, ret"),
    "mdl.ri_capture_task_grp_begin": P("aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream)",
                                       "ret"),
    "mdl.ri_capture_task_grp_end": P("aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, "
                                     "aclrtTaskGrp *handle)", "handle, ret"),
    "mdl.ri_capture_task_update_begin": P("aclError aclmdlRICaptureTaskUpdateBegin("
                                          "aclrtStream stream, aclrtTaskGrp handle)", "ret"),
    "mdl.ri_capture_task_update_end": P("aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream)",
                                        "ret"),
    "mdl.ri_execute_async": P("aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream)",
                              "ret"),
    "mdl.ri_execute": P("aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout)", "ret"),
    "mdl.ri_destroy": P("aclError aclmdlRIDestroy(aclmdlRI modelRI)", "ret"),
    "mdl.ri_debug_json_print": P("aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, "
                                 "const char *path, uint32_t flags)", "ret"),
    "mdl.init_dump": P("aclError aclmdlInitDump()", "ret"),
    "mdl.set_dump": P("aclError aclmdlSetDump(const char *dumpCfgPath)", "ret"),
    "mdl.finalize_dump": P("aclError aclmdlFinalizeDump()", "ret"),
    # ----- hicann/runtime include/external/acl/acl_base_rt.h ---------------------------
    "get_soc_name": P("const char *aclrtGetSocName()", "soc_name"),
    "app_log": P("void aclAppLog(aclLogLevel logLevel, const char *func, const char *file, "
                 "uint32_t line, const char *fmt, ...)", ""),
    "create_data_buffer": P("aclDataBuffer *aclCreateDataBuffer(void *data, size_t size)",
                            "data_buffer"),
    "destroy_data_buffer": P("aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer)",
                             "ret"),
    "update_data_buffer": P("aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, "
                            "size_t size)", "ret"),
    "get_data_buffer_addr": P("void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer)",
                              "addr"),
    "get_data_buffer_size_v2": P("size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer)",
                                 "size"),
    "get_data_buffer_size": P("uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer)",
                              "size"),
    "data_type_size": P("size_t aclDataTypeSize(aclDataType dataType)", "size"),
    "float16_to_float": P("float aclFloat16ToFloat(aclFloat16 value)", "float_value"),
    "float_to_float16": P("aclFloat16 aclFloatToFloat16(float value)", "float16_value"),
    # ----- hicann/ge inc/external/acl/acl_mdl.h ----------------------------------------
    "mdl.load_from_file": P("aclError aclmdlLoadFromFile(const char *modelPath, uint32_t *modelId)",
                            "model_id, ret"),
    "mdl.load_from_mem": P("aclError aclmdlLoadFromMem(const void *model, size_t modelSize, "
                           "uint32_t *modelId)", "model_id, ret"),
    "mdl.load_from_file_with_mem": P("aclError aclmdlLoadFromFileWithMem(const char *modelPath, "
                                     "uint32_t *modelId, void *workPtr, size_t workSize, "
                                     "void *weightPtr, size_t weightSize)", "model_id, ret"),
    "mdl.load_from_mem_with_mem": P("aclError aclmdlLoadFromMemWithMem(const void *model, "
                                    "size_t modelSize, uint32_t *modelId, void *workPtr, "
                                    "size_t workSize, void *weightPtr, size_t weightSize)",
                                    "model_id, ret"),
    "mdl.query_size": P("aclError aclmdlQuerySize(const char *fileName, size_t *workSize, "
                        "size_t *weightSize)", "work_size, weight_size, ret"),
    "mdl.query_size_from_mem": P("aclError aclmdlQuerySizeFromMem(const void *model, "
                                 "size_t modelSize, size_t *workSize, size_t *weightSize)",
                                 "work_size, weight_size, ret"),
    "mdl.unload": P("aclError aclmdlUnload(uint32_t modelId)", "ret"),
    "mdl.create_desc": P("aclmdlDesc *aclmdlCreateDesc()", "model_desc"),
    "mdl.get_desc": P("aclError aclmdlGetDesc(aclmdlDesc *modelDesc, uint32_t modelId)", "ret"),
    "mdl.destroy_desc": P("aclError aclmdlDestroyDesc(aclmdlDesc *modelDesc)", "ret"),
    "mdl.get_num_inputs": P("size_t aclmdlGetNumInputs(aclmdlDesc *modelDesc)", "num"),
    "mdl.get_num_outputs": P("size_t aclmdlGetNumOutputs(aclmdlDesc *modelDesc)", "num"),
    "mdl.get_input_size_by_index": P("size_t aclmdlGetInputSizeByIndex(aclmdlDesc *modelDesc, "
                                     "size_t index)", "size"),
    "mdl.get_output_size_by_index": P("size_t aclmdlGetOutputSizeByIndex(aclmdlDesc *modelDesc, "
                                      "size_t index)", "size"),
    "mdl.get_input_dims": P("aclError aclmdlGetInputDims(const aclmdlDesc *modelDesc, "
                            "size_t index, aclmdlIODims *dims)", "dims, ret"),
    "mdl.get_input_dims_v2": P("aclError aclmdlGetInputDimsV2(const aclmdlDesc *modelDesc, "
                               "size_t index, aclmdlIODims *dims)", "dims, ret"),
    "mdl.get_dynamic_batch": P("aclError aclmdlGetDynamicBatch(const aclmdlDesc *modelDesc, "
                               "aclmdlBatch *batch)", "batch_info, ret"),
    "mdl.get_dynamic_hw": P("aclError aclmdlGetDynamicHW(const aclmdlDesc *modelDesc, "
                            "size_t index, aclmdlHW *hw)", "hw_info, ret"),
    "mdl.set_dynamic_batch_size": P("aclError aclmdlSetDynamicBatchSize(uint32_t modelId, "
                                    "aclmdlDataset *dataset, size_t index, uint64_t batchSize)",
                                    "ret"),
    "mdl.set_dynamic_hw_size": P("aclError aclmdlSetDynamicHWSize(uint32_t modelId, "
                                 "aclmdlDataset *dataset, size_t index, uint64_t height, "
                                 "uint64_t width)", "ret"),
    "mdl.get_output_dims": P("aclError aclmdlGetOutputDims(const aclmdlDesc *modelDesc, "
                             "size_t index, aclmdlIODims *dims)", "dims, ret"),
    "mdl.get_cur_output_dims": P("aclError aclmdlGetCurOutputDims(const aclmdlDesc *modelDesc, "
                                 "size_t index, aclmdlIODims *dims)", "dims, ret"),
    "mdl.get_input_data_type": P("aclDataType aclmdlGetInputDataType(const aclmdlDesc *modelDesc, "
                                 "size_t index)", "data_type"),
    "mdl.get_output_data_type": P("aclDataType aclmdlGetOutputDataType("
                                  "const aclmdlDesc *modelDesc, size_t index)", "data_type"),
    "mdl.get_input_format": P("aclFormat aclmdlGetInputFormat(const aclmdlDesc *modelDesc, "
                              "size_t index)", "format"),
    "mdl.get_output_format": P("aclFormat aclmdlGetOutputFormat(const aclmdlDesc *modelDesc, "
                               "size_t index)", "format"),
    "mdl.get_input_name_by_index": P("const char *aclmdlGetInputNameByIndex("
                                     "const aclmdlDesc *modelDesc, size_t index)", "name"),
    "mdl.get_output_name_by_index": P("const char *aclmdlGetOutputNameByIndex("
                                      "const aclmdlDesc *modelDesc, size_t index)", "name"),
    "mdl.get_input_index_by_name": P("aclError aclmdlGetInputIndexByName("
                                     "const aclmdlDesc *modelDesc, const char *name, "
                                     "size_t *index)", "index, ret"),
    "mdl.get_output_index_by_name": P("aclError aclmdlGetOutputIndexByName("
                                      "const aclmdlDesc *modelDesc, const char *name, "
                                      "size_t *index)", "index, ret"),
    "mdl.create_dataset": P("aclmdlDataset *aclmdlCreateDataset()", "dataset"),
    "mdl.add_dataset_buffer": P("aclError aclmdlAddDatasetBuffer(aclmdlDataset *dataset, "
                                "aclDataBuffer *dataBuffer)", "dataset, ret"),
    "mdl.get_dataset_num_buffers": P("size_t aclmdlGetDatasetNumBuffers("
                                     "const aclmdlDataset *dataset)", "num"),
    "mdl.get_dataset_buffer": P("aclDataBuffer *aclmdlGetDatasetBuffer("
                                "const aclmdlDataset *dataset, size_t index)", "data_buffer"),
    "mdl.destroy_dataset": P("aclError aclmdlDestroyDataset(const aclmdlDataset *dataset)", "ret"),
    "mdl.execute": P("aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset *input, "
                     "aclmdlDataset *output)", "ret"),
    "mdl.execute_async": P("aclError aclmdlExecuteAsync(uint32_t modelId, "
                           "const aclmdlDataset *input, aclmdlDataset *output, "
                           "aclrtStream stream)", "ret"),
    # ----- hicann/opbase include/nnopbase/aclnn/acl_meta.h -----------------------------
    "nn.create_tensor": P("aclTensor *aclCreateTensor(const int64_t *viewDims, "
                          "uint64_t viewDimsNum, aclDataType dataType, const int64_t *stride, "
                          "int64_t offset, aclFormat format, const int64_t *storageDims, "
                          "uint64_t storageDimsNum, void *tensorData)", "tensor"),
    "nn.create_scalar": P("aclScalar *aclCreateScalar(void *value, aclDataType dataType)",
                          "scalar"),
    "nn.destroy_tensor": P("aclnnStatus aclDestroyTensor(const aclTensor *tensor)", "ret"),
    "nn.destroy_scalar": P("aclnnStatus aclDestroyScalar(const aclScalar *scalar)", "ret"),
    # ----- aclnn_add.h, aclnn_mul.h, aclnn_copy.h (hicann/ops-math) --------------------
    "nn.add_get_workspace_size": P("aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor *self, "
                                   "const aclTensor *other, const aclScalar *alpha, "
                                   "aclTensor *out, uint64_t *workspaceSize, "
                                   "aclOpExecutor **executor)",
                                   "workspace_size, executor, ret"),
    "nn.add": P("aclnnStatus aclnnAdd(void *workspace, uint64_t workspaceSize, "
                "aclOpExecutor *executor, aclrtStream stream)", "ret"),
    "nn.mul_get_workspace_size": P("aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor *self, "
                                   "const aclTensor *other, aclTensor *out, "
                                   "uint64_t *workspaceSize, aclOpExecutor **executor)",
                                   "workspace_size, executor, ret"),
    "nn.mul": P("aclnnStatus aclnnMul(void *workspace, uint64_t workspaceSize, "
                "aclOpExecutor *executor, aclrtStream stream)", "ret"),
    "nn.inplace_copy_get_workspace_size": P("aclnnStatus aclnnInplaceCopyGetWorkspaceSize("
                                            "aclTensor *selfRef, const aclTensor *src, "
                                            "uint64_t *workspaceSize, aclOpExecutor **executor)",
                                            "workspace_size, executor, ret"),
    "nn.inplace_copy": P("aclnnStatus aclnnInplaceCopy(void *workspace, uint64_t workspaceSize, "
                         "aclOpExecutor *executor, const aclrtStream stream)", "ret"),
    # ----- hicann/ge inc/external/acl/acl_base_mdl.h (tensor descriptions) ------------
    "create_tensor_desc": P("aclTensorDesc *aclCreateTensorDesc(aclDataType dataType, "
                            "int numDims, const int64_t *dims, aclFormat format)", "tensor_desc"),
    "destroy_tensor_desc": P("void aclDestroyTensorDesc(const aclTensorDesc *desc)", ""),
    "get_tensor_desc_type": P("aclDataType aclGetTensorDescType(const aclTensorDesc *desc)",
                              "data_type"),
    "get_tensor_desc_format": P("aclFormat aclGetTensorDescFormat(const aclTensorDesc *desc)",
                                "format"),
    "get_tensor_desc_size": P("size_t aclGetTensorDescSize(const aclTensorDesc *desc)", "size"),
    "get_tensor_desc_element_count": P("size_t aclGetTensorDescElementCount("
                                       "const aclTensorDesc *desc)", "count"),
    "get_tensor_desc_num_dims": P("size_t aclGetTensorDescNumDims(const aclTensorDesc *desc)",
                                  "num_dims"),
    "get_tensor_desc_dim_v2": P("aclError aclGetTensorDescDimV2(const aclTensorDesc *desc, "
                                "size_t index, int64_t *dimSize)", "dim_size, ret"),
    "set_tensor_desc_name": P("void aclSetTensorDescName(aclTensorDesc *desc, const char *name)",
                              ""),
    "get_tensor_desc_name": P("const char *aclGetTensorDescName(aclTensorDesc *desc)", "name"),
    "set_tensor_const": P("aclError aclSetTensorConst(aclTensorDesc *desc, void *dataBuffer, "
                          "size_t length)", "ret"),
    "set_tensor_shape": P("aclError aclSetTensorShape(aclTensorDesc *desc, int numDims, "
                          "const int64_t *dims)", "ret"),
    "set_tensor_format": P("aclError aclSetTensorFormat(aclTensorDesc *desc, aclFormat format)",
                           "ret"),
    # ----- hicann/ge inc/external/acl/acl_op.h (single operators) ----------------------
    "op.create_attr": P("aclopAttr *aclopCreateAttr()", "attr"),
    "op.destroy_attr": P("void aclopDestroyAttr(const aclopAttr *attr)", ""),
    "op.set_attr_bool": P("aclError aclopSetAttrBool(aclopAttr *attr, const char *attrName, "
                          "uint8_t attrValue)", "ret"),
    "op.set_attr_int": P("aclError aclopSetAttrInt(aclopAttr *attr, const char *attrName, "
                         "int64_t attrValue)", "ret"),
    "op.set_attr_float": P("aclError aclopSetAttrFloat(aclopAttr *attr, const char *attrName, "
                           "float attrValue)", "ret"),
    "op.set_attr_string": P("aclError aclopSetAttrString(aclopAttr *attr, const char *attrName, "
                            "const char *attrValue)", "ret"),
    "op.set_attr_list_bool": P("aclError aclopSetAttrListBool(aclopAttr *attr, "
                               "const char *attrName, int numValues, const uint8_t *values)",
                               "ret"),
    "op.set_attr_list_int": P("aclError aclopSetAttrListInt(aclopAttr *attr, "
                              "const char *attrName, int numValues, const int64_t *values)",
                              "ret"),
    "op.set_attr_list_float": P("aclError aclopSetAttrListFloat(aclopAttr *attr, "
                                "const char *attrName, int numValues, const float *values)",
                                "ret"),
    "op.set_attr_list_string": P("aclError aclopSetAttrListString(aclopAttr *attr, "
                                 "const char *attrName, int numValues, const char **values)",
                                 "ret"),
    "op.set_model_dir": P("aclError aclopSetModelDir(const char *modelDir)", "ret"),
    "op.execute_v2": P("aclError aclopExecuteV2(const char *opType, int numInputs, "
                       "aclTensorDesc *inputDesc[], aclDataBuffer *inputs[], int numOutputs, "
                       "aclTensorDesc *outputDesc[], aclDataBuffer *outputs[], "
                       "aclopAttr *attr, aclrtStream stream)", "ret"),
    "op.cast": P("aclError aclopCast(const aclTensorDesc *srcDesc, const aclDataBuffer *srcBuffer, "
                 "const aclTensorDesc *dstDesc, aclDataBuffer *dstBuffer, uint8_t truncate, "
                 "aclrtStream stream)", "ret"),
    "op.create_handle": P("aclError aclopCreateHandle(const char *opType, int numInputs, "
                          "const aclTensorDesc *const inputDesc[], int numOutputs, "
                          "const aclTensorDesc *const outputDesc[], const aclopAttr *opAttr, "
                          "aclopHandle **handle)", "handle, ret"),
    "op.execute_with_handle": P("aclError aclopExecWithHandle(aclopHandle *handle, int numInputs, "
                                "const aclDataBuffer *const inputs[], int numOutputs, "
                                "aclDataBuffer *const outputs[], aclrtStream stream)", "ret"),
    "op.destroy_handle": P("void aclopDestroyHandle(aclopHandle *handle)", ""),
    # ----- acl/ops/acl_dvpp.h (Ascend/graphengine inc/external/acl/ops/acl_dvpp.h) -----
    "media.dvpp_malloc": P("aclError acldvppMalloc(void **devPtr, size_t size)", "dev_ptr, ret"),
    "media.dvpp_free": P("aclError acldvppFree(void *devPtr)", "ret"),
    # ----- pyACL's own helpers: no C function ------------------------------------------
    "util.numpy_to_ptr": P(None, "ptr"),
    "util.numpy_contiguous_to_ptr": P(None, "ptr, data_out"),
    "util.bytes_to_ptr": P(None, "ptr"),
    "util.ptr_to_numpy": P(None, "array"),
    "util.ptr_to_bytes": P(None, "data"),
    "util.start_thread": P(None, "thread_id, ret"),
    "util.stop_thread": P(None, "ret"),
    # ----- acl.media beyond the allocator pair: acl_lab/spec/media_prototypes.py ----------
    **{name: P(c, returns) for name, (c, returns) in MEDIA.items()},
}
del P


def public_functions(facade: dict[str, type]):
    """(facade name, the raw function) of every public function of the facade classes
    (``facade``: namespace -> class, "" for the top level), in name order."""
    for namespace, cls in facade.items():
        for attr in sorted(dir(cls)):
            raw = inspect.getattr_static(cls, attr)
            fn = getattr(raw, "__func__", raw)        # a staticmethod's function
            if not attr.startswith("_") and inspect.isfunction(fn):
                yield f"{namespace}.{attr}".lstrip("."), fn


def python_call(name: str, parameters) -> str:
    """``dev_ptr, ret = acl.rt.malloc(size, policy)``"""
    returns = PROTOTYPES[name].returns      # "" for a void C function
    return f"{returns + ' = ' if returns else ''}acl.{name}({', '.join(parameters)})"


def summary(name: str, parameters) -> str:
    """The one-line help of facade function ``name``: C prototype → Python call."""
    proto = PROTOTYPES[name]
    c = proto.c or "pyACL only, no C function"
    return f"{c} → {python_call(name, parameters)}"


def document(facade: dict[str, type]) -> None:
    """Give every facade function pyACL's signature and its one-line C/Python help.

    The facade's methods are written ``(self, rt, size, policy)`` (``rt``: the runtime the
    decorator passes in); help() and Shift-Tab should show ``(size, policy)``. Each function
    gets ``__signature__`` without ``rt`` (``self`` stays: a bound method drops it, and so
    does the traced facade, which follows ``__wrapped__`` to the bound method) and a
    docstring whose first line is ``summary``, any note of its own after it."""
    for name, fn in public_functions(facade):
        if name not in PROTOTYPES:
            continue        # tests/spec/test_facade_help.py names what is missing
        sig = inspect.signature(fn)
        params = list(sig.parameters.values())
        if len(params) > 1 and params[0].name == "self" and params[1].name == "rt":
            del params[1]
        shown = [p.name for p in params if p.name != "self"]
        fn.__signature__ = sig.replace(parameters=params)
        own = inspect.cleandoc(fn.__doc__ or "")
        fn.__doc__ = summary(name, shown) + (f"\n\n{own}" if own else "")
