"""``acl.mdl``: config handles and loading with them, exec config handles and
aclmdlExecuteV2, descriptions read from a model without loading it, bundles, tensor and op
names, the dump callback, an op's description after an exception (hicann/ge
``inc/external/acl/acl_mdl.h``; acldumpRegCallback: hicann/runtime ``acl/acl_dump.h``).
Shapes as pyACL's wrappers build them (hicann/runtime ``python/pyACL/mdl/mdl_wrap.cpp``):
aclmdlCreateAndGetOpDesc gives ("", 0, 0, 0, 0, ret) when it fails; a name getter that
gets NULL gives None.
"""
from acl_lab.spec.prototypes.row import Prototype as P

ROWS = {
    "mdl.create_config_handle": P("aclmdlConfigHandle *aclmdlCreateConfigHandle()", "handle"),
    "mdl.destroy_config_handle": P("aclError aclmdlDestroyConfigHandle(aclmdlConfigHandle "
                                   "*handle)", "ret"),
    "mdl.set_config_opt": P("aclError aclmdlSetConfigOpt(aclmdlConfigHandle *handle, "
                            "aclmdlConfigAttr attr, const void *attrValue, size_t valueSize)",
                            "ret"),
    "mdl.load_with_config": P("aclError aclmdlLoadWithConfig(const aclmdlConfigHandle *handle, "
                              "uint32_t *modelId)", "model_id, ret"),
    "mdl.create_exec_config_handle": P("aclmdlExecConfigHandle *aclmdlCreateExecConfigHandle()",
                                       "handle"),
    "mdl.destroy_exec_config_handle": P("aclError aclmdlDestroyExecConfigHandle("
                                        "const aclmdlExecConfigHandle *handle)", "ret"),
    "mdl.set_exec_config_opt": P("aclError aclmdlSetExecConfigOpt(aclmdlExecConfigHandle "
                                 "*handle, aclmdlExecConfigAttr attr, const void *attrValue, "
                                 "size_t valueSize)", "ret"),
    "mdl.execute_v2": P("aclError aclmdlExecuteV2(uint32_t modelId, const aclmdlDataset *input, "
                        "aclmdlDataset *output, aclrtStream stream, "
                        "const aclmdlExecConfigHandle *handle)", "ret"),
    "mdl.get_desc_from_file": P("aclError aclmdlGetDescFromFile(aclmdlDesc *modelDesc, "
                                "const char *modelPath)", "ret"),
    "mdl.get_desc_from_mem": P("aclError aclmdlGetDescFromMem(aclmdlDesc *modelDesc, "
                               "const void *model, size_t modelSize)", "ret"),
    "mdl.bundle_load_from_file": P("aclError aclmdlBundleLoadFromFile(const char *modelPath, "
                                   "uint32_t *bundleId)", "bundle_id, ret"),
    "mdl.bundle_load_from_mem": P("aclError aclmdlBundleLoadFromMem(const void *model, "
                                  "size_t modelSize, uint32_t *bundleId)", "bundle_id, ret"),
    "mdl.bundle_unload": P("aclError aclmdlBundleUnload(uint32_t bundleId)", "ret"),
    "mdl.bundle_get_model_num": P("aclError aclmdlBundleGetModelNum(uint32_t bundleId, "
                                  "size_t *modelNum)", "model_num, ret"),
    "mdl.bundle_get_model_id": P("aclError aclmdlBundleGetModelId(uint32_t bundleId, "
                                 "size_t index, uint32_t *modelId)", "model_id, ret"),
    "mdl.get_tensor_real_name": P("const char *aclmdlGetTensorRealName("
                                  "const aclmdlDesc *modelDesc, const char *name)", "name",
                                  (None,)),
    "mdl.get_op_attr": P("const char *aclmdlGetOpAttr(aclmdlDesc *modelDesc, const char *opName, "
                         "const char *attr)", "value", (None,)),
    "mdl.create_and_get_op_desc": P("aclError aclmdlCreateAndGetOpDesc(uint32_t deviceId, "
                                    "uint32_t streamId, uint32_t taskId, char *opName, "
                                    "size_t opNameLen, aclTensorDesc **inputDesc, "
                                    "size_t *numInputs, aclTensorDesc **outputDesc, "
                                    "size_t *numOutputs)",
                                    "op_name, input_desc, num_inputs, output_desc, "
                                    "num_outputs, ret", ("", 0, 0, 0, 0)),
    "mdl.dump_reg_callback": P("aclError acldumpRegCallback(int32_t (*messageCallback)("
                               "const acldumpChunk *, int32_t), int32_t flag)", "ret"),
    "mdl.dump_unreg_callback": P("void acldumpUnregCallback()", ""),
}
