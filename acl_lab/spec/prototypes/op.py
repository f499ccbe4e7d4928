"""``acl.op``: single operators, hicann/ge ``inc/external/acl/acl_op.h``.
"""
from acl_lab.spec.prototypes.row import Prototype as P

ROWS = {
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
}
