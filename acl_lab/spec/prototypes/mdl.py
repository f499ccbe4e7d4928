"""``acl.mdl``: offline models (hicann/ge ``inc/external/acl/acl_mdl.h``) and stream capture into a
model running instance (aclmdlRI*, hicann/runtime ``acl_rt.h``).
"""
from acl_lab import constants as C
from acl_lab.spec.prototypes.row import Prototype as P

ROWS = {
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
                            "size_t index, aclmdlIODims *dims)", "dims, ret", ({},)),
    "mdl.get_input_dims_v2": P("aclError aclmdlGetInputDimsV2(const aclmdlDesc *modelDesc, "
                               "size_t index, aclmdlIODims *dims)", "dims, ret", ({},)),
    "mdl.get_dynamic_batch": P("aclError aclmdlGetDynamicBatch(const aclmdlDesc *modelDesc, "
                               "aclmdlBatch *batch)", "batch_info, ret", ({},)),
    "mdl.get_dynamic_hw": P("aclError aclmdlGetDynamicHW(const aclmdlDesc *modelDesc, "
                            "size_t index, aclmdlHW *hw)", "hw_info, ret", ({},)),
    "mdl.set_dynamic_batch_size": P("aclError aclmdlSetDynamicBatchSize(uint32_t modelId, "
                                    "aclmdlDataset *dataset, size_t index, uint64_t batchSize)",
                                    "ret"),
    "mdl.set_dynamic_hw_size": P("aclError aclmdlSetDynamicHWSize(uint32_t modelId, "
                                 "aclmdlDataset *dataset, size_t index, uint64_t height, "
                                 "uint64_t width)", "ret"),
    "mdl.get_output_dims": P("aclError aclmdlGetOutputDims(const aclmdlDesc *modelDesc, "
                             "size_t index, aclmdlIODims *dims)", "dims, ret", ({},)),
    "mdl.get_cur_output_dims": P("aclError aclmdlGetCurOutputDims(const aclmdlDesc *modelDesc, "
                                 "size_t index, aclmdlIODims *dims)", "dims, ret", ({},)),
    "mdl.get_input_data_type": P("aclDataType aclmdlGetInputDataType(const aclmdlDesc *modelDesc, "
                                 "size_t index)", "data_type", (C.ACL_DT_UNDEFINED,)),
    "mdl.get_output_data_type": P("aclDataType aclmdlGetOutputDataType("
                                  "const aclmdlDesc *modelDesc, size_t index)", "data_type", (C.ACL_DT_UNDEFINED,)),
    "mdl.get_input_format": P("aclFormat aclmdlGetInputFormat(const aclmdlDesc *modelDesc, "
                              "size_t index)", "format", (C.ACL_FORMAT_UNDEFINED,)),
    "mdl.get_output_format": P("aclFormat aclmdlGetOutputFormat(const aclmdlDesc *modelDesc, "
                               "size_t index)", "format", (C.ACL_FORMAT_UNDEFINED,)),
    "mdl.get_input_name_by_index": P("const char *aclmdlGetInputNameByIndex("
                                     "const aclmdlDesc *modelDesc, size_t index)", "name", ("",)),
    "mdl.get_output_name_by_index": P("const char *aclmdlGetOutputNameByIndex("
                                      "const aclmdlDesc *modelDesc, size_t index)", "name", ("",)),
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
}
