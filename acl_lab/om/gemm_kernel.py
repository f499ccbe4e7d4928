"""The GEMM single operator, which aclblasGemmEx and its kin run: y = alpha * op(a) @ op(b)
+ beta * c, inputs (a, b, c, alpha, beta), attributes transpose_a / transpose_b.

A matrix may come in the fractal layouts hicann/ge's gemm_ops.cpp describes for
ACL_TRANS_NZ (MatMulTemplate): a 4-D tensor of 16 x 16 blocks (FRACTAL_NZ: a as [k1, m1, m0,
k0], b as [n1, k1, k0, n0], c and y as [n1, m1, m0, n0]; int8 takes 32 along k, and its b is
FRACTAL_Z, [k1, n1, n0, k0]). The product is taken over the padded blocks, as the Cube unit
does: padding the program leaves in a and b counts. Products accumulate in float32 (int32 for
int8 inputs), then take the output's type.
"""
from __future__ import annotations

import numpy as np


def _matrix(x: np.ndarray, role: str) -> np.ndarray:
    """A 2-D view of an operand given in ND or in a 4-D fractal layout."""
    if x.ndim != 4:
        return x
    if role == "b" and x.dtype == np.int8:                 # FRACTAL_Z [k1, n1, n0, k0]
        k1, n1, n0, k0 = x.shape
        return x.transpose(0, 3, 1, 2).reshape(k1 * k0, n1 * n0)
    a1, b1, b0, a0 = x.shape     # a: [k1, m1, m0, k0]; b: [n1, k1, k0, n0]; c: [n1, m1, m0, n0]
    return x.transpose(1, 2, 0, 3).reshape(b1 * b0, a1 * a0)


def _fractal(y: np.ndarray, like: np.ndarray) -> np.ndarray:
    """``y`` (m x n) in the layout of ``like`` (c's)."""
    if like.ndim != 4:
        return y
    n1, m1, m0, n0 = like.shape
    return y.reshape(m1, m0, n1, n0).transpose(2, 0, 1, 3)


def gemm(xs, attrs, outs):
    a, b, c, alpha, beta = xs
    a2, b2, c2 = _matrix(a, "a"), _matrix(b, "b"), _matrix(c, "c")
    if attrs.get("transpose_a", False):
        a2 = a2.T
    if attrs.get("transpose_b", False):
        b2 = b2.T
    acc = np.int32 if a.dtype == np.int8 else np.float32
    product = a2.astype(acc) @ b2.astype(acc)
    scale = np.asarray(alpha, acc).reshape(-1)[0]
    keep = np.asarray(beta, acc).reshape(-1)[0]
    y = scale * product + keep * c2.astype(acc)
    return [_fractal(y, c).astype(outs[0], copy=False)]
