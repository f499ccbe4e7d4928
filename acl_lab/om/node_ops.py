"""The operators of an .om's graph as a profiler names them: (op type, op name) of each
top-level node, in the order they run. A model subscription (aclprofModelSubscribe) reports
one record per operator per execution under these names. Types are the ONNX operator types
(GE would report its own, e.g. Conv2D for Conv); an unnamed node is ``<type>_<index>``.
"""
from __future__ import annotations

MAX_OPS = 10_000        # operators a profiler reports per execution (the rest are not)


def node_ops(graph, limit: int = MAX_OPS) -> tuple:
    """The first ``limit`` operators of ``graph`` (an onnx GraphProto)."""
    return tuple((n.op_type, n.name or f"{n.op_type}_{i}")
                 for i, n in zip(range(limit), graph.node))
