"""What each single operator computes, in numpy: ``KERNELS[op](inputs, attrs, out_dtypes)``
returns the output arrays. Inputs arrive as arrays of the described type and shape;
attributes by name (defaults as the operator prototypes in CANN's ops define them)."""
from __future__ import annotations

import numpy as np

from acl_lab.om.gemm_kernel import gemm


def _binary(fn):
    return lambda xs, attrs, outs: [fn(xs[0], xs[1]).astype(outs[0], copy=False)]


def _unary(fn):
    return lambda xs, attrs, outs: [fn(xs[0]).astype(outs[0], copy=False)]


def _cast(xs, attrs, outs):
    return [xs[0].astype(outs[0])]


def _arg_max(xs, attrs, outs):
    axis = int(np.asarray(xs[1]).reshape(-1)[0])
    return [np.argmax(xs[0], axis=axis).astype(outs[0])]


def _matmul(first: str, second: str):
    def run(xs, attrs, outs):
        a, b = xs[0], xs[1]
        if attrs.get(first, False):
            a = np.swapaxes(a, -1, -2)
        if attrs.get(second, False):
            b = np.swapaxes(b, -1, -2)
        out = np.matmul(a, b)
        if len(xs) > 2:          # bias
            out = out + xs[2]
        return [out.astype(outs[0], copy=False)]
    return run


def _slice(xs, attrs, outs):
    offsets = np.asarray(xs[1]).reshape(-1)
    sizes = np.asarray(xs[2]).reshape(-1)
    index = tuple(slice(int(o), None if int(s) == -1 else int(o) + int(s))
                  for o, s in zip(offsets, sizes))
    return [xs[0][index].astype(outs[0], copy=False)]


KERNELS = {
    "Add": _binary(np.add), "Sub": _binary(np.subtract), "Mul": _binary(np.multiply),
    "Div": _binary(np.divide), "RealDiv": _binary(np.divide), "Maximum": _binary(np.maximum),
    "Minimum": _binary(np.minimum),
    "Abs": _unary(np.abs), "Neg": _unary(np.negative), "Exp": _unary(np.exp),
    "Log": _unary(np.log), "Sqrt": _unary(np.sqrt), "Square": _unary(np.square),
    "Relu": _unary(lambda x: np.maximum(x, 0)),
    "Cast": _cast, "ArgMaxV2": _arg_max, "Slice": _slice,
    "MatMul": _matmul("transpose_x1", "transpose_x2"),
    "MatMulV2": _matmul("transpose_x1", "transpose_x2"),
    "BatchMatMul": _matmul("adj_x1", "adj_x2"),
    "BatchMatMulV2": _matmul("adj_x1", "adj_x2"),
    "GEMM": gemm,          # aclblasGemmEx and its kin (om/gemm_kernel.py)
}
