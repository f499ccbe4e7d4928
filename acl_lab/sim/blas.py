"""acl.blas on the simulator: a GEMM or GEMV is checked as acl_cblas checks it
(spec/blas_rules.py), then runs as the single operator "GEMM" on the stream, as hicann/ge's
gemm_ops.cpp runs it (aclopExecuteV2): so, as on a device, it needs a GEMM model compiled by
``acl-lab atc --singleop`` and loaded (acl.op.set_model_dir or acl.op.load), it is queued
like every task, computed in numpy (om/gemm_kernel.py) on simulated device memory when the
stream runs, and takes the operator's modeled time. A handle is aclopCreateHandle of the
same operator, run with acl.op.execute_with_handle.
"""
from __future__ import annotations

from typing import NamedTuple

from acl_lab.sim.single_op.more_ops import new_handle
from acl_lab.sim.single_op.runtime import Desc
from acl_lab.spec import blas_rules
from acl_lab.spec.dtypes import size as dtype_size


class Span(NamedTuple):
    """An aclDataBuffer gemm_ops.cpp builds on its stack: an address and a size."""
    addr: int
    size: int


def _descs(m, n, k, types, trans) -> list[Desc]:
    return [Desc(0, dtype, dims, fmt)
            for dtype, dims, fmt in blas_rules.tensors(m, n, k, types, trans)]


def gemm(rt, call: str, trans: tuple, mnk: tuple, pointers: tuple, lds: tuple, types: tuple,
         compute: int, stream: int) -> None:
    """``pointers``: alpha, a, b, beta, c (the order of aclblasGemmEx's arguments)."""
    alpha, a, b, beta, c = pointers
    blas_rules.check_pointers(call, alpha=alpha, beta=beta, matrixA=a, matrixB=b, matrixC=c)
    blas_rules.check(call, *mnk, *trans, compute, lds)
    descs = _descs(*mnk, types, trans)
    sizes = [d.element_count() * dtype_size(d.dtype) for d in descs[:3]]
    bufs = [Span(a, sizes[0]), Span(b, sizes[1]), Span(c, sizes[2]),
            Span(alpha, blas_rules.SCALAR_BYTES), Span(beta, blas_rules.SCALAR_BYTES)]
    ops = rt.single_ops
    model = ops.match(blas_rules.OP, descs, descs[2:3], blas_rules.attrs(*trans[:2]), call)
    ops.launch(model, descs, bufs, descs[2:3], bufs[2:3], stream, call)


def create_handle(rt, call: str, trans: tuple, mnk: tuple, types: tuple, compute: int) -> int:
    blas_rules.check(call, *mnk, *trans, compute)
    descs = _descs(*mnk, types, trans)
    model = rt.single_ops.match(blas_rules.OP, descs, descs[2:3],
                                blas_rules.attrs(*trans[:2]), call)
    return new_handle(rt, model, tuple(descs), tuple(descs[2:3]))
