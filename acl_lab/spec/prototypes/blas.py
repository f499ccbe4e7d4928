"""``acl.blas``: hicann/ge ``inc/external/acl/ops/acl_cblas.h`` (pyACL's wrappers in
python/pyACL/blas/blas.cpp).
"""
from acl_lab.spec.prototypes.row import Prototype as P

ROWS = {
    "blas.gemv_ex": P("aclError aclblasGemvEx(aclTransType transA, int m, int n, "
                      "const void *alpha, const void *a, int lda, aclDataType dataTypeA, "
                      "const void *x, int incx, aclDataType dataTypeX, const void *beta, "
                      "void *y, int incy, aclDataType dataTypeY, aclComputeType type, "
                      "aclrtStream stream)", "ret"),
    "blas.create_handle_for_gemv_ex": P("aclError aclblasCreateHandleForGemvEx(aclTransType "
                                        "transA, int m, int n, aclDataType dataTypeA, "
                                        "aclDataType dataTypeX, aclDataType dataTypeY, "
                                        "aclComputeType type, aclopHandle **handle)",
                                        "handle, ret"),
    "blas.hgemv": P("aclError aclblasHgemv(aclTransType transA, int m, int n, "
                    "const aclFloat16 *alpha, const aclFloat16 *a, int lda, const aclFloat16 *x, "
                    "int incx, const aclFloat16 *beta, aclFloat16 *y, int incy, "
                    "aclComputeType type, aclrtStream stream)", "ret"),
    "blas.create_handle_for_hgemv": P("aclError aclblasCreateHandleForHgemv(aclTransType "
                                      "transA, int m, int n, aclComputeType type, "
                                      "aclopHandle **handle)", "handle, ret"),
    "blas.s8gemv": P("aclError aclblasS8gemv(aclTransType transA, int m, int n, "
                     "const int32_t *alpha, const int8_t *a, int lda, const int8_t *x, int incx, "
                     "const int32_t *beta, int32_t *y, int incy, aclComputeType type, "
                     "aclrtStream stream)", "ret"),
    "blas.create_handle_for_s8gemv": P("aclError aclblasCreateHandleForS8gemv(aclTransType "
                                       "transA, int m, int n, aclComputeType type, "
                                       "aclopHandle **handle)", "handle, ret"),
    "blas.gemm_ex": P("aclError aclblasGemmEx(aclTransType transA, aclTransType transB, "
                      "aclTransType transC, int m, int n, int k, const void *alpha, "
                      "const void *matrixA, int lda, aclDataType dataTypeA, const void *matrixB, "
                      "int ldb, aclDataType dataTypeB, const void *beta, void *matrixC, int ldc, "
                      "aclDataType dataTypeC, aclComputeType type, aclrtStream stream)", "ret"),
    "blas.create_handle_for_gemm_ex": P("aclError aclblasCreateHandleForGemmEx(aclTransType "
                                        "transA, aclTransType transB, aclTransType transC, "
                                        "int m, int n, int k, aclDataType dataTypeA, "
                                        "aclDataType dataTypeB, aclDataType dataTypeC, "
                                        "aclComputeType type, aclopHandle **handle)",
                                        "handle, ret"),
    "blas.hgemm": P("aclError aclblasHgemm(aclTransType transA, aclTransType transB, "
                    "aclTransType transC, int m, int n, int k, const aclFloat16 *alpha, "
                    "const aclFloat16 *matrixA, int lda, const aclFloat16 *matrixB, int ldb, "
                    "const aclFloat16 *beta, aclFloat16 *matrixC, int ldc, aclComputeType type, "
                    "aclrtStream stream)", "ret"),
    "blas.create_handle_for_hgemm": P("aclError aclblasCreateHandleForHgemm(aclTransType "
                                      "transA, aclTransType transB, aclTransType transC, int m, "
                                      "int n, int k, aclComputeType type, "
                                      "aclopHandle **handle)", "handle, ret"),
    "blas.s8gemm": P("aclError aclblasS8gemm(aclTransType transA, aclTransType transB, "
                     "aclTransType transC, int m, int n, int k, const int32_t *alpha, "
                     "const int8_t *matrixA, int lda, const int8_t *matrixB, int ldb, "
                     "const int32_t *beta, int32_t *matrixC, int ldc, aclComputeType type, "
                     "aclrtStream stream)", "ret"),
    "blas.create_handle_for_s8gemm": P("aclError aclblasCreateHandleForS8gemm(aclTransType "
                                       "transA, aclTransType transB, aclTransType transC, "
                                       "int m, int n, int k, aclComputeType type, "
                                       "aclopHandle **handle)", "handle, ret"),
}
