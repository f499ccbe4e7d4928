"""The top level of pyACL beyond the basics: the rest of the tensor-description family
(hicann/ge ``inc/external/acl/acl_base_mdl.h``) and what the CANN installation tells
(hicann/runtime ``include/external/acl/acl_rt.h``, ``acl_base_rt.h``). Return shapes follow
pyACL's wrappers in ``python/pyACL/py_init_acl.cpp``.
"""
from acl_lab.spec.prototypes.row import Prototype as P

#: what pyACL's dict of a failed aclsysGetCANNVersion holds: the zeroed struct's strings
#: (py_init_acl.cpp GetPyDictFromVersion)
VERSION_EMPTY = {"version": "", "major_version": "", "minor_version": "", "release_version": "",
                 "patch_version": "", "reserved": ""}

ROWS = {
    # ----- tensor descriptions (hicann/ge acl_base_mdl.h) -------------------------------
    "get_tensor_desc_dim": P("int64_t aclGetTensorDescDim(const aclTensorDesc *desc, "
                             "size_t index)", "dim_size", (-1,)),
    "trans_tensor_desc_format": P("aclError aclTransTensorDescFormat(const aclTensorDesc *srcDesc, "
                                  "aclFormat dstFormat, aclTensorDesc **dstDesc)",
                                  "dst_desc, ret"),
    "set_tensor_storage_format": P("aclError aclSetTensorStorageFormat(aclTensorDesc *desc, "
                                   "aclFormat format)", "ret"),
    "set_tensor_storage_shape": P("aclError aclSetTensorStorageShape(aclTensorDesc *desc, "
                                  "int numDims, const int64_t *dims)", "ret"),
    "set_tensor_origin_format": P("aclError aclSetTensorOriginFormat(aclTensorDesc *desc, "
                                  "aclFormat format)", "ret"),
    "set_tensor_origin_shape": P("aclError aclSetTensorOriginShape(aclTensorDesc *desc, "
                                 "int numDims, const int64_t *dims)", "ret"),
    "set_tensor_dynamic_input": P("aclError aclSetTensorDynamicInput(aclTensorDesc *desc, "
                                  "const char *dynamicInputName)", "ret"),
    "set_tensor_shape_range": P("aclError aclSetTensorShapeRange(aclTensorDesc *desc, "
                                "size_t dimsCount, int64_t dimsRange[][ACL_TENSOR_SHAPE_RANGE_NUM])", "ret"),
    "set_tensor_value_range": P("aclError aclSetTensorValueRange(aclTensorDesc *desc, "
                                "size_t valueCount, int64_t valueRange[][ACL_TENSOR_VALUE_RANGE_NUM])", "ret"),
    "get_tensor_desc_dim_range": P("aclError aclGetTensorDescDimRange(const aclTensorDesc *desc, "
                                   "size_t index, size_t dimRangeNum, int64_t *dimRange)",
                                   "dim_range, ret", (None,)),
    "get_tensor_desc_address": P("void *aclGetTensorDescAddress(const aclTensorDesc *desc)",
                                 "address"),
    "get_tensor_desc_by_index": P("aclTensorDesc *aclGetTensorDescByIndex(aclTensorDesc *desc, "
                                  "size_t index)", "tensor_desc"),
    "set_tensor_place_ment": P("aclError aclSetTensorPlaceMent(aclTensorDesc *desc, "
                               "aclMemType memType)", "ret"),
    # ----- the CANN installation --------------------------------------------------------
    "get_cann_attribute_list": P("aclError aclGetCannAttributeList(const aclCannAttr **cannAttrList, "
                                 "size_t *num)", "attr_list, num, ret", ([], 0)),
    "get_cann_attribute": P("aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t *value)",
                            "value, ret"),
    "get_device_capability": P("aclError aclGetDeviceCapability(uint32_t deviceId, "
                               "aclDeviceInfo deviceInfo, int64_t *value)", "value, ret"),
    "get_cann_version": P("aclError aclsysGetCANNVersion(aclCANNPackageName name, "
                          "aclCANNPackageVersion *version)", "version, ret", (VERSION_EMPTY,)),
    "get_version_str": P("aclError aclsysGetVersionStr(char *pkgName, char *versionStr)",
                         "version_str, ret", ("",)),
    "finalize_reference": P("aclError aclFinalizeReference(uint64_t *refCount)",
                            "ref_count, ret"),
}
