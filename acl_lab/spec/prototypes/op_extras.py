"""``acl.op``'s further calls: loading operator models from memory, the older execute,
cast handles, more attribute setters, custom operators built from kernels, shape inference,
dump of operator information (hicann/ge inc/external/acl/acl_op.h, hicann/runtime
include/external/acl/acl_dump.h; pyACL's wrappers in python/pyACL/op/op.cpp).
"""
from acl_lab.spec.prototypes.row import Prototype as P

ROWS = {
    "op.load": P("aclError aclopLoad(const void *model, size_t modelSize)", "ret"),
    "op.execute": P("aclError aclopExecute(const char *opType, int numInputs, "
                    "const aclTensorDesc *const inputDesc[], const aclDataBuffer *const inputs[], "
                    "int numOutputs, const aclTensorDesc *const outputDesc[], "
                    "aclDataBuffer *const outputs[], const aclopAttr *attr, aclrtStream stream)",
                    "ret"),
    "op.create_handle_for_cast": P("aclError aclopCreateHandleForCast(aclTensorDesc *srcDesc, "
                                   "aclTensorDesc *dstDesc, uint8_t truncate, "
                                   "aclopHandle **handle)", "handle, ret"),
    "op.set_attr_list_list_int": P("aclError aclopSetAttrListListInt(aclopAttr *attr, "
                                   "const char *attrName, int numLists, const int *numValues, "
                                   "const int64_t *const values[])", "ret"),
    # pyACL returns the attribute handle it was given, before ret
    "op.set_attr_data_type": P("aclError aclopSetAttrDataType(aclopAttr *attr, "
                               "const char *attrName, aclDataType attrValue)", "attr, ret"),
    "op.set_attr_list_data_type": P("aclError aclopSetAttrListDataType(aclopAttr *attr, "
                                    "const char *attrName, int numValues, "
                                    "const aclDataType values[])", "attr, ret"),
    "op.start_dump_args": P("aclError aclopStartDumpArgs(uint32_t dumpType, const char *path)",
                            "ret"),
    "op.stop_dump_args": P("aclError aclopStopDumpArgs(uint32_t dumpType)", "ret"),
    "op.register_compile_func": P("aclError aclopRegisterCompileFunc(const char *opType, "
                                  "aclopCompileFunc func)", "ret"),
    "op.unregister_compile_func": P("aclError aclopUnregisterCompileFunc(const char *opType)",
                                    "ret"),
    "op.create_kernel": P("aclError aclopCreateKernel(const char *opType, const char *kernelId, "
                          "const char *kernelName, void *binData, int binSize, "
                          "aclopEngineType enginetype, aclDataDeallocator deallocator)", "ret"),
    "op.set_kernel_args": P("aclError aclopSetKernelArgs(aclopKernelDesc *kernelDesc, "
                            "const char *kernelId, uint32_t blockDim, const void *args, "
                            "uint32_t argSize)", "ret"),
    "op.set_kernel_workspace_sizes": P("aclError aclopSetKernelWorkspaceSizes(aclopKernelDesc "
                                       "*kernelDesc, int numWorkspaces, size_t *workspaceSizes)",
                                       "ret"),
    "op.update_params": P("aclError aclopUpdateParams(const char *opType, int numInputs, "
                          "const aclTensorDesc *const inputDesc[], int numOutputs, "
                          "const aclTensorDesc *const outputDesc[], const aclopAttr *attr)",
                          "ret"),
    "op.infer_shape": P("aclError aclopInferShape(const char *opType, int numInputs, "
                        "aclTensorDesc *inputDesc[], aclDataBuffer *inputs[], int numOutputs, "
                        "aclTensorDesc *outputDesc[], aclopAttr *attr)", "ret"),
    "op.set_max_op_queue_num": P("aclError aclopSetMaxOpQueueNum(uint64_t maxOpNum)", "ret"),
}
