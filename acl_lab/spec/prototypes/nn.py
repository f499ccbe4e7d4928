"""``acl.nn``: aclnn objects (hicann/opbase ``include/nnopbase/aclnn/acl_meta.h``) and operators
(``aclnn_add.h``, ``aclnn_mul.h``, ``aclnn_copy.h``; hicann/ops-math documents them under
``math/add``, ``math/mul``, ``conversion/view_copy``). pyACL binds none of them: the kit
follows its convention (C name in snake_case under the namespace that owns it).
"""
from acl_lab.spec.prototypes.row import Prototype as P

ROWS = {
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
}
