"""``acl.blas``: matrix-matrix and matrix-vector products (pyACL python/pyACL/blas/blas.cpp;
hicann/ge acl_cblas). Each call is the single operator GEMM (sim/blas.py): it needs a GEMM
model from ``acl-lab atc --singleop``, runs on its stream, and is computed in numpy.

pyACL's gemv_ex hands aclblasGemvEx its incy where incx belongs (blas.cpp,
WrapAclblasGemvEx), so a GEMV through gemv_ex checks incy twice and never incx; the
simulator does the same. hgemv and s8gemv pass both."""
from acl_lab import constants as C
from acl_lab.sim import blas
from acl_lab.sim.facade._call import Namespace, acl_call
from acl_lab.spec import args

_N, _NZ = C.ACL_TRANS_N, C.ACL_TRANS_NZ
F16, I8, I32 = C.ACL_FLOAT16, C.ACL_INT8, C.ACL_INT32


class Blas(Namespace):
    """acl.blas"""

    # ----- matrix-vector: GEMM with n = 1 (gemv_ops.cpp) ---------------------------------
    @acl_call("blas.gemv_ex")
    def gemv_ex(self, rt, trans_a: args.i32, m: args.i32, n: args.i32, alpha: args.ptr,
                a: args.ptr, lda: args.i32, data_type_a: args.i32, x: args.ptr, incx: args.i32,
                data_type_x: args.i32, beta: args.ptr, y: args.ptr, incy: args.i32,
                data_type_y: args.i32, type: args.i32, stream: args.ptr):  # noqa: A002
        blas.gemm(rt, "aclblasGemvEx", (trans_a, _N, _N), (m, 1, n), (alpha, a, x, beta, y),
                  (lda, incy, incy), (data_type_a, data_type_x, data_type_y), type, stream)

    @acl_call("blas.create_handle_for_gemv_ex")
    def create_handle_for_gemv_ex(self, rt, trans_a: args.i32, m: args.i32, n: args.i32,
                                  data_type_a: args.i32, data_type_x: args.i32,
                                  data_type_y: args.i32, type: args.i32):  # noqa: A002
        return blas.create_handle(rt, "aclblasCreateHandleForGemvEx", (trans_a, _N, _N),
                                  (m, 1, n), (data_type_a, data_type_x, data_type_y), type)

    @acl_call("blas.hgemv")
    def hgemv(self, rt, trans_a: args.i32, m: args.i32, n: args.i32, alpha: args.ptr,
              a: args.ptr, lda: args.i32, x: args.ptr, incx: args.i32, beta: args.ptr,
              y: args.ptr, incy: args.i32, type: args.i32, stream: args.ptr):  # noqa: A002
        blas.gemm(rt, "aclblasHgemv", (trans_a, _N, _N), (m, 1, n), (alpha, a, x, beta, y),
                  (lda, incx, incy), (F16, F16, F16), type, stream)

    @acl_call("blas.create_handle_for_hgemv")
    def create_handle_for_hgemv(self, rt, trans_a: args.i32, m: args.i32, n: args.i32,
                                type: args.i32):  # noqa: A002
        return blas.create_handle(rt, "aclblasCreateHandleForHgemv", (trans_a, _N, _N),
                                  (m, 1, n), (F16, F16, F16), type)

    @acl_call("blas.s8gemv")
    def s8gemv(self, rt, trans_a: args.i32, m: args.i32, n: args.i32, alpha: args.ptr,
               a: args.ptr, lda: args.i32, x: args.ptr, incx: args.i32, beta: args.ptr,
               y: args.ptr, incy: args.i32, type: args.i32, stream: args.ptr):  # noqa: A002
        blas.gemm(rt, "aclblasS8gemv", (trans_a, _N, _N), (m, 1, n), (alpha, a, x, beta, y),
                  (lda, incx, incy), (I8, I8, I32), type, stream)

    @acl_call("blas.create_handle_for_s8gemv")
    def create_handle_for_s8gemv(self, rt, trans_a: args.i32, m: args.i32, n: args.i32,
                                 type: args.i32):  # noqa: A002
        return blas.create_handle(rt, "aclblasCreateHandleForS8gemv", (trans_a, _N, _N),
                                  (m, 1, n), (I8, I8, I32), type)

    # ----- matrix-matrix ---------------------------------------------------------------
    @acl_call("blas.gemm_ex")
    def gemm_ex(self, rt, trans_a: args.i32, trans_b: args.i32, trans_c: args.i32,
                m: args.i32, n: args.i32, k: args.i32, alpha: args.ptr, matrix_a: args.ptr,
                lda: args.i32, data_type_a: args.i32, matrix_b: args.ptr, ldb: args.i32,
                data_type_b: args.i32, beta: args.ptr, matrix_c: args.ptr, ldc: args.i32,
                data_type_c: args.i32, type: args.i32, stream: args.ptr):  # noqa: A002
        blas.gemm(rt, "aclblasGemmEx", (trans_a, trans_b, trans_c), (m, n, k),
                  (alpha, matrix_a, matrix_b, beta, matrix_c), (lda, ldb, ldc),
                  (data_type_a, data_type_b, data_type_c), type, stream)

    @acl_call("blas.create_handle_for_gemm_ex")
    def create_handle_for_gemm_ex(self, rt, trans_a: args.i32, trans_b: args.i32,
                                  trans_c: args.i32, m: args.i32, n: args.i32, k: args.i32,
                                  data_type_a: args.i32, data_type_b: args.i32,
                                  data_type_c: args.i32, type: args.i32):  # noqa: A002
        return blas.create_handle(rt, "aclblasCreateHandleForGemmEx", (trans_a, trans_b, trans_c),
                                  (m, n, k), (data_type_a, data_type_b, data_type_c), type)

    @acl_call("blas.hgemm")
    def hgemm(self, rt, trans_a: args.i32, trans_b: args.i32, trans_c: args.i32, m: args.i32,
              n: args.i32, k: args.i32, alpha: args.ptr, matrix_a: args.ptr, lda: args.i32,
              matrix_b: args.ptr, ldb: args.i32, beta: args.ptr, matrix_c: args.ptr,
              ldc: args.i32, type: args.i32, stream: args.ptr):  # noqa: A002
        blas.gemm(rt, "aclblasHgemm", (trans_a, trans_b, trans_c), (m, n, k),
                  (alpha, matrix_a, matrix_b, beta, matrix_c), (lda, ldb, ldc), (F16, F16, F16),
                  type, stream)

    @acl_call("blas.create_handle_for_hgemm")
    def create_handle_for_hgemm(self, rt, trans_a: args.i32, trans_b: args.i32,
                                trans_c: args.i32, m: args.i32, n: args.i32, k: args.i32,
                                type: args.i32):  # noqa: A002
        return blas.create_handle(rt, "aclblasCreateHandleForHgemm", (trans_a, trans_b, trans_c),
                                  (m, n, k), (F16, F16, F16), type)

    @acl_call("blas.s8gemm")
    def s8gemm(self, rt, trans_a: args.i32, trans_b: args.i32, trans_c: args.i32, m: args.i32,
               n: args.i32, k: args.i32, alpha: args.ptr, matrix_a: args.ptr, lda: args.i32,
               matrix_b: args.ptr, ldb: args.i32, beta: args.ptr, matrix_c: args.ptr,
               ldc: args.i32, type: args.i32, stream: args.ptr):  # noqa: A002
        blas.gemm(rt, "aclblasS8gemm", (trans_a, trans_b, trans_c), (m, n, k),
                  (alpha, matrix_a, matrix_b, beta, matrix_c), (lda, ldb, ldc), (I8, I8, I32),
                  type, stream)

    @acl_call("blas.create_handle_for_s8gemm")
    def create_handle_for_s8gemm(self, rt, trans_a: args.i32, trans_b: args.i32,
                                 trans_c: args.i32, m: args.i32, n: args.i32, k: args.i32,
                                 type: args.i32):  # noqa: A002
        return blas.create_handle(rt, "aclblasCreateHandleForS8gemm", (trans_a, trans_b, trans_c),
                                  (m, n, k), (I8, I8, I32), type)
