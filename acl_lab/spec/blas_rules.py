"""aclblas: what GEMM and GEMV check, and the GEMM operator they become.

hicann/ge's acl_cblas (gemm_ops.cpp aclblasGemmEx / aclblasCreateHandleForGemmEx,
gemv_ops.cpp): m, n, k above 0; transA and transB ACL_TRANS_N, _T or _NZ; transC _N or _NZ;
lda, ldb and ldc -1 only (reserved); ACL_COMPUTE_HIGH_PRECISION only; every pointer set;
each failure ACL_ERROR_INVALID_PARAM. The call is then the single operator "GEMM" with inputs
(a, b, c, alpha, beta) and output c, described by MatMulTemplate: a [m, k] ([k, m] if
transposed), b [k, n] ([n, k]), c [m, n], alpha and beta scalars of c's type, attributes
transpose_a / transpose_b; ACL_TRANS_NZ describes the fractal layouts om/gemm_kernel.py
reads. GEMV is GEMM with n = 1 (gemv_ops.cpp: m, 1, n; x is b with incx as its ldb, y is c).
aclblasHgemm is float16 throughout, aclblasS8gemm int8 in and int32 out.
"""
from __future__ import annotations

from acl_lab import constants as C
from acl_lab.i18n import _
from acl_lab.spec.refusal import Refusal

OP = "GEMM"
BLOCK, BLOCK_REDUCE, BLOCK_REDUCE_INT8 = 16, 16, 32
SCALAR_BYTES = 4          # SIZE_ALPHA_BETA: the alpha and beta buffers


def _refuse(text: str, **fields) -> Refusal:
    return Refusal(C.ACL_ERROR_INVALID_PARAM, text.format(**fields))


def check(call: str, m: int, n: int, k: int, trans_a: int, trans_b: int, trans_c: int,
          compute: int, lds: tuple | None = None) -> None:
    """The checks of aclblasGemmEx (``lds``: lda, ldb, ldc) and of
    aclblasCreateHandleForGemmEx (no ``lds``), in their order."""
    if m <= 0 or n <= 0 or k <= 0:
        raise _refuse(_("{call}: m, n and k must be above 0 (m = {m}, n = {n}, k = {k})."),
                      call=call, m=m, n=n, k=k)
    if not (C.ACL_TRANS_N <= trans_a < C.ACL_TRANS_NZ_T and
            C.ACL_TRANS_N <= trans_b < C.ACL_TRANS_NZ_T):
        raise _refuse(_("{call}: transA and transB take ACL_TRANS_N, ACL_TRANS_T or "
                        "ACL_TRANS_NZ (got {a}, {b})."), call=call, a=trans_a, b=trans_b)
    if trans_c not in (C.ACL_TRANS_N, C.ACL_TRANS_NZ):
        raise _refuse(_("{call}: transC takes ACL_TRANS_N or ACL_TRANS_NZ (got {c})."),
                      call=call, c=trans_c)
    if lds is not None and any(ld != -1 for ld in lds):
        raise _refuse(_("{call}: lda, ldb and ldc (incx and incy for a GEMV) are reserved and "
                        "must be -1 (got {lds})."), call=call, lds=", ".join(map(str, lds)))
    if compute != C.ACL_COMPUTE_HIGH_PRECISION:
        raise _refuse(_("{call}: type must be ACL_COMPUTE_HIGH_PRECISION (0)."), call=call)


def _ceil(a: int, b: int) -> int:
    return -(-a // b) if a else 0


def tensors(m: int, n: int, k: int, types: tuple[int, int, int], trans: tuple[int, int, int]
            ) -> list[tuple[int, tuple, int]]:
    """(data type, dims, format) of a, b, c, alpha, beta as MatMulTemplate describes them."""
    ta, tb, tc = trans
    type_a, type_b, type_c = types
    nd, nz, z = C.ACL_FORMAT_ND, C.ACL_FORMAT_FRACTAL_NZ, C.ACL_FORMAT_FRACTAL_Z
    a = (type_a, (m, k), nd)
    if ta == C.ACL_TRANS_T:
        a = (type_a, (k, m), nd)
    elif ta == C.ACL_TRANS_NZ:
        reduce = BLOCK_REDUCE_INT8 if type_a == C.ACL_INT8 else BLOCK_REDUCE
        a = (type_a, (_ceil(k, reduce), _ceil(m, BLOCK), BLOCK, reduce), nz)
    b = (type_b, (k, n), nd)
    if tb == C.ACL_TRANS_T:
        b = (type_b, (n, k), nd)
    elif tb == C.ACL_TRANS_NZ:
        b = (type_b, (_ceil(k, BLOCK_REDUCE_INT8), _ceil(n, BLOCK), BLOCK, BLOCK_REDUCE_INT8),
             z) if type_b == C.ACL_INT8 else \
            (type_b, (_ceil(n, BLOCK), _ceil(k, BLOCK_REDUCE), BLOCK_REDUCE, BLOCK), nz)
    c = (type_c, (m, n), nd) if tc != C.ACL_TRANS_NZ else \
        (type_c, (_ceil(n, BLOCK), _ceil(m, BLOCK), BLOCK, BLOCK), nz)
    scalar = (type_c, (), nd)
    return [a, b, c, scalar, scalar]


def attrs(trans_a: int, trans_b: int) -> dict:
    """The GEMM operator's attributes, as aclopSetAttrBool sets them."""
    return {"transpose_a": ("bool", trans_a == C.ACL_TRANS_T),
            "transpose_b": ("bool", trans_b == C.ACL_TRANS_T)}


def check_pointers(call: str, **pointers: int) -> None:
    """ACL_REQUIRES_NOT_NULL on alpha, beta, a, b and c, in that order."""
    for name, value in pointers.items():
        if value == 0:
            raise _refuse(_("{call}: {name} is NULL."), call=call, name=name)
