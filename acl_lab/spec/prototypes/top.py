"""The top level of pyACL (``acl.init``, ``acl.create_data_buffer``, tensor descriptions, …):
hicann/runtime ``include/external/acl/acl_rt.h`` and ``acl_base_rt.h``; hicann/ge
``inc/external/acl/acl_base_mdl.h`` (data buffers, tensor descriptions).
"""
from acl_lab import constants as C
from acl_lab.spec.prototypes.row import NEVER, Prototype as P

ROWS = {
    # ----- hicann/runtime include/external/acl/acl_rt.h --------------------------------
    "init": P("aclError aclInit(const char *configPath)", "ret"),
    "finalize": P("aclError aclFinalize()", "ret"),
    "get_recent_err_msg": P("const char *aclGetRecentErrMsg()", "err_msg", NEVER),
    "get_version": P("aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, "
                     "int32_t *patchVersion)", "major_version, minor_version, patch_version, ret"),
    # ----- hicann/runtime include/external/acl/acl_base_rt.h ---------------------------
    "get_soc_name": P("const char *aclrtGetSocName()", "soc_name", NEVER),
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
    "float16_to_float": P("float aclFloat16ToFloat(aclFloat16 value)", "float_value", NEVER),
    "float_to_float16": P("aclFloat16 aclFloatToFloat16(float value)", "float16_value",
                          NEVER),
    # ----- hicann/ge inc/external/acl/acl_base_mdl.h (tensor descriptions) ------------
    "create_tensor_desc": P("aclTensorDesc *aclCreateTensorDesc(aclDataType dataType, "
                            "int numDims, const int64_t *dims, aclFormat format)", "tensor_desc"),
    "destroy_tensor_desc": P("void aclDestroyTensorDesc(const aclTensorDesc *desc)", ""),
    "get_tensor_desc_type": P("aclDataType aclGetTensorDescType(const aclTensorDesc *desc)",
                              "data_type", (C.ACL_DT_UNDEFINED,)),
    "get_tensor_desc_format": P("aclFormat aclGetTensorDescFormat(const aclTensorDesc *desc)",
                                "format", (C.ACL_FORMAT_UNDEFINED,)),
    "get_tensor_desc_size": P("size_t aclGetTensorDescSize(const aclTensorDesc *desc)", "size"),
    "get_tensor_desc_element_count": P("size_t aclGetTensorDescElementCount("
                                       "const aclTensorDesc *desc)", "count"),
    "get_tensor_desc_num_dims": P("size_t aclGetTensorDescNumDims(const aclTensorDesc *desc)",
                                  "num_dims"),
    "get_tensor_desc_dim_v2": P("aclError aclGetTensorDescDimV2(const aclTensorDesc *desc, "
                                "size_t index, int64_t *dimSize)", "dim_size, ret", (-1,)),
    "set_tensor_desc_name": P("void aclSetTensorDescName(aclTensorDesc *desc, const char *name)",
                              ""),
    "get_tensor_desc_name": P("const char *aclGetTensorDescName(aclTensorDesc *desc)", "name", ("",)),
    "set_tensor_const": P("aclError aclSetTensorConst(aclTensorDesc *desc, void *dataBuffer, "
                          "size_t length)", "ret"),
    "set_tensor_shape": P("aclError aclSetTensorShape(aclTensorDesc *desc, int numDims, "
                          "const int64_t *dims)", "ret"),
    "set_tensor_format": P("aclError aclSetTensorFormat(aclTensorDesc *desc, aclFormat format)",
                           "ret"),
}
